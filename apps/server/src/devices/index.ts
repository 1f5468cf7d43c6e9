import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { deviceAdminHandlers } from './admin.js';
import { deviceHandlers } from './handlers.js';

export { DeviceDirectory, inScope, sees, type Scope } from './directory.js';
export { CONTROL_NOTICE_TOPIC, DeviceStatusBoard } from './status.js';
export { findDeviceBySn } from './store.js';

/** Devices: the directory of registered devices, their status board, the console's device calls and their administration. */
export const devicesModule: FeatureModule<AppDeps> = {
  name: 'devices',
  calls: (s) => ({ ...deviceHandlers(s), ...deviceAdminHandlers(s) }),
};
