import { useCallback, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { Button, notification } from 'antd';
import { type Alarm, type MenuItem, type User } from '@nest/contracts';
import { AlarmCenter } from '../../features/alarms/AlarmCenter';
import { describeAlarm, openAlarmCenter } from '../../features/alarms/alarms';
import { useAlarmNews } from '../../features/alarms/useAlarmNews';
import { useI18n } from '../../shared/i18n';
import { Dialogs } from '../dialogs/Dialogs';
import { NOTIFICATION_PLACEMENT } from '../notify/placement';
import { Header } from './Header';
import './shell.css';

/** The /layout shell: header, the current screen, the shell's dialogs, the alarm center and its notices. */
export function Shell({ user, menu }: { user: User; menu: MenuItem[] }): ReactNode {
  const { t, lang } = useI18n();
  const [api, holder] = notification.useNotification(NOTIFICATION_PLACEMENT);
  const onHigh = useCallback(
    (a: Alarm) => {
      api.error({
        key: a.id,
        title: t('alarms.news.highTitle'),
        description: `${a.device_name || a.sn_id}${lang === 'zh' ? '：' : ': '}${describeAlarm(a, lang)}`,
        duration: 8,
        actions: (
          <Button
            size="small"
            onClick={() => {
              api.destroy(a.id);
              openAlarmCenter();
            }}
          >
            {t('alarms.news.viewAll')}
          </Button>
        ),
      });
    },
    [api, t, lang],
  );
  const alarmsAllowed = useAlarmNews(user, onHigh);
  return (
    <div className="app-shell">
      {holder}
      <Header user={user} menu={menu} />
      <main className="app-main">
        <Outlet />
      </main>
      <Dialogs user={user} />
      {alarmsAllowed && <AlarmCenter />}
    </div>
  );
}
