import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { maintenanceHandlers } from './handlers.js';
import { registerMaintenanceRoutes } from './routes.js';
import { Maintenance } from './service.js';

export { Maintenance } from './service.js';

const running = new WeakMap<AppDeps, Maintenance>();

/** The maintenance runtime of an app (tests tune its settings through it). */
export function maintenanceOf(deps: AppDeps): Maintenance {
  const m = running.get(deps);
  if (!m) throw new Error('maintenance is not started for this app');
  return m;
}

/**
 * Starts device maintenance (README.md): the runtime following device events, its HTTP routes (firmware
 * download, log upload and download) and its call handlers. Stopped with the app.
 */
export async function startMaintenance(app: FastifyInstance, deps: AppDeps, hub: PushHub, log: FastifyBaseLogger): Promise<Handlers> {
  const maint = new Maintenance(deps, hub, log);
  maint.start();
  running.set(deps, maint);
  app.addHook('onClose', async () => maint.stop());
  await registerMaintenanceRoutes(app, deps, maint);
  return maintenanceHandlers(deps, maint);
}
