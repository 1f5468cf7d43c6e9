import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { userHandlers } from './handlers.js';

export { ADMIN_BOOTSTRAP_KEY, bootstrapAdmin, type AdminBootstrap } from './bootstrap.js';

/** User administration calls; bootstrap.ts sets up the first administrator. */
export const usersModule: FeatureModule<AppDeps> = {
  name: 'users',
  calls: (s) => userHandlers(s),
};
