/**
 * Flight operations end to end with hand-driven devices (raw MQTT over the embedded broker): push 401 /
 * 473 from a user's socket, the runtime's checks, the link command, the device's reply, the audit log,
 * the progress frames (320 / 330) and the route breakpoint. Cases the simulator cannot produce (a lost
 * reply, a device that never answers) need a raw device anyway.
 */
import { DEVICE_PUSH_FUNCTION, FlightMethod, PushMsgId, Reason, ResultCode } from '@nest/contracts';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { FakeNest } from '../../test/fake-nest.js';
import { PushSocket, WAIT_LIMIT_MS, envelope, listen, live, registerDevice, until, clockPast } from '../../test/live.js';

const OPERATOR_FUNS = [DEVICE_PUSH_FUNCTION, 'device_list', 'device_connect', 'flight_check', 'command_log'];
import { nestDroneTelemetry } from './fixtures.js';
import { STICK_MIN_INTERVAL_MS } from './runtime.js';

let server: TestServer;
let base: string;
let admin: TestClient;
let opA: TestClient & { account: { u_id: string } };
let opB: TestClient & { account: { u_id: string } };
let opG: TestClient;
let nest: FakeNest;
let missionId: string;
const nests: FakeNest[] = [];
const sockets: PushSocket[] = [];

async function addRoute(sn: string, name = 'Patrol'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const fenceId = randomUUID();
  const d = 0.01;
  await server.db
    .insertInto('fences')
    .values({
      id: fenceId,
      name: `Fence ${sn}`,
      max_height: 120,
      boundary: JSON.stringify([
        { lat: 22.54 - d, lng: 114.05 - d },
        { lat: 22.54 - d, lng: 114.05 + d },
        { lat: 22.54 + d, lng: 114.05 + d },
        { lat: 22.54 + d, lng: 114.05 - d },
      ]),
      sn_id: sn,
      company_id: 'wk',
      created_at: now,
      updated_at: now,
    })
    .execute();
  const id = randomUUID();
  const waypoints = [0, 1, 2, 3].map((i) => ({ lat: 22.536 + i * 0.002, lng: 114.046 + i * 0.002, height: 50 }));
  await server.db
    .insertInto('missions')
    .values({
      id,
      name,
      fence_id: fenceId,
      mission_type: 1,
      height_type: 0,
      auto_speed: 10,
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

beforeAll(async () => {
  server = await startTestServer({ config: { deviceHoldSeconds: 30 } });
  await live(server).link.ready();
  await registerDevice(server, { sn_id: 'FO-N1' });
  await registerDevice(server, { sn_id: 'FO-N2' });
  await registerDevice(server, { sn_id: 'FO-OFF', enabled: false });
  await registerDevice(server, { sn_id: 'FO-X1', company_id: 'gzGh' });
  nest = await FakeNest.start(server, 'FO-N1');
  nests.push(nest);
  missionId = await addRoute('FO-N1');
  admin = await adminClient(server);
  opA = await userClient(server, { nick: 'Operator A', funList: OPERATOR_FUNS });
  opB = await userClient(server, { nick: 'Operator B', funList: OPERATOR_FUNS });
  opG = await userClient(server, { nick: 'Other company', funList: OPERATOR_FUNS, companyId: 'gzGh' });
  base = await listen(server);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const n of nests) await n.stop().catch(() => undefined);
  await server?.close();
});

/**
 * A socket of `c` watching a device whose control connection `c` takes (flight commands need it), unless
 * someone else holds it (the refusal is then what the test looks at).
 */
async function watching(c: TestClient, sn: string): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(c)).code).toBe(ResultCode.OK);
  expect((await s.verifyDevice(c, sn)).code).toBe(ResultCode.OK);
  expect([ResultCode.OK, ResultCode.DEVICE_BUSY]).toContain((await c.call('deviceConnect', { sn_id: sn })).body.code);
  return s;
}

// Every test starts with nobody holding a device.
afterEach(async () => {
  for (const sn of ['FO-N1', 'FO-N2', 'FO-N3']) for (const u of [opA, opB]) await live(server).status.release(sn, u.account.u_id);
});

/** Sends a push command and waits for its reply (which may come only after the link's timeouts). */
async function command(s: PushSocket, msgId: number, data: Record<string, unknown>) {
  const from = s.frames.length;
  s.send(msgId, data);
  return s.wait((f) => f.msg_id === msgId, WAIT_LIMIT_MS, from);
}

const progress = (flightId: string, state: string, index: number, count = 4) => ({
  flight_id: flightId,
  mission_id: missionId,
  state,
  waypoint_index: index,
  waypoint_count: count,
  percent: (index / count) * 100,
  distance_flown: index * 300,
  flight_time: index * 30,
  photos: index,
});

const flow = (flightId: string, state: string) => ({
  flow_id: flightId,
  kind: 'takeoff',
  state,
  steps: [{ step: 'drone_start', state: state === 'running' ? 'running' : 'done', elapsed: 1 }],
  current: 0,
  error: null,
  tip: null,
  started_at: Date.now(),
  elapsed: 1,
});

const logRow = (cmdId: string) => server.db.selectFrom('command_log').selectAll().where('cmd_id', '=', cmdId).executeTakeFirst();
const breakpoint = async () => (await server.db.selectFrom('missions').select('breakpoint').where('id', '=', missionId).executeTakeFirstOrThrow()).breakpoint;

describe('navigation (401 cmd_type 8) on a nest on the ground', () => {
  it('takes off with the route, forwards 320 / 330, and logs the command', async () => {
    const s = await watching(opA, 'FO-N1');
    const cmdId = randomUUID();
    const reply = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 8, action_cmd: 1, value: missionId, cmd_id: cmdId });
    expect(reply).toMatchObject({ code: ResultCode.OK, data: { sn_id: 'FO-N1', cmd_id: cmdId, outcome: 'ok', reason: 0 } });
    const sent = nest.of(FlightMethod.TAKEOFF);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.tid).toBe(cmdId);
    const data = sent[0]!.data as { flight_id: string; mission: { mission_id: string; waypoints: unknown[]; start_index: number } };
    expect(data.mission).toMatchObject({ mission_id: missionId, start_index: 0 });
    expect(data.mission.waypoints).toHaveLength(4);
    expect((reply.data as { flight_id: string }).flight_id).toBe(data.flight_id);
    expect(sent[0]!.bid).toBe(data.flight_id);

    await nest.event(FlightMethod.FLOW_PROGRESS, flow(data.flight_id, 'running'));
    const f320 = await s.wait((f) => f.msg_id === PushMsgId.FLOW_PROGRESS && (f.data as { flow: unknown }).flow !== null, WAIT_LIMIT_MS);
    expect(f320.data).toMatchObject({ sn_id: 'FO-N1', flow: { flow_id: data.flight_id, state: 'running' } });
    await nest.event(FlightMethod.MISSION_PROGRESS, progress(data.flight_id, 'running', 1));
    const f330 = await s.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (f.data as { mission: unknown }).mission !== null, WAIT_LIMIT_MS);
    expect(f330.data).toMatchObject({ sn_id: 'FO-N1', mission_name: 'Patrol', mission: { waypoint_index: 1 } });

    // A panel opened mid-flight gets the current timeline from the retained state.
    await nest.state({ flow: flow(data.flight_id, 'done'), mission: progress(data.flight_id, 'running', 2) });
    await until(() => live(server).link.device('FO-N1')?.state?.mission?.waypoint_index === 2, 'the retained state at waypoint 2');
    const late = await watching(opA, 'FO-N1');
    expect(late.of(PushMsgId.FLOW_PROGRESS)[0]?.data).toMatchObject({ flow: { flow_id: data.flight_id, state: 'done' } });
    expect(late.of(PushMsgId.MISSION_PROGRESS)[0]?.data).toMatchObject({ mission: { waypoint_index: 2 }, mission_name: 'Patrol' });

    // Finished: the breakpoint stays clear; the log has the whole story.
    await nest.event(FlightMethod.MISSION_PROGRESS, progress(data.flight_id, 'done', 4));
    await nest.state({ flow: flow(data.flight_id, 'done'), mission: progress(data.flight_id, 'done', 4) });
    await until(() => live(server).link.device('FO-N1')?.state?.mission?.state === 'done', 'the done state');
    expect(await logRow(cmdId)).toMatchObject({
      sn_id: 'FO-N1',
      u_id: opA.account.u_id,
      user_name: 'Operator A',
      source: 'console',
      cmd_type: 8,
      action_cmd: 1,
      method: FlightMethod.TAKEOFF,
      flight_id: data.flight_id,
      outcome: 'ok',
    });
    expect((await logRow(cmdId))?.finished_at).not.toBeNull();
  });

  it('runs a re-sent cmd_id once: the device sees one command, both answers are the same', async () => {
    const s = await watching(opA, 'FO-N1');
    const before = nest.commands.length;
    const cmdId = randomUUID();
    const first = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 10, cmd_id: cmdId });
    const again = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 10, cmd_id: cmdId });
    expect(first).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
    expect({ ...again, at: 0 }).toEqual({ ...first, at: 0 });
    expect(nest.commands.slice(before).filter((c) => c.tid === cmdId)).toHaveLength(1);
  });

  it('answers pending (reason 20) to a repeat while the first still waits for the device', async () => {
    const s = await watching(opA, 'FO-N1');
    const cmdId = randomUUID();
    let release: (() => void) | null = null;
    nest.respond = (m) => {
      if (m.tid !== cmdId) return { result: 0 };
      release = () => void nest.raw.publish('commands_reply', envelope(`${m.method}_reply`, { result: 0 }, m.tid), { qos: 1 });
      return null;
    };
    try {
      s.send(PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 7, value: 3, cmd_id: cmdId });
      await until(() => release !== null, 'the command at the device');
      const pending = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 7, value: 3, cmd_id: cmdId });
      expect(pending).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'pending', reason: Reason.IN_PROGRESS } });
      release!();
      const done = await s.wait((f) => f.msg_id === PushMsgId.CONTROL && (f.data as { outcome: string }).outcome === 'ok', WAIT_LIMIT_MS);
      expect(done.data).toMatchObject({ cmd_id: cmdId });
      expect(nest.commands.filter((c) => c.tid === cmdId)).toHaveLength(1);
    } finally {
      nest.respond = () => ({ result: 0 });
    }
  });
});

describe('process control (473) and breakpoints', () => {
  it('pauses, continues, interrupts; the breakpoint is stored and a resume starts there', async () => {
    const s = await watching(opA, 'FO-N1');
    // In the air now: navigation becomes mission.start.
    nest.telemetry = nestDroneTelemetry({ fs: 2 });
    await nest.state({ flow: null, mission: null });
    await until(() => live(server).link.device('FO-N1')?.telemetry?.drone?.flight_state === 2, 'FO-N1 in the air');
    const start = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 8, action_cmd: 1, value: missionId });
    expect(start).toMatchObject({ code: ResultCode.OK });
    const flightId = (start.data as { flight_id: string }).flight_id;
    expect(nest.of(FlightMethod.MISSION_START).at(-1)?.data).toMatchObject({ flight_id: flightId, mission: { mission_id: missionId } });

    for (const control_cmd of [1, 2]) {
      expect(await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FO-N1', control_cmd })).toMatchObject({
        code: ResultCode.OK,
        data: { control_cmd, outcome: 'ok' },
      });
    }
    // The device refuses a pause during a step that cannot pause: the text says what failed and why.
    nest.respond = (m) => (m.method === FlightMethod.PROCESS ? { result: 10, output: { refusal: 4 } } : { result: 0 });
    const refusedPause = await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FO-N1', control_cmd: 1 });
    nest.respond = () => ({ result: 0 });
    expect(refusedPause).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'rejected', refusal: 4 } });
    expect(refusedPause.msg).toContain('This step cannot be paused');

    expect(await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FO-N1', control_cmd: 3 })).toMatchObject({ code: ResultCode.OK });
    expect(nest.of(FlightMethod.PROCESS).map((c) => (c.data as { control_cmd: number }).control_cmd)).toEqual([1, 2, 1, 3]);
    await nest.event(FlightMethod.MISSION_PROGRESS, progress(flightId, 'interrupted', 2));
    await until(async () => (await breakpoint()) === 2, 'the breakpoint stored');

    const resume = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 8, action_cmd: 2, value: missionId });
    expect(resume).toMatchObject({ code: ResultCode.OK });
    const resumed = resume.data as { flight_id: string };
    expect(nest.of(FlightMethod.MISSION_START).at(-1)?.data).toMatchObject({ flight_id: resumed.flight_id, mission: { start_index: 2 } });
    await nest.event(FlightMethod.MISSION_PROGRESS, { ...progress(resumed.flight_id, 'done', 4) });
    await until(async () => (await breakpoint()) === null, 'the breakpoint cleared');
    nest.telemetry = nestDroneTelemetry();
  });

  it('refuses a resume without a breakpoint (reason 18)', async () => {
    const s = await watching(opA, 'FO-N1');
    const before = nest.commands.length;
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 8, action_cmd: 2, value: missionId });
    expect(r).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'refused', reason: Reason.NO_BREAKPOINT } });
    expect(nest.commands.length).toBe(before);
  });
});

describe('refusals', () => {
  it('low battery: refused with reason 4 and the checks, nothing sent', async () => {
    const s = await watching(opA, 'FO-N1');
    nest.telemetry = nestDroneTelemetry({ battery: 30 });
    await until(() => live(server).link.device('FO-N1')?.telemetry?.drone?.battery.percent === 30, 'the low battery seen');
    const before = nest.commands.length;
    try {
      const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 8, action_cmd: 1, value: missionId });
      expect(r).toMatchObject({ code: ResultCode.PUSH_FAILED, msg: 'Battery below 50%: charge the drone before takeoff', data: { outcome: 'refused', reason: Reason.LOW_BATTERY } });
      expect((r.data as { checks: { item: string; ok: boolean; value: unknown }[] }).checks.find((c) => c.item === 'battery')).toMatchObject({ ok: false, value: 30 });
      expect(nest.commands.length).toBe(before);
    } finally {
      nest.telemetry = nestDroneTelemetry();
    }
  });

  it('a device another user holds: reason 2; a task may not fly a held device either', async () => {
    await live(server).status.connect('FO-N1', { u_id: opB.account.u_id, nick: 'Operator B' });
    try {
      const s = await watching(opA, 'FO-N1');
      const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 1 });
      expect(r).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'refused', reason: Reason.HELD } });
      const sB = await watching(opB, 'FO-N1');
      expect(await command(sB, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 10 })).toMatchObject({ code: ResultCode.OK });
      const task = await server.app.nest.flight.launchMission(
        { u_id: 'task', nick: 'Timed task', company_id: 'wk', all: false, source: 'task' },
        { sn: 'FO-N1', missionId },
        'en',
      );
      expect(task).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { reason: Reason.HELD, outcome: 'refused' } });
    } finally {
      await live(server).status.release('FO-N1', opB.account.u_id);
    }
  });

  it('a disabled device: reason 3; another company\'s device: NOT_FOUND_OBJECT', async () => {
    const s = await PushSocket.open(base);
    sockets.push(s);
    await s.verifyUser(opA);
    expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-OFF', cmd_type: 1 })).toMatchObject({
      code: ResultCode.PUSH_FAILED,
      data: { outcome: 'refused', reason: Reason.DISABLED },
    });
    expect((await command(s, PushMsgId.CONTROL, { sn_id: 'FO-X1', cmd_type: 1 })).code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await command(s, PushMsgId.PROCESS_CONTROL, { sn_id: 'FO-X1', control_cmd: 1 })).code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const g = await PushSocket.open(base);
    sockets.push(g);
    await g.verifyUser(opG);
    expect((await command(g, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 10 })).code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('an offline device: outcome offline, nothing published', async () => {
    const s = await PushSocket.open(base);
    sockets.push(s);
    await s.verifyUser(opA);
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N2', cmd_type: 10 });
    expect(r).toMatchObject({ code: ResultCode.PUSH_FAILED, msg: 'The device is offline', data: { outcome: 'offline', reason: Reason.OFFLINE } });
  });

  it('bad values: flight mode 2, camera settings out of range', async () => {
    const s = await watching(opA, 'FO-N1');
    expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 4, value: 2 })).toMatchObject({ data: { reason: Reason.BAD_VALUE } });
    expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 9, settings: { iso: 7 } })).toMatchObject({ data: { reason: Reason.BAD_VALUE } });
    expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 9, settings: { iso: 400 } })).toMatchObject({ code: ResultCode.OK });
    expect(nest.of(FlightMethod.CAMERA_SET).at(-1)?.data).toEqual({ iso: 400 });
  });
});

describe('virtual stick', () => {
  it('frames are published without a reply, rate-limited; refused frames are answered; stick mode is logged', async () => {
    const s = await watching(opA, 'FO-N1');
    nest.telemetry = nestDroneTelemetry({ fs: 2 });
    await until(() => live(server).link.device('FO-N1')?.telemetry?.drone?.flight_state === 2, 'FO-N1 in the air');
    try {
      const on = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 12, action_cmd: 1 });
      expect(on).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
      expect((await logRow((on.data as { cmd_id: string }).cmd_id))?.method).toBe(FlightMethod.STICK_MODE);
      const before = nest.of(FlightMethod.STICK).length;
      const replies = s.of(PushMsgId.CONTROL).length;
      const sticks = { roll: 1600, pitch: 1500, throttle: 1500, yaw: 1500 };
      // Two frames back to back (one read of the socket): the second is within STICK_MIN_INTERVAL_MS and dropped.
      s.send(PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 5, sticks });
      s.send(PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 5, sticks });
      // The server forwarded the first before the device got it: a frame sent STICK_MIN_INTERVAL_MS later is
      // outside the interval on the runtime's clock.
      await until(() => nest.of(FlightMethod.STICK).length > before, 'the first stick frame at the device');
      await clockPast(Date.now(), STICK_MIN_INTERVAL_MS);
      s.send(PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 5, sticks: { ...sticks, roll: 1400 } });
      // Frames reach the device in the order the server handled them: the second, had it been forwarded,
      // would be there before the third. Replies would be on the socket before the heartbeat's.
      await until(() => nest.of(FlightMethod.STICK).some((f) => (f.data as { roll: number }).roll === 1400), 'the third stick frame at the device');
      await s.roundTrip();
      const frames = nest.of(FlightMethod.STICK).slice(before);
      expect(frames).toHaveLength(2);
      expect(frames.map((f) => f.data)).toEqual([
        { seq: expect.any(Number), ...sticks },
        { seq: expect.any(Number), ...sticks, roll: 1400 },
      ]);
      expect(s.of(PushMsgId.CONTROL).length).toBe(replies);
      // Frames are not audited one by one.
      const logged = await server.db.selectFrom('command_log').select('cmd_type').where('cmd_type', '=', 5).execute();
      expect(logged).toHaveLength(0);

      // Control given back: frames are refused (take control first); someone else holding it: reason 2.
      expect((await opA.call('deviceConnect', { sn_id: 'FO-N1', action: 'release' })).body.code).toBe(ResultCode.OK);
      expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 5, sticks })).toMatchObject({
        code: ResultCode.PUSH_FAILED,
        data: { reason: Reason.NOT_HOLDING },
      });
      await live(server).status.connect('FO-N1', { u_id: opB.account.u_id, nick: 'Operator B' });
      try {
        const refused = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 5, sticks });
        expect(refused).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { reason: Reason.HELD } });
      } finally {
        await live(server).status.release('FO-N1', opB.account.u_id);
      }
      expect((await opA.call('deviceConnect', { sn_id: 'FO-N1' })).body.code).toBe(ResultCode.OK);
      expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 12, action_cmd: 0 })).toMatchObject({ code: ResultCode.OK });
    } finally {
      nest.telemetry = nestDroneTelemetry();
    }
  });
});

describe('the link under a physical command', () => {
  it('a lost takeoff reply is confirmed from the device state (sent once, no re-send)', async () => {
    const s = await watching(opA, 'FO-N1');
    const timeouts = () => live(server).link.counters.read('FO-N1')?.commandTimeouts ?? 0;
    const timedOut = timeouts();
    nest.respond = (m) => {
      if (m.method !== FlightMethod.TAKEOFF) return { result: 0 };
      const id = (m.data as { flight_id: string }).flight_id;
      // The device takes off but its reply never arrives. Its state shows the flow only after the server's wait
      // for the reply timed out: the server confirms the takeoff from a state that comes while it looks.
      void until(() => timeouts() > timedOut, 'the takeoff to time out at the server')
        .then(() => nest.state({ flow: flow(id, 'running'), mission: null }))
        // Without the state, the command's outcome says what went wrong.
        .catch(() => undefined);
      return null;
    };
    try {
      const before = nest.of(FlightMethod.TAKEOFF).length;
      const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N1', cmd_type: 1, value: 40 });
      expect(r).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
      expect(nest.of(FlightMethod.TAKEOFF).length).toBe(before + 1);
      expect(nest.of(FlightMethod.TAKEOFF).at(-1)?.data).toMatchObject({ height: 40, mission: null });
      expect((await logRow((r.data as { cmd_id: string }).cmd_id))?.detail).toContain('confirmed');
    } finally {
      nest.respond = () => ({ result: 0 });
      await nest.state({ flow: null, mission: null });
    }
  });

  it('a device dropping while a command waits: outcome offline at once, nothing re-sent on reconnect', async () => {
    await registerDevice(server, { sn_id: 'FO-N3' });
    const n3 = await FakeNest.start(server, 'FO-N3', { withWill: true });
    nests.push(n3);
    await addRoute('FO-N3', 'Drop route');
    const s = await watching(opA, 'FO-N3');
    const cmdId = randomUUID();
    // The device drops shortly after it got this command (other commands, e.g. the video start a watching
    // panel asks for, are answered).
    n3.respond = (m) => {
      if (m.tid !== cmdId) return { result: 0 };
      setTimeout(() => n3.drop(), 100);
      return null;
    };
    const r = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N3', cmd_type: 10, cmd_id: cmdId });
    // The broker publishes the dropped device's last-will: the wait ends as offline, not at the command timeout.
    expect(r).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'offline', reason: Reason.OFFLINE } });
    expect(await logRow(cmdId)).toMatchObject({ outcome: 'offline', detail: 'device dropped while waiting' });
    n3.respond = () => ({ result: 0 });
    await n3.reconnect(server);
    // Another command reaches the device after anything the reconnection made the server send.
    expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N3', cmd_type: 10 })).toMatchObject({ code: ResultCode.OK });
    expect(n3.commands.filter((c) => c.tid === cmdId)).toHaveLength(1);
    // The same cmd_id again is answered from the log, not sent.
    expect(await command(s, PushMsgId.CONTROL, { sn_id: 'FO-N3', cmd_type: 10, cmd_id: cmdId })).toMatchObject({ data: { outcome: 'offline' } });
    expect(n3.commands.filter((c) => c.tid === cmdId)).toHaveLength(1);
  });
});

describe('calls', () => {
  it('/flight/check answers the checks; /command/log is company-scoped and filterable', async () => {
    // Without the control connection the control check fails: the operator takes control first.
    const free = await opA.call<{ ready: boolean; checks: { item: string; ok: boolean; reason: number | null }[] }>('flightCheck', { sn_id: 'FO-N1', mission_id: missionId });
    expect(free.body.data.ready).toBe(false);
    expect(free.body.data.checks.find((c) => c.item === 'control')).toMatchObject({ ok: false, reason: Reason.NOT_HOLDING });
    expect((await opA.call('deviceConnect', { sn_id: 'FO-N1' })).body.code).toBe(ResultCode.OK);
    const check = await opA.call<{ ready: boolean; checks: { item: string; ok: boolean }[] }>('flightCheck', { sn_id: 'FO-N1', mission_id: missionId });
    expect(check.body.code).toBe(ResultCode.OK);
    expect(check.body.data.ready).toBe(true);
    expect(check.body.data.checks.map((c) => c.item)).toContain('route');
    const missing = await opA.call<{ ready: boolean; checks: { reason: number }[] }>('flightCheck', { sn_id: 'FO-N1', mission_id: 'no-such-route' });
    expect(missing.body.data).toMatchObject({ ready: false });
    expect(missing.body.data.checks.find((c) => c.reason === Reason.ROUTE_MISSING)).toBeTruthy();

    const log = await opA.call<{ list: { sn_id: string; user_name: string; outcome: string }[]; total: number }>('commandLog', { sn_id: 'FO-N1', page: 0, size: 200 });
    expect(log.body.code).toBe(ResultCode.OK);
    expect(log.body.data.total).toBeGreaterThan(5);
    expect(log.body.data.list.every((r) => r.sn_id === 'FO-N1')).toBe(true);
    const byB = await opA.call<{ list: { user_name: string }[] }>('commandLog', { search: 'operator b', page: 0, size: 200 });
    expect(byB.body.data.list.length).toBeGreaterThan(0);
    expect(byB.body.data.list.every((r) => r.user_name === 'Operator B')).toBe(true);
    const other = await opG.call<{ total: number }>('commandLog', { page: 0, size: 200 });
    expect(other.body.data.total).toBe(0);
    const all = await admin.call<{ total: number }>('commandLog', { page: 0, size: 200 });
    expect(all.body.data.total).toBeGreaterThanOrEqual(log.body.data.total);
  });
});

describe('split surveys', () => {
  it('a flight started with any part of a group flies its next part; a part flown to its end makes the following one next', async () => {
    await registerDevice(server, { sn_id: 'FO-G1' });
    const n2 = await FakeNest.start(server, 'FO-G1');
    nests.push(n2);
    const parts = [await addRoute('FO-G1', 'Survey (1/2)'), await addRoute('FO-G1', 'Survey (2/2)')];
    for (const [k, id] of parts.entries())
      await server.db.updateTable('missions').set({ group_id: 'G-FO-G1', group_index: k + 1, group_count: 2 }).where('id', '=', id).execute();
    const flown = async (id: string) => Number((await server.db.selectFrom('missions').select('group_flown').where('id', '=', id).executeTakeFirstOrThrow()).group_flown);
    const s = await watching(opA, 'FO-G1');
    const fly = async (asked: string) => {
      const reply = await command(s, PushMsgId.CONTROL, { sn_id: 'FO-G1', cmd_type: 8, action_cmd: 1, value: asked, cmd_id: randomUUID() });
      expect(reply).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok' } });
      const sent = n2.of(FlightMethod.TAKEOFF);
      return sent[sent.length - 1]!.data as { flight_id: string; mission: { mission_id: string } };
    };
    // Part 2 asked, part 1 flies (nothing of the group has flown yet).
    const first = await fly(parts[1]!);
    expect(first.mission.mission_id).toBe(parts[0]);
    const done = { ...progress(first.flight_id, 'done', 4), mission_id: parts[0] };
    await n2.event(FlightMethod.MISSION_PROGRESS, done);
    await n2.state({ flow: flow(first.flight_id, 'done'), mission: done });
    await until(async () => (await flown(parts[0]!)) === 1, 'part 1 marked flown');
    await until(() => live(server).link.device('FO-G1')?.state?.mission?.state === 'done', 'the done state');
    // Part 1 asked again: part 2 flies; once it is done the whole group starts over.
    const second = await fly(parts[0]!);
    expect(second.mission.mission_id).toBe(parts[1]);
    const done2 = { ...progress(second.flight_id, 'done', 4), mission_id: parts[1] };
    await n2.event(FlightMethod.MISSION_PROGRESS, done2);
    await until(async () => (await flown(parts[0]!)) === 0 && (await flown(parts[1]!)) === 0, 'the group started over');
    await live(server).status.release('FO-G1', opA.account.u_id);
  });
});
