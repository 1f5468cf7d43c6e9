import { FlightState } from '@nest/contracts';
import type { LiveRuntime } from '../deps.js';
import type { Actor, FlightRuntime } from '../flight/types.js';
import { DEMO_NICK } from './seed.js';

/** First demo launch this long after start (the fleet is usually online within seconds). */
export const FIRST_DELAY_MS = 60_000;
/** While no nest could be launched, try again this often. */
export const RETRY_MS = 15_000;

export interface DemoLauncherOptions {
  flight: Pick<FlightRuntime, 'launchMission'>;
  /** Simulated nests in round-robin order. */
  nests: readonly string[];
  /** Online, nobody holds it, nothing flying or running. */
  isIdle: (sn: string) => boolean;
  /** The nest's demo patrol route and its company, or null when it has none. */
  routeOf: (sn: string) => Promise<{ id: string; name: string; company_id: string } | null>;
  periodMs: number;
  firstDelayMs?: number;
  retryMs?: number;
  log: (line: string) => void;
}

/** Idle as the device link sees it: online, not held by a person, drone on the ground, no flow or mission running. */
export function liveIdle(live: Pick<LiveRuntime, 'link' | 'status'>): (sn: string) => boolean {
  return (sn) => {
    if (!live.link.isOnline(sn) || live.status.holder(sn) !== null) return false;
    const d = live.link.device(sn);
    const flight = d?.telemetry?.drone?.flight_state;
    if (flight !== undefined && flight !== FlightState.IDLE && flight !== FlightState.ON_GROUND) return false;
    const flow = d?.state?.flow?.state;
    const mission = d?.state?.mission?.state;
    return flow !== 'running' && flow !== 'paused' && mission !== 'running' && mission !== 'paused' && mission !== 'returning';
  };
}

/**
 * The demo launcher: about a minute after start flies the patrol route of one idle nest, then every
 * period the next idle nest round-robin (nests held by a person or busy are skipped), through the flight
 * runtime with source 'demo' and a system actor. One log line per launch and outcome. `launchNext` is
 * exposed for tests.
 */
export function startDemoLauncher(opts: DemoLauncherOptions) {
  let cursor = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  /** Launches on the next idle nest with a route; answers its sn, or null when none was idle. */
  async function launchNext(): Promise<string | null> {
    const n = opts.nests.length;
    for (let k = 0; k < n; k++) {
      const sn = opts.nests[(cursor + k) % n]!;
      if (!opts.isIdle(sn)) continue;
      const route = await opts.routeOf(sn);
      if (!route) continue;
      cursor = (cursor + k + 1) % n;
      const actor: Actor = { u_id: '', nick: DEMO_NICK, company_id: route.company_id, all: false, source: 'demo' };
      opts.log(`Demo mission: launching "${route.name}" on ${sn}`);
      try {
        const answer = await opts.flight.launchMission(actor, { sn, missionId: route.id }, 'en');
        const ok = answer.code === 2000 && (answer.data.outcome === 'ok' || answer.data.outcome === 'pending');
        opts.log(ok ? `Demo mission on ${sn}: sent` : `Demo mission on ${sn}: not sent (${answer.data.outcome}: ${answer.msg})`);
      } catch (err) {
        opts.log(`Demo mission on ${sn}: failed (${err instanceof Error ? err.message : String(err)})`);
      }
      return sn;
    }
    return null;
  }

  const plan = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = launchNext()
        .catch((err: unknown) => {
          opts.log(`Demo mission: ${err instanceof Error ? err.message : String(err)}`);
          return null;
        })
        .then((sn) => plan(sn ? opts.periodMs : Math.min(opts.retryMs ?? RETRY_MS, opts.periodMs)))
        .finally(() => {
          running = null;
        });
    }, ms);
    timer.unref();
  };
  plan(opts.firstDelayMs ?? FIRST_DELAY_MS);

  return {
    launchNext,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
