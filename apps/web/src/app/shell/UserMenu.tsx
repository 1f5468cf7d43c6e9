import { useState, type ReactNode } from 'react';
import { Popover } from 'antd';
import DownOutlined from '@ant-design/icons/DownOutlined';
import IdcardOutlined from '@ant-design/icons/IdcardOutlined';
import LockOutlined from '@ant-design/icons/LockOutlined';
import LogoutOutlined from '@ant-design/icons/LogoutOutlined';
import ProfileOutlined from '@ant-design/icons/ProfileOutlined';
import UserOutlined from '@ant-design/icons/UserOutlined';
import type { User } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { endSession } from '../../shared/session';
import { openDialog, type DialogKind } from '../dialogs/store';

/** Sign out: confirmation, then the server token is revoked (best effort) and the session cleared. */
export function confirmSignOut(t: ReturnType<typeof useI18n>['t']): void {
  notify().confirm({
    title: t('header.logout.title'),
    content: t('header.logout.content'),
    okText: t('common.ok'),
    cancelText: t('common.cancel'),
    onOk: () => {
      // The payload is built (with the token) before clearing; the answer does not matter.
      call('logout', {}, { quiet: true, timeoutMs: 5000 }).catch(() => undefined);
      endSession();
    },
  });
}

export function UserMenu({ user }: { user: User }): ReactNode {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const entry = (testId: string, icon: ReactNode, label: string, action: () => void) => (
    <button
      type="button"
      role="menuitem"
      className="user-menu-entry"
      data-testid={testId}
      onClick={() => {
        setOpen(false);
        action();
      }}
    >
      {icon}
      <span>{label}</span>
    </button>
  );
  const dialog = (kind: DialogKind) => () => openDialog(kind);
  return (
    <Popover
      trigger="hover"
      placement="bottomRight"
      arrow={false}
      open={open}
      onOpenChange={setOpen}
      classNames={{ root: 'nav-popover' }}
      content={
        <div className="nav-popover-list user-menu-list" role="menu">
          <div className="user-menu-head">
            <strong>{user.nick}</strong>
            <span>{user.phone}</span>
          </div>
          {entry('user-menu-account', <IdcardOutlined />, t('header.user.account'), dialog('account'))}
          {entry('user-menu-info', <ProfileOutlined />, t('header.user.info'), dialog('info'))}
          {entry('user-menu-password', <LockOutlined />, t('header.user.password'), dialog('password'))}
          <div className="user-menu-divider" />
          {entry('user-menu-logout', <LogoutOutlined />, t('header.user.logout'), () => confirmSignOut(t))}
        </div>
      }
    >
      <button type="button" className="header-user" data-testid="user-menu">
        <span className="header-avatar">
          <UserOutlined />
        </span>
        <span className="header-nick">{user.nick}</span>
        <DownOutlined className="nav-item-caret" />
      </button>
    </Popover>
  );
}
