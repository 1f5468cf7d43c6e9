import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { firmwareHandlers } from './handlers.js';
import { registerFirmwareRoutes } from './routes.js';

export { findLiveFirmware } from './store.js';

/** Firmware packages (README.md): upload and download routes and the /firmware/* calls. */
export const firmwareModule: FeatureModule<AppDeps> = {
  name: 'firmware',
  routes: (app, s) => registerFirmwareRoutes(app, s),
  calls: (s) => firmwareHandlers(s),
};
