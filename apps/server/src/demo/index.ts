import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { ADMIN_COMPANY } from '../db/seed.js';
import type { AppDeps } from '../deps.js';
import type { DemoDeviceSpec } from './devices.js';
import type { DemoDjiDock } from './dji.js';
import type { DemoServer } from './server.js';
import type { FlightRuntime } from '../flight/types.js';
import { seedDemoRecordings } from '../videos/demo.js';
import { fleetExtras, withAlternate } from './fleet.js';
import { liveIdle, startDemoLauncher } from './launcher.js';
import { patrolRouteOf, seedDemoPlans, type DemoNest } from './seed.js';
import { startDemoWeather, type DemoWeatherOptions } from './weather.js';

export { DEMO_SEEDED_KEY, seedDemoPlans, type DemoNest } from './seed.js';
export { startDemoLauncher } from './launcher.js';
export { ensureDemoDevices, type DemoDeviceSpec } from './devices.js';
export type { DemoServer } from './server.js';
export { demoDjiDocks, demoDjiLogins, ensureDemoDjiDocks, type DemoDjiDock } from './dji.js';

/**
 * Demo mode (SIMULATOR=on): the first-start demo plans (fence, patrol route, survey per simulated nest),
 * then, with DEMO_MISSIONS=on (`launch`), the periodic demo missions. The plans are made either way, so a
 * console with automatic launches turned off still has routes to fly. startDemoMode calls it after the fleet
 * started; stop() ends the launcher.
 */
export async function startDemo(
  deps: AppDeps,
  flight: FlightRuntime,
  nests: readonly DemoNest[],
  log: FastifyBaseLogger,
  launch = true,
  /** The simulated fleet, for the demo weather (spells of strong wind that raise alarms). */
  fleet?: DemoWeatherOptions['fleet'],
  /** The nests the weather may visit (those of the simulated fleet); default all. */
  weatherNests: readonly string[] = nests.map((n) => n.sn),
): Promise<{ stop(): Promise<void> }> {
  try {
    const routes = await seedDemoPlans(deps, nests, log);
    if (routes > 0) log.info({ routes }, `Demo plans: ${routes} routes on ${nests.length} simulated nests`);
  } catch (err) {
    // The demo must never stop the server; the next start tries the seed again.
    log.warn({ err }, 'demo plans not made');
  }
  if (!launch) return { stop: async () => undefined };
  const launcher = startDemoLauncher({
    flight,
    nests: nests.map((n) => n.sn),
    isIdle: liveIdle(deps.live),
    routeOf: (sn) => patrolRouteOf(deps, sn),
    periodMs: deps.config.demoMissionMinutes * 60_000,
    log: (line) => log.info({ demo: true }, line),
  });
  const weather = fleet
    ? startDemoWeather({
        fleet,
        nests: weatherNests,
        isIdle: liveIdle(deps.live),
        periodMs: 2 * deps.config.demoMissionMinutes * 60_000,
        spellMs: 3 * 60_000,
        log: (line) => log.info({ demo: true }, line),
      })
    : null;
  return {
    async stop() {
      await weather?.stop();
      await launcher.stop();
    },
  };
}

/** The start-up line of a running demo fleet. */
export const fleetLine = (config: Pick<Config, 'simNests' | 'simDrones' | 'simCenter'>): string =>
  `Simulated fleet: ${config.simNests} nests, ${config.simDrones} drones around ${config.simCenter.lat},${config.simCenter.lng}`;

/** The start-up line of the emulated DJI docks. */
export const djiFleetLine = (docks: readonly { sn: string }[]): string =>
  `Emulated DJI docks (DJI Cloud API): ${docks.map((d) => d.sn).join(', ')}`;

/**
 * The options of the simulator's startFleet for the demo devices on this server: its broker, each device's
 * password from the server's device key, per nest an alternate landing point, the time scale, where media
 * uploads go, the telemetry rate and live video, the simulator's log lines in the server's log.
 */
export function demoFleetOptions(server: DemoServer, specs: readonly DemoDeviceSpec[]) {
  const { app, config, port } = server;
  const live = app.nest.deps.live;
  return {
    brokerUrl: live.brokerUrl,
    devices: specs.map((s) => withAlternate({ ...s, password: live.devicePassword(s.sn), calm: config.simWeather === 'calm' })),
    ...fleetExtras(config, port),
    rateHz: config.simRateHz,
    liveDir: config.liveDir,
    liveUrlBase: config.liveUrlBase,
    log: (text: string) => app.log.info({ simulator: text }, 'simulator'),
  };
}

/**
 * Demo mode on a server whose demo devices are registered: with the fleet running, the demo plans, missions
 * and weather (startDemo; prints the demo missions line when DEMO_MISSIONS=on); either way the demo
 * recordings (real files, made with ffmpeg when present) in the background, so start-up does not wait.
 * stop() ends the demo missions and weather.
 */
export async function startDemoMode(
  server: DemoServer,
  specs: readonly DemoDeviceSpec[],
  fleet: DemoWeatherOptions['fleet'] | null,
  /** The emulated DJI docks that are running: they get demo plans and fly demo missions like the nests. */
  djiDocks: readonly DemoDjiDock[] = [],
): Promise<{ stop(): Promise<void> }> {
  const { app, config } = server;
  const nestSpecs = [...specs.filter((s) => s.kind !== 'alone'), ...djiDocks];
  let demo: { stop(): Promise<void> } = { stop: async () => undefined };
  if (fleet) {
    const simulated = specs.filter((s) => s.kind !== 'alone').map((s) => s.sn);
    demo = await startDemo(app.nest.deps, app.nest.flight, nestSpecs, app.log, config.demoMissions, fleet, simulated);
    if (config.demoMissions) {
      console.log(`Demo missions: a patrol route about a minute after start, then every ${config.demoMissionMinutes} minutes on the next idle nest`);
    }
  }
  const nests = nestSpecs.map((s) => ({ sn: s.sn, companyId: ADMIN_COMPANY }));
  void seedDemoRecordings(app.nest.deps, nests).catch((err: unknown) => app.log.warn({ err }, 'demo recordings failed'));
  return demo;
}
