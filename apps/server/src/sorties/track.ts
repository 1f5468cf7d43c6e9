import type { DroneTelemetry } from '@nest/contracts';

/** One stored track point (sortie_track row without sort_id); t in ms. */
export interface TrackPoint {
  t: number;
  lat: number;
  lng: number;
  alt: number;
  height: number;
  speed: number;
  heading: number;
  battery: number;
  flight_state: number;
}

/** A point every TRACK_INTERVAL_MS, or sooner when the drone moved TRACK_MOVE_M or changed flight state. */
export const TRACK_INTERVAL_MS = 2000;
export const TRACK_MOVE_M = 15;

/** Metres between two WGS84 positions (haversine; plenty for 15 m decisions). */
export function distanceM(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = 6_371_000;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
}

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
  return distanceM(last, next) > TRACK_MOVE_M;
}
