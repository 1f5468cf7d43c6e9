import type { FastifyInstance } from 'fastify';
import type { Handlers } from '../../calls/types.js';
import type { AppDeps } from '../../deps.js';
import { Readers } from './files.js';
import { packageHandlers } from './handlers.js';
import { registerPackageTiles } from './routes.js';

/**
 * Offline map packages (README.md here): the tile route and the /map/package* handlers. The package files
 * opened for serving are closed with the server.
 */
export function registerMapPackages(app: FastifyInstance, deps: AppDeps): Handlers {
  const readers = new Readers();
  registerPackageTiles(app, deps, readers);
  app.addHook('onClose', async () => readers.closeAll());
  return packageHandlers(deps, readers);
}
