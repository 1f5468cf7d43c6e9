import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { sortMenu } from './menu/menu';
import { MenuRoutes } from './PrivateApp';
import { ADMIN, LIMITED, MENU, installMatchMedia, installResizeObserver } from '../test/dom';
import type { User } from '@nest/contracts';

function renderAt(path: string, user: User) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <MenuRoutes user={user} menu={sortMenu(MENU)} />
    </MemoryRouter>,
  );
}

const navIds = (container: HTMLElement, side: 'left' | 'right') =>
  [...container.querySelectorAll(`.nav-${side} [data-testid^="nav-"]`)].map((e) => e.getAttribute('data-testid'));

describe('menu-driven routes and header', () => {
  beforeAll(() => {
    installMatchMedia();
    installResizeObserver();
  });
  afterEach(cleanup);

  it('registers every menu route for the super administrator', async () => {
    renderAt('/userManage', ADMIN);
    // The user management screen itself.
    const page = await screen.findByTestId('user-manage', {}, { timeout: 20_000 });
    expect(within(page).getByRole('heading', { level: 2 }).textContent).toBe('用户管理');
    await waitFor(() => expect(document.title).toBe('无人机管理平台 - 用户管理'));
  });

  it('does not register routes of functions a limited user does not hold', async () => {
    renderAt('/userManage', LIMITED);
    expect(await screen.findByTestId('not-found-page')).toBeTruthy();
    expect(screen.queryByTestId('coming-page')).toBeNull();
    cleanup();
    renderAt('/equipment', LIMITED);
    // The equipment screen itself: the menu entry the limited user holds opens it.
    expect(await screen.findByTestId('equipment')).toBeTruthy();
  });

  it('shows the header split three left, four right, in sort order (super administrator)', () => {
    const { container } = renderAt('/home', ADMIN);
    expect(screen.getByTestId('app-header')).toBeTruthy();
    expect(navIds(container, 'left')).toEqual(['nav-home', 'nav-routeplan', 'nav-totalResultList']);
    expect(navIds(container, 'right')).toEqual(['nav-equipment', 'nav-solution', 'nav-system', 'nav-teachingVideos']);
  });

  it('shows a limited user only the entries it holds', () => {
    const { container } = renderAt('/home', LIMITED);
    expect(navIds(container, 'left')).toEqual(['nav-home', 'nav-equipment']);
    expect(navIds(container, 'right')).toEqual([]);
  });

  it('marks the active entry and its parent', () => {
    renderAt('/userManage', ADMIN);
    expect(screen.getByTestId('nav-system').className).toContain('is-active');
    expect(screen.getByTestId('nav-home').className).not.toContain('is-active');
  });

  it('renders full-screen routes outside the shell and redirects /layout to /home', async () => {
    renderAt('/dataAnalyse', ADMIN);
    expect(await screen.findByTestId('analysis-screen', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByTestId('app-header')).toBeNull();
    cleanup();
    renderAt('/layout', ADMIN);
    expect(await screen.findByTestId('home-screen', {}, { timeout: 20_000 })).toBeTruthy();
  });
});
