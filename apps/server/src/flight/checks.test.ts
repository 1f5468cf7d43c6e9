import { CommandReason, PREFLIGHT, PreflightItem, Reason, ResultCode, type TelemetryData } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { buildCommand, navigationOf } from './commands.js';
import { nestDroneTelemetry } from './fixtures.js';
import { controlRefusal, enduranceAllows, enduranceMinutes, firstFailure, holdAllows, inAir, preflight, processRunning, type CheckFacts } from './checks.js';
import { answerOf, detailOf, deviceRefusal, refused, verdictOfRow } from './reply.js';
import { tookEffect } from './runtime.js';

const console_ = { u_id: 'u1', source: 'console' as const };
const task = { u_id: 'system', source: 'task' as const };

const telemetry = nestDroneTelemetry;

const facts = (over: Partial<CheckFacts> = {}): CheckFacts => ({
  enabled: true,
  online: true,
  holder: { u_id: 'u1', nick: 'me' },
  state: null,
  telemetry: telemetry(),
  ...over,
});

describe('pre-flight checks', () => {
  it('pass on a healthy idle device and list every item (route only when asked)', () => {
    const checks = preflight(console_, facts());
    expect(checks.map((c) => c.item)).toEqual(['enabled', 'online', 'control', 'idle', 'battery', 'tf_card', 'tf_space', 'rtk', 'wind', 'rain']);
    expect(firstFailure(checks)).toBeNull();
    expect(preflight(console_, facts({ route: null })).at(-1)).toEqual({ item: 'route', ok: true, reason: null, value: null });
    expect(firstFailure(preflight(console_, facts({ route: Reason.ROUTE_MISSING })))).toBe(Reason.ROUTE_MISSING);
  });

  it('report the first failing reason in order: disabled before offline', () => {
    expect(firstFailure(preflight(console_, facts({ enabled: false, online: false })))).toBe(Reason.DISABLED);
    expect(firstFailure(preflight(console_, facts({ online: false })))).toBe(Reason.OFFLINE);
  });

  it('refuse each limit at its boundary', () => {
    const at = (t: TelemetryData) => firstFailure(preflight(console_, facts({ telemetry: t })));
    expect(at(telemetry({ battery: PREFLIGHT.minBatteryPercent }))).toBeNull();
    expect(at(telemetry({ battery: PREFLIGHT.minBatteryPercent - 1 }))).toBe(Reason.LOW_BATTERY);
    expect(at(telemetry({ total: 0 }))).toBe(Reason.NO_TF);
    expect(at(telemetry({ free: PREFLIGHT.minTfFreeMb - 1 }))).toBe(Reason.TF_FULL);
    expect(at(telemetry({ rtk: 2, sats: PREFLIGHT.minGpsSatellites }))).toBeNull();
    expect(at(telemetry({ rtk: 2, sats: PREFLIGHT.minGpsSatellites - 1 }))).toBe(Reason.RTK);
    // Powered off in the nest: positioning is checked by the device after power-on.
    const asleep = telemetry({ rtk: 0, sats: 0 });
    asleep.drone!.powered = false;
    expect(at(asleep)).toBeNull();
    expect(preflight(console_, facts({ telemetry: asleep })).find((c) => c.item === 'rtk')?.value).toBe('powered_off');
    const alone = { drone: asleep.drone! };
    expect(at(alone)).toBe(Reason.RTK);
    expect(at(telemetry({ wind: PREFLIGHT.maxWindSpeed + 0.1 }))).toBe(Reason.WIND);
    expect(at(telemetry({ rain: PREFLIGHT.maxRainfall + 0.1 }))).toBe(Reason.RAIN);
    // Nothing known about the drone: refused, not assumed.
    expect(firstFailure(preflight(console_, facts({ telemetry: null })))).toBe(Reason.LOW_BATTERY);
  });

  it('give the measured value of a failing check', () => {
    const battery = preflight(console_, facts({ telemetry: telemetry({ battery: 42 }) })).find((c) => c.item === 'battery');
    expect(battery).toEqual({ item: 'battery', ok: false, reason: Reason.LOW_BATTERY, value: 42 });
  });

  it('hold: free or own hold is fine; a system actor never flies a held device', () => {
    expect(holdAllows(console_, null)).toBe(true);
    expect(holdAllows(console_, { u_id: 'u1', nick: 'me' })).toBe(true);
    expect(holdAllows(console_, { u_id: 'u2', nick: 'B' })).toBe(false);
    expect(holdAllows(task, null)).toBe(true);
    expect(holdAllows(task, { u_id: 'system', nick: 'x' })).toBe(false);
    expect(firstFailure(preflight(console_, facts({ holder: { u_id: 'u2', nick: 'B' } })))).toBe(Reason.HELD);
  });

  it('control: a person flies only while holding the device; a system actor only while nobody does', () => {
    expect(controlRefusal(console_, { u_id: 'u1', nick: 'me' })).toBeNull();
    expect(controlRefusal(console_, null)).toBe(Reason.NOT_HOLDING);
    expect(controlRefusal(console_, { u_id: 'u2', nick: 'B' })).toBe(Reason.HELD);
    expect(controlRefusal(task, null)).toBeNull();
    expect(controlRefusal(task, { u_id: 'u2', nick: 'B' })).toBe(Reason.HELD);
    expect(firstFailure(preflight(console_, facts({ holder: null })))).toBe(Reason.NOT_HOLDING);
    expect(preflight(task, facts({ holder: null })).find((c) => c.item === 'control')).toMatchObject({ ok: true });
  });

  it('a running or paused flow, or an unfinished mission, is a process', () => {
    const flow = (state: 'running' | 'paused' | 'done') => ({ flow_id: 'f', kind: 'takeoff' as const, state, steps: [], current: 0, error: null, tip: null, started_at: 0, elapsed: 0 });
    expect(processRunning(null)).toBe(false);
    expect(processRunning({ flow: flow('running') })).toBe(true);
    expect(processRunning({ flow: flow('paused') })).toBe(true);
    expect(processRunning({ flow: flow('done') })).toBe(false);
    const mission = { flight_id: 'f', mission_id: 'm', state: 'running' as const, waypoint_index: 1, waypoint_count: 3, percent: 30, distance_flown: 0, flight_time: 0, photos: 0 };
    expect(processRunning({ mission })).toBe(true);
    expect(processRunning({ mission: { ...mission, state: 'done' } })).toBe(false);
    expect(firstFailure(preflight(console_, facts({ state: { mission } })))).toBe(Reason.BUSY);
  });

  it('in the air from the drone flight state', () => {
    expect(inAir(null)).toBeNull();
    expect(inAir(telemetry({ fs: 2 }))).toBe(true);
    expect(inAir(telemetry({ fs: 4 }))).toBe(false);
  });
});

describe('route endurance pre-flight check', () => {
  const route = (minutes: number, distance = 2000) => ({ est_time: minutes * 60, distance });
  const endurance = (t: TelemetryData, r = route(10)) => preflight(console_, facts({ telemetry: t, route: null, endurance: r })).find((c) => c.item === 'endurance');

  it('comes last, after the route, the battery and the wind it uses', () => {
    const checks = preflight(console_, facts({ route: null, endurance: route(5) }));
    expect(checks.map((c) => c.item).slice(-2)).toEqual(['route', 'endurance']);
    // A low battery names itself, not the endurance.
    expect(firstFailure(preflight(console_, facts({ telemetry: telemetry({ battery: 30 }), route: null, endurance: route(60) })))).toBe(Reason.LOW_BATTERY);
    // Without a route there is no endurance item.
    expect(preflight(console_, facts()).some((c) => c.item === 'endurance')).toBe(false);
  });

  it('minutes the battery allows: (battery - reserve) / consumption per minute', () => {
    expect(enduranceMinutes(100)).toBe((100 - PREFLIGHT.reservePercent) / PREFLIGHT.batteryPercentPerMinute);
    expect(enduranceMinutes(60)).toBe(20);
    expect(enduranceMinutes(10)).toBe(0);
  });

  it('refuses a route longer than the battery allows, at its boundary, with the times as value', () => {
    // 60 %: (60 - 20) / 2 = 20 minutes.
    expect(endurance(telemetry({ battery: 60 }), route(20))).toEqual({ item: 'endurance', ok: true, reason: null, value: '20:00 / 20:00' });
    expect(endurance(telemetry({ battery: 60 }), { est_time: 20 * 60 + 1, distance: 2000 })).toMatchObject({ ok: false, reason: Reason.ENDURANCE, value: '20:01 / 20:00' });
    // The lax route of 158 minutes never flies, even on a full battery.
    expect(firstFailure(preflight(console_, facts({ telemetry: telemetry({ battery: 100 }), route: null, endurance: route(158) })))).toBe(Reason.ENDURANCE);
    expect(firstFailure(preflight(console_, facts({ telemetry: telemetry({ battery: 100 }), route: null, endurance: route(15) })))).toBeNull();
  });

  it('refuses a long route in wind above the long-route limit; short routes keep the takeoff limit', () => {
    const wind = PREFLIGHT.longRouteMaxWind + 0.5;
    expect(endurance(telemetry({ battery: 100, wind }), route(10, PREFLIGHT.longRouteMetres + 1))).toMatchObject({ ok: false, reason: Reason.ENDURANCE });
    expect(endurance(telemetry({ battery: 100, wind }), route(10, PREFLIGHT.longRouteMetres))).toMatchObject({ ok: true });
    expect(endurance(telemetry({ battery: 100, wind: PREFLIGHT.longRouteMaxWind }), route(10, 10_000))).toMatchObject({ ok: true });
    // No weather station (a single-soldier drone): the battery rule only.
    expect(enduranceAllows(route(10, 10_000), 100, null)).toBe(true);
    // Battery unknown: not assumed.
    expect(enduranceAllows(route(1), null, 0)).toBe(false);
  });

  it('has its texts in both languages', () => {
    expect(CommandReason.label(Reason.ENDURANCE, 'zh')).toContain('电量');
    expect(CommandReason.label(Reason.ENDURANCE, 'en')).toContain('battery');
    expect(PreflightItem.label('endurance', 'en')).toBe('Route endurance (battery and wind)');
  });
});

describe('command mapping', () => {
  const cmd = (cmd_type: number, action_cmd = 0, value: number | string = 0, settings?: Record<string, unknown>) => ({ sn_id: 'S', cmd_type, action_cmd, value, ...(settings ? { settings } : {}) });

  it('maps cmd_types to FlightMethod commands', () => {
    expect(buildCommand(cmd(1))).toMatchObject({ ok: true, method: 'flow.takeoff', data: { mission: null, height: 30 }, needs: 'all', physical: true });
    expect(buildCommand(cmd(1, 0, 80))).toMatchObject({ data: { height: 80 } });
    expect(buildCommand(cmd(2))).toMatchObject({ method: 'flow.land', physical: true, needs: 'air' });
    expect(buildCommand(cmd(3))).toMatchObject({ method: 'flight.return', physical: false });
    expect(buildCommand(cmd(4, 0, 13))).toMatchObject({ method: 'flight.mode', data: { mode: 13 } });
    expect(buildCommand(cmd(4, 0, 2))).toEqual({ ok: false, reason: Reason.BAD_VALUE });
    expect(buildCommand(cmd(6, 1, -45))).toMatchObject({ method: 'gimbal.control', data: { pitch: -45 } });
    expect(buildCommand(cmd(6, 3))).toMatchObject({ data: { reset: true } });
    expect(buildCommand(cmd(6, 1, -120))).toEqual({ ok: false, reason: Reason.BAD_VALUE });
    expect(buildCommand(cmd(7, 0, 4))).toMatchObject({ method: 'camera.zoom', data: { zoom: 4 } });
    expect(buildCommand(cmd(9, 0, 0, { iso: 200 }))).toMatchObject({ method: 'camera.set', data: { iso: 200 } });
    expect(buildCommand(cmd(9, 0, 0, { iso: 123 }))).toEqual({ ok: false, reason: Reason.BAD_VALUE });
    expect(buildCommand(cmd(9))).toEqual({ ok: false, reason: Reason.BAD_VALUE });
    expect(buildCommand(cmd(10))).toMatchObject({ method: 'camera.photo' });
    expect(buildCommand(cmd(11, 1))).toMatchObject({ method: 'camera.record', data: { on: true } });
    expect(buildCommand(cmd(11, 0))).toMatchObject({ data: { on: false } });
    expect(buildCommand(cmd(12, 1))).toMatchObject({ method: 'flight.stick_mode', data: { on: true }, needs: 'air' });
    expect(buildCommand(cmd(12, 0))).toMatchObject({ data: { on: false }, needs: 'basic' });
    expect(buildCommand(cmd(12, 5))).toEqual({ ok: false, reason: Reason.BAD_VALUE });
    expect(buildCommand(cmd(13))).toMatchObject({ method: 'flight.land_here' });
  });

  it('navigation: value = route id, action 1 start / 2 resume', () => {
    expect(navigationOf(cmd(8, 1, 'm-1'))).toEqual({ missionId: 'm-1', resume: false });
    expect(navigationOf(cmd(8, 2, 'm-1'))).toEqual({ missionId: 'm-1', resume: true });
    expect(navigationOf(cmd(8, 3, 'm-1'))).toBeNull();
    expect(navigationOf(cmd(8, 1, 0))).toBeNull();
  });
});

describe('replies', () => {
  const head = { sn_id: 'S', cmd_id: 'cmd-00001', cmd_type: 8, action_cmd: 1 };

  it('ok is 2000 without text; refusals are 2002 with the reason text and the checks', () => {
    expect(answerOf(head, { outcome: 'ok', reason: 0, flight_id: 'F' }, 'en')).toEqual({
      code: ResultCode.OK,
      msg: '',
      data: { ...head, outcome: 'ok', reason: 0, flight_id: 'F' },
    });
    const checks = preflight(console_, facts({ telemetry: telemetry({ battery: 20 }) }));
    const a = answerOf(head, refused(Reason.LOW_BATTERY, checks), 'zh');
    expect(a).toMatchObject({ code: ResultCode.PUSH_FAILED, msg: '飞机电量低于 50%，请充电后再起飞', data: { outcome: 'refused', reason: 4 } });
    expect(a.data.checks).toHaveLength(10);
  });

  it('maps device refusals: one-key error, process refusal, reason, bad request', () => {
    expect(deviceRefusal({ result: 10, output: { one_key_error: 5 } })).toEqual({ outcome: 'rejected', reason: Reason.LOW_BATTERY, one_key_error: 5 });
    expect(deviceRefusal({ result: 10, output: { one_key_error: 1 } })).toMatchObject({ reason: Reason.BUSY });
    expect(deviceRefusal({ result: 10, output: { refusal: 4 } })).toEqual({ outcome: 'rejected', reason: Reason.DEVICE_REFUSED, refusal: 4 });
    expect(deviceRefusal({ result: 10, output: { reason: 13 } })).toEqual({ outcome: 'rejected', reason: 13 });
    expect(deviceRefusal({ result: 3 })).toEqual({ outcome: 'rejected', reason: Reason.BAD_VALUE });
    expect(answerOf(head, deviceRefusal({ result: 10, output: { one_key_error: 3 } }), 'en').msg).toBe('The drone is already in the air');
  });

  it('473 failures say which control failed, then why', () => {
    const a = answerOf({ sn_id: 'S', cmd_id: 'cmd-00002', control_cmd: 1 }, deviceRefusal({ result: 10, output: { refusal: 4 } }), 'en');
    expect(a.code).toBe(ResultCode.PUSH_FAILED);
    expect(a.msg).toMatch(/: This step cannot be paused$/);
    expect(a.msg.length).toBeGreaterThan(': This step cannot be paused'.length);
  });

  it('timeouts, offline and pending have their reasons; a stored verdict is rebuilt from the log row', () => {
    expect(answerOf(head, { outcome: 'timeout', reason: Reason.TIMEOUT }, 'en').msg).toBe('The device did not answer in time');
    expect(answerOf(head, { outcome: 'offline', reason: Reason.OFFLINE }, 'en').msg).toBe('The device is offline');
    const v = deviceRefusal({ result: 10, output: { one_key_error: 5 } });
    expect(verdictOfRow({ outcome: 'rejected', reason: v.reason, detail: detailOf(v, 'battery low'), flight_id: null })).toEqual(v);
    expect(verdictOfRow({ outcome: 'pending', reason: 0, detail: '', flight_id: null })).toEqual({ outcome: 'pending', reason: Reason.IN_PROGRESS });
  });

  it('a lost takeoff reply is confirmed by the state naming the flight', () => {
    const flow = { flow_id: 'F1', kind: 'takeoff' as const, state: 'running' as const, steps: [], current: 0, error: null, tip: null, started_at: 0, elapsed: 0 };
    expect(tookEffect('flow.takeoff', 'F1', { flow })).toBe(true);
    expect(tookEffect('flow.takeoff', 'F2', { flow })).toBe(false);
    expect(tookEffect('flow.takeoff', 'F1', null)).toBe(false);
    expect(tookEffect('flow.land', null, { flow: { ...flow, kind: 'landing' } })).toBe(true);
  });
});
