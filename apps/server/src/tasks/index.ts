import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { FlightRuntime } from '../flight/types.js';
import { createScheduler, runScheduler } from './scheduler.js';

export { taskHandlers } from './handlers.js';

/**
 * Fires due timed tasks through the flight runtime (see README.md: claims, missed runs, outcomes). The
 * demo missions have their own launcher (demo/), started by main.ts after the simulated fleet.
 */
export function startScheduler(deps: AppDeps, flight: FlightRuntime, log: FastifyBaseLogger): { stop(): Promise<void> } {
  const scheduler = createScheduler({ db: deps.db, flight, log, onChange: (company) => deps.changes.changed(company, 'tasks') });
  return runScheduler(scheduler, log);
}
