// Database: SQLite only: the rule book's debounce timing; the alarm store is tested on both databases by alarms.test.ts.
import { ALARM_RULES, DEVICE_PUSH_FUNCTION, FlightMethod, PushMsgId, ResultCode, alarmPush, callFunId, type Alarm, type AlarmPush } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, RawDevice, envelope, listen, live, registerDevice, until } from '../../test/live.js';
import { loadSimulator, type SimFleet } from '../../test/simulator.js';
import type { AlarmMonitor } from './monitor.js';
import { droneTelemetry as drone } from '@nest/contracts/test-fixtures';

/** Simulated seconds per real second: wind storms build and die down quickly. */
const TIME_SCALE = 30;
/**
 * Debounce and hold-off of the rule book where the debounce is checked: far shorter than in production
 * (ALARM_RULES) but several telemetry periods (5 Hz) long, so a raise without it would come visibly early.
 */
const TIMING = { raiseAfterMs: 1000, clearAfterMs: 600 };
/** ... and where it is not. */
const QUICK = { raiseAfterMs: 300, clearAfterMs: 300 };

let server: TestServer;
let fleet: SimFleet;
let base: string;
let monitor: AlarmMonitor;
let wk: TestClient;
let gz: TestClient;
let ws: PushSocket;
let gzWs: PushSocket;

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  await registerDevice(server, { sn_id: 'MO-N1', airport_name: 'Windy hill' });
  await registerDevice(server, { sn_id: 'MO-N2', airport_name: 'Hatch nest' });
  await registerDevice(server, { sn_id: 'MO-R', type: 'alone', airport_name: '', uav_name: 'Raw drone' });
  await registerDevice(server, { sn_id: 'MO-G', airport_name: 'Other company nest', company_id: 'gzGh' });
  monitor = server.app.nest.services.alarms;
  const sim = await loadSimulator();
  const l = live(server);
  fleet = await sim.startFleet({
    brokerUrl: l.brokerUrl,
    devices: ['MO-N1', 'MO-N2', 'MO-G'].map((sn, i) => ({
      sn,
      password: l.devicePassword(sn),
      kind: 'stable' as const,
      name: sn,
      uavSn: `${sn}-UAV`,
      home: { lat: 22.54 + i * 0.01, lng: 114.05, alt: 30 },
      // Calm weather: the wind never crosses the alarm threshold by itself, only when the fault holds it there.
      calm: true,
    })),
    rateHz: 5,
    timeScale: TIME_SCALE,
    seed: 1,
    ffmpegPath: null,
    validate: true,
  });
  await until(() => ['MO-N1', 'MO-N2', 'MO-G'].every((sn) => l.link.isOnline(sn)), 'the fleet online');
  const funs = [...['/alarm/list', '/alarm/process'].map(callFunId), DEVICE_PUSH_FUNCTION];
  wk = await userClient(server, { funList: funs });
  gz = await userClient(server, { funList: funs, companyId: 'gzGh' });
  base = await listen(server);
  ws = await PushSocket.open(base);
  expect((await ws.verifyUser(wk)).code).toBe(ResultCode.OK);
  gzWs = await PushSocket.open(base);
  expect((await gzWs.verifyUser(gz)).code).toBe(ResultCode.OK);
});
afterAll(async () => {
  ws?.close();
  gzWs?.close();
  await fleet?.stop();
  await server?.close();
});

const alarmFrames = (s: PushSocket, sn: string): AlarmPush[] =>
  s.of(PushMsgId.ALARM).map((f) => alarmPush.parse(f.data)).filter((d) => d.alarm.sn_id === sn);
const rows = (sn: string, kind: string) => server.db.selectFrom('alarms').selectAll().where('sn_id', '=', sn).where('kind', '=', kind).execute();
const listOf = async (c: TestClient, sn: string) => (await c.call<{ list: Alarm[] }>('alarmList', { sn_id: sn })).body.data.list;

/**
 * Resolves once the socket got every frame the server sent it so far: the server answers a socket's frames in
 * order, so the heartbeat's reply comes after any 370 pushed to it before the heartbeat arrived.
 */
async function drained(s: PushSocket): Promise<void> {
  expect((await s.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
}

describe('alarm monitor with the simulator', () => {
  it('raises one high_wind episode after the debounce, pushes 370, and clears it when the wind drops', async () => {
    monitor.rules.timing = TIMING;
    const start = Date.now();
    fleet.inject('MO-N1', 'high_wind');
    await until(async () => (await rows('MO-N1', 'high_wind')).length > 0, 'high_wind raised');
    // Not before the condition held for raiseAfterMs.
    expect(Date.now() - start).toBeGreaterThanOrEqual(TIMING.raiseAfterMs);
    const [row] = await rows('MO-N1', 'high_wind');
    expect(row).toMatchObject({ company_id: 'wk', level: 20, state: 10, cleared_at: null });
    expect(Number(row!.value)).toBeGreaterThan(ALARM_RULES.windSpeed);
    expect(row!.lat).not.toBeNull();
    const raised = await ws.wait((f) => f.msg_id === PushMsgId.ALARM && (f.data as AlarmPush).alarm.sn_id === 'MO-N1');
    expect(alarmPush.parse(raised.data)).toMatchObject({ event: 'raised', alarm: { kind: 'high_wind', device_name: 'Windy hill', level: 20 }, pending: 1 });
    expect(alarmFrames(gzWs, 'MO-N1')).toHaveLength(0);
    expect((await listOf(wk, 'MO-N1')).map((a) => a.kind)).toEqual(['high_wind']);
    expect(await listOf(gz, 'MO-N1')).toEqual([]);

    fleet.clear('MO-N1', 'high_wind');
    await until(async () => (await rows('MO-N1', 'high_wind'))[0]?.cleared_at != null, 'high_wind cleared');
    await until(() => alarmFrames(ws, 'MO-N1').some((d) => d.event === 'cleared'), 'the clear pushed (370)');
    await drained(ws);
    // One episode, one raise and one clear.
    expect(await rows('MO-N1', 'high_wind')).toHaveLength(1);
    expect(alarmFrames(ws, 'MO-N1').map((d) => d.event)).toEqual(['raised', 'cleared']);
    expect((await listOf(wk, 'MO-N1'))[0]).toMatchObject({ state: 10 });
  });

  it('raises nest_part_fault naming the stuck hatch, and clears it when the hatch is free', async () => {
    monitor.rules.timing = QUICK;
    fleet.inject('MO-N2', 'hatch_stuck');
    await until(async () => (await rows('MO-N2', 'nest_part_fault')).length > 0, 'hatch fault raised');
    expect((await rows('MO-N2', 'nest_part_fault'))[0]).toMatchObject({ level: 30, detail: 'hatch', cleared_at: null });
    fleet.clear('MO-N2', 'hatch_stuck');
    await until(async () => (await rows('MO-N2', 'nest_part_fault'))[0]?.cleared_at != null, 'hatch fault cleared');
    await until(() => alarmFrames(ws, 'MO-N2').length >= 2, 'two 370');
    await drained(ws);
    expect(alarmFrames(ws, 'MO-N2').map((d) => [d.event, d.alarm.kind, d.alarm.detail])).toEqual([
      ['raised', 'nest_part_fault', 'hatch'],
      ['cleared', 'nest_part_fault', 'hatch'],
    ]);
  });

  it('keeps another company to its own sockets', async () => {
    monitor.rules.timing = QUICK;
    fleet.inject('MO-G', 'hatch_stuck');
    await until(() => alarmFrames(gzWs, 'MO-G').length > 0, '370 to the other company');
    fleet.clear('MO-G', 'hatch_stuck');
    // The 370 went to every socket at once: whatever wk's socket was sent of it came before this reply.
    await drained(ws);
    expect(alarmFrames(ws, 'MO-G')).toHaveLength(0);
    expect(await listOf(wk, 'MO-G')).toEqual([]);
    expect((await listOf(gz, 'MO-G')).map((a) => a.kind)).toContain('nest_part_fault');
  });
});

describe('alarm monitor on presence and events', () => {
  it('raises offline_in_flight when a flying drone drops, clears it when it is back; flow_failed and alternate_landing once each', async () => {
    monitor.rules.timing = QUICK;
    const dev = await RawDevice.connect(server, 'MO-R', { withWill: true });
    await dev.publish('presence', envelope('presence', { online: true, rate_hz: 5 }), { qos: 1, retain: true });
    await dev.publish('telemetry', envelope('telemetry', { drone: drone({ sn: 'MO-R-UAV', lat: 22.6, lng: 114.2 }) }));
    await until(() => live(server).link.device('MO-R')?.telemetry?.drone?.flight_state === 2, 'flying telemetry');
    dev.drop();
    await until(async () => (await rows('MO-R', 'offline_in_flight')).length > 0, 'offline_in_flight raised');
    expect((await rows('MO-R', 'offline_in_flight'))[0]).toMatchObject({ level: 30, lat: 22.6, lng: 114.2, cleared_at: null });

    const back = await RawDevice.connect(server, 'MO-R');
    await back.publish('presence', envelope('presence', { online: true, rate_hz: 5 }), { qos: 1, retain: true });
    await until(async () => (await rows('MO-R', 'offline_in_flight'))[0]?.cleared_at != null, 'offline_in_flight cleared');

    const failed = {
      flow_id: 'flow-1',
      kind: 'takeoff',
      state: 'failed',
      steps: [
        { step: 'drone_start', state: 'done', elapsed: 3 },
        { step: 'hatch_open', state: 'failed', elapsed: 20 },
      ],
      current: 1,
      error: 3,
      tip: null,
      started_at: Date.now() - 30_000,
      elapsed: 23,
    };
    // The same failure reported twice (a repeat, or a second server instance) is one alarm.
    await back.publish('events', envelope(FlightMethod.FLOW_PROGRESS, failed), { qos: 1 });
    await back.publish('events', envelope(FlightMethod.FLOW_PROGRESS, failed), { qos: 1 });
    await back.publish('events', envelope(FlightMethod.FLOW_PROGRESS, { ...failed, state: 'running', flow_id: 'flow-2' }), { qos: 1 });
    const alt = { flight_id: 'fl-9', reason: 2, solution: 1, timestamp: Date.now(), drone_int: 2, altn_int: 0, place_int: 1, lat: 22.61, lng: 114.21 };
    await back.publish('events', envelope(FlightMethod.ALTERNATE, alt), { qos: 1 });
    await until(async () => (await rows('MO-R', 'alternate_landing')).length > 0, 'alternate_landing raised');
    // Every write of the monitor (and its push) done: the repeat of the failure, handled before, too.
    await monitor.idle();
    const flows = await rows('MO-R', 'flow_failed');
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({ level: 30, value: 3, detail: 'hatch_open', state: 10 });
    // One-off alarms are closed as they are raised.
    expect(Number(flows[0]!.cleared_at)).toBe(Number(flows[0]!.raised_at));
    expect((await rows('MO-R', 'alternate_landing'))[0]).toMatchObject({ level: 20, value: 2, flight_id: 'fl-9' });
    await until(() => alarmFrames(ws, 'MO-R').length >= 4, 'four 370');
    await drained(ws);
    expect(alarmFrames(ws, 'MO-R').map((d) => [d.event, d.alarm.kind])).toEqual([
      ['raised', 'offline_in_flight'],
      ['cleared', 'offline_in_flight'],
      ['raised', 'flow_failed'],
      ['raised', 'alternate_landing'],
    ]);
    back.client.end(true);
  });
});
