import type { FastifyBaseLogger } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';

/** Records sorties and their tracks from device events and telemetry. SCAFFOLD (issue 5). */
export function startSortieRecorder(_deps: AppDeps, _hub: PushHub, _log: FastifyBaseLogger): { stop(): Promise<void> } {
  return { stop: async () => undefined };
}

/** /sorties/list, /sorties/track, /alternate/list. SCAFFOLD. */
export function sortieHandlers(_deps: AppDeps): Handlers {
  return {};
}
