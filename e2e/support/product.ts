import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Starts the real product as `npm start` does (the launcher: server + embedded broker + built web app + simulated fleet) on loopback for e2e tests. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

export interface Product {
  baseUrl: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
  /** What the product printed (its warnings and errors), the last 200 KB. */
  log(): string;
}

/** The built product (`npm run build` makes apps/server/dist with the web app; launcher.js starts it): nothing is compiled on start. */
const SERVER_DIST = join(ROOT, 'apps/server/dist');
const productArgs = (): string[] => ['--enable-source-maps', join(SERVER_DIST, 'launcher.js')];

export const ADMIN = { account: 'admin@e2e.test', password: 'Admin#e2e-2026' };

/** A server process of the product and what it printed. */
interface ServerProcess {
  child: ChildProcess;
  ports: { http: number; mqtt: number };
  /** What the process printed (its warnings and errors), the last 200 KB. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s. */
  kill(): Promise<void>;
}

/** Starts the built server with `env` and waits for the lines that say where it listens. */
async function spawnServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, productArgs(), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  const keep = (d: Buffer) => {
    // The product logs warnings and errors only (LOG_LEVEL warn); the tail is printed when the run ends.
    output = (output + d.toString()).slice(-200_000);
  };
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    keep(d);
  });
  child.stderr?.on('data', keep);
  // Waits for the lines that say where it listens (they come once the database is migrated and seeded); the
  // limit is a safety net far above a cold start on a loaded machine.
  const ports = await new Promise<{ http: number; mqtt: number }>((resolvePorts, reject) => {
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the product did not say where it listens within 180 s:\n${output}`));
    }, 180_000);
    const check = () => {
      const http = /Drone nest console listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout);
      const mqtt = /Embedded MQTT broker listening on mqtt:\/\/[^:]+:(\d+)/.exec(stdout);
      if (http && mqtt) {
        clearTimeout(limit);
        child.stdout?.off('data', check);
        child.off('exit', exited);
        resolvePorts({ http: Number(http[1]), mqtt: Number(mqtt[1]) });
      }
    };
    const exited = (code: number | null) => {
      clearTimeout(limit);
      reject(new Error(`the product exited early (${code}):\n${output}`));
    };
    child.stdout?.on('data', check);
    child.once('exit', exited);
  });
  return {
    child,
    ports,
    output: () => output,
    kill: () => stopChild(child),
  };
}

/** Ends a child process: SIGTERM, then SIGKILL if it has not exited within 5 s; resolves once it has exited. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  let grace: NodeJS.Timeout | undefined;
  const late = await Promise.race([exited.then(() => false), new Promise<boolean>((r) => (grace = setTimeout(() => r(true), 5000)))]);
  clearTimeout(grace);
  if (late) {
    child.kill('SIGKILL');
    await exited;
  }
}

function productEnv(dataDir: string, extraEnv: Record<string, string>): NodeJS.ProcessEnv {
  // Port 0 for the web server and the embedded broker: the system picks free ports at bind time and the
  // product prints them (a port probed free beforehand can be taken by another program before the start).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MQTT_PORT: '0',
    RTMP_PORT: '0',
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.MQTT_URL;
  return env;
}

function checkBuilt(): void {
  for (const built of ['apps/web/dist/index.html', 'apps/server/dist/launcher.js', 'apps/server/dist/cli.js']) {
    if (!existsSync(join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` before the e2e tests`);
  }
}

/**
 * A city's fleet beside the product's own demo devices: `devices` more devices of the administrator's
 * company (company wk; 4/5 nests, 1/5 single-soldier drones, 1-8 km around the demo fleet's centre),
 * registered straight in the database before the server starts, and `online` of them (a share, 0-1,
 * spread over the fleet) run by the simulator in a process of its own, reporting telemetry at 1 Hz.
 */
export interface ProductFleet {
  devices: number;
  /** Share of the devices the simulator runs (online); default 0.8. */
  online?: number;
}

export interface ProductOptions {
  fleet?: ProductFleet;
}

/** Serial-number prefix of the devices of `ProductOptions.fleet`. */
export const FLEET_PREFIX = 'CITY';

/** Registers the fleet's devices in the product's database (migrated and seeded first, as the CLI does); answers those to simulate. */
async function registerFleet(env: NodeJS.ProcessEnv, fleet: ProductFleet): Promise<{ sn: string; password: string }[]> {
  // Imported here: only a run with a fleet loads the server's and the simulator's code.
  const [{ loadConfig }, { openDatabase }, { migrateToLatest }, { seedReferenceData }, { ensureDemoDevices }, { loadOrCreateLinkSecrets, devicePassword }, { demoFleet }] =
    await Promise.all([
      import('../../apps/server/src/config.js'),
      import('../../apps/server/src/db/index.js'),
      import('../../apps/server/src/db/migrate.js'),
      import('../../apps/server/src/boot/seed.js'),
      import('../../apps/server/src/demo/devices.js'),
      import('../../apps/server/src/link/credentials.js'),
      import('../../apps/simulator/src/index.js'),
    ]);
  const config = loadConfig(env);
  const drones = Math.floor(fleet.devices / 5);
  const specs = demoFleet(config.simCenter, { nests: fleet.devices - drones, drones }, FLEET_PREFIX);
  const { db } = openDatabase(config);
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    await db.transaction().execute((trx) => ensureDemoDevices(trx, specs));
  } finally {
    await db.destroy();
  }
  // The server reads the same key file when it starts: the passwords are the ones it will check.
  const { deviceKeyHex } = await loadOrCreateLinkSecrets(config.dataDir);
  const share = Math.min(1, Math.max(0, fleet.online ?? 0.8));
  // Spread over the fleet (every kind, everywhere), not the first ones.
  const online = specs.filter((_, i) => Math.floor((i + 1) * share) > Math.floor(i * share));
  return online.map((s) => ({ ...s, password: devicePassword(deviceKeyHex, s.sn) }));
}

/** Runs `devices` in a simulator process of its own on the product's broker; resolves once all are connected. */
async function spawnSimulator(dataDir: string, mqttPort: number, devices: { sn: string }[]): Promise<{ kill(): Promise<void> }> {
  const file = join(dataDir, 'fleet.json');
  writeFileSync(file, JSON.stringify(devices));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'apps/simulator/src/cli.ts'), '--fleet', file, '--broker', `mqtt://127.0.0.1:${mqttPort}`, '--rate', '1'],
    // production: no device-side schema check of every message (real devices do not check; the server does).
    { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stderr?.on('data', keep);
  await new Promise<void>((resolveUp, reject) => {
    const onData = (d: Buffer) => {
      keep(d);
      if (output.includes('all devices connected')) {
        child.stdout?.off('data', onData);
        child.stdout?.on('data', keep);
        child.off('exit', exited);
        resolveUp();
      }
    };
    const exited = (code: number | null) => reject(new Error(`the fleet's simulator exited early (${code}):\n${output}`));
    child.stdout?.on('data', onData);
    child.once('exit', exited);
  });
  return { kill: () => stopChild(child) };
}

/**
 * `extraEnv`: product settings of the whole e2e run (e.g. simulator speed), over the defaults below.
 * `options.fleet`: a city's fleet beside the demo devices (ProductFleet).
 */
export async function startProduct(extraEnv: Record<string, string> = {}, options: ProductOptions = {}): Promise<Product> {
  checkBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'nest-e2e-'));
  const env = productEnv(dataDir, extraEnv);
  const simulated = options.fleet ? await registerFleet(env, options.fleet) : [];
  const server = await spawnServer(env);
  env.PORT = String(server.ports.http);
  env.MQTT_PORT = String(server.ports.mqtt);
  let simulator: { kill(): Promise<void> } | null = null;
  try {
    if (simulated.length > 0) simulator = await spawnSimulator(dataDir, server.ports.mqtt, simulated);
  } catch (err) {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    baseUrl: `http://127.0.0.1:${server.ports.http}`,
    dataDir,
    env,
    async stop() {
      await simulator?.kill();
      await server.kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
    log: () => server.output(),
  };
}

/** A product of one test file whose server process the test stops and starts again (a restart, a crash). */
export interface RestartableProduct extends Product {
  /** Stops the server process (SIGTERM, as a service manager does); the data directory stays. */
  stopServer(): Promise<void>;
  /** Starts the server again on the same ports and data directory (the browser's address stays valid). */
  startServer(): Promise<void>;
}

/**
 * A product of its own (own data directory, ports from the OS on its first start) for a test that restarts
 * the server: later starts bind the ports of the first one, so pages and devices reconnect to the same
 * address. `stop()` ends it and removes its data.
 */
export async function startRestartableProduct(extraEnv: Record<string, string> = {}): Promise<RestartableProduct> {
  checkBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'nest-e2e-restart-'));
  const env = productEnv(dataDir, extraEnv);
  let server: ServerProcess | null = await spawnServer(env);
  env.PORT = String(server.ports.http);
  env.MQTT_PORT = String(server.ports.mqtt);
  let earlier = '';
  const product: RestartableProduct = {
    baseUrl: `http://127.0.0.1:${server.ports.http}`,
    dataDir,
    env,
    async stopServer() {
      const s = server;
      server = null;
      if (!s) return;
      await s.kill();
      earlier += s.output();
    },
    async startServer() {
      if (server) throw new Error('the server is running: stopServer() first');
      server = await spawnServer(env);
    },
    async stop() {
      await product.stopServer();
      rmSync(dataDir, { recursive: true, force: true });
    },
    log: () => (earlier + (server?.output() ?? '')).slice(-200_000),
  };
  return product;
}

/** Runs the server's admin CLI against the product's data dir; answers its stdout. */
export function cli(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync(process.execPath, [join(SERVER_DIST, 'cli.js'), ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
}
