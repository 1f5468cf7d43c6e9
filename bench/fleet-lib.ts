/**
 * What the fleet benches (fleet-push.ts, fleet-soak.ts) share: the parent/child IPC, the simulator role
 * and its pool of processes, the CPU burners and the CPU of processes that are not ours (Mosquitto), the
 * bench fleet and its registration on a test server, the console-like socket plans, and the run line and
 * doc splice of docs/performance.md. The clients role is fleet-clients.ts.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { APP_CODE, APP_IDS, DEVICE_CONTROL_FUNCTION, DEVICE_PUSH_FUNCTION, EQUIPMENT_VERIFY_SOR, EQUIPMENT_VERIFY_VST, signPmd } from '@nest/contracts';
import { createDevice } from '../apps/server/src/devices/store.js';
import { userClient, type TestServer } from '../apps/server/test/helpers.js';
import { live } from '../apps/server/test/live.js';
// The test helpers' vitest `inject` key (unused here: no vitest), declared for the type check.
import type {} from '../apps/server/test/vitest-context.js';
import { demoFleet, startFleet, type Fleet, type SimDeviceSpec } from '../apps/simulator/src/index.js';
import { replaceBlock } from './stats.js';

export const DOC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'performance.md');
/** Other work on the machine skews everything: recorded with the results. */
export const LOAD_AT_START = os.loadavg();
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A CPU profile of this process from now until stop(file) (Chrome DevTools' .cpuprofile format), for a
 * measured window only: `node --cpu-prof` would also record start-up and the baseline's phase.
 */
export async function startProfile(): Promise<{ stop: (file: string) => Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    stop: async (file) => {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
      console.log(`\nCPU profile written: ${file}`);
    },
  };
}

// ------------------------------------------------------------------------------------------------ IPC

export interface CpuMem {
  cpu: NodeJS.CpuUsage;
  rss: number;
  heap: number;
  at: number;
}
export const snap = (): CpuMem => {
  const m = process.memoryUsage();
  return { cpu: process.cpuUsage(), rss: m.rss, heap: m.heapUsed, at: performance.now() };
};
/** CPU share of one core over a window, %. */
export const cpuPercent = (a: CpuMem, b: CpuMem): number =>
  (100 * (b.cpu.user - a.cpu.user + b.cpu.system - a.cpu.system)) / 1000 / (b.at - a.at);

export type Reply = { type: string } & Record<string, unknown>;

/** A child process of a bench (the same script, its role in FLEET_BENCH_ROLE), asked and answered over IPC. */
export class Child {
  private readonly waiting: { type: string; resolve: (m: Reply) => void }[] = [];
  constructor(readonly proc: ChildProcess) {
    proc.on('message', (m: Reply) => {
      const i = this.waiting.findIndex((w) => w.type === m.type);
      if (i >= 0) this.waiting.splice(i, 1)[0]!.resolve(m);
      if (m.type === 'error') throw new Error(`child ${String(m.role)}: ${String(m.message)}`);
    });
  }
  static start(script: string, role: 'sim' | 'clients'): Child {
    return new Child(
      fork(script, [], {
        // FLEET_BENCH_CHILD_PROF=<dir>: a CPU profile of every child (written when it ends) to find what limits the load generators.
        execArgv: ['--import', 'tsx', ...(process.env.FLEET_BENCH_CHILD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FLEET_BENCH_CHILD_PROF}`] : [])],
        env: { ...process.env, FLEET_BENCH_ROLE: role },
        serialization: 'advanced',
      }),
    );
  }
  /** Sends and waits for the answer; rejects after timeoutMs (a starved or stuck child must not hang the bench). */
  ask<M extends { type: string }>(message: M, answer: string, timeoutMs = 300_000): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no '${answer}' from the child within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiting.push({
        type: answer,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
      this.proc.send(message);
    });
  }
}

export function childMain<M>(role: string, handle: (m: M, reply: (r: Reply) => void) => Promise<void>): void {
  const reply = (r: Reply): void => void process.send?.(r);
  process.on('message', (m: M) => {
    handle(m, reply).catch((err: unknown) => reply({ type: 'error', role, message: err instanceof Error ? err.stack : String(err) }));
  });
  process.on('disconnect', () => process.exit(0));
  // Ended by the parent: exit normally, so that a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
}

/**
 * A bench script's entry: the role it was forked for (FLEET_BENCH_ROLE), else `main` in the parent, which
 * exits with process.exitCode (1 on an error).
 */
export async function benchEntry(main: () => Promise<void>): Promise<void> {
  const role = process.env.FLEET_BENCH_ROLE;
  if (role === 'sim') return simRole();
  if (role === 'clients') return (await import('./fleet-clients.js')).clientsRole();
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

// ------------------------------------------------------------------------------------------ sim role

/** Fleets the simulator child runs (one startFleet each: the time scale is per fleet). */
export interface SimFleetPlan {
  devices: SimDeviceSpec[];
  timeScale?: number;
}
export type ToSim =
  | { type: 'start'; brokerUrl: string; fleets: SimFleetPlan[]; rate: number; chunk?: number }
  | { type: 'cpu' }
  | { type: 'presence' }
  | { type: 'stop' };

/** Devices connecting at once (over all simulator processes) when the fleets start. */
const RAMP_CHUNK = 100;
const RAMP_ATTEMPTS = 5;

function simRole(): void {
  let fleets: Fleet[] = [];
  let cpu0 = snap();
  /** Devices whose MQTT link dropped since the last `presence` question (the broker or the network, not the server's view). */
  let dropped = new Set<string>();
  const onPresence = (sn: string, online: boolean) => {
    if (!online) dropped.add(sn);
  };
  // This process's own stalls (CPU starved, GC): while its event loop stood still, its devices were silent.
  let maxStallMs = 0;
  let lastTurn = performance.now();
  setInterval(() => {
    const now = performance.now();
    maxStallMs = Math.max(maxStallMs, now - lastTurn);
    lastTurn = now;
  }, 100).unref();
  childMain<ToSim>('sim', async (m, reply) => {
    if (m.type === 'start') {
      // Ramp-up in chunks, a chunk again when one of its devices timed out its CONNACK (10 s): 2,000 devices
      // connecting at once did on a loaded 2-core machine. Device-side schema validation off: real devices
      // do not validate; the server does.
      const chunk = m.chunk ?? RAMP_CHUNK;
      for (const f of m.fleets) {
        for (let i = 0; i < f.devices.length; i += chunk) {
          const devices = f.devices.slice(i, i + chunk);
          for (let attempt = 1; ; attempt++) {
            try {
              fleets.push(await startFleet({ brokerUrl: m.brokerUrl, devices, rateHz: m.rate, ffmpegPath: null, validate: false, timeScale: f.timeScale, onPresence }));
              break;
            } catch (err) {
              if (attempt >= RAMP_ATTEMPTS) throw err;
              console.error(`sim: ${String(err)}; chunk ${i / chunk + 1} again`);
            }
          }
        }
      }
      dropped = new Set();
      reply({ type: 'started' });
    } else if (m.type === 'cpu') {
      const now = snap();
      reply({ type: 'cpu', cpuPercent: cpuPercent(cpu0, now), rss: now.rss });
      cpu0 = now;
    } else if (m.type === 'presence') {
      reply({ type: 'presence', dropped: [...dropped], maxStallMs });
      dropped = new Set();
      maxStallMs = 0;
    } else if (m.type === 'stop') {
      await Promise.all(fleets.map((f) => f.stop()));
      fleets = [];
      reply({ type: 'stopped' });
    }
  });
}

/** Simulator processes for a fleet of this size: one per 2,500 devices (a process's event loop then stays well under a core). */
export const defaultSimProcs = (devices: number): number => Math.max(1, Math.ceil(devices / 2500));

/**
 * The simulated fleet over several processes (one event loop sends at most a few thousand device messages a
 * second without falling behind): each fleet's devices dealt round robin, every process ramping up in its
 * share of the chunk, so that as many devices connect at once as with one process.
 */
export class SimPool {
  readonly children: Child[];
  /** The devices each process runs. */
  private readonly sns: string[][];
  /**
   * `nice` > 0 lowers the simulator processes' priority: on a machine too small for the server and a large
   * simulated fleet together, the server is then served first, as if the fleet were elsewhere (the devices'
   * own send times still date every message; a fleet that falls short of its rate shows in the tables).
   */
  constructor(script: string, procs: number, nice = 0) {
    this.children = Array.from({ length: procs }, () => Child.start(script, 'sim'));
    this.sns = this.children.map(() => []);
    if (nice > 0) for (const c of this.children) if (c.proc.pid !== undefined) os.setPriority(c.proc.pid, nice);
  }

  async start(brokerUrl: string, fleets: SimFleetPlan[], rate: number): Promise<void> {
    const n = this.children.length;
    const total = fleets.reduce((k, f) => k + f.devices.length, 0);
    const chunk = Math.max(10, Math.ceil(RAMP_CHUNK / n));
    // A chunk of a loaded broker's connections takes seconds: the limit grows with the fleet.
    const timeoutMs = Math.max(300_000, total * 100);
    await Promise.all(
      this.children.map((c, k) => {
        const mine = fleets.map((f) => ({ ...f, devices: f.devices.filter((_, i) => i % n === k) })).filter((f) => f.devices.length > 0);
        this.sns[k] = mine.flatMap((f) => f.devices.map((d) => d.sn));
        return mine.length > 0 ? c.ask({ type: 'start', brokerUrl, fleets: mine, rate, chunk }, 'started', timeoutMs) : null;
      }),
    );
  }

  /** CPU (% of one core, summed) since the last call, and RSS summed. */
  async cpu(): Promise<{ cpuPercent: number; rss: number }> {
    const all = await Promise.all(this.children.map((c) => c.ask({ type: 'cpu' }, 'cpu')));
    return { cpuPercent: all.reduce((s, r) => s + (r.cpuPercent as number), 0), rss: all.reduce((s, r) => s + (r.rss as number), 0) };
  }

  /**
   * Since the last call: devices whose MQTT connection dropped (device side), and the devices of processes
   * whose event loop stood still for `stallMs` or longer (they sent nothing meanwhile: silent, though
   * connected), with the longest stall of any process.
   */
  async presence(stallMs: number): Promise<{ dropped: string[]; stalled: string[]; maxStallMs: number }> {
    const all = await Promise.all(this.children.map((c) => c.ask({ type: 'presence' }, 'presence')));
    return {
      dropped: all.flatMap((r) => r.dropped as string[]),
      stalled: all.flatMap((r, k) => ((r.maxStallMs as number) >= stallMs ? this.sns[k]! : [])),
      maxStallMs: Math.max(0, ...all.map((r) => r.maxStallMs as number)),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((c) => c.ask({ type: 'stop' }, 'stopped')));
  }

  kill(): void {
    for (const c of this.children) c.proc.kill();
  }
}

// ------------------------------------------------------------------- processes that are not ours

let ticks: number | null = null;
/** Clock ticks per second of the times in /proc/<pid>/stat (USER_HZ). */
function ticksPerSecond(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** CPU seconds (user + system) a process has used so far (Linux /proc); null once it is gone. */
function procCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, may hold spaces) come field 3 (state) onwards: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return null;
  }
}

/** CPU of other processes (Mosquitto, the burners) over a window: `mark()` starts it, `percent()` reads it. */
export class ProcCpu {
  private at = 0;
  private used = 0;
  constructor(readonly pids: readonly number[]) {}
  private now(): number {
    return this.pids.reduce((s, pid) => s + (procCpuSeconds(pid) ?? 0), 0);
  }
  mark(): void {
    this.at = performance.now();
    this.used = this.now();
  }
  /** % of one core since mark(), summed over the processes. */
  percent(): number {
    return (100 * (this.now() - this.used)) / ((performance.now() - this.at) / 1000);
  }
}

/** The process whose command line contains `needle` (e.g. a Mosquitto started with its own config file); null if none. */
export function findPid(needle: string): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(needle)) return Number(name);
    } catch {
      /* gone meanwhile */
    }
  }
  return null;
}

/**
 * N competing processes, each spinning one core for the whole run (a tight loop at normal priority: what a
 * second product, a browser or a build sharing the machine takes), killed when this process exits.
 */
export function startBurners(n: number): { pids: number[]; stop: () => void } {
  const procs = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  const stop = () => {
    for (const p of procs) p.kill('SIGKILL');
  };
  process.once('exit', stop);
  return { pids: procs.map((p) => p.pid!), stop };
}

/**
 * Raises this process's open-file limit (inherited by the simulator processes and Mosquitto started after it)
 * to `need`: every device is a socket in the broker, in the server or its embedded broker, and in a simulator.
 * Beyond the hard limit only root can; otherwise it says so and the run goes on with what there is.
 */
export function raiseFileLimit(need: number): void {
  try {
    const [soft, hard] = execFileSync('prlimit', ['--pid', String(process.pid), '--nofile', '--output', 'SOFT,HARD', '--noheadings'], { encoding: 'utf8' })
      .trim()
      .split(/\s+/)
      .map((x) => (x === 'unlimited' ? Infinity : Number(x)));
    if (soft! >= need) return;
    const newHard = Math.max(need, hard!);
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${need}:${newHard === Infinity ? 'unlimited' : newHard}`]);
  } catch (err) {
    console.warn(`could not raise the open-file limit to ${need}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

// ------------------------------------------------------------------------------- fleet and plans

export type BenchSpec = Omit<SimDeviceSpec, 'password'>;

/** 4/5 nests, 1/5 single-soldier drones around Shenzhen (apps/simulator demoFleet). */
export function fleetSpecs(n: number): BenchSpec[] {
  const drones = Math.floor(n / 5);
  return demoFleet({ lat: 22.54, lng: 114.05 }, { nests: n - drones, drones }, 'BENCH');
}

/** Registers the devices straight in the devices store (company wk) and reloads the directory. */
export async function registerFleet(server: TestServer, specs: BenchSpec[]): Promise<void> {
  for (const s of specs) {
    await createDevice(server.db, {
      sn_id: s.sn,
      type: s.kind,
      company_id: 'wk',
      airport_name: s.kind === 'alone' ? '' : s.name,
      uav_name: `UAV ${s.sn}`,
      uav_sn: s.uavSn,
      airport_point: { lat: s.home.lat, lng: s.home.lng },
    });
  }
  await live(server).directory.reload();
}

/** What one WebSocket client does (fleet-clients.ts). */
export interface SocketPlan {
  kind: 'fleet' | 'devices' | 'relay';
  verifyUser?: Record<string, unknown>;
  verifyDevices?: Record<string, unknown>[];
  /** The serial numbers of verifyDevices. */
  sns?: string[];
  /** Date this socket's 310 entries (a ring lookup each; a soak dates a sample of its fleet sockets). Default on. */
  date310?: boolean;
  /** 401 gimbal commands, one every periodMs, round robin over these devices. */
  commands?: { sns: string[]; periodMs: number };
  /** Nests this socket flies: one-key takeoff (401 cmd 1) every cycleMs, landing (401 cmd 2) half a cycle later. */
  pilot?: { sns: string[]; cycleMs: number };
}

/**
 * Fleet sockets whose 310 entries are dated (each batch is parsed whole, and each entry costs the clients
 * process a lookup); the others count their entries without parsing. Dating every fleet socket's batches
 * (25 sockets × 2,000 entries a second) kept the clients process busy enough to date frames hundreds of
 * ms late. One beyond 2,000 devices, where a complete batch is about a megabyte.
 */
export const datedFleetSockets = (devices: number) => (devices > 2000 ? 1 : 3);

/** How long a bench user's control connection lasts without renewal: longer than any run. */
export const BENCH_HOLD_SECONDS = 24 * 3600;

/**
 * The console's sockets, one signed-in user (device_10, device_connect) each: the first half subscribe to fleet batches
 * (map view, 210 -> 310), the other half each verify (200) an equal slice of the devices (detail views,
 * 300 frames), so that every device is watched by exactly one socket.
 */
export async function consolePlans(server: TestServer, specs: BenchSpec[], clients: number): Promise<SocketPlan[]> {
  const fleetSockets = Math.ceil(clients / 2);
  const deviceSockets = clients - fleetSockets;
  const perSocket = deviceSockets > 0 ? Math.ceil(specs.length / deviceSockets) : 0;
  const plans: SocketPlan[] = [];
  for (let i = 0; i < clients; i++) {
    const c = await userClient(server, { nick: `Bench ${i}`, funList: [DEVICE_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION] });
    const verifyUser = { token: c.token, app_ids: APP_IDS, app_code: APP_CODE, licence: await c.licence(), os_language: 'en' };
    if (i < fleetSockets) {
      plans.push({ kind: 'fleet', verifyUser, date310: i < datedFleetSockets(specs.length) });
      continue;
    }
    const k = i - fleetSockets;
    const sns = specs.slice(k * perSocket, (k + 1) * perSocket).map((s) => s.sn);
    // Flight commands need the device's control connection: each detail socket's user holds its slice (the
    // bench servers keep holds for the whole run).
    for (const sn of sns) {
      const held = await server.app.nest.deps.live.status.connect(sn, { u_id: c.account.u_id, nick: `Bench ${i}` });
      if (!held.ok) throw new Error(`bench: ${sn} is held by someone else`);
    }
    plans.push({
      kind: 'devices',
      verifyUser,
      sns,
      verifyDevices: sns.map((sn) => ({
        token: c.token,
        sn_id: sn,
        pmd: signPmd({ token: c.token, pmdValue: sn }),
        vst: EQUIPMENT_VERIFY_VST,
        sor: EQUIPMENT_VERIFY_SOR,
        os_language: 'en',
      })),
    });
  }
  return plans;
}

// ------------------------------------------------------------------------------------------- report

export const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`;
export const perSecond = (n: number, s: number) => (n / s).toFixed(0);

/** Machine, Node, OS and load average of a run, for the generated block. */
export function runLine(): string {
  const cpus = os.cpus();
  return (
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(1)} GB RAM, Node ${process.version}, ${os.platform()} ${os.release()}; ` +
    `load average at start ${LOAD_AT_START.map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min).`
  );
}

/** Writes `body` between the markers in docs/performance.md (a new document gets `heading` first). */
export async function writeDocBlock(begin: string, end: string, body: string[], heading: string): Promise<void> {
  let doc: string;
  try {
    doc = await readFile(DOC, 'utf8');
  } catch {
    doc = `# Performance\n\n${heading}\n`;
  }
  await writeFile(DOC, replaceBlock(doc, begin, end, [begin, '', ...body, '', end].join('\n')));
}
