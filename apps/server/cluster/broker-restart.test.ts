/**
 * Fault: the MQTT broker (Mosquitto) restarts while drones take off. Devices and the server reconnect by
 * themselves, browsers keep their push sockets (they talk to the server, not the broker) and get live
 * frames again, presence is right afterwards (a device that died while the broker was down reads offline
 * although its retained presence still says online), every flight event the devices sent around the
 * restart is recorded exactly once, and commands work again.
 */
import { CmdType, PushMsgId, ResultCode, type FleetUpdatePush } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimFleet } from '../test/simulator.js';
import { STATUS_HELD, STATUS_OFFLINE } from '../src/devices/status.js';
import { hasMosquitto } from '../test/infra.js';
import { WAIT_LIMIT_MS, live, until, type PushSocket } from '../test/live.js';
import { request, startStack, type Stack } from './stack.js';

const FLYING = ['BR-1', 'BR-2', 'BR-3'];
const DEAD = 'BR-DEAD';
const AIRBORNE = [1, 2, 3, 8];
const inAir = (stack: Stack, sn: string) => AIRBORNE.includes(live(stack.server).link.device(sn)?.telemetry?.drone?.flight_state ?? -1);

describe.runIf(hasMosquitto())('fault: broker restart', () => {
  let stack: Stack;
  let fleet: SimFleet;
  let watch: PushSocket;

  beforeAll(async () => {
    stack = await startStack();
    // Model time at 10x: the takeoff flows (about 4 s) outlast the three commands and the broker's stop, so the
    // drones leave the ground while it is down.
    fleet = await stack.fly([...FLYING, DEAD], { timeScale: 10 });
    watch = await stack.socket('BR-1');
    watch.send(PushMsgId.FLEET_SUBSCRIBE, { on: true });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('devices and browsers reconnect, presence is right, every flight start is recorded once, commands work', async () => {
    const l = () => live(stack.server);
    // Takeoffs: their flight.start events fall inside the outage (the takeoff flow takes a few seconds).
    for (const sn of FLYING) {
      const r = await request(watch, PushMsgId.CONTROL, { sn_id: sn, cmd_type: CmdType.TAKEOFF, value: 0 });
      expect(r.code, JSON.stringify(r)).toBe(ResultCode.OK);
    }
    await stack.broker.stop();
    // A device dies while the broker is down: no last-will can be published for it.
    fleet.inject(DEAD, 'offline');
    // The devices may read offline by their last-wills, which Mosquitto publishes as it stops when the server's
    // connection is still there to get them; silence alone takes nobody offline while the server has no broker
    // connection (unknown, not offline: docs/device-protocol.md section 4).
    await until(() => !l().link.connected, 'the server without its broker connection');
    // The drones take off while the broker is down: their flight.start events wait in the devices. (Nothing
    // can reach the server meanwhile: no sortie yet.)
    const simInAir = (sn: string) => AIRBORNE.includes(fleet.devices().find((d) => d.sn === sn)?.telemetry().drone?.flight_state ?? -1);
    await until(() => FLYING.every(simInAir), 'the drones airborne during the outage');
    expect(await stack.server.db.selectFrom('sorties').select('id').execute()).toEqual([]);
    const restartedAt = Date.now();
    await stack.broker.start();

    await until(() => l().link.connected && FLYING.every((sn) => l().link.isOnline(sn)), 'the devices back online');
    // The dead device's retained presence still says online: the missed-telemetry sweep corrects it.
    await until(() => !l().link.isOnline(DEAD), 'the dead device offline');
    const deadAt = Date.now();

    // The browser's socket was never closed, and live frames flow again.
    await watch.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY && f.at > restartedAt, WAIT_LIMIT_MS);
    // The fleet map's batches (only what changed) end with the right state for every device.
    const settled = Date.now();
    await watch.wait((f) => f.msg_id === PushMsgId.FLEET_UPDATE && f.at > settled, WAIT_LIMIT_MS);
    const states = new Map<string, number>();
    for (const f of watch.of(PushMsgId.FLEET_UPDATE)) for (const d of (f.data as FleetUpdatePush).devices) states.set(d.sn_id, d.state);
    expect(states.get(DEAD)).toBe(STATUS_OFFLINE);
    // Online, and still held by the pilot who flies them (status 3).
    for (const sn of FLYING) expect(states.get(sn)).toBe(STATUS_HELD);

    // Every flight.start sent during the outage is recorded, once.
    const sorties = async () => stack.server.db.selectFrom('sorties').select(['sn_id', 'flight_id', 'end_time']).where('sn_id', 'in', FLYING).execute();
    await until(async () => (await sorties()).length >= FLYING.length, 'a sortie per flying device');

    // Commands issued after the reconnect reach the devices: land them all.
    await until(() => FLYING.every((sn) => inAir(stack, sn)), 'the drones in the air');
    for (const sn of FLYING) {
      const r = await request(watch, PushMsgId.CONTROL, { sn_id: sn, cmd_type: CmdType.LAND });
      expect(r.code, JSON.stringify(r)).toBe(ResultCode.OK);
    }
    await until(async () => (await sorties()).every((s) => s.end_time !== null), 'the sorties closed by flight.end');
    const rows = await sorties();
    expect(rows.map((r) => r.sn_id).sort()).toEqual(FLYING);
    expect(new Set(rows.map((r) => r.flight_id)).size).toBe(FLYING.length);
    // Through all that (every flying device sent telemetry the server took long after), the dead device
    // stayed offline, the others online.
    expect(FLYING.every((sn) => (l().link.device(sn)?.telemetryAt ?? 0) > deadAt)).toBe(true);
    expect(l().link.isOnline(DEAD)).toBe(false);
    expect(FLYING.every((sn) => l().link.isOnline(sn))).toBe(true);
  });
});
