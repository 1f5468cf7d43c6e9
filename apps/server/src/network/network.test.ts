import { MIN_TELEMETRY_HZ, ResultCode, topicOf, type LinkStats, type NavEnv } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { RawDevices, WAIT_LIMIT_MS, envelope, live, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { brokerAddress } from './handlers.js';

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
let nobody: TestClient;
const devices = new RawDevices(() => server);
let beat: NodeJS.Timeout | undefined;

/** A valid drone part of telemetry with the given GNSS figures. */
function drone(rtk: { status: number; satellites: number; ntrip_state: number }, gps: number) {
  return {
    sn: 'NW-1-UAV',
    lat: 22.541,
    lng: 114.051,
    alt: 80,
    height: 50,
    h_speed: 0,
    v_speed: 0,
    heading: 90,
    pitch: 0,
    roll: 0,
    battery: { percent: 80, voltage: 15.2, temperature: 30, charging: false },
    flight_state: 2,
    flight_mode: 3,
    rtk,
    gps_satellites: gps,
    home_distance: 120,
    flight_time: 60,
    powered: true,
    storage: { sdcard_totalsize: 64000, sdcard_free: 32000 },
    camera: { camera_iso: 100, camera_shutter: '1/500', camera_exp_mode: 0, camera_exp_value: 0, camera_awb: 0 },
  };
}

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await live(server).link.ready();
  await registerDevice(server, { sn_id: 'NW-1', company_id: 'wk', link_type: 2, airport_name: 'Nest One', altn_point: { lat: 22.55, lng: 114.06 } });
  await registerDevice(server, { sn_id: 'NW-2', company_id: 'wk', airport_name: 'Nest Two' });
  await registerDevice(server, { sn_id: 'NW-GZ', company_id: 'gzGh', airport_name: 'Nest Guangzhou' });
  wk = await userClient(server, { companyId: 'wk', funList: ['link_stats', 'device_navEnv'] });
  gz = await userClient(server, { companyId: 'gzGh', funList: ['link_stats', 'device_navEnv'] });
  nobody = await userClient(server, { companyId: 'wk', funList: ['device_list'] });

  const d = await devices.connect('NW-1');
  // The slowest rate a device may announce: only seconds of silence would take NW-1 offline.
  await d.publish('presence', envelope('presence', { online: true, rate_hz: MIN_TELEMETRY_HZ, firmware: 'fw-9' }), { qos: 1, retain: true });
  const telemetry = () => d.publish('telemetry', envelope('telemetry', { ...nestTelemetry(22.54, 114.05), drone: drone({ status: 4, satellites: 28, ntrip_state: 7 }, 31) }), { qos: 1 });
  for (let i = 0; i < 5; i++) await telemetry();
  // Then it keeps sending, as a real device does, so it stays online however long the tests take.
  beat = setInterval(() => void telemetry(), 500);
  await d.publish('telemetry', envelope('telemetry', { nest: { lat: 500 } }), { qos: 1 }); // bad data: dropped
  // A command answered by the device: one round trip.
  await d.subscribe(topicOf('NW-1', 'commands'));
  d.client.on('message', (topic, payload) => {
    if (topic !== topicOf('NW-1', 'commands')) return;
    const m = JSON.parse(String(payload)) as { tid: string; method: string };
    void d.publish('commands_reply', envelope(m.method, { result: 0 }, m.tid), { qos: 1 });
  });
  // The timeout only guards against a lost reply: far above any reply time, so the command is sent once.
  const outcome = await live(server).link.command('NW-1', 'ping', {}, { timeoutMs: WAIT_LIMIT_MS });
  expect(outcome.status).toBe('ok');
  await until(
    () => (live(server).link.counters.read('NW-1')?.dropped.bad_data ?? 0) === 1 && (live(server).link.counters.read('NW-1')?.accepted ?? 0) >= 7,
    'the bad message dropped and the others accepted',
  );
});
afterAll(async () => {
  clearInterval(beat);
  await devices.endAll();
  await server?.close();
});

describe('/link/stats', () => {
  it('answers the broker and each visible device with its counts', async () => {
    const res = await wk.call<LinkStats>('linkStats');
    expect(res.body.code).toBe(ResultCode.OK);
    const s = res.body.data;
    expect(s.broker).toMatchObject({ kind: 'embedded', connected: true, address: brokerAddress(live(server).brokerUrl) });
    expect(s.broker.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(s.devices.map((d) => d.sn_id)).toEqual(['NW-1', 'NW-2']);
    const one = s.devices[0]!;
    expect(one).toMatchObject({ name: 'Nest One', link_type: 2, online: true, state: 1, rate_hz: MIN_TELEMETRY_HZ, firmware: 'fw-9', dropped: { bad_data: 1 }, command_timeouts: 0 });
    expect(one.accepted).toBeGreaterThanOrEqual(7); // presence, 5 telemetry, the reply
    expect(one.telemetry_hz).toBeGreaterThan(0);
    expect(one.messages_per_min).toBeGreaterThan(0);
    expect(one.rtt).toMatchObject({ count: 1 });
    expect(one.rtt!.last_ms).toBeGreaterThanOrEqual(0);
    expect(one.heard_at).toBeGreaterThan(0);
    const two = s.devices[1]!;
    expect(two).toMatchObject({ online: false, heard_at: null, accepted: 0, rtt: null, telemetry_hz: 0 });
    expect(s.totals).toMatchObject({ devices: 2, online: 1, dropped: 1, unattributed_dropped: {} });
    // The superseded count is server-wide: a company sees none, a super administrator the server's.
    expect(s.totals.superseded).toBeNull();
    const all = (await (await adminClient(server)).call<LinkStats>('linkStats')).body.data;
    expect(all.totals.superseded).toBe(live(server).link.stats.superseded ?? 0);
  });

  it('shows another company only its own devices', async () => {
    const res = await gz.call<LinkStats>('linkStats');
    expect(res.body.data.devices.map((d) => d.sn_id)).toEqual(['NW-GZ']);
    expect(res.body.data.totals).toMatchObject({ devices: 1, online: 0, accepted: 0 });
    expect((await gz.call('linkStats', { sn_id: 'NW-1' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('answers one device by sn; refuses a malformed sn', async () => {
    const res = await wk.call<LinkStats>('linkStats', { sn_id: 'NW-2' });
    expect(res.body.data.devices.map((d) => d.sn_id)).toEqual(['NW-2']);
    expect(res.body.data.totals.devices).toBe(1);
    expect((await wk.call('linkStats', { sn_id: 'x'.repeat(65) })).body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('needs its function', async () => {
    expect((await nobody.call('linkStats')).body.code).toBe(ResultCode.NO_PERMISSION);
  });

  it('never shows broker credentials', () => {
    expect(brokerAddress('mqtt://user:secret@broker.example:1883')).toBe('broker.example:1883');
    expect(brokerAddress('not a url')).toBe('');
  });
});

describe('/device/navEnv', () => {
  it('answers the GNSS environment of the visible devices from their telemetry', async () => {
    const res = await wk.call<{ list: NavEnv[] }>('deviceNavEnv');
    expect(res.body.code).toBe(ResultCode.OK);
    const [one, two] = res.body.data.list;
    expect(one).toMatchObject({
      sn_id: 'NW-1',
      online: true,
      gnss: { satellites: 31, rtk_status: 4, rtk_satellites: 28, ntrip_state: 7, fix: 'fixed', accuracy_m: 0.02, home_distance: 120 },
      home: { lat: 22.54, lng: 114.05, source: 'nest' },
      alternate: { lat: 22.55, lng: 114.06 },
    });
    expect(one!.at).toBeGreaterThan(0);
    // No telemetry yet: no GNSS figures; the home point is the registered nest position.
    expect(two).toMatchObject({ sn_id: 'NW-2', online: false, gnss: null, at: null, home: { lat: 22.54, lng: 114.05, source: 'registered' } });
  });

  it('answers one device by sn; another company\'s device is not found', async () => {
    const res = await wk.call<{ list: NavEnv[] }>('deviceNavEnv', { sn_id: 'NW-2' });
    expect(res.body.data.list.map((d) => d.sn_id)).toEqual(['NW-2']);
    expect((await gz.call('deviceNavEnv', { sn_id: 'NW-1' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('deviceNavEnv', { sn_id: 'NOPE' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await gz.call<{ list: NavEnv[] }>('deviceNavEnv')).body.data.list.map((d) => d.sn_id)).toEqual(['NW-GZ']);
  });

  it('refuses bad input and callers without the function', async () => {
    expect((await wk.call('deviceNavEnv', { sn_id: 'x'.repeat(65) })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await nobody.call('deviceNavEnv')).body.code).toBe(ResultCode.NO_PERMISSION);
  });
});
