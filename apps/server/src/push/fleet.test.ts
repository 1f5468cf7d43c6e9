/**
 * The live fleet end to end: the real simulator publishing over the embedded broker, the device link,
 * the status board, and push sockets of users of two companies.
 */
import {
  DEVICE_PUSH_FUNCTION,
  PushMsgId,
  ResultCode,
  deviceListItemSchema,
  deviceStatusPush,
  deviceTelemetryPush,
  fleetUpdatePush,
  type DeviceListItem,
  type FleetUpdatePush,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, RawDevice, envelope, listen, live, nestTelemetry, registerDevice, sleep, startSim, until } from '../../test/live.js';
import { PUSH_BUFFER_LIMIT, PushClient } from './hub.js';
import type { SimFleet } from '../link/simulator.js';

const RATE_HZ = 5;
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
  fleet = await startSim(server, [{ sn: 'FL-N1' }, { sn: 'FL-D1', kind: 'alone' }, { sn: 'FL-X1' }], { rateHz: RATE_HZ });
  await until(() => ['FL-N1', 'FL-D1', 'FL-X1'].every((sn) => live(server).link.isOnline(sn)), 5000, 'fleet online');
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

describe('300 DEVICE_TELEMETRY', () => {
  it('reaches a socket that verified the user (100) and the device (200), at the device rate', async () => {
    const s = await watching(opA, 'FL-N1');
    const snapshot = await s.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS);
    expect(deviceStatusPush.parse(snapshot.data)).toEqual({ sn_id: 'FL-N1', state: 1, connected_by: null });
    await s.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY, 2000);
    const from = s.frames.length;
    await sleep(2000);
    const frames = s.frames.slice(from).filter((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY);
    // 2 s at 5 Hz: about 10 frames.
    expect(frames.length).toBeGreaterThanOrEqual(8);
    expect(frames.length).toBeLessThanOrEqual(12);
    for (const f of frames) {
      const data = deviceTelemetryPush.parse(f.data);
      expect(data).toMatchObject({ sn_id: 'FL-N1', state: 1 });
      expect((data.telemetry as { nest?: unknown }).nest).toBeDefined();
    }
  });

  it('reaches nobody who did not verify: no 100, or 100 without 200', async () => {
    const bare = await socket();
    const userOnly = await socket(opA);
    await sleep(1000);
    expect(bare.frames).toEqual([]);
    expect(userOnly.frames.filter((f) => f.msg_id !== PushMsgId.USER_VERIFY)).toEqual([]);
  });

  it('never reaches another company: 200 on its device is refused, and fleet batches leave it out', async () => {
    const s = await socket(opG);
    expect(await s.verifyDevice(opG, 'FL-N1')).toMatchObject({ code: ResultCode.NOT_FOUND_OBJECT, msg_id: 200 });
    expect(await s.verifyDevice(opG, 'NO-SUCH-SN')).toMatchObject({ code: ResultCode.NOT_FOUND_OBJECT, msg_id: 200 });
    expect(await s.verifyDevice(opG, 'FL-X1')).toMatchObject({ code: ResultCode.OK });
    expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).code).toBe(ResultCode.OK);
    await sleep(1500);
    const text = JSON.stringify(s.frames);
    for (const sn of ['FL-N1', 'FL-D1', 'FL-N2']) expect(text).not.toContain(sn);
    expect(s.of(PushMsgId.DEVICE_TELEMETRY).length).toBeGreaterThan(0);
    const batches = s.of(PushMsgId.FLEET_UPDATE).map((f) => fleetUpdatePush.parse(f.data));
    expect(batches.length).toBeGreaterThan(0);
    expect(new Set(batches.flatMap((b) => b.devices.map((d) => d.sn_id)))).toEqual(new Set(['FL-X1']));
  });
});

describe('throttling and backpressure', () => {
  it('gives a socket at most the announced rate of a device that sends faster', async () => {
    // Another company's device (kept out of the wk lists below), watched by the super administrator.
    await registerDevice(server, { sn_id: 'FL-FAST', company_id: 'zrhk' });
    const d = await RawDevice.connect(server, 'FL-FAST');
    try {
      await d.publish('presence', envelope('presence', { online: true, rate_hz: 2 }), { qos: 1, retain: true });
      const s = await watching(admin, 'FL-FAST');
      const from = s.frames.length;
      // 20 Hz for 2 s while announcing 2 Hz.
      for (let i = 0; i < 40; i++) {
        await d.publish('telemetry', envelope('telemetry', nestTelemetry()));
        await sleep(50);
      }
      await sleep(100);
      const n = s.frames.slice(from).filter((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY).length;
      // 2 s at 2 Hz plus a burst of 2.
      expect(n).toBeGreaterThanOrEqual(4);
      expect(n).toBeLessThanOrEqual(7);
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
    const first = fleetUpdatePush.parse((await s.wait((f) => f.msg_id === PushMsgId.FLEET_UPDATE, 2000, from)).data);
    // Every visible device with a known position, online or not (the disabled one too: it is registered).
    expect(first.devices.map((d) => d.sn_id).sort()).toEqual(['FL-D1', 'FL-N1', 'FL-N2', 'FL-OFF']);
    expect(first.devices.find((d) => d.sn_id === 'FL-N2')).toMatchObject({ state: 2, lat: 22.54, lng: 114.05 });
    expect(first.devices.find((d) => d.sn_id === 'FL-N1')).toMatchObject({ state: 1 });
    await sleep(3300);
    const batches = s.frames.slice(from).filter((f) => f.msg_id === PushMsgId.FLEET_UPDATE);
    // The first at once, then one per period (on this socket's own clock).
    expect(batches.length).toBeGreaterThanOrEqual(4);
    expect(batches.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < batches.length; i++) expect(batches[i]!.at - batches[i - 1]!.at).toBeGreaterThanOrEqual(800);
    for (const b of batches.slice(1)) {
      const data: FleetUpdatePush = fleetUpdatePush.parse(b.data);
      const sns = data.devices.map((d) => d.sn_id);
      expect(new Set(sns).size).toBe(sns.length);
      // Only what changed: the two online devices, never the silent ones.
      expect(sns.sort()).toEqual(['FL-D1', 'FL-N1']);
    }
    expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: false })).code).toBe(ResultCode.OK);
    const after = s.frames.length;
    await sleep(1300);
    expect(s.frames.slice(after).filter((f) => f.msg_id === PushMsgId.FLEET_UPDATE)).toEqual([]);
    expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: 'yes' })).code).toBe(ResultCode.BAD_REQUEST);
  });

  it('shows a super administrator every company', async () => {
    const s = await socket(admin);
    const from = s.frames.length;
    s.send(PushMsgId.FLEET_SUBSCRIBE, { on: true });
    const first = fleetUpdatePush.parse((await s.wait((f) => f.msg_id === PushMsgId.FLEET_UPDATE, 2000, from)).data);
    expect(first.devices.map((d) => d.sn_id)).toEqual(expect.arrayContaining(['FL-N1', 'FL-X1', 'FL-FAST']));
  });
});

describe('online status', () => {
  it('goes offline on the last-will (fault offline) within a second, and back online', async () => {
    const s = await watching(opA, 'FL-D1');
    const t0 = Date.now();
    fleet.inject('FL-D1', 'offline');
    const off = await s.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 2, 2000);
    expect(off.at - t0).toBeLessThan(1000);
    fleet.clear('FL-D1', 'offline');
    await s.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 1 && f.at > off.at, 5000);
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
    await watcherB.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 3);
    expect(statusFrames(watcherB, 'FL-N1').at(-1)).toEqual({ sn_id: 'FL-N1', state: 3, connected_by: { u_id: opA.user!.u_id, nick: 'Operator A' } });

    const busy = await opB.call('deviceConnect', { sn_id: 'FL-N1' });
    expect(busy.body).toMatchObject({ code: ResultCode.DEVICE_BUSY, msg: 'The device is connected by Operator A; please try again later' });
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1', action: 'release' })).body.code).toBe(ResultCode.DEVICE_BUSY);

    const list = await opB.call<{ list: DeviceListItem[] }>('deviceList', { type: 0, page: 0 });
    expect(list.body.data.list.find((d) => d.sn_id === 'FL-N1')).toMatchObject({ state: 3, connected_by: { nick: 'Operator A' } });

    const released = await opA.call('deviceConnect', { sn_id: 'FL-N1', connect: 0 });
    expect(released.body).toMatchObject({ code: ResultCode.OK, data: { state: 1, connected_by: null, expires_at: null } });
    const from = watcherB.frames.length;
    await watcherB.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 1, 2000, from - 1);
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1' })).body.code).toBe(ResultCode.OK);
    expect((await opB.call('deviceConnect', { sn_id: 'FL-N1', action: 'release' })).body.code).toBe(ResultCode.OK);
  });

  it('ends a hold that is not renewed, and keeps one that is', async () => {
    const watcherB = await watching(opB, 'FL-N1');
    expect((await opA.call('deviceConnect', { sn_id: 'FL-N1' })).body.code).toBe(ResultCode.OK);
    await sleep(1200);
    // Renewal by the holder.
    expect((await opA.call('deviceConnect', { sn_id: 'FL-N1' })).body).toMatchObject({ code: ResultCode.OK, data: { state: 3 } });
    await sleep(1200);
    expect(live(server).status.status('FL-N1')).toBe(3);
    const from = watcherB.frames.length;
    const t0 = Date.now();
    const ended = await watcherB.wait((f) => f.msg_id === PushMsgId.DEVICE_STATUS && (f.data as { state: number }).state === 1, 4000, from);
    expect(ended.at - t0).toBeLessThan(HOLD_SECONDS * 1000 + 1200);
    // The database agrees: someone else may take it now.
    await until(async () => (await opB.call('deviceConnect', { sn_id: 'FL-N1' })).body.code === ResultCode.OK, 3000, 'takeover');
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
    expect(n1).toMatchObject({ name: 'Alpha nest', is_push_on: true, stream_uav_list: ['/live/FL-N1/index.m3u8'], enabled: true });
    expect(n1.position).not.toBeNull();
    expect(list[1]).toMatchObject({ name: 'Bravo drone', type: 'alone' });
    expect(list[2]).toMatchObject({ is_push_on: false, stream_uav_list: [], position: { lat: 22.54, lng: 114.05 } });
    expect(list[3]).toMatchObject({ enabled: false });
  });
});

describe('video on demand', () => {
  it('starts the drone video when someone watches (200), serves the HLS, stops it after the last watcher left', async () => {
    await registerDevice(server, { sn_id: 'FL-V1', type: 'stable' });
    const videoFleet = await startSim(server, [{ sn: 'FL-V1' }], { rateHz: RATE_HZ, video: true });
    try {
      await until(() => live(server).link.isOnline('FL-V1'), 5000, 'video device online');
      const videoLive = () => live(server).link.device('FL-V1')?.state?.video?.streaming;
      expect(videoLive() ?? false).toBe(false);
      const s = await watching(opA, 'FL-V1');
      await until(() => live(server).video.isStreaming('FL-V1') && videoLive() === true, 5000, 'video started');
      // A second watcher does not start it again; the playlist appears under /live/.
      const t = await watching(opB, 'FL-V1');
      expect(live(server).video.watcherCount('FL-V1')).toBe(2);
      let status = 0;
      await until(
        async () => {
          const res = await server.app.inject({ method: 'GET', url: '/live/FL-V1/index.m3u8' });
          status = res.statusCode;
          return res.statusCode === 200 && res.body.includes('#EXTM3U');
        },
        15_000,
        `HLS playlist (last status ${status})`,
      );
      const playlist = await server.app.inject({ method: 'GET', url: '/live/FL-V1/index.m3u8' });
      expect(playlist.headers['cache-control']).toBe('no-cache');
      s.close();
      await sleep(600);
      // One watcher left: still streaming.
      expect(videoLive()).toBe(true);
      t.close();
      await until(() => videoLive() === false && !live(server).video.isStreaming('FL-V1'), 5000, 'video stopped');
    } finally {
      await videoFleet.stop();
    }
  });
});
