import { LEFT_MENU_COUNT, RIGHT_MENU_COUNT, flattenMenu, holds, type MenuItem } from '@nest/contracts';

/**
 * Pure menu rules (SPEC sections 2, 3, 6): sorting, what the header shows, which entries become routes.
 * `funList` is the signed-in user's function list; `holds` treats super_administrator as holding all.
 */

/** Sorted copy by `sort`, children too (stable for equal sorts). */
export function sortMenu(items: readonly MenuItem[]): MenuItem[] {
  return [...items]
    .sort((a, b) => a.sort - b.sort)
    .map((m) => ({ ...m, children: sortMenu(m.children ?? []) }));
}

const visible = (m: MenuItem, funList: readonly string[]) => m.isShow && holds(funList, m.fun_id);

/** Grade-1 items shown in the header: isShow and fun_id held, by sort. */
export function headerItems(menu: readonly MenuItem[], funList: readonly string[]): MenuItem[] {
  return sortMenu(menu.filter((m) => m.grade === 1 && visible(m, funList)));
}

/** Children shown in an item's popover: isShow and fun_id held, by sort. */
export function visibleChildren(item: MenuItem, funList: readonly string[]): MenuItem[] {
  return sortMenu((item.children ?? []).filter((c) => visible(c, funList)));
}

/** Header split: the first LEFT_MENU_COUNT on the left of the title, up to RIGHT_MENU_COUNT on the right. */
export function splitHeader<T>(items: readonly T[]): { left: T[]; right: T[] } {
  return {
    left: items.slice(0, LEFT_MENU_COUNT),
    right: items.slice(LEFT_MENU_COUNT, LEFT_MENU_COUNT + RIGHT_MENU_COUNT),
  };
}

/**
 * Entries that become routes: every entry with a path whose fun_id is empty or held (hidden entries
 * included: they are reachable, just not shown). An entry under a parent the user does not hold is
 * still registered when the entry itself is held.
 */
export function routeEntries(menu: readonly MenuItem[], funList: readonly string[]): MenuItem[] {
  const seen = new Set<string>();
  return flattenMenu(sortMenu(menu)).filter((m) => {
    if (!m.path || !holds(funList, m.fun_id) || seen.has(m.path)) return false;
    seen.add(m.path);
    return true;
  });
}

/** The entry a path belongs to (exact path match anywhere in the tree). */
export function entryOfPath(menu: readonly MenuItem[], path: string): MenuItem | undefined {
  return flattenMenu(menu).find((m) => m.path === path);
}

/** Whether an item is the current route or an ancestor of it (header highlight). */
export function isActive(item: MenuItem, path: string): boolean {
  return (!!item.path && item.path === path) || (item.children ?? []).some((c) => isActive(c, path));
}
