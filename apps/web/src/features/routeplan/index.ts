/**
 * Route planning: the list of routes, fences and the company's no-fly zones with import and export
 * (/routeplan) and the editors (/editWork: routes, fences and surveys in `editor/`, no-fly zones in
 * `nofly/`, chosen by EditWorkScreen). The app reaches this feature only through this module: the
 * two screens are separate lazy chunks, loaded by these functions; the texts are assembled into the
 * catalogs under `routeplan`.
 */
export const loadRoutePlanPage = () => import('./RoutePlanPage');
export const loadEditWorkPage = () => import('./EditWorkScreen');
export { routeplanZh, routeplanEn } from './messages';
