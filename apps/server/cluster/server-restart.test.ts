/**
 * Fault: the server restarts while a drone flies a route. The new server (same DATA_DIR, same database)
 * keeps recording the open sortie's track, answers a repeated cmd_id from command_log without sending
 * it again, knows the flight from the log (so an interrupt stores the route's breakpoint), and no command
 * reaches the device twice (a spy on the device's command topic counts them by tid).
 */
import { CmdType, PushMsgId, ResultCode, SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import { randomUUID } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateLinkSecrets } from '../src/link/credentials.js';
import { hasMosquitto } from '../test/infra.js';
import { WAIT_LIMIT_MS, live, mqttConnect, until, type PushSocket } from '../test/live.js';
import { addLongRoute, request, startStack, trackPointsAfter, type Stack } from './stack.js';

const SN = 'SR-1';
type Mission = { flight_id: string; state: string; waypoint_index: number };
const missionOf = (f: { data: unknown }) => (f.data as { mission: Mission | null }).mission;

describe.runIf(hasMosquitto())('fault: server restart mid-mission', () => {
  let stack: Stack;
  let spy: MqttClient;
  const sent: string[] = [];
  const methods: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
    // Model time at 40x on a long route (about 8 s of it after the first waypoint): the flight is still on its
    // route through the restart and until the interrupt.
    await stack.fly([SN], { timeScale: 40 });
    const secrets = await loadOrCreateLinkSecrets(stack.dataDir);
    const c = await mqttConnect(stack.broker.url, { username: SERVER_MQTT_USER, password: secrets.serverPassword, clientId: 'command-spy' });
    spy = c.client!;
    spy.on('message', (_topic, payload) => {
      const m = JSON.parse(payload.toString()) as { tid: string; method: string };
      sent.push(m.tid);
      methods.push(m.method);
    });
    await spy.subscribeAsync(topicOf(SN, 'commands'), { qos: 1 });
  });
  afterAll(async () => {
    spy?.end(true);
    await stack?.close();
  });

  it('keeps recording, answers a repeat from the log, stores the breakpoint, sends nothing twice', async () => {
    const route = await addLongRoute(stack, SN);
    let watch: PushSocket = await stack.socket(SN);
    const cmdId = randomUUID();
    const launch = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.NAVIGATION, action_cmd: 1, value: route, cmd_id: cmdId });
    expect(launch.code, JSON.stringify(launch)).toBe(ResultCode.OK);
    const flightId = (launch.data as { flight_id: string }).flight_id;
    await watch.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && (missionOf(f)?.waypoint_index ?? 0) >= 1, WAIT_LIMIT_MS);
    const sortie = await stack.server.db.selectFrom('sorties').select('id').where('flight_id', '=', flightId).executeTakeFirstOrThrow();

    await stack.restartServer();
    const restartedAt = Date.now();
    await until(() => live(stack.server).link.isOnline(SN), 'the device seen by the new server');
    // The browser reconnects to the new server with the same session.
    watch = await stack.socket(SN);

    // The same cmd_id again: answered from command_log, not sent.
    const repeat = await request(watch, PushMsgId.CONTROL, { sn_id: SN, cmd_type: CmdType.NAVIGATION, action_cmd: 1, value: route, cmd_id: cmdId });
    expect(repeat).toMatchObject({ code: ResultCode.OK, data: { flight_id: flightId } });

    // The open sortie goes on being recorded by the new server.
    await until(async () => (await trackPointsAfter(stack, sortie.id, restartedAt)) >= 2, 'track points after the restart');
    await watch.wait((f) => f.msg_id === PushMsgId.MISSION_PROGRESS && f.at > restartedAt && missionOf(f)?.flight_id === flightId, WAIT_LIMIT_MS);

    // Interrupt: the new server finds the flight in the log and stores the breakpoint on the route.
    const interrupt = await request(watch, PushMsgId.PROCESS_CONTROL, { sn_id: SN, control_cmd: 3 });
    expect(interrupt.code, JSON.stringify(interrupt)).toBe(ResultCode.OK);
    const breakpoint = async () => (await stack.server.db.selectFrom('missions').select('breakpoint').where('id', '=', route).executeTakeFirstOrThrow()).breakpoint;
    await until(async () => (await breakpoint()) !== null, 'the breakpoint stored');
    expect(await breakpoint()).toBeGreaterThanOrEqual(1);

    // Every command reached the device once: the launch and the interrupt, no repeat. The server publishes a
    // device's commands in order: once the spy has the interrupt, it has everything sent before it.
    await until(() => methods.includes('flow.control'), 'the spy to see the interrupt');
    expect(sent.filter((tid) => tid === cmdId)).toHaveLength(1);
    expect(new Set(sent).size).toBe(sent.length);
    const logged = await stack.server.db.selectFrom('command_log').select(['cmd_id', 'outcome']).where('sn_id', '=', SN).execute();
    expect(logged.filter((r) => r.cmd_id === cmdId)).toHaveLength(1);
    // (video.start: each socket watching the device asks for its video; not a flight command, not logged.)
    const flight = methods.filter((m) => !m.startsWith('video.'));
    expect(flight, JSON.stringify(logged)).toEqual(['flow.takeoff', 'flow.control']);
    expect(flight.length).toBe(logged.length);
  });
});
