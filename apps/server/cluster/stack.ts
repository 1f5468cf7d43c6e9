/**
 * One production-shaped stack for the fault tests: a PostgreSQL of its own, a Mosquitto with the
 * generated configuration, an in-process server on them (restartable: same DATA_DIR, same database), the
 * real simulator flying fast, and browser push sockets.
 */
import { DEVICE_PUSH_FUNCTION, ResultCode, type PushReply } from '@nest/contracts';
import { expect } from 'vitest';
import { loadSimulator, type SimFleet } from '../src/link/simulator.js';
import { startTestServer, tempDir, userClient, type TestClient, type TestServer } from '../test/helpers.js';
import { createDatabase, startMosquitto, startPostgres, type MosquittoBroker, type PostgresCluster } from '../test/infra.js';
import { PushSocket, listen, live, registerDevice, until } from '../test/live.js';

export const HOME = { lat: 22.54, lng: 114.05, alt: 30 };

export interface Stack {
  pg: PostgresCluster;
  databaseUrl: string;
  dataDir: string;
  broker: MosquittoBroker;
  server: TestServer;
  /** ws:// base of the current server. */
  base: string;
  /** A pilot (device push function) signed in on the current server. */
  pilot: TestClient;
  /** Stops the server (app and connections) and starts a new one on the same DATA_DIR and database. */
  restartServer(): Promise<void>;
  /** Registers devices (database + broker password file) and starts the simulator for them. */
  fly(sns: string[], opts?: { timeScale?: number; rateHz?: number }): Promise<SimFleet>;
  /** A push socket verified as the pilot (100), watching `sn` (200) when given. */
  socket(sn?: string): Promise<PushSocket>;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const pg = await startPostgres();
  const databaseUrl = await createDatabase(pg.url);
  const dataDir = await tempDir('nest-fault-');
  const broker = await startMosquitto({ dataDir, databaseUrl });
  const fleets: SimFleet[] = [];
  const sockets: PushSocket[] = [];
  const boot = async () => {
    const server = await startTestServer({ dataDir, databaseUrl, config: { mqttUrl: broker.url } });
    await Promise.race([
      live(server).link.ready(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`server never connected to mosquitto: ${broker.log()}`)), 15_000)),
    ]);
    return server;
  };
  const stack: Stack = {
    pg,
    databaseUrl,
    dataDir,
    broker,
    server: await boot(),
    base: '',
    pilot: null as unknown as TestClient,
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
        rateHz: opts.rateHz ?? 5,
        ffmpegPath: null,
        validate: true,
        timeScale,
      });
      fleets.push(fleet);
      await until(() => sns.every((sn) => l.link.isOnline(sn) && l.link.device(sn)?.telemetry?.drone), 15_000, 'fleet online');
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
      await pg.close();
    },
  };
  stack.base = await listen(stack.server);
  stack.pilot = await userClient(stack.server, { nick: 'Pilot', funList: [DEVICE_PUSH_FUNCTION] });
  return stack;
}

/** Sends a push request and waits for its answer (commands wait for their device: up to 15 s). */
export async function request(s: PushSocket, msgId: number, data: Record<string, unknown>, timeoutMs = 15_000): Promise<PushReply> {
  const from = s.frames.length;
  s.send(msgId, data);
  return s.wait((f) => f.msg_id === msgId, timeoutMs, from);
}
