import type { ReactNode } from 'react';
import { Badge, Popover, Tooltip } from 'antd';
import BellOutlined from '@ant-design/icons/BellOutlined';
import { SocketState, type MenuItem, type User } from '@nest/contracts';
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

/** News indicator: no message source exists yet, so the count is 0 and the popover says so. */
function NewsBell(): ReactNode {
  const { t } = useI18n();
  const count = 0;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('header.news.title')}
      content={<div className="news-empty">{t('header.news.empty')}</div>}
    >
      <button type="button" className="header-icon-button" data-testid="header-news" aria-label={t('header.news.label')}>
        <Badge count={count} size="small" offset={[2, -2]}>
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
        <NewsBell />
        <UserMenu user={user} />
      </div>
    </header>
  );
}
