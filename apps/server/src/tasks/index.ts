import type { FastifyBaseLogger } from 'fastify';
import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import type { FlightRuntime } from '../flight/index.js';
import { taskHandlers } from './handlers.js';
import { createScheduler, runScheduler } from './scheduler.js';

/**
 * Timed tasks: the calls, and the scheduler firing due tasks through the flight runtime (see README.md:
 * claims, missed runs, outcomes). The demo missions have their own launcher (demo/), started by main.ts
 * after the simulated fleet.
 */
export const tasksModule: FeatureModule<AppDeps & { flight: FlightRuntime; log: FastifyBaseLogger }> = {
  name: 'tasks',
  start: (s) =>
    runScheduler(createScheduler({ db: s.db, flight: s.flight, log: s.log, onChange: (company) => s.changes.changed(company, 'tasks') }), s.log),
  calls: (s) => taskHandlers(s),
};
