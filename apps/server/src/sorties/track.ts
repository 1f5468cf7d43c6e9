import type { DroneTelemetry, TrackPoint } from '@nest/contracts';
import { haversineDistance } from '@nest/geo';

export type { TrackPoint };

/** A point every TRACK_INTERVAL_MS, or sooner when the drone moved TRACK_MOVE_M or changed flight state. */
export const TRACK_INTERVAL_MS = 2000;
export const TRACK_MOVE_M = 15;

export function pointOf(drone: DroneTelemetry, t: number): TrackPoint {
  return {
    t,
    lat: drone.lat,
    lng: drone.lng,
    alt: drone.alt,
    height: drone.height,
    speed: drone.h_speed,
    heading: drone.heading,
    battery: drone.battery.percent,
    flight_state: drone.flight_state,
  };
}

/**
 * Whether `next` is worth keeping after the last kept point. Telemetry arrives at up to 10 Hz; a sortie of
 * an hour would be 36 000 rows at full rate, while replay only needs the shape of the flight.
 */
export function keepPoint(last: TrackPoint | null, next: TrackPoint): boolean {
  if (!last) return true;
  if (next.t <= last.t) return false;
  if (next.t - last.t >= TRACK_INTERVAL_MS) return true;
  if (next.flight_state !== last.flight_state) return true;
  return haversineDistance(last, next) > TRACK_MOVE_M;
}
