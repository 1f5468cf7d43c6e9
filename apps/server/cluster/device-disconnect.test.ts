/**
 * Fault: a drone's link drops in the air (the simulator's connection dies; the broker publishes its
 * last-will). Presence goes offline at once, the offline-in-flight alarm is raised, commands answer
 * "offline" at once without being sent, and the open sortie stays open; when the link comes back the
 * alarm clears and the same sortie goes on recording the same flight.
 */
import { CmdType, GimbalAction, PushMsgId, Reason, ResultCode, SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateLinkSecrets } from '../src/link/credentials.js';
import type { SimFleet } from '../test/simulator.js';
import { hasMosquitto } from '../test/infra.js';
import { WAIT_LIMIT_MS, live, mqttConnect, until, type PushSocket } from '../test/live.js';
import { addLongRoute, request, startStack, trackPointsAfter, type Stack } from './stack.js';

const SN = 'DC-1';
type Mission = { flight_id: string; state: string; waypoint_index: number };
const missionOf = (f: { data: unknown }) => (f.data as { mission: Mission | null }).mission;

describe.runIf(hasMosquitto())('fault: device disconnect mid-flight', () => {
  let stack: Stack;
  let fleet: SimFleet;
  let spy: MqttClient;
  const sent: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
    // Model time at 40x on a long route (about 8 s of it after the first waypoint): the flight is still on its
    // route when the link is back and the checks are done.
    fleet = await stack.fly([SN], { timeScale: 40 });
    const secrets = await loadOrCreateLinkSecrets(stack.dataDir);
    spy = (await mqttConnect(stack.broker.url, { username: SERVER_MQTT_USER, password: secrets.serverPassword, clientId: 'command-spy' })).client!;
    spy.on('message', (_topic, payload) => sent.push((JSON.parse(payload.toString()) as { tid: string }).tid));
    await spy.subscribeAsync(topicOf(SN, 'commands'), { qos: 1 });
  });
  afterAll(async () => {
    spy?.end(true);
    await stack?.close();
  });

  it('goes offline with an alarm, refuses commands at once, and the sortie goes on after the link returns', async () => {
    const l = () => live(stack.server);
    const route = await addLongRoute(stack, SN);
    const watch: PushSocket = await stack.socket(SN);
    const launch = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: 8, action_cmd: 1, value: route });
    expect(launch.code, JSON.stringify(launch)).toBe(ResultCode.OK);
    const flightId = (launch.data as { flight_id: string }).flight_id;
    await watch.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (missionOf(f)?.waypoint_index ?? 0) >= 1, WAIT_LIMIT_MS);
    const sortie = await stack.server.db.selectFrom('sorties').select('id').where('flight_id', '=', flightId).executeTakeFirstOrThrow();

    fleet.inject(SN, 'offline');
    await until(() => !l().link.isOnline(SN), 'DC-1 offline on the server (last-will)');
    const alarm = () =>
      stack.server.db.selectFrom('alarms').select(['id', 'cleared_at']).where('sn_id', '=', SN).where('kind', '=', 'offline_in_flight').executeTakeFirst();
    await until(async () => (await alarm()) !== undefined, 'the offline-in-flight alarm');
    expect((await alarm())!.cleared_at).toBeNull();

    // A command to it: "offline", refused before anything is sent (no wait for the device; the spy checks below).
    const cmdId = randomUUID();
    const pause = await request(watch, PushMsgId.PROCESS_CONTROL, { sn_id: SN, control_cmd: 1, cmd_id: cmdId });
    expect(pause).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'offline', reason: Reason.OFFLINE } });

    // The sortie stays open while the drone is out of touch.
    const open = async () => (await stack.server.db.selectFrom('sorties').select('end_time').where('id', '=', sortie.id).executeTakeFirstOrThrow()).end_time === null;
    expect(await open()).toBe(true);

    const back = Date.now();
    fleet.clear(SN, 'offline');
    await until(() => l().link.isOnline(SN), 'DC-1 back online');
    await until(async () => (await alarm())?.cleared_at != null, 'the alarm cleared');
    // Same flight, same sortie: progress and track go on.
    await watch.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && f.at > back && missionOf(f)?.flight_id === flightId, WAIT_LIMIT_MS);
    await until(async () => (await trackPointsAfter(stack, sortie.id, back)) >= 2, 'track points after the return');
    expect(await open()).toBe(true);
    expect(await stack.server.db.selectFrom('sorties').select('id').where('sn_id', '=', SN).execute()).toHaveLength(1);

    // A command now reaches the device (and the spy). The server publishes a device's commands in order, so
    // had it published the refused pause, the spy would have had it before this one.
    const gimbal = randomUUID();
    const reset = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.GIMBAL, action_cmd: GimbalAction.RESET, value: 0, cmd_id: gimbal });
    expect(reset.code, JSON.stringify(reset)).toBe(ResultCode.OK);
    await until(() => sent.includes(gimbal), 'the spy to see the command sent after the link came back');
    expect(sent).not.toContain(cmdId);
  });
});
