import type { TelemetryData } from '@nest/contracts';
import { droneTelemetry, nestTelemetry } from '@nest/contracts/test-fixtures';

/**
 * Test fixture: a nest's telemetry with its drone on the ground at the nest (powered, landed, idle), healthy
 * unless told otherwise. The overrides are the readings the pre-flight checks judge.
 */
export function nestDroneTelemetry(
  over: { battery?: number; total?: number; free?: number; rtk?: number; sats?: number; wind?: number; rain?: number; fs?: 0 | 1 | 2 | 3 | 4 | 8 } = {},
): TelemetryData {
  const nest = nestTelemetry({}, { wind_speed: over.wind ?? 3, rainfall: over.rain ?? 0 });
  const drone = droneTelemetry({ sn: 'D', lat: nest.lat, lng: nest.lng, alt: 30, height: 0, h_speed: 0, home_distance: 0, flight_time: 0 });
  return {
    nest,
    drone: {
      ...drone,
      battery: { ...drone.battery, percent: over.battery ?? 90 },
      flight_state: over.fs ?? 4,
      rtk: { ...drone.rtk, status: over.rtk ?? 4 },
      gps_satellites: over.sats ?? 5,
      storage: { sdcard_totalsize: over.total ?? 64_000, sdcard_free: over.free ?? 30_000 },
    },
  };
}
