import type { FastifyBaseLogger } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { FlightRuntime } from '../flight/types.js';

/** /task/add, /task/edit, /task/list. SCAFFOLD (issue 5). */
export function taskHandlers(_deps: AppDeps): Handlers {
  return {};
}

/** Fires due timed tasks (and the demo missions) through the flight runtime. SCAFFOLD. */
export function startScheduler(_deps: AppDeps, _flight: FlightRuntime, _log: FastifyBaseLogger): { stop(): Promise<void> } {
  return { stop: async () => undefined };
}
