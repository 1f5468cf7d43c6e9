import type { FastifyBaseLogger } from 'fastify';
import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { statsHandlers } from './handlers.js';
import { registerScreenResources } from './screen-routes.js';
import { UptimeRecorder } from './uptime.js';

/**
 * Statistics: the per-hour uptime log of every registered device (uptime.ts; stop() writes the last
 * figures), the data-screen resources (screen-routes.ts) and the calls.
 */
export const statsModule: FeatureModule<AppDeps & { log: FastifyBaseLogger }> = {
  name: 'stats',
  start: (s) => {
    const { live, log } = s;
    const recorder = new UptimeRecorder(s.db, s.dbKind, { devices: () => live.directory.all(), isOnline: (sn) => live.link.isOnline(sn) }, log);
    const started = recorder.start().catch((err: unknown) => log.error({ err }, 'uptime recorder did not start'));
    return {
      stop: async () => {
        await started;
        await recorder.stop();
      },
    };
  },
  routes: (app, s) => registerScreenResources(app, s),
  calls: (s) => statsHandlers(s),
};
