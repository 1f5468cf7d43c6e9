import { describe, expect, it } from 'vitest';
import type { DepartmentNode } from '@nest/contracts';
import { departmentOptions, expandableKeys, flattenTree, liveChildren, visibleTree } from './tree';

const node = (id: string, name: string, children: DepartmentNode[] = [], state: 10 | 20 = 10): DepartmentNode => ({
  id,
  parent_id: '',
  name,
  description: '',
  notes: '',
  state,
  company_id: 'wk',
  sort: 0,
  member_count: 0,
  create_time: 1,
  children,
});

// HQ -> (Flight -> (Night), Ground (deleted)), Sales
const tree = [node('hq', 'HQ', [node('fl', 'Flight', [node('ni', 'Night')]), node('gr', 'Ground', [], 20)]), node('sa', 'Sales')];

describe('department tree helpers', () => {
  it('flattens parents before children', () => {
    expect(flattenTree(tree).map((n) => n.id)).toEqual(['hq', 'fl', 'ni', 'gr', 'sa']);
  });

  it('offers as parents only live departments that are neither the one moved nor below it', () => {
    const ids = (opts: ReturnType<typeof departmentOptions>): string[] => opts.flatMap((o) => [o.value, ...ids(o.children)]);
    expect(ids(departmentOptions(tree))).toEqual(['hq', 'fl', 'ni', 'sa']);
    expect(ids(departmentOptions(tree, 'fl'))).toEqual(['hq', 'sa']);
    expect(ids(departmentOptions(tree, 'hq'))).toEqual(['sa']);
    expect(ids(departmentOptions(tree, 'ni'))).toEqual(['hq', 'fl', 'sa']);
    expect(departmentOptions(tree)[0]).toMatchObject({ value: 'hq', title: 'HQ' });
  });

  it('hides deleted departments unless asked, and keeps ancestors and subtrees of search matches', () => {
    const ids = (nodes: DepartmentNode[]) => flattenTree(nodes).map((n) => n.id);
    expect(ids(visibleTree(tree, '', false))).toEqual(['hq', 'fl', 'ni', 'sa']);
    expect(ids(visibleTree(tree, '', true))).toEqual(['hq', 'fl', 'ni', 'gr', 'sa']);
    expect(ids(visibleTree(tree, 'night', false))).toEqual(['hq', 'fl', 'ni']);
    expect(ids(visibleTree(tree, 'FLIGHT', false))).toEqual(['hq', 'fl', 'ni']);
    expect(ids(visibleTree(tree, 'ground', false))).toEqual([]);
    expect(ids(visibleTree(tree, 'ground', true))).toEqual(['hq', 'gr']);
    expect(ids(visibleTree(tree, 'zzz', true))).toEqual([]);
  });

  it('counts live children and lists expandable rows', () => {
    expect(liveChildren(tree[0]!)).toBe(1);
    expect(expandableKeys(tree)).toEqual(['hq', 'fl']);
  });
});

describe('table rows', () => {
  it('drop the children array of leaves only', async () => {
    const { tableRows } = await import('./tree');
    const rows = tableRows(tree);
    expect(rows[0]!.children.map((n) => n.id)).toEqual(['fl', 'gr']);
    expect(rows[0]!.children[1]!.children).toBeUndefined();
    expect(rows[1]!.children).toBeUndefined();
    expect(tree[1]!.children).toEqual([]);
  });
});
