import { Suspense, lazy, useEffect, type ReactNode } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { clearToken } from '../shared/cookie';
import { closePush } from '../shared/push';
import { setLoginNavigator } from '../shared/session';
import { clearMenu } from './menu/store';
import { LoadBoundary } from './pages/LoadFailed';
import { LoadingState } from './pages/LoadingState';
import { privateApp } from './privateApp';

const LoginPage = lazy(() => import('./login/LoginPage'));
// DJI Pilot 2's Open Platform page: outside the shell (no menu), for the remote controller's web view.
const PilotPage = lazy(() => import('../features/pilot/PilotPage'));
const PrivateApp = privateApp.Component;

/** SPEC route guard, login side: entering login clears the menu and the token, closes push and its handlers. */
function LoginRoute(): ReactNode {
  useEffect(() => {
    clearMenu();
    clearToken();
    closePush(true);
  }, []);
  return (
    <LoadBoundary screen>
      <Suspense fallback={<LoadingState screen />}>
        <LoginPage />
      </Suspense>
    </LoadBoundary>
  );
}

export function AppRoutes(): ReactNode {
  const navigate = useNavigate();
  useEffect(() => {
    setLoginNavigator(() => void navigate('/', { replace: true }));
    return () => setLoginNavigator(null);
  }, [navigate]);
  return (
    <Routes>
      <Route path="/" element={<LoginRoute />} />
      <Route
        path="/pilot"
        element={
          <LoadBoundary screen>
            <Suspense fallback={<LoadingState screen />}>
              <PilotPage />
            </Suspense>
          </LoadBoundary>
        }
      />
      <Route
        path="*"
        element={
          <LoadBoundary screen>
            <Suspense fallback={<LoadingState screen />}>
              <PrivateApp />
            </Suspense>
          </LoadBoundary>
        }
      />
    </Routes>
  );
}
