import { describe, expect, it } from 'vitest';
import { FlightMethod, alternateLandingEvent, flightEndEvent, flightStartEvent, flowProgressSchema, flowSteps, missionProgressSchema, missionPlanSchema } from '@nest/contracts';
import type { FlowProgress, MissionPlan, MissionProgress } from '@nest/contracts';
import { offsetMetres } from '@nest/geo';
import { DeviceModel } from './deviceModel.js';
import type { ModelSpec } from './model.js';
import type { OpsEvent } from './ops.js';

const HOME = { lat: 22.54, lng: 114.05, alt: 40 };
const spec = (kind: ModelSpec['kind']): ModelSpec => ({ kind, uavSn: `T-${kind}-UAV`, home: HOME });

/** A nest whose drone is charged and docked (seeded so that it is). */
function nest(kind: ModelSpec['kind'] = 'stable'): DeviceModel {
  const m = new DeviceModel(spec(kind), 7);
  m.drone.battery = 90;
  return m;
}

function plan(p: Partial<MissionPlan> = {}): MissionPlan {
  const wp = (n: number, e: number, extra = {}) => ({ ...offsetMetres(HOME, n, e), height: 50, ...extra });
  return missionPlanSchema.parse({
    mission_id: 'm-1',
    name: 'Test route',
    mission_type: 1,
    height_type: 0,
    auto_speed: 10,
    max_speed: 15,
    default_height: 50,
    return_height: 60,
    finish_action: 20,
    photo_type: 2,
    waypoints: [wp(200, 0, { takephoto: 1, hover: 3 }), wp(200, 200, { uav_yaw: 90, takephoto: 2 }), wp(0, 200, { speed: 20 })],
    ...p,
  });
}

/** Steps until `done` (at most `max` seconds), collecting the events. */
function run(m: DeviceModel, max: number, done: () => boolean = () => false): OpsEvent[] {
  const out: OpsEvent[] = [];
  for (let t = 0; t < max; t += 0.5) {
    m.step(0.5);
    out.push(...m.ops.events.splice(0));
    if (done()) break;
  }
  return out;
}

const flows = (ev: OpsEvent[]) => ev.filter((e) => e.method === FlightMethod.FLOW_PROGRESS).map((e) => e.data as FlowProgress);
const missions = (ev: OpsEvent[]) => ev.filter((e) => e.method === FlightMethod.MISSION_PROGRESS).map((e) => e.data as MissionProgress);
const of = (ev: OpsEvent[], method: string) => ev.filter((e) => e.method === method);

describe('flows', () => {
  for (const kind of ['stable', 'stable_mini', 'mobile', 'alone'] as const) {
    it(`takeoff runs every step in order on ${kind}`, () => {
      const m = nest(kind);
      if (kind === 'alone') {
        m.drone.restLeft = 1e9;
      }
      expect(m.ops.takeoff({ flight_id: 'f-1', mission: null, height: 30 })).toBeNull();
      const ev = run(m, 200, () => m.ops.flow?.state === 'done');
      const f = flows(ev);
      for (const p of f) flowProgressSchema.parse(p);
      const last = f.at(-1)!;
      expect(last.state).toBe('done');
      expect(last.steps.map((s) => s.step)).toEqual(flowSteps('takeoff', kind));
      expect(last.steps.every((s) => s.state === 'done')).toBe(true);
      // The steps started in order (running reported once each).
      const started = f.map((p) => p.steps[p.current]?.step).filter(Boolean);
      expect([...new Set(started)]).toEqual(flowSteps('takeoff', kind));
      expect(of(ev, FlightMethod.FLIGHT_START)).toHaveLength(1);
      flightStartEvent.parse(of(ev, FlightMethod.FLIGHT_START)[0]!.data);
      expect(of(ev, FlightMethod.FLIGHT_START)[0]!.bid).toBe('f-1');
      if (kind !== 'alone') {
        expect(m.nest!.hatch).toBe(0);
        expect(m.nest!.tripod).toBe(0);
      }
      // Climbs on to the takeoff height and hovers there.
      run(m, 30);
      expect(m.drone.height).toBeCloseTo(30, 0);
      expect(m.drone.flightState).toBe(2);
    });
  }

  it('moves the nest parts with tips during the takeoff flow (stable)', () => {
    const m = nest('stable');
    m.ops.takeoff({ flight_id: 'f-2', mission: null, height: 30 });
    const seen = new Set<string>();
    const hatch: number[] = [];
    for (let t = 0; t < 80; t += 0.5) {
      m.step(0.5);
      const tip = m.ops.flow && m.ops.flow.state === 'running' ? m.ops.events.map((e) => (e.data as FlowProgress).tip).filter(Boolean) : [];
      for (const x of tip) seen.add(`${x!.code}:${x!.part}`);
      m.ops.events.length = 0;
      hatch.push(m.telemetry().nest!.hatch);
    }
    expect(seen).toContain('3:hatch');
    expect(seen).toContain('3:lift');
    expect(seen).toContain('2:center_stand');
    expect(seen).toContain('2:hatch');
    expect(hatch).toContain(3);
    expect(hatch).toContain(1);
    expect(hatch).toContain(2);
  });

  it('refuses takeoff with the one-key errors', () => {
    const m = nest();
    m.inject('low_battery');
    expect(m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 })).toEqual({ one_key_error: 5 });
    m.clear();
    m.inject('hatch_stuck');
    expect(m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 })).toEqual({ one_key_error: 6 });
    m.clear();
    m.drone.battery = 90;
    expect(m.ops.land()).toEqual({ one_key_error: 4 });
    expect(m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 })).toBeNull();
    expect(m.ops.takeoff({ flight_id: 'g', mission: null, height: 30 })).toEqual({ one_key_error: 1 });
  });

  it('pauses, continues and interrupts a takeoff flow with the refusals of 9.3', () => {
    const m = nest();
    expect(m.ops.control(1)).toEqual({ refusal: 1 });
    m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 });
    run(m, 5);
    expect(m.ops.control(2)).toEqual({ refusal: 3 });
    expect(m.ops.control(1)).toBeNull();
    expect(m.ops.control(1)).toEqual({ refusal: 2 });
    const at = m.ops.flow!.current;
    run(m, 60);
    expect(m.ops.flow!.current).toBe(at);
    expect(m.ops.flow!.state).toBe('paused');
    expect(m.ops.control(2)).toBeNull();
    run(m, 5);
    expect(m.ops.control(3)).toBeNull();
    expect(m.ops.flow!.state).toBe('interrupted');
    run(m, 30);
    expect(m.drone.phase).toBe('docked');
    expect(m.nest!.hatch).toBe(0);
    expect(m.nest!.tripod).toBe(1);
  });

  it('refuses to pause during the takeoff step and to interrupt a landing past return', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 });
    run(m, 200, () => m.ops.flow?.steps[m.ops.flow.current]?.step === 'takeoff');
    expect(m.ops.control(1)).toEqual({ refusal: 4 });
    run(m, 200, () => m.ops.flow?.state === 'done');
    run(m, 10);
    expect(m.ops.land()).toBeNull();
    run(m, 300, () => m.ops.flow?.steps[m.ops.flow.current]?.step === 'hatch_open');
    expect(m.ops.control(3)).toEqual({ refusal: 5 });
    const ev = run(m, 300, () => m.drone.phase === 'docked' && m.ops.flow?.state === 'done');
    const end = of(ev, FlightMethod.FLIGHT_END);
    expect(end).toHaveLength(1);
    expect(flightEndEvent.parse(end[0]!.data).place).toBe(3);
    expect(m.nest!.charger).toBe(1);
    expect(m.drone.powered).toBe(false);
    expect(flows(ev).at(-1)!.steps.map((s) => s.step)).toEqual(flowSteps('landing', 'stable'));
  });

  it('fails the takeoff at hatch_open on hatch_stuck (FlowError 3) ... injected after the check', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 });
    m.faults.add('hatch_stuck');
    const ev = run(m, 30, () => m.ops.flow?.state === 'failed');
    const last = flows(ev).at(-1)!;
    expect(last.state).toBe('failed');
    expect(last.error).toBe(3);
    expect(last.steps[last.current]!.step).toBe('hatch_open');
    expect(of(ev, FlightMethod.FLIGHT_START)).toHaveLength(0);
  });

  it('lands at the alternate point when the hatch sticks at landing (reason 1)', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f-alt', mission: null, height: 30 });
    run(m, 200, () => m.ops.flow?.state === 'done');
    m.inject('hatch_stuck');
    expect(m.ops.land()).toBeNull();
    const ev = run(m, 600, () => of(m.ops.events, FlightMethod.FLIGHT_END).length > 0);
    ev.push(...m.ops.events.splice(0));
    const alt = of(ev, FlightMethod.ALTERNATE);
    expect(alt).toHaveLength(1);
    const rec = alternateLandingEvent.parse(alt[0]!.data);
    expect(rec.reason).toBe(1);
    expect(rec.place_int).toBe(1);
    const end = flightEndEvent.parse(of(ev, FlightMethod.FLIGHT_END)[0]!.data);
    expect(end.place).toBe(1);
    expect(end.flight_id).toBe('f-alt');
    const kinds = flows(ev).map((f) => `${f.kind}:${f.state}`);
    expect(kinds).toContain('landing:failed');
    expect(kinds).toContain('alternate:done');
  });

  it('goes to the alternate point in high wind (reason 2)', () => {
    const m = nest('stable_mini');
    m.ops.takeoff({ flight_id: 'f-w', mission: null, height: 30 });
    run(m, 200, () => m.ops.flow?.state === 'done');
    m.inject('high_wind');
    m.ops.land();
    const ev = run(m, 600, () => m.ops.flight === null);
    ev.push(...m.ops.events.splice(0));
    expect(alternateLandingEvent.parse(of(ev, FlightMethod.ALTERNATE)[0]!.data).reason).toBe(2);
  });
});

describe('commands during flows', () => {
  it('lands while the nest still closes behind the drone (the takeoff flow is superseded)', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 });
    run(m, 200, () => m.ops.flow?.steps[m.ops.flow.current]?.step === 'hatch_close');
    expect(m.ops.setStickMode(true)).toBeNull();
    expect(m.ops.setStickMode(false)).toBeNull();
    const ev = [...m.ops.events.splice(0)];
    expect(m.ops.land()).toBeNull();
    ev.push(...run(m, 600, () => m.ops.flight === null));
    const states = flows(ev).map((f) => `${f.kind}:${f.state}`);
    expect(states).toContain('takeoff:interrupted');
    expect(states.at(-1)).toBe('landing:done');
    expect(m.drone.phase).toBe('docked');
    expect(m.nest!.hatch).toBe(0);
  });

  it('refuses stick mode and a second landing while the landing flow flies the drone', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f', mission: null, height: 30 });
    run(m, 200, () => m.ops.flow?.state === 'done');
    m.ops.land();
    expect(m.ops.setStickMode(true)).toEqual({ reason: 13 });
    expect(m.ops.land()).toEqual({ one_key_error: 1 });
    expect(m.ops.returnHome()).toEqual({ reason: 12 });
  });

  it('goes to the alternate point when the battery cannot reach the nest (reason 3)', () => {
    const m = nest();
    const p = plan({ finish_action: 10 });
    p.waypoints = [{ ...offsetMetres(HOME, 6000, 0), height: 50 }];
    m.ops.takeoff({ flight_id: 'f-b', mission: p, height: 30 });
    run(m, 700, () => m.ops.mission?.state === 'done');
    m.drone.battery = 8;
    const ev = run(m, 1200, () => m.ops.flight === null);
    ev.push(...m.ops.events.splice(0));
    expect(missions(ev).some((x) => x.state === 'interrupted') || m.ops.mission?.state === 'done').toBe(true);
    expect(alternateLandingEvent.parse(of(ev, FlightMethod.ALTERNATE)[0]!.data).reason).toBe(3);
  });
});

describe('missions', () => {
  it('flies a route with its actions and returns into the nest (finish 20)', () => {
    const m = nest();
    expect(m.ops.takeoff({ flight_id: 'f-m', mission: plan(), height: 30 })).toBeNull();
    const ev = run(m, 1500, () => m.ops.flight === null);
    const mp = missions(ev);
    for (const p of mp) missionProgressSchema.parse(p);
    expect(mp.map((p) => p.waypoint_index)).toEqual(expect.arrayContaining([0, 1, 2, 3]));
    expect(mp.at(-1)!.state).toBe('done');
    const media = m.ops.media;
    expect(media.map((x) => x.kind)).toEqual(['photo', 'panorama']);
    expect(media[0]!.waypointIndex).toBe(0);
    const end = flightEndEvent.parse(of(ev, FlightMethod.FLIGHT_END)[0]!.data);
    expect(end.place).toBe(3);
    expect(end.photos).toBe(2);
    expect(end.distance).toBeGreaterThan(600);
    expect(m.drone.phase).toBe('docked');
  });

  it('honours height_type 1 (AMSL), max_speed, cam_trig_dist and finish 10 (hover at the last waypoint)', () => {
    const m = nest();
    const p = plan({ height_type: 1, finish_action: 10, max_speed: 8 });
    p.waypoints = [
      { ...offsetMetres(HOME, 100, 0), height: 100, cam_trig_dist: 20 },
      { ...offsetMetres(HOME, 300, 0), height: 100, cam_trig_dist: 0 },
    ];
    m.ops.takeoff({ flight_id: 'f', mission: p, height: 30 });
    let maxSpeed = 0;
    for (let t = 0; t < 300 && m.ops.mission?.state !== 'done'; t += 0.5) {
      m.step(0.5);
      maxSpeed = Math.max(maxSpeed, m.drone.hSpeed);
    }
    expect(m.ops.mission!.state).toBe('done');
    expect(m.drone.height).toBeCloseTo(60, 0);
    expect(maxSpeed).toBeLessThanOrEqual(8.01);
    // 200 m between the two waypoints, a photo every 20 m.
    expect(m.ops.media.length).toBeGreaterThanOrEqual(9);
    run(m, 30);
    expect(m.drone.flightState).toBe(2);
    expect(m.ops.flight).not.toBeNull();
  });

  it('finish 30 lands at the last waypoint (place 2), 40 goes back to the first and hovers', () => {
    const a = nest();
    a.ops.takeoff({ flight_id: 'f30', mission: plan({ finish_action: 30 }), height: 30 });
    const ev = run(a, 1500, () => a.ops.flight === null);
    expect(flightEndEvent.parse(of(ev, FlightMethod.FLIGHT_END)[0]!.data).place).toBe(2);
    const b = nest();
    const p = plan({ finish_action: 40 });
    b.ops.takeoff({ flight_id: 'f40', mission: p, height: 30 });
    run(b, 1500, () => b.ops.mission?.state === 'done');
    const first = p.waypoints[0]!;
    expect(Math.abs(b.drone.lat - first.lat)).toBeLessThan(1e-4);
    expect(b.drone.inAir).toBe(true);
  });

  it('interrupt keeps the breakpoint; start_index resumes there', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f', mission: plan(), height: 30 });
    run(m, 1500, () => (m.ops.mission?.index ?? 0) >= 1);
    expect(m.ops.control(1)).toBeNull();
    expect(m.ops.mission!.state).toBe('paused');
    expect(m.ops.control(2)).toBeNull();
    expect(m.ops.control(3)).toBeNull();
    const ev = run(m, 10);
    const interrupted = missions([...ev, ...[]]).concat(missions(m.ops.events)).find((p) => p.state === 'interrupted');
    expect(interrupted ?? m.ops.mission).toBeTruthy();
    expect(m.ops.mission!.state).toBe('interrupted');
    expect(m.ops.mission!.index).toBe(1);
    run(m, 1500, () => m.ops.flight === null);
    // Resume from the breakpoint.
    m.drone.battery = 90;
    m.ops.takeoff({ flight_id: 'f2', mission: plan({ start_index: 1 }), height: 30 });
    const ev2 = run(m, 300, () => m.ops.mission?.state === 'running');
    expect(missions(ev2)[0]!.waypoint_index).toBe(1);
  });
});

describe('stick', () => {
  it('moves with the sticks, holds after STICK_HOLD_MS, leaves stick mode after STICK_EXIT_MS', () => {
    const m = nest();
    m.ops.takeoff({ flight_id: 'f', mission: plan(), height: 30 });
    run(m, 300, () => m.ops.mission?.state === 'running' && m.drone.height > 40);
    expect(m.ops.setStickMode(true)).toBeNull();
    expect(m.ops.mission!.state).toBe('paused');
    m.ops.stickFrame({ pitch: 2000, roll: 1500, throttle: 2000, yaw: 1500 });
    const h0 = m.drone.height;
    m.step(0.5);
    m.step(0.5);
    expect(m.drone.height).toBeGreaterThan(h0 + 2);
    expect(m.drone.hSpeed).toBeCloseTo(10, 0);
    m.step(0.5);
    m.step(0.5);
    expect(m.drone.hSpeed).toBe(0);
    run(m, 61);
    expect(m.ops.stickMode).toBe(false);
    expect(m.ops.mission!.state).toBe('paused');
  });

  it('refuses stick mode on the ground', () => {
    expect(nest().ops.setStickMode(true)).toEqual({ reason: 13 });
  });
});

describe('camera', () => {
  it('takes photos per picture mode and refuses without a card', () => {
    const m = nest();
    m.ops.setCamera({ picture_mode: 2, burst_count: 5 });
    expect(m.ops.photo()).toBeNull();
    expect(m.ops.media).toHaveLength(5);
    m.ops.media.length = 0;
    m.ops.setCamera({ picture_mode: 3, timed_interval: 2 });
    m.ops.photo();
    run(m, 60);
    expect(m.ops.media).toHaveLength(10);
    m.ops.media.length = 0;
    m.ops.setCamera({ picture_mode: 4, delay_seconds: 3 });
    m.ops.photo();
    expect(m.ops.media).toHaveLength(0);
    run(m, 3);
    expect(m.ops.media).toHaveLength(1);
    m.inject('no_tf_card');
    expect(m.ops.photo()).toEqual({ reason: 5 });
    expect(m.telemetry().drone!.storage.sdcard_totalsize).toBe(0);
    m.clear();
    m.inject('tf_full');
    expect(m.ops.record(true)).toEqual({ reason: 6 });
    m.clear();
    m.ops.setCamera({ iso: 400, exp_mode: 1, shutter: '1/1000' });
    expect(m.telemetry().drone!.camera).toMatchObject({ camera_iso: 400, camera_exp_mode: 1, camera_shutter: '1/1000' });
  });
});

describe('patrol', () => {
  it('single-soldier patrols send flight.start / flight.end; commanded drones stop patrolling', () => {
    const m = new DeviceModel(spec('alone'), 3);
    const ev = run(m, 900, () => of(m.ops.events, FlightMethod.FLIGHT_END).length > 0);
    ev.push(...m.ops.events.splice(0));
    expect(of(ev, FlightMethod.FLIGHT_START).length).toBeGreaterThanOrEqual(1);
    expect(of(ev, FlightMethod.FLIGHT_END).length).toBeGreaterThanOrEqual(1);
    run(m, 600, () => m.drone.phase === 'ground');
    m.drone.battery = 90;
    expect(m.ops.missionStart({ flight_id: 'cmd-1', mission: plan({ finish_action: 20 }) })).toBeNull();
    const ev2 = run(m, 1500, () => m.ops.flight === null);
    expect(of(ev2, FlightMethod.FLIGHT_END).map((e) => e.bid)).toEqual(['cmd-1']);
    // No patrol for 5 minutes after the commanded flight.
    const ev3 = run(m, 240);
    expect(of(ev3, FlightMethod.FLIGHT_START)).toHaveLength(0);
  });
});
