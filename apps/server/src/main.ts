/**
 * Server entry: `node --import tsx apps/server/src/main.ts` (see config.ts for every environment variable).
 * Reads the configuration, brings the database up to date, seeds it, starts the embedded MQTT broker
 * (unless MQTT_URL), listens, and prints the address (and, on the first start, how to sign in).
 * A port already in use or an invalid setting ends the process with exit code 1 and one clear line.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { PortInUseError, startEmbeddedBroker, type EmbeddedBroker } from './broker/index.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/index.js';
import { MigrationError, migrateToLatest } from './db/migrate.js';
import { seed, type AdminBootstrap } from './db/seed.js';
import { WEB_BASE } from './static/web.js';

/** The embedded broker only listens on loopback: devices reach it through the server host. */
export const EMBEDDED_BROKER_HOST = '127.0.0.1';

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

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function start(config: Config): Promise<void> {
  await mkdir(path.join(config.dataDir, 'media'), { recursive: true });
  const database = openDatabase(config);
  let admin: AdminBootstrap;
  try {
    await migrateToLatest(database.db);
    admin = await seed(database.db, config);
  } catch (err) {
    await database.db.destroy().catch(() => undefined);
    throw err;
  }
  const app: FastifyInstance = await buildApp(config, { database });
  let broker: EmbeddedBroker | null = null;

  const closeAll = async () => {
    await Promise.allSettled([app.close(), broker?.close()]);
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
  try {
    if (!config.mqttUrl) broker = await startEmbeddedBroker({ host: EMBEDDED_BROKER_HOST, port: config.mqttPort });
  } catch (err) {
    await closeAll();
    throw err;
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${urlHost(config.host)}:${port}${WEB_BASE}`;
  console.log(`Drone nest console listening on ${url}`);
  console.log(
    broker
      ? `Embedded MQTT broker listening on mqtt://${EMBEDDED_BROKER_HOST}:${broker.port}`
      : `Using the MQTT broker at ${config.mqttUrl}`,
  );
  const line = signInLine(admin, url);
  if (line) console.log(line);

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
