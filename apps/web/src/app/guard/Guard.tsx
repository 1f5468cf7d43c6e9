import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { userSchema, type MenuItem, type User } from '@nest/contracts';
import { getToken, useToken } from '../../shared/cookie';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { ensurePush, recreatePush } from '../../shared/push';
import { call } from '../../shared/request';
import { endSession, getUser, restoreUser, setUser, useUser } from '../../shared/session';
import { entryOfPath } from '../menu/menu';
import { getMenu, loadMenu, useMenu } from '../menu/store';
import { LoadingState } from '../pages/LoadingState';
import type { LoginState } from '../login/loginState';

/** Routes on which a tab becoming visible does not recreate the push connection (SPEC section 2). */
const NO_PUSH_REFRESH = new Set(['navigationEnvironment']);

/**
 * SPEC route guard for every route but login:
 * no token -> login (remembering path and query); user missing -> restored from the saved copy (or asked
 * from the server); menu empty -> loaded first, then the requested path and query are navigated to; the push
 * connection created when absent for super_administrator / device_10; a hidden tab becoming visible
 * recreates it unless on login or navigationEnvironment.
 */
export function Guard({ children }: { children: (ctx: { user: User; menu: MenuItem[] }) => ReactNode }): ReactNode {
  const { t } = useI18n();
  const token = useToken();
  const user = useUser();
  const menu = useMenu();
  const location = useLocation();
  const navigate = useNavigate();
  const [menuError, setMenuError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const here = location.pathname + location.search + location.hash;
  const hereRef = useRef(location.pathname);
  hereRef.current = location.pathname;

  // User info: state, else the saved copy, else the server (/user/info).
  useEffect(() => {
    if (!token || user) return;
    if (restoreUser()) return;
    let cancelled = false;
    call('userInfo', {})
      .then((data) => {
        if (cancelled) return;
        const parsed = userSchema.safeParse(data);
        if (!parsed.success) throw new Error('user info');
        setUser({ ...parsed.data, token: parsed.data.token || getToken() });
      })
      .catch(() => {
        if (cancelled) return;
        notify().error(t('app.userFailed'));
        endSession();
      });
    return () => {
      cancelled = true;
    };
  }, [token, user, t]);

  // Menu: loaded once after sign-in, then back to what was asked for.
  useEffect(() => {
    if (!token || !user || menu) return;
    let cancelled = false;
    setMenuError(false);
    const target = here;
    loadMenu()
      .then(() => {
        if (!cancelled) void navigate(target, { replace: true });
      })
      .catch(() => {
        if (!cancelled) setMenuError(true);
      });
    return () => {
      cancelled = true;
    };
    // `here` is read once per load on purpose: later navigation must not restart the load.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `here` left out on purpose (above)
  }, [token, user, menu, attempt, navigate]);

  // Push connection: created if absent (re-checked on every navigation).
  useEffect(() => {
    if (token && user) ensurePush(user);
  }, [token, user, location.pathname]);

  // Tab visible again: recreate the push connection.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState !== 'visible' || !getToken()) return;
      const path = hereRef.current;
      if (path === '/') return;
      const entry = entryOfPath(getMenu() ?? [], path);
      if (entry && NO_PUSH_REFRESH.has(entry.name)) return;
      recreatePush(getUser());
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  if (!token) {
    const state: LoginState = { from: here };
    return <Navigate to="/" replace state={state} />;
  }
  if (menuError) {
    return (
      <div className="app-state is-screen">
        <span>{t('app.menuFailed')}</span>
        <Button type="primary" onClick={() => setAttempt((n) => n + 1)}>
          {t('app.retry')}
        </Button>
      </div>
    );
  }
  if (!user || !menu) return <LoadingState screen text={user ? t('app.menuLoading') : t('app.loading')} />;
  return children({ user, menu });
}
