import type { FastifyBaseLogger } from 'fastify';
import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { sortieHandlers } from './handlers.js';
import type { SortieRecorder } from './recorder.js';

export { SortieRecorder } from './recorder.js';

/** Sorties: the recorder turning device events and telemetry into sorties and tracks (recorder.ts), and the calls. */
export const sortiesModule: FeatureModule<AppDeps & { sorties: SortieRecorder; log: FastifyBaseLogger }> = {
  name: 'sorties',
  start: ({ sorties, log }) => {
    const started = sorties.start().catch((err: unknown) => log.error({ err }, 'sortie recorder did not start'));
    return {
      stop: async () => {
        await started;
        await sorties.stop();
      },
    };
  },
  calls: (s) => sortieHandlers(s, s.sorties),
};
