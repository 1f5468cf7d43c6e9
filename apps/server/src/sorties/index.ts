import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { SortieRecorder, recorders } from './recorder.js';

export { sortieHandlers } from './handlers.js';

/** Records sorties and their tracks from device events and telemetry (see recorder.ts). */
export function startSortieRecorder(deps: AppDeps, hub: PushHub, log: FastifyBaseLogger): { stop(): Promise<void> } {
  const recorder = new SortieRecorder(deps, hub, log);
  recorders.set(deps, recorder);
  const started = recorder.start().catch((err: unknown) => log.error({ err }, 'sortie recorder did not start'));
  return {
    stop: async () => {
      await started;
      await recorder.stop();
    },
  };
}
