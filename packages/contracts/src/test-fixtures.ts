import type { DroneTelemetry, NestTelemetry, TelemetryData } from './device-link.js';

/**
 * Valid telemetry for tests of every workspace (`@nest/contracts/test-fixtures`; product code never imports
 * it: .dependency-cruiser.cjs): a drone in the air and a calm nest with its hatch closed. A test overrides the
 * values it is about.
 */
export const droneTelemetry = (over: Partial<DroneTelemetry> = {}): DroneTelemetry => ({
  sn: 'U1',
  lat: 22.5,
  lng: 114.1,
  alt: 80,
  height: 50,
  h_speed: 5,
  v_speed: 0,
  heading: 90,
  pitch: 0,
  roll: 0,
  battery: { percent: 80, voltage: 15, temperature: 30, charging: false },
  flight_state: 2,
  flight_mode: 1,
  rtk: { status: 4, satellites: 20, ntrip_state: 1 },
  gps_satellites: 20,
  home_distance: 100,
  flight_time: 60,
  powered: true,
  storage: { sdcard_totalsize: 64_000, sdcard_free: 30_000 },
  camera: { camera_iso: 100, camera_shutter: '1/500', camera_exp_mode: 0, camera_exp_value: 0, camera_awb: 0 },
  ...over,
});

/** `env` overrides single readings of the weather station, over the calm defaults. */
export const nestTelemetry = (over: Partial<NestTelemetry> = {}, env: Partial<NestTelemetry['env']> = {}): NestTelemetry => ({
  lat: 22.54,
  lng: 114.05,
  hatch: 0,
  platform: 0,
  tripod: 0,
  charger: 1,
  drone_power: 0,
  env: { wind_speed: 2, wind_direction: 90, temperature: 25, humidity: 60, rainfall: 0, ...env },
  ...over,
});

/** A whole telemetry message of a nest with its drone. */
export const telemetryMessage = (): TelemetryData => ({ nest: nestTelemetry(), drone: droneTelemetry() });
