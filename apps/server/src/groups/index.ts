import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { groupHandlers } from './handlers.js';

export { GroupShares, SHARE_CACHE_MS, sharesOf } from './shares.js';

/** Collaboration groups (README.md): the /group/* calls; shares.ts answers what a user sees through them. */
export const groupsModule: FeatureModule<AppDeps> = {
  name: 'groups',
  calls: (s) => groupHandlers(s),
};
