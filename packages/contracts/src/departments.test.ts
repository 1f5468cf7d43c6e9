import { describe, expect, it } from 'vitest';
import { buildTree, createsCycle, departmentPath, descendantIds } from './departments.js';
import { FUN_ID_PATTERN, callFunId, isFunId } from './functions.js';
import { CALL_LIST } from './calls.js';
import { menuFunctionIds } from './menu.js';

// a -> b -> c, a -> d; e alone
const items = [
  { id: 'a', parent_id: '', name: 'A' },
  { id: 'b', parent_id: 'a', name: 'B' },
  { id: 'c', parent_id: 'b', name: 'C' },
  { id: 'd', parent_id: 'a', name: 'D' },
  { id: 'e', parent_id: '', name: 'E' },
];

describe('department hierarchy', () => {
  it('finds every descendant, not the department itself', () => {
    expect([...descendantIds(items, 'a')].sort()).toEqual(['b', 'c', 'd']);
    expect([...descendantIds(items, 'b')]).toEqual(['c']);
    expect(descendantIds(items, 'c').size).toBe(0);
    expect(descendantIds(items, 'nope').size).toBe(0);
  });

  it('refuses moving a department under itself or a descendant', () => {
    expect(createsCycle(items, 'a', 'a')).toBe(true);
    expect(createsCycle(items, 'a', 'c')).toBe(true);
    expect(createsCycle(items, 'b', 'c')).toBe(true);
    expect(createsCycle(items, 'c', 'a')).toBe(false);
    expect(createsCycle(items, 'b', 'e')).toBe(false);
    expect(createsCycle(items, 'b', '')).toBe(false);
    // An unknown parent ends the walk; a loop already in the data counts as a cycle.
    expect(createsCycle(items, 'b', 'unknown')).toBe(false);
    expect(createsCycle([{ id: 'x', parent_id: 'y' }, { id: 'y', parent_id: 'x' }], 'z', 'x')).toBe(true);
  });

  it('nests by parent, keeps sibling order and never loses an orphan or a loop', () => {
    const tree = buildTree(items);
    expect(tree.map((n) => n.id)).toEqual(['a', 'e']);
    expect(tree[0]!.children.map((n) => n.id)).toEqual(['b', 'd']);
    expect(tree[0]!.children[0]!.children.map((n) => n.id)).toEqual(['c']);
    const odd = buildTree([{ id: 'o', parent_id: 'gone' }, { id: 'x', parent_id: 'y' }, { id: 'y', parent_id: 'x' }]);
    expect(odd.map((n) => n.id).sort()).toEqual(['o', 'x', 'y']);
  });

  it('names the path from the top', () => {
    expect(departmentPath(items, 'c')).toBe('A / B / C');
    expect(departmentPath(items, 'e')).toBe('E');
    expect(departmentPath(items, 'nope')).toBe('');
  });
});

describe('function ids', () => {
  it('accept every id the registry and the menu use', () => {
    for (const def of CALL_LIST) if (def.access !== 'public' && def.access !== 'session') expect(def.access).toMatch(FUN_ID_PATTERN);
    for (const id of menuFunctionIds()) expect(isFunId(id)).toBe(true);
    expect(isFunId(callFunId('/device/uav/type'))).toBe(true);
  });

  it('refuse anything that is not a plain identifier', () => {
    for (const bad of ['', '1abc', 'a b', 'a-b', 'a.b', '<x>', 'a"b', 'é', 'a'.repeat(65)]) expect(isFunId(bad)).toBe(false);
    expect(isFunId('a'.repeat(64))).toBe(true);
  });
});
