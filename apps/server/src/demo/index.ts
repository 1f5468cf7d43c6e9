import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { FlightRuntime } from '../flight/types.js';
import { liveIdle, startDemoLauncher } from './launcher.js';
import { patrolRouteOf, seedDemoPlans, type DemoNest } from './seed.js';
import { startDemoWeather, type DemoWeatherOptions } from './weather.js';

export { DEMO_SEEDED_KEY, seedDemoPlans, type DemoNest } from './seed.js';
export { startDemoLauncher } from './launcher.js';

/**
 * Demo mode (SIMULATOR=on): the first-start demo plans (fence, patrol route, survey per simulated nest),
 * then, with DEMO_MISSIONS=on (`launch`), the periodic demo missions. The plans are made either way, so a
 * console with automatic launches turned off still has routes to fly. main.ts calls it after the fleet
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
        nests: nests.map((n) => n.sn),
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
