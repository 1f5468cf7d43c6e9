// Database: SQLite only: push frames and their fan-out from the live simulator; the rows they touch are tested on both databases by the device and sortie tests.
/**
 * The live fleet end to end: the real simulator publishing over the embedded broker, the device link,
 * the status board, and push sockets of users of two companies.
 *
 * Rates and periods here are real time (telemetry, fleet batches, control holds). The tests compare the
 * frames with what the server took from the devices, and prove that a frame did not come with a round trip
 * on the socket after the moment it would have been sent (a socket's replies follow what was sent to it).
 */
import {
  DEVICE_PUSH_FUNCTION,
  FLEET_UPDATE_PERIOD_MS,
  LINK_VERSION,
  PushMsgId,
  ResultCode,
  deviceListItemSchema,
  deviceStatusPush,
  deviceTelemetryPush,
  fleetUpdatePush,
  type DeviceListItem,
  type FleetUpdatePush,
} from '@nest/contracts';
import { droneTelemetry } from '@nest/contracts/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, RawDevice, WAIT_LIMIT_MS, envelope, listen, live, nestTelemetry, registerDevice, sleep, startSim, until } from '../../test/live.js';
import { mediaLinks } from '../videos/links.js';
import { PUSH_BUFFER_LIMIT, PushClient, TELEMETRY_BURST } from './hub.js';
import type { LiveDevice } from '../link/adapter.js';
import type { SimFleet } from '../../test/simulator.js';

/**
 * The simulated devices' telemetry rate: fast enough that the online devices' map entries change within
 * fleet batch periods (a batch carries only the entries that changed), slow enough that only 1.5 s of silence (three periods) takes them offline, which a busy machine's
 * pauses never reach: these tests check the devices' status all along.
 */
const RATE_HZ = 2;
const HOLD_SECONDS = 2;
const OPERATOR_FUNS = [DEVICE_PUSH_FUNCTION, 'device_list', 'device_connect'];

let server: TestServer;
let fleet: SimFleet;
let base: string;
let admin: TestClient;
let opA: TestClient;
let opB: TestClient;
let opG: TestClient;
const sockets: PushSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ config: { deviceHoldSeconds: HOLD_SECONDS, videoIdleStopMs: 300 } });
  await live(server).link.ready();
  await registerDevice(server, { sn_id: 'FL-N1', type: 'stable', airport_name: 'Alpha nest' });
  await registerDevice(server, { sn_id: 'FL-D1', type: 'alone', airport_name: '', uav_name: 'Bravo drone' });
  await registerDevice(server, { sn_id: 'FL-N2', type: 'mobile', airport_name: 'Charlie (never online)' });
  await registerDevice(server, { sn_id: 'FL-OFF', type: 'stable_mini', airport_name: 'Delta (disabled)', enabled: false });
  await registerDevice(server, { sn_id: 'FL-X1', type: 'stable', airport_name: 'Other company nest', company_id: 'gzGh' });
  fleet = await startSim(server, [{ sn: 'FL-N1' }, { sn: 'FL-D1', kind: 'alone' }, { sn: 'FL-X1' }], { rateHz: RATE_HZ, calm: true });
  await until(() => ['FL-N1', 'FL-D1', 'FL-X1'].every((sn) => live(server).link.isOnline(sn)), 'the fleet online');
  admin = await adminClient(server);
  opA = await userClient(server, { nick: 'Operator A', funList: OPERATOR_FUNS });
  opB = await userClient(server, { nick: 'Operator B', funList: OPERATOR_FUNS });
  opG = await userClient(server, { nick: 'Other company', funList: OPERATOR_FUNS, companyId: 'gzGh' });
  base = await listen(server);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await fleet?.stop();
  await server?.close();
});

async function socket(c?: TestClient): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  if (c) expect((await s.verifyUser(c)).code).toBe(ResultCode.OK);
  return s;
}

async function watching(c: TestClient, sn: string): Promise<PushSocket> {
  const s = await socket(c);
  expect(await s.verifyDevice(c, sn)).toMatchObject({ code: ResultCode.OK, msg_id: 200, data: { sn_id: sn } });
  return s;
}

const statusFrames = (s: PushSocket, sn: string) =>
  s.of(PushMsgId.DEVICE_STATUS).map((f) => deviceStatusPush.parse(f.data)).filter((d) => d.sn_id === sn);

/**
 * Resolves once the socket got every frame the server sent it before: the server handles a socket's frames in
 * order, so the reply to this heartbeat (or its refusal, on a socket that never verified) comes after them.
 */
async function drained(s: PushSocket): Promise<void> {
  await s.request(PushMsgId.HEARTBEAT);
}

/**
 * Records when the server took each telemetry message of `sns` from the broker (the link's clock), from now
 * until `stop`. The hub sends the live frames of a message before this listener runs (it listens first).
 */
function telemetryTaken(...sns: string[]): { all: () => number[]; of: (sn: string) => number[]; stop: () => void } {
  const taken: { sn: string; at: number }[] = [];
  const onTelemetry = (sn: string, d: LiveDevice) => {
    if (sns.includes(sn)) taken.push({ sn, at: d.telemetryAt! });
  };
  live(server).link.on('telemetry', onTelemetry);
  return {
    all: () => taken.map((t) => t.at),
    of: (sn) => taken.filter((t) => t.sn === sn).map((t) => t.at),
    stop: () => live(server).link.off('telemetry', onTelemetry),
  };
}

describe('300 DEVICE_TELEMETRY', () => {
  it('reaches a socket that verified the user (100) and the device (200), at the device rate', async () => {
    const s = await watching(opA, 'FL-N1');
    const snapshot = await s.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS, WAIT_LIMIT_MS);
    expect(deviceStatusPush.parse(snapshot.data)).toEqual({ sn_id: 'FL-N1', state: 1, connected_by: null });
    // Every telemetry message the server takes from the device reaches the socket, as one frame: the device
    // sends at the rate it announced, which the throttle (that rate, plus a burst) lets through. The simulator
    // and the server share this process, so a busy machine slows both alike and messages never bunch up.
    const taken = telemetryTaken('FL-N1');
    try {
      await until(() => taken.all().length >= 4, 'four telemetry messages of FL-N1 taken by the server');
    } finally {
      taken.stop();
    }
    await drained(s);
    const times = new Set(taken.all());
    const frames = s.of(PushMsgId.DEVICE_TELEMETRY).filter((f) => times.has(deviceTelemetryPush.parse(f.data).at));
    expect(frames).toHaveLength(taken.all().length);
    for (const f of frames) {
      const data = deviceTelemetryPush.parse(f.data);
      expect(data).toMatchObject({ sn_id: 'FL-N1', state: 1 });
      expect((data.telemetry as { nest?: unknown }).nest).toBeDefined();
    }
  });

  it("carries the device's own telemetry text when it reads back the same, else the telemetry serialised", async () => {
    // Another company's device (kept out of the wk lists below), watched by the super administrator.
    await registerDevice(server, { sn_id: 'FL-TEXT', company_id: 'zrhk' });
    const d = await RawDevice.connect(server, 'FL-TEXT');
    try {
      await d.publish('presence', envelope('presence', { online: true, rate_hz: 2 }), { qos: 1, retain: true });
      const s = await watching(admin, 'FL-TEXT');
      const texts: string[] = [];
      s.ws.on('message', (m: Buffer) => texts.push(m.toString('utf8')));
      const sent = async (sn: string, data: string) => {
        await d.publish('telemetry', `{"v":${LINK_VERSION},"tid":"${sn}","bid":"","ts":${Date.now()},"method":"telemetry","data":${data}}`);
        return deviceTelemetryPush.parse((await s.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY && JSON.stringify(f.data).includes(sn))).data);
      };
      // Indented, with unicode and a small number: no serialiser of ours writes it so.
      const telemetry = { drone: droneTelemetry({ sn: '无人机 é', v_speed: -1e-7 }) };
      const written = JSON.stringify(telemetry, null, 1);
      expect((await sent('无人机 é', written)).telemetry).toEqual(telemetry);
      expect(texts.filter((t) => t.includes(written))).toHaveLength(1);
      // Negative zero reads back as 0 once serialised: the frame is serialised, as it always was.
      const negative = JSON.stringify({ drone: droneTelemetry({ sn: 'minus zero' }) }, null, 1).replace('"pitch": 0', '"pitch": -0');
      expect(negative).toContain('"pitch": -0');
      const frame = await sent('minus zero', negative);
      expect((frame.telemetry as { drone: { pitch: number } }).drone.pitch).toBe(0);
      expect(texts.some((t) => t.includes(negative))).toBe(false);
    } finally {
      await d.end();
    }
  });

  it('reaches nobody who did not verify: no 100, or 100 without 200', async () => {
    const bare = await socket();
    const userOnly = await socket(opA);
    // Telemetry of the company's devices handled after both sockets were open, then a round trip on each.
    const taken = telemetryTaken('FL-N1', 'FL-D1');
    try {
      await until(() => taken.of('FL-N1').length > 0 && taken.of('FL-D1').length > 0, 'telemetry of FL-N1 and FL-D1 taken by the server');
    } finally {
      taken.stop();
    }
    await drained(bare);
    await drained(userOnly);
    // Only the answers to what each socket asked: the unverified heartbeat is refused, nothing else came.
    expect(bare.frames.map((f) => [f.msg_id, f.code])).toEqual([[PushMsgId.HEARTBEAT, ResultCode.LOGIN_EXPIRED]]);
    expect(userOnly.frames.map((f) => [f.msg_id, f.code])).toEqual([
      [PushMsgId.USER_VERIFY, ResultCode.OK],
      [PushMsgId.HEARTBEAT, ResultCode.OK],
    ]);
  });

  it('never reaches another company: 200 on its device is refused, and fleet batches leave it out', async () => {
    const s = await socket(opG);
    expect(await s.verifyDevice(opG, 'FL-N1')).toMatchObject({ code: ResultCode.NOT_FOUND_OBJECT, msg_id: 200 });
    expect(await s.verifyDevice(opG, 'NO-SUCH-SN')).toMatchObject({ code: ResultCode.NOT_FOUND_OBJECT, msg_id: 200 });
    expect(await s.verifyDevice(opG, 'FL-X1')).toMatchObject({ code: ResultCode.OK });
    // The complete first batch and a periodic one, while the wk devices move.
    const taken = telemetryTaken('FL-N1', 'FL-D1');
    try {
      expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).code).toBe(ResultCode.OK);
      await until(() => s.of(PushMsgId.FLEET_UPDATE).length >= 2 && s.of(PushMsgId.DEVICE_TELEMETRY).length > 0, 'two fleet batches and telemetry of FL-X1');
      await until(() => taken.of('FL-N1').length > 0 && taken.of('FL-D1').length > 0, 'telemetry of FL-N1 and FL-D1 taken by the server');
    } finally {
      taken.stop();
    }
    await drained(s);
    const text = JSON.stringify(s.frames);
    for (const sn of ['FL-N1', 'FL-D1', 'FL-N2']) expect(text).not.toContain(sn);
    const batches = s.of(PushMsgId.FLEET_UPDATE).map((f) => fleetUpdatePush.parse(f.data));
    expect(new Set(batches.flatMap((b) => b.devices.map((d) => d.sn_id)))).toEqual(new Set(['FL-X1']));
  });
});

describe('throttling and backpressure', () => {
  it('gives a socket at most the announced rate of a device that sends faster', async () => {
    // Another company's device (kept out of the wk lists below), watched by the super administrator.
    await registerDevice(server, { sn_id: 'FL-FAST', company_id: 'zrhk' });
    const d = await RawDevice.connect(server, 'FL-FAST');
    try {
      const ANNOUNCED_HZ = 2;
      await d.publish('presence', envelope('presence', { online: true, rate_hz: ANNOUNCED_HZ }), { qos: 1, retain: true });
      const s = await watching(admin, 'FL-FAST');
      const from = s.frames.length;
      // 20 Hz for a second while announcing 2 Hz.
      const taken = telemetryTaken('FL-FAST');
      try {
        for (let i = 0; i < 20; i++) {
          await d.publish('telemetry', envelope('telemetry', nestTelemetry()));
          await sleep(50);
        }
        await until(() => taken.all().length === 20, 'the 20 telemetry messages taken by the server');
      } finally {
        taken.stop();
      }
      await drained(s);
      const n = s.frames.slice(from).filter((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY).length;
      // At most the burst plus the announced rate over the time the server took them, by its own clock whatever
      // the machine's load (5 ms for the hub reading the clock apart from the link); and more than the burst:
      // the rate refills it within the second.
      const spanMs = taken.all()[19]! - taken.all()[0]! + 5;
      expect(n).toBeLessThanOrEqual(Math.floor(TELEMETRY_BURST + (ANNOUNCED_HZ * spanMs) / 1000));
      expect(n).toBeGreaterThan(TELEMETRY_BURST);
    } finally {
      await d.end();
    }
  });

  it('drops live frames for a socket whose send buffer is full, never replies', () => {
    const sent: string[] = [];
    const ws = { readyState: 1, bufferedAmount: PUSH_BUFFER_LIMIT + 1, send: (m: string) => sent.push(m) };
    const client = new PushClient(ws as never);
    expect(client.sendLive(PushMsgId.DEVICE_TELEMETRY, {})).toBe(false);
    expect(client.dropped).toBe(1);
    client.send(ResultCode.OK, PushMsgId.HEARTBEAT);
    expect(sent).toHaveLength(1);
    ws.bufferedAmount = 0;
    expect(client.sendLive(PushMsgId.DEVICE_TELEMETRY, {})).toBe(true);
    expect(sent).toHaveLength(2);
  });
});

describe('310 FLEET_UPDATE', () => {
  it('sends a complete first batch, then one batch per second with at most one entry per device', async () => {
    const s = await socket(opA);
    const from = s.frames.length;
    expect(await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).toMatchObject({ code: ResultCode.OK, data: { on: true } });
    const first = fleetUpdatePush.parse((await s.wait((f) => f.msg_id === PushMsgId.FLEET_UPDATE, WAIT_LIMIT_MS, from)).data);
    // Every visible device with a known position, online or not (the disabled one too: it is registered).
    expect(first.devices.map((d) => d.sn_id).sort()).toEqual(['FL-D1', 'FL-N1', 'FL-N2', 'FL-OFF']);
    expect(first.devices.find((d) => d.sn_id === 'FL-N2')).toMatchObject({ state: 2, lat: 22.54, lng: 114.05 });
    expect(first.devices.find((d) => d.sn_id === 'FL-N1')).toMatchObject({ state: 1 });
    const batchesOf = (socket: PushSocket, after: number) => socket.frames.slice(after).filter((f) => f.msg_id === PushMsgId.FLEET_UPDATE);
    await until(() => batchesOf(s, from).length >= 3, 'the first batch and two periodic ones');
    const batches = batchesOf(s, from);
    // The first at once, then one per period on the hub's fleet clock. As received, never much closer than a
    // period (a batch per change would come at the devices' rate, four per period here; a second timer at once).
    for (let i = 1; i < batches.length; i++) expect(batches[i]!.at - batches[i - 1]!.at).toBeGreaterThanOrEqual(FLEET_UPDATE_PERIOD_MS / 2);
    // What the socket's map shows, entry by entry, as the batches arrive.
    const shown = new Map(first.devices.map((d) => [d.sn_id, d]));
    for (const b of batches.slice(1)) {
      const data: FleetUpdatePush = fleetUpdatePush.parse(b.data);
      const sns = data.devices.map((d) => d.sn_id);
      expect(new Set(sns).size).toBe(sns.length);
      // Only what changed: entries of the online devices, each different from what the map shows (a device
      // sending the same position, heading, battery and height is left out), never the silent ones.
      expect(sns.every((sn) => sn === 'FL-D1' || sn === 'FL-N1')).toBe(true);
      for (const d of data.devices) {
        expect(d).not.toEqual(shown.get(d.sn_id));
        shown.set(d.sn_id, d);
      }
    }
    expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: false })).code).toBe(ResultCode.OK);
    const after = s.frames.length;
    // Another socket subscribes now: its first periodic batch comes after the one this socket would have had
    // next (the same clock, and at least most of a period after its first batch), and then a round trip on this one.
    const other = await socket(opB);
    const otherFrom = other.frames.length;
    expect((await other.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).code).toBe(ResultCode.OK);
    await until(() => batchesOf(other, otherFrom).length >= 2, 'the first periodic batch of another socket');
    expect((await other.request(PushMsgId.FLEET_SUBSCRIBE, { on: false })).code).toBe(ResultCode.OK);
    await drained(s);
    expect(batchesOf(s, after)).toEqual([]);
    expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: 'yes' })).code).toBe(ResultCode.BAD_REQUEST);
  });

  it('shows a super administrator every company', async () => {
    const s = await socket(admin);
    const from = s.frames.length;
    s.send(PushMsgId.FLEET_SUBSCRIBE, { on: true });
    const first = fleetUpdatePush.parse((await s.wait((f) => f.msg_id === PushMsgId.FLEET_UPDATE, WAIT_LIMIT_MS, from)).data);
    expect(first.devices.map((d) => d.sn_id)).toEqual(expect.arrayContaining(['FL-N1', 'FL-X1', 'FL-FAST']));
  });
});

describe('online status', () => {
  // That the last-will (not the missed-telemetry sweep) takes it offline is link.test.ts's: here, the 301 frames.
  it('goes offline when its link dies (fault offline), and back online', async () => {
    const s = await watching(opA, 'FL-D1');
    const from = s.frames.length;
    fleet.inject('FL-D1', 'offline');
    const off = await s.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 2, WAIT_LIMIT_MS, from);
    expect(deviceStatusPush.parse(off.data)).toEqual({ sn_id: 'FL-D1', state: 2, connected_by: null });
    const back = s.frames.length;
    fleet.clear('FL-D1', 'offline');
    await s.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 1, WAIT_LIMIT_MS, back);
  });
});

describe('/device/connect', () => {
  it('holds a device (status 3 pushed to another user), refuses others, releases', async () => {
    const watcherB = await watching(opB, 'FL-N1');
    const res = await opA.call<{ state: number; connected_by: unknown; expires_at: number; hold_seconds: number }>('deviceConnect', { sn_id: 'FL-N1', action: 'connect' });
    expect(res.body).toMatchObject({
      code: ResultCode.OK,
      data: { sn_id: 'FL-N1', state: 3, connected_by: { u_id: opA.user!.u_id, nick: 'Operator A' }, hold_seconds: HOLD_SECONDS },
    });
    expect(res.body.data.expires_at).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + HOLD_SECONDS - 1);
    await watcherB.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 3, WAIT_LIMIT_MS);
    expect(statusFrames(watcherB, 'FL-N1').at(-1)).toEqual({ sn_id: 'FL-N1', state: 3, connected_by: { u_id: opA.user!.u_id, nick: 'Operator A' } });

    const busy = await opB.call('deviceConnect', { sn_id: 'FL-N1' });
    expect(busy.body).toMatchObject({ code: ResultCode.DEVICE_BUSY, msg: 'The device is connected by Operator A; please try again later' });
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1', action: 'release' })).body.code).toBe(ResultCode.DEVICE_BUSY);

    const list = await opB.call<{ list: DeviceListItem[] }>('deviceList', { type: 0, page: 0 });
    expect(list.body.data.list.find((d) => d.sn_id === 'FL-N1')).toMatchObject({ state: 3, connected_by: { nick: 'Operator A' } });

    const released = await opA.call('deviceConnect', { sn_id: 'FL-N1', connect: 0 });
    expect(released.body).toMatchObject({ code: ResultCode.OK, data: { state: 1, connected_by: null, expires_at: null } });
    const from = watcherB.frames.length;
    await watcherB.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 1, WAIT_LIMIT_MS, from - 1);
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1' })).body.code).toBe(ResultCode.OK);
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1', action: 'release' })).body.code).toBe(ResultCode.OK);
  });

  it('ends a hold that is not renewed, and keeps one that is', async () => {
    // Holds last HOLD_SECONDS of real time after their last renewal: the test waits on that clock (the board's).
    const watcherB = await watching(opB, 'FL-N1');
    const from = watcherB.frames.length;
    expect((await opA.call('deviceConnect', { sn_id: 'FL-N1' })).body.code).toBe(ResultCode.OK);
    // Taken by the time the call returned: the first hold ends by then + HOLD_SECONDS.
    const firstEnd = Date.now() + HOLD_SECONDS * 1000;
    await until(() => Date.now() >= firstEnd - (HOLD_SECONDS * 1000) / 2, 'half of the hold gone');
    // Renewal by the holder.
    const renewedAt = Date.now();
    expect((await opA.call('deviceConnect', { sn_id: 'FL-N1' })).body).toMatchObject({ code: ResultCode.OK, data: { state: 3 } });
    // Past the end of the first hold (and half a hold before the renewed one ends): still held, never released.
    await until(() => Date.now() > firstEnd, 'the end of the first hold gone by');
    expect(live(server).status.status('FL-N1')).toBe(3);
    await drained(watcherB);
    const since = watcherB.frames.slice(from).filter((f) => f.msg_id === PushMsgId.DEVICE_STATUS).map((f) => deviceStatusPush.parse(f.data));
    expect(since.filter((d) => d.sn_id === 'FL-N1').map((d) => d.state)).toEqual([3]);
    // Not renewed again: it ends (301 state 1), not before HOLD_SECONDS after the renewal.
    const ended = await watcherB.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 1, WAIT_LIMIT_MS, from);
    expect(ended.at).toBeGreaterThanOrEqual(renewedAt + HOLD_SECONDS * 1000);
    // The database agrees: someone else may take it now.
    await until(async () => (await opB.call('deviceConnect', { sn_id: 'FL-N1' })).body.code === ResultCode.OK, 'the takeover by another user');
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1', action: 'release' })).body.code).toBe(ResultCode.OK);
  });

  it('refuses offline, disabled, unknown and other-company devices with clear codes', async () => {
    expect((await opA.call('deviceConnect', { sn_id: 'FL-N2' })).body).toMatchObject({ code: ResultCode.DEVICE_OFFLINE, msg: 'The device is offline' });
    expect((await opA.call('deviceConnect', { sn_id: 'FL-OFF' })).body.code).toBe(ResultCode.DEVICE_DISABLED);
    expect((await opA.call('deviceConnect', { sn_id: 'NOPE' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await opA.call('deviceConnect', { sn_id: 'FL-X1' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await opA.call('deviceConnect', { sn_id: 'FL-N1', action: 'steal' })).body.code).toBe(ResultCode.BAD_REQUEST);
    const zh = await opA.call('deviceConnect', { sn_id: 'FL-N2' }, { lang: 'zh' });
    expect(zh.body.msg).toBe('设备不在线');
  });
});

describe('/device/list with live state', () => {
  it('answers online devices first, then by name, with live fields', async () => {
    const res = await opA.call<{ list: DeviceListItem[]; total: number }>('deviceList', { type: 0, page: 0 });
    expect(res.body.code).toBe(ResultCode.OK);
    const { list, total } = res.body.data;
    expect(total).toBe(4);
    for (const item of list) deviceListItemSchema.parse(item);
    expect(list.map((d) => [d.sn_id, d.state])).toEqual([
      ['FL-N1', 1],
      ['FL-D1', 1],
      ['FL-N2', 2],
      ['FL-OFF', 2],
    ]);
    const n1 = list[0]!;
    expect(n1).toMatchObject({ name: 'Alpha nest', is_push_on: true, enabled: true });
    // The device's live directory as a signed, expiring path (videos/links.ts).
    expect(n1.stream_uav_list).toEqual([expect.stringMatching(/^\/live\/\d{10}\.[A-Za-z0-9_-]{43}\/FL-N1\/index\.m3u8$/)]);
    expect(n1.position).not.toBeNull();
    expect(list[1]).toMatchObject({ name: 'Bravo drone', type: 'alone' });
    expect(list[2]).toMatchObject({ is_push_on: false, stream_uav_list: [], position: { lat: 22.54, lng: 114.05 } });
    expect(list[3]).toMatchObject({ enabled: false });
  });
});

describe('video on demand', () => {
  it('starts the drone video when someone watches (200), serves the HLS, stops it after the last watcher left', async () => {
    await registerDevice(server, { sn_id: 'FL-V1', type: 'stable' });
    const videoFleet = await startSim(server, [{ sn: 'FL-V1' }], { rateHz: RATE_HZ, video: true, calm: true });
    try {
      await until(() => live(server).link.isOnline('FL-V1'), 'the video device online');
      const videoLive = () => live(server).link.device('FL-V1')?.state?.video?.streaming;
      expect(videoLive() ?? false).toBe(false);
      const s = await watching(opA, 'FL-V1');
      await until(() => live(server).video.isStreaming('FL-V1') && videoLive() === true, 'the video started');
      // A second watcher does not start it again; the playlist appears under /live/.
      const t = await watching(opB, 'FL-V1');
      expect(live(server).video.watcherCount('FL-V1')).toBe(2);
      const liveUrl = (await mediaLinks(server.db)).live('/live', 'FL-V1');
      await until(async () => {
        const res = await server.app.inject({ method: 'GET', url: liveUrl });
        return res.statusCode === 200 && res.body.includes('#EXTM3U');
      }, 'the HLS playlist served under /live/');
      const playlist = await server.app.inject({ method: 'GET', url: liveUrl });
      expect((await server.app.inject({ method: 'GET', url: '/live/FL-V1/index.m3u8' })).statusCode).toBe(401);
      expect(playlist.headers['cache-control']).toBe('no-cache');
      s.close();
      await until(() => live(server).video.watcherCount('FL-V1') === 1, 'the server to see the first watcher leave');
      // One watcher left: still streaming past the idle stop delay. (No event marks a stop that is not coming:
      // this pause can only let a late wrong stop pass unseen, never fail a right one.)
      await sleep(2 * server.config.videoIdleStopMs);
      expect(videoLive()).toBe(true);
      expect(live(server).video.isStreaming('FL-V1')).toBe(true);
      t.close();
      await until(() => videoLive() === false && !live(server).video.isStreaming('FL-V1'), 'the video stopped after the last watcher left');
    } finally {
      await videoFleet.stop();
    }
  });
});
