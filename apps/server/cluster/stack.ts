/**
 * One production-shaped stack for the fault tests: a database on the run's PostgreSQL (a PostgreSQL of its
 * own for a test that stops or freezes it), a Mosquitto with the generated configuration, an in-process
 * server on them (restartable: same DATA_DIR, same database), the real simulator flying fast in calm
 * weather, and browser push sockets.
 */
import { rm } from 'node:fs/promises';
import { DEVICE_CONTROL_FUNCTION, DEVICE_PUSH_FUNCTION, ResultCode, type PushReply } from '@nest/contracts';
import { expect, inject } from 'vitest';
import { loadSimulator, type SimFleet } from '../test/simulator.js';
import { startTestServer, tempDir, userClient, type TestClient, type TestServer } from '../test/helpers.js';
import { createDatabase, dropDatabase, startMosquitto, startPostgres, type MosquittoBroker, type PostgresCluster } from '../test/infra.js';
import { PushSocket, WAIT_LIMIT_MS, addPatrolRoute, listen, live, registerDevice, until } from '../test/live.js';

export const HOME = { lat: 22.54, lng: 114.05, alt: 30 };

export interface StackOptions {
  /** A PostgreSQL of the stack's own, which the test may stop and freeze; default a database on the run's. */
  ownPostgres?: boolean;
}

export interface Stack {
  /** The stack's own PostgreSQL (ownPostgres), else null: the run's is shared and never stopped. */
  pg: PostgresCluster | null;
  databaseUrl: string;
  dataDir: string;
  broker: MosquittoBroker;
  server: TestServer;
  /** ws:// base of the current server. */
  base: string;
  /** A pilot (push and control functions, holding every device it flies) signed in on the current server. */
  pilot: TestClient;
  /** Stops the server (app and connections) and starts a new one on the same DATA_DIR and database. */
  restartServer(): Promise<void>;
  /** Registers devices (database + broker password file) and starts the simulator for them, in calm weather. */
  fly(sns: string[], opts?: { timeScale?: number; rateHz?: number }): Promise<SimFleet>;
  /** A push socket verified as the pilot (100), watching `sn` (200) when given. */
  socket(sn?: string): Promise<PushSocket>;
  close(): Promise<void>;
}

export async function startStack(opts: StackOptions & { ownPostgres: true }): Promise<Stack & { pg: PostgresCluster }>;
export async function startStack(opts?: StackOptions): Promise<Stack>;
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const pg = opts.ownPostgres ? await startPostgres() : null;
  const adminUrl = pg ? pg.url : inject('pgAdminUrl');
  const databaseUrl = await createDatabase(adminUrl);
  const dataDir = await tempDir('nest-fault-');
  const broker = await startMosquitto({ dataDir, databaseUrl });
  const fleets: SimFleet[] = [];
  const sockets: PushSocket[] = [];
  const boot = async () => {
    // Holds outlast the longest test: the pilot keeps control of the fleet it flies, across restarts.
    const server = await startTestServer({ dataDir, databaseUrl, config: { mqttUrl: broker.url, deviceHoldSeconds: 3600 } });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        live(server).link.ready(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`server never connected to mosquitto: ${broker.log()}`)), WAIT_LIMIT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    return server;
  };
  const server = await boot();
  const base = await listen(server);
  const pilot = await userClient(server, { nick: 'Pilot', funList: [DEVICE_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION] });
  const stack: Stack = {
    pg,
    databaseUrl,
    dataDir,
    broker,
    server,
    base,
    pilot,
    restartServer: async () => {
      await stack.server.stop();
      stack.server = await boot();
      stack.base = await listen(stack.server);
    },
    fly: async (sns, opts = {}) => {
      for (const sn of sns) await registerDevice(stack.server, { sn_id: sn, airport_point: { lat: HOME.lat, lng: HOME.lng } });
      await broker.refresh();
      const sim = await loadSimulator();
      const l = live(stack.server);
      const timeScale = opts.timeScale ?? 10;
      const fleet = await sim.startFleet({
        brokerUrl: broker.url,
        devices: sns.map((sn) => ({ sn, password: l.devicePassword(sn), kind: 'stable' as const, name: sn, uavSn: `${sn}-UAV`, home: HOME, calm: true })),
        // At 2 Hz only 1.5 s of silence (three periods) takes a device offline, which a busy machine's pauses
        // never reach (commands to an offline device are refused); a broker outage is noticed that fast too.
        rateHz: opts.rateHz ?? 2,
        ffmpegPath: null,
        validate: true,
        seed: 1,
        timeScale,
      });
      fleets.push(fleet);
      await until(() => sns.every((sn) => l.link.isOnline(sn) && l.link.device(sn)?.telemetry?.drone), 'the fleet online with telemetry');
      // Flight commands need the device's control connection: the pilot takes it for every device.
      for (const sn of sns) expect((await stack.pilot.call('deviceConnect', { sn_id: sn })).body.code).toBe(ResultCode.OK);
      return fleet;
    },
    socket: async (sn) => {
      const s = await PushSocket.open(stack.base);
      sockets.push(s);
      expect((await s.verifyUser(stack.pilot)).code).toBe(ResultCode.OK);
      if (sn) expect((await s.verifyDevice(stack.pilot, sn)).code).toBe(ResultCode.OK);
      return s;
    },
    close: async () => {
      for (const s of sockets) s.close();
      for (const f of fleets) await f.stop().catch(() => undefined);
      await stack.server?.close();
      await broker.close();
      if (pg) await pg.close();
      else await dropDatabase(adminUrl, databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/** Sends a push request and waits for its answer (a command waits for its device). */
export async function request(s: PushSocket, msgId: number, data: Record<string, unknown>): Promise<PushReply> {
  const from = s.frames.length;
  s.send(msgId, data);
  return s.wait((f) => f.msg_id === msgId, WAIT_LIMIT_MS, from);
}

/**
 * The patrol route there and back (twelve waypoints, about 4 km, inside the fence of addPatrolRoute): for the
 * tests that act on a drone on its route, so that the route is far from over when they are done.
 */
export async function addLongRoute(stack: Stack, sn: string): Promise<string> {
  const id = await addPatrolRoute(stack.server.db, sn, HOME);
  const waypoints = Array.from({ length: 12 }, (_, i) => {
    const j = i < 6 ? i : 11 - i;
    return { lat: HOME.lat - 0.004 + j * 0.0015, lng: HOME.lng + (i < 6 ? -0.004 : 0.002) + (i % 2) * 0.002, height: 50 };
  });
  await stack.server.db.updateTable('missions').set({ waypoints: JSON.stringify(waypoints), distance: 4000, est_time: 340 }).where('id', '=', id).execute();
  return id;
}

/** Points of a sortie's track stored after `after` (ms), once the current server wrote what it buffered. */
export async function trackPointsAfter(stack: Stack, sortId: string, after: number): Promise<number> {
  await stack.server.app.nest.services.sorties.flush();
  return (await stack.server.db.selectFrom('sortie_track').select('t').where('sort_id', '=', sortId).where('t', '>', after).execute()).length;
}
