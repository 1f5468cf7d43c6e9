import { MIN_TELEMETRY_HZ, ResultCode, deviceSchema, type Device } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { RawDevice, envelope, live, mqttConnect, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { droneTelemetry as drone } from '@nest/contracts/test-fixtures';
import { findDeviceBySn } from './store.js';

const FUNS = ['device_list', 'device_add', 'device_edit', 'device_delete', 'device_enable', 'device_connect'];

let server: TestServer;
let admin: TestClient;
let wk: TestClient;
let wk2: TestClient;
let gz: TestClient;
let viewer: TestClient;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  wk = await userClient(server, { funList: FUNS, nick: 'Alice' });
  wk2 = await userClient(server, { funList: FUNS, nick: 'Bob' });
  gz = await userClient(server, { funList: FUNS, companyId: 'gzGh' });
  viewer = await userClient(server, { funList: ['device_list'] });
});
afterAll(async () => server?.close());

const point = (lat: number, lng: number) => JSON.stringify({ lat, lng });

/** A complete nest as the equipment form sends it. */
const nestFields = (sn: string, over: Fields = {}): Fields => ({
  type: 'stable',
  link_type: 1,
  airport_name: `Airport ${sn}`,
  uav_name: `UAV ${sn}`,
  sn_id: sn,
  uav_sn: `${sn}-UAV`,
  address: 'Nanshan pier 3',
  uav_model: 'M30',
  description: 'Harbour patrol',
  azimuth: 90,
  altn_point: point(22.541, 114.051),
  airport_point: point(22.54, 114.05),
  beacon: JSON.stringify({ lat: 22.5401, lng: 114.0501, height: 12.5 }),
  ...over,
});

async function must<D>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const countDevices = async () => Number((await server.db.selectFrom('devices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/**
 * A device on the link that keeps sending its latest telemetry (the drone in the air when `flying`), as a real
 * one does: it stays online however long a test takes. It announces the slowest rate, so only seconds of
 * silence would take it offline.
 */
class OnlineDevice {
  private readonly timer: NodeJS.Timeout;
  private constructor(
    readonly raw: RawDevice,
    private telemetry: object,
  ) {
    this.timer = setInterval(() => void raw.publish('telemetry', envelope('telemetry', this.telemetry)), 200);
    raw.client.once('close', () => clearInterval(this.timer));
  }

  static async connect(sn: string, flying = false): Promise<OnlineDevice> {
    const raw = await RawDevice.connect(server, sn);
    await raw.publish('presence', envelope('presence', { online: true, rate_hz: MIN_TELEMETRY_HZ }), { qos: 1, retain: true });
    const d = new OnlineDevice(raw, { ...nestTelemetry(), ...(flying ? { drone: drone({ flight_state: 2 }) } : {}) });
    await until(() => live(server).link.isOnline(sn) && live(server).link.device(sn)?.telemetry != null, `${sn} online`);
    return d;
  }

  get client() {
    return this.raw.client;
  }

  /** Sends this telemetry from now on (at once, then with every beat). */
  send(telemetry: object): Promise<void> {
    this.telemetry = telemetry;
    return this.raw.publish('telemetry', envelope('telemetry', telemetry));
  }

  end(): Promise<void> {
    clearInterval(this.timer);
    return this.raw.end();
  }
}
const online = (sn: string, flying = false) => OnlineDevice.connect(sn, flying);

describe('/device/add', () => {
  it('registers a nest with every field; the directory knows it and its broker login works', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-N1'));
    deviceSchema.parse(d);
    expect(d).toMatchObject({
      type: 'stable',
      link_type: 1,
      airport_name: 'Airport ADM-N1',
      uav_name: 'UAV ADM-N1',
      sn_id: 'ADM-N1',
      uav_sn: 'ADM-N1-UAV',
      address: 'Nanshan pier 3',
      uav_model: 'M30',
      description: 'Harbour patrol',
      azimuth: 90,
      altn_point: { lat: 22.541, lng: 114.051 },
      airport_point: { lat: 22.54, lng: 114.05 },
      beacon: { lat: 22.5401, lng: 114.0501, height: 12.5 },
      company: 'wk',
      enabled: true,
      state: 2,
    });
    expect(live(server).directory.get('ADM-N1')?.id).toBe(d.id);
    const listed = await wk.call<{ list: Device[] }>('deviceList', { type: 0, page: 0, search: 'ADM-N1' });
    expect(listed.body.data.list.map((x) => x.id)).toEqual([d.id]);
    // Same credentials as every device: the password derived from the sn.
    const dev = await online('ADM-N1');
    await dev.end();
  });

  it('registers a single-soldier drone without nest fields (azimuth -1, link type 3 by default)', async () => {
    const d = await must<Device>(wk, 'deviceAdd', { type: 'alone', uav_name: 'Hand drone', sn_id: 'ADM-A1', uav_sn: 'ADM-A1' });
    expect(d).toMatchObject({ type: 'alone', link_type: 3, airport_name: '', azimuth: -1, altn_point: null, airport_point: null, beacon: null });
  });

  it('refuses bad input and stores nothing', async () => {
    const before = await countDevices();
    const cases: [Fields, string][] = [
      [nestFields('ADM-B1', { airport_name: '' }), 'A nest needs an airport name'],
      [nestFields('ADM-B1', { airport_point: '' }), 'A nest needs an airport coordinate picked on the map'],
      [nestFields('ADM B1'), 'sn_id may only contain letters, digits, - and _ (at most 64 characters)'],
      [nestFields('ADM-B1', { uav_sn: 'a/b' }), 'uav_sn may only contain letters, digits, - and _ (at most 64 characters)'],
      [nestFields('nest-server'), 'sn_id may only contain letters, digits, - and _ (at most 64 characters)'],
      [{ type: 'alone', uav_name: 'x', sn_id: 'ADM-B1', azimuth: 10 }, 'A single-soldier drone has no nest: leave the airport name, alternate landing point, beacon and azimuth empty'],
      [{ type: 'alone', uav_name: 'x', sn_id: 'ADM-B1', beacon: JSON.stringify({ lat: 1, lng: 2, height: 3 }) }, 'A single-soldier drone has no nest: leave the airport name, alternate landing point, beacon and azimuth empty'],
      [{ type: 'alone', uav_name: 'x', sn_id: 'ADM-B1', link_type: 1 }, 'A single-soldier drone has no nest-side link: the link type cannot be 1'],
    ];
    for (const [fields, msg] of cases) {
      expect((await wk.call('deviceAdd', fields)).body, JSON.stringify(fields)).toMatchObject({ code: ResultCode.BAD_REQUEST, msg });
    }
    // Rules of the registry schema.
    const overs: Fields[] = [{ azimuth: 361 }, { azimuth: -2 }, { link_type: 4 }, { type: 'big' }, { uav_name: '' }, { altn_point: point(91, 0) }, { beacon: point(1, 2) }];
    for (const over of overs) {
      expect((await wk.call('deviceAdd', nestFields('ADM-B1', over))).body.code, JSON.stringify(over)).toBe(ResultCode.BAD_REQUEST);
    }
    expect(await countDevices()).toBe(before);
    expect(await findDeviceBySn(server.db, 'ADM-B1')).toBeUndefined();
  });

  it('refuses a serial number already registered, in any company', async () => {
    await registerDevice(server, { sn_id: 'ADM-GZ1', company_id: 'gzGh' });
    const res = await wk.call('deviceAdd', nestFields('ADM-GZ1'));
    expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The serial number ADM-GZ1 is already registered' });
    expect((await findDeviceBySn(server.db, 'ADM-GZ1'))?.company_id).toBe('gzGh');
    const zh = await wk.call('deviceAdd', nestFields('ADM-N1'), { lang: 'zh' });
    expect(zh.body.msg).toBe('设备序列号 ADM-N1 已被登记');
  });

  it('files under the caller company; only a super administrator chooses another', async () => {
    const res = await wk.call('deviceAdd', nestFields('ADM-C1', { company: 'gzGh' }));
    expect(res.body).toMatchObject({ code: ResultCode.NO_PERMISSION, msg: 'Only a super administrator may assign a device to another company' });
    expect(await findDeviceBySn(server.db, 'ADM-C1')).toBeUndefined();
    expect((await wk.call('deviceAdd', nestFields('ADM-C1', { company: 'nope' }))).body.msg).toBe('The company does not exist');
    const own = await must<Device>(wk, 'deviceAdd', nestFields('ADM-C1', { company: 'wk' }));
    expect(own.company).toBe('wk');
    const other = await must<Device>(admin, 'deviceAdd', nestFields('ADM-C2', { company: 'gzGh' }));
    expect(other.company).toBe('gzGh');
    const gzList = await gz.call<{ list: Device[] }>('deviceList', { type: 0, page: 0, search: 'ADM-C2' });
    expect(gzList.body.data.list.map((d) => d.sn_id)).toEqual(['ADM-C2']);
  });

  it('needs the device_add function', async () => {
    const res = await viewer.call('deviceAdd', nestFields('ADM-P1'));
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await findDeviceBySn(server.db, 'ADM-P1')).toBeUndefined();
  });
});

describe('/device/edit', () => {
  it('changes every field; optional ones left out become empty', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-E1'));
    const edited = await must<Device>(
      wk,
      'deviceEdit',
      nestFields('ADM-E1', { id: d.id, type: 'mobile', link_type: 2, airport_name: 'Truck 7', uav_name: 'Truck UAV', azimuth: '', altn_point: '', beacon: '', description: '', airport_point: point(23.1, 113.3) }),
    );
    expect(edited).toMatchObject({ id: d.id, type: 'mobile', link_type: 2, airport_name: 'Truck 7', uav_name: 'Truck UAV', azimuth: -1, altn_point: null, beacon: null, description: '', airport_point: { lat: 23.1, lng: 113.3 } });
    expect(live(server).directory.get('ADM-E1')?.airport_name).toBe('Truck 7');
    // A nest becomes a single-soldier drone only without its nest fields.
    const bad = await wk.call('deviceEdit', { id: d.id, type: 'alone', uav_name: 'Solo', sn_id: 'ADM-E1', airport_name: 'Truck 7' });
    expect(bad.body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await findDeviceBySn(server.db, 'ADM-E1'))?.type).toBe('mobile');
  });

  it('keeps the serial number', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-E2'));
    const res = await wk.call('deviceEdit', nestFields('ADM-E2X', { id: d.id }));
    expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: expect.stringContaining('serial number cannot change') });
    expect((await findDeviceBySn(server.db, 'ADM-E2'))?.id).toBe(d.id);
  });

  it("does not see another company's device, and needs device_edit", async () => {
    const gzDevice = await findDeviceBySn(server.db, 'ADM-GZ1');
    const res = await wk.call('deviceEdit', nestFields('ADM-GZ1', { id: gzDevice!.id, airport_name: 'Taken over' }));
    expect(res.body).toMatchObject({ code: ResultCode.NOT_FOUND_OBJECT, msg: 'The device does not exist or is not yours' });
    expect((await findDeviceBySn(server.db, 'ADM-GZ1'))?.airport_name).toBe('Nest ADM-GZ1');
    const d = await findDeviceBySn(server.db, 'ADM-E2');
    expect((await viewer.call('deviceEdit', nestFields('ADM-E2', { id: d!.id }))).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await wk.call('deviceEdit', nestFields('ADM-E2', { id: 'no-such-id' }))).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // A super administrator edits any company's device and may move it.
    const moved = await must<Device>(admin, 'deviceEdit', nestFields('ADM-GZ1', { id: gzDevice!.id, company: 'zrhk' }));
    expect(moved.company).toBe('zrhk');
  });
});

describe('held by someone else, on a mission, disabled', () => {
  it('refuses edit, delete and disable while another user holds the control connection; the holder may', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-H1'));
    const dev = await online('ADM-H1');
    try {
      expect((await wk2.call('deviceConnect', { sn_id: 'ADM-H1' })).body.code).toBe(ResultCode.OK);
      const edit = await wk.call('deviceEdit', nestFields('ADM-H1', { id: d.id, address: 'Elsewhere' }));
      expect(edit.body).toMatchObject({ code: ResultCode.DEVICE_BUSY, msg: 'Bob is connected to the device: it cannot be changed, disabled or deleted now' });
      expect((await wk.call('deviceDelete', { id: d.id })).body.code).toBe(ResultCode.DEVICE_BUSY);
      expect((await wk.call('deviceEnable', { id: d.id, enabled: 0 })).body.code).toBe(ResultCode.DEVICE_BUSY);
      const row = await findDeviceBySn(server.db, 'ADM-H1');
      expect(row).toMatchObject({ address: 'Nanshan pier 3', enabled: 1, state: 10 });
      // The holder itself may edit.
      expect((await wk2.call('deviceEdit', nestFields('ADM-H1', { id: d.id, address: 'Pier 4' }))).body.code).toBe(ResultCode.OK);
      // Disabling by the holder ends the hold.
      expect((await wk2.call('deviceEnable', { id: d.id, enabled: 0 })).body.code).toBe(ResultCode.OK);
      expect(live(server).status.holder('ADM-H1')).toBeNull();
    } finally {
      await dev.end().catch(() => undefined);
    }
  });

  it('refuses delete and disable while the drone is in the air', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-F1'));
    const dev = await online('ADM-F1', true);
    try {
      const del = await wk.call('deviceDelete', { id: d.id });
      expect(del.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: expect.stringContaining('on a mission') });
      expect((await wk.call('deviceEnable', { id: d.id, enabled: 0 })).body.code).toBe(ResultCode.BAD_REQUEST);
      expect(await findDeviceBySn(server.db, 'ADM-F1')).toMatchObject({ state: 10, enabled: 1 });
      // Landed: now it may go.
      await dev.send({ ...nestTelemetry(), drone: drone({ flight_state: 4 }) });
      await until(() => live(server).link.device('ADM-F1')?.telemetry?.drone?.flight_state === 4, 'ADM-F1 landed');
      expect((await wk.call('deviceDelete', { id: d.id })).body.code).toBe(ResultCode.OK);
    } finally {
      await dev.end().catch(() => undefined);
    }
  });

  it('a disabled device cannot be operated, edited or deleted, and its broker login is refused', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-D1'));
    const dev = await online('ADM-D1');
    const closed = new Promise<void>((resolve) => dev.client.once('close', () => resolve()));
    const off = await must<Device>(wk, 'deviceEnable', { id: d.id, enabled: 0 });
    expect(off.enabled).toBe(false);
    await closed;
    expect(live(server).link.isOnline('ADM-D1')).toBe(false);
    const { error } = await mqttConnect(live(server).brokerUrl, { clientId: 'ADM-D1', username: 'ADM-D1', password: live(server).devicePassword('ADM-D1') });
    expect(error).not.toBeNull();
    expect((await wk.call('deviceConnect', { sn_id: 'ADM-D1' })).body.code).toBe(ResultCode.DEVICE_DISABLED);
    const edit = await wk.call('deviceEdit', nestFields('ADM-D1', { id: d.id, address: 'x' }));
    expect(edit.body).toMatchObject({ code: ResultCode.DEVICE_DISABLED, msg: 'The device is disabled: enable it before changing or deleting it' });
    expect((await wk.call('deviceDelete', { id: d.id })).body.code).toBe(ResultCode.DEVICE_DISABLED);
    // Re-enabling works, then the device logs in again.
    expect((await must<Device>(wk, 'deviceEnable', { id: d.id, enabled: 1 })).enabled).toBe(true);
    const again = await online('ADM-D1');
    await again.end();
  });

  it('enable needs device_enable and stays in the company', async () => {
    const d = await findDeviceBySn(server.db, 'ADM-N1');
    expect((await viewer.call('deviceEnable', { id: d!.id, enabled: 0 })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await gz.call('deviceEnable', { id: d!.id, enabled: 0 })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('deviceEnable', { id: d!.id, enabled: 2 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await findDeviceBySn(server.db, 'ADM-N1'))?.enabled).toBe(1);
  });
});

describe('/device/delete', () => {
  it('deletes softly: gone from the list and the directory; the sn registers that record again', async () => {
    const d = await must<Device>(wk, 'deviceAdd', nestFields('ADM-X1'));
    expect((await gz.call('deviceDelete', { id: d.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await viewer.call('deviceDelete', { id: d.id })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await must<{ id: string }>(wk, 'deviceDelete', { id: d.id })).toEqual({ id: d.id, sn_id: 'ADM-X1' });
    expect(await findDeviceBySn(server.db, 'ADM-X1')).toMatchObject({ state: 20 });
    expect(live(server).directory.get('ADM-X1')).toBeUndefined();
    const listed = await wk.call<{ list: Device[] }>('deviceList', { type: 0, page: 0, search: 'ADM-X1' });
    expect(listed.body.data.list).toEqual([]);
    expect((await wk.call('deviceDelete', { id: d.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const { error } = await mqttConnect(live(server).brokerUrl, { clientId: 'ADM-X1', username: 'ADM-X1', password: live(server).devicePassword('ADM-X1') });
    expect(error).not.toBeNull();
    const back = await must<Device>(wk, 'deviceAdd', nestFields('ADM-X1', { airport_name: 'Back again' }));
    expect(back).toMatchObject({ id: d.id, airport_name: 'Back again', enabled: true });
    expect(live(server).directory.get('ADM-X1')?.airport_name).toBe('Back again');
  });
});
