import { describe, expect, it } from 'vitest';
import type { DroneTelemetry, NestTelemetry } from '@nest/contracts';
import { droneTelemetry, nestTelemetry } from '@nest/contracts/test-fixtures';
import { cameraReadouts, droneReadouts, environmentReadouts, nestPartReadouts, windText } from './readouts';

// The shared fixture with the readings these tests read back (rounding, units, labels).
const drone = (extra: Partial<DroneTelemetry> = {}): DroneTelemetry =>
  droneTelemetry({
    alt: 132.46,
    height: 120.04,
    h_speed: 8.26,
    v_speed: -1.5,
    heading: 271.6,
    battery: { percent: 56.4, voltage: 15.2, temperature: 30, charging: true },
    flight_mode: 3,
    rtk: { status: 4, satellites: 28, ntrip_state: 7 },
    gps_satellites: 19,
    home_distance: 999.4,
    flight_time: 3725,
    storage: { sdcard_totalsize: 65536, sdcard_free: 30720 },
    camera: { camera_iso: 200, camera_shutter: '1/500', camera_exp_mode: 1, camera_exp_value: 0.7, camera_awb: 4 },
    ...extra,
  });
const nest = (extra: Partial<NestTelemetry> = {}): NestTelemetry =>
  nestTelemetry({ hatch: 1, platform: 3, charger: 4, drone_power: 1, ...extra }, { wind_speed: 3.44, temperature: 26.25, humidity: 71.6 });
const value = (rows: { id: string; value: string }[], id: string) => rows.find((r) => r.id === id)?.value;

describe('telemetry formatting in the live panel', () => {
  it('distance from home in m below 1000, km with 2 decimals from 1000 m', () => {
    expect(value(droneReadouts(drone(), 'en'), 'homeDistance')).toBe('999 m');
    expect(value(droneReadouts(drone({ home_distance: 1000 }), 'en'), 'homeDistance')).toBe('1.00 km');
    expect(value(droneReadouts(drone({ home_distance: 1234.5 }), 'en'), 'homeDistance')).toBe('1.23 km');
  });

  it('flight time as hh:mm:ss', () => {
    expect(value(droneReadouts(drone(), 'en'), 'flightTime')).toBe('01:02:05');
    expect(value(droneReadouts(drone({ flight_time: 0 }), 'en'), 'flightTime')).toBe('00:00:00');
  });

  it('speeds, heights, battery with charging, states and RTK labels', () => {
    const en = droneReadouts(drone(), 'en');
    expect(value(en, 'height')).toBe('120.0 m');
    expect(value(en, 'altitude')).toBe('132.5 m');
    expect(value(en, 'hSpeed')).toBe('8.3 m/s');
    expect(value(en, 'vSpeed')).toBe('-1.5 m/s');
    expect(value(en, 'battery')).toBe('56% · charging');
    expect(value(en, 'flightState')).toBe('In the air');
    expect(value(en, 'flightMode')).toBe('Auto');
    expect(value(en, 'rtk')).toBe('Fixed solution · 28');
    expect(value(en, 'ntrip')).toBe('Receiving corrections');
    expect(value(en, 'gps')).toBe('19');
    const zh = droneReadouts(drone({ battery: { percent: 15, voltage: 14, temperature: 30, charging: false } }), 'zh');
    expect(value(zh, 'battery')).toBe('15%');
    expect(zh.find((r) => r.id === 'battery')?.tone).toBe('bad');
    expect(value(zh, 'flightState')).toBe('空中');
  });

  it('wind names from degrees, in both languages', () => {
    expect(value(environmentReadouts(nest(), 'en'), 'windDirection')).toBe('East');
    expect(value(environmentReadouts(nest(), 'zh'), 'windDirection')).toBe('东风');
    expect(windText(0, 'en')).toBe('North');
    expect(windText(225, 'en')).toBe('Southwest');
    expect(windText(337.5, 'zh')).toBe('北风');
    expect(windText(Number.NaN, 'zh')).toBe('--');
    const env = environmentReadouts(nest(), 'en');
    expect(value(env, 'windSpeed')).toBe('3.4 m/s');
    expect(value(env, 'temperature')).toBe('26.3 °C');
    expect(value(env, 'humidity')).toBe('72%');
    expect(value(env, 'rainfall')).toBe('0.0 mm/h');
  });

  it('nest parts with state labels; no platform on mini and mobile nests', () => {
    const parts = nestPartReadouts(nest(), 'stable', 'en');
    expect(parts.map((p) => [p.id, p.label, p.value])).toEqual([
      ['hatch', 'Hatch', 'Open'],
      ['platform', 'Lift platform', 'Opening'],
      ['tripod', 'Center stand', 'Closed'],
      ['charger', 'Charger', 'Fault'],
      ['drone_power', 'Drone power', 'Open'],
    ]);
    expect(nestPartReadouts(nest(), 'stable_mini', 'en').map((p) => p.id)).not.toContain('platform');
    expect(nestPartReadouts(nest(), 'mobile', 'zh').map((p) => p.id)).not.toContain('platform');
    expect(nestPartReadouts(undefined, 'stable', 'en')[0]!.value).toBe('--');
  });

  it('storage and camera defaults', () => {
    const cam = cameraReadouts(drone(), 'en');
    expect(value(cam, 'sdcard')).toBe('30.00 GB / 64.00 GB');
    expect(value(cam, 'awb')).toBe('Daylight');
    // The exposure mode reads as its name, not its code.
    expect(value(cam, 'expMode')).toBe('Manual');
    expect(value(cameraReadouts(drone(), 'zh'), 'expMode')).toBe('手动');
    expect(value(cam, 'expValue')).toBe('+0.7 EV');
    expect(value(cam, 'shutter')).toBe('1/500');
  });

  it('no telemetry yet: every value is --', () => {
    for (const r of [...droneReadouts(undefined, 'en'), ...environmentReadouts(undefined, 'en'), ...cameraReadouts(undefined, 'en')]) expect(r.value).toBe('--');
  });
});
