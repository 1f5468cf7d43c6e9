import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { maintenanceHandlers } from './handlers.js';
import { registerMaintenanceRoutes } from './routes.js';
import type { Maintenance } from './service.js';

export { Maintenance } from './service.js';

/**
 * Device maintenance (README.md): the runtime following device events, its HTTP routes (firmware
 * download, log upload and download) and its call handlers. Stopped with the app.
 */
export const maintenanceModule: FeatureModule<AppDeps & { maintenance: Maintenance }> = {
  name: 'maintenance',
  start: ({ maintenance }) => {
    maintenance.start();
    return { stop: () => maintenance.stop() };
  },
  routes: (app, s) => registerMaintenanceRoutes(app, s, s.maintenance),
  calls: (s) => maintenanceHandlers(s, s.maintenance),
};
