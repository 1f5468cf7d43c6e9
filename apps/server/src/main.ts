/**
 * Server entry: `node --import tsx apps/server/src/main.ts` (see config.ts for every environment variable).
 * Reads the configuration, brings the database up to date, seeds it, builds the app (which starts the
 * embedded MQTT broker unless MQTT_URL, and the device link), listens and prints the address (and, on the
 * first start, how to sign in) and which ffmpeg makes video. A port already in use or an invalid setting ends
 * the process with exit code 1 and one line.
 *
 * The server knows nothing of the fleet simulator: the demo fleet (SIMULATOR=on) is started by the launcher
 * (apps/launcher, what `npm start` runs), through startServer() and the demo functions the server exports
 * (demo/index.ts). Started alone with SIMULATOR=on, the server says so in one line and serves real devices.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ffmpegLine, resolveFfmpeg } from '@nest/ffmpeg';
import { buildApp } from './app.js';
import { PortInUseError } from './broker/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/index.js';
import { MigrationError, migrateToLatest } from './db/migrate.js';
import { seed, type AdminBootstrap } from './boot/seed.js';
import { WEB_BASE } from './static/web.js';

export type { Config };

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

/** What the server started alone prints when SIMULATOR=on: the demo fleet is the launcher's. */
export const NO_FLEET_LINE =
  'Simulated fleet: not started (the demo fleet runs with the launcher, npm start; SIMULATOR=off for real devices only)';

export interface ServerOptions {
  /**
   * Runs after the migrations and the seed, before the app is built, so its device directory (and the
   * broker) know what it adds: the launcher registers the demo devices here.
   */
  prepare?: (db: Database) => Promise<void>;
}

/** A listening server. */
export interface RunningServer {
  app: FastifyInstance;
  config: Config;
  /** The HTTP port it listens on (the one the system picked when PORT=0). */
  port: number;
  /** The address of the console, as printed. */
  url: string;
  /** Closes the app: HTTP, device link, broker, database. */
  close(): Promise<void>;
}

/**
 * Starts the server: data directory, migrations, seed, `options.prepare`, the app, listening; prints the
 * start-up lines (address, broker, first sign-in, ffmpeg). Throws PortInUseError, MigrationError or the
 * error that stopped it, after closing what it had opened.
 */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  await mkdir(path.join(config.dataDir, 'media'), { recursive: true });
  const database = openDatabase(config);
  let admin: AdminBootstrap;
  try {
    await migrateToLatest(database.db);
    admin = await seed(database.db, config);
    await options.prepare?.(database.db);
  } catch (err) {
    await database.db.destroy().catch(() => undefined);
    throw err;
  }
  const app: FastifyInstance = await buildApp(config, { database });
  const live = app.nest.deps.live;

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
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
      ? `Embedded MQTT broker listening on mqtt://${urlHost(config.mqttHost)}:${live.broker.port}`
      : `Using the MQTT broker at ${config.mqttUrl}`,
  );
  console.log(`RTMP ingest for DJI docks' live video listening on rtmp://${urlHost(config.rtmpHost)}:${live.rtmpPort}`);
  const line = signInLine(admin, url);
  if (line) console.log(line);
  // Which ffmpeg makes video here (live, clips, thumbnails), or why there is none.
  console.log(ffmpegLine(resolveFfmpeg()));
  return { app, config, port, url, close: () => app.close() };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** What a program started by runProgram stops on SIGINT / SIGTERM. */
export interface Program {
  stop(): Promise<void>;
}

/**
 * Runs a program of the product (this server alone, or the launcher): reads the configuration, calls
 * `start`, ends the process with exit code 1 and one line when the configuration is invalid or the start
 * fails, and on SIGINT / SIGTERM stops the program and exits (0, or 1 when stopping failed; a second signal
 * exits at once).
 */
export async function runProgram(start: (config: Config) => Promise<Program>): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`Configuration error: ${err.message}`);
    throw err;
  }
  let program: Program;
  try {
    program = await start(config);
  } catch (err) {
    if (err instanceof PortInUseError) fail(err.message);
    if (err instanceof MigrationError) fail(err.message);
    const message = err instanceof Error ? err.message : String(err);
    fail(`Start-up failed: ${message}`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal} received, shutting down`);
    program.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

// Started as a program (not imported by the launcher, whose bundle gives this module its source URL).
if (process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  await runProgram(async (config) => {
    const server = await startServer(config);
    if (config.simulator) console.log(NO_FLEET_LINE);
    return { stop: () => server.close() };
  });
}
