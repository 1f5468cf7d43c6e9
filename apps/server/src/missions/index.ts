import type { FastifyInstance } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import { fenceHandlers } from '../fences/handlers.js';
import { registerTerrainRoutes } from '../terrain/routes.js';
import { registerZoneRoutes } from '../zones/routes.js';
import { missionHandlers } from './handlers.js';

/** The flight-planning calls: /fence/* and /mission/*. */
export const planningHandlers = (deps: AppDeps): Handlers => ({ ...fenceHandlers(deps), ...missionHandlers(deps) });

/** The planning GET routes: terrain tiles and the zones resource. */
export function registerPlanningRoutes(app: FastifyInstance, deps: AppDeps): void {
  registerTerrainRoutes(app, deps.config);
  registerZoneRoutes(app, deps);
}
