import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { MENU, type User } from '@nest/contracts';
import { clearToken, getToken, saveToken } from '../../shared/cookie';
import { setUser } from '../../shared/session';
import { ADMIN, LIMITED, installMatchMedia, installResizeObserver } from '../../test/dom';
import { clearMenu, getMenu } from '../menu/store';
import { AppRoutes } from '../routes';
import type * as PushModule from '../../shared/push';

const push = vi.hoisted(() => ({
  ensurePush: vi.fn(),
  recreatePush: vi.fn(),
  closePush: vi.fn(),
}));
vi.mock('../../shared/push', async (importOriginal) => ({
  ...(await importOriginal<typeof PushModule>()),
  ...push,
}));

let seen: { pathname: string; search: string; state: unknown } | null = null;
function Probe() {
  const loc = useLocation();
  seen = { pathname: loc.pathname, search: loc.search, state: loc.state };
  return null;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <Probe />
    </MemoryRouter>,
  );
}

async function signedIn(user: User) {
  await saveToken(user.token);
  localStorage.setItem('userInfo', JSON.stringify(user));
}

describe('route guard', () => {
  beforeAll(() => {
    installMatchMedia();
    installResizeObserver();
  });
  beforeEach(() => {
    window.history.replaceState(null, '', '/nest/');
    localStorage.clear();
    clearToken();
    clearMenu();
    setUser(null, false);
    Object.values(push).forEach((f) => f.mockReset());
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(MENU))));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends a visitor without a token to login, remembering path and query', async () => {
    renderAt('/userManage?tab=2');
    await screen.findByTestId('login-submit', {}, { timeout: 20_000 });
    expect(seen?.pathname).toBe('/');
    expect(seen?.state).toEqual({ from: '/userManage?tab=2' });
  });

  it('restores the user from the saved copy, loads the menu, then shows the screen and starts push', async () => {
    await signedIn(ADMIN);
    renderAt('/equipment?x=1');
    await screen.findByTestId('equipment', {}, { timeout: 20_000 });
    expect(seen?.pathname).toBe('/equipment');
    expect(seen?.search).toBe('?x=1');
    expect(getMenu()).not.toBeNull();
    expect((vi.mocked(fetch).mock.calls[0]![0] as string)).toMatch(/^\/api\/static\/menu\.json\?t=\d+$/);
    expect(push.ensurePush).toHaveBeenCalledWith(expect.objectContaining({ u_id: ADMIN.u_id }));
  });

  it('recreates the push connection when the tab becomes visible, except on navigationEnvironment', async () => {
    await signedIn(ADMIN);
    renderAt('/equipment');
    await screen.findByTestId('equipment', {}, { timeout: 20_000 });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(push.recreatePush).toHaveBeenCalledTimes(1);
    cleanup();
    renderAt('/navigationEnvironment');
    await screen.findByTestId('nav-env', {}, { timeout: 20_000 });
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(push.recreatePush).toHaveBeenCalledTimes(1);
  });

  it('entering login clears the menu and the token and closes push with its handlers', async () => {
    await signedIn(LIMITED);
    renderAt('/equipment');
    await screen.findByTestId('equipment', {}, { timeout: 20_000 });
    cleanup();
    renderAt('/');
    await screen.findByTestId('login-submit', {}, { timeout: 20_000 });
    expect(getMenu()).toBeNull();
    expect(getToken()).toBe('');
    expect(push.closePush).toHaveBeenCalledWith(true);
  });
});
