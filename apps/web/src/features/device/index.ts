/**
 * Devices: the device panel, flight control and the device administration. Other features reach this one
 * only through this module: the routes a device may fly (the task dialog) and the device panel (the data
 * screen), which stays a lazy chunk loaded by `loadDevicePanel`.
 */
export { useDeviceRoutes } from './flight/useRoutes';
export const loadDevicePanel = () => import('./DevicePanel');
