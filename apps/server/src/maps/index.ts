import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { createDownloads, runDownloads } from './downloads.js';
import { downloadNotifier, mapHandlers } from './handlers.js';
import { registerMapPackages } from './packages/index.js';
import { registerMaps } from './routes.js';

/**
 * Maps (README.md here): the basemap routes, offline map downloads and packages. The download runner
 * starts with the server (resuming unfinished jobs) and pauses the running job before the server closes
 * (preClose: before the tile file and the database close); the /map/down* handlers go with it, and the
 * offline map packages (packages/: tile route and /map/package*).
 */
export const mapsModule: FeatureModule<AppDeps & { hub: PushHub }> = {
  name: 'maps',
  routes: (app, s) => {
    const basemap = registerMaps(app, s.config);
    const notify = downloadNotifier(s.hub);
    const downloads = createDownloads({ db: s.db, basemap, log: app.log, notify });
    const runner = runDownloads(downloads, app.log);
    app.addHook('onReady', async () => runner.kick());
    app.addHook('preClose', async () => runner.stop());
    return { ...mapHandlers(s, runner, notify), ...registerMapPackages(app, s) };
  },
};
