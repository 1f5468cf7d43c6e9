/**
 * Department hierarchy rules shared by the server (which enforces them) and the console (which offers only
 * the moves the server will accept). A department is identified by `id`; `parent_id` is '' at the top.
 */
export interface ParentLink {
  id: string;
  parent_id: string;
}

/** Every department below `id` (children, their children, ...), not `id` itself. */
export function descendantIds(items: readonly ParentLink[], id: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const d of items) {
    if (!d.parent_id) continue;
    const list = children.get(d.parent_id);
    if (list) list.push(d.id);
    else children.set(d.parent_id, [d.id]);
  }
  const out = new Set<string>();
  const stack = [...(children.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (out.has(next) || next === id) continue;
    out.add(next);
    stack.push(...(children.get(next) ?? []));
  }
  return out;
}

/**
 * Whether placing `id` under `parentId` would make a cycle: the new parent is the department itself or one
 * of its descendants. Walks up from the new parent, so a broken chain (an unknown parent) ends the walk and
 * a pre-existing loop in the data is reported as a cycle rather than walked forever.
 */
export function createsCycle(items: readonly ParentLink[], id: string, parentId: string): boolean {
  if (!parentId) return false;
  const parentOf = new Map(items.map((d) => [d.id, d.parent_id]));
  const seen = new Set<string>();
  let at: string | undefined = parentId;
  while (at) {
    if (at === id || seen.has(at)) return true;
    seen.add(at);
    at = parentOf.get(at);
  }
  return false;
}

export type TreeNode<T> = T & { children: TreeNode<T>[] };

/**
 * Nests a flat list by `parent_id`. Siblings keep the order of the input (sort it first). A department
 * whose parent is not in the list (or that sits in a loop) becomes a root, so nothing is ever lost.
 */
export function buildTree<T extends ParentLink>(items: readonly T[]): TreeNode<T>[] {
  const nodes = new Map<string, TreeNode<T>>(items.map((d) => [d.id, { ...d, children: [] }]));
  const roots: TreeNode<T>[] = [];
  for (const d of items) {
    const node = nodes.get(d.id)!;
    const parent = d.parent_id ? nodes.get(d.parent_id) : undefined;
    if (parent && !createsCycle(items, d.id, d.parent_id)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The path of names from the top down to `id` ('Head office / Flight team'). */
export function departmentPath(items: readonly (ParentLink & { name: string })[], id: string, separator = ' / '): string {
  const byId = new Map(items.map((d) => [d.id, d]));
  const names: string[] = [];
  const seen = new Set<string>();
  let at = byId.get(id);
  while (at && !seen.has(at.id)) {
    seen.add(at.id);
    names.unshift(at.name);
    at = at.parent_id ? byId.get(at.parent_id) : undefined;
  }
  return names.join(separator);
}
