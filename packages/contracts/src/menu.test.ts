import { describe, expect, it } from 'vitest';
import { LEFT_MENU_COUNT, RIGHT_MENU_COUNT } from './constants.js';
import { MENU, SYSTEM_SET_ENTRY, flattenMenu, menuFunctionIds, menuItemSchema, type MenuItem } from './menu.js';

const all = flattenMenu(MENU);

describe('menu definition', () => {
  it('parses with its schema', () => {
    for (const m of MENU) expect(menuItemSchema.safeParse(m).success).toBe(true);
  });

  it('has names unique across the whole tree, including the settings entry', () => {
    const names = [...all.map((m) => m.name), SYSTEM_SET_ENTRY.name];
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).not.toBe('');
  });

  it('has distinct sorts among grade-1 items and at most 3 + 4 of them', () => {
    const top = MENU.filter((m) => m.grade === 1);
    expect(top.length).toBe(MENU.length);
    expect(top.length).toBeLessThanOrEqual(LEFT_MENU_COUNT + RIGHT_MENU_COUNT);
    expect(new Set(top.map((m) => m.sort)).size).toBe(top.length);
  });

  it('has every non-empty path unique and absolute', () => {
    const paths = all.map((m) => m.path).filter(Boolean);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(p.startsWith('/')).toBe(true);
  });

  it('links children to their parent by parentName and grade', () => {
    const check = (parent: MenuItem) => {
      for (const child of parent.children) {
        expect(child.parentName).toBe(parent.name);
        expect(child.grade).toBe(2);
        check(child);
      }
    };
    for (const m of MENU) {
      expect(m.parentName).toBe('');
      check(m);
    }
  });

  it('includes the SPEC entry names', () => {
    const names = new Set(all.map((m) => m.name));
    for (const n of ['home', 'routeplan', 'totalResultList', 'solution', 'equipment', 'system', 'dictData',
      'userManage', 'coordination', 'resultsShow', 'achievementAdmin', 'firmware', 'taskManage', 'deviceType',
      'teamManage', 'teachingVideos', 'networkingItem', 'editWork', 'navigationEnvironment', 'outLineMap',
      'googleMap', 'dataAnalyse', 'videoList']) {
      expect(names.has(n), n).toBe(true);
    }
    expect(SYSTEM_SET_ENTRY.name).toBe('systemSet');
  });

  it('lists each menu function id once', () => {
    const ids = menuFunctionIds();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('menu_home');
    expect(ids).toEqual(expect.arrayContaining(['menu_dataAnalyse', 'menu_videoList']));
    expect(ids).not.toContain('');
  });
});
