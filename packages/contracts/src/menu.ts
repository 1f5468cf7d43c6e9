import { z } from 'zod';
import { menuFunId } from './functions.js';
import type { Text } from './i18n.js';

/**
 * The menu definition (SPEC section 2/3), served as a static JSON resource and fetched by the browser
 * with a time-stamp cache-buster. Grade-1 items are the header's navigation; the first three (by sort) sit
 * on the left, up to four more on the right. `filePath` names the screen module the web registers for the
 * entry. `isShow: false` entries become routes but do not appear in the header. An item with visible
 * children opens a popover of them; when it also has a path, clicking its title navigates there.
 * Names are unique across the whole tree: they are route names.
 */
export interface MenuItem {
  name: string;
  path: string;
  title: string;
  grade: 1 | 2;
  sort: number;
  filePath: string;
  parentName: string;
  fun_id: string;
  isShow: boolean;
  meta: { title: Text; icon?: string; fullScreen?: boolean };
  children: MenuItem[];
}

export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string(),
    title: z.string(),
    grade: z.union([z.literal(1), z.literal(2)]),
    sort: z.number(),
    filePath: z.string(),
    parentName: z.string(),
    fun_id: z.string(),
    isShow: z.boolean(),
    meta: z.object({
      title: z.object({ zh: z.string(), en: z.string() }),
      icon: z.string().optional(),
      fullScreen: z.boolean().optional(),
    }),
    children: z.array(menuItemSchema),
  }),
);

export const MENU_PATH = '/api/static/menu.json';

type Entry = [name: string, path: string, zh: string, en: string, opts?: { show?: boolean; fun?: string; icon?: string; fullScreen?: boolean }];

function item(grade: 1 | 2, sort: number, parentName: string, [name, path, zh, en, opts]: Entry, children: MenuItem[] = []): MenuItem {
  return {
    name,
    path,
    title: `menu.${name}`,
    grade,
    sort,
    filePath: path ? `features/${name}` : '',
    parentName,
    fun_id: opts?.fun ?? menuFunId(name),
    isShow: opts?.show ?? true,
    meta: { title: { zh, en }, icon: opts?.icon, ...(opts?.fullScreen ? { fullScreen: true } : {}) },
    children,
  };
}

const sub = (parent: string, entries: Entry[]): MenuItem[] => entries.map((e, i) => item(2, i + 1, parent, e));

/** The product's menu. Order in this array does not matter: clients sort by `sort`. */
export const MENU: MenuItem[] = [
  item(1, 1, '', ['home', '/home', '数据大屏', 'Data screen', { icon: 'dashboard' }]),
  item(1, 2, '', ['routeplan', '/routeplan', '飞行管理', 'Flight management', { icon: 'route' }], [
    ...sub('routeplan', [['editWork', '/editWork', '围栏与航线编辑', 'Fence and route editor', { show: false }]]),
  ]),
  item(1, 3, '', ['totalResultList', '/totalResultList', '成果管理', 'Achievements', { icon: 'picture' }], [
    ...sub('totalResultList', [
      ['resultsShow', '/resultsShow', '成果展示', 'Result gallery'],
      ['achievementAdmin', '/achievementAdmin', '架次列表', 'Sortie list'],
      // The analysis of flights and alarms, and the nest cameras' recordings, sit with the other flight outcomes.
      ['dataAnalyse', '/dataAnalyse', '数据分析', 'Data analysis', { fullScreen: true }],
      ['videoList', '/videoList', '外置相机录像', 'Outside camera recordings'],
    ]),
  ]),
  item(1, 4, '', ['equipment', '/equipment', '设备管理', 'Equipment', { icon: 'equipment' }]),
  item(1, 5, '', ['solution', '', '解决方案', 'Solutions', { icon: 'solution' }]),
  item(1, 6, '', ['system', '', '系统管理', 'System', { icon: 'setting' }], [
    ...sub('system', [
      ['userManage', '/userManage', '用户管理', 'Users'],
      ['dictData', '/dictData', '功能管理', 'Functions'],
      ['teamManage', '/teamManage', '部门管理', 'Departments'],
      ['deviceType', '/deviceType', '设备类型', 'Device types'],
      ['firmware', '/firmware', '固件管理', 'Firmware'],
      ['coordination', '/coordination', '协同分组', 'Collaboration groups'],
      ['taskManage', '/taskManage', '定时任务', 'Timed tasks'],
      ['networkingItem', '/networkingItem', '组网项目', 'Networking'],
      ['navigationEnvironment', '/navigationEnvironment', '导航环境', 'Navigation environment'],
      ['outLineMap', '/outLineMap', '离线地图', 'Offline map'],
      ['googleMap', '/googleMap', '谷歌地图', 'Google map'],
      ['auditLog', '/auditLog', '安全审计', 'Security audit'],
    ]),
  ]),
  item(1, 7, '', ['teachingVideos', '/teachingVideos', '教学视频', 'Teaching videos', { icon: 'video' }]),
];

/** The system-settings entry offered inside the sort-6 popover; it opens the language/theme dialog. */
export const SYSTEM_SET_ENTRY = item(2, 99, 'system', ['systemSet', '', '系统设置', 'System settings', { fun: '' }]);

export function flattenMenu(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((m) => [m, ...flattenMenu(m.children)]);
}

/** Unique menu function ids, for seeding the function list. */
export function menuFunctionIds(items: readonly MenuItem[] = MENU): string[] {
  return [...new Set(flattenMenu(items).map((m) => m.fun_id).filter(Boolean))];
}
