import type { TelemetryData } from '@nest/contracts';

/** Test fixture: a nest's telemetry with its drone on the ground, healthy unless told otherwise. */
export function nestDroneTelemetry(
  over: { battery?: number; total?: number; free?: number; rtk?: number; sats?: number; wind?: number; rain?: number; fs?: 0 | 1 | 2 | 3 | 4 | 8 } = {},
): TelemetryData {
  return {
    nest: {
      lat: 22.54,
      lng: 114.05,
      hatch: 0,
      platform: 0,
      tripod: 0,
      charger: 1,
      drone_power: 0,
      env: { wind_speed: over.wind ?? 3, wind_direction: 0, temperature: 20, humidity: 50, rainfall: over.rain ?? 0 },
    },
    drone: {
      sn: 'D',
      lat: 22.54,
      lng: 114.05,
      alt: 30,
      height: 0,
      h_speed: 0,
      v_speed: 0,
      heading: 0,
      pitch: 0,
      roll: 0,
      battery: { percent: over.battery ?? 90, voltage: 15, temperature: 25, charging: false },
      flight_state: over.fs ?? 4,
      flight_mode: 0,
      rtk: { status: over.rtk ?? 4, satellites: 20, ntrip_state: 0 },
      gps_satellites: over.sats ?? 5,
      home_distance: 0,
      flight_time: 0,
      powered: true,
      storage: { sdcard_totalsize: over.total ?? 64_000, sdcard_free: over.free ?? 30_000 },
      camera: { camera_iso: 100, camera_shutter: '1/500', camera_exp_mode: 0, camera_exp_value: 0, camera_awb: 0 },
    },
  };
}
