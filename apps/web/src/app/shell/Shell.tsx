import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import type { MenuItem, User } from '@nest/contracts';
import { Dialogs } from '../dialogs/Dialogs';
import { Header } from './Header';
import './shell.css';

/** The /layout shell: header, the current screen, the shell's dialogs. */
export function Shell({ user, menu }: { user: User; menu: MenuItem[] }): ReactNode {
  return (
    <div className="app-shell">
      <Header user={user} menu={menu} />
      <main className="app-main">
        <Outlet />
      </main>
      <Dialogs user={user} />
    </div>
  );
}
