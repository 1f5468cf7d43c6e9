import type { FastifyInstance } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import type { Basemap } from './basemap.js';
import { createDownloads, runDownloads } from './downloads.js';
import { downloadNotifier, mapHandlers } from './handlers.js';
import { registerMapPackages } from './packages/index.js';

export { registerMaps } from './routes.js';

/**
 * Offline map downloads (README.md here): the runner starts with the server (resuming unfinished jobs),
 * pauses the running job before the server closes (preClose: before the tile file and the database close),
 * and the /map/down* handlers; with them the offline map packages (packages/: tile route and /map/package*).
 */
export function registerMapDownloads(app: FastifyInstance, deps: AppDeps, basemap: Basemap, hub: PushHub): Handlers {
  const notify = downloadNotifier(hub);
  const downloads = createDownloads({ db: deps.db, basemap, log: app.log, notify });
  const runner = runDownloads(downloads, app.log);
  app.addHook('onReady', async () => runner.kick());
  app.addHook('preClose', async () => runner.stop());
  return { ...mapHandlers(deps, runner, notify), ...registerMapPackages(app, deps) };
}
