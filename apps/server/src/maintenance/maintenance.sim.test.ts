/**
 * Device maintenance end to end with the REAL simulator over the embedded broker and HTTP: firmware upgrade
 * (download, .wkimg verify, install, reboot, new version in presence), calibration, beacon / azimuth (stored
 * on the device row; timeouts with a silent device), RTK (the Ntrip walk to fixed, or to network
 * unavailable), the nest log round trip, push 390, and the refusals: offline, in the air, disabled, held by
 * someone else, permission, other company, already running, bad input.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DEVICE_PUSH_FUNCTION,
  DEVICE_TEXT,
  LINK_VERSION,
  MaintFail,
  PushMsgId,
  ResultCode,
  callFunId,
  type DeviceOp,
  type DeviceOpPush,
  type MaintenanceLive,
} from '@nest/contracts';
import { buildWkimg } from '@nest/formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer, type TestUser } from '../../test/helpers.js';
import { PushSocket, RawDevice, listen, live, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { loadSimulator, type SimFleet } from '../../test/simulator.js';
import { FIRMWARE_SUBDIR } from './routes.js';

/**
 * Simulated seconds per real second. Not higher: a calibration (three items of 4 s) must still be running
 * when the tests that refuse a second run or drop the device mid-way act on it.
 */
const TIME_SCALE = 20;
const SIMULATED = ['MT-N1', 'MT-N2', 'MT-N3', 'MT-D1'];
const ALL_FUNCTIONS = ['/device/upgrade', '/device/calibrate', '/device/beacon', '/device/azimuth', '/device/rtk', '/device/log', '/device/ops', '/device/connect'].map(callFunId).concat(DEVICE_PUSH_FUNCTION);

let server: TestServer;
let fleet: SimFleet;
let httpBase: string;
let wsBase: string;
let op: TestClient & { account: TestUser };
let socket: PushSocket;
let romId: string;
let badRomId: string;

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Stores a firmware package the way the firmware screen does (file under DATA_DIR/firmware, row in `firmware`). */
async function addFirmware(version: string, code: number, opts: { corrupt?: boolean } = {}): Promise<string> {
  const pkg = Buffer.from(buildWkimg({ type: 17, version_code: code, version_name: version, model: '' }, Buffer.from(`image ${version} `.repeat(4000)), sha));
  const key = `${randomUUID()}.wkimg`;
  await mkdir(path.join(server.dataDir, FIRMWARE_SUBDIR), { recursive: true });
  await writeFile(path.join(server.dataDir, FIRMWARE_SUBDIR, key), pkg);
  const id = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  await server.db
    .insertInto('firmware')
    .values({
      id,
      type: 17,
      version_code: code,
      version_name: version,
      description: 'test',
      description_en: 'test',
      file_key: key,
      file_name: `${version}.wkimg`,
      size: pkg.length,
      md5: createHash('md5').update(pkg).digest('hex'),
      // A corrupt record: the device's digest check must refuse it.
      sha256: opts.corrupt ? sha(Buffer.from('other')) : sha(pkg),
      create_time: now,
      modified_time: now,
    })
    .execute();
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  const l = live(server);
  await l.link.ready();
  for (const sn of SIMULATED) await registerDevice(server, { sn_id: sn, type: sn.includes('-D') ? 'alone' : 'stable' });
  await registerDevice(server, { sn_id: 'MT-RAW' });
  await registerDevice(server, { sn_id: 'MT-OFF' });
  await registerDevice(server, { sn_id: 'MT-OTHER', company_id: 'gzGh' });
  wsBase = await listen(server);
  httpBase = wsBase.replace(/^ws/, 'http');
  const sim = await loadSimulator();
  fleet = await sim.startFleet({
    brokerUrl: l.brokerUrl,
    devices: SIMULATED.map((sn, i) => ({
      sn,
      password: l.devicePassword(sn),
      kind: sn.includes('-D') ? ('alone' as const) : ('stable' as const),
      name: sn,
      uavSn: sn.includes('-D') ? sn : `${sn}-UAV`,
      home: { lat: 22.54 + i * 0.01, lng: 114.05, alt: 30 },
      calm: true,
    })),
    // Operations report by events, sent at once; telemetry only says the devices are there. At 2 Hz only 1.5 s
    // of silence takes one offline (ending its running operation), which a busy machine's pauses never reach.
    rateHz: 2,
    ffmpegPath: null,
    validate: true,
    seed: 1,
    timeScale: TIME_SCALE,
    mediaUrl: httpBase,
  });
  await until(() => SIMULATED.every((sn) => l.link.isOnline(sn) && l.link.device(sn)?.telemetry?.drone), 'the fleet online with telemetry');
  romId = await addFirmware('sim-2.0.0', 200);
  badRomId = await addFirmware('sim-2.0.1', 201, { corrupt: true });
  op = await userClient(server, { nick: 'Maintainer', funList: ALL_FUNCTIONS });
  socket = await PushSocket.open(wsBase);
  expect((await socket.verifyUser(op)).code).toBe(ResultCode.OK);
});

afterAll(async () => {
  socket?.close();
  await fleet?.stop();
  await server?.close();
});

const frames = (id: string): DeviceOp[] =>
  socket.of(PushMsgId.DEVICE_OP).map((f) => (f.data as DeviceOpPush).op).filter((o) => o.id === id);

async function finished(id: string): Promise<DeviceOp> {
  await until(() => frames(id).some((o) => o.state !== 'running'), `the end of operation ${id} (push 390)`);
  return frames(id).find((o) => o.state !== 'running')!;
}

const rowOf = (id: string) => server.db.selectFrom('device_ops').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const opsCount = async () => Number((await server.db.selectFrom('device_ops').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);

describe('firmware upgrade', () => {
  it('downloads, verifies, installs, reboots and comes back with the new version (progress by push 390)', async () => {
    const res = await op.call<DeviceOp>('deviceUpgrade', { sn_id: 'MT-N1', rom_id: romId });
    expect(res.body.code).toBe(ResultCode.OK);
    const id = res.body.data.id;
    expect(res.body.data).toMatchObject({ kind: 'upgrade', state: 'running', user_name: 'Maintainer' });
    const end = await finished(id);
    expect(end).toMatchObject({ state: 'ok', progress: 100, outcome: { firmware: 'sim-2.0.0' } });
    const stages = frames(id).map((o) => o.outcome.stage);
    for (const stage of ['download', 'verify', 'install', 'reboot']) expect(stages).toContain(stage);
    const progress = frames(id).map((o) => o.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    await until(() => live(server).link.device('MT-N1')?.firmware === 'sim-2.0.0' && live(server).link.isOnline('MT-N1'), 'the new firmware in the presence of MT-N1');
    const list = await op.call<{ list: DeviceOp[]; total: number; live: MaintenanceLive }>('deviceOps', { sn_id: 'MT-N1' });
    expect(list.body.data.list[0]).toMatchObject({ id, state: 'ok' });
    expect(list.body.data.live).toMatchObject({ online: true, firmware: 'sim-2.0.0' });
  });

  it('a package whose digest does not match fails at verify', async () => {
    const res = await op.call<DeviceOp>('deviceUpgrade', { sn_id: 'MT-N2', rom_id: badRomId });
    expect(res.body.code).toBe(ResultCode.OK);
    const end = await finished(res.body.data.id);
    expect(end).toMatchObject({ state: 'failed', reason: MaintFail.VERIFY, outcome: { stage: 'verify' } });
    expect(live(server).link.device('MT-N2')?.firmware).not.toBe('sim-2.0.1');
  });

  it('is refused while offline (firmwareOffline), for an unknown package, and for a single-soldier drone', async () => {
    let res = await op.call('deviceUpgrade', { sn_id: 'MT-OFF', rom_id: romId }, { lang: 'en' });
    expect(res.body).toMatchObject({ code: ResultCode.DEVICE_OFFLINE, msg: DEVICE_TEXT.firmwareOffline.en });
    res = await op.call('deviceUpgrade', { sn_id: 'MT-N1', rom_id: 'nope' });
    expect(res.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    res = await op.call('deviceUpgrade', { sn_id: 'MT-D1', rom_id: romId });
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('is refused in the air or on a mission (firmwareOnMission)', async () => {
    const raw = await RawDevice.connect(server, 'MT-RAW');
    try {
      const drone = fleet.devices().find((d) => d.sn === 'MT-N3')!.telemetry().drone!;
      await raw.publish('presence', { v: LINK_VERSION, tid: randomUUID(), bid: '', ts: Date.now(), method: 'presence', data: { online: true, rate_hz: 1 } }, { qos: 1 });
      await raw.publish('telemetry', {
        v: LINK_VERSION,
        tid: randomUUID(),
        bid: '',
        ts: Date.now(),
        method: 'telemetry',
        data: { ...nestTelemetry(), drone: { ...drone, flight_state: 2, height: 50 } },
      });
      await until(() => live(server).link.device('MT-RAW')?.telemetry?.drone?.flight_state === 2, 'the raw device in the air');
      const before = await opsCount();
      const res = await op.call('deviceUpgrade', { sn_id: 'MT-RAW', rom_id: romId }, { lang: 'en' });
      expect(res.body).toMatchObject({ code: ResultCode.DEVICE_BUSY, msg: DEVICE_TEXT.firmwareOnMission.en });
      const cal = await op.call('deviceCalibrate', { sn_id: 'MT-RAW' });
      expect(cal.body.code).toBe(ResultCode.DEVICE_BUSY);
      expect(await opsCount()).toBe(before);
    } finally {
      await raw.end();
    }
  });
});

describe('calibration', () => {
  it('reports each item normal', async () => {
    const res = await op.call<DeviceOp>('deviceCalibrate', { sn_id: 'MT-N2' });
    expect(res.body.code).toBe(ResultCode.OK);
    const end = await finished(res.body.data.id);
    expect(end).toMatchObject({ state: 'ok', outcome: { results: { gyroscope: 0, compass: 0, acceleration: 0 } } });
  });

  it('reports abnormal items when a sensor fault is injected, and refuses a second run meanwhile', async () => {
    await live(server).link.command('MT-N3', 'fault.inject', { fault: 'imu_fault' });
    const res = await op.call<DeviceOp>('deviceCalibrate', { sn_id: 'MT-N3', items: JSON.stringify(['gyroscope', 'compass']) });
    expect(res.body.code).toBe(ResultCode.OK);
    const again = await op.call('deviceCalibrate', { sn_id: 'MT-N3' });
    expect(again.body.code).toBe(ResultCode.DEVICE_BUSY);
    const end = await finished(res.body.data.id);
    expect(end).toMatchObject({ state: 'failed', reason: MaintFail.CALIBRATION, outcome: { results: { gyroscope: 1, compass: 0 } } });
    expect(end.outcome.results).not.toHaveProperty('acceleration');
    await live(server).link.command('MT-N3', 'fault.clear', { fault: 'imu_fault' });
  });

  it('ends offline when the device drops mid-way', async () => {
    const res = await op.call<DeviceOp>('deviceCalibrate', { sn_id: 'MT-N3' });
    expect(res.body.code).toBe(ResultCode.OK);
    fleet.inject('MT-N3', 'offline');
    try {
      const end = await finished(res.body.data.id);
      expect(end).toMatchObject({ state: 'offline', reason: 1 });
    } finally {
      fleet.clear('MT-N3', 'offline');
    }
    await until(() => live(server).link.isOnline('MT-N3'), 'MT-N3 back online');
  });
});

describe('beacon and azimuth', () => {
  it('are set on the device and stored on the device row', async () => {
    const beacon = { lat: 22.541, lng: 114.051, height: 31.5 };
    const b = await op.call<DeviceOp>('deviceBeacon', { sn_id: 'MT-N2', beacon: JSON.stringify(beacon) });
    expect(b.body.data).toMatchObject({ kind: 'beacon', state: 'ok', progress: 100 });
    const a = await op.call<DeviceOp>('deviceAzimuth', { sn_id: 'MT-N2', azimuth: 135.5 });
    expect(a.body.data).toMatchObject({ kind: 'azimuth', state: 'ok' });
    const row = await server.db.selectFrom('devices').select(['azimuth', 'beacon']).where('sn_id', '=', 'MT-N2').executeTakeFirstOrThrow();
    expect(Number(row.azimuth)).toBe(135.5);
    expect(JSON.parse(row.beacon!)).toEqual(beacon);
    const list = await op.call<{ live: MaintenanceLive }>('deviceOps', { sn_id: 'MT-N2' });
    expect(list.body.data.live).toMatchObject({ azimuth: 135.5, beacon });
    await until(() => (live(server).link.device('MT-N2')?.state as { maintenance?: { azimuth?: number } } | null)?.maintenance?.azimuth === 135.5, 'the azimuth in the device state');
  });

  it('time out with the SPEC texts on a device that does not answer; nothing stored', async () => {
    const raw = await RawDevice.connect(server, 'MT-RAW');
    const m = server.app.nest.services.maintenance;
    const saved = { ...m.settings };
    // The device never answers: only how long the server waits (twice) matters, not the value.
    m.settings.commandTimeoutMs = 100;
    m.settings.resends = 1;
    try {
      await raw.publish('presence', { v: LINK_VERSION, tid: randomUUID(), bid: '', ts: Date.now(), method: 'presence', data: { online: true, rate_hz: 1 } }, { qos: 1 });
      await raw.publish('telemetry', { v: LINK_VERSION, tid: randomUUID(), bid: '', ts: Date.now(), method: 'telemetry', data: nestTelemetry() });
      await until(() => live(server).link.isOnline('MT-RAW'), 'the raw device online');
      const a = await op.call('deviceAzimuth', { sn_id: 'MT-RAW', azimuth: 90 }, { lang: 'en' });
      expect(a.body).toMatchObject({ code: ResultCode.DEVICE_NO_ANSWER, msg: DEVICE_TEXT.azimuthTimeout.en });
      const b = await op.call('deviceBeacon', { sn_id: 'MT-RAW', beacon: JSON.stringify({ lat: 1, lng: 2, height: 3 }) }, { lang: 'zh' });
      expect(b.body).toMatchObject({ code: ResultCode.DEVICE_NO_ANSWER, msg: DEVICE_TEXT.beaconTimeout.zh });
      const row = await server.db.selectFrom('devices').select(['azimuth', 'beacon']).where('sn_id', '=', 'MT-RAW').executeTakeFirstOrThrow();
      expect(Number(row.azimuth)).toBe(-1);
      expect(row.beacon).toBeNull();
      const ops = await op.call<{ list: DeviceOp[] }>('deviceOps', { sn_id: 'MT-RAW' });
      expect(ops.body.data.list.slice(0, 2).map((o) => [o.kind, o.state])).toEqual([
        ['beacon', 'timeout'],
        ['azimuth', 'timeout'],
      ]);
    } finally {
      Object.assign(m.settings, saved);
      await raw.end();
    }
  });

  it('refuse bad input without recording anything', async () => {
    const before = await opsCount();
    expect((await op.call('deviceAzimuth', { sn_id: 'MT-N2', azimuth: 400 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await op.call('deviceBeacon', { sn_id: 'MT-N2', beacon: '{"lat":95,"lng":0,"height":1}' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await op.call('deviceRtk', { sn_id: 'MT-N2', url: '', port: 2101 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await op.call('deviceRtk', { sn_id: 'MT-N2', url: 'caster.example.com' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await op.call('deviceCalibrate', { sn_id: 'MT-N2', items: '["magnet"]' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect(await opsCount()).toBe(before);
  });
});

describe('RTK', () => {
  it('walks the Ntrip states to receiving corrections and RTK fixed; the password is never stored or answered', async () => {
    const res = await op.call<DeviceOp>('deviceRtk', { sn_id: 'MT-N1', url: 'caster.example.com', port: 2101, mount_point: 'RTCM32', user: 'u1', password: 'secret-pw' });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(JSON.stringify(res.body)).not.toContain('secret-pw');
    expect(res.body.data.params).toMatchObject({ url: 'caster.example.com', port: 2101, password_set: true });
    const end = await finished(res.body.data.id);
    expect(end).toMatchObject({ state: 'ok', outcome: { ntrip_state: 7, rtk_status: 4 } });
    expect(frames(res.body.data.id).map((o) => o.outcome.ntrip_state)).toContain(3);
    const row = await rowOf(res.body.data.id);
    expect(row.params + row.outcome).not.toContain('secret-pw');
  });

  it('ends failed with Ntrip state 11 when the caster is unreachable (shown from telemetry while the drone is on)', async () => {
    // The single-soldier drone is powered (a docked nest drone sleeps and telemeters RTK 0 / Ntrip 0).
    const res = await op.call<DeviceOp>('deviceRtk', { sn_id: 'MT-D1', url: 'http://caster.invalid', port: 2101 });
    const end = await finished(res.body.data.id);
    expect(end).toMatchObject({ state: 'failed', reason: MaintFail.CASTER, outcome: { ntrip_state: 11, rtk_status: 0 } });
    await until(async () => {
      const l = await op.call<{ live: MaintenanceLive }>('deviceOps', { sn_id: 'MT-D1' });
      return l.body.data.live.ntrip_state === 11 && l.body.data.live.rtk_status === 0;
    }, 'Ntrip state 11 in the telemetry of MT-D1');
  });
});

describe('nest log', () => {
  it('arrives over HTTP and downloads through the signed link /device/ops hands out', async () => {
    const res = await op.call<DeviceOp>('deviceLog', { sn_id: 'MT-N1' });
    expect(res.body.code).toBe(ResultCode.OK);
    const end = await finished(res.body.data.id);
    expect(end.state).toBe('ok');
    expect(end.file!.name).toMatch(/^MT-N1-.*\.log$/);
    const listed = await op.call<{ list: DeviceOp[] }>('deviceOps', { sn_id: 'MT-N1' });
    const url = listed.body.data.list.find((o) => o.id === end.id)!.file!.url;
    expect(url).toMatch(new RegExp(`^/api/device/log/file/${end.id}\\?e=\\d+&s=[A-Za-z0-9_-]{43}$`));
    const got = await fetch(`${httpBase}${url}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toContain(end.file!.name);
    const text = await got.text();
    expect(text).toContain('nest log MT-N1');
    expect(text).toContain('command maint.log');
    expect(Buffer.byteLength(text)).toBe(end.file!.size);

    // No link, a session token instead of a link, a forged signature or another operation's link: refused.
    const bare = `${httpBase}/api/device/log/file/${end.id}`;
    expect((await fetch(bare)).status).toBe(401);
    expect((await fetch(`${bare}?token=${encodeURIComponent(op.token)}`)).status).toBe(401);
    expect((await fetch(`${httpBase}${url.replace(/s=.{5}/, 's=AAAAA')}`)).status).toBe(401);
    expect((await fetch(`${httpBase}${url.replace(end.id, randomUUID())}`)).status).toBe(401);
    // Only callers of /device/ops for a device they may see get a link.
    const stranger = await userClient(server, { companyId: 'gzGh', funList: ALL_FUNCTIONS });
    expect((await stranger.call('deviceOps', { sn_id: 'MT-N1' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const noFunction = await userClient(server, { funList: [] });
    expect((await noFunction.call('deviceOps', { sn_id: 'MT-N1' })).body.code).toBe(ResultCode.NO_PERMISSION);
  });

  it('the upload route takes only the device of a running log operation, with a matching digest', async () => {
    const l = live(server);
    const m = server.app.nest.services.maintenance;
    const row = await m.open({ sn_id: 'MT-N2', company_id: 'wk', kind: 'log', params: {}, u_id: '', user_name: 't' });
    const body = Buffer.from('log line\n');
    const put = (sn: string, digest = sha(body)) =>
      fetch(`${httpBase}/api/device/log/upload/${row.id}`, {
        method: 'PUT',
        headers: {
          authorization: `Basic ${Buffer.from(`${sn}:${l.devicePassword(sn)}`).toString('base64')}`,
          'content-type': 'application/octet-stream',
          'x-file-name': 'a.log',
          'x-content-sha256': digest,
        },
        body,
      });
    expect((await put('MT-N1')).status).toBe(404);
    expect((await put('MT-N2', sha(Buffer.from('x')))).status).toBe(422);
    expect((await fetch(`${httpBase}/api/device/log/upload/${row.id}`, { method: 'PUT', body })).status).toBe(401);
    expect((await put('MT-N2')).status).toBe(201);
    expect((await rowOf(row.id)).file_name).toBe('a.log');
    await m.change(row.id, { state: 'failed' });
    expect((await put('MT-N2')).status).toBe(409);
  });

  it('a single-soldier drone has no nest log', async () => {
    expect((await op.call('deviceLog', { sn_id: 'MT-D1' })).body.code).toBe(ResultCode.BAD_REQUEST);
  });
});

describe('firmware download route', () => {
  it('serves enabled packages to registered devices only', async () => {
    const l = live(server);
    const auth = (sn: string, pw = l.devicePassword(sn)) => ({ authorization: `Basic ${Buffer.from(`${sn}:${pw}`).toString('base64')}` });
    const ok = await fetch(`${httpBase}/api/device/rom/file/${romId}`, { headers: auth('MT-N2') });
    expect(ok.status).toBe(200);
    const bytes = Buffer.from(await ok.arrayBuffer());
    expect(sha(bytes)).toBe(ok.headers.get('x-content-sha256'));
    expect((await fetch(`${httpBase}/api/device/rom/file/${romId}`, { headers: auth('MT-N2', 'wrong') })).status).toBe(401);
    expect((await fetch(`${httpBase}/api/device/rom/file/${romId}`)).status).toBe(401);
    await server.db.updateTable('firmware').set({ state: 20 }).where('id', '=', badRomId).execute();
    expect((await fetch(`${httpBase}/api/device/rom/file/${badRomId}`, { headers: auth('MT-N2') })).status).toBe(404);
  });
});

describe('access', () => {
  it('needs the function of each call', async () => {
    const weak = await userClient(server, { funList: [callFunId('/device/ops')] });
    for (const [name, fields] of [
      ['deviceUpgrade', { sn_id: 'MT-N2', rom_id: romId }],
      ['deviceCalibrate', { sn_id: 'MT-N2' }],
      ['deviceBeacon', { sn_id: 'MT-N2', beacon: '{"lat":1,"lng":2,"height":3}' }],
      ['deviceAzimuth', { sn_id: 'MT-N2', azimuth: 10 }],
      ['deviceRtk', { sn_id: 'MT-N2', url: 'a', port: 1 }],
      ['deviceLog', { sn_id: 'MT-N2' }],
    ] as const) {
      expect((await weak.call(name, fields)).body.code, name).toBe(ResultCode.NO_PERMISSION);
    }
    expect((await weak.call('deviceOps', { sn_id: 'MT-N2' })).body.code).toBe(ResultCode.OK);
  });

  it("another company's device does not exist for the caller", async () => {
    const stranger = await userClient(server, { companyId: 'gzGh', funList: ALL_FUNCTIONS });
    expect((await stranger.call('deviceCalibrate', { sn_id: 'MT-N2' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await stranger.call('deviceOps', { sn_id: 'MT-N2' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await op.call('deviceOps', { sn_id: 'MT-OTHER' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('someone else holding the control connection blocks operations; the holder may operate', async () => {
    const holder = await userClient(server, { nick: 'Holder', funList: ALL_FUNCTIONS });
    expect((await holder.call('deviceConnect', { sn_id: 'MT-N2', action: 'connect' })).body.code).toBe(ResultCode.OK);
    try {
      expect((await op.call('deviceAzimuth', { sn_id: 'MT-N2', azimuth: 10 })).body.code).toBe(ResultCode.DEVICE_BUSY);
      expect((await holder.call<DeviceOp>('deviceAzimuth', { sn_id: 'MT-N2', azimuth: 12 })).body.data.state).toBe('ok');
    } finally {
      await holder.call('deviceConnect', { sn_id: 'MT-N2', action: 'release' });
    }
  });

  it('a disabled device is refused', async () => {
    await server.db.updateTable('devices').set({ enabled: 0 }).where('sn_id', '=', 'MT-OFF').execute();
    await live(server).directory.reload();
    expect((await op.call('deviceLog', { sn_id: 'MT-OFF' })).body.code).toBe(ResultCode.DEVICE_DISABLED);
  });
});

describe('running operations', () => {
  it('expire after their idle timeout (also rows a stopped server left behind)', async () => {
    const m = server.app.nest.services.maintenance;
    const row = await m.open({ sn_id: 'MT-OFF', company_id: 'wk', kind: 'upgrade', params: {}, u_id: op.account.u_id, user_name: 'x' });
    await server.db.updateTable('device_ops').set({ updated_at: Date.now() - 10 * 60_000 }).where('id', '=', row.id).execute();
    await m.sweep();
    expect(await rowOf(row.id)).toMatchObject({ state: 'timeout', reason: 1 });
    const end = await finished(row.id);
    expect(end.state).toBe('timeout');
  });

  it("a row left by an earlier server is finished by the device's next event", async () => {
    // Written straight into the table, as a stopped instance would have left it: this server never sent it.
    const id = randomUUID();
    const now = Date.now();
    await server.db
      .insertInto('device_ops')
      .values({ id, sn_id: 'MT-RAW', company_id: 'wk', kind: 'rtk', state: 'running', progress: 30, params: '{}', outcome: '{"stage":"connect"}', reason: 0, file_key: null, file_name: null, file_size: null, u_id: op.account.u_id, user_name: 'x', created_at: now, updated_at: now, finished_at: null })
      .execute();
    const raw = await RawDevice.connect(server, 'MT-RAW');
    // A live device keeps talking at the rate it announced (1 Hz): silent, it would rightly be taken for
    // offline after three periods, and a loaded machine may take that long to store the event below.
    const presence = () =>
      raw.publish('presence', { v: LINK_VERSION, tid: randomUUID(), bid: '', ts: Date.now(), method: 'presence', data: { online: true, rate_hz: 1 } }, { qos: 1 });
    const alive = setInterval(() => void presence().catch(() => undefined), 1000);
    try {
      await presence();
      await raw.publish(
        'events',
        { v: LINK_VERSION, tid: randomUUID(), bid: '', ts: Date.now(), method: 'maint.progress', data: { op_id: id, kind: 'rtk', state: 'ok', progress: 100, stage: 'done', ntrip_state: 7, rtk_status: 4 } },
        { qos: 1 },
      );
      const end = await finished(id);
      expect(end).toMatchObject({ state: 'ok', progress: 100, outcome: { ntrip_state: 7, rtk_status: 4 } });
    } finally {
      clearInterval(alive);
      await raw.end();
    }
  });

  it('a late event of a finished operation changes nothing', async () => {
    const m = server.app.nest.services.maintenance;
    const row = await m.open({ sn_id: 'MT-N2', company_id: 'wk', kind: 'calibrate', params: {}, u_id: '', user_name: 'x' });
    await m.change(row.id, { state: 'offline', reason: 1 });
    expect(await m.progress('MT-N2', { op_id: row.id, kind: 'calibrate', state: 'ok', progress: 100 })).toBeUndefined();
    expect(await m.progress('MT-N1', { op_id: row.id, kind: 'calibrate', state: 'ok', progress: 100 })).toBeUndefined();
    expect((await rowOf(row.id)).state).toBe('offline');
  });
});
