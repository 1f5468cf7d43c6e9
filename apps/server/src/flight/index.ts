import type { FastifyBaseLogger } from 'fastify';
import type { FeatureModule } from '../boot/module.js';
import type { AppDeps } from '../deps.js';
import { flightHandlers } from './handlers.js';
import { flightPushHandlers } from './push.js';
import { Runtime } from './runtime.js';
import type { FlightRuntime } from './types.js';

export type { Actor, CommandAnswer, FlightRuntime } from './types.js';

/** The flight runtime of an app (it follows mission progress from the moment it exists; stop() ends that). */
export function createFlight(deps: AppDeps, log: FastifyBaseLogger): FlightRuntime {
  return new Runtime(deps, log);
}

/** Flight operations (README.md): the runtime, the /flight/* calls and push 401 / 473. */
export const flightModule: FeatureModule<AppDeps & { flight: FlightRuntime; log: FastifyBaseLogger }> = {
  name: 'flight',
  start: ({ flight }) => ({ stop: () => flight.stop() }),
  calls: (s) => flightHandlers(s, s.flight),
  push: (s) => flightPushHandlers(s.flight, s.log),
};
