/**
 * Flight operations with the REAL simulator over the embedded broker: a full automatic takeoff + route +
 * landing through push 401 cmd_type 8 with the 320 / 330 frames, pause / continue / interrupt with the
 * breakpoint, low battery refused, and a device dropping offline mid-route. Runs the simulator fast
 * (`timeScale`, FleetOptions of apps/simulator) in calm weather, and the tests side by side: each flies
 * its own nest and watches it on its own socket.
 */
import { DEVICE_CONTROL_FUNCTION, DEVICE_PUSH_FUNCTION, FlightMethod, PushMsgId, Reason, ResultCode, type PushReply } from '@nest/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, addPatrolRoute, listen, live, registerDevice, until } from '../../test/live.js';
import { loadSimulator, type SimFleet } from '../../test/simulator.js';

/** Simulated seconds per real second: flows and routes are logic here, not real-time behaviour. */
const TIME_SCALE = 60;
const HOME = { lat: 22.54, lng: 114.05, alt: 30 };

let server: TestServer;
let fleet: SimFleet;
let base: string;
let op: TestClient;
const sockets: PushSocket[] = [];
let missionId: string;
let routeN2: string;
let routeN4: string;

const addRoute = (sn: string) => addPatrolRoute(server.db, sn, HOME);

/**
 * The patrol route there and back (twelve waypoints, about 4 km): for the tests that act on the drone while
 * it is on its route, so their commands (a round trip each, slow on a busy machine) reach it with most of
 * the route (about 3 s at TIME_SCALE) still ahead.
 */
async function addLongRoute(sn: string): Promise<string> {
  const id = await addRoute(sn);
  const waypoints = Array.from({ length: 12 }, (_, i) => {
    const j = i < 6 ? i : 11 - i;
    return { lat: HOME.lat - 0.004 + j * 0.0015, lng: HOME.lng + (i < 6 ? -0.004 : 0.002) + (i % 2) * 0.002, height: 50 };
  });
  await server.db.updateTable('missions').set({ waypoints: JSON.stringify(waypoints), distance: 4000, est_time: 340 }).where('id', '=', id).execute();
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  for (const sn of ['FS-N1', 'FS-N2', 'FS-N3', 'FS-N4']) await registerDevice(server, { sn_id: sn, airport_point: { lat: HOME.lat, lng: HOME.lng } });
  const sim = await loadSimulator();
  const l = live(server);
  fleet = await sim.startFleet({
    brokerUrl: l.brokerUrl,
    devices: ['FS-N1', 'FS-N2', 'FS-N3', 'FS-N4'].map((sn) => ({ sn, password: l.devicePassword(sn), kind: 'stable' as const, name: sn, uavSn: `${sn}-UAV`, home: HOME, calm: true })),
    // Only 1.5 s of silence (three periods) takes a device offline, which a busy machine's pauses never reach:
    // commands to an offline device are refused. The model moves on with the time elapsed, whatever the rate.
    rateHz: 2,
    ffmpegPath: null,
    validate: true,
    seed: 1,
    timeScale: TIME_SCALE,
  });
  await until(() => ['FS-N1', 'FS-N2', 'FS-N3', 'FS-N4'].every((sn) => l.link.isOnline(sn) && l.link.device(sn)?.telemetry?.drone), 'the fleet online with telemetry');
  missionId = await addRoute('FS-N1');
  routeN2 = await addLongRoute('FS-N2');
  await addRoute('FS-N3');
  routeN4 = await addLongRoute('FS-N4');
  op = await userClient(server, { nick: 'Pilot', funList: [DEVICE_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION] });
  base = await listen(server);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await fleet?.stop();
  await server?.close();
});

async function watching(sn: string): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(op)).code).toBe(ResultCode.OK);
  expect((await s.verifyDevice(op, sn)).code).toBe(ResultCode.OK);
  // Flight commands need the device's control connection.
  expect((await op.call('deviceConnect', { sn_id: sn })).body.code).toBe(ResultCode.OK);
  return s;
}

async function command(s: PushSocket, msgId: number, data: Record<string, unknown>): Promise<PushReply> {
  const from = s.frames.length;
  s.send(msgId, data);
  return s.wait((f) => f.msg_id === msgId, WAIT_LIMIT_MS, from);
}

type Mission = { flight_id: string; state: string; waypoint_index: number };
const missionFrames = (s: PushSocket) => s.of(PushMsgId.MISSION_PROGRESS).map((f) => (f.data as { mission: Mission | null }).mission).filter((m): m is Mission => m !== null);
const routeOf = async (id: string) => (await server.db.selectFrom('missions').select('breakpoint').where('id', '=', id).executeTakeFirstOrThrow()).breakpoint;

describe('with the simulator', { concurrent: true }, () => {
  it('flies a route end to end: takeoff flow, waypoints, landing flow (320 / 330 seen)', async () => {
    const s = await watching('FS-N1');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FS-N1', cmd_type: 8, action_cmd: 1, value: missionId });
    expect(r).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
    const flightId = (r.data as { flight_id: string }).flight_id;
    await s.wait((f) => f.msg_id === PushMsgId.FLOW_PROGRESS && (f.data as { flow: { flow_id: string; kind: string } | null }).flow?.kind === 'takeoff', WAIT_LIMIT_MS);
    await s.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (f.data as { mission: Mission | null }).mission?.state === 'done', WAIT_LIMIT_MS);
    expect(missionFrames(s).every((m) => m.flight_id === flightId)).toBe(true);
    await s.wait((f) => f.msg_id === PushMsgId.FLOW_PROGRESS && (f.data as { flow: { kind: string; state: string } | null }).flow?.kind === 'landing', WAIT_LIMIT_MS);
    expect(await routeOf(missionId)).toBeNull();
  });

  it('pause, continue, interrupt mid-route store the breakpoint; resume starts there', async () => {
    // FS-N2's own route (row order is not defined: PostgreSQL returns them in any order).
    const route = routeN2;
    const s = await watching('FS-N2');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FS-N2', cmd_type: 8, action_cmd: 1, value: route });
    expect(r.code).toBe(ResultCode.OK);
    await s.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && ((f.data as { mission: Mission | null }).mission?.waypoint_index ?? 0) >= 2, WAIT_LIMIT_MS);
    for (const control_cmd of [1, 2, 3]) {
      expect(await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FS-N2', control_cmd })).toMatchObject({ code: ResultCode.OK });
    }
    await until(async () => (await routeOf(route)) !== null, 'the breakpoint stored on the route');
    const bp = await routeOf(route);
    expect(bp).toBeGreaterThanOrEqual(2);
    // Back on the ground, the resume takes off again with the route from the breakpoint.
    await until(() => {
      const flow = live(server).link.device('FS-N2')?.state?.flow;
      return flow?.kind === 'landing' && flow.state !== 'running' && flow.state !== 'paused';
    }, 'the landing flow of FS-N2 ended');
    const resume = await command(s, PushMsgId.CONTROL, { sn_id: 'FS-N2', cmd_type: 8, action_cmd: 2, value: route });
    expect(resume).toMatchObject({ code: ResultCode.OK });
    const resumedId = (resume.data as { flight_id: string }).flight_id;
    // The resumed flight starts at the breakpoint: its first waypoint reported is not before it.
    const first = await s.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (f.data as { mission: Mission | null }).mission?.flight_id === resumedId, WAIT_LIMIT_MS);
    expect((first.data as { mission: Mission }).mission.waypoint_index).toBeGreaterThanOrEqual(bp!);
  });

  it('a device dropping mid-route: commands answer offline at once, a repeat is not re-sent, the flight goes on after reconnect', async () => {
    const s = await watching('FS-N4');
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FS-N4', cmd_type: 8, action_cmd: 1, value: routeN4 });
    expect(r.code).toBe(ResultCode.OK);
    const flightId = (r.data as { flight_id: string }).flight_id;
    await s.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && ((f.data as { mission: Mission | null }).mission?.waypoint_index ?? 0) >= 1, WAIT_LIMIT_MS);
    fleet.inject('FS-N4', 'offline');
    await until(() => !live(server).link.isOnline('FS-N4'), 'FS-N4 offline on the server');
    const cmdId = randomUUID();
    const pause = await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FS-N4', control_cmd: 1, cmd_id: cmdId });
    expect(pause).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'offline', reason: Reason.OFFLINE } });
    expect(pause.msg).toContain('The device is offline');
    // Refused before anything is sent (no wait for the device): the pause never reaches it (checked below).
    fleet.clear('FS-N4', 'offline');
    await until(() => live(server).link.isOnline('FS-N4'), 'FS-N4 back online');
    // The same cmd_id again is answered from the log; nothing was queued for the device.
    expect(await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FS-N4', control_cmd: 1, cmd_id: cmdId })).toMatchObject({ data: { reason: Reason.OFFLINE } });
    expect(await server.db.selectFrom('command_log').select('id').where('cmd_id', '=', cmdId).execute()).toHaveLength(1);
    const from = s.frames.length;
    const next = await s.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (f.data as { mission: Mission | null }).mission?.flight_id === flightId, WAIT_LIMIT_MS, from);
    expect((next.data as { mission: Mission }).mission.state).not.toBe('paused');
  });

  it('low battery (fault) is refused with reason 4; an offline device gives a clear outcome', async () => {
    const s = await watching('FS-N3');
    fleet.inject('FS-N3', 'low_battery');
    await until(() => (live(server).link.device('FS-N3')?.telemetry?.drone?.battery.percent ?? 100) < 50, 'a low battery in the telemetry of FS-N3');
    const low = await command(s, PushMsgId.CONTROL, { sn_id: 'FS-N3', cmd_type: 1 });
    expect(low).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'refused', reason: Reason.LOW_BATTERY } });
    fleet.clear('FS-N3', 'low_battery');

    fleet.inject('FS-N3', 'offline');
    await until(() => !live(server).link.isOnline('FS-N3'), 'FS-N3 offline on the server');
    const cmdId = randomUUID();
    const off = await command(s, PushMsgId.CONTROL, { sn_id: 'FS-N3', cmd_type: 2, cmd_id: cmdId });
    expect(off).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { reason: Reason.OFFLINE } });
    const rows = await server.db.selectFrom('command_log').selectAll().where('sn_id', '=', 'FS-N3').where('method', '=', FlightMethod.LAND).execute();
    expect(rows.filter((r) => r.cmd_id === cmdId)).toHaveLength(1);
  });
});
