/**
 * Route planning: the list of routes and fences with import and export (/routeplan) and the route, fence
 * and survey editor (/editWork, in `editor/`). The app reaches this feature only through this module: the
 * two screens are separate lazy chunks, loaded by these functions; the texts are assembled into the
 * catalogs under `routeplan`.
 */
export const loadRoutePlanPage = () => import('./RoutePlanPage');
export const loadEditWorkPage = () => import('./editor/EditWorkPage');
export { routeplanZh, routeplanEn } from './messages';
