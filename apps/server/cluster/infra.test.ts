/**
 * The test infrastructure the cluster and fault tests stand on (test/infra.ts): a PostgreSQL that stops
 * and starts again on the same port with its data, and a Mosquitto whose restart keeps retained messages
 * (persistence) and whose refresh admits devices registered after it started. Also the server's pool
 * against a frozen PostgreSQL: a new connection gives up after the connect timeout, and a query on an open
 * connection after the query timeout, instead of hanging.
 */
import { SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DB_CONNECT_TIMEOUT_MS, openDatabase } from '../src/db/index.js';
import { isDatabaseUnavailable } from '../src/db/unavailable.js';
import { loadOrCreateLinkSecrets } from '../src/link/credentials.js';
import { startTestServer, tempDir, type TestServer } from '../test/helpers.js';
import { createDatabase, hasMosquitto, startMosquitto, startPostgres, type MosquittoBroker, type PostgresCluster } from '../test/infra.js';
import { RawDevice, envelope, mqttConnect, registerDevice, until } from '../test/live.js';

async function query(url: string, sql: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe.runIf(hasMosquitto())('test infrastructure: PostgreSQL and Mosquitto that stop and start', () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  let broker: MosquittoBroker;
  let server: TestServer;
  const clients: { end(force?: boolean): unknown }[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    databaseUrl = await createDatabase(cluster.url);
    const dataDir = await tempDir('nest-infra-');
    broker = await startMosquitto({ dataDir, databaseUrl });
    server = await startTestServer({ dataDir, databaseUrl, config: { mqttUrl: broker.url } });
  });

  afterAll(async () => {
    for (const c of clients) c.end(true);
    await server?.close();
    await broker?.close();
    await cluster?.close();
  });

  it('PostgreSQL refuses connections while stopped and serves the same data after start', async () => {
    await query(databaseUrl, 'CREATE TABLE infra_probe (n int); INSERT INTO infra_probe VALUES (7)');
    await cluster.stop();
    await expect(query(databaseUrl, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED|connect/);
    await cluster.start();
    expect(await query(databaseUrl, 'SELECT n FROM infra_probe')).toEqual([{ n: 7 }]);
  });

  /** Freezes PostgreSQL, runs a query and expects "database unavailable" after atLeast..below ms, then thaws. */
  async function failsWhileFrozen(db: ReturnType<typeof openDatabase>['db'], freeze: { backends?: boolean }, atLeast: number, below: number): Promise<void> {
    await cluster.freeze(freeze);
    try {
      const t0 = Date.now();
      const err = await sql`SELECT 2`.execute(db).then(() => null, (e: unknown) => e);
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(atLeast);
      expect(Date.now() - t0).toBeLessThan(below);
    } finally {
      await cluster.thaw();
    }
  }

  it('a frozen PostgreSQL (connection accepted, never answered) fails a new connection after the connect timeout, as "database unavailable"', async () => {
    const { db } = openDatabase({ databaseUrl, dataDir: server.dataDir });
    await failsWhileFrozen(db, {}, DB_CONNECT_TIMEOUT_MS - 500, DB_CONNECT_TIMEOUT_MS + 5000);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows).toEqual([{ one: 1 }]);
    await db.destroy();
  });

  it('a PostgreSQL that freezes under an open connection fails the query after the query timeout, as "database unavailable", and the connection serves again after', async () => {
    const timeoutMs = 1500;
    const { db } = openDatabase({ databaseUrl, dataDir: server.dataDir, queryTimeoutMs: timeoutMs });
    // The pool's connection is open before the freeze: the connect timeout does not apply.
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db)).rows).toEqual([{ one: 1 }]);
    await failsWhileFrozen(db, { backends: true }, timeoutMs - 200, timeoutMs + 5000);
    expect((await sql<{ three: number }>`SELECT 3 AS three`.execute(db)).rows).toEqual([{ three: 3 }]);
    await db.destroy();
  });

  it('Mosquitto keeps retained messages across a restart (persistence on)', async () => {
    await registerDevice(server, { sn_id: 'INFRA-1' });
    await broker.refresh();
    const device = await RawDevice.connect(server, 'INFRA-1', { url: broker.url });
    clients.push(device.client);
    await device.client.publishAsync(topicOf('INFRA-1', 'presence'), JSON.stringify(envelope('presence', { online: true })), { qos: 1, retain: true });
    await device.end();
    await broker.restart();

    const secrets = await loadOrCreateLinkSecrets(server.dataDir);
    const { client, error } = await mqttConnect(broker.url, { username: SERVER_MQTT_USER, password: secrets.serverPassword, clientId: 'infra-probe' });
    expect(error).toBeNull();
    clients.push(client!);
    const got: string[] = [];
    (client as MqttClient).on('message', (topic) => got.push(topic));
    await client!.subscribeAsync(topicOf('INFRA-1', 'presence'), { qos: 1 });
    await until(() => got.length > 0, 'the retained presence after the restart');
  });

  it('refresh admits a device registered after the broker started; before it, the broker refuses it', async () => {
    await registerDevice(server, { sn_id: 'INFRA-LATE' });
    await expect(RawDevice.connect(server, 'INFRA-LATE', { url: broker.url })).rejects.toThrow();
    await broker.refresh();
    const late = await RawDevice.connect(server, 'INFRA-LATE', { url: broker.url });
    clients.push(late.client);
    expect(late.client.connected).toBe(true);
  });
});
