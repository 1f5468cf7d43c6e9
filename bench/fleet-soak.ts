/**
 * Soak: the real server under the simulated fleet and console-like browsers for minutes, checking that
 * memory does not grow and that nothing is lost on the QoS-1 paths (device presence, state and events,
 * commands and their replies), with latency percentiles and the server's CPU per device message. Results go
 * to docs/performance.md (between the fleet-soak markers); exit code 1 when anything was lost or memory grew.
 *
 *   npm run bench:soak -- [--devices 2000] [--rate 1] [--clients 100] [--minutes 10] [--warmup 60]
 *                         [--broker embedded|thread|mosquitto] [--burn 0] [--sim-procs N] [--sim-nice 0] [--clients-nice 0] [--dated 500]
 *                         [--heap-every 0] [--profile file.cpuprofile] [--no-doc | --doc-tag name]
 *   npm run bench:soak -- --ladder 2000,5000,10000,15000,20000 [same options; --minutes 2 --warmup 30 by default]
 *
 * SQLite in a temp dir by default; PostgreSQL when DATABASE_URL names an empty database.
 *
 * Processes (fleet-lib.ts, fleet-clients.ts), like fleet-push.ts:
 * - main (this one, run with --expose-gc): the real server (buildApp via the test helpers) and, with
 *   `--broker embedded`, its embedded broker on the server's own event loop (MQTT_BROKER_THREAD=off, as
 *   the server tests run it); with `--broker thread`, the embedded broker in a worker thread of the same
 *   process (the product's default); with `--broker mosquitto`, Mosquitto as a child of it (its
 *   CPU read from /proc). Heap: after the server's own major GCs (`--heap-every 0`, no pause added), or
 *   after a forced full GC every N seconds; a forced one at the end of the warm-up and at the end.
 * - sim (`--sim-procs`, one per 2,500 devices by default): the real simulator, one MQTT client per device,
 *   the devices dealt over the processes (`--sim-nice`: at a lower priority than the server); a slice of the nests (`--pilots`) in a second fleet with calm
 *   weather and `--pilot-time-scale`, so that their flights (flow, mission, flight events) fit in a cycle.
 * - clients: the browsers. Every socket verifies its user (100) and sends a heartbeat (101) every 20 s;
 *   half keep the fleet map subscription (210 -> 310), half watch a slice of the devices (200 -> 300) and
 *   each sends a 401 gimbal command every `--command-period` seconds to one of its devices; the sockets
 *   watching the pilot nests fly them (401 one-key takeoff, 401 landing half a cycle later). A tracker
 *   MQTT subscriber dates telemetry (of `--dated` devices at most, a sample: every message it takes is one
 *   more delivery the embedded broker makes in the server's process, which no production server makes),
 *   matches every device event with its events_reply and keeps every device's last state message.
 * - burn (`--burn N`): N processes each spinning one core for the whole run (a competing program).
 *
 * Loss, counted over what is sent (events: first published) in the measured window, after a drain:
 * events without events_reply; flight.start / flight.end events without their sortie row (start) or end
 * time (end); gimbal commands without a 2000 / ok reply or without their command_log row `ok`; pilot
 * commands without any reply (a refusal is an answer: the device decides); heartbeats not answered 2000;
 * state: a device whose last state message the server does not hold; presence: a device the server took
 * for offline (or did not have online at the end of the window) while its MQTT connection stayed up, and
 * any offline_in_flight alarm raised for such a device.
 *
 * `--ladder`: one shorter soak per device count, each in its own process (a step that breaks does not
 * take the next with it), then one table row per step: where one instance stops keeping up, and how it
 * degrades past that point (slower, never wrong).
 */
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { PerformanceObserver, constants as perfConstants, monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PUSH_PATH } from '@nest/contracts';
import { startTestServer, tempDir, type TestServer } from '../apps/server/test/helpers.js';
import { listen, live, until } from '../apps/server/test/live.js';
import type { ClientStats, CommandStats } from './fleet-clients.js';
import {
  Child,
  benchEntry,
  DOC,
  BENCH_HOLD_SECONDS,
  ProcCpu,
  SimPool,
  consolePlans,
  cpuPercent,
  datedFleetSockets,
  defaultSimProcs,
  findPid,
  fleetSpecs,
  mb,
  perSecond,
  raiseFileLimit,
  registerFleet,
  runLine,
  sleep,
  snap,
  startBurners,
  startProfile,
  writeDocBlock,
  type BenchSpec,
} from './fleet-lib.js';
import { Histogram, canon, holds, slope } from './stats.js';

const SCRIPT = fileURLToPath(import.meta.url);
/** The generated block of a run: `fleet-soak`, or `fleet-soak-<tag>` with `--doc-tag` (several runs documented side by side). */
const markers = (tag: string | undefined) => {
  const name = tag ? `fleet-soak-${tag}` : 'fleet-soak';
  return { begin: `<!-- ${name}:begin (generated by bench/fleet-soak.ts) -->`, end: `<!-- ${name}:end -->` };
};
const LADDER_BEGIN = '<!-- fleet-soak-ladder:begin (generated by bench/fleet-soak.ts --ladder) -->';
const LADDER_END = '<!-- fleet-soak-ladder:end -->';
const HEARTBEAT_MS = 20_000;
/** Progress lines while measuring. */
const PRINT_MS = 60_000;
/** "No growth": post-GC heap slope over the second half below this, and the final heap within the margin. */
const MAX_SLOPE_MB_PER_MIN = 1;
const FINAL_MARGIN = { ratio: 0.1, bytes: 8 * 2 ** 20 };
/** After the senders stop: replies still due. */
const QUIESCE_WAIT_MS = 20_000;
/**
 * Then the drain: until every counted event is acknowledged (so stored: sorties written) and the server has
 * caught up with the fleet's telemetry (a server that fell behind must be late, not wrong), at most this long.
 */
const DRAIN_LIMIT_MS = 120_000;
/** Caught up: the newest telemetry the server holds of the dated devices is at most this old (median). */
const CAUGHT_UP_MS = 3000;
/**
 * A simulator process whose event loop stood still this long sent nothing meanwhile: its devices may rightly
 * be taken for offline (the server declares silence after MISSED_TELEMETRY_PERIODS periods, 3 s at 1 Hz).
 */
const SIM_STALL_MS = 2000;

interface Params {
  devices: number;
  rate: number;
  clients: number;
  minutes: number;
  warmup: number;
  broker: 'embedded' | 'thread' | 'mosquitto';
  commandPeriod: number;
  pilots: number;
  pilotCycle: number;
  pilotTimeScale: number;
  /** Competing processes spinning a core each. */
  burn: number;
  simProcs: number;
  /** Niceness of the simulator processes (0: same priority as the server). */
  simNice: number;
  /** Niceness of the clients process (the browsers; 0: same priority as the server). */
  clientsNice: number;
  /** At most this many devices' frames are dated (a sample of larger fleets). */
  dated: number;
  /** Seconds between forced full GCs for the heap samples; 0: samples after the server's own major GCs. */
  heapEvery: number;
  /** Writes a CPU profile of the server process over the measured window to this file. */
  profile?: string;
}

interface Sample {
  /** Minutes since the end of the warm-up. */
  t: number;
  heap: number;
  rss: number;
  /** How long a forced full GC blocked the server, ms (it shows in the latency tails); 0 for a natural one. */
  gcMs: number;
}

interface Presence {
  /** Online -> offline transitions the server made from the measured window's start until the fleet was stopped. */
  wentOffline: number;
  /** Of those, devices whose MQTT connection had not dropped (simulator's view): taken for offline wrongly. */
  falseOffline: string[];
  /** Devices the simulator saw disconnected (broker or network), in the same time. */
  dropped: number;
  /** Devices taken for offline while their simulator process stood still (SIM_STALL_MS or longer): silent, rightly offline. */
  silent: number;
  /** The longest stall of a simulator process's event loop in that time, ms. */
  simMaxStallMs: number;
  /** Connected devices the server did not have online at the end of the measured window. */
  notOnlineAtEnd: string[];
  /** offline_in_flight alarms raised in the same time, and those for devices that stayed connected. */
  offlineAlarms: number;
  falseAlarms: number;
}

interface Outcome {
  stats: ClientStats;
  seconds: number;
  cpu: number;
  /** Server CPU per device message that reached the link (read, or superseded before it was read), us. */
  usPerMessage: number;
  simCpu: number;
  simRss: number;
  /** Mosquitto's CPU, % of one core (null with the embedded broker: it is in the server's). */
  brokerCpu: number | null;
  burnCpu: number;
  loopP99: number;
  loopMax: number;
  gc: GcPauses;
  rssStart: number;
  rssEnd: number;
  warm: Sample;
  final: Sample;
  samples: Sample[];
  forced: Sample[];
  slopeMbMin: number;
  memoryOk: boolean;
  db: { gimbalLogged: number; gimbalLoggedOk: number; sortiesStarted: number; sortiesEnded: number };
  /** `superseded`: telemetry the link replaced by a newer message of the same device before reading it (behind). */
  link: { received: number; accepted: number; dropped: Record<string, number>; superseded: number };
  presence: Presence;
  states: { sent: number; devices: number; notHeld: string[] };
  onlineSeconds: number;
  /** Gimbal commands not answered ok whose device was silent or disconnected (excused). */
  gimbalExcused: number;
  /** How long the drain after the window took (the server catching up, events acknowledged). */
  drainSeconds: number;
  losses: string[];
}

function forcedSample(t0: number): Sample {
  const before = performance.now();
  globalThis.gc!();
  const gcMs = performance.now() - before;
  const m = process.memoryUsage();
  return { t: (performance.now() - t0) / 60_000, heap: m.heapUsed, rss: m.rss, gcMs };
}

/** Heap samples right after the server's own major (mark-compact) GCs: no pause of the bench's making. */
function naturalSamples(t0: number, into: Sample[]): PerformanceObserver {
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind !== perfConstants.NODE_PERFORMANCE_GC_MAJOR) continue;
      const m = process.memoryUsage();
      into.push({ t: (performance.now() - t0) / 60_000, heap: m.heapUsed, rss: m.rss, gcMs: 0 });
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return obs;
}

/** The server's GC pauses in the window, by kind: how many, their sum and the longest, ms. */
interface GcPauses {
  minor: { n: number; ms: number; max: number };
  major: { n: number; ms: number; max: number };
  other: { n: number; ms: number; max: number };
}

/** Tallies every GC pause of this process (the main thread's part of each collection) until disconnected. */
function gcPauses(into: GcPauses): PerformanceObserver {
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      const t = kind === perfConstants.NODE_PERFORMANCE_GC_MINOR ? into.minor : kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR ? into.major : into.other;
      t.n++;
      t.ms += e.duration;
      t.max = Math.max(t.max, e.duration);
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return obs;
}

/**
 * The live set over time from heap samples after natural major GCs: what survives a major GC varies with
 * the garbage of the moment, so each 30-second bin gives its lowest sample. Fewer than four bins (a second
 * half shorter than two minutes): none. What survives a major GC moves by a few MB from one bin to the
 * next, so over a minute that alone reads as more than the 1 MB/min limit; the forced GCs at both ends
 * still judge.
 */
function liveSet(samples: Sample[]): { x: number; y: number }[] {
  const bins = new Map<number, Sample>();
  for (const s of samples) {
    const k = Math.floor(s.t * 2);
    if (!bins.has(k) || bins.get(k)!.heap > s.heap) bins.set(k, s);
  }
  return bins.size < 4 ? [] : [...bins.values()].map((s) => ({ x: s.t, y: s.heap / 2 ** 20 }));
}

/** Pilots: every k-th nest (any nest kind flies one-key takeoffs), at most `count`. */
function pilotSns(specs: BenchSpec[], count: number): Set<string> {
  const nests = specs.filter((s) => s.kind !== 'alone');
  const step = Math.max(1, Math.floor(nests.length / Math.max(1, count)));
  return new Set(nests.filter((_, i) => i % step === 0).slice(0, count).map((s) => s.sn));
}

interface Started {
  server: TestServer;
  brokerUrl: string;
  /** Mosquitto reads its password file at start: started once the devices are registered. */
  startBroker: () => Promise<void>;
  /** Mosquitto's process id once started (null with the embedded broker). */
  brokerPid: () => number | null;
  closeBroker: () => Promise<void>;
}

async function startServer(p: Params): Promise<Started> {
  const databaseUrl = process.env.DATABASE_URL ?? null;
  const db = databaseUrl ? { databaseUrl } : {};
  if (p.broker !== 'mosquitto') {
    // `thread`: the embedded broker in a worker thread of the server's process (MQTT_BROKER_THREAD).
    const server = await startTestServer({ config: { simulator: false, deviceHoldSeconds: BENCH_HOLD_SECONDS, mqttBrokerThread: p.broker === 'thread', ...db } });
    return { server, brokerUrl: live(server).brokerUrl, startBroker: async () => undefined, brokerPid: () => null, closeBroker: async () => undefined };
  }
  const { startMosquitto } = await import('../apps/server/test/infra.js');
  const { reservedPort } = await import('../apps/server/test/process.js');
  const dataDir = await tempDir('nest-soak-');
  const port = await reservedPort();
  const brokerUrl = `mqtt://127.0.0.1:${port}`;
  const server = await startTestServer({ dataDir, config: { simulator: false, deviceHoldSeconds: BENCH_HOLD_SECONDS, mqttUrl: brokerUrl, ...db } });
  let broker: { close(): Promise<void>; confDir: string } | null = null;
  let pid: number | null = null;
  return {
    server,
    brokerUrl,
    startBroker: async () => {
      broker = await startMosquitto({ dataDir, databaseUrl, port });
      pid = findPid(path.join(broker.confDir, 'mosquitto.conf'));
      if (pid === null) console.warn('Mosquitto process not found in /proc: its CPU is not shown');
    },
    brokerPid: () => pid,
    closeBroker: async () => broker?.close(),
  };
}

async function run(p: Params, sims: SimPool, clients: Child): Promise<Outcome> {
  const started = await startServer(p);
  const { server, brokerUrl } = started;
  try {
    const l = live(server);
    const specs = fleetSpecs(p.devices);
    process.stdout.write(`registering ${p.devices} devices ... `);
    await registerFleet(server, specs);
    await started.startBroker();
    await l.link.ready();
    const pilots = pilotSns(specs, p.pilots);
    const plans = await consolePlans(server, specs, p.clients);
    for (const plan of plans) {
      const sns = plan.sns ?? [];
      if (plan.kind !== 'devices' || sns.length === 0) continue;
      plan.commands = { sns: sns.filter((sn) => !pilots.has(sn)), periodMs: p.commandPeriod * 1000 };
      plan.pilot = { sns: sns.filter((sn) => pilots.has(sn)), cycleMs: p.pilotCycle * 1000 };
    }
    const every = Math.ceil(p.devices / p.dated);
    const datedSns = every > 1 ? specs.filter((_, i) => i % every === 0).map((s) => s.sn) : undefined;
    const withPassword = (s: BenchSpec) => ({ ...s, password: l.devicePassword(s.sn) });
    const fleets = [
      { devices: specs.filter((s) => !pilots.has(s.sn)).map(withPassword) },
      { devices: specs.filter((s) => pilots.has(s.sn)).map((s) => ({ ...withPassword(s), calm: true })), timeScale: p.pilotTimeScale },
    ].filter((f) => f.devices.length > 0);

    const t = Date.now();
    process.stdout.write(`starting them at ${p.rate} Hz (${pilots.size} pilots, ${sims.children.length} simulator processes) ... `);
    await sims.start(brokerUrl, fleets, p.rate);
    await until(() => specs.every((s) => l.link.isOnline(s.sn)), 'fleet online', Math.max(180_000, p.devices * 60));
    const onlineSeconds = (Date.now() - t) / 1000;
    process.stdout.write(`online in ${onlineSeconds.toFixed(0)} s; opening ${p.clients} clients ... `);
    const base = await listen(server);
    await clients.ask(
      { type: 'open', url: base + PUSH_PATH, plans, tracker: { url: brokerUrl, password: l.secrets.serverPassword }, heartbeatMs: HEARTBEAT_MS, trackEvents: true, datedSns },
      'opened',
    );
    console.log(`open${datedSns ? ` (${datedSns.length} devices dated)` : ''}; warm-up ${p.warmup} s`);
    await sleep(p.warmup * 1000);

    // Presence from here until the fleet is stopped: every online -> offline the server makes.
    const wentOffline = new Map<string, number>();
    let watching = true;
    const onOnline = (sn: string, online: boolean) => {
      if (watching && !online) wentOffline.set(sn, (wentOffline.get(sn) ?? 0) + 1);
    };
    l.link.on('online', onOnline);
    await sims.presence(SIM_STALL_MS);
    const windowStart = Date.now();

    // The forced GC's pause (hundreds of ms with a large heap) is over before the window opens.
    const warm = forcedSample(performance.now());
    await sleep(2000);
    const t0 = performance.now();
    warm.t = 0;
    const forced: Sample[] = [warm];
    const natural: Sample[] = [];
    const observer = p.heapEvery > 0 ? null : naturalSamples(t0, natural);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    const gc: GcPauses = { minor: { n: 0, ms: 0, max: 0 }, major: { n: 0, ms: 0, max: 0 }, other: { n: 0, ms: 0, max: 0 } };
    const linkBefore = {
      received: l.link.stats.received,
      accepted: l.link.stats.accepted,
      dropped: { ...l.link.stats.dropped } as Record<string, number>,
      superseded: l.link.stats.superseded ?? 0,
    };
    const brokerCpu = started.brokerPid() === null ? null : new ProcCpu([started.brokerPid()!]);
    const burnCpu = new ProcCpu(burnerPids);
    const a = snap();
    brokerCpu?.mark();
    burnCpu.mark();
    await Promise.all([clients.ask({ type: 'measure' }, 'measuring'), sims.cpu()]);
    loop.enable();
    const gcObserver = gcPauses(gc);
    const profiling = p.profile ? await startProfile() : null;
    const end = t0 + p.minutes * 60_000;
    let nextForced = p.heapEvery > 0 ? t0 + p.heapEvery * 1000 : Infinity;
    let nextPrint = t0 + PRINT_MS;
    while (performance.now() < end) {
      await sleep(Math.max(0, Math.min(nextForced, nextPrint, end) - performance.now()));
      if (performance.now() >= nextForced && performance.now() < end) {
        forced.push(forcedSample(t0));
        nextForced += p.heapEvery * 1000;
      }
      if (performance.now() >= nextPrint || performance.now() >= end) {
        nextPrint += PRINT_MS;
        const now = snap();
        const last = (natural.length > 0 && p.heapEvery === 0 ? natural : forced).at(-1)!;
        console.log(
          `  ${((performance.now() - t0) / 60_000).toFixed(1)} min: heap after GC ${mb(last.heap)}, RSS ${mb(now.rss)}, server CPU ${cpuPercent(a, now).toFixed(0)} %` +
            `${brokerCpu ? `, Mosquitto ${brokerCpu.percent().toFixed(0)} %` : ''}, loop p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
    }
    const b = snap();
    loop.disable();
    gcObserver.disconnect();
    if (profiling && p.profile) await profiling.stop(p.profile);
    const brokerPercent = brokerCpu?.percent() ?? null;
    const burnPercent = burnCpu.percent();
    observer?.disconnect();
    const received = l.link.stats.received - linkBefore.received;
    const superseded = (l.link.stats.superseded ?? 0) - linkBefore.superseded;
    const notOnlineAtEnd = specs.filter((s) => !l.link.isOnline(s.sn)).map((s) => s.sn);
    const simCpu = await sims.cpu();
    process.stdout.write('quiescing ... ');
    // The clients stop counting frames at once; the final forced GC's pause then delays only replies still due.
    const quiet = clients.ask({ type: 'quiesce', waitMs: QUIESCE_WAIT_MS }, 'quiet');
    await sleep(1000);
    const final = forcedSample(t0);
    forced.push(final);
    await quiet;
    process.stdout.write('draining ... ');
    const lagSns = (datedSns ?? specs.map((s) => s.sn)).slice(0, 500);
    const drained = await drain(clients, () => {
      const now = Date.now();
      const lags = lagSns.map((sn) => now - (l.link.device(sn)?.telemetryTs ?? 0)).sort((x, y) => x - y);
      return lags[Math.floor(lags.length / 2)]!;
    });
    process.stdout.write(`${drained.toFixed(0)} s ... `);
    // The fleet is simply killed: thousands of clean disconnects would only load the server being checked.
    // Killed before the report, so that the last state each device sent is the last the tracker saw.
    const simPresence = await sims.presence(SIM_STALL_MS);
    const dropped = new Set(simPresence.dropped);
    const stalled = new Set(simPresence.stalled);
    watching = false;
    l.link.off('online', onOnline);
    const windowEnd = Date.now();
    sims.kill();
    await settled(() => l.link.stats.received);
    process.stdout.write('report ... ');
    const stats = (await clients.ask({ type: 'report' }, 'report')).stats as ClientStats;
    await clients.ask({ type: 'close' }, 'closed', 60_000).catch(() => clients.proc.kill());
    console.log('done');

    // What the server recorded of what was sent.
    process.stdout.write('checking the database ... ');
    const db = server.db;
    const countIn = async (ids: string[], q: (ids: string[]) => Promise<number>): Promise<number> => {
      let n = 0;
      for (let i = 0; i < ids.length; i += 500) n += await q(ids.slice(i, i + 500));
      return n;
    };
    const logged = (ok: boolean) => (ids: string[]) =>
      db
        .selectFrom('command_log')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('cmd_id', 'in', ids)
        .$if(ok, (q) => q.where('outcome', '=', 'ok'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const sorties = (ended: boolean) => (ids: string[]) =>
      db
        .selectFrom('sorties')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('flight_id', 'in', ids)
        .$if(ended, (q) => q.where('end_time', 'is not', null))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const dbCounts = {
      gimbalLogged: await countIn(stats.gimbal.okIds, logged(false)),
      gimbalLoggedOk: await countIn(stats.gimbal.okIds, logged(true)),
      sortiesStarted: await countIn(stats.events.flightStarts, sorties(false)),
      sortiesEnded: await countIn(stats.events.flightEnds, sorties(true)),
    };
    const alarms = await db
      .selectFrom('alarms')
      .select(['sn_id'])
      .where('kind', '=', 'offline_in_flight')
      .where('raised_at', '>=', windowStart)
      .where('raised_at', '<=', windowEnd)
      .execute();
    // A device is rightly offline when its connection dropped, or when its simulator process stood still
    // long enough for it to miss its telemetry periods (silent though connected).
    const excused = (sn: string) => dropped.has(sn) || stalled.has(sn);
    const presence: Presence = {
      wentOffline: [...wentOffline.values()].reduce((s, n) => s + n, 0),
      falseOffline: [...wentOffline.keys()].filter((sn) => !excused(sn)),
      dropped: dropped.size,
      silent: [...wentOffline.keys()].filter((sn) => !dropped.has(sn) && stalled.has(sn)).length,
      simMaxStallMs: simPresence.maxStallMs,
      notOnlineAtEnd: notOnlineAtEnd.filter((sn) => !excused(sn)),
      offlineAlarms: alarms.length,
      falseAlarms: alarms.filter((r) => !excused(r.sn_id)).length,
    };
    const stateSns = Object.keys(stats.states.last);
    const states = { sent: stats.states.sent, devices: stateSns.length, notHeld: stateSns.filter((sn) => !holds(stats.states.last[sn], l.link.device(sn)?.state)) };
    if (process.env.FLEET_BENCH_DEBUG) {
      for (const sn of states.notHeld.slice(0, 3)) {
        const sent = stats.states.last[sn] as Record<string, unknown>;
        const held = (l.link.device(sn)?.state ?? {}) as Record<string, unknown>;
        const diff = Object.keys(sent).filter((k) => canon(sent[k]) !== canon(held[k]));
        console.error(`state of ${sn} differs in ${diff.join(', ')}:`, diff.map((k) => [canon(sent[k]), canon(held[k])]));
      }
    }

    // Memory: the post-GC heap's slope over the second half (natural samples, or the forced ones), and the
    // forced full GC at the end against the one at the end of the warm-up.
    const samples = p.heapEvery > 0 ? forced : [warm, ...natural, final];
    const second = samples.filter((s) => s.t >= p.minutes / 2);
    const slopeMbMin = p.heapEvery > 0 ? slope(second.map((s) => ({ x: s.t, y: s.heap / 2 ** 20 }))) : slope(liveSet(second));
    const margin = Math.max(FINAL_MARGIN.bytes, FINAL_MARGIN.ratio * warm.heap);
    const memoryOk = (Number.isNaN(slopeMbMin) || slopeMbMin < MAX_SLOPE_MB_PER_MIN) && final.heap <= warm.heap + margin;

    const e = stats.events;
    const losses: string[] = [];
    if (e.acked !== e.sent) losses.push(`${e.sent - e.acked} of ${e.sent} events without events_reply (${e.unackedSample.join(', ')})`);
    if (dbCounts.sortiesStarted !== e.flightStarts.length) losses.push(`${e.flightStarts.length - dbCounts.sortiesStarted} of ${e.flightStarts.length} flight.start without a sortie row`);
    if (dbCounts.sortiesEnded !== e.flightEnds.length) losses.push(`${e.flightEnds.length - dbCounts.sortiesEnded} of ${e.flightEnds.length} flight.end without the sortie's end time`);
    const g = stats.gimbal;
    // A command to a device that was silent (its simulator process stood still) or disconnected may rightly fail.
    const gimbalExcused = g.notOkSns.filter(excused).length;
    if (g.ok + gimbalExcused !== g.sent) {
      losses.push(`${g.sent - g.ok - gimbalExcused} of ${g.sent} gimbal commands not answered ok (${JSON.stringify(g.notOk)}${gimbalExcused ? `, ${gimbalExcused} of them to silent devices, excused` : ''}, ${g.unanswered} unanswered)`);
    }
    if (dbCounts.gimbalLoggedOk !== g.ok) losses.push(`${g.ok - dbCounts.gimbalLoggedOk} of ${g.ok} gimbal commands answered ok without their command_log row ok`);
    if (stats.pilot.unanswered > 0) losses.push(`${stats.pilot.unanswered} of ${stats.pilot.sent} pilot commands unanswered`);
    const hb = stats.heartbeats;
    if (hb.ok !== hb.sent) losses.push(`${hb.sent - hb.ok} of ${hb.sent} heartbeats not answered 2000`);
    if (stats.closed > 0) losses.push(`${stats.closed} sockets closed`);
    if (states.notHeld.length > 0) losses.push(`${states.notHeld.length} of ${states.devices} devices' last state not held by the server (${states.notHeld.slice(0, 5).join(', ')})`);
    if (presence.falseOffline.length > 0) losses.push(`${presence.falseOffline.length} connected devices taken for offline (${presence.falseOffline.slice(0, 5).join(', ')})`);
    if (presence.notOnlineAtEnd.length > 0) losses.push(`${presence.notOnlineAtEnd.length} connected devices not online at the end of the window (${presence.notOnlineAtEnd.slice(0, 5).join(', ')})`);
    if (presence.falseAlarms > 0) losses.push(`${presence.falseAlarms} offline_in_flight alarms for connected devices`);

    const linkDropped: Record<string, number> = {};
    for (const [k, v] of Object.entries(l.link.stats.dropped)) linkDropped[k] = (v ?? 0) - (linkBefore.dropped[k] ?? 0);
    const cpu = cpuPercent(a, b);
    return {
      stats,
      seconds: (b.at - a.at) / 1000,
      cpu,
      usPerMessage: received + superseded > 0 ? ((cpu / 100) * ((b.at - a.at) / 1000) * 1e6) / (received + superseded) : NaN,
      simCpu: simCpu.cpuPercent,
      simRss: simCpu.rss,
      brokerCpu: brokerPercent,
      burnCpu: burnPercent,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
      gc,
      rssStart: warm.rss,
      rssEnd: final.rss,
      warm,
      final,
      samples,
      forced,
      slopeMbMin,
      memoryOk,
      db: dbCounts,
      link: { received, accepted: l.link.stats.accepted - linkBefore.accepted, dropped: linkDropped, superseded },
      presence,
      states,
      onlineSeconds,
      drainSeconds: drained,
      gimbalExcused,
      losses,
    };
  } finally {
    // Bounded: a server still digging out of a backlog must not keep the results from being written.
    await Promise.race([server.close().then(() => started.closeBroker()), sleep(30_000)]);
  }
}

/**
 * Waits until nothing counted is pending at the clients and the server's telemetry lag is small (at most
 * DRAIN_LIMIT_MS); returns the seconds it took.
 */
async function drain(clients: Child, lag: () => number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const pending = await clients.ask({ type: 'pending' }, 'pending');
    if ((pending.events === 0 && lag() <= CAUGHT_UP_MS) || Date.now() - start >= DRAIN_LIMIT_MS) return (Date.now() - start) / 1000;
    await sleep(1000);
  }
}

/** Waits until a counter has not moved for 2 s (what was in flight or queued for the server when the fleet stopped is handled), at most DRAIN_LIMIT_MS. */
async function settled(counter: () => number): Promise<void> {
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  let last = counter();
  while (Date.now() < deadline) {
    await sleep(2000);
    const now = counter();
    if (now === last) return;
    last = now;
  }
}

// --------------------------------------------------------------------------------------------- report

const dist = (h: Parameters<typeof Histogram.from>[0]) => Histogram.from(h).summary();
const pct = (h: Parameters<typeof Histogram.from>[0], q: number) => {
  const v = Histogram.from(h).percentile(q);
  return Number.isNaN(v) ? '–' : String(v);
};
const commandsLine = (c: CommandStats) =>
  `${c.sent} sent, ${c.ok} ok${Object.keys(c.notOk).length ? `, ${Object.entries(c.notOk).map(([k, v]) => `${v} × ${k}`).join(', ')}` : ''}, ${c.unanswered} unanswered`;
/** Commands answered with this outcome (`code outcome reason` keys). */
const answered = (c: CommandStats, outcome: string) => Object.entries(c.notOk).reduce((n, [k, v]) => n + (k.split(' ')[1] === outcome ? v : 0), 0);
/** Heap after GC by minute: the lowest sample of each minute (the live set), and the final forced one. */
function heapSeries(o: Outcome): string {
  const byMinute = new Map<number, number>();
  for (const s of o.samples) {
    const m = Math.floor(s.t);
    byMinute.set(m, Math.min(byMinute.get(m) ?? Infinity, s.heap));
  }
  return [...byMinute.entries()].map(([m, h]) => `${m}′ ${(h / 2 ** 20).toFixed(0)}`).join(', ');
}
const verdict = (o: Outcome) => `${o.losses.length === 0 ? 'no loss' : `LOSS: ${o.losses.join('; ')}`}; memory ${o.memoryOk ? 'flat' : 'GROWS'}`;

function table(p: Params, o: Outcome): string {
  const s = o.stats;
  const e = s.events;
  const pr = o.presence;
  const forcedPauses = o.forced.map((x) => x.gcMs);
  const rows: [string, string][] = [
    ['frames delivered / s (all clients)', `${perSecond(s.frames300 + s.frames310, s.seconds)} (300: ${perSecond(s.frames300, s.seconds)} of ${(p.devices * p.rate).toFixed(0)} device messages/s, 310: ${perSecond(s.frames310, s.seconds)})`],
    ['device updates delivered / s (300 frames + 310 entries)', perSecond(s.frames300 + s.entries310, s.seconds)],
    [`telemetry device ts -> browser (300${p.devices > p.dated ? `, ${Math.min(p.dated, p.devices)} devices dated` : ''}), ms p50 / p90 / p99 / max`, dist(s.lat300)],
    ["baseline: the same telemetry device ts -> the broker's own delivery to an MQTT subscriber in the clients process, ms p50 / p90 / p99 / max", dist(s.latTracker)],
    [`age of 310 entries at receipt (${datedFleetSockets(p.devices)} fleet socket${datedFleetSockets(p.devices) > 1 ? 's' : ''} dated), ms p50 / p90 / p99 / max`, dist(s.age310)],
    ['device events (QoS 1): sent / acknowledged (events_reply)', `${e.sent} / ${e.acked} (${Object.entries(e.byMethod).map(([k, v]) => `${k} ${v}`).join(', ')}; ${e.publishes - e.sent} re-sends)`],
    ['event ack round trip (event ts -> events_reply), ms p50 / p90 / p99 / max', dist(e.ack)],
    ['flight.start -> sortie rows, flight.end -> sorties ended', `${e.flightStarts.length} -> ${o.db.sortiesStarted}, ${e.flightEnds.length} -> ${o.db.sortiesEnded}`],
    ['state messages (QoS 1, retained): sent; devices whose last state the server holds', `${o.states.sent}; ${o.states.devices - o.states.notHeld.length} of ${o.states.devices}`],
    [
      `presence: server online -> offline (of connected, talking devices) / connections dropped (simulator) / devices silent (simulator stalled ≥ ${SIM_STALL_MS / 1000} s; longest stall) / not online at the end`,
      `${pr.wentOffline} (${pr.falseOffline.length}) / ${pr.dropped} / ${pr.silent} (${(pr.simMaxStallMs / 1000).toFixed(1)} s) / ${pr.notOnlineAtEnd.length}`,
    ],
    ['offline_in_flight alarms raised (for connected devices)', `${pr.offlineAlarms} (${pr.falseAlarms})`],
    [
      '401 gimbal commands (browser -> device -> browser)',
      `${commandsLine(s.gimbal)}${o.gimbalExcused ? ` (${o.gimbalExcused} not ok to silent devices)` : ''}; command_log rows ok: ${o.db.gimbalLoggedOk}`,
    ],
    ['gimbal command round trip, ms p50 / p90 / p99 / max', dist(s.gimbal.rtt)],
    ['401 pilot commands (one-key takeoff, landing)', commandsLine(s.pilot)],
    ['pilot command round trip, ms p50 / p90 / p99 / max', dist(s.pilot.rtt)],
    ['heartbeats (101) sent / answered 2000; sockets closed', `${s.heartbeats.sent} / ${s.heartbeats.ok}; ${s.closed}`],
    [`server process CPU, % of one core${p.broker === 'embedded' ? ' (with its embedded broker)' : p.broker === 'thread' ? ' (with its embedded broker in a thread of its own)' : ''}`, o.cpu.toFixed(0)],
    ['server CPU per device message received, us', o.usPerMessage.toFixed(0)],
    ...(o.brokerCpu !== null ? [['Mosquitto process CPU, % of one core', o.brokerCpu.toFixed(0)] as [string, string]] : []),
    ...(p.burn > 0 ? [[`competing processes (--burn ${p.burn}) CPU, % of one core`, o.burnCpu.toFixed(0)] as [string, string]] : []),
    ['server event-loop delay p99 / max, ms', `${o.loopP99.toFixed(1)} / ${o.loopMax.toFixed(0)}`],
    [
      'server GC pauses in the window: scavenges / mark-compacts / other (count, total ms, longest ms)',
      [o.gc.minor, o.gc.major, o.gc.other].map((g) => `${g.n}, ${g.ms.toFixed(0)}, ${g.max.toFixed(0)}`).join(' / '),
    ],
    [
      p.heapEvery > 0 ? `forced full GC every ${p.heapEvery} s (for the heap samples), pause ms mean / max` : 'forced full GC at the end of the warm-up and at the end, pause ms',
      p.heapEvery > 0 ? `${(forcedPauses.reduce((n, x) => n + x, 0) / forcedPauses.length).toFixed(0)} / ${Math.max(...forcedPauses).toFixed(0)}` : forcedPauses.map((x) => x.toFixed(0)).join(', '),
    ],
    ['server RSS end of warm-up -> end', `${mb(o.rssStart)} -> ${mb(o.rssEnd)}`],
    ['server heap after forced GC end of warm-up -> end', `${mb(o.warm.heap)} -> ${mb(o.final.heap)}`],
    [
      `heap slope over the second half, MB/min (limit ${MAX_SLOPE_MB_PER_MIN}; ${o.samples.length} samples${p.heapEvery > 0 ? '' : ' after major GCs, the lowest of each 30 s'})`,
      Number.isNaN(o.slopeMbMin) ? '– (too few samples)' : o.slopeMbMin.toFixed(2),
    ],
    ['heap after GC, MB, by minute (lowest sample)', heapSeries(o)],
    ['device messages read by the server link / dropped', `${o.link.received} / ${JSON.stringify(o.link.dropped)}`],
    ['telemetry superseded unread (the server behind: only the newest of a device read)', `${o.link.superseded}`],
    [`simulator processes (${p.simProcs}) CPU, % / RSS; fleet online after`, `${o.simCpu.toFixed(0)} / ${mb(o.simRss)}; ${o.onlineSeconds.toFixed(0)} s`],
    ['clients process event-loop delay p99 / max, ms', `${s.loop.p99.toFixed(1)} / ${s.loop.max.toFixed(0)}`],
    ['clients process CPU, %', s.cpuPercent.toFixed(0)],
    ['frames not dated (no matching device message)', String(s.unmatched)],
    [`drain after the window until events acknowledged and telemetry caught up, s (limit ${DRAIN_LIMIT_MS / 1000})`, o.drainSeconds.toFixed(0)],
    ['verdict', verdict(o)],
  ];
  return ['| measure | value |', '|---|---|', ...rows.map((x) => `| ${x.join(' | ')} |`)].join('\n');
}

function paramsLine(p: Params): string {
  const drones = Math.floor(p.devices / 5);
  const fleetSockets = Math.ceil(p.clients / 2);
  return (
    `Parameters: ${p.devices} devices (${p.devices - drones} nests, ${drones} single-soldier drones) at ${p.rate} Hz, ${p.clients} WebSocket clients ` +
    `(${fleetSockets} on the fleet map, ${p.clients - fleetSockets} watching a slice each), ${p.warmup} s warm-up, ${p.minutes} min measured, ` +
    `broker ${p.broker}, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; a gimbal command every ${p.commandPeriod} s per watching socket, ` +
    `${p.pilots} pilot nests (one-key takeoff and landing every ${p.pilotCycle} s, simulator time × ${p.pilotTimeScale}), heartbeats every ${HEARTBEAT_MS / 1000} s; ` +
    `${p.simProcs} simulator process${p.simProcs > 1 ? 'es' : ''}${p.simNice > 0 ? ` at nice ${p.simNice}` : ''}${p.clientsNice > 0 ? `, the clients process at nice ${p.clientsNice}` : ''}; ${p.burn > 0 ? `${p.burn} competing process${p.burn > 1 ? 'es' : ''} spinning a core each (--burn)` : 'no competing process'}.`
  );
}

// --------------------------------------------------------------------------------------------- ladder

/** One step of the ladder, as the step's process reports it. */
interface LadderRow {
  devices: number;
  simProcs: number;
  /** Device messages the server link read per second (the fleet sends devices × rate). */
  received: number;
  /** Telemetry messages per second superseded before they were read (the server behind). */
  superseded: number;
  cpu: number;
  usPerMessage: number;
  brokerCpu: number | null;
  loopP99: number;
  loopMax: number;
  tel: string;
  age310p99: string;
  events: string;
  sorties: string;
  states: string;
  gimbal: string;
  pilot: string;
  presence: string;
  heap: string;
  onlineSeconds: number;
  verdict: string;
  lost: boolean;
}

function ladderRow(p: Params, o: Outcome): LadderRow {
  const s = o.stats;
  const g = s.gimbal;
  const other = g.sent - g.ok - answered(g, 'offline') - answered(g, 'timeout') - g.unanswered;
  const pr = o.presence;
  return {
    devices: p.devices,
    simProcs: p.simProcs,
    received: o.link.received / o.seconds,
    superseded: o.link.superseded / o.seconds,
    cpu: o.cpu,
    usPerMessage: o.usPerMessage,
    brokerCpu: o.brokerCpu,
    loopP99: o.loopP99,
    loopMax: o.loopMax,
    tel: `${pct(s.lat300, 50)} / ${pct(s.lat300, 99)} (${pct(s.latTracker, 99)})`,
    age310p99: pct(s.age310, 99),
    events: `${s.events.acked} / ${s.events.sent}`,
    sorties: `${o.db.sortiesStarted + o.db.sortiesEnded} / ${s.events.flightStarts.length + s.events.flightEnds.length}`,
    states: `${o.states.devices - o.states.notHeld.length} / ${o.states.devices}`,
    gimbal: `${g.ok} / ${answered(g, 'offline')} / ${answered(g, 'timeout')} / ${other} / ${g.unanswered} of ${g.sent}`,
    pilot: `${s.pilot.sent - s.pilot.unanswered} / ${s.pilot.sent}`,
    presence: `${pr.falseOffline.length} / ${pr.notOnlineAtEnd.length} / ${pr.falseAlarms}`,
    heap: `${mb(o.warm.heap)} -> ${mb(o.final.heap)}`,
    onlineSeconds: o.onlineSeconds,
    verdict: verdict(o),
    lost: o.losses.length > 0,
  };
}

function ladderTable(rows: (LadderRow | { devices: number; failed: string })[]): string {
  const head =
    '| devices | messages read / s (+ superseded) | server CPU % | us / message | Mosquitto CPU % | event loop p99 / max, ms | telemetry 300 p50 / p99 (baseline p99), ms | 310 age p99, ms | events acked / sent | sortie rows / flight events | ' +
    'last state held / devices | gimbal ok / offline / timeout / other / unanswered | pilot answered / sent | false offline / not online at end / false alarms | heap after GC | online after, s | verdict |';
  const lines = rows.map((r) => {
    if ('failed' in r) return `| ${r.devices} | ${Array.from({ length: 15 }, () => '–').join(' | ')} | ${r.failed} |`;
    return (
      `| ${r.devices} (${r.simProcs} sim) | ${r.received.toFixed(0)}${r.superseded > 0 ? ` (+${r.superseded.toFixed(0)})` : ''} | ${r.cpu.toFixed(0)} | ${r.usPerMessage.toFixed(0)} | ${r.brokerCpu === null ? '–' : r.brokerCpu.toFixed(0)} | ${r.loopP99.toFixed(0)} / ${r.loopMax.toFixed(0)} | ${r.tel} | ${r.age310p99} | ` +
      `${r.events} | ${r.sorties} | ${r.states} | ${r.gimbal} | ${r.pilot} | ${r.presence} | ${r.heap} | ${r.onlineSeconds.toFixed(0)} | ${r.verdict} |`
    );
  });
  return [head, `|${'---|'.repeat(17)}`, ...lines].join('\n');
}

/** Runs one soak per device count, each in its own process (same options), and tabulates them. */
async function ladder(counts: number[], passOn: string[], noDoc: boolean, p: Params): Promise<void> {
  const rows: (LadderRow | { devices: number; failed: string })[] = [];
  const dir = await tempDir('nest-soak-ladder-');
  for (const devices of counts) {
    console.log(`\n=== ladder step: ${devices} devices ===`);
    const file = path.join(dir, `${devices}.json`);
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [...process.execArgv, SCRIPT, ...passOn, '--devices', String(devices), '--no-doc', '--result', file], { stdio: 'inherit' });
      child.once('exit', (c, signal) => resolve(c ?? (signal ? -1 : null)));
    });
    try {
      rows.push(JSON.parse(await readFile(file, 'utf8')) as LadderRow);
    } catch {
      rows.push({ devices, failed: `broke: the step ended with exit code ${code} after ${((Date.now() - started) / 60_000).toFixed(1)} min without a result` });
    }
    console.log(`\n${ladderTable(rows)}\n`);
  }
  await rm(dir, { recursive: true, force: true });
  const params =
    `Ladder: ${counts.join(', ')} devices, each step a soak of its own (${p.minutes} min measured after ${p.warmup} s warm-up): ` +
    `${p.rate} Hz, ${p.clients} WebSocket clients, broker ${p.broker}, ${p.burn > 0 ? `--burn ${p.burn}` : 'no competing process'}; simulator processes one per 2,500 devices unless set` +
    `${p.simNice > 0 ? `, at nice ${p.simNice}` : ''}${p.clientsNice > 0 ? `, the clients process at nice ${p.clientsNice}` : ''}; frames of at most ${p.dated} devices dated.`;
  console.log(params);
  if (!noDoc) {
    await writeDocBlock(LADDER_BEGIN, LADDER_END, [runLine(), '', params, '', ladderTable(rows)], '## Soak ladder (`bench/fleet-soak.ts --ladder`)');
    console.log(`written: ${path.relative(process.cwd(), DOC)}`);
  }
  if (rows.some((r) => 'failed' in r || r.lost)) process.exitCode = 1;
}

// ----------------------------------------------------------------------------------------------- main

/** Set in main: the burners' process ids (their CPU is read over the measured window). */
let burnerPids: number[] = [];

async function main(): Promise<void> {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench:soak does)');
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '2000' },
      rate: { type: 'string', default: '1' },
      clients: { type: 'string', default: '100' },
      minutes: { type: 'string' },
      warmup: { type: 'string' },
      broker: { type: 'string', default: 'embedded' },
      'command-period': { type: 'string', default: '10' },
      pilots: { type: 'string' },
      'pilot-cycle': { type: 'string', default: '60' },
      'pilot-time-scale': { type: 'string', default: '4' },
      burn: { type: 'string', default: '0' },
      'sim-procs': { type: 'string' },
      'sim-nice': { type: 'string', default: '0' },
      'clients-nice': { type: 'string', default: '0' },
      dated: { type: 'string', default: '500' },
      'heap-every': { type: 'string', default: '0' },
      profile: { type: 'string' },
      ladder: { type: 'string' },
      'doc-tag': { type: 'string' },
      result: { type: 'string' },
      'no-doc': { type: 'boolean', default: false },
    },
  });
  const ladderCounts = values.ladder?.split(',').map((x) => Number(x.trim()));
  const devices = Number(values.devices);
  const p: Params = {
    devices,
    rate: Number(values.rate),
    clients: Number(values.clients),
    minutes: Number(values.minutes ?? (ladderCounts ? 2 : 10)),
    warmup: Number(values.warmup ?? (ladderCounts ? 30 : 60)),
    broker: values.broker === 'mosquitto' ? 'mosquitto' : values.broker === 'thread' ? 'thread' : 'embedded',
    commandPeriod: Number(values['command-period']),
    pilots: Number(values.pilots ?? Math.max(2, Math.round(devices / 50))),
    pilotCycle: Number(values['pilot-cycle']),
    pilotTimeScale: Number(values['pilot-time-scale']),
    burn: Number(values.burn),
    simProcs: Number(values['sim-procs'] ?? defaultSimProcs(devices)),
    simNice: Number(values['sim-nice']),
    clientsNice: Number(values['clients-nice']),
    dated: Number(values.dated),
    heapEvery: Number(values['heap-every']),
  };
  p.profile = values.profile;
  if (values.broker !== 'embedded' && values.broker !== 'thread' && values.broker !== 'mosquitto') throw new Error(`--broker embedded|thread|mosquitto, not ${values.broker}`);
  if (values['doc-tag'] !== undefined && !/^[a-z0-9-]+$/.test(values['doc-tag'])) throw new Error(`--doc-tag: lower-case letters, digits and dashes, not ${values['doc-tag']}`);
  const { broker: _b, burn, heapEvery, simNice, clientsNice, profile: _profile, ...positive } = p;
  if (
    Object.values(positive).some((v) => !Number.isFinite(v) || v <= 0) ||
    p.clients < 2 ||
    !Number.isInteger(burn) ||
    burn < 0 ||
    !(heapEvery >= 0) ||
    ![simNice, clientsNice].every((n) => Number.isInteger(n) && n >= 0 && n <= 19) ||
    ladderCounts?.some((n) => !Number.isInteger(n) || n <= 0)
  ) {
    throw new Error(`bad parameters: ${JSON.stringify({ ...p, ladder: ladderCounts })}`);
  }

  if (ladderCounts) {
    // The steps get the same options; a device count's own defaults (pilots, simulator processes) unless set.
    const passOn: string[] = [];
    for (const [k, v] of Object.entries(values)) {
      if (['devices', 'ladder', 'result', 'no-doc', 'doc-tag', 'minutes', 'warmup', 'profile'].includes(k) || v === undefined) continue;
      passOn.push(`--${k}`, String(v));
    }
    passOn.push('--minutes', String(p.minutes), '--warmup', String(p.warmup));
    console.log(`fleet soak ladder: ${ladderCounts.join(', ')} devices; ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    return ladder(ladderCounts, passOn, values['no-doc'], p);
  }

  console.log(`fleet soak: ${JSON.stringify(p)}; ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  // Every device is a socket in the broker, the server (embedded broker) and a simulator process.
  raiseFileLimit(p.devices + 4096);
  const burners = startBurners(p.burn);
  burnerPids = burners.pids;
  const sims = new SimPool(SCRIPT, p.simProcs, p.simNice);
  const clients = Child.start(SCRIPT, 'clients');
  if (p.clientsNice > 0 && clients.proc.pid !== undefined) os.setPriority(clients.proc.pid, p.clientsNice);
  try {
    const o = await run(p, sims, clients);
    console.log(`\n${table(p, o)}\n`);
    console.log(
      `telemetry p99 ${pct(o.stats.lat300, 99)} ms (baseline, the broker's own delivery: ${pct(o.stats.latTracker, 99)} ms); server ${o.cpu.toFixed(0)} % of a core, ${o.usPerMessage.toFixed(0)} us per device message` +
        `${o.link.superseded > 0 ? `, ${o.link.superseded} telemetry superseded unread` : ''}` +
        `${o.brokerCpu !== null ? `, Mosquitto ${o.brokerCpu.toFixed(0)} %` : ''}; ${verdict(o)}`,
    );
    if (values.result) await writeFile(values.result, JSON.stringify(ladderRow(p, o)));
    if (!values['no-doc']) {
      const { begin, end } = markers(values['doc-tag']);
      await writeDocBlock(begin, end, [runLine(), '', paramsLine(p), '', table(p, o)], '## Soak (`bench/fleet-soak.ts`)');
      console.log(`written: ${path.relative(process.cwd(), DOC)}`);
    }
    if (o.losses.length > 0 || !o.memoryOk) {
      console.error(`FAILED: ${o.losses.join('; ') || 'no loss'}; memory ${o.memoryOk ? 'flat' : `grows (slope ${o.slopeMbMin.toFixed(2)} MB/min, heap ${mb(o.warm.heap)} -> ${mb(o.final.heap)})`}`);
      process.exitCode = 1;
    }
  } finally {
    sims.kill();
    clients.proc.kill();
    burners.stop();
  }
}

await benchEntry(main);
