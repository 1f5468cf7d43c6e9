/**
 * Pure replay logic (no DOM, no map): where the aircraft is at a time of the sortie, how far it has flown,
 * where a photo sits on the timeline, and the clamps that keep playback speed and seeking inside the track.
 */
import type { TrackPoint } from '@nest/contracts';
import { haversineDistance } from '@nest/geo';

export type { TrackPoint };

/** The state of the aircraft at a replay instant: interpolated between the two samples around it. */
export interface ReplaySample {
  t: number;
  lat: number;
  lng: number;
  alt: number;
  height: number;
  speed: number;
  heading: number;
  battery: number;
  /** The flight state of the sample at or before t (a state is not interpolated). */
  flightState: number;
  /** Metres flown from the first sample up to t. */
  distance: number;
  /** Index of the sample at or before t: the played part of the track is points[0..index] plus this position. */
  index: number;
}

/** Playback speeds offered (1x plays in real time). */
export const REPLAY_SPEEDS = [1, 2, 4, 8, 16] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** Seek step of the arrow keys (ms of flight), and with Shift held. */
export const SEEK_STEP_MS = 5_000;
export const SEEK_STEP_LONG_MS = 30_000;
/** Longest real time one animation frame may advance playback by (ms). */
export const MAX_FRAME_MS = 1_000;

/** Metres flown up to each sample (the first is 0). Same length as points. */
export function cumulativeDistances(points: readonly { lat: number; lng: number }[]): number[] {
  const out: number[] = [];
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    if (i > 0) sum += haversineDistance(points[i - 1]!, points[i]!);
    out.push(sum);
  }
  return out;
}

/** An angle in degrees brought into [0, 360). */
export function normalizeDegrees(deg: number): number {
  if (!Number.isFinite(deg)) return 0;
  const r = deg % 360;
  return r < 0 ? r + 360 : r === 0 ? 0 : r;
}

/**
 * Heading between a and b at fraction f, turning the short way round (350° to 10° passes through 0°, not
 * through 180°). Answers [0, 360).
 */
export function interpolateHeading(a: number, b: number, f: number): number {
  const from = normalizeDegrees(a);
  let delta = normalizeDegrees(b) - from;
  if (delta > 180) delta -= 360;
  else if (delta < -180) delta += 360;
  return normalizeDegrees(from + delta * f);
}

/** The marker's rotation on screen: the heading is from true north, the map may be turned by its bearing. */
export const screenRotation = (heading: number, bearing: number): number => normalizeDegrees(heading - bearing);

const lerp = (a: number, b: number, f: number) => a + (b - a) * f;

/** Index of the last sample with t <= time (0 when time is before the first). Points are sorted by t. */
export function indexAt(points: readonly { t: number }[], time: number): number {
  let lo = 0;
  let hi = points.length - 1;
  if (hi < 0) return -1;
  // The last of samples sharing a time wins (a device may log twice in one millisecond).
  if (time >= points[hi]!.t) return hi;
  if (time < points[0]!.t) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]!.t <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The aircraft at absolute time t (ms), clamped to the track: position linear between the two samples
 * around t, heading the short way round, distance along the flown segment. Null for an empty track.
 * `cumulative` is cumulativeDistances(points) (passed in so that a frame does not recompute it).
 */
export function sampleAt(points: readonly TrackPoint[], cumulative: readonly number[], t: number): ReplaySample | null {
  if (points.length === 0) return null;
  const i = indexAt(points, t);
  const a = points[i]!;
  const b = points[Math.min(i + 1, points.length - 1)]!;
  const span = b.t - a.t;
  const f = span > 0 ? Math.min(1, Math.max(0, (t - a.t) / span)) : 0;
  const segment = (cumulative[Math.min(i + 1, points.length - 1)] ?? 0) - (cumulative[i] ?? 0);
  return {
    t: span > 0 ? lerp(a.t, b.t, f) : a.t,
    lat: lerp(a.lat, b.lat, f),
    lng: lerp(a.lng, b.lng, f),
    alt: lerp(a.alt, b.alt, f),
    height: lerp(a.height, b.height, f),
    speed: lerp(a.speed, b.speed, f),
    heading: interpolateHeading(a.heading, b.heading, f),
    battery: lerp(a.battery, b.battery, f),
    flightState: a.flight_state,
    distance: (cumulative[i] ?? 0) + segment * f,
    index: i,
  };
}

/**
 * Where a photo sits on the timeline (absolute ms): when it was taken if that falls inside the track,
 * else (clock skew, a photo stamped after landing) the time of the track sample nearest to where it was taken.
 * Null for an empty track.
 */
export function photoTime(points: readonly TrackPoint[], photo: { lat: number; lng: number; taken_at: number }): number | null {
  if (points.length === 0) return null;
  const first = points[0]!.t;
  const last = points[points.length - 1]!.t;
  if (Number.isFinite(photo.taken_at) && photo.taken_at >= first && photo.taken_at <= last) return photo.taken_at;
  let best = points[0]!;
  let bestD = Infinity;
  for (const p of points) {
    const d = haversineDistance(p, photo);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best.t;
}

/** A seek target (ms from the start) kept inside [0, total]. */
export function clampSeek(elapsed: number, total: number): number {
  if (!Number.isFinite(elapsed) || elapsed < 0) return 0;
  return Math.min(elapsed, Math.max(0, total));
}

/** A playback speed from the offered ones (anything else falls back to 1x). */
export function clampSpeed(v: unknown): ReplaySpeed {
  const n = Number(v);
  return (REPLAY_SPEEDS as readonly number[]).includes(n) ? (n as ReplaySpeed) : 1;
}

/**
 * One animation frame of playback: the cursor advanced by the real time passed times the speed, stopped at
 * the end. Answers the new elapsed time and whether playback goes on.
 */
export function advance(elapsed: number, dtMs: number, speed: ReplaySpeed, total: number): { elapsed: number; playing: boolean } {
  // A background tab resumes with a long gap: cap one step so the aircraft does not jump across the map.
  // The cap stays above a slow machine's frame time (software GL draws a few frames a second), else 1x would crawl.
  const step = Math.min(Math.max(0, dtMs), MAX_FRAME_MS) * speed;
  const next = clampSeek(elapsed + step, total);
  return { elapsed: next, playing: next < total };
}

/** Total length of the track (ms): last sample minus first; 0 for fewer than two samples. */
export function trackDuration(points: readonly { t: number }[]): number {
  return points.length > 1 ? Math.max(0, points[points.length - 1]!.t - points[0]!.t) : 0;
}

/**
 * The timeline of a sortie (absolute start t0 and length, ms). A landed sortie plays from its takeoff to its
 * landing as recorded on the sortie (start_time, end_time in seconds), so the timeline and the duration in
 * the header and in the sortie lists are the same figure; track samples logged on the ground before takeoff
 * or after landing are outside it. A sortie still in flight, or one whose times are missing, plays its track.
 */
export function playbackSpan(
  points: readonly { t: number }[],
  sortie: { start_time: number; end_time?: number | null },
): { t0: number; total: number } {
  const end = sortie.end_time ?? 0;
  if (end > 0 && sortie.start_time > 0 && end >= sortie.start_time) {
    return { t0: sortie.start_time * 1000, total: (end - sortie.start_time) * 1000 };
  }
  return { t0: points[0]?.t ?? 0, total: trackDuration(points) };
}

/** Bounds [[west, south], [east, north]] of positions, null when there are none. */
export function boundsOf(coords: readonly [number, number][]): [[number, number], [number, number]] | null {
  if (coords.length === 0) return null;
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const [x, y] of coords) {
    w = Math.min(w, x);
    e = Math.max(e, x);
    s = Math.min(s, y);
    n = Math.max(n, y);
  }
  return [
    [w, s],
    [e, n],
  ];
}
