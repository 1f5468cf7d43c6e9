import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import type { MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { offsetMetres } from '@nest/geo';
import { toWpmlKmz } from '@nest/formats';
import type { PlanDocument } from '@nest/formats';
import { startBroker } from '../test/broker.js';
import type { TestBroker } from '../test/broker.js';
import { until } from '../test/wait.js';
import { startDjiDock } from './dock.js';
import type { DjiDock, HmsItem } from './dock.js';
import { djiPublishAllowed, djiSubscribeAllowed, djiTopic } from './protocol.js';

/**
 * The emulated Dock 2 against a real broker holding it to a DJI gateway's ACL, with a scripted cloud peer
 * (an MQTT client with the server's rights) that answers as DJI-CLOUD-API.md says a cloud must.
 */

const DOCK = 'DOCK2SN0000001';
const DRONE = 'M3DSN000000001';
const RC = 'RCPLUS00000001';
const PASSWORD = 'dock-secret';
const HOME = { lat: 22.5431, lng: 113.9416, height: 42 };

interface Msg {
  topic: string;
  body: Record<string, unknown>;
}

/** The cloud side: records every message, answers status, config requests and need_reply events. */
class Cloud {
  readonly got: Msg[] = [];
  ackEvents = true;
  /** What flighttask_resource_get answers, by flight id (else a refusal). */
  readonly resources = new Map<string, { url: string; fingerprint: string }>();
  constructor(
    readonly client: MqttClient,
    readonly gw = DOCK,
  ) {
    client.on('message', (topic, payload) => {
      const body = JSON.parse(payload.toString('utf8')) as Record<string, unknown>;
      this.got.push({ topic, body });
      const { tid, bid, method } = body;
      if (topic === djiTopic.status(this.gw)) {
        this.publish(djiTopic.statusReply(this.gw), { tid, bid, timestamp: Date.now(), method, data: { result: 0 } });
      } else if (topic === djiTopic.requests(this.gw) && method === 'config') {
        this.publish(djiTopic.requestsReply(this.gw), { tid, bid, timestamp: Date.now(), method, data: { ntp_server_host: 'ntp.test', app_id: 'x', app_key: 'y', app_license: 'z' } });
      } else if (topic === djiTopic.requests(this.gw) && method === 'flighttask_resource_get') {
        const file = this.resources.get((body.data as { flight_id: string }).flight_id);
        this.publish(djiTopic.requestsReply(this.gw), { tid, bid, timestamp: Date.now(), method, data: file ? { result: 0, output: { file } } : { result: 319003 } });
      } else if (topic === djiTopic.events(this.gw) && body.need_reply === 1 && this.ackEvents) {
        this.publish(djiTopic.eventsReply(this.gw), { tid, bid, timestamp: Date.now(), method, data: { result: 0 } });
      }
    });
  }

  async subscribe(): Promise<void> {
    await this.client.subscribeAsync(['sys/product/+/status', 'thing/product/+/osd', 'thing/product/+/state', 'thing/product/+/events', 'thing/product/+/requests', 'thing/product/+/services_reply'], { qos: 1 });
  }

  publish(topic: string, body: Record<string, unknown>): void {
    this.client.publish(topic, JSON.stringify(body), { qos: 1 });
  }

  /** Sends a service and resolves with its services_reply data (matched on tid and bid). */
  async call(method: string, data: unknown, ids: { tid?: string; bid?: string } = {}): Promise<{ result: number; output?: unknown }> {
    const tid = ids.tid ?? randomUUID();
    const bid = ids.bid ?? randomUUID();
    const from = this.got.length;
    this.publish(djiTopic.services(this.gw), { tid, bid, timestamp: Date.now(), method, data });
    const reply = await until(`${method} reply`, () =>
      this.got.slice(from).find((m) => m.topic === djiTopic.servicesReply(this.gw) && m.body.tid === tid && m.body.bid === bid),
    );
    return reply.body.data as { result: number; output?: unknown };
  }

  on(topic: string, method?: string): Msg[] {
    return this.got.filter((m) => m.topic === topic && (method === undefined || m.body.method === method));
  }
}

let broker: TestBroker;
let http: Server;
let httpBase = '';
const files = new Map<string, Uint8Array>();
const hits = new Map<string, number>();

function route(photos: boolean[], drone?: { droneEnumValue: number; droneSubEnumValue: number }): Uint8Array {
  const waypoints = photos.map((photo, i) => {
    const p = offsetMetres(HOME, 120 * (i + 1), 60 * (i % 2));
    return { lat: Number(p.lat.toFixed(7)), lng: Number(p.lng.toFixed(7)), height: 40 + 5 * i, ...(photo ? { takephoto: 1 as const } : {}) };
  });
  const doc: PlanDocument = {
    fences: [],
    surveys: [],
    routes: [{ name: 'r', mission_type: 1, height_type: 0, waypoints, settings: { auto_speed: 12, return_height: 60 } }],
  };
  const out = toWpmlKmz(doc, { now: Date.UTC(2026, 0, 1), drone: drone ?? { droneEnumValue: 91, droneSubEnumValue: 0 } });
  if (!out.ok) throw new Error('export failed');
  return out.bytes;
}

function serve(name: string, bytes: Uint8Array): { url: string; fingerprint: string } {
  files.set(name, bytes);
  return { url: `${httpBase}/${name}`, fingerprint: createHash('md5').update(bytes).digest('hex') };
}

beforeAll(async () => {
  broker = await startBroker({
    passwords: new Map([[DOCK, PASSWORD]]),
    acl: { publish: (user, topic) => djiPublishAllowed(user, DRONE, topic), subscribe: (user, topic) => djiSubscribeAllowed(user, topic) },
  });
  http = createServer((req, res) => {
    const name = (req.url ?? '').slice(1);
    hits.set(name, (hits.get(name) ?? 0) + 1);
    const body = files.get(name);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.google-earth.kmz' }).end(Buffer.from(body));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpBase = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await broker.close();
});

let dock: DjiDock | null = null;
let cloudClient: MqttClient | null = null;
afterEach(async () => {
  await dock?.stop();
  dock = null;
  await cloudClient?.endAsync(true);
  cloudClient = null;
});

async function setup(opts: { seed?: number; clientId?: string } = {}): Promise<{ cloud: Cloud; dock: DjiDock }> {
  cloudClient = await broker.observer();
  const cloud = new Cloud(cloudClient);
  await cloud.subscribe();
  dock = await startDjiDock({
    mqttUrl: broker.url,
    username: DOCK,
    password: PASSWORD,
    clientId: opts.clientId ?? `any-${randomUUID()}`,
    dockSn: DOCK,
    droneSn: DRONE,
    position: HOME,
    seed: opts.seed ?? 7,
    timeScale: 100,
  });
  return { cloud, dock };
}

/** Sends prepare then execute for a kmz and acknowledges progress until the mission ends. */
async function fly(cloud: Cloud, d: DjiDock, flightId: string, kmz: Uint8Array): Promise<void> {
  const file = serve(`${flightId}.kmz`, kmz);
  const prepared = await cloud.call('flighttask_prepare', { flight_id: flightId, execute_time: Date.now(), task_type: 0, wayline_type: 0, file, rth_altitude: 60, out_of_control_action: 0, exit_wayline_when_rc_lost: 1 }, { bid: flightId });
  expect(prepared.result).toBe(0);
  expect(d.prepared()).toContain(flightId);
  expect((await cloud.call('flighttask_execute', { flight_id: flightId }, { bid: flightId })).result).toBe(0);
}

const progressOf = (cloud: Cloud, flightId: string): Record<string, unknown>[] =>
  cloud.on(djiTopic.events(DOCK), 'flighttask_progress').filter((m) => m.body.bid === flightId).map((m) => m.body);

describe('DJI Dock 2 emulator', () => {
  it('keeps fair weather when calm: a shower starts within a simulated day otherwise, never when calm (same seed)', async () => {
    for (const calm of [false, true]) {
      const d = await startDjiDock({ mqttUrl: broker.url, username: DOCK, password: PASSWORD, dockSn: DOCK, droneSn: DRONE, position: HOME, seed: 7, calm });
      try {
        // The weather's random walk driven directly, one simulated second per step: deterministic for the seed.
        const inner = d as unknown as { weather(dt: number): void; rainfall: number };
        let rained = false;
        for (let second = 0; second < 86_400 && !rained; second++) {
          inner.weather(1);
          rained = inner.rainfall > 0;
        }
        expect(rained, calm ? 'calm' : 'varied').toBe(!calm);
      } finally {
        await d.stop();
      }
    }
  });

  it('refuses a wrong password', async () => {
    await expect(
      startDjiDock({ mqttUrl: broker.url, username: DOCK, password: 'wrong', dockSn: DOCK, droneSn: DRONE, position: HOME, reconnectMs: 0 }),
    ).rejects.toThrow();
  });

  it('announces its topology, gets status_reply, asks for config and sends state and partial OSD', async () => {
    const { cloud, dock: d } = await setup();
    const acked = new Promise((resolve) => d.once('topoAcknowledged', resolve));
    const config = await new Promise<Record<string, unknown>>((resolve) => d.once('config', resolve));
    expect(config.ntp_server_host).toBe('ntp.test');
    await acked;
    const topo = cloud.on(djiTopic.status(DOCK), 'update_topo')[0]!.body.data as Record<string, unknown>;
    expect(topo).toMatchObject({ domain: 3, type: 2, sub_type: 0, thing_version: '1.2.0' });
    expect(topo.sub_devices).toEqual([expect.objectContaining({ sn: DRONE, domain: 0, type: 91, sub_type: 0 })]);
    expect(cloud.on(djiTopic.state(DOCK))[0]!.body).toMatchObject({ need_reply: 0, data: { firmware_version: expect.any(String) } });
    const capacity = await until('live_capacity state', () => cloud.on(djiTopic.state(DOCK)).find((m) => 'live_capacity' in (m.body.data as object)));
    const devices = (capacity.body.data as { live_capacity: { device_list: { sn: string; camera_list: { camera_index: string }[] }[] } }).live_capacity.device_list;
    expect(devices.map((d) => [d.sn, d.camera_list[0]!.camera_index])).toEqual([
      [DOCK, '165-0-7'],
      [DRONE, '80-0-0'],
    ]);

    // Partial dock OSD: one period's keys come in separate messages; the drone's OSD names the dock as gateway.
    await until('three kinds of dock OSD and a drone OSD', () => {
      const dockOsd = cloud.on(djiTopic.osd(DOCK)).map((m) => m.body.data as Record<string, unknown>);
      return dockOsd.some((o) => 'mode_code' in o) && dockOsd.some((o) => 'job_number' in o) && dockOsd.some((o) => 'drc_state' in o) && cloud.on(djiTopic.osd(DRONE)).length > 0;
    });
    const dockOsd = cloud.on(djiTopic.osd(DOCK)).map((m) => m.body);
    for (const m of dockOsd) expect(m.gateway).toBe(DOCK);
    const main = dockOsd.map((m) => m.data as Record<string, unknown>).find((o) => 'mode_code' in o)!;
    expect(main).not.toHaveProperty('job_number');
    expect(main).not.toHaveProperty('drc_state');
    expect(main).toMatchObject({ mode_code: 0, cover_state: 0, drone_in_dock: 1, latitude: HOME.lat, longitude: HOME.lng, height: HOME.height });
    expect(main.sub_device).toMatchObject({ device_sn: DRONE, device_model_key: '0-91-0', device_online_status: 1 });
    const step = dockOsd.map((m) => m.data as Record<string, unknown>).find((o) => 'drc_state' in o)!;
    expect(step).toMatchObject({ drc_state: 0, flighttask_step_code: 5 });
    expect(step).not.toHaveProperty('mode_code');
    const drone = cloud.on(djiTopic.osd(DRONE))[0]!.body;
    expect(drone.gateway).toBe(DOCK);
    const dd = drone.data as Record<string, unknown>;
    expect(dd).toMatchObject({ mode_code: 0, elevation: 0, height: HOME.height });
    expect((dd.battery as { batteries: unknown[] }).batteries).toHaveLength(1);
    expect(dd['80-0-0']).toMatchObject({ payload_index: '80-0-0' });

    // Drone powered off: update_topo with no sub-devices, and no more drone OSD fields in the dock's sub_device.
    const off = new Promise<{ subDevices: number }>((resolve) => d.once('topoAcknowledged', resolve));
    d.setDronePower(false);
    expect((await off).subDevices).toBe(0);
    const topos = cloud.on(djiTopic.status(DOCK), 'update_topo');
    expect((topos[topos.length - 1]!.body.data as { sub_devices: unknown[] }).sub_devices).toEqual([]);
    const from = cloud.got.length;
    await until('dock OSD with the drone off', () =>
      cloud.got.slice(from).find((m) => m.topic === djiTopic.osd(DOCK) && (m.body.data as { sub_device?: { device_online_status: number } }).sub_device?.device_online_status === 0),
    );
  });

  it('announces its topology again after a reconnect', async () => {
    const clientId = `dock-${randomUUID()}`;
    const { cloud, dock: d } = await setup({ clientId });
    let acks = 0;
    d.on('topoAcknowledged', () => acks++);
    await until('the first topology acknowledged', () => acks >= 1);
    const offline = new Promise<void>((resolve) => d.once('offline', resolve));
    (broker.broker as unknown as { clients: Record<string, { close(): void }> }).clients[clientId]!.close();
    await offline;
    const before = acks;
    const sentBefore = cloud.on(djiTopic.status(DOCK), 'update_topo').length;
    await until('the topology acknowledged again', () => acks > before);
    expect(d.online).toBe(true);
    expect(cloud.on(djiTopic.status(DOCK), 'update_topo').length).toBeGreaterThan(sentBefore);
  });

  it('flies a prepared wayline: cover, takeoff, waypoints with photos, return, landing, with every progress acknowledged', async () => {
    const { cloud, dock: d } = await setup();
    const flightId = 'flight-0001';
    const kmz = route([true, false, true, true]);
    const acknowledged: string[] = [];
    d.on('progressAcknowledged', (p) => acknowledged.push(p.tid));
    const ended = new Promise<{ status: string; media_count: number; result: number }>((resolve) => d.once('missionEnded', resolve));
    const prepareTid = randomUUID();
    const file = serve(`${flightId}.kmz`, kmz);
    const data = { flight_id: flightId, execute_time: Date.now(), task_type: 0, wayline_type: 0, file, rth_altitude: 60 };
    expect((await cloud.call('flighttask_prepare', data, { tid: prepareTid, bid: flightId })).result).toBe(0);
    // The same tid again is answered with the first outcome; a re-send with a new tid does not download again.
    expect((await cloud.call('flighttask_prepare', data, { tid: prepareTid, bid: flightId })).result).toBe(0);
    expect((await cloud.call('flighttask_prepare', data, { bid: flightId })).result).toBe(0);
    expect(hits.get(`${flightId}.kmz`)).toBe(1);
    // Two re-sends at once (new tids) of a flight not yet prepared download it once between them.
    const twice = serve('twice.kmz', kmz);
    const both = await Promise.all([1, 2].map(() => cloud.call('flighttask_prepare', { ...data, flight_id: 'flight-twice', file: twice }, { bid: 'flight-twice' })));
    expect(both.map((r) => r.result)).toEqual([0, 0]);
    expect(hits.get('twice.kmz')).toBe(1);
    expect((await cloud.call('flighttask_undo', { flight_ids: ['flight-twice'] })).result).toBe(0);
    expect((await cloud.call('flighttask_execute', { flight_id: flightId }, { bid: flightId })).result).toBe(0);

    const end = await ended;
    expect(end).toEqual({ flight_id: flightId, status: 'ok', result: 0, media_count: 3 });
    const terminal = await until('the terminal progress at the cloud', () =>
      progressOf(cloud, flightId).find((p) => (p.data as { output: { status: string } }).output.status === 'ok'),
    );
    await until('the terminal progress acknowledged', () => acknowledged.includes(terminal.tid as string));
    const progress = progressOf(cloud, flightId);
    // Nothing new after the terminal progress (a later message can only be a re-send of an earlier tid).
    const tids = progress.map((p) => p.tid);
    for (const t of tids.slice(tids.indexOf(terminal.tid) + 1)) expect(tids.indexOf(t)).toBeLessThanOrEqual(tids.indexOf(terminal.tid));
    for (const p of progress) expect(p).toMatchObject({ need_reply: 1, gateway: DOCK, bid: flightId });
    const outputs = progress.map((p) => (p.data as { output: { status: string; progress: { current_step: number; percent: number }; ext: Record<string, unknown> } }).output);
    const steps = new Set(outputs.map((o) => o.progress.current_step));
    for (const s of [7, 20, 21, 23, 24, 25]) expect(steps).toContain(s);
    const indexes = outputs.map((o) => o.ext.current_waypoint_index as number);
    expect(Math.max(...indexes)).toBe(3);
    expect(outputs.some((o) => o.ext.wayline_mission_state === 6)).toBe(true);
    const last = (terminal.data as { output: (typeof outputs)[number] }).output;
    expect(last).toMatchObject({ status: 'ok', progress: { percent: 100 }, ext: { flight_id: flightId, media_count: 3, wayline_mission_state: 9 } });
    expect(typeof last.ext.track_id).toBe('string');
    // Percent never goes back.
    const percents = progress.filter((p, i) => tids.indexOf(p.tid) === i).map((p) => (p.data as { output: (typeof outputs)[number] }).output.progress.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));

    // The OSD showed the flight: cover open, drone out of the dock and up, then home again.
    const dockOsd = cloud.on(djiTopic.osd(DOCK)).map((m) => m.body.data as Record<string, unknown>);
    expect(dockOsd.some((o) => o.cover_state === 1 && o.drone_in_dock === 0 && o.mode_code === 4)).toBe(true);
    const droneOsd = cloud.on(djiTopic.osd(DRONE)).map((m) => m.body.data as { elevation: number; height: number; mode_code: number });
    expect(droneOsd.some((o) => o.elevation > 30 && o.mode_code === 5 && Math.abs(o.height - o.elevation - HOME.height) < 0.2)).toBe(true);
    expect(d.drone()).toMatchObject({ inDock: true, elevation: 0 });
    expect(d.dockState()).toEqual({ mode_code: 0, cover_state: 0, flighttask_step_code: 5 });
    // A re-sent execute of a finished flight does not fly it again.
    expect((await cloud.call('flighttask_execute', { flight_id: flightId }, { bid: flightId })).result).toBe(0);
    expect(d.dockState().mode_code).toBe(0);
  });

  it('re-sends an unacknowledged progress with the same tid until the cloud answers', async () => {
    const { cloud, dock: d } = await setup();
    cloud.ackEvents = false;
    const first = new Promise<{ tid: string }>((resolve) => d.once('progress', resolve));
    await fly(cloud, d, 'flight-resend', route([false, false]));
    const { tid } = await first;
    await until('the first progress sent twice', () => progressOf(cloud, 'flight-resend').filter((p) => p.tid === tid).length >= 2);
    const acked = new Promise<{ tid: string }>((resolve) => d.on('progressAcknowledged', (p) => p.tid === tid && resolve(p)));
    cloud.ackEvents = true;
    cloud.publish(djiTopic.eventsReply(DOCK), { tid, bid: 'flight-resend', timestamp: Date.now(), method: 'flighttask_progress', data: { result: 0 } });
    await acked;
  });

  it('refuses a bad file: md5 mismatch, empty fingerprint, unobtainable, wrong drone; and unknown tasks', async () => {
    const { cloud } = await setup();
    const good = serve('good.kmz', route([true]));
    const base = { execute_time: Date.now(), task_type: 0, wayline_type: 0, rth_altitude: 60 };
    const prepare = async (flightId: string, file: { url: string; fingerprint: string }): Promise<number> =>
      (await cloud.call('flighttask_prepare', { ...base, flight_id: flightId, file }, { bid: flightId })).result;
    expect(await prepare('f-md5', { url: good.url, fingerprint: '0'.repeat(32) })).toBe(314005);
    expect(await prepare('f-empty', { url: good.url, fingerprint: '' })).toBe(314002);
    expect(await prepare('f-missing', { url: `${httpBase}/missing.kmz`, fingerprint: good.fingerprint })).toBe(314013);
    const notKmz = serve('text.kmz', new TextEncoder().encode('not a zip'));
    expect(await prepare('f-text', notKmz)).toBe(314003);
    expect(await prepare('f-m30', serve('m30.kmz', route([true], { droneEnumValue: 67, droneSubEnumValue: 0 })))).toBe(314003);
    expect(await prepare('bad.id', good)).toBe(325001);
    expect((await cloud.call('flighttask_execute', { flight_id: 'f-md5' }, { bid: 'f-md5' })).result).toBe(319003);
    expect((await cloud.call('return_home', {})).result).toBe(316024);
    expect((await cloud.call('no_such_method', {})).result).not.toBe(0);
    // Undo drops a prepared task: it can no longer be executed.
    expect(await prepare('f-undo', good)).toBe(0);
    expect((await cloud.call('flighttask_undo', { flight_ids: ['f-undo'] })).result).toBe(0);
    expect((await cloud.call('flighttask_execute', { flight_id: 'f-undo' }, { bid: 'f-undo' })).result).toBe(319003);
  });

  it('asks for a fresh URL with flighttask_resource_get when the stored one has expired', async () => {
    const { cloud, dock: d } = await setup();
    const fresh = serve('fresh.kmz', route([true, true]));
    cloud.resources.set('flight-expired', fresh);
    const prepare = await cloud.call(
      'flighttask_prepare',
      { flight_id: 'flight-expired', execute_time: Date.now(), task_type: 0, wayline_type: 0, rth_altitude: 60, file: { url: `${httpBase}/expired.kmz`, fingerprint: 'f'.repeat(32) } },
      { bid: 'flight-expired' },
    );
    expect(prepare.result).toBe(0);
    expect(d.prepared()).toContain('flight-expired');
    expect(cloud.on(djiTopic.requests(DOCK), 'flighttask_resource_get')[0]!.body.data).toEqual({ flight_id: 'flight-expired' });
    expect(hits.get('fresh.kmz')).toBe(1);
  });

  it('pauses and recovers a wayline, then returns home when asked, and resumes from the break point', async () => {
    const { cloud, dock: d } = await setup({ seed: 3 });
    const flightId = 'flight-pause';
    const ended = new Promise<{ status: string; result: number }>((resolve) => d.once('missionEnded', resolve));
    const executing = new Promise<void>((resolve) => d.on('progress', (p) => p.wayline_mission_state === 6 && resolve()));
    await fly(cloud, d, flightId, route([false, false, false, false, false, false]));
    await executing;
    type Out = { status: string; ext: { wayline_mission_state: number } };
    const outputsFrom = (from: number): Out[] =>
      cloud.got.slice(from).filter((m) => m.topic === djiTopic.events(DOCK) && m.body.method === 'flighttask_progress').map((m) => (m.body.data as { output: Out }).output);
    let from = cloud.got.length;
    expect((await cloud.call('flighttask_pause', {})).result).toBe(0);
    await until('a paused progress', () => outputsFrom(from).find((o) => o.status === 'paused' && o.ext.wayline_mission_state === 7));
    // While paused the drone holds its position: two later progress events report the same place.
    const at = d.drone();
    await new Promise<void>((resolve) => {
      let n = 0;
      d.on('progress', () => ++n === 2 && resolve());
    });
    expect(d.drone()).toMatchObject({ lat: at.lat, lng: at.lng });
    from = cloud.got.length;
    expect((await cloud.call('flighttask_recovery', {})).result).toBe(0);
    await until('a recovering progress', () => outputsFrom(from).find((o) => o.status === 'in_progress' && o.ext.wayline_mission_state === 8));
    expect((await cloud.call('return_home', {})).result).toBe(0);
    const end = await ended;
    expect(end).toMatchObject({ status: 'canceled', result: 322283 });
    expect(d.drone().inDock).toBe(true);
    const terminal = await until('the canceled progress at the cloud', () =>
      progressOf(cloud, flightId)
        .map((p) => p.data as { result: number; output: { status: string; ext: { break_point?: { index: number; state: number; progress: number; wayline_id: number } } } })
        .find((p) => p.output.status === 'canceled'),
    );
    expect(terminal.result).toBe(322283);
    const bp = terminal.output.ext.break_point!;
    expect(bp).toMatchObject({ wayline_id: 0 });
    expect(bp.progress).toBeGreaterThanOrEqual(0);
    expect(bp.progress).toBeLessThanOrEqual(1);

    // A new flight prepared with that break point starts where the first one stopped.
    const resumeAt = bp.state === 0 ? bp.index + 1 : bp.index;
    const resumed = new Promise<{ current_waypoint_index: number }>((resolve) => d.once('progress', resolve));
    const file = serve('resume.kmz', route([false, false, false, false, false, false]));
    expect((await cloud.call('flighttask_prepare', { flight_id: 'flight-resume', execute_time: Date.now(), task_type: 0, wayline_type: 0, rth_altitude: 60, file, break_point: bp }, { bid: 'flight-resume' })).result).toBe(0);
    expect((await cloud.call('flighttask_execute', { flight_id: 'flight-resume' }, { bid: 'flight-resume' })).result).toBe(0);
    expect((await resumed).current_waypoint_index).toBe(resumeAt);
  });

  it('reports HMS messages as hms events with the current list, and an empty list once all are cleared', async () => {
    const { cloud, dock: d } = await setup();
    const lists: HmsItem[][] = [];
    d.on('hms', (l) => lists.push(l));
    d.raiseHms('0x160900BF', { level: 2, module: 3 });
    d.raiseHms('0x16100083', { level: 1, device: 'drone', args: { component_index: 1 } });
    d.clearHms('0x160900BF');
    d.clearHms('0x16100083');
    const hms = await until('four hms events', () => {
      const got = cloud.on(djiTopic.events(DOCK), 'hms');
      return got.length >= 4 && got;
    });
    for (const m of hms) expect(m.body).toMatchObject({ need_reply: 0, gateway: DOCK });
    const sent = hms.map((m) => (m.body.data as { list: HmsItem[] }).list);
    expect(sent[0]).toEqual([{ level: 2, module: 3, in_the_sky: 0, code: '0x160900BF', device_type: '3-2-0', imminent: 0, args: { component_index: 0, sensor_index: 0 } }]);
    expect(sent[1]!.map((i) => [i.code, i.device_type])).toEqual([
      ['0x160900BF', '3-2-0'],
      ['0x16100083', '0-91-0'],
    ]);
    expect(sent[2]!.map((i) => i.code)).toEqual(['0x16100083']);
    expect(sent[3]).toEqual([]);
    expect(lists).toEqual(sent);
  });

  it('goes silent without disconnecting, and speaks again', async () => {
    const { cloud, dock: d } = await setup({ seed: 11 });
    await until('dock OSD', () => cloud.on(djiTopic.osd(DOCK)).length > 0);
    expect(d.drone().battery).toBeLessThan(99);
    d.goSilent();
    // Simulated time is measured by the charging battery (0.02 %/s): 10 s is five OSD periods.
    const simSeconds = async (s: number): Promise<void> => {
      const from = d.drone().battery;
      await until(`${s} simulated seconds`, () => d.drone().battery >= from + 0.02 * s);
    };
    // A reply published after goSilent arrives after everything the dock published before it.
    expect((await cloud.call('no_such_method', {})).result).not.toBe(0);
    const count = cloud.on(djiTopic.osd(DOCK)).length;
    await simSeconds(10);
    expect((await cloud.call('no_such_method', {})).result).not.toBe(0);
    expect(cloud.on(djiTopic.osd(DOCK))).toHaveLength(count);
    expect(d.online).toBe(true);
    d.speak();
    await until('dock OSD again', () => cloud.on(djiTopic.osd(DOCK)).length > count);
  });

  it('as Pilot 2 on an RC Plus: RC topology and OSD, the M30 under it, wayline services refused', async () => {
    cloudClient = await broker.observer();
    const cloud = new Cloud(cloudClient, RC);
    await cloud.subscribe();
    dock = await startDjiDock({ gateway: 'rc', mqttUrl: broker.url, username: RC, password: 'rc', dockSn: RC, droneSn: DRONE, position: HOME, timeScale: 100 });
    await until('the RC topology', () => cloud.on(djiTopic.status(RC), 'update_topo').length > 0);
    const topo = cloud.on(djiTopic.status(RC), 'update_topo')[0]!.body.data as Record<string, unknown>;
    expect(topo).toMatchObject({ domain: 2, type: 119, sub_type: 0 });
    expect(topo.sub_devices).toEqual([expect.objectContaining({ sn: DRONE, domain: 0, type: 67, sub_type: 0 })]);
    await until('RC and drone OSD', () => cloud.on(djiTopic.osd(RC)).length > 0 && cloud.on(djiTopic.osd(DRONE)).length > 0);
    const rcOsd = cloud.on(djiTopic.osd(RC))[0]!.body.data as Record<string, unknown>;
    expect(rcOsd).toMatchObject({ latitude: HOME.lat, longitude: HOME.lng, height: HOME.height, capacity_percent: expect.any(Number), wireless_link: expect.any(Object) });
    expect(rcOsd).not.toHaveProperty('mode_code');
    const drone = cloud.on(djiTopic.osd(DRONE))[0]!.body;
    expect(drone.gateway).toBe(RC);
    expect(drone.data).toHaveProperty('52-0-0');
    const file = serve('rc.kmz', route([true]));
    expect((await cloud.call('flighttask_prepare', { flight_id: 'rc-1', execute_time: Date.now(), task_type: 0, wayline_type: 0, file, rth_altitude: 60 }, { bid: 'rc-1' })).result).not.toBe(0);
    expect(hits.get('rc.kmz')).toBeUndefined();
  });

  it('answers live_start_push with an RTMP url and live_stop_push', async () => {
    const { cloud, dock: d } = await setup();
    const started = new Promise<{ url: string }>((resolve) => d.once('liveStart', resolve));
    const videoId = `${DRONE}/80-0-0/normal-0`;
    expect((await cloud.call('live_start_push', { url_type: 1, url: 'rtmp://127.0.0.1/live/x', video_id: videoId, video_quality: 0 })).result).toBe(0);
    expect((await started).url).toBe('rtmp://127.0.0.1/live/x');
    expect((await cloud.call('live_start_push', { url_type: 1, url: 'rtmp://127.0.0.1/live/x', video_id: videoId, video_quality: 0 })).result).toBe(513003);
    expect((await cloud.call('live_stop_push', { video_id: videoId })).result).toBe(0);
    expect((await cloud.call('live_stop_push', { video_id: videoId })).result).toBe(513011);
  });
});
