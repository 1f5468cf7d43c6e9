/**
 * The DJI adapter against a scripted DJI dock peer: an MQTT client speaking the DJI Cloud API wire
 * (docs/dji.md, DJI-CLOUD-API.md) and logging in as the dock with its DJI password. It announces its
 * topology, sends partial OSD, and answers services as the test script says; the console side is driven
 * through the same push 401 / 473 path the browser uses.
 */
import { createHash, randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import {
  DEVICE_CONTROL_FUNCTION,
  DEVICE_PUSH_FUNCTION,
  DjiResult,
  HEALTH_EVENT,
  PushMsgId,
  ResultCode,
  SERVER_MQTT_USER,
  DJI_OFFLINE_AFTER_MS,
  type DeviceListItem,
  type LinkEnvelope,
  type Page,
  type PushReply,
} from '@nest/contracts';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DjiLink } from './service.js';
import { DJI_HOME as HOME, djiLogin, registerDjiDock, startDjiTestServer, startEmulatedDock } from './testing.js';
import { userClient, type TestClient, type TestServer } from '../../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, addPatrolRoute, listen, live, until } from '../../../test/live.js';

interface Service {
  method: string;
  tid: string;
  bid: string;
  data: Record<string, unknown>;
}

/** Reads the entries of a zip (local headers; stored or deflated), enough for a route package. */
function unzip(bytes: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (bytes.readUInt32LE(at) === 0x04034b50) {
    const method = bytes.readUInt16LE(at + 8);
    const size = bytes.readUInt32LE(at + 18);
    const nameLen = bytes.readUInt16LE(at + 26);
    const extraLen = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 30, at + 30 + nameLen).toString('utf8');
    const start = at + 30 + nameLen + extraLen;
    const body = bytes.subarray(start, start + size);
    out.set(name, (method === 8 ? inflateRawSync(body) : body).toString('utf8'));
    at = start + size;
  }
  return out;
}

/** A DJI dock (gateway) with its drone, scripted by the test. */
class DockPeer {
  readonly services: Service[] = [];
  readonly replies: { topic: string; tid: string; bid: string; data: unknown }[] = [];
  /** How a service is answered (result code), by method; 0 when not set. */
  readonly answers = new Map<string, number>();
  readonly packages: { fingerprint: string; bytes: Buffer }[] = [];
  private constructor(
    readonly client: MqttClient,
    readonly gw: string,
    readonly drone: string,
  ) {
    client.on('message', (topic, payload) => {
      const m = JSON.parse(payload.toString('utf8')) as { tid: string; bid: string; method: string; data: Record<string, unknown> };
      if (topic.endsWith('/services')) {
        this.services.push(m);
        void this.answer(m);
      } else this.replies.push({ topic, tid: m.tid, bid: m.bid, data: m.data });
    });
  }

  static async connect(server: TestServer, gw: string, drone: string): Promise<DockPeer> {
    const login = djiLogin(server, gw);
    const client = await mqtt.connectAsync(login.mqttUrl, { clientId: `${gw}-pilot`, username: login.username, password: login.password, reconnectPeriod: 0 });
    await client.subscribeAsync([`sys/product/${gw}/status_reply`, ...['services', 'events_reply', 'requests_reply', 'state_reply'].map((c) => `thing/product/${gw}/${c}`)], { qos: 1 });
    return new DockPeer(client, gw, drone);
  }

  private async answer(m: Service): Promise<void> {
    if (m.method === 'flighttask_prepare') {
      const file = m.data.file as { url: string; fingerprint: string };
      const res = await fetch(file.url);
      const bytes = Buffer.from(await res.arrayBuffer());
      this.packages.push({ fingerprint: file.fingerprint, bytes });
    }
    const result = this.answers.get(m.method) ?? 0;
    this.send(`thing/product/${this.gw}/services_reply`, { tid: m.tid, bid: m.bid, timestamp: Date.now(), method: m.method, data: { result, output: { status: 'ok' } } });
  }

  send(topic: string, body: object): void {
    this.client.publish(topic, JSON.stringify(body), { qos: 1 });
  }

  topo(subDevices: object[]): void {
    this.send(`sys/product/${this.gw}/status`, { tid: randomUUID(), bid: randomUUID(), timestamp: Date.now(), method: 'update_topo', data: { domain: '3', type: 2, sub_type: 0, thing_version: '1.2.0', sub_devices: subDevices } });
  }

  osd(sn: string, data: object): void {
    this.send(`thing/product/${sn}/osd`, { tid: randomUUID(), bid: randomUUID(), timestamp: Date.now(), gateway: this.gw, data });
  }

  /** Sends an event and answers the events_reply it got (same tid and bid). */
  async event(method: string, bid: string, data: object, needReply: 0 | 1 = 1): Promise<void> {
    const tid = randomUUID();
    this.send(`thing/product/${this.gw}/events`, { tid, bid, timestamp: Date.now(), gateway: this.gw, method, need_reply: needReply, data });
    if (needReply) await until(() => this.replies.some((r) => r.topic.endsWith('/events_reply') && r.tid === tid && r.bid === bid), `events_reply of ${method}`);
  }

  async wait(method: string, from = 0): Promise<Service> {
    await until(() => this.services.slice(from).some((s) => s.method === method), `service ${method}`);
    return this.services.slice(from).find((s) => s.method === method)!;
  }

  end(): Promise<void> {
    return this.client.endAsync(true);
  }
}

const dockOsd = { latitude: HOME.lat, longitude: HOME.lng, height: 40, cover_state: 0, putter_state: 0, mode_code: 0, drone_in_dock: 1 };
const dockOsd2 = { drone_charge_state: { state: 0, capacity_percent: 92 }, sub_device: { device_sn: '', device_model_key: '0-91-0', device_online_status: 1, device_paired: 1 }, wind_speed: 2, rainfall: 0, environment_temperature: 20, humidity: 50 };
const droneOsd = (over: object = {}) => ({
  latitude: HOME.lat,
  longitude: HOME.lng,
  height: 40,
  elevation: 0,
  mode_code: 0,
  attitude_head: 0,
  horizontal_speed: 0,
  vertical_speed: 0,
  battery: { capacity_percent: 92, batteries: [{ index: 0, capacity_percent: 92, voltage: 16_000, temperature: 28 }] },
  position_state: { is_fixed: 2, rtk_number: 30, gps_number: 20 },
  storage: { total: 64 * 1024 * 1024, used: 1024 * 1024 },
  ...over,
});

let server: TestServer;
let base: string;
let op: TestClient;
const sockets: PushSocket[] = [];
const peers: DockPeer[] = [];

beforeAll(async () => {
  server = await startDjiTestServer();
  op = await userClient(server, { nick: 'Pilot', funList: [DEVICE_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION, 'device_list'] });
  base = await listen(server);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const p of peers) await p.end();
  await server?.close();
});

/** Registers a DJI dock with an M3D, connects its peer and brings it online with telemetry. */
async function dock(gw: string): Promise<DockPeer> {
  const drone = `${gw}-UAV`;
  await registerDjiDock(server, gw);
  const peer = await DockPeer.connect(server, gw, drone);
  peers.push(peer);
  peer.topo([{ sn: drone, domain: '0', type: '91', sub_type: '0', index: 'A', thing_version: '1.2.0' }]);
  peer.osd(gw, dockOsd);
  peer.osd(gw, { ...dockOsd2, sub_device: { ...dockOsd2.sub_device, device_sn: drone } });
  peer.osd(drone, droneOsd());
  const link = live(server).link;
  await until(() => link.isOnline(gw) && link.device(gw)?.telemetry?.drone?.battery.percent === 92, `${gw} online with telemetry`);
  return peer;
}

async function watching(sn: string): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(op)).code).toBe(ResultCode.OK);
  expect((await s.verifyDevice(op, sn)).code).toBe(ResultCode.OK);
  expect((await op.call('deviceConnect', { sn_id: sn })).body.code).toBe(ResultCode.OK);
  return s;
}

async function command(s: PushSocket, msgId: number, data: Record<string, unknown>): Promise<PushReply> {
  const from = s.frames.length;
  s.send(msgId, data);
  return s.wait((f) => f.msg_id === msgId, WAIT_LIMIT_MS, from);
}

const events = (): LinkEnvelope[] => {
  const seen: LinkEnvelope[] = [];
  live(server).link.on('event', (_sn, m) => seen.push(m));
  return seen;
};

describe('DJI dock through the DJI adapter', () => {
  it('update_topo is answered and brings the dock online; partial OSD merge into telemetry; an empty topology powers the drone off', async () => {
    const peer = await dock('DJI-T1');
    await until(() => peer.replies.some((r) => r.topic === 'sys/product/DJI-T1/status_reply' && (r.data as { result: number }).result === 0), 'the status_reply');
    const t = live(server).link.device('DJI-T1')!.telemetry!;
    expect(t.nest).toMatchObject({ lat: HOME.lat, lng: HOME.lng, hatch: 0, drone_power: 1 });
    expect(t.drone).toMatchObject({ sn: 'DJI-T1-UAV', alt: 40, rtk: { status: 4 }, powered: true });
    // A partial message changes only what it carries.
    peer.osd('DJI-T1', { cover_state: 1 });
    await until(() => live(server).link.device('DJI-T1')?.telemetry?.nest?.hatch === 1, 'the hatch open');
    expect(live(server).link.device('DJI-T1')!.telemetry!.nest!.env.temperature).toBe(20);
    const list = (await op.call<Page<DeviceListItem>>('deviceList', { type: 0, page: 0 })).body.data.list;
    expect(list.find((d) => d.sn_id === 'DJI-T1')).toMatchObject({ state: 1, position: { lat: HOME.lat, lng: HOME.lng } });
    peer.topo([]);
    await until(() => live(server).link.device('DJI-T1')?.telemetry?.nest?.drone_power === 0, 'the drone powered off');
    expect(live(server).link.isOnline('DJI-T1')).toBe(true);
  });

  it('flies a console route: kmz on a signed URL with its fingerprint and the drone model, progress acknowledged, a sortie with its track', async () => {
    const peer = await dock('DJI-T2');
    const seen = events();
    const route = await addPatrolRoute(server.db, 'DJI-T2', HOME);
    const s = await watching('DJI-T2');
    const cmdId = randomUUID();
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T2', cmd_type: 8, action_cmd: 1, value: route, cmd_id: cmdId });
    expect(r).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
    const flightId = (r.data as { flight_id: string }).flight_id;
    const prepare = await peer.wait('flighttask_prepare');
    expect(prepare.bid).toBe(flightId);
    expect(prepare.data).toMatchObject({ flight_id: flightId, task_type: 0, wayline_type: 0 });
    expect((await peer.wait('flighttask_execute')).bid).toBe(flightId);
    const pkg = peer.packages[0]!;
    expect(createHash('md5').update(pkg.bytes).digest('hex')).toBe(pkg.fingerprint);
    const files = unzip(pkg.bytes);
    expect([...files.keys()].sort()).toEqual(['wpmz/template.kml', 'wpmz/waylines.wpml']);
    expect(files.get('wpmz/template.kml')).toMatch(/<wpml:droneEnumValue>91<\/wpml:droneEnumValue><wpml:droneSubEnumValue>0</);
    expect(files.get('wpmz/template.kml')).toMatch(/<wpml:payloadEnumValue>80</);
    // An unsigned link is refused.
    const bare = (prepare.data.file as { url: string }).url.split('?')[0]!;
    expect((await fetch(bare)).status).toBe(404);
    // The dock may ask for the package again (its URL expired): a fresh link to the same bytes.
    const tid = randomUUID();
    peer.send('thing/product/DJI-T2/requests', { tid, bid: randomUUID(), timestamp: Date.now(), gateway: 'DJI-T2', method: 'flighttask_resource_get', data: { flight_id: flightId } });
    await until(() => peer.replies.some((x) => x.tid === tid), 'the resource reply');
    const resource = peer.replies.find((x) => x.tid === tid)!.data as { result: number; output: { file: { url: string; fingerprint: string } } };
    expect(resource).toMatchObject({ result: 0, output: { file: { fingerprint: pkg.fingerprint } } });
    expect(createHash('md5').update(Buffer.from(await (await fetch(resource.output.file.url)).arrayBuffer())).digest('hex')).toBe(pkg.fingerprint);

    const progress = (status: string, step: number, index: number) => ({
      result: 0,
      output: { status, progress: { current_step: step, percent: index * 15 }, ext: { flight_id: flightId, current_waypoint_index: index, wayline_mission_state: 6, media_count: index } },
    });
    await peer.event('flighttask_progress', flightId, progress('in_progress', 7, 0));
    await peer.event('flighttask_progress', flightId, progress('in_progress', 21, 0));
    for (let i = 1; i <= 3; i++) {
      peer.osd('DJI-T2-UAV', droneOsd({ mode_code: 5, latitude: HOME.lat + i * 0.001, elevation: 60 }));
      await peer.event('flighttask_progress', flightId, progress('in_progress', 21, i));
    }
    await until(async () => (await server.db.selectFrom('sorties').select('id').where('flight_id', '=', flightId).executeTakeFirst()) !== undefined, 'the sortie row');
    await peer.event('flighttask_progress', flightId, progress('ok', 25, 6));
    expect(seen.filter((m) => m.method === 'flight.start')).toHaveLength(1);
    expect(seen.some((m) => m.method === 'mission.progress' && (m.data as { state: string }).state === 'done')).toBe(true);
    await until(async () => {
      const row = await server.db.selectFrom('sorties').selectAll().where('flight_id', '=', flightId).executeTakeFirst();
      return row?.end_time !== null && row?.end_time !== undefined;
    }, 'the sortie ended');
    const sortie = await server.db.selectFrom('sorties').select('id').where('flight_id', '=', flightId).executeTakeFirstOrThrow();
    await until(async () => (await server.db.selectFrom('sortie_track').select('sort_id').where('sort_id', '=', sortie.id).execute()).length > 0, 'track points');
    expect(live(server).link.device('DJI-T2')?.state?.mission).toMatchObject({ flight_id: flightId, state: 'done' });

    // The same console command again does not start a second flight.
    const services = peer.services.length;
    const again = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T2', cmd_type: 8, action_cmd: 1, value: route, cmd_id: cmdId });
    expect(again.code).toBe(ResultCode.OK);
    expect(peer.services.slice(services).some((x) => x.method === 'flighttask_prepare')).toBe(false);
  });

  it('pause, recovery and return home become their DJI services with the flight as bid', async () => {
    const peer = await dock('DJI-T3');
    const route = await addPatrolRoute(server.db, 'DJI-T3', HOME);
    const s = await watching('DJI-T3');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T3', cmd_type: 8, action_cmd: 1, value: route });
    const flightId = (r.data as { flight_id: string }).flight_id;
    await peer.event('flighttask_progress', flightId, {
      result: 0,
      output: { status: 'in_progress', progress: { current_step: 21, percent: 10 }, ext: { flight_id: flightId, current_waypoint_index: 1, wayline_mission_state: 6 } },
    });
    peer.osd('DJI-T3-UAV', droneOsd({ mode_code: 5, elevation: 60 }));
    await until(() => live(server).link.device('DJI-T3')?.telemetry?.drone?.flight_state === 2, 'the drone in the air');
    const methods: string[] = [];
    for (const control_cmd of [1, 2, 3]) {
      const from = peer.services.length;
      expect(await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'DJI-T3', control_cmd })).toMatchObject({ code: ResultCode.OK });
      const sent = peer.services.slice(from)[0]!;
      expect(sent.bid).toBe(flightId);
      methods.push(sent.method);
    }
    expect(methods).toEqual(['flighttask_pause', 'flighttask_recovery', 'return_home']);
  });

  it('a refused prepare (MD5 mismatch) reaches the operator with its reason; an unsupported command sends nothing', async () => {
    const peer = await dock('DJI-T4');
    peer.answers.set('flighttask_prepare', DjiResult.MD5_MISMATCH);
    const route = await addPatrolRoute(server.db, 'DJI-T4', HOME);
    const s = await watching('DJI-T4');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T4', cmd_type: 8, action_cmd: 1, value: route });
    expect(r.data).toMatchObject({ outcome: 'rejected', reason: DjiResult.MD5_MISMATCH });
    expect(JSON.stringify(r)).toMatch(/MD5/);
    expect(peer.services.some((x) => x.method === 'flighttask_execute')).toBe(false);
    const from = peer.services.length;
    const zoom = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T4', cmd_type: 7, action_cmd: 1, value: 2 });
    expect(zoom.data).toMatchObject({ outcome: 'rejected', reason: DjiResult.UNSUPPORTED });
    expect(peer.services.length).toBe(from);
  });

  it('hms becomes one health event; requests are answered', async () => {
    const peer = await dock('DJI-T5');
    const seen = events();
    await peer.event('hms', randomUUID(), { list: [{ level: 2, module: 3, in_the_sky: 0, code: '0x160900BF', device_type: '3-2-0', imminent: 0, args: { component_index: 0, sensor_index: 0 } }] }, 0);
    await until(() => seen.some((m) => m.method === HEALTH_EVENT), 'the health event');
    expect(seen.find((m) => m.method === HEALTH_EVENT)!.data).toEqual({
      items: [{ level: 2, module: 3, code: '0x160900BF', key: 'dock_tip_0x160900BF', in_the_sky: false, device_type: '3-2-0', args: { component_index: 0, sensor_index: 0 } }],
    });
    const ask = (method: string, data: object) => {
      const tid = randomUUID();
      peer.send('thing/product/DJI-T5/requests', { tid, bid: randomUUID(), timestamp: Date.now(), gateway: 'DJI-T5', method, data });
      return until(() => peer.replies.some((x) => x.tid === tid), `reply to ${method}`).then(() => peer.replies.find((x) => x.tid === tid)!.data as Record<string, unknown>);
    };
    expect(await ask('config', { config_type: 'json', config_scope: 'product' })).toEqual({ ntp_server_host: 'pool.ntp.org', app_id: '', app_key: '', app_license: '' });
    // The product mounts the upload ingest: the dock is told its bucket, its own prefix and temporary credentials.
    expect(await ask('storage_config_get', { module: 0 })).toMatchObject({ result: 0, output: { bucket: 'nest-media', object_key_prefix: 'dji/DJI-T5', provider: 'minio' } });
    const bind = await ask('airport_bind_status', { devices: [{ sn: 'DJI-T5' }] });
    expect(bind).toMatchObject({ result: 0, output: { bind_status: [{ sn: 'DJI-T5', is_device_bind_organization: true }] } });
  });

  it('silence: a dock without OSD for the offline time goes offline, judged on the adapter clock after a probe', async () => {
    const peer = await dock('DJI-T6');
    const l = live(server);
    let clock = 1_000_000;
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    const own = new DjiLink({ url: l.brokerUrl, username: SERVER_MQTT_USER, password: l.secrets.serverPassword, devices: l.directory, log: quiet, waylines: null, now: () => clock });
    const changes: boolean[] = [];
    own.on('online', (sn, online) => sn === 'DJI-T6' && changes.push(online));
    own.start();
    try {
      await own.ready();
      peer.osd('DJI-T6', { mode_code: 0 });
      await until(() => own.isOnline('DJI-T6'), 'online on the second adapter');
      clock += DJI_OFFLINE_AFTER_MS - 1000;
      own.sweep();
      peer.osd('DJI-T6', { mode_code: 0 });
      await until(() => own.device('DJI-T6')?.heardAt === clock, 'the OSD read');
      // The clock moves past the deadline of the first OSD but not of the second: still online.
      clock += 2000;
      own.sweep();
      clock += DJI_OFFLINE_AFTER_MS;
      own.sweep();
      await until(() => !own.isOnline('DJI-T6'), 'offline after the silence');
      expect(changes).toEqual([true, false]);
    } finally {
      await own.stop();
    }
  });

  it("flies a route end to end with the simulator's emulated Dock 2 and M3D", async () => {
    const gw = 'DJI-EMU1';
    const l = live(server);
    const emulator = await startEmulatedDock(server, gw, { telemetry: true });
    try {
      const route = await addPatrolRoute(server.db, gw, HOME);
      const s = await watching(gw);
      const ended = new Promise<{ status: string }>((resolve) => emulator.once('missionEnded', resolve));
      const r = await command(s, PushMsgId.CONTROL, { sn_id: gw, cmd_type: 8, action_cmd: 1, value: route });
      expect(r).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
      const flightId = (r.data as { flight_id: string }).flight_id;
      expect(await ended).toMatchObject({ status: 'ok' });
      await until(async () => {
        const row = await server.db.selectFrom('sorties').selectAll().where('flight_id', '=', flightId).executeTakeFirst();
        return row?.end_time !== null && row?.end_time !== undefined;
      }, 'the sortie of the emulated flight ended');
      expect(l.link.device(gw)?.state?.mission).toMatchObject({ flight_id: flightId, state: 'done' });
    } finally {
      await emulator.stop();
    }
  });

  it('a one-key takeoff flies takeoff_to_point above the dock; the drone mode starts and ends its sortie', async () => {
    const peer = await dock('DJI-T7');
    const s = await watching('DJI-T7');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T7', cmd_type: 1, action_cmd: 1, value: 50 });
    expect(r).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
    const flightId = (r.data as { flight_id: string }).flight_id;
    const sent = await peer.wait('takeoff_to_point');
    expect(sent.data).toMatchObject({ flight_id: flightId, target_latitude: HOME.lat, target_longitude: HOME.lng, target_height: 90 });
    peer.osd('DJI-T7-UAV', droneOsd({ mode_code: 4, elevation: 5 }));
    await until(async () => (await server.db.selectFrom('sorties').select('id').where('flight_id', '=', flightId).executeTakeFirst()) !== undefined, 'the sortie started');
    peer.osd('DJI-T7-UAV', droneOsd({ mode_code: 3, elevation: 50, latitude: HOME.lat + 0.001 }));
    peer.osd('DJI-T7-UAV', droneOsd({ mode_code: 0, elevation: 0 }));
    await until(async () => {
      const row = await server.db.selectFrom('sorties').selectAll().where('flight_id', '=', flightId).executeTakeFirst();
      return row?.end_time !== null && row?.end_time !== undefined;
    }, 'the sortie ended');
  });

  it('an interrupted route stores its breakpoint and resumes from it through break_point; a repeated event is reported once', async () => {
    const peer = await dock('DJI-T8');
    const seen = events();
    const route = await addPatrolRoute(server.db, 'DJI-T8', HOME);
    const s = await watching('DJI-T8');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T8', cmd_type: 8, action_cmd: 1, value: route });
    const flightId = (r.data as { flight_id: string }).flight_id;
    const progress = (status: string, index: number) => ({
      result: status === 'canceled' ? DjiResult.USER_RTH : 0,
      output: { status, progress: { current_step: 21, percent: 30 }, ext: { flight_id: flightId, current_waypoint_index: index, wayline_mission_state: 6 } },
    });
    // The same event twice (the dock did not get the reply): acknowledged both times, reported once.
    const tid = randomUUID();
    const body = { tid, bid: flightId, timestamp: Date.now(), gateway: 'DJI-T8', method: 'flighttask_progress', need_reply: 1, data: progress('in_progress', 1) };
    peer.send('thing/product/DJI-T8/events', body);
    peer.send('thing/product/DJI-T8/events', body);
    await until(() => peer.replies.filter((x) => x.tid === tid).length === 2, 'both acknowledged');
    expect(seen.filter((m) => m.method === 'mission.progress')).toHaveLength(1);
    await peer.event('flighttask_progress', flightId, progress('in_progress', 2));
    await peer.event('flighttask_progress', flightId, progress('canceled', 2));
    await until(async () => (await server.db.selectFrom('missions').select('breakpoint').where('id', '=', route).executeTakeFirstOrThrow()).breakpoint === 2, 'the breakpoint stored');
    peer.osd('DJI-T8-UAV', droneOsd());
    await until(() => live(server).link.device('DJI-T8')?.telemetry?.drone?.flight_state === 4, 'back on the ground');
    const from = peer.services.length;
    const resume = await command(s, PushMsgId.CONTROL, { sn_id: 'DJI-T8', cmd_type: 8, action_cmd: 2, value: route });
    expect(resume).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
    const prepare = await peer.wait('flighttask_prepare', from);
    expect(prepare.data).toMatchObject({ break_point: { index: 2, state: 1 } });
  });

  it('what does not fit is dropped and counted, never thrown: not JSON, a bad OSD value, an unknown method on status, an unmatched reply', async () => {
    const peer = await dock('DJI-T9');
    const link = live(server).link;
    const dropped = () => ({ ...link.stats.dropped });
    const before = dropped();
    peer.client.publish('thing/product/DJI-T9/events', 'not json', { qos: 1 });
    peer.osd('DJI-T9', { latitude: 'north' });
    peer.send('sys/product/DJI-T9/status', { tid: randomUUID(), bid: '', timestamp: Date.now(), method: 'reboot', data: {} });
    peer.send('thing/product/DJI-T9/services_reply', { tid: randomUUID(), bid: 'nobody', timestamp: Date.now(), method: 'return_home', data: { result: 0 } });
    await until(() => {
      const now = dropped();
      return (['bad_envelope', 'bad_data', 'bad_method', 'unmatched_reply'] as const).every((k) => (now[k] ?? 0) > (before[k] ?? 0));
    }, 'the drops counted');
    // Still served: a valid OSD after them lands.
    peer.osd('DJI-T9', { cover_state: 1 });
    await until(() => link.device('DJI-T9')?.telemetry?.nest?.hatch === 1, 'a valid OSD after the bad ones');
    expect(link.isOnline('DJI-T9')).toBe(true);
  });

  it('progress of a flight this server did not start (restarted mid-flight) is followed to its end', async () => {
    const peer = await dock('DJI-T10');
    const seen = events();
    const flightId = randomUUID();
    const progress = (status: string, index: number) => ({
      result: 0,
      output: { status, progress: { current_step: 21, percent: index * 20 }, ext: { flight_id: flightId, current_waypoint_index: index, wayline_mission_state: 6 } },
    });
    await peer.event('flighttask_progress', flightId, progress('in_progress', 3));
    await peer.event('flighttask_progress', flightId, progress('ok', 4));
    const mine = seen.filter((m) => (m.data as { flight_id?: string }).flight_id === flightId).map((m) => m.method);
    expect(mine).toEqual(['mission.progress', 'mission.progress', 'flight.end']);
    expect(live(server).link.device('DJI-T10')?.state?.mission).toMatchObject({ flight_id: flightId, state: 'done', waypoint_count: 5 });
  });
});

describe('DjiLink stop', () => {
  it('a subscribe still in flight when stop() closes the connection is not logged as refused', async () => {
    // A broker that never answers the link's subscribe: stop() comes while it is in flight.
    let subscribing!: () => void;
    const inFlight = new Promise<void>((resolve) => (subscribing = resolve));
    const broker = await Aedes.createBroker({ authorizeSubscribe: () => subscribing() });
    const tcp = net.createServer((socket) => broker.handle(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const log = { info: (_: object, msg: string) => lines.push(msg), warn: (_: object, msg: string) => lines.push(msg), debug: () => undefined };
    const link = new DjiLink({ url: `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`, username: 'server', password: 'secret', devices: live(server).directory, log, waylines: null });
    try {
      link.start();
      await inFlight;
      // The link's own client, to wait for its socket to close: a failed subscribe is called back then.
      const client = (link as unknown as { client: MqttClient }).client;
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await link.stop();
      await closed;
      expect(lines.filter((l) => /refused/.test(l))).toEqual([]);
      expect(link.connected).toBe(false);
    } finally {
      await link.stop();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      tcp.close();
    }
  });
});
