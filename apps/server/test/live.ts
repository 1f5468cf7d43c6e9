/**
 * Helpers for tests of the live device side: registering devices, running the real simulator against
 * the test server's broker, raw MQTT clients acting as (misbehaving) devices, and a push socket that
 * records every frame.
 */
import { randomUUID } from 'node:crypto';
import {
  APP_CODE,
  APP_IDS,
  EQUIPMENT_VERIFY_SOR,
  EQUIPMENT_VERIFY_VST,
  LINK_VERSION,
  PUSH_PATH,
  PushMsgId,
  ResultCode,
  signPmd,
  topicOf,
  type DeviceChannel,
  type PushReply,
} from '@nest/contracts';
import { nestTelemetry as nestTelemetryFixture } from '@nest/contracts/test-fixtures';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { createDevice, type NewDevice } from '../src/devices/store.js';
import { loadSimulator, type SimFleet } from './simulator.js';
import type { DeviceRow } from '../src/db/schema.js';
import type { Database } from '../src/db/index.js';
import type { TestClient, TestServer } from './helpers.js';

export const live = (server: TestServer) => server.app.nest.deps.live;

/** Registers a device straight into the database and refreshes the server's directory. */
export async function registerDevice(
  server: TestServer,
  input: Partial<NewDevice> & { sn_id: string },
): Promise<DeviceRow> {
  const row = await createDevice(server.db, {
    type: 'stable',
    company_id: 'wk',
    airport_name: `Nest ${input.sn_id}`,
    uav_name: `UAV ${input.sn_id}`,
    uav_sn: `${input.sn_id}-UAV`,
    airport_point: { lat: 22.54, lng: 114.05 },
    ...input,
  });
  await live(server).directory.reload();
  return row;
}

export interface SimSpecInput {
  sn: string;
  kind?: 'stable' | 'stable_mini' | 'mobile' | 'alone';
  name?: string;
  home?: { lat: number; lng: number; alt: number };
}

/** Starts the real simulator for these devices against the server's broker, with the right passwords. */
export async function startSim(
  server: TestServer,
  devices: SimSpecInput[],
  opts: { rateHz?: number; video?: boolean; brokerUrl?: string; timeScale?: number; calm?: boolean } = {},
): Promise<SimFleet> {
  const sim = await loadSimulator();
  const l = live(server);
  return sim.startFleet({
    brokerUrl: opts.brokerUrl ?? l.brokerUrl,
    devices: devices.map((d, i) => ({
      sn: d.sn,
      password: l.devicePassword(d.sn),
      kind: d.kind ?? 'stable',
      name: d.name ?? d.sn,
      uavSn: `${d.sn}-UAV`,
      home: d.home ?? { lat: 22.54 + i * 0.01, lng: 114.05 + i * 0.01, alt: 30 },
      ...(opts.timeScale ? { timeScale: opts.timeScale } : {}),
      ...(opts.calm ? { calm: true } : {}),
    })),
    ...(opts.timeScale ? { timeScale: opts.timeScale } : {}),
    rateHz: opts.rateHz ?? 5,
    liveDir: opts.video ? server.config.liveDir : undefined,
    ffmpegPath: opts.video ? undefined : null,
    liveUrlBase: server.config.liveUrlBase,
    validate: true,
  });
}

/**
 * The safety limit of a wait: far above how long anything a test awaits takes, even on a loaded 2-core
 * machine, so reaching it means a hang or a bug, never a slow run. Kept under the server projects'
 * testTimeout (vitest.config.ts) so the failure names what was awaited rather than the test's timeout.
 */
export const WAIT_LIMIT_MS = 60_000;

/**
 * Waits until `cond` holds: a row written, a state reached, a frame received (checked every 10 ms). Tests wait
 * for what they need, never for an amount of time. `what` names it in the failure; `limitMs` only raises the
 * safety limit for a wait that takes long on purpose (a simulated flight).
 */
export async function until(cond: () => boolean | Promise<boolean>, what: string, limitMs = WAIT_LIMIT_MS): Promise<void> {
  const start = Date.now();
  while (!(await cond())) {
    if (Date.now() - start > limitMs) throw new Error(`waited ${Math.round(limitMs / 1000)} s (a safety limit) for ${what}, which did not happen`);
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until Date.now() is `ms` past `from`, for a product limit kept on the wall clock that a test cannot
 * drive (a rate limit, a cache period): a timer may fire a little early by that clock, so it is read again.
 * It only ever waits longer than needed, so it cannot fail a test.
 */
export async function clockPast(from: number, ms: number): Promise<void> {
  while (Date.now() - from < ms) await sleep(from + ms - Date.now());
}

/** An MQTT client: resolves once connected, or with the error. */
export function mqttConnect(url: string, opts: IClientOptions): Promise<{ client: MqttClient | null; error: (Error & { code?: number }) | null }> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 3000, protocolVersion: 4, ...opts });
    client.once('connect', () => resolve({ client, error: null }));
    client.once('error', (error) => {
      client.end(true);
      resolve({ client: null, error });
    });
  });
}

/** A hand-driven device: its own credentials, sends whatever the test wants. */
export class RawDevice {
  readonly received: { topic: string; payload: Buffer }[] = [];
  private constructor(
    readonly sn: string,
    readonly client: MqttClient,
  ) {
    client.on('message', (topic, payload) => this.received.push({ topic, payload }));
  }

  static async connect(
    server: TestServer,
    sn: string,
    opts: IClientOptions & { url?: string; withWill?: boolean } = {},
  ): Promise<RawDevice> {
    const will = opts.withWill
      ? {
          topic: topicOf(sn, 'presence'),
          payload: Buffer.from(JSON.stringify(envelope('presence', { online: false }))),
          qos: 1 as const,
          retain: true,
        }
      : undefined;
    const { client, error } = await mqttConnect(opts.url ?? live(server).brokerUrl, {
      clientId: sn,
      username: sn,
      password: live(server).devicePassword(sn),
      will,
      ...opts,
    });
    if (!client) throw error ?? new Error('not connected');
    return new RawDevice(sn, client);
  }

  publish(channel: DeviceChannel | string, payload: string | Buffer | object, opts: { qos?: 0 | 1; retain?: boolean; sn?: string } = {}): Promise<void> {
    const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
    return new Promise((resolve) => {
      this.client.publish(`nest/v1/${opts.sn ?? this.sn}/${channel}`, body, { qos: opts.qos ?? 0, retain: opts.retain ?? false }, () => resolve());
    });
  }

  async subscribe(topic: string): Promise<number[]> {
    const granted = await this.client.subscribeAsync(topic, { qos: 1 });
    return granted.map((g) => g.qos);
  }

  /** Kills the TCP connection without DISCONNECT: the broker publishes the last-will. */
  drop(): void {
    this.client.stream.destroy();
    this.client.end(true);
  }

  end(): Promise<void> {
    return new Promise((resolve) => this.client.end(true, {}, () => resolve()));
  }
}

/**
 * The raw devices one test file connects, ended together in its afterAll (before its server closes):
 * `const devices = new RawDevices(() => server)`, `await devices.connect(sn)`, `await devices.endAll()`.
 */
export class RawDevices {
  private readonly connected: RawDevice[] = [];
  constructor(private readonly server: () => TestServer) {}

  async connect(sn: string, opts: Parameters<typeof RawDevice.connect>[2] = {}): Promise<RawDevice> {
    const d = await RawDevice.connect(this.server(), sn, opts);
    this.connected.push(d);
    return d;
  }

  async endAll(): Promise<void> {
    for (const d of this.connected.splice(0)) await d.end().catch(() => undefined);
  }
}

let tidCounter = 0;
export function envelope(method: string, data: unknown, tid = `t-${++tidCounter}`) {
  return { v: LINK_VERSION, tid, bid: '', ts: Date.now(), method, data };
}

/** A valid telemetry payload for a nest (the contracts' test fixture) at `lat`, `lng`. */
export function nestTelemetry(lat = 22.54, lng = 114.05) {
  return { nest: nestTelemetryFixture({ lat, lng }) };
}

/**
 * A push client recording every frame; waits for frames matching a predicate, or reads them in order
 * (`next()`, which continues after the last frame `next()` or `request()` returned).
 */
export class PushSocket {
  readonly ws: WebSocket;
  readonly frames: (PushReply & { at: number })[] = [];
  private readonly waiters: (() => void)[] = [];
  /** Index of the first frame `next()` has not returned yet. */
  private read = 0;
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(url: string) {
    this.ws = new WebSocket(url + PUSH_PATH);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code) => resolve(code)));
    this.ws.on('message', (data) => {
      this.frames.push({ ...(JSON.parse(String(data)) as PushReply), at: Date.now() });
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async open(url: string): Promise<PushSocket> {
    const s = new PushSocket(url);
    await s.opened;
    return s;
  }

  send(msgId: number, data: Record<string, unknown> = {}): void {
    this.ws.send(JSON.stringify({ msg_id: msgId, tms: Date.now(), version: 0, data }));
  }

  /** Sends a frame as it is (malformed or binary frames). */
  raw(data: string | Buffer, binary = false): void {
    this.ws.send(data, { binary });
  }

  of(msgId: number): (PushReply & { at: number })[] {
    return this.frames.filter((f) => f.msg_id === msgId);
  }

  /** The first frame after index `from` matching `pred` (the limit is a safety net, WAIT_LIMIT_MS by default). */
  async wait(pred: (f: PushReply & { at: number }) => boolean, timeoutMs = WAIT_LIMIT_MS, from = 0): Promise<PushReply & { at: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.slice(from).find(pred);
      if (hit) return hit;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`waited ${Math.round(timeoutMs / 1000)} s (a safety limit) for a matching push frame; got ${JSON.stringify(this.frames.map((f) => [f.msg_id, f.code]))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Sends and waits for the reply with that msg_id (sent after now); `next()` continues after it. */
  async request(msgId: number, data: Record<string, unknown> = {}): Promise<PushReply> {
    const from = this.frames.length;
    this.send(msgId, data);
    const reply = await this.wait((f) => f.msg_id === msgId, WAIT_LIMIT_MS, from);
    this.read = Math.max(this.read, this.frames.indexOf(reply, from) + 1);
    return PushSocket.reply(reply);
  }

  /** The next frame in order (waiting for it), as the server sent it. */
  async next(): Promise<PushReply> {
    const from = this.read;
    const frame = await this.wait(() => true, WAIT_LIMIT_MS, from);
    this.read = this.frames.indexOf(frame, from) + 1;
    return PushSocket.reply(frame);
  }

  /** A recorded frame without the time it arrived. */
  private static reply({ at: _at, ...reply }: PushReply & { at: number }): PushReply {
    return reply;
  }

  /**
   * A heartbeat round trip: the server answers one socket's frames in order, so once the answer is here every
   * frame it sent this socket before has arrived too (the barrier that proves a frame was NOT sent).
   */
  async roundTrip(): Promise<void> {
    const reply = await this.request(PushMsgId.HEARTBEAT);
    if (reply.code !== ResultCode.OK) throw new Error(`the heartbeat was answered ${reply.code}`);
  }

  /** 100 user verification as the browser does it. */
  async verifyUser(c: TestClient): Promise<PushReply> {
    return this.request(PushMsgId.USER_VERIFY, {
      token: c.token,
      app_ids: APP_IDS,
      app_code: APP_CODE,
      licence: await c.licence(),
      os_language: 'en',
    });
  }

  /** 200 equipment verification. */
  verifyDevice(c: TestClient, snId: string): Promise<PushReply> {
    return this.request(PushMsgId.EQUIPMENT_VERIFY, {
      token: c.token,
      sn_id: snId,
      pmd: signPmd({ token: c.token, pmdValue: snId }),
      vst: EQUIPMENT_VERIFY_VST,
      sor: EQUIPMENT_VERIFY_SOR,
      os_language: 'en',
    });
  }

  close(): void {
    this.ws.close();
  }
}

/** Listens on a loopback port (for WebSocket tests); answers the ws:// base. */
export async function listen(server: TestServer): Promise<string> {
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

/**
 * A fence of about 2 km around `home` bound to the device and a six-waypoint patrol route inside it, as
 * the planning screens would store them (company wk); answers the route id.
 */
export async function addPatrolRoute(db: Database, sn: string, home: { lat: number; lng: number }): Promise<string> {
  const HOME = home;
  const now = Math.floor(Date.now() / 1000);
  const fenceId = randomUUID();
  const d = 0.01;
  await db
    .insertInto('fences')
    .values({
      id: fenceId,
      name: `Fence ${sn}`,
      max_height: 120,
      boundary: JSON.stringify([
        { lat: HOME.lat - d, lng: HOME.lng - d },
        { lat: HOME.lat - d, lng: HOME.lng + d },
        { lat: HOME.lat + d, lng: HOME.lng + d },
        { lat: HOME.lat + d, lng: HOME.lng - d },
      ]),
      sn_id: sn,
      company_id: 'wk',
      created_at: now,
      updated_at: now,
    })
    .execute();
  const id = randomUUID();
  const waypoints = [0, 1, 2, 3, 4, 5].map((i) => ({ lat: HOME.lat - 0.004 + i * 0.0015, lng: HOME.lng - 0.004 + (i % 2) * 0.002, height: 50 }));
  await db
    .insertInto('missions')
    .values({
      id,
      name: 'Sim patrol',
      fence_id: fenceId,
      mission_type: 1,
      height_type: 0,
      auto_speed: 12,
      max_speed: 15,
      default_height: 50,
      return_height: 60,
      finish_action: 20,
      exec_type: 0,
      camera_type: '',
      sensor_width: null,
      sensor_height: null,
      image_width: null,
      image_height: null,
      focal_length: null,
      course_overlap: 0,
      lateral_overlap: 0,
      turn_distance: 0,
      angle: 0,
      interval_height: 0,
      elevation: 0,
      photo_type: 2,
      waypoints: JSON.stringify(waypoints),
      survey_polygon: null,
      distance: 1000,
      est_time: 100,
      breakpoint: null,
      u_id: 'u',
      user_name: 'Planner',
      company_id: 'wk',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}
