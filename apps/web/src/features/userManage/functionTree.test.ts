import { describe, expect, it } from 'vitest';
import { CALL_LIST, MENU, SUPER_ADMINISTRATOR, menuFunctionIds, type FunctionItem } from '@nest/contracts';
import { buildFunctionTree, canToggle, filterFunctionTree, functionIdsOf, screenOfCall, type FunctionNode } from './functionTree';

const item = (fun_id: string, name: string, name_en: string, state = 10): FunctionItem => ({ fun_id, name, name_en, description: '', state, notes: '' });
const funs = [
  item('super_administrator', '超级管理员', 'Super administrator'),
  item('user_list', '用户列表', 'List users'),
  item('user_add', '新增用户', 'Add users', 20),
  item('menu_userManage', '菜单：用户管理', 'Menu: Users'),
  item('report_view', '巡检报表', 'Inspection reports'),
];

const all = (nodes: readonly FunctionNode[]): FunctionNode[] => nodes.flatMap((n) => [n, ...all(n.children)]);
const find = (nodes: readonly FunctionNode[], key: string) => all(nodes).find((n) => n.key === key);

describe('function assignment tree', () => {
  const tree = buildFunctionTree(funs, 'en');

  it('holds every function exactly once: menu entries, registry calls, specials and added ones', () => {
    const ids = all(tree).flatMap((n) => (n.funId ? [n.funId] : []));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of menuFunctionIds()) expect(ids).toContain(id);
    for (const def of CALL_LIST) if (def.access !== 'public' && def.access !== 'session') expect(ids).toContain(def.access);
    for (const id of ['super_administrator', 'user_edit', 'device_10', 'report_view']) expect(ids).toContain(id);
  });

  it('groups the calls of a screen under its menu entry, under its parent entry', () => {
    const system = find(tree, 'menu_system')!;
    const users = system.children.find((n) => n.key === 'menu_userManage')!;
    expect(users).toMatchObject({ kind: 'menu', title: 'Menu: Users', paths: ['/userManage'] });
    expect(users.children.map((n) => n.funId)).toEqual(expect.arrayContaining(['user_list', 'user_add', 'user_delete', 'user_recover']));
    expect(find(tree, 'user_list')).toMatchObject({ kind: 'call', title: 'List users', paths: ['/user/list'], deleted: false });
    expect(find(tree, 'user_add')!.deleted).toBe(true);
    // Without a function-list name, the menu title (page language) and the id are used.
    expect(find(buildFunctionTree([], 'zh'), 'menu_dictData')!.title).toBe(MENU.find((m) => m.name === 'system')!.children.find((c) => c.name === 'dictData')!.meta.title.zh);
    expect(find(buildFunctionTree([], 'zh'), 'user_list')!.title).toBe('user_list');
  });

  it('puts specials first and added functions under "other"', () => {
    expect(tree[0]!.key).toBe('group:special');
    expect(tree[0]!.children.map((n) => n.funId)).toEqual(['super_administrator', 'user_edit', 'device_10']);
    const other = tree.at(-1)!;
    expect(other.key).toBe('group:other');
    expect(other.children.find((n) => n.funId === 'report_view')).toMatchObject({ kind: 'custom', title: 'Inspection reports' });
  });

  it('maps call paths to screens', () => {
    expect(screenOfCall('/team/edit')).toBe('teamManage');
    expect(screenOfCall('/device/navEnv')).toBe('navigationEnvironment');
    expect(screenOfCall('/device/add')).toBe('equipment');
    expect(screenOfCall('/nothing/here')).toBeNull();
  });

  it('lists a subtree’s ids and filters by title, id or path keeping ancestors', () => {
    const users = find(tree, 'menu_userManage')!;
    expect(functionIdsOf(users)).toEqual(expect.arrayContaining(['menu_userManage', 'user_list']));
    const filtered = filterFunctionTree(tree, '/user/recover');
    expect(all(filtered).map((n) => n.key)).toEqual(['menu_system', 'menu_userManage', 'user_recover']);
    expect(filterFunctionTree(tree, '')).toHaveLength(tree.length);
    expect(filterFunctionTree(tree, 'zzz-none')).toEqual([]);
  });

  it('lets the editor grant only what they hold (anything as a super administrator), remove anything, never grant a deleted one', () => {
    const editor = ['user_list', 'user_edit'];
    expect(canToggle('user_list', { editorFunctions: editor, checked: false, deleted: false })).toBe('ok');
    expect(canToggle('fun_list', { editorFunctions: editor, checked: false, deleted: false })).toBe('notHeld');
    expect(canToggle('fun_list', { editorFunctions: editor, checked: true, deleted: false })).toBe('ok');
    expect(canToggle(SUPER_ADMINISTRATOR, { editorFunctions: editor, checked: false, deleted: false })).toBe('superOnly');
    expect(canToggle('user_list', { editorFunctions: editor, checked: false, deleted: true })).toBe('deleted');
    expect(canToggle('user_list', { editorFunctions: editor, checked: true, deleted: true })).toBe('ok');
    expect(canToggle(SUPER_ADMINISTRATOR, { editorFunctions: [SUPER_ADMINISTRATOR], checked: false, deleted: false })).toBe('ok');
  });
});
