import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { deviceTypeHandlers } from './handlers.js';
import { seedDeviceTypes } from './store.js';

/** Device types: the catalogue (seeded once with the built-in types) and its calls. */
export const deviceTypesModule: FeatureModule<AppDeps> = {
  name: 'deviceTypes',
  seed: seedDeviceTypes,
  calls: (s) => deviceTypeHandlers(s),
};
