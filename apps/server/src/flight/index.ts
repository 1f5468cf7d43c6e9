import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import { Runtime } from './runtime.js';
import type { FlightRuntime } from './types.js';

export type { Actor, CommandAnswer, FlightRuntime } from './types.js';
export { flightHandlers } from './handlers.js';

/**
 * Starts flight operations. The hub is not needed here: it forwards flow / mission progress to the
 * sockets itself and hands 401 / 473 to the runtime (hub.setFlight).
 */
export function startFlight(deps: AppDeps, _hub: PushHub, log: FastifyBaseLogger): FlightRuntime {
  return new Runtime(deps, log);
}
