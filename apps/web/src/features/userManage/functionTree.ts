import {
  CALL_LIST,
  DEVICE_PUSH_FUNCTION,
  MENU,
  SUPER_ADMINISTRATOR,
  type CallDef,
  type FunctionItem,
  type Lang,
  type MenuItem,
} from '@nest/contracts';

/** The function that lets a holder edit other users (the server's user_edit; /user/edit itself is open to everyone for their own account). */
export const USER_EDIT_FUNCTION = 'user_edit';

/** Functions that are not a screen nor a call: listed first, on their own. */
export const SPECIAL_FUNCTIONS = [SUPER_ADMINISTRATOR, USER_EDIT_FUNCTION, DEVICE_PUSH_FUNCTION] as const;

export type FunctionNodeKind = 'group' | 'menu' | 'call' | 'special' | 'custom';

export interface FunctionNode {
  /** The function id, or `group:<name>` for a heading that is not a function. */
  key: string;
  funId: string | null;
  kind: FunctionNodeKind;
  /** Name in the page language (the function list's name, else the menu title, else the id). */
  title: string;
  /** What it opens: the screen path of a menu entry, the call paths of a call function. */
  paths: string[];
  deleted: boolean;
  children: FunctionNode[];
}

/**
 * Which menu screen uses a call, by path prefix (first match wins). The registry does not say which screen
 * makes a call, so this table is the console's reading of it; a call it does not place goes to "other".
 */
export const CALL_SCREENS: readonly (readonly [prefix: string, menuName: string])[] = [
  ['/user/', 'userManage'],
  ['/fun/', 'dictData'],
  ['/team/', 'teamManage'],
  ['/deviceType/', 'deviceType'],
  ['/device/navEnv', 'navigationEnvironment'],
  ['/device/', 'equipment'],
  ['/alternate/', 'equipment'],
  ['/command/', 'equipment'],
  ['/rom/', 'firmware'],
  ['/task/', 'taskManage'],
  ['/com/', 'coordination'],
  ['/teach/', 'teachingVideos'],
  ['/map/', 'outLineMap'],
  ['/link/', 'networkingItem'],
  ['/fence/', 'routeplan'],
  ['/mission/', 'routeplan'],
  ['/flight/', 'routeplan'],
  ['/result/', 'totalResultList'],
  ['/sorties/', 'achievementAdmin'],
  ['/ins/', 'home'],
  ['/alarm/', 'home'],
  ['/data/', 'home'],
  ['/video/', 'home'],
];

export function screenOfCall(path: string): string | null {
  return CALL_SCREENS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? null;
}

const bySort = (a: MenuItem, b: MenuItem) => a.sort - b.sort;

/**
 * The function assignment tree: special permissions, then the menu as the header shows it (each entry with
 * its sub-entries and the calls its screen makes), then every other function (calls no screen claims,
 * functions added in function management). Every function id appears exactly once.
 */
export function buildFunctionTree(
  funs: readonly FunctionItem[],
  lang: Lang,
  menu: readonly MenuItem[] = MENU,
  callList: readonly CallDef[] = CALL_LIST,
): FunctionNode[] {
  const byId = new Map(funs.map((f) => [f.fun_id, f]));
  const placed = new Set<string>();
  const callPaths = new Map<string, string[]>();
  for (const def of callList) {
    if (def.access === 'public' || def.access === 'session') continue;
    const list = callPaths.get(def.access);
    if (list) list.push(def.path);
    else callPaths.set(def.access, [def.path]);
  }

  const fn = (funId: string, kind: FunctionNodeKind, fallback: string, paths: string[] = [], children: FunctionNode[] = []): FunctionNode | null => {
    if (placed.has(funId)) return null;
    placed.add(funId);
    const f = byId.get(funId);
    return { key: funId, funId, kind, title: f ? (lang === 'en' ? f.name_en : f.name) || funId : fallback, paths, deleted: f?.state === 20, children };
  };
  const group = (name: string, children: FunctionNode[]): FunctionNode => ({ key: `group:${name}`, funId: null, kind: 'group', title: '', paths: [], deleted: false, children });
  const present = (n: FunctionNode | null): n is FunctionNode => n !== null;

  const special = SPECIAL_FUNCTIONS.map((id) => fn(id, 'special', id)).filter(present);

  // Calls per screen, decided before the menu nodes take them.
  const screenCalls = new Map<string, string[]>();
  for (const [access, paths] of callPaths) {
    const screen = screenOfCall(paths[0]!);
    if (!screen) continue;
    const list = screenCalls.get(screen);
    if (list) list.push(access);
    else screenCalls.set(screen, [access]);
  }

  const menuNode = (item: MenuItem): FunctionNode | null => {
    const title = item.meta.title[lang];
    // The entry's own function is placed first: a call of its screen may be protected by the same id.
    const own = item.fun_id ? fn(item.fun_id, 'menu', title, item.path ? [item.path] : []) : null;
    const children = [
      ...[...item.children].sort(bySort).map(menuNode).filter(present),
      ...(screenCalls.get(item.name) ?? []).map((access) => fn(access, 'call', access, callPaths.get(access))).filter(present),
    ];
    if (!own) return children.length > 0 ? { ...group(item.name, children), title } : null;
    // The menu title reads better than a missing function-list name.
    return { ...own, title: byId.has(own.key) ? own.title : title, children };
  };
  const screens = [...menu].sort(bySort).map(menuNode).filter(present);

  // Calls no screen of this menu took (and functions added in function management) end up here.
  const other = [
    ...[...callPaths.keys()].map((access) => fn(access, 'call', access, callPaths.get(access))).filter(present),
    ...funs.map((f) => fn(f.fun_id, 'custom', f.fun_id)).filter(present),
  ];
  return [group('special', special), ...screens, ...(other.length > 0 ? [group('other', other)] : [])];
}

/** The function ids of a node and everything below it. */
export function functionIdsOf(node: FunctionNode): string[] {
  return [...(node.funId ? [node.funId] : []), ...node.children.flatMap(functionIdsOf)];
}

/** Nodes whose title, id or paths contain the text, with their ancestors (a match keeps its subtree). */
export function filterFunctionTree(nodes: readonly FunctionNode[], text: string): FunctionNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...nodes];
  const hit = (n: FunctionNode) => [n.title, n.funId ?? '', ...n.paths].some((s) => s.toLowerCase().includes(needle));
  return nodes.flatMap((n) => {
    if (hit(n)) return [n];
    const children = filterFunctionTree(n.children, text);
    return children.length > 0 ? [{ ...n, children }] : [];
  });
}

/**
 * Whether the editor may change a function's box for this user: a super administrator may change any; anyone
 * else only functions they hold, never super_administrator. A deleted function can be removed, not granted.
 */
export function canToggle(funId: string, opts: { editorFunctions: readonly string[]; checked: boolean; deleted: boolean }): 'ok' | 'notHeld' | 'superOnly' | 'deleted' {
  const editorSuper = opts.editorFunctions.includes(SUPER_ADMINISTRATOR);
  if (opts.deleted && !opts.checked) return 'deleted';
  if (editorSuper) return 'ok';
  if (funId === SUPER_ADMINISTRATOR) return 'superOnly';
  // The server lets an editor keep what the user already has; removing needs no holding either.
  if (opts.checked) return 'ok';
  return opts.editorFunctions.includes(funId) ? 'ok' : 'notHeld';
}
