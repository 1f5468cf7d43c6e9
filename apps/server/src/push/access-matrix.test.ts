/**
 * The push authorization matrix, generated from contracts PUSH_ACCESS like the call matrix is from the call
 * registry: every message a browser sends (100, 101, 200, 210, every 401 cmd_type, every 473 control_cmd)
 * and every message the server sends, for every kind of subject:
 *
 *   no session, signed out, deleted, disabled, validity ended, other company, group member, without the
 *   control function, not holding, someone else holding, holder
 *
 * -> the expected answer. Two raw MQTT nests (one on the ground, one in the air, so that every command can
 * be valid for the holder) record what reaches them on the broker: a refused command must reach nothing.
 */
import {
  ALARM_PUSH_FUNCTION,
  APP_CODE,
  APP_IDS,
  EQUIPMENT_VERIFY_SOR,
  EQUIPMENT_VERIFY_VST,
  CmdType,
  CommandReason,
  ControlCmdType,
  DEVICE_CONTROL_FUNCTION,
  DEVICE_PUSH_FUNCTION,
  FlightMethod,
  GimbalAction,
  LinkMethod,
  NEUTRAL_STICKS,
  PUSH_ACCESS,
  ProcessControlCommand,
  PushMsgId,
  Reason,
  ResultCode,
  signPmd,
  type AlarmPush,
  type PushReply,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userEditFields } from '../../test/accounts.js';
import { FakeNest } from '../../test/fake-nest.js';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, addPatrolRoute, listen, live, registerDevice, until } from '../../test/live.js';
import { nestDroneTelemetry } from '../flight/fixtures.js';

const GROUND = 'MX-G';
const AIR = 'MX-A';
const HOME = { lat: 22.54, lng: 114.05 };
const ALL_FUNS = [DEVICE_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION, ALARM_PUSH_FUNCTION, 'device_list'];

type Subject =
  | 'no session'
  | 'signed out'
  | 'deleted'
  | 'disabled'
  | 'validity ended'
  | 'other company'
  | 'group member'
  | 'without the function'
  | 'not holding'
  | 'someone else holds'
  | 'holder';

/** Subjects whose session ended while their socket was open: it got 46010 and closed. */
const ENDED_SUBJECTS = ['signed out', 'deleted', 'disabled', 'validity ended'] as const;
const ENDED: readonly Subject[] = ENDED_SUBJECTS;
/** Subjects of the devices' company with a live session (they see the devices and the company's frames). */
const SAME_COMPANY: readonly Subject[] = ['without the function', 'not holding', 'someone else holds', 'holder'];

/** One inbound case: a message (and for 401 / 473 one cmd_type / control_cmd) with valid data. */
interface Case {
  name: string;
  msgId: number;
  /** The device a flight command goes to (takeoff and routes: the one on the ground). */
  sn?: string;
  data: (c: TestClient) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** The device method a holder's command turns into. */
  method?: string;
}

let server: TestServer;
let base: string;
let admin: TestClient;
let routeId: string;
const nests: FakeNest[] = [];
const sockets: PushSocket[] = [];

/** Valid data for each 401 cmd_type (for the holder it must reach the device). */
function controlData(t: number): { sn: string; data: Record<string, unknown>; method: string } {
  switch (t) {
    case CmdType.TAKEOFF:
      return { sn: GROUND, data: { value: 0 }, method: FlightMethod.TAKEOFF };
    case CmdType.NAVIGATION:
      return { sn: GROUND, data: { action_cmd: 1, value: routeId }, method: FlightMethod.TAKEOFF };
    case CmdType.LAND:
      return { sn: AIR, data: {}, method: FlightMethod.LAND };
    case CmdType.RETURN:
      return { sn: AIR, data: {}, method: FlightMethod.RETURN };
    case CmdType.LAND_HERE:
      return { sn: AIR, data: {}, method: FlightMethod.LAND_HERE };
    case CmdType.FLIGHT_MODE:
      return { sn: AIR, data: { value: 1 }, method: FlightMethod.MODE };
    case CmdType.STICK:
      return { sn: AIR, data: { sticks: NEUTRAL_STICKS }, method: FlightMethod.STICK };
    case CmdType.GIMBAL:
      return { sn: AIR, data: { action_cmd: GimbalAction.PITCH, value: -30 }, method: FlightMethod.GIMBAL };
    case CmdType.ZOOM:
      return { sn: AIR, data: { value: 2 }, method: FlightMethod.ZOOM };
    case CmdType.CAMERA:
      return { sn: AIR, data: { settings: { zoom: 2 } }, method: FlightMethod.CAMERA_SET };
    case CmdType.PHOTO:
      return { sn: AIR, data: {}, method: FlightMethod.PHOTO };
    case CmdType.RECORD:
      return { sn: AIR, data: { action_cmd: 1 }, method: FlightMethod.RECORD };
    case CmdType.STICK_MODE:
      return { sn: AIR, data: { action_cmd: 1 }, method: FlightMethod.STICK_MODE };
    default:
      throw new Error(`no case for cmd_type ${t}`);
  }
}

/** Every inbound message of PUSH_ACCESS, 401 and 473 expanded to every cmd_type and control_cmd. */
function inboundCases(): Case[] {
  const cases: Case[] = [];
  for (const a of PUSH_ACCESS.filter((p) => p.direction === 'in')) {
    switch (a.msgId) {
      case PushMsgId.USER_VERIFY:
        cases.push({ name: '100', msgId: a.msgId, data: async (c) => verifyData(c) });
        break;
      case PushMsgId.HEARTBEAT:
        cases.push({ name: '101', msgId: a.msgId, data: () => ({}) });
        break;
      case PushMsgId.EQUIPMENT_VERIFY:
        cases.push({ name: '200', msgId: a.msgId, sn: AIR, data: (c) => equipmentData(c, AIR) });
        break;
      case PushMsgId.FLEET_SUBSCRIBE:
        cases.push({ name: '210', msgId: a.msgId, data: () => ({ on: true }) });
        break;
      case PushMsgId.CONTROL:
        for (const e of ControlCmdType.entries) {
          const { sn, data, method } = controlData(e.value);
          cases.push({ name: `401 cmd_type ${e.value} (${e.label.en})`, msgId: a.msgId, sn, method, data: () => ({ sn_id: sn, cmd_type: e.value, ...data }) });
        }
        break;
      case PushMsgId.PROCESS_CONTROL:
        for (const e of ProcessControlCommand.entries) {
          cases.push({ name: `473 control_cmd ${e.value} (${e.label.en})`, msgId: a.msgId, sn: AIR, method: FlightMethod.PROCESS, data: () => ({ sn_id: AIR, control_cmd: e.value }) });
        }
        break;
      default:
        throw new Error(`the matrix has no case for inbound message ${a.msgId}: add one`);
    }
  }
  return cases;
}

/** Data of 100 as the browser sends it (`token` overrides: a dead or made-up one). */
async function verifyData(c: TestClient, token = c.token): Promise<Record<string, unknown>> {
  return { token, app_ids: APP_IDS, app_code: APP_CODE, licence: await c.licence(token), os_language: 'en' };
}

function equipmentData(c: TestClient, sn: string): Record<string, unknown> {
  return { token: c.token, sn_id: sn, pmd: signPmd({ token: c.token, pmdValue: sn }), vst: EQUIPMENT_VERIFY_VST, sor: EQUIPMENT_VERIFY_SOR, os_language: 'en' };
}

/** What a subject's message must be answered: a code, a CommandReason for 2002, or no answer (stick frames). */
interface Expected {
  code: number | null;
  reason?: number;
  /** The device must get the command (else: nothing reaches it). */
  reaches: boolean;
}

const FLIGHT = new Set<number>([PushMsgId.CONTROL, PushMsgId.PROCESS_CONTROL]);
const refusedFor: Partial<Record<Subject, number>> = {
  'group member': Reason.SHARED_ONLY,
  'without the function': Reason.NO_CONTROL_FUNCTION,
  'not holding': Reason.NOT_HOLDING,
  'someone else holds': Reason.HELD,
};

function expected(subject: Subject, c: Case): Expected {
  const no = (code: number, reason?: number): Expected => ({ code, ...(reason !== undefined ? { reason } : {}), reaches: false });
  if (subject === 'no session' || ENDED.includes(subject)) return no(ResultCode.LOGIN_EXPIRED);
  if (subject === 'other company') return c.msgId === PushMsgId.EQUIPMENT_VERIFY || FLIGHT.has(c.msgId) ? no(ResultCode.NOT_FOUND_OBJECT) : no(ResultCode.OK);
  if (!FLIGHT.has(c.msgId)) return no(ResultCode.OK);
  const reason = refusedFor[subject];
  if (reason !== undefined) return no(ResultCode.PUSH_FAILED, reason);
  // The holder: carried out (an accepted stick frame has no answer).
  return { code: c.method === FlightMethod.STICK ? null : ResultCode.OK, reaches: true };
}

/** Commands a nest got, video commands (asked for by watching it) left out. */
const flightCommands = (n: FakeNest) => n.commands.filter((m) => m.method !== LinkMethod.VIDEO_START && m.method !== LinkMethod.VIDEO_STOP);

/**
 * Everything the server published to the nests before now has reached them: a command sent after it
 * through the same link arrives after it (MQTT keeps one publisher's order).
 */
async function brokerBarrier(): Promise<void> {
  for (const n of nests) {
    const outcome = await live(server).link.command(n.sn, LinkMethod.VIDEO_STOP, {});
    expect(outcome.status).toBe('ok');
  }
}

/** Sends one case and answers the reply with that msg_id (null for a stick frame carried out silently). */
async function send(s: PushSocket, c: Case, data: Record<string, unknown>): Promise<PushReply | null> {
  const from = s.frames.length;
  s.send(c.msgId, data);
  if (c.method !== FlightMethod.STICK) return s.wait((f) => f.msg_id === c.msgId, WAIT_LIMIT_MS, from);
  // Stick frames are answered only when refused: a heartbeat round trip proves no answer is coming.
  const beat = await s.request(PushMsgId.HEARTBEAT);
  void beat;
  return s.frames.slice(from).find((f) => f.msg_id === c.msgId) ?? null;
}

/** Runs every inbound case on `s` for `subject`; `c` signs the data (tokens, licence). */
async function runInbound(subject: Subject, s: PushSocket, c: TestClient, token?: string): Promise<void> {
  const start = nests.map((n) => flightCommands(n).length);
  let reached = 0;
  for (const k of inboundCases()) {
    const target = nests.find((n) => n.sn === k.sn);
    const before = target ? flightCommands(target).length : 0;
    const data = k.msgId === PushMsgId.USER_VERIFY ? await verifyData(c, token) : await k.data(c);
    const reply = await send(s, k, data);
    const want = expected(subject, k);
    const where = `${subject} / ${k.name}: ${JSON.stringify(reply)}`;
    if (want.code === null) expect(reply, where).toBeNull();
    else expect(reply?.code, where).toBe(want.code);
    if (want.reason !== undefined) {
      expect(reply?.data, where).toMatchObject({ outcome: 'refused', reason: want.reason });
      // Each refusal says why in the socket's language (473 texts name the control that failed first).
      expect(reply?.msg, where).toContain(CommandReason.label(want.reason, 'en'));
    }
    if (target && want.reaches) {
      reached++;
      await until(() => flightCommands(target).length > before, `${where}: the command at the device`);
      expect(flightCommands(target).slice(before).map((m) => m.method), where).toEqual([k.method]);
    }
  }
  // Everything the server published reached the nests by now: exactly the commands carried out did.
  await brokerBarrier();
  const got = nests.reduce((n, nest, i) => n + flightCommands(nest).length - start[i]!, 0);
  expect(got, `${subject}: commands at the devices`).toBe(reached);
}

/** A socket of `c`, verified (100), watching both nests (200) where `c` may see them, with fleet updates on. */
async function watchingSocket(c: TestClient, devices: boolean): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(c)).code).toBe(ResultCode.OK);
  if (devices) for (const sn of [GROUND, AIR]) expect((await s.verifyDevice(c, sn)).code).toBe(ResultCode.OK);
  expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).code).toBe(ResultCode.OK);
  return s;
}

interface Party {
  client: TestClient & { account: { u_id: string } };
  socket: PushSocket;
}
const parties = new Map<Subject, Party>();
let noSession: PushSocket;
let otherHolder: TestClient & { account: { u_id: string } };

beforeAll(async () => {
  server = await startTestServer({ config: { deviceHoldSeconds: 600 } });
  await live(server).link.ready();
  await registerDevice(server, { sn_id: GROUND, airport_point: HOME });
  await registerDevice(server, { sn_id: AIR, airport_point: HOME });
  routeId = await addPatrolRoute(server.db, GROUND, HOME);
  const ground = await FakeNest.start(server, GROUND);
  const air = await FakeNest.start(server, AIR);
  air.telemetry = nestDroneTelemetry({ fs: 2 });
  nests.push(ground, air);
  await until(() => live(server).link.device(AIR)?.telemetry?.drone?.flight_state === 2, 'the air nest airborne');
  admin = await adminClient(server);
  base = await listen(server);

  const make = (funList: string[], companyId = 'wk') => userClient(server, { nick: 'Matrix', funList, companyId });
  const subjects: [Subject, string[], string, boolean][] = [
    ['signed out', ALL_FUNS, 'wk', true],
    ['deleted', ALL_FUNS, 'wk', true],
    ['disabled', ALL_FUNS, 'wk', true],
    ['validity ended', ALL_FUNS, 'wk', true],
    ['other company', ALL_FUNS, 'gzGh', false],
    ['group member', ALL_FUNS, 'gzGh', true],
    ['without the function', ALL_FUNS.filter((f) => f !== DEVICE_CONTROL_FUNCTION), 'wk', true],
    ['not holding', ALL_FUNS, 'wk', true],
    ['someone else holds', ALL_FUNS, 'wk', true],
    ['holder', ALL_FUNS, 'wk', true],
  ];
  const created = await Promise.all(subjects.map(([, funs, company]) => make(funs, company)));
  const member = created[subjects.findIndex(([s]) => s === 'group member')]!;
  const group = await admin.call('comAdd', { name: 'Matrix share', device_ids: `${GROUND},${AIR}`, user_ids: member.account.u_id });
  expect(group.body.code).toBe(ResultCode.OK);
  for (const [i, [subject, , , devices]] of subjects.entries()) {
    const client = created[i]!;
    parties.set(subject, { client, socket: await watchingSocket(client, devices) });
  }
  otherHolder = parties.get('someone else holds')!.client;
  noSession = await PushSocket.open(base);
  sockets.push(noSession);
});

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const n of nests) await n.stop().catch(() => undefined);
  await server?.close();
});

const party = (s: Subject): Party => parties.get(s)!;

describe('push authorization matrix', () => {
  it('sessions that end close their sockets at once: 46010, then closed', async () => {
    const now = Math.floor(Date.now() / 1000);
    const end: Record<(typeof ENDED_SUBJECTS)[number], () => Promise<unknown>> = {
      'signed out': () => party('signed out').client.call('logout'),
      deleted: () => admin.call('userDelete', { u_id: party('deleted').client.account.u_id }),
      disabled: async () => admin.call('userEdit', await userEditFields(server.db, party('disabled').client.account.u_id, { state: 20 })),
      'validity ended': async () =>
        admin.call('userEdit', await userEditFields(server.db, party('validity ended').client.account.u_id, { start_time: now - 7200, end_time: now - 60 })),
    };
    for (const subject of ENDED_SUBJECTS) {
      const { socket } = party(subject);
      const answer = (await end[subject]()) as { body: { code: number } };
      expect(answer.body.code, subject).toBe(ResultCode.OK);
      const ended = await socket.wait((f) => f.code === ResultCode.PUSH_NOT_ALIVE);
      expect(ended, subject).toMatchObject({ msg_id: PushMsgId.HEARTBEAT, data: null });
      expect(await socket.closed, subject).toBe(1000);
    }
  });

  it('every inbound message, before anyone holds the devices', async () => {
    // No session at all: a made-up token.
    await runInbound('no session', noSession, admin, 'not-a-session-token');
    for (const subject of ENDED) {
      // The socket closed; a new one cannot verify with the ended session's token.
      const s = await PushSocket.open(base);
      sockets.push(s);
      await runInbound(subject, s, party(subject).client);
    }
    for (const subject of ['other company', 'group member', 'without the function', 'not holding'] as const) {
      await runInbound(subject, party(subject).socket, party(subject).client);
    }
  });

  it('every inbound message with the devices held: by someone else, and by the sender', async () => {
    const holder = party('holder').client;
    for (const sn of [GROUND, AIR]) expect((await holder.call('deviceConnect', { sn_id: sn })).body.code).toBe(ResultCode.OK);
    await runInbound('someone else holds', party('someone else holds').socket, otherHolder);
    await runInbound('holder', party('holder').socket, holder);
  });

  it('every outbound message reaches exactly the sockets allowed to see it', async () => {
    const hub = server.app.nest.hub;
    const holder = party('holder');
    const from = new Map([...parties.values(), { socket: noSession }].map((p) => [p.socket, p.socket.frames.length]));
    // 301: the holder gives one device back and takes it again.
    expect((await holder.client.call('deviceConnect', { sn_id: AIR, action: 'release' })).body.code).toBe(ResultCode.OK);
    expect((await holder.client.call('deviceConnect', { sn_id: AIR })).body.code).toBe(ResultCode.OK);
    // 320 / 330 from the device; 350, 360, 390 as the features publish them; 370, 380, 391.
    const air = nests.find((n) => n.sn === AIR)!;
    await air.event(FlightMethod.FLOW_PROGRESS, { flow_id: 'f-matrix', kind: 'takeoff', state: 'running', steps: [], current: 0, error: null, tip: null, started_at: Date.now(), elapsed: 0 });
    await air.event(FlightMethod.MISSION_PROGRESS, { flight_id: 'f-matrix', mission_id: null, state: 'running', waypoint_index: 1, waypoint_count: 4, percent: 25, distance_flown: 10, flight_time: 5, photos: 0 });
    for (const id of [PushMsgId.RESULT_ADDED, PushMsgId.SORTIE, PushMsgId.DEVICE_OP]) hub.publish(AIR, id, { sn_id: AIR, matrix: true });
    hub.broadcastAlarm('wk', { event: 'raised', alarm: { matrix: true }, pending: 1 } as unknown as AlarmPush);
    server.app.nest.deps.changes.changed('wk', 'alarms');
    for (const p of parties.values()) hub.broadcastToUser(p.client.account.u_id, PushMsgId.MAP_DOWNLOAD, { matrix: p.client.account.u_id });

    const sinceFrom = (s: PushSocket) => s.frames.slice(from.get(s));
    const aboutDevice = (f: PushReply) => {
      const d = f.data as { sn_id?: string; devices?: { sn_id: string }[] } | null;
      return d?.sn_id === AIR || d?.sn_id === GROUND || !!d?.devices?.some((x) => x.sn_id === AIR || x.sn_id === GROUND);
    };
    // The holder sees everything: once it has the device's progress, every socket was sent what it may get.
    await holder.socket.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (f.data as { mission: unknown }).mission !== null, WAIT_LIMIT_MS, from.get(holder.socket));
    await holder.socket.wait((f) => f.msg_id === PushMsgId.DATA_CHANGED, WAIT_LIMIT_MS, from.get(holder.socket));
    // A fleet batch after the changes (once a second) for the sockets that subscribed.
    const batchAfter = Date.now();
    await holder.socket.wait((f) => f.msg_id === PushMsgId.FLEET_UPDATE && f.at > batchAfter);

    for (const access of PUSH_ACCESS.filter((a) => a.direction === 'out')) {
      for (const [subject, p] of [...parties.entries(), ['no session', { socket: noSession }] as const]) {
        const s = p.socket;
        // Every frame the server sent this socket before now has arrived (a closed socket gets nothing more).
        if (!ENDED.includes(subject as Subject) && subject !== 'no session') await s.request(PushMsgId.HEARTBEAT);
        const got = sinceFrom(s).filter((f) => f.msg_id === access.msgId && f.code === ResultCode.OK);
        const live_ = !ENDED.includes(subject as Subject) && subject !== 'no session';
        const seesDevices = live_ && subject !== 'other company';
        const company = SAME_COMPANY.includes(subject as Subject);
        let want: boolean;
        switch (access.scope) {
          case 'view':
            want = seesDevices;
            break;
          case 'company':
            want = company;
            break;
          case 'user':
            want = live_;
            break;
          default:
            throw new Error(`no expectation for scope ${access.scope}`);
        }
        const where = `${subject} / ${access.msgId}`;
        if (access.scope === 'view') {
          // Telemetry and fleet batches come on their own clocks (the device's rate, each socket's batch
          // period): wait for one where one is due.
          if (want && (access.msgId === PushMsgId.DEVICE_TELEMETRY || access.msgId === PushMsgId.FLEET_UPDATE)) {
            await s.wait((f) => f.msg_id === access.msgId && aboutDevice(f), WAIT_LIMIT_MS, from.get(s));
          }
          const relevant = sinceFrom(s).filter((f) => f.msg_id === access.msgId && aboutDevice(f));
          expect(relevant.length > 0, where).toBe(want);
        } else if (access.msgId === PushMsgId.MAP_DOWNLOAD) {
          expect(got.map((f) => (f.data as { matrix: string }).matrix), where).toEqual(want ? [(p as Party).client.account.u_id] : []);
        } else {
          expect(got.length > 0, where).toBe(want);
        }
      }
    }
  });

  it('a user who can no longer fly holds nothing: signed out everywhere, or the control function taken away', async () => {
    const holder = party('holder').client;
    expect(live(server).status.holder(AIR)?.u_id).toBe(holder.account.u_id);
    expect((await holder.call('logout')).body.code).toBe(ResultCode.OK);
    expect([GROUND, AIR].map((sn) => live(server).status.holder(sn))).toEqual([null, null]);

    expect((await otherHolder.call('deviceConnect', { sn_id: AIR })).body.code).toBe(ResultCode.OK);
    const funs = JSON.stringify(ALL_FUNS.filter((f) => f !== DEVICE_CONTROL_FUNCTION));
    expect((await admin.call('userEdit', await userEditFields(server.db, otherHolder.account.u_id, { fun_json: funs }))).body.code).toBe(ResultCode.OK);
    expect(live(server).status.holder(AIR)).toBeNull();
  });
});
