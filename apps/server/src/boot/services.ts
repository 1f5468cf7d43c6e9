import type { FastifyBaseLogger } from 'fastify';
import { AlarmMonitor } from '../alarms/index.js';
import type { AppDeps } from '../deps.js';
import { createFlight, type FlightRuntime } from '../flight/index.js';
import { Maintenance } from '../maintenance/index.js';
import type { PushHub } from '../push/hub.js';
import { SortieRecorder } from '../sorties/index.js';

/**
 * What the composition root hands the feature modules: the infrastructure (AppDeps, the log, the push
 * hub) and the runtimes one feature provides to others (flight for tasks; the sortie recorder's open
 * sorties for alarms), built here once so no feature reaches into another's internals. The app exposes
 * them as app.nest.services (tests tune the alarm monitor and maintenance through it).
 */
export interface Services extends AppDeps {
  log: FastifyBaseLogger;
  hub: PushHub;
  flight: FlightRuntime;
  sorties: SortieRecorder;
  alarms: AlarmMonitor;
  maintenance: Maintenance;
}

/** Builds the shared runtimes (nothing runs until the modules start them). */
export function createServices(deps: AppDeps, hub: PushHub, log: FastifyBaseLogger): Services {
  const flight = createFlight(deps, log);
  const sorties = new SortieRecorder(deps, hub, log);
  const alarms = new AlarmMonitor(deps, hub, sorties, log);
  const maintenance = new Maintenance(deps, hub, log);
  return { ...deps, log, hub, flight, sorties, alarms, maintenance };
}
