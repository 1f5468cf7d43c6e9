import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { fenceHandlers } from '../fences/api.js';
import { registerTerrainRoutes } from '../terrain/api.js';
import { registerZoneRoutes } from '../zones/api.js';
import { missionHandlers } from './handlers.js';

/** Flight planning: the /fence/* and /mission/* calls, terrain tiles and the zones resource. */
export const planningModule: FeatureModule<AppDeps> = {
  name: 'planning',
  routes: (app, s) => {
    registerTerrainRoutes(app, s.config);
    registerZoneRoutes(app, s);
  },
  calls: (s) => ({ ...fenceHandlers(s), ...missionHandlers(s) }),
};
