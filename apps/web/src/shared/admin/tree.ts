import { descendantIds, type DepartmentNode } from '@nest/contracts';

/** Every node of a tree, depth first (parents before their children). */
export function flattenTree(nodes: readonly DepartmentNode[]): DepartmentNode[] {
  return nodes.flatMap((n) => [n, ...flattenTree(n.children)]);
}

export interface DepartmentOption {
  value: string;
  title: string;
  children: DepartmentOption[];
}

/**
 * TreeSelect data of the live departments, leaving out `excludeId` and everything below it (the parents a
 * department may move under: never itself nor one of its descendants, which the server refuses as a cycle).
 */
export function departmentOptions(nodes: readonly DepartmentNode[], excludeId?: string): DepartmentOption[] {
  const excluded = excludeId ? descendantIds(flattenTree(nodes), excludeId).add(excludeId) : new Set<string>();
  const walk = (list: readonly DepartmentNode[]): DepartmentOption[] =>
    list.filter((n) => n.state === 10 && !excluded.has(n.id)).map((n) => ({ value: n.id, title: n.name, children: walk(n.children) }));
  return walk(nodes);
}

/**
 * The tree as the screen shows it: deleted departments only when asked for, and with a search text only
 * the matching departments with their ancestors (a match keeps its whole subtree visible).
 */
export function visibleTree(nodes: readonly DepartmentNode[], search: string, showDeleted: boolean): DepartmentNode[] {
  const needle = search.trim().toLowerCase();
  const walk = (list: readonly DepartmentNode[]): DepartmentNode[] =>
    list.flatMap((n) => {
      if (!showDeleted && n.state !== 10) return [];
      if (needle && n.name.toLowerCase().includes(needle)) return [{ ...n, children: keep(n.children) }];
      const children = walk(n.children);
      if (needle && children.length === 0) return [];
      return [{ ...n, children }];
    });
  // Below a match everything stays (still without the deleted ones unless asked for).
  const keep = (list: readonly DepartmentNode[]): DepartmentNode[] =>
    list.filter((n) => showDeleted || n.state === 10).map((n) => ({ ...n, children: keep(n.children) }));
  return walk(nodes);
}

/** Live sub-departments of a node (what blocks deleting it, besides its members). */
export const liveChildren = (node: DepartmentNode): number => node.children.filter((c) => c.state === 10).length;

/** The keys of every node that has children (to open the whole tree). */
export const expandableKeys = (nodes: readonly DepartmentNode[]): string[] => flattenTree(nodes).filter((n) => n.children.length > 0).map((n) => n.id);

/**
 * Rows for antd's tree table, which shows an expand arrow for any `children` array: leaves lose theirs.
 * (The rows keep the DepartmentNode type; read the real node by id when its children matter.)
 */
export function tableRows(nodes: readonly DepartmentNode[]): DepartmentNode[] {
  // A leaf without `children` is no DepartmentNode: the table reads rows as nodes, and the screen looks the
  // real node up by id wherever children matter.
  return nodes.map((n) => (n.children.length > 0 ? { ...n, children: tableRows(n.children) } : ({ ...n, children: undefined } as unknown as DepartmentNode)));
}
