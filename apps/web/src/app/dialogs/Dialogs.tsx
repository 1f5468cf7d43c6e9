import type { ReactNode } from 'react';
import type { User } from '@nest/contracts';
import { AccountEditDialog } from './AccountEditDialog';
import { PasswordDialog } from './PasswordDialog';
import { SettingsDialog } from './SettingsDialog';
import { UserInfoDialog } from './UserInfoDialog';
import { closeDialog, useOpenDialog } from './store';
import './dialogs.css';

/** Renders the shell dialog that is open (each mounts fresh, so forms start from the current user). */
export function Dialogs({ user }: { user: User }): ReactNode {
  const open = useOpenDialog();
  return (
    <>
      {open === 'account' && <AccountEditDialog user={user} onClose={closeDialog} />}
      {open === 'info' && <UserInfoDialog user={user} onClose={closeDialog} />}
      {open === 'password' && <PasswordDialog user={user} onClose={closeDialog} />}
      {open === 'settings' && <SettingsDialog onClose={closeDialog} />}
    </>
  );
}
