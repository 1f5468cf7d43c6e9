import { useState, type ReactNode } from 'react';
import { Badge, Button, Popover, Tooltip } from 'antd';
import BellOutlined from '@ant-design/icons/BellOutlined';
import { AlarmProcessState, formatDateTime, AlarmLevel, SocketState, type MenuItem, type User } from '@nest/contracts';
import { canListAlarms, describeAlarm, levelColor, openAlarmCenter, useNews } from '../../features/alarms/alarms';
import { useI18n, type MessageKey } from '../../shared/i18n';
import { pushAllowed, usePushState } from '../../shared/push';
import { headerItems, splitHeader } from '../menu/menu';
import { Logo } from './Logo';
import { NavBar } from './NavBar';
import { UserMenu } from './UserMenu';

const PUSH_STATE_TEXT: Record<SocketState, MessageKey> = {
  [SocketState.CONNECTING]: 'header.push.connecting',
  [SocketState.OPEN]: 'header.push.open',
  [SocketState.CLOSING]: 'header.push.closing',
  [SocketState.CLOSED]: 'header.push.closed',
};

function PushIndicator(): ReactNode {
  const { t } = useI18n();
  const state = usePushState();
  return (
    <Tooltip title={`${t('header.push.label')}: ${t(PUSH_STATE_TEXT[state])}`}>
      <span className={`push-dot push-state-${state}`} data-testid="header-push" aria-label={t(PUSH_STATE_TEXT[state])} />
    </Tooltip>
  );
}

/**
 * News indicator: the company's pending alarms (badge) and the newest alarms (popover) for holders of
 * alarm_list; "view all" opens the alarm center. Others see the bell without a badge.
 */
function NewsBell({ user }: { user: User }): ReactNode {
  const { t, lang } = useI18n();
  const news = useNews();
  const [open, setOpen] = useState(false);
  const allowed = canListAlarms(user.fun_list);
  const count = allowed ? (news.pending ?? 0) : 0;
  const content = !allowed ? (
    <div className="news-empty">{t('header.news.empty')}</div>
  ) : (
    <div className="news-pop" data-testid="header-news-popover">
      <div className="news-pop-head">
        <span>{count > 0 ? t('alarms.news.pending', { n: count }) : t('alarms.news.none')}</span>
      </div>
      {news.latest.length === 0 ? (
        <div className="news-empty">{t('header.news.empty')}</div>
      ) : (
        <ul className="news-list">
          {news.latest.map((a) => (
            <li
              key={a.id}
              className={`news-item${a.state === AlarmProcessState.PROCESSED ? ' is-processed' : ''}`}
              data-testid="header-news-item"
              data-level={a.level}
              onClick={() => {
                setOpen(false);
                openAlarmCenter();
              }}
            >
              <i style={{ background: levelColor(a.level) }} />
              <div>
                <div className="news-item-text" title={describeAlarm(a, lang)}>{describeAlarm(a, lang)}</div>
                <div className="news-item-meta">
                  <span>
                    {AlarmLevel.label(a.level, lang)} · {a.device_name || a.sn_id}
                  </span>
                  <span>{formatDateTime(a.raised_at, lang)}</span>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="news-foot">
        <Button
          size="small"
          type="primary"
          ghost
          onClick={() => {
            setOpen(false);
            openAlarmCenter();
          }}
          data-testid="header-news-all"
        >
          {t('alarms.news.viewAll')}
        </Button>
      </div>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('header.news.title')} content={content} open={open} onOpenChange={setOpen}>
      <button type="button" className="header-icon-button" data-testid="header-news" data-count={count} aria-label={t('header.news.label')}>
        <Badge count={count} size="small" offset={[2, -2]} overflowCount={99} data-testid="header-news-badge">
          <BellOutlined className="header-bell" />
        </Badge>
      </button>
    </Popover>
  );
}

export function Header({ user, menu }: { user: User; menu: MenuItem[] }): ReactNode {
  const { t } = useI18n();
  const { left, right } = splitHeader(headerItems(menu, user.fun_list));
  return (
    <header className="app-header" data-testid="app-header">
      <div className="header-side header-side-left">
        <NavBar items={left} funList={user.fun_list} side="left" />
      </div>
      <div className="header-brand">
        <Logo />
        <h1 className="header-title">{t('app.name')}</h1>
      </div>
      <div className="header-side header-side-right">
        <NavBar items={right} funList={user.fun_list} side="right" />
      </div>
      <div className="header-tools">
        {pushAllowed(user) && <PushIndicator />}
        <NewsBell user={user} />
        <UserMenu user={user} />
      </div>
    </header>
  );
}
