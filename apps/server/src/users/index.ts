import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { userHandlers } from './handlers.js';

/** User administration calls. */
export const usersModule: FeatureModule<AppDeps> = {
  name: 'users',
  calls: (s) => userHandlers(s),
};
