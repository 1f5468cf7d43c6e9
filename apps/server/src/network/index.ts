import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { networkHandlers } from './handlers.js';

/** Device network and navigation environment: the calls. */
export const networkModule: FeatureModule<AppDeps> = {
  name: 'network',
  calls: (s) => networkHandlers(s),
};
