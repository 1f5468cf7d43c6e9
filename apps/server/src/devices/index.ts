import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { deviceAdminHandlers } from './admin.js';
import { deviceHandlers } from './handlers.js';

/** Devices: the console's device calls and their administration. */
export const devicesModule: FeatureModule<AppDeps> = {
  name: 'devices',
  calls: (s) => ({ ...deviceHandlers(s), ...deviceAdminHandlers(s) }),
};
