import { describe, expect, it, vi } from 'vitest';
import { MENU, SUPER_ADMINISTRATOR, flattenMenu, menuFunId, type MenuItem } from '@nest/contracts';
import { entryOfPath, headerItems, isActive, routeEntries, sortMenu, splitHeader, visibleChildren } from './menu';
import { fetchMenu } from './store';

const shuffled = (items: MenuItem[]): MenuItem[] =>
  [...items].reverse().map((m) => ({ ...m, children: shuffled(m.children) }));
const names = (items: MenuItem[]) => items.map((m) => m.name);

describe('menu rules', () => {
  const admin = [SUPER_ADMINISTRATOR];
  const limited = [menuFunId('home'), menuFunId('equipment'), menuFunId('userManage')];

  it('sorts by sort, recursively', () => {
    const sorted = sortMenu(shuffled(MENU));
    expect(names(sorted)).toEqual(['home', 'routeplan', 'totalResultList', 'equipment', 'solution', 'system', 'teachingVideos']);
    const system = sorted.find((m) => m.name === 'system')!;
    expect(system.children.map((c) => c.sort)).toEqual([...system.children.map((c) => c.sort)].sort((a, b) => a - b));
    expect(system.children[0]!.name).toBe('userManage');
  });

  it('shows the super administrator every top-level item and every visible child', () => {
    const items = headerItems(shuffled(MENU), admin);
    expect(names(items)).toEqual(['home', 'routeplan', 'totalResultList', 'equipment', 'solution', 'system', 'teachingVideos']);
    const system = items.find((m) => m.name === 'system')!;
    expect(visibleChildren(system, admin)).toHaveLength(system.children.length);
    // isShow: false entries are routes, not header entries.
    const routeplan = items.find((m) => m.name === 'routeplan')!;
    expect(visibleChildren(routeplan, admin)).toEqual([]);
  });

  it('shows a limited user only the items it holds', () => {
    expect(names(headerItems(MENU, limited))).toEqual(['home', 'equipment']);
    const withSystem = [...limited, menuFunId('system')];
    const system = headerItems(MENU, withSystem).find((m) => m.name === 'system')!;
    expect(names(visibleChildren(system, withSystem))).toEqual(['userManage']);
  });

  it('registers routes only for held fun ids (super administrator: all with a path)', () => {
    const all = flattenMenu(MENU).filter((m) => m.path);
    expect(routeEntries(MENU, admin)).toHaveLength(all.length);
    expect(names(routeEntries(MENU, admin))).toContain('editWork'); // hidden, still a route
    expect(names(routeEntries(MENU, limited)).sort()).toEqual(['equipment', 'home', 'userManage']);
    expect(names(routeEntries(MENU, []))).toEqual([]);
    // An entry without a fun_id is open to everyone.
    const open: MenuItem = { ...MENU[0]!, name: 'open', path: '/open', fun_id: '', children: [] };
    expect(names(routeEntries([open], []))).toEqual(['open']);
    // Entries without a path never become routes.
    expect(names(routeEntries(MENU, admin))).not.toContain('solution');
  });

  it('splits the header three left, up to four right, in sort order', () => {
    const { left, right } = splitHeader(headerItems(shuffled(MENU), admin));
    expect(names(left)).toEqual(['home', 'routeplan', 'totalResultList']);
    expect(names(right)).toEqual(['equipment', 'solution', 'system', 'teachingVideos']);
    const many = Array.from({ length: 10 }, (_, i) => i);
    expect(splitHeader(many)).toEqual({ left: [0, 1, 2], right: [3, 4, 5, 6] });
    expect(splitHeader([1, 2])).toEqual({ left: [1, 2], right: [] });
  });

  it('finds entries by path and marks ancestors active', () => {
    expect(entryOfPath(MENU, '/userManage')?.name).toBe('userManage');
    const system = MENU.find((m) => m.name === 'system')!;
    expect(isActive(system, '/userManage')).toBe(true);
    expect(isActive(system, '/home')).toBe(false);
  });

  it('fetches the menu with a time-stamp cache-buster and sorts it', async () => {
    const fetchStub = vi.fn(async (_url: string) => new Response(JSON.stringify(shuffled(MENU))));
    vi.stubGlobal('fetch', fetchStub);
    try {
      const menu = await fetchMenu();
      expect(fetchStub.mock.calls[0]![0]).toMatch(/^\/api\/static\/menu\.json\?t=\d{13}$/);
      expect(names(menu)[0]).toBe('home');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
