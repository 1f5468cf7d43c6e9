/**
 * Two server instances on loopback against one PostgreSQL and one Mosquitto, as docs/deployment.md
 * "Several instances" lays them out (each its own DATA_DIR with the same keys, the devices split between
 * them by link/members.ts). What must hold: sessions work on either instance; an instance started later
 * rebuilds device state from the broker; a browser on either instance gets the telemetry and the events
 * it is entitled to; a command through either instance reaches its device once and its answer returns to
 * the caller; device events are handled once (sorties, alarms); pushes caused by a call on one instance
 * reach browsers on the other; a timed task fires once; a session that ends (sign-out, user deleted,
 * password or functions changed) ends its sockets on both instances at once, and a group that no longer
 * shares a device stops its frames on both.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import {
  calls,
  CmdType,
  DEVICE_CONTROL_FUNCTION,
  DEVICE_PUSH_FUNCTION,
  FlightMethod,
  GimbalAction,
  LinkMethod,
  PushMsgId,
  ResultCode,
  SERVER_MQTT_USER,
  topicOf,
  type LinkEnvelope,
  type PushReply,
} from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadOrCreateLinkSecrets } from '../src/link/credentials.js';
import { ALARM_PUSH_FUNCTION } from '../src/push/hub.js';
import type { SimFleet } from '../test/simulator.js';
import { createScheduler } from '../src/tasks/scheduler.js';
import { userEditFields } from '../test/accounts.js';
import { adminClient, startTestServer, tempDir, userClient, type TestClient, type TestServer } from '../test/helpers.js';
import { createDatabase, dropDatabase, hasMosquitto, startMosquitto, type MosquittoBroker } from '../test/infra.js';
import { PushSocket, RawDevice, WAIT_LIMIT_MS, addPatrolRoute, envelope, listen, live, mqttConnect, nestTelemetry, registerDevice, startSim, until } from '../test/live.js';

const CLUSTER = 'cluster-test';
const NEST = 'CL-N1';
const RAW = 'CL-RAW';
const HOME = { lat: 22.54, lng: 114.05, alt: 30 };

let adminUrl: string;
let databaseUrl: string;
let broker: MosquittoBroker;
let a: TestServer;
let b: TestServer;
let fleet: SimFleet;
let raw: RawDevice;
let spy: MqttClient;
let op: TestClient;
const sockets: PushSocket[] = [];
/** Every message the broker delivered on the devices' command topics (the spy is the server user). */
const commandsSeen: { sn: string; m: LinkEnvelope }[] = [];
/** Device events each instance's link handed to its modules, by device. */
const handledBy: { instance: 'a' | 'b'; sn: string }[] = [];
const handled = (instance: 'a' | 'b', sn: string) => handledBy.filter((h) => h.instance === instance && h.sn === sn).length;
let heartbeat: NodeJS.Timeout | undefined;

async function socket(base: string, watch: string[]): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(op)).code).toBe(ResultCode.OK);
  for (const sn of watch) expect((await s.verifyDevice(op, sn)).code).toBe(ResultCode.OK);
  return s;
}

const sortieFrames = (s: PushSocket) => s.of(PushMsgId.SORTIE).map((f) => f.data as { sort_id: string; state: string; sn_id: string });
const alarmFrames = (s: PushSocket, sn: string) =>
  s.of(PushMsgId.ALARM)
    .map((f) => f.data as { event: string; alarm: { id: string; kind: string; sn_id: string; flight_id: string | null } })
    .filter((d) => d.alarm.sn_id === sn);

/**
 * Resolves once the socket got every frame its server sent it before: a server handles a socket's frames in
 * order, so the reply to this heartbeat comes after them.
 */
async function drained(s: PushSocket): Promise<void> {
  expect((await s.request(PushMsgId.HEARTBEAT)).code).toBe(ResultCode.OK);
}

describe.runIf(hasMosquitto())('two server instances, one PostgreSQL, one Mosquitto', () => {
  let baseA: string;
  let baseB: string;

  beforeAll(async () => {
    // A database of its own on the run's PostgreSQL (nothing here stops it).
    adminUrl = inject('pgAdminUrl');
    databaseUrl = await createDatabase(adminUrl);
    const dirA = await tempDir('nest-cluster-a-');
    const dirB = await tempDir('nest-cluster-b-');
    broker = await startMosquitto({ dataDir: dirA, databaseUrl });
    const cluster = { mqttUrl: broker.url, clusterName: CLUSTER };
    a = await startTestServer({ dataDir: dirA, databaseUrl, config: cluster });
    for (const sn of [NEST, RAW]) await registerDevice(a, { sn_id: sn, airport_point: { lat: HOME.lat, lng: HOME.lng } });
    await broker.refresh();
    await live(a).link.ready();

    // The devices come online before the second instance exists: it must learn them from the broker.
    // At 2 Hz only 1.5 s of silence takes the nest offline, which a busy machine's pauses never reach.
    fleet = await startSim(a, [{ sn: NEST, home: HOME }], { rateHz: 2, brokerUrl: broker.url, timeScale: 60, calm: true });
    raw = await RawDevice.connect(a, RAW, { url: broker.url });
    await raw.publish('presence', envelope('presence', { online: true, rate_hz: 1 }), { qos: 1, retain: true });
    await raw.subscribe(topicOf(RAW, 'commands'));
    // Telemetry keeps it online (presence alone goes stale after a few missed periods).
    heartbeat = setInterval(() => void raw.publish('telemetry', envelope('telemetry', nestTelemetry())), 500);
    // The raw device answers every command it gets.
    raw.client.on('message', (topic, payload) => {
      if (topic !== topicOf(RAW, 'commands')) return;
      const m = JSON.parse(payload.toString()) as LinkEnvelope;
      void raw.publish('commands_reply', envelope(m.method, { result: 0 }, m.tid), { qos: 1 });
    });
    await until(() => live(a).link.isOnline(NEST) && live(a).link.isOnline(RAW), 'the devices online on instance A');

    // Instance B: its own data directory with the keys of A (deployment.md: every instance shares keys/).
    await cp(path.join(dirA, 'keys'), path.join(dirB, 'keys'), { recursive: true });
    b = await startTestServer({ dataDir: dirB, databaseUrl, config: cluster });
    await live(b).link.ready();

    for (const [instance, server] of [['a', a], ['b', b]] as const) live(server).link.on('event', (sn) => handledBy.push({ instance, sn }));
    const secrets = await loadOrCreateLinkSecrets(dirA);
    const spied = await mqttConnect(broker.url, { username: SERVER_MQTT_USER, password: secrets.serverPassword, clientId: 'cluster-spy', protocolVersion: 4 });
    if (!spied.client) throw spied.error ?? new Error('spy not connected');
    spy = spied.client;
    spy.on('message', (topic, payload) => commandsSeen.push({ sn: topic.split('/')[2]!, m: JSON.parse(payload.toString()) as LinkEnvelope }));
    await spy.subscribeAsync('nest/v1/+/commands', { qos: 1 });

    op = await userClient(a, {
      nick: 'Cluster pilot',
      funList: [DEVICE_PUSH_FUNCTION, DEVICE_CONTROL_FUNCTION, ALARM_PUSH_FUNCTION, String(calls.alarmProcess.access), String(calls.alarmList.access)],
    });
    // Flight commands need the device's control connection, held in the shared database for both instances.
    expect((await op.call('deviceConnect', { sn_id: RAW })).body.code).toBe(ResultCode.OK);
    baseA = await listen(a);
    baseB = await listen(b);
  });

  afterAll(async () => {
    clearInterval(heartbeat);
    for (const s of sockets) s.close();
    spy?.end(true);
    await raw?.end().catch(() => undefined);
    await fleet?.stop();
    await a?.stop();
    await b?.stop();
    await broker?.close();
    if (databaseUrl) await dropDatabase(adminUrl, databaseUrl);
  });

  it('a session started on one instance is honoured by the other, and ended everywhere at sign-out', async () => {
    const admin = await adminClient(a);
    const onB = await admin.call('userInfo', {}, { app: b.app });
    expect(onB.body.code).toBe(ResultCode.OK);
    const again = await userClient(b, { nick: 'Short-lived' });
    expect((await again.call('userInfo', {}, { app: a.app })).body.code).toBe(ResultCode.OK);
    expect((await again.call('logout', {}, { app: b.app })).body.code).toBe(ResultCode.OK);
    expect((await again.call('userInfo', {}, { app: a.app })).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('a session that ends ends its sockets on both instances at once: sign-out, deletion, password, functions', async () => {
    const admin = await adminClient(a);
    /** A user with push sockets open on A and B. */
    const twoSockets = async (funList: string[] = [DEVICE_PUSH_FUNCTION]) => {
      const c = await userClient(a, { nick: 'Ending', funList });
      const pair: PushSocket[] = [];
      for (const base of [baseA, baseB]) {
        const s = await PushSocket.open(base);
        sockets.push(s);
        expect((await s.verifyUser(c)).code).toBe(ResultCode.OK);
        pair.push(s);
      }
      return { c, pair };
    };
    const endedEverywhere = async (pair: PushSocket[], what: string) => {
      for (const s of pair) {
        // The notice reaches the other instance over the broker: no heartbeat needed on either.
        expect(await s.wait((f) => f.code === ResultCode.PUSH_NOT_ALIVE), what).toMatchObject({ msg_id: PushMsgId.HEARTBEAT });
        expect(await s.closed, what).toBe(1000);
      }
    };

    const out = await twoSockets();
    expect((await out.c.call('logout', {}, { app: b.app })).body.code).toBe(ResultCode.OK);
    await endedEverywhere(out.pair, 'signed out through B');

    const gone = await twoSockets();
    expect((await admin.call('userDelete', { u_id: gone.c.account.u_id })).body.code).toBe(ResultCode.OK);
    await endedEverywhere(gone.pair, 'deleted through A');

    const moved = await twoSockets();
    const psw = await moved.c.call('userPsw', { account: moved.c.account.account, password: await moved.c.seal(moved.c.account.password), new_psw: await moved.c.seal('A-new-pass-9731') }, { app: b.app });
    expect(psw.body.code).toBe(ResultCode.OK);
    await endedEverywhere(moved.pair, 'password changed through B');

    // Functions: losing device_10 ends the sockets; losing another function only re-scopes them.
    const lost = await twoSockets();
    const kept = await twoSockets([DEVICE_PUSH_FUNCTION, ALARM_PUSH_FUNCTION]);
    expect((await admin.call('userEdit', await userEditFields(a.db, lost.c.account.u_id, { fun_json: '[]' }))).body.code).toBe(ResultCode.OK);
    expect((await admin.call('userEdit', await userEditFields(a.db, kept.c.account.u_id, { fun_json: JSON.stringify([DEVICE_PUSH_FUNCTION]) }))).body.code).toBe(ResultCode.OK);
    await endedEverywhere(lost.pair, 'device_10 taken away through A');
    for (const s of kept.pair) await drained(s);
  });

  it('a group that stops sharing a device stops its frames on both instances', async () => {
    const admin = await adminClient(a);
    const member = await userClient(a, { nick: 'Partner', funList: [DEVICE_PUSH_FUNCTION], companyId: 'gzGh' });
    const group = await admin.call<{ id: string }>('comAdd', { name: 'Cluster share', device_ids: NEST, user_ids: member.account.u_id });
    expect(group.body.code).toBe(ResultCode.OK);
    const pair: PushSocket[] = [];
    for (const base of [baseA, baseB]) {
      const s = await PushSocket.open(base);
      sockets.push(s);
      expect((await s.verifyUser(member)).code).toBe(ResultCode.OK);
      expect((await s.verifyDevice(member, NEST)).code).toBe(ResultCode.OK);
      await s.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY);
      pair.push(s);
    }
    const watcher = await socket(baseA, [NEST]);
    // B applies the access notice when it arrives over the broker (A applies it within the call).
    let noticeOnB = false;
    const off = live(b).bus.on('access', ({ userIds }) => {
      if (userIds?.includes(member.account.u_id)) noticeOnB = true;
    });
    const del = await admin.call('comEdit', { id: group.body.data.id, name: 'Cluster share', device_ids: NEST, state: 20 });
    expect(del.body.code).toBe(ResultCode.OK);
    await until(() => noticeOnB, 'the access notice on B');
    off();
    // A heartbeat after the notice is answered after the re-read it started: from then on no telemetry of
    // the device reaches the member, while the company's own watcher keeps getting it.
    for (const s of pair) await drained(s);
    const marks = pair.map((s) => s.frames.length);
    const after = watcher.frames.length;
    await watcher.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY, WAIT_LIMIT_MS, after);
    const next = watcher.frames.length;
    await watcher.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY, WAIT_LIMIT_MS, next);
    for (const [i, s] of pair.entries()) {
      await drained(s);
      expect(s.frames.slice(marks[i]).filter((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY)).toEqual([]);
    }
  });

  it('a device registered or deleted through one instance is known to the other at once', async () => {
    const admin = await adminClient(a);
    const listedOnB = async (sn: string) =>
      ((await admin.call<{ list: { sn_id: string }[] }>('deviceList', { type: 0, page: 0, search: sn }, { app: b.app })).body.data?.list ?? []).some((d) => d.sn_id === sn);
    // B's periodic reload is off: only the notice from A can tell it.
    live(b).directory.stop();
    try {
      const added = await admin.call<{ id: string }>('deviceAdd', { type: 'alone', uav_name: 'Cluster hand drone', sn_id: 'CL-HAND', uav_sn: 'CL-HAND' }, { app: a.app });
      expect(added.body.code).toBe(ResultCode.OK);
      await until(() => live(b).directory.get('CL-HAND') !== undefined, 'the new device in B\'s directory');
      expect(await listedOnB('CL-HAND')).toBe(true);
      expect((await admin.call('deviceDelete', { id: added.body.data!.id }, { app: a.app })).body.code).toBe(ResultCode.OK);
      await until(() => live(b).directory.get('CL-HAND') === undefined, 'the deleted device gone from B\'s directory');
      expect(await listedOnB('CL-HAND')).toBe(false);
    } finally {
      await live(b).directory.start();
    }
  });

  it('the instances know each other and split the devices between them', async () => {
    const ids = [live(a).link.clientId, live(b).link.clientId].sort();
    await until(() => live(a).link.cluster!.list().length === 2 && live(b).link.cluster!.list().length === 2, 'both instances members on both');
    expect(live(a).link.cluster!.list()).toEqual(ids);
    expect(live(b).link.cluster!.list()).toEqual(ids);
    const sns = Array.from({ length: 200 }, (_, i) => `SPLIT-${i}`);
    const ofA = sns.filter((sn) => live(a).link.cluster!.owns(sn));
    const ofB = sns.filter((sn) => live(b).link.cluster!.owns(sn));
    expect(ofA.length + ofB.length).toBe(sns.length);
    expect(ofA.length).toBeGreaterThan(50);
    expect(ofB.length).toBeGreaterThan(50);
  });

  it('an instance started after the devices rebuilds their state from the broker', async () => {
    // B never saw the devices connect: retained presence and state tell it, telemetry follows.
    await until(() => live(b).link.isOnline(NEST) && live(b).link.isOnline(RAW), 'the devices online on B');
    expect(live(b).link.device(NEST)?.state).not.toBeNull();
    await until(() => Boolean(live(b).link.device(NEST)?.telemetry?.drone), 'telemetry on B');
  });

  it('a browser on either instance gets the telemetry of the device it watches', async () => {
    const [onA, onB] = await Promise.all([socket(baseA, [NEST]), socket(baseB, [NEST])]);
    for (const s of [onA, onB]) {
      await s.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY && (f.data as { sn_id: string }).sn_id === NEST, WAIT_LIMIT_MS);
    }
  });

  it('a command through either instance reaches its device once and its answer returns to the caller', async () => {
    const [onA, onB] = await Promise.all([socket(baseA, [RAW]), socket(baseB, [RAW])]);
    for (const [s, label] of [[onA, 'A'], [onB, 'B']] as const) {
      const before = commandsSeen.filter((c) => c.sn === RAW && c.m.method !== LinkMethod.VIDEO_START).length;
      const cmdId = `cluster-${label}-${Date.now()}`;
      const from = s.frames.length;
      s.send(PushMsgId.CONTROL, { sn_id: RAW, cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.RESET, value: 0, cmd_id: cmdId });
      const reply = await s.wait((f) => f.msg_id === PushMsgId.CONTROL, WAIT_LIMIT_MS, from);
      expect(reply).toMatchObject({ code: ResultCode.OK, data: { outcome: 'ok', cmd_id: cmdId } });
      // (Verifying the device with 200 started its video: that command is not the one looked at.) The device
      // answered, so the broker passed the command on; the spy may get its copy a moment later.
      await until(() => commandsSeen.some((c) => c.sn === RAW && c.m.tid === cmdId), 'the spy to see the command');
      const sent = commandsSeen.filter((c) => c.sn === RAW && c.m.method !== LinkMethod.VIDEO_START).slice(before);
      expect(sent.map((c) => [c.m.method, c.m.tid])).toEqual([[FlightMethod.GIMBAL, cmdId]]);
    }
  });

  it('device events are handled once, by one instance, and every browser hears of them once', async () => {
    const [onA, onB] = await Promise.all([socket(baseA, [RAW]), socket(baseB, [RAW])]);
    const startHandled = { a: handled('a', RAW), b: handled('b', RAW) };
    const flights = Array.from({ length: 10 }, (_, i) => `cl-flight-${Date.now()}-${i}`);
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    for (const [i, flightId] of flights.entries()) {
      await raw.publish('events', envelope(FlightMethod.FLIGHT_START, { flight_id: flightId, uav_sn: `${RAW}-UAV`, mission_id: null, mission_name: null, started_at: t0 + i * 60 }), { qos: 1 });
      await raw.publish('events', envelope(FlightMethod.FLIGHT_END, { flight_id: flightId, ended_at: t0 + i * 60 + 30, distance: 100 + i, place: 1, photos: 0 }), { qos: 1 });
    }
    const rows = () => a.db.selectFrom('sorties').select(['flight_id', 'end_time', 'distance']).where('sn_id', '=', RAW).execute();
    await until(async () => (await rows()).filter((r) => r.end_time !== null).length === flights.length, 'ten closed sorties');
    const stored = await rows();
    expect(stored.map((r) => r.flight_id).sort()).toEqual([...flights].sort());
    // Each closed by its own flight.end (in order), not by the next flight's start.
    expect(stored.map((r) => Number(r.distance)).sort((x, y) => x - y)).toEqual(flights.map((_, i) => 100 + i));
    // Both instances agree on the device's owner; it alone handled the events, in the order sent.
    const owner = live(a).link.cluster!.owner(RAW);
    expect(live(b).link.cluster!.owner(RAW)).toBe(owner);
    const ownerName = owner === live(a).link.clientId ? 'a' : 'b';
    const other = ownerName === 'a' ? 'b' : 'a';
    expect(handled(ownerName, RAW) - startHandled[ownerName]).toBe(flights.length * 2);
    expect(handled(other, RAW) - startHandled[other]).toBe(0);
    for (const s of [onA, onB]) {
      await until(() => sortieFrames(s).filter((d) => d.sn_id === RAW).length >= flights.length * 2, 'the sortie pushes');
      await drained(s);
      const frames = sortieFrames(s).filter((d) => d.sn_id === RAW);
      expect(frames.filter((d) => d.state === 'started')).toHaveLength(flights.length);
      expect(frames.filter((d) => d.state === 'ended')).toHaveLength(flights.length);
    }
  });

  it('alarms raised by device events reach every browser once; processing them on one instance reaches browsers on the other', async () => {
    const [onA, onB] = await Promise.all([socket(baseA, []), socket(baseB, [])]);
    const t0 = Date.now() - 30_000;
    const failed = (flowId: string) => ({
      flow_id: flowId,
      kind: 'takeoff',
      state: 'failed',
      steps: [{ step: 'hatch_open', state: 'failed', elapsed: 20 }],
      current: 0,
      error: 3,
      tip: null,
      started_at: t0,
      elapsed: 20,
    });
    const flowIds = ['cl-flow-1', 'cl-flow-2', 'cl-flow-3'];
    for (const flowId of flowIds) {
      // Sent twice (a re-send, possibly handed to the other instance): still one alarm.
      for (let i = 0; i < 2; i++) await raw.publish('events', envelope(FlightMethod.FLOW_PROGRESS, failed(flowId)), { qos: 1 });
    }
    // A last failure after them: the device's events are handled in order, so once its alarm reached both
    // browsers, whatever the six before caused has too.
    await raw.publish('events', envelope(FlightMethod.FLOW_PROGRESS, failed('cl-flow-last')), { qos: 1 });
    const ofFlows = (d: { alarm: { flight_id: string | null } }) => flowIds.includes(d.alarm.flight_id ?? '');
    for (const s of [onA, onB]) {
      await until(() => alarmFrames(s, RAW).some((d) => d.event === 'raised' && d.alarm.flight_id === 'cl-flow-last'), '370 raised for the last failure');
      await drained(s);
    }
    const alarms = async () =>
      (await a.db.selectFrom('alarms').select(['id', 'kind', 'value', 'flight_id']).where('sn_id', '=', RAW).where('kind', '=', 'flow_failed').execute()).filter((r) =>
        flowIds.includes(r.flight_id ?? ''),
      );
    expect(await alarms()).toHaveLength(3);
    for (const s of [onA, onB]) expect(alarmFrames(s, RAW).filter((d) => d.event === 'raised' && ofFlows(d))).toHaveLength(3);

    // Processed through instance A: the browser on B hears of it (370 processed, 380 alarms).
    const ids = (await alarms()).map((r) => r.id);
    const fromB = onB.frames.length;
    const res = await op.call('alarmProcess', { ids: ids.join(','), note: 'checked the hatch' }, { app: a.app });
    expect(res.body.code).toBe(ResultCode.OK);
    await until(() => alarmFrames(onB, RAW).filter((d) => d.event === 'processed' && ofFlows(d)).length === 3, '370 processed on B');
    await onB.wait((f) => f.msg_id === PushMsgId.DATA_CHANGED && (f.data as { topics: string[] }).topics.includes('alarms'), WAIT_LIMIT_MS, fromB);
  });

  it('a timed task fires once, through one instance, and its flight is recorded once', async () => {
    const onB = await socket(baseB, [NEST]);
    const route = await addPatrolRoute(a.db, NEST, HOME);
    const mission = await a.db.selectFrom('missions').select(['name', 'fence_id']).where('id', '=', route).executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    await a.db
      .insertInto('timed_tasks')
      .values({
        id: `cl-task-${now}`,
        mission_id: route,
        fence_id: mission.fence_id,
        f_title: 'Fence',
        m_title: mission.name,
        sn_id: NEST,
        company_id: 'wk',
        u_id: op.user!.u_id,
        user_name: 'Cluster pilot',
        task_tms: now,
        interval_min: 0,
        task_state: 1,
        state: 0,
        claimed_by: null,
        claimed_at: null,
        last_run: null,
        last_outcome: '',
        create_time: now,
        modified_time: now,
      })
      .execute();
    const task = () => a.db.selectFrom('timed_tasks').select(['task_state', 'last_run']).where('id', '=', `cl-task-${now}`).executeTakeFirstOrThrow();
    // Both instances look for due tasks at the same moment: a pass of each instance's scheduler, side by side
    // (the instances' own schedulers poll every POLL_MS too and may be the ones to fire it). The claim lets
    // exactly one pass fire it.
    const schedulerOf = (server: TestServer) => createScheduler({ db: server.app.nest.deps.db, flight: server.app.nest.flight, log: server.app.log });
    const fired = await Promise.all([schedulerOf(a).tick(), schedulerOf(b).tick()]);
    expect(fired[0] + fired[1]).toBeLessThanOrEqual(1);
    await until(async () => (await task()).task_state !== 1, 'the task fired');
    expect((await task()).task_state).toBe(10);
    const launches = () => commandsSeen.filter((c) => c.sn === NEST && c.m.method === FlightMethod.TAKEOFF);
    await until(() => launches().length > 0, 'the spy to see the launch');
    const logged = await a.db.selectFrom('command_log').select(['cmd_id', 'outcome']).where('sn_id', '=', NEST).where('cmd_type', '=', CmdType.NAVIGATION).execute();
    expect(logged).toHaveLength(1);
    // The flight's start is one sortie, heard once by the browser on B.
    const sortie = async () => a.db.selectFrom('sorties').select('id').where('sn_id', '=', NEST).execute();
    await until(async () => (await sortie()).length === 1, 'the sortie of the task');
    const startedBy = Date.now();
    await onB.wait((f: PushReply) => f.msg_id === PushMsgId.SORTIE && (f.data as { state: string }).state === 'started', WAIT_LIMIT_MS);
    // Both instances record the track of the open sortie (each writes what it buffered); the point key keeps
    // each point once.
    const sortId = (await sortie())[0]!.id;
    const points = async () => {
      await Promise.all([a, b].map((server) => server.app.nest.services.sorties.flush()));
      return a.db.selectFrom('sortie_track').select('t').where('sort_id', '=', sortId).execute();
    };
    await until(async () => (await points()).length >= 3, 'track points');
    const stored = await points();
    expect(new Set(stored.map((p) => Number(p.t))).size).toBe(stored.length);
    // Both instances take telemetry the device stamped after the sortie was stored, so after its flight.start
    // (each handles the device's messages in order): whatever either did with that event (a second push) was
    // sent to the browser before this round trip's reply.
    await until(() => [a, b].every((server) => (live(server).link.device(NEST)?.telemetryTs ?? 0) > startedBy), 'telemetry after the start on both instances');
    await drained(onB);
    expect(sortieFrames(onB).filter((d) => d.sn_id === NEST && d.state === 'started')).toHaveLength(1);
    expect(launches()).toHaveLength(1);
  });

  it('when an instance stops, the other takes its devices over and handles their events', async () => {
    const idB = live(b).link.clientId;
    const sn = Array.from({ length: 100 }, (_, i) => `CL-TAKE-${i}`).find((x) => live(a).link.cluster!.owner(x) === idB)!;
    await registerDevice(a, { sn_id: sn });
    await live(b).directory.reload();
    await broker.refresh();
    const device = await RawDevice.connect(a, sn, { url: broker.url });
    await device.publish('presence', envelope('presence', { online: true, rate_hz: 1 }), { qos: 1, retain: true });
    const flight = `cl-take-${Date.now()}`;
    const t0 = Math.floor(Date.now() / 1000);
    const sortie = () => a.db.selectFrom('sorties').select(['id', 'end_time']).where('flight_id', '=', flight).executeTakeFirst();
    await device.publish('events', envelope(FlightMethod.FLIGHT_START, { flight_id: flight, uav_sn: `${sn}-UAV`, mission_id: null, mission_name: null, started_at: t0 }), { qos: 1 });
    await until(async () => (await sortie()) !== undefined, 'the sortie started through B');
    expect(handled('b', sn)).toBe(1);
    expect(handled('a', sn)).toBe(0);

    await b.stop();
    await until(() => live(a).link.cluster!.list().length === 1, 'B gone from the members A knows');
    expect(live(a).link.cluster!.owns(sn)).toBe(true);
    await device.publish('events', envelope(FlightMethod.FLIGHT_END, { flight_id: flight, ended_at: t0 + 60, distance: 420, place: 1, photos: 0 }), { qos: 1 });
    await until(async () => (await sortie())?.end_time != null, 'the sortie ended through A');
    expect(handled('a', sn)).toBe(1);
    expect(handled('b', sn)).toBe(1);
    await device.end();
  });
});
