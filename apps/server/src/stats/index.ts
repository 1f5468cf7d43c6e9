import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import { UptimeRecorder } from './uptime.js';

export { statsHandlers } from './handlers.js';

/** Starts the per-hour uptime log of every registered device (see uptime.ts); stop() writes the last figures. */
export function startUptimeRecorder(deps: AppDeps, log: FastifyBaseLogger): { recorder: UptimeRecorder; stop(): Promise<void> } {
  const { live } = deps;
  const recorder = new UptimeRecorder(deps.db, deps.dbKind, { devices: () => live.directory.all(), isOnline: (sn) => live.link.isOnline(sn) }, log);
  const started = recorder.start().catch((err: unknown) => log.error({ err }, 'uptime recorder did not start'));
  return {
    recorder,
    stop: async () => {
      await started;
      await recorder.stop();
    },
  };
}
