import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { authHandlers } from './handlers.js';

/** Sign-in, sign-out and session calls. */
export const authModule: FeatureModule<AppDeps> = {
  name: 'auth',
  calls: (s) => authHandlers(s),
};
