import type { FastifyBaseLogger } from 'fastify';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { PushHub } from '../push/hub.js';
import type { FlightRuntime } from './types.js';

export type { Actor, CommandAnswer, FlightRuntime } from './types.js';

/** Starts flight operations. SCAFFOLD: replaced by the flight module (issue 5). */
export function startFlight(_deps: AppDeps, _hub: PushHub, _log: FastifyBaseLogger): FlightRuntime {
  const no = async () => {
    throw new Error('flight operations are not built yet');
  };
  return { control: no, process: no, launchMission: no, checks: no, stop: async () => undefined };
}

/** Calls of flight operations: /flight/check, /command/log. SCAFFOLD. */
export function flightHandlers(_deps: AppDeps, _flight: FlightRuntime): Handlers {
  return {};
}
