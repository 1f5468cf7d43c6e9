/**
 * Server entry: `node --import tsx apps/server/src/main.ts` (see config.ts for every environment variable).
 * Reads the configuration, brings the database up to date, seeds it, registers the demo devices when
 * SIMULATOR=on, builds the app (which starts the embedded MQTT broker unless MQTT_URL, and the device
 * link), listens, starts the simulated fleet and demo mode (DEMO_MISSIONS: first-start demo routes and
 * periodic demo missions), and prints the address (and, on the first start, how to sign in). A port already in use or an invalid setting ends the process with exit code 1 and one line.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { PortInUseError } from './broker/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/index.js';
import { MigrationError, migrateToLatest } from './db/migrate.js';
import { seed, type AdminBootstrap } from './boot/seed.js';
import { ADMIN_COMPANY } from './db/seed.js';
import { startDemo } from './demo/index.js';
import { fleetExtras, withAlternate } from './demo/fleet.js';
import { ensureDemoDevices, type DemoDeviceSpec } from './devices/demo.js';
import { EMBEDDED_BROKER_HOST } from './link/runtime.js';
import { loadSimulator, type SimFleet, type Simulator } from './link/simulator.js';
import { WEB_BASE } from './static/web.js';
import { seedDemoRecordings } from './videos/demo.js';
import { ffmpegLine, resolveFfmpeg } from '@nest/simulator/ffmpeg';

export { EMBEDDED_BROKER_HOST };

const urlHost = (host: string): string => {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
};

export function signInLine(admin: AdminBootstrap, url: string): string | null {
  if (!admin.created) return null;
  return admin.password !== null
    ? `Sign in at ${url} as ${admin.account} with password ${admin.password}`
    : `Sign in at ${url} as ${admin.account} with the password from ADMIN_PASSWORD`;
}

export const fleetLine = (config: Pick<Config, 'simNests' | 'simDrones' | 'simCenter'>): string =>
  `Simulated fleet: ${config.simNests} nests, ${config.simDrones} drones around ${config.simCenter.lat},${config.simCenter.lng}`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}


async function start(config: Config): Promise<void> {
  await mkdir(path.join(config.dataDir, 'media'), { recursive: true });
  const database = openDatabase(config);
  let admin: AdminBootstrap;
  let sim: Simulator | null = null;
  let specs: DemoDeviceSpec[] = [];
  try {
    await migrateToLatest(database.db);
    admin = await seed(database.db, config);
    if (config.simulator) {
      // Loaded only when wanted: a deployment with real devices never runs simulator code.
      sim = await loadSimulator();
      specs = sim.demoFleet(config.simCenter, { nests: config.simNests, drones: config.simDrones });
      // Before the app starts, so its device directory (and the broker) know the demo devices.
      await ensureDemoDevices(database.db, specs);
    }
  } catch (err) {
    await database.db.destroy().catch(() => undefined);
    throw err;
  }
  const app: FastifyInstance = await buildApp(config, { database });
  const live = app.nest.deps.live;
  let fleet: SimFleet | null = null;
  let demo: { stop(): Promise<void> } | null = null;

  const closeAll = async () => {
    await demo?.stop().catch(() => undefined);
    await fleet?.stop().catch(() => undefined);
    await app.close();
  };

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await closeAll();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new PortInUseError(config.port, config.host, 'PORT');
    }
    throw err;
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${urlHost(config.host)}:${port}${WEB_BASE}`;
  console.log(`Drone nest console listening on ${url}`);
  console.log(
    live.broker
      ? `Embedded MQTT broker listening on mqtt://${EMBEDDED_BROKER_HOST}:${live.broker.port}`
      : `Using the MQTT broker at ${config.mqttUrl}`,
  );
  const line = signInLine(admin, url);
  if (line) console.log(line);
  // Which ffmpeg makes video here (live, clips, thumbnails), or why there is none.
  console.log(ffmpegLine(resolveFfmpeg()));

  if (sim) {
    try {
      fleet = await sim.startFleet({
        brokerUrl: live.brokerUrl,
        // Nests get an alternate landing point (used by the simulator once it supports one).
        devices: specs.map((s) => withAlternate({ ...s, password: live.devicePassword(s.sn), calm: config.simWeather === 'calm' })),
        // Time scale and media upload URL (this server on loopback): see demo/fleet.ts.
        ...fleetExtras(config, port),
        rateHz: config.simRateHz,
        liveDir: config.liveDir,
        liveUrlBase: config.liveUrlBase,
        log: (text) => app.log.info({ simulator: text }, 'simulator'),
      });
      console.log(fleetLine(config));
    } catch (err) {
      console.error(`Simulated fleet not started: ${err instanceof Error ? err.message : String(err)}`);
    }
    const nestSpecs = specs.filter((s) => s.kind !== 'alone');
    if (fleet) {
      demo = await startDemo(app.nest.deps, app.nest.flight, nestSpecs, app.log, config.demoMissions, fleet);
      if (config.demoMissions) {
        console.log(`Demo missions: a patrol route about a minute after start, then every ${config.demoMissionMinutes} minutes on the next idle nest`);
      }
    }
    // Demo recordings (real files, made with ffmpeg when present) in the background: start-up does not wait.
    const nests = nestSpecs.map((s) => ({ sn: s.sn, companyId: ADMIN_COMPANY }));
    void seedDemoRecordings(app.nest.deps, nests).catch((err: unknown) => app.log.warn({ err }, 'demo recordings failed'));
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal} received, shutting down`);
    closeAll().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`Configuration error: ${err.message}`);
    throw err;
  }
  try {
    await start(config);
  } catch (err) {
    if (err instanceof PortInUseError) fail(err.message);
    if (err instanceof MigrationError) fail(err.message);
    const message = err instanceof Error ? err.message : String(err);
    fail(`Start-up failed: ${message}`);
  }
}

await main();
