import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { Button, notification } from 'antd';
import { type Alarm, type MenuItem, type User } from '@nest/contracts';
import { describeAlarm, openAlarmCenter, useNews } from '../../features/alarms/alarms';
import { useAlarmNews } from '../../features/alarms/useAlarmNews';
import { useI18n } from '../../shared/i18n';
import { useOpenDialog } from '../dialogs/store';
import { preloadable, whenSettled } from '../../shared/lazy';
import { NOTIFICATION_PLACEMENT } from '../notify/placement';
import { Header } from './Header';
import './shell.css';

// The alarm center (a drawer with a table, filters and dates) and the account dialogs are code of their
// own: fetched when first opened, or ahead once the screen is idle, never before the screen's first paint.
const alarmCenter = preloadable(() => import('../../features/alarms/AlarmCenter').then((m) => ({ default: m.AlarmCenter })));
const AlarmCenter = alarmCenter.Component;
const dialogs = preloadable(() => import('../dialogs/Dialogs').then((m) => ({ default: m.Dialogs })));
const Dialogs = dialogs.Component;

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
  const dialogOpen = useOpenDialog() !== null;
  // Mounted from its first opening on (it then stays, so that the drawer closes as a drawer does).
  const centerOpen = useNews().centerOpen;
  const [centerWanted, setCenterWanted] = useState(false);
  if (centerOpen && !centerWanted) setCenterWanted(true);
  useEffect(
    () =>
      whenSettled(() => {
        alarmCenter.preload().catch(() => undefined);
        dialogs.preload().catch(() => undefined);
      }),
    [],
  );
  return (
    <div className="app-shell">
      {holder}
      <Header user={user} menu={menu} />
      <main className="app-main">
        <Outlet />
      </main>
      <Suspense fallback={null}>
        {dialogOpen && <Dialogs user={user} />}
        {alarmsAllowed && centerWanted && <AlarmCenter />}
      </Suspense>
    </div>
  );
}
