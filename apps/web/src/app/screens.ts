import type { ComponentType, LazyExoticComponent } from 'react';
import { preloadable, type Preloadable } from '../shared/lazy';
import { loadEditWorkPage, loadRoutePlanPage } from '../features/routeplan';

type Loader = () => Promise<{ default: ComponentType }>;

/**
 * Screen modules by the menu's `filePath` (and the fixed routes' file paths). Each is a lazy chunk.
 * A screen that is not listed here renders the coming page. To add one:
 *   'features/userManage': () => import('../features/userManage/UserManagePage'),
 */
const LOADERS: Readonly<Record<string, Loader>> = {
  'features/home': () => import('../features/home/HomePage'),
  'features/videoList': () => import('../features/videoList/VideoListPage'),
  'features/routeplan': loadRoutePlanPage,
  'features/editWork': loadEditWorkPage,
  'features/totalResultList': () => import('../features/results/ResultListPage'),
  'features/resultsShow': () => import('../features/results/GalleryPage'),
  'features/achievementAdmin': () => import('../features/results/SortieListPage'),
  'features/panorama': () => import('../features/results/PanoramaPage'),
  'features/routeReplay': () => import('../features/routeReplay/RouteReplayPage'),
  'features/dataAnalyse': () => import('../features/dataAnalyse/DataAnalysePage'),
  // Administration: users, functions, departments
  'features/userManage': () => import('../features/userManage/UserManagePage'),
  'features/dictData': () => import('../features/dictData/DictDataPage'),
  'features/teamManage': () => import('../features/teamManage/TeamManagePage'),
  // Maps and the device network
  'features/outLineMap': () => import('../features/outLineMap/OutLineMapPage'),
  'features/googleMap': () => import('../features/googleMap/GoogleMapPage'),
  'features/networkingItem': () => import('../features/networkingItem/NetworkPage'),
  'features/navigationEnvironment': () => import('../features/navigationEnvironment/NavEnvPage'),
  'features/equipment': () => import('../features/equipment/EquipmentPage'),
  // Collaboration and timed tasks
  'features/coordination': () => import('../features/coordination/CoordinationPage'),
  'features/taskManage': () => import('../features/taskManage/TaskManagePage'),
  // Catalogues: device types, firmware, teaching videos
  'features/deviceType': () => import('../features/deviceType/DeviceTypePage'),
  'features/firmware': () => import('../features/firmware/FirmwarePage'),
  'features/teachingVideos': () => import('../features/teachingVideos/TeachingVideosPage'),
  // Security events
  'features/auditLog': () => import('../features/auditLog/AuditLogPage'),
};

const cache = new Map<string, Preloadable<ComponentType>>();

function entryFor(filePath: string, loaders: Readonly<Record<string, Loader>>): Preloadable<ComponentType> | null {
  const load = loaders[filePath];
  if (!load) return null;
  let entry = cache.get(filePath);
  if (!entry) {
    // React keeps a lazy component's rejected import for good: drop it, so the next visit fetches again.
    const made = preloadable(() =>
      load().catch((error: unknown) => {
        if (cache.get(filePath) === made) cache.delete(filePath);
        throw error;
      }),
    );
    cache.set(filePath, (entry = made));
  }
  return entry;
}

/** The lazy component of a screen, or null when that screen is not built yet. */
export function screenFor(filePath: string, loaders: Readonly<Record<string, Loader>> = LOADERS): LazyExoticComponent<ComponentType> | null {
  return entryFor(filePath, loaders)?.Component ?? null;
}

/**
 * Fetches the module of a fixed route's screen ahead (the route a sign-in goes to): it then renders without
 * a loading pass. Other paths, and fixed routes without a screen, fetch nothing.
 */
export function preloadScreenOf(path: string, loaders: Readonly<Record<string, Loader>> = LOADERS): Promise<void> {
  const pathname = path.split(/[?#]/)[0];
  const route = FIXED_ROUTES.find((r) => r.path === pathname);
  return route ? (entryFor(route.filePath, loaders)?.preload() ?? Promise.resolve()) : Promise.resolve();
}

/**
 * What a screen reads when it opens, started ahead right after sign-in (the screen takes these reads on
 * its first load): by the screens' file paths.
 */
const FIRST_READS: Readonly<Record<string, () => Promise<void>>> = {
  'features/home': () => import('../features/home/prefetch').then((m) => m.prefetchHomeData()),
};

/** Starts the first reads of a fixed route's screen (signed in); other paths read nothing ahead. */
export function prefetchDataOf(path: string): Promise<void> {
  const pathname = path.split(/[?#]/)[0];
  const route = FIXED_ROUTES.find((r) => r.path === pathname);
  const start = route ? FIRST_READS[route.filePath] : undefined;
  return start ? start() : Promise.resolve();
}

/** Fixed routes of SPEC section 2 (besides login and the /layout shell itself). */
export interface FixedRoute {
  name: string;
  path: string;
  filePath: string;
  titleKey: 'route.home' | 'route.routeReplay' | 'route.videoList' | 'route.dataAnalyse' | 'route.panorama';
  /** Outside the shell (no header). */
  fullScreen: boolean;
}

export const FIXED_ROUTES: readonly FixedRoute[] = [
  { name: 'home', path: '/home', filePath: 'features/home', titleKey: 'route.home', fullScreen: false },
  { name: 'routeReplay', path: '/routeReplay', filePath: 'features/routeReplay', titleKey: 'route.routeReplay', fullScreen: false },
  { name: 'videoList', path: '/videoList', filePath: 'features/videoList', titleKey: 'route.videoList', fullScreen: false },
  { name: 'dataAnalyse', path: '/dataAnalyse', filePath: 'features/dataAnalyse', titleKey: 'route.dataAnalyse', fullScreen: true },
  { name: 'panorama', path: '/panorama', filePath: 'features/panorama', titleKey: 'route.panorama', fullScreen: true },
];

export const HOME_PATH = '/home';
export const LAYOUT_PATH = '/layout';
