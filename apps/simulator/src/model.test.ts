import { describe, expect, it } from 'vitest';
import { ISO_OPTIONS, SHUTTER_OPTIONS, WhiteBalance, FlightMode, FlightState, telemetryData } from '@nest/contracts';
import type { TelemetryData } from '@nest/contracts';
import { DeviceModel } from './deviceModel.js';
import { MODEL } from './model.js';
import type { ModelSpec } from './model.js';
import { haversineDistance } from '@nest/geo';

const home = { lat: 22.54, lng: 114.05, alt: 40 };
const alone = (seed = 7): DeviceModel => new DeviceModel({ kind: 'alone', uavSn: 'D1', home }, seed);
const nest = (kind: ModelSpec['kind'] = 'stable', seed = 3): DeviceModel => new DeviceModel({ kind, uavSn: 'U1', home }, seed);

/** Runs the model with a fake clock, returning every sample (validated against the contracts schema). */
function run(m: DeviceModel, seconds: number, dt = 1): TelemetryData[] {
  const out: TelemetryData[] = [];
  for (let t = 0; t < seconds; t += dt) {
    m.step(dt);
    out.push(telemetryData.parse(m.telemetry()));
  }
  return out;
}

describe('device model', () => {
  it('is deterministic for a seed', () => {
    const a = run(alone(11), 600);
    const b = run(alone(11), 600);
    expect(a).toEqual(b);
    expect(run(alone(12), 600)).not.toEqual(a);
  });

  it('keeps every sample within the contracts schema over hours, nests and drones alike', () => {
    for (const m of [alone(1), nest('stable'), nest('stable_mini'), nest('mobile')]) {
      const samples = run(m, 4 * 3600, 2);
      for (const s of samples) {
        expect(s.drone!.height).toBeGreaterThanOrEqual(0);
        expect(s.drone!.alt).toBeCloseTo(home.alt + s.drone!.height, 1);
        expect(FlightState.has(s.drone!.flight_state)).toBe(true);
        expect(FlightMode.has(s.drone!.flight_mode)).toBe(true);
        if (s.nest) expect(s.nest.env.wind_speed).toBeLessThanOrEqual(MODEL.wind.max);
      }
    }
  });

  it('a docked drone does not move and its nest reports its parts', () => {
    const m = nest('stable');
    const samples = run(m, 10);
    for (const s of samples) {
      const d = s.drone!;
      expect([0, 4]).toContain(d.flight_state);
      expect(d.h_speed).toBe(0);
      expect(d.v_speed).toBe(0);
      expect(d.height).toBe(0);
      expect(d.pitch).toBe(0);
      expect(d.roll).toBe(0);
      expect(d.lat).toBe(home.lat);
      expect(d.lng).toBe(home.lng);
      expect(s.nest!.hatch).toBe(0);
      expect(s.nest!.drone_power).toBe(d.powered ? 1 : 0);
    }
  });

  it('platform exists only on the large fixed nest', () => {
    const mini = nest('stable_mini');
    expect(mini.nest!.move('platform', 1)).toBe(false);
    expect(nest('mobile').nest!.move('platform', 1)).toBe(false);
    const big = nest('stable');
    expect(big.nest!.move('platform', 1)).toBe(true);
    big.step(1);
    expect(big.telemetry().nest!.platform).toBe(3);
    big.step(MODEL.parts.platform);
    expect(big.telemetry().nest!.platform).toBe(1);
    big.nest!.move('platform', 0);
    big.step(1);
    expect(big.telemetry().nest!.platform).toBe(2);
  });

  it('charges a docked drone (about 1 %/min, faster below 80 %) and stops at 100', () => {
    const m = nest('stable');
    m.drone.battery = 50;
    run(m, 60);
    expect(m.drone.battery).toBeCloseTo(50 + MODEL.battery.fastChargePerMin, 1);
    expect(m.telemetry().nest!.charger).toBe(1);
    expect(m.telemetry().drone!.battery.charging).toBe(true);
    m.drone.battery = 90;
    run(m, 60);
    expect(m.drone.battery).toBeCloseTo(90 + MODEL.battery.chargePerMin, 1);
    run(m, 3600);
    expect(m.drone.battery).toBeLessThanOrEqual(100);
    expect(m.drone.battery).toBeGreaterThan(98.9);
  });

  it('battery never rises in flight over many simulated flights', () => {
    const m = alone(5);
    let prev: TelemetryData | null = null;
    let airSamples = 0;
    for (const s of run(m, 3 * 3600, 0.5)) {
      const inAir = [1, 2, 3, 8].includes(s.drone!.flight_state);
      if (inAir) airSamples++;
      if (prev && inAir && [1, 2, 3, 8].includes(prev.drone!.flight_state)) {
        expect(s.drone!.battery.percent).toBeLessThanOrEqual(prev.drone!.battery.percent);
        expect(s.drone!.battery.charging).toBe(false);
      }
      prev = s;
    }
    expect(airSamples).toBeGreaterThan(3600);
  });

  it('a drone on the ground does not move', () => {
    const m = alone(9);
    let prev: TelemetryData | null = null;
    for (const s of run(m, 3600)) {
      if (prev && [0, 4].includes(s.drone!.flight_state) && [0, 4].includes(prev.drone!.flight_state)) {
        expect(s.drone!.lat).toBe(prev.drone!.lat);
        expect(s.drone!.lng).toBe(prev.drone!.lng);
        expect(s.drone!.h_speed).toBe(0);
        expect(s.drone!.height).toBe(0);
      }
      prev = s;
    }
  });

  it('the patrol goes through every flight state in order, with the right modes and numbers', () => {
    const m = alone(3);
    const seen: number[] = [];
    let maxHeight = 0;
    let maxDist = 0;
    const cruiseSpeeds: number[] = [];
    for (const s of run(m, 1800)) {
      const d = s.drone!;
      if (seen[seen.length - 1] !== d.flight_state) seen.push(d.flight_state);
      if (d.flight_state === 2) {
        expect(d.flight_mode).toBe(3);
        cruiseSpeeds.push(d.h_speed);
      }
      if (d.flight_state === 8) expect(d.flight_mode).toBe(6);
      if (d.flight_state === 3) expect(d.flight_mode).toBe(9);
      if (d.flight_state === 2 || d.flight_state === 8) expect(d.flight_time).toBeGreaterThan(0);
      maxHeight = Math.max(maxHeight, d.height);
      maxDist = Math.max(maxDist, d.home_distance);
    }
    expect(new Set(seen)).toEqual(new Set([0, 1, 2, 3, 4, 8]));
    // One cycle, in order, somewhere in the sequence.
    expect(seen.join(',')).toContain('4,1,2,8,3,4,0');
    expect(maxHeight).toBeGreaterThanOrEqual(MODEL.patrol.heightMin);
    expect(maxHeight).toBeLessThanOrEqual(MODEL.patrol.heightMax);
    expect(maxDist).toBeGreaterThan(150);
    expect(Math.max(...cruiseSpeeds)).toBeGreaterThanOrEqual(MODEL.patrol.speedMin - 0.01);
    expect(Math.max(...cruiseSpeeds)).toBeLessThanOrEqual(MODEL.patrol.speedMax + 0.01);
    // Lands back home.
    const last = m.telemetry().drone!;
    if (last.flight_state === 0 || last.flight_state === 4) expect(haversineDistance(home, last)).toBeLessThan(1);
  });

  it('keeps something moving in every 30 s window (single-soldier patrol)', () => {
    const m = alone(21);
    const moving = run(m, 2 * 3600).map((s) => s.drone!.h_speed > 0 || s.drone!.v_speed !== 0);
    for (let i = 0; i + 30 <= moving.length; i++) expect(moving.slice(i, i + 30).some(Boolean)).toBe(true);
  });

  it('uses camera defaults from the contracts options', () => {
    const c = alone().telemetry().drone!.camera;
    expect(ISO_OPTIONS).toContain(c.camera_iso);
    expect(SHUTTER_OPTIONS).toContain(c.camera_shutter);
    expect(WhiteBalance.has(c.camera_awb)).toBe(true);
    expect(c.camera_exp_value).toBe(0);
  });

  it('storage shrinks while flying and is offloaded on the ground when low', () => {
    const m = alone(4);
    const free0 = m.telemetry().drone!.storage.sdcard_free;
    run(m, 900);
    expect(m.telemetry().drone!.storage.sdcard_free).toBeLessThan(free0);
    expect(m.telemetry().drone!.storage.sdcard_totalsize).toBe(MODEL.storage.totalMb);
  });
});

describe('faults in the model', () => {
  it('hatch_stuck reports the hatch as fault (4) and refuses to move it; clear restores it', () => {
    const m = nest('stable_mini');
    m.inject('hatch_stuck');
    m.step(1);
    expect(m.telemetry().nest!.hatch).toBe(4);
    expect(m.nest!.move('hatch', 1)).toBe(false);
    m.clear('hatch_stuck');
    m.step(1);
    expect(m.telemetry().nest!.hatch).toBe(0);
    expect(m.nest!.move('hatch', 1)).toBe(true);
  });

  it('low_battery drops to 15 % and a flying drone returns', () => {
    const m = alone(3);
    while (m.drone.flightState !== 2) m.step(1);
    m.step(20);
    m.inject('low_battery');
    expect(m.telemetry().drone!.battery.percent).toBeLessThanOrEqual(15);
    m.step(1);
    expect(m.telemetry().drone!.flight_state).toBe(8);
    expect(m.telemetry().drone!.flight_mode).toBe(6);
    // Comes home and lands, then stays on the ground while the fault holds.
    const after = run(m, 1200);
    expect(after.some((s) => s.drone!.flight_state === 3)).toBe(true);
    expect(after.slice(-300).every((s) => [0, 4].includes(s.drone!.flight_state))).toBe(true);
    expect(m.telemetry().drone!.battery.percent).toBeLessThanOrEqual(15);
    m.clear('low_battery');
    const later = run(m, 300);
    expect(later.some((s) => s.drone!.flight_state === 1)).toBe(true);
  });

  it('low_battery on a docked drone: 15 %, charger off while it holds', () => {
    const m = nest('stable');
    m.inject('low_battery');
    run(m, 30);
    expect(m.telemetry().drone!.battery.percent).toBeLessThanOrEqual(15);
    expect(m.telemetry().nest!.charger).toBe(0);
    m.clear();
    run(m, 60);
    expect(m.telemetry().nest!.charger).toBe(1);
    expect(m.telemetry().drone!.battery.percent).toBeGreaterThan(15);
  });

  it('rtk_loss: status 0, ntrip 9 or 11, satellites drop; clearing recovers to fixed', () => {
    const m = alone(2);
    m.inject('rtk_loss');
    m.step(1);
    const d = m.telemetry().drone!;
    expect(d.rtk.status).toBe(0);
    expect([9, 11]).toContain(d.rtk.ntrip_state);
    expect(d.rtk.satellites).toBe(0);
    expect(d.gps_satellites).toBeLessThanOrEqual(8);
    m.clear('rtk_loss');
    m.step(1);
    expect(m.telemetry().drone!.rtk.status).toBeLessThan(4);
    m.step(MODEL.rtk.recoverySeconds + 1);
    expect(m.telemetry().drone!.rtk).toMatchObject({ status: 4, ntrip_state: 7 });
    expect(m.telemetry().drone!.rtk.satellites).toBeGreaterThanOrEqual(20);
  });

  it('high_wind holds the wind at 14-18 m/s, then it calms down', () => {
    const m = nest('mobile');
    m.inject('high_wind');
    for (const s of run(m, 120).slice(30)) {
      expect(s.nest!.env.wind_speed).toBeGreaterThanOrEqual(14);
      expect(s.nest!.env.wind_speed).toBeLessThanOrEqual(18);
    }
    m.clear('high_wind');
    run(m, 30);
    expect(m.telemetry().nest!.env.wind_speed).toBeLessThanOrEqual(MODEL.wind.max);
  });
});

describe('calm weather', () => {
  it('never rains and keeps the wind light over hours, while the default weather does rain', () => {
    const home = { lat: 22.55, lng: 114.06, alt: 40 };
    const run = (calm: boolean) => {
      const m = new DeviceModel({ kind: 'stable', uavSn: 'CALM-UAV', home, calm }, 7);
      let rained = false;
      let maxWind = 0;
      for (let t = 0; t < 12 * 3600; t += 5) {
        m.env.step(5, false);
        rained ||= m.env.rainfall > 0;
        maxWind = Math.max(maxWind, m.env.windSpeed);
      }
      return { rained, maxWind };
    };
    const calm = run(true);
    expect(calm.rained).toBe(false);
    expect(calm.maxWind).toBeLessThanOrEqual(MODEL.wind.calmMax);
    expect(run(false).rained).toBe(true);
  });
});
