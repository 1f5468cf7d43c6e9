import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { deviceAdminHandlers } from './admin.js';
import { deviceHandlers } from './handlers.js';
import { devicePilotHandlers } from './pilot.js';

import type { DeviceDirectory } from './directory.js';
import type { DeviceStatusBoard } from './status.js';

export { DeviceDirectory, inScope, sees, type Scope } from './directory.js';
export { CONTROL_NOTICE_TOPIC, DeviceStatusBoard } from './status.js';
export { fleetEntryOf } from './view.js';

declare module '../deps.js' {
  interface LiveRuntime {
    /** The registered devices in memory (directory.ts). */
    directory: DeviceDirectory;
    /** Online / offline / held per device, and who holds its control connection (status.ts). */
    status: DeviceStatusBoard;
  }
}
export { findDeviceBySn } from './store.js';

/** Devices: the directory of registered devices, their status board, the console's device calls and their administration. */
export const devicesModule: FeatureModule<AppDeps> = {
  name: 'devices',
  calls: (s) => ({ ...deviceHandlers(s), ...deviceAdminHandlers(s), ...devicePilotHandlers(s) }),
};
