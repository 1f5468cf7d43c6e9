import { Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import type { MenuItem, User } from '@nest/contracts';
import { useI18n } from '../shared/i18n';
import { wantModals } from '../shared/notify';
import { QueryProvider } from '../shared/query';
import { Guard } from './guard/Guard';
import { whenSettled } from '../shared/lazy';
import { routeEntries } from './menu/menu';
import { ComingPage } from './pages/ComingPage';
import { LoadBoundary } from './pages/LoadFailed';
import { LoadingState } from './pages/LoadingState';
import { NotFoundPage } from './pages/NotFoundPage';
import { FIXED_ROUTES, HOME_PATH, LAYOUT_PATH, screenFor } from './screens';
import { Shell } from './shell/Shell';
import { useDocumentTitle } from './title';

/** One screen: its lazy module by file path, or the coming page; sets the page title. */
function Screen({ filePath, title, fullScreen }: { filePath: string; title: string; fullScreen: boolean }): ReactNode {
  useDocumentTitle(title);
  const Component = screenFor(filePath);
  if (!Component) return <ComingPage title={title} fullScreen={fullScreen} />;
  // Keyed by screen: going to another screen leaves a failed one's message behind.
  return (
    <LoadBoundary key={filePath} screen={fullScreen}>
      <Suspense fallback={<LoadingState screen={fullScreen} />}>
        <Component />
      </Suspense>
    </LoadBoundary>
  );
}

const rel = (path: string) => path.replace(/^\//, '');

/** The routes of a signed-in user: fixed ones, plus one per menu entry whose fun_id the user holds. */
export function MenuRoutes({ user, menu }: { user: User; menu: MenuItem[] }): ReactNode {
  const { t, tx } = useI18n();
  const fixedPaths = new Set(FIXED_ROUTES.map((r) => r.path));
  const entries = routeEntries(menu, user.fun_list).filter((e) => !fixedPaths.has(e.path));
  const screen = (path: string, filePath: string, title: string, fullScreen: boolean) => (
    <Route key={path} path={rel(path)} element={<Screen filePath={filePath} title={title} fullScreen={fullScreen} />} />
  );
  // A fixed route takes the title of the menu entry of the same path when there is one.
  const titleOf = (path: string, fallback: string) => {
    const entry = menu.length ? routeEntries(menu, user.fun_list).find((e) => e.path === path) : undefined;
    return entry ? tx(entry.meta.title) : fallback;
  };
  return (
    <Routes>
      <Route element={<Shell user={user} menu={menu} />}>
        <Route path={rel(LAYOUT_PATH)} element={<Navigate to={HOME_PATH} replace />} />
        {FIXED_ROUTES.filter((r) => !r.fullScreen).map((r) => screen(r.path, r.filePath, titleOf(r.path, t(r.titleKey)), false))}
        {entries.filter((e) => !e.meta.fullScreen).map((e) => screen(e.path, e.filePath, tx(e.meta.title), false))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      {FIXED_ROUTES.filter((r) => r.fullScreen).map((r) => screen(r.path, r.filePath, t(r.titleKey), true))}
      {entries.filter((e) => e.meta.fullScreen).map((e) => screen(e.path, e.filePath, tx(e.meta.title), true))}
    </Routes>
  );
}

/** Everything behind sign-in: the guard, then the shell with fixed and menu-driven routes. */
export default function PrivateApp(): ReactNode {
  // Confirmation boxes (sign-out, login expiry, password changed) are needed from here on: their code is
  // fetched once the first screen has settled (a box asked for earlier fetches it at once).
  useEffect(() => whenSettled(wantModals), []);
  return (
    <QueryProvider>
      <Guard>{({ user, menu }) => <MenuRoutes user={user} menu={menu} />}</Guard>
    </QueryProvider>
  );
}
