import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/**
 * Screen modules by the menu's `filePath` (and the fixed routes' file paths). Each is a lazy chunk.
 * A screen that is not listed here renders the coming page. To add one:
 *   'features/userManage': () => import('../features/userManage/UserManagePage'),
 */
const LOADERS: Readonly<Record<string, Loader>> = {
  'features/home': () => import('../features/home/HomePage'),
  'features/videoList': () => import('../features/videoList/VideoListPage'),
  'features/routeplan': () => import('../features/routeplan/RoutePlanPage'),
  'features/editWork': () => import('../features/editWork/EditWorkPage'),
  'features/totalResultList': () => import('../features/results/ResultListPage'),
  'features/resultsShow': () => import('../features/results/GalleryPage'),
  'features/achievementAdmin': () => import('../features/results/SortieListPage'),
  'features/panorama': () => import('../features/results/PanoramaPage'),
  'features/routeReplay': () => import('../features/routeReplay/RouteReplayPage'),
  'features/dataAnalyse': () => import('../features/dataAnalyse/DataAnalysePage'),
  // userManage, dictData, teamManage (issue 7, helper A)
  'features/userManage': () => import('../features/userManage/UserManagePage'),
  'features/dictData': () => import('../features/dictData/DictDataPage'),
  'features/teamManage': () => import('../features/teamManage/TeamManagePage'),
  // issue 7, D2
  'features/outLineMap': () => import('../features/outLineMap/OutLineMapPage'),
  'features/googleMap': () => import('../features/googleMap/GoogleMapPage'),
  'features/networkingItem': () => import('../features/networkingItem/NetworkPage'),
  'features/navigationEnvironment': () => import('../features/navigationEnvironment/NavEnvPage'),
  'features/equipment': () => import('../features/equipment/EquipmentPage'),
  // issue 7, D1
  'features/coordination': () => import('../features/coordination/CoordinationPage'),
  'features/taskManage': () => import('../features/taskManage/TaskManagePage'),
  // issue 7, helper C
  'features/deviceType': () => import('../features/deviceType/DeviceTypePage'),
  'features/firmware': () => import('../features/firmware/FirmwarePage'),
  'features/teachingVideos': () => import('../features/teachingVideos/TeachingVideosPage'),
  // issue 8, helper C
  'features/auditLog': () => import('../features/auditLog/AuditLogPage'),
};

const cache = new Map<string, LazyExoticComponent<ComponentType>>();

/** The lazy component of a screen, or null when that screen is not built yet. */
export function screenFor(filePath: string, loaders: Readonly<Record<string, Loader>> = LOADERS): LazyExoticComponent<ComponentType> | null {
  const load = loaders[filePath];
  if (!load) return null;
  let screen = cache.get(filePath);
  if (!screen) {
    // React keeps a lazy component's rejected import for good: drop it, so the next visit fetches again.
    const retrying: Loader = () =>
      load().catch((error: unknown) => {
        if (cache.get(filePath) === screen) cache.delete(filePath);
        throw error;
      });
    cache.set(filePath, (screen = lazy(retrying)));
  }
  return screen;
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
