import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { polygon as turfPolygon } from '@turf/helpers';
import type { LatLng } from './coords.js';
import { localFrame, meanPoint, type XY } from './local.js';

/**
 * Rings and segments. Fences and survey areas are open rings of WGS84 points (the contracts' shape:
 * first point not repeated). Planar tests work in degrees like turf; metric tolerances use a local frame.
 */

/** Tolerance for "on the boundary": 5 cm, below GNSS/RTK precision and any map click. */
export const BOUNDARY_TOLERANCE_M = 0.05;

const same = (a: LatLng, b: LatLng): boolean => a.lat === b.lat && a.lng === b.lng;

/** The ring without a closing copy of its first point and without consecutive duplicates. */
export function normalizeRing(points: readonly LatLng[]): LatLng[] {
  const out: LatLng[] = [];
  for (const p of points) if (out.length === 0 || !same(out[out.length - 1]!, p)) out.push({ lat: p.lat, lng: p.lng });
  while (out.length > 1 && same(out[0]!, out[out.length - 1]!)) out.pop();
  return out;
}

/** A GeoJSON polygon (closed ring of [lng, lat]) for turf; the ring should have at least 3 points. */
export function ringToPolygon(ring: readonly LatLng[]): ReturnType<typeof turfPolygon> {
  const coords = ring.map((p) => [p.lng, p.lat]);
  coords.push([ring[0]!.lng, ring[0]!.lat]);
  return turfPolygon([coords]);
}

/** Distance in metres from p to segment ab of the plane. */
export function pointSegmentDistance(p: XY, a: XY, b: XY): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** Smallest distance in metres from a point to the ring's edges (local frame around the point). */
export function distanceToRing(p: LatLng, ring: readonly LatLng[]): number {
  const f = localFrame(p);
  const o = { x: 0, y: 0 };
  let best = Infinity;
  for (let i = 0; i < ring.length; i++) {
    const d = pointSegmentDistance(o, f.toXY(ring[i]!), f.toXY(ring[(i + 1) % ring.length]!));
    if (d < best) best = d;
  }
  return best;
}

/** A ring prepared for many inside tests. */
export interface PreparedRing {
  readonly ring: readonly LatLng[];
  /** Inside or on the boundary (within BOUNDARY_TOLERANCE_M unless told otherwise). */
  contains(p: LatLng, toleranceM?: number): boolean;
  /** Inside and farther than the tolerance from the boundary. */
  strictlyContains(p: LatLng, toleranceM?: number): boolean;
}

export function prepareRing(points: readonly LatLng[]): PreparedRing {
  const ring = normalizeRing(points);
  const feature = ring.length >= 3 ? ringToPolygon(ring) : null;
  return {
    ring,
    contains(p, toleranceM = BOUNDARY_TOLERANCE_M) {
      if (!feature) return false;
      if (booleanPointInPolygon([p.lng, p.lat], feature)) return true;
      return distanceToRing(p, ring) <= toleranceM;
    },
    strictlyContains(p, toleranceM = BOUNDARY_TOLERANCE_M) {
      if (!feature) return false;
      return booleanPointInPolygon([p.lng, p.lat], feature, { ignoreBoundary: true }) && distanceToRing(p, ring) > toleranceM;
    },
  };
}

/**
 * Parameters t in [0, 1] along segment pq where it meets segment ab (touching and collinear overlap
 * included: the overlap's ends are answered). Plane coordinates; any unit.
 */
export function segmentHits(p: XY, q: XY, a: XY, b: XY): number[] {
  const rx = q.x - p.x;
  const ry = q.y - p.y;
  const sx = b.x - a.x;
  const sy = b.y - a.y;
  const denom = rx * sy - ry * sx;
  const qpx = a.x - p.x;
  const qpy = a.y - p.y;
  const scale = Math.max(Math.abs(rx), Math.abs(ry), Math.abs(sx), Math.abs(sy), 1e-300);
  if (Math.abs(denom) > 1e-12 * scale * scale) {
    const t = (qpx * sy - qpy * sx) / denom;
    const u = (qpx * ry - qpy * rx) / denom;
    const eps = 1e-12;
    return t >= -eps && t <= 1 + eps && u >= -eps && u <= 1 + eps ? [Math.max(0, Math.min(1, t))] : [];
  }
  // Parallel: collinear when a lies on the line pq.
  if (Math.abs(qpx * ry - qpy * rx) > 1e-12 * scale * scale) return [];
  const rr = rx * rx + ry * ry;
  if (rr === 0) return [];
  const t0 = (qpx * rx + qpy * ry) / rr;
  const t1 = ((b.x - p.x) * rx + (b.y - p.y) * ry) / rr;
  const lo = Math.max(0, Math.min(t0, t1));
  const hi = Math.min(1, Math.max(t0, t1));
  return lo <= hi ? [lo, hi] : [];
}

/**
 * The middles of the pieces of the straight segment ab (in degrees, as drawn) cut at every meeting with
 * the ring's edges: each piece lies wholly inside, outside or along the boundary, so its middle tells.
 */
export function segmentPieceMiddles(a: LatLng, b: LatLng, ring: readonly LatLng[]): LatLng[] {
  const f = localFrame(a);
  const pa = f.toXY(a);
  const pb = f.toXY(b);
  const ts = [0, 1];
  for (let i = 0; i < ring.length; i++) ts.push(...segmentHits(pa, pb, f.toXY(ring[i]!), f.toXY(ring[(i + 1) % ring.length]!)));
  ts.sort((x, y) => x - y);
  const out: LatLng[] = [];
  for (let i = 1; i < ts.length; i++) {
    if (ts[i]! - ts[i - 1]! < 1e-9) continue;
    const t = (ts[i]! + ts[i - 1]!) / 2;
    out.push(f.toLatLng({ x: pa.x + t * (pb.x - pa.x), y: pa.y + t * (pb.y - pa.y) }));
  }
  return out;
}

/**
 * A point of the straight segment ab outside the ring, or null when the segment stays inside or on the
 * boundary.
 */
export function segmentPointOutside(a: LatLng, b: LatLng, ring: PreparedRing, toleranceM = BOUNDARY_TOLERANCE_M): LatLng | null {
  return segmentPieceMiddles(a, b, ring.ring).find((m) => !ring.contains(m, toleranceM)) ?? null;
}

/**
 * A point where two rings' interiors meet, or null when they are apart or only touch (within the
 * tolerance): an edge piece of one strictly inside the other. Identical rings are not detected (every
 * piece lies on the other's boundary); ringOverlap in validation.ts handles them by area.
 */
export function ringsInteriorMeet(a: PreparedRing, b: PreparedRing, toleranceM = BOUNDARY_TOLERANCE_M): LatLng | null {
  for (const [p, q] of [[a, b], [b, a]] as const) {
    const r = p.ring;
    for (let i = 0; i < r.length; i++) {
      const hit = segmentPieceMiddles(r[i]!, r[(i + 1) % r.length]!, q.ring).find((m) => q.strictlyContains(m, toleranceM));
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * A point inside a simple ring to put its label on: the vertex mean when it lies inside, else the middle
 * of the longest inside stretch of the east-west or the north-south line through the mean (a concave ring,
 * such as a strip along a river, whose mean falls outside it). Null for fewer than 3 distinct points.
 */
export function ringLabelPoint(points: readonly LatLng[]): LatLng | null {
  const ring = normalizeRing(points);
  if (ring.length < 3) return null;
  const mean = meanPoint(ring);
  if (prepareRing(ring).strictlyContains(mean)) return mean;
  const f = localFrame(mean);
  const xy = ring.map((p) => f.toXY(p));
  let best: { length: number; at: XY } | null = null;
  // Axis 0: the east-west line y = 0 (crossings in x); axis 1: the north-south line x = 0 (crossings in y).
  for (const axis of [0, 1] as const) {
    const across = (p: XY) => (axis === 0 ? p.y : p.x);
    const along = (p: XY) => (axis === 0 ? p.x : p.y);
    const hits: number[] = [];
    for (let i = 0; i < xy.length; i++) {
      const a = xy[i]!;
      const b = xy[(i + 1) % xy.length]!;
      // Half-open rule: a line through a vertex counts it once.
      if (across(a) <= 0 !== across(b) <= 0) hits.push(along(a) + ((0 - across(a)) * (along(b) - along(a))) / (across(b) - across(a)));
    }
    hits.sort((u, v) => u - v);
    for (let k = 0; k + 1 < hits.length; k += 2) {
      const length = hits[k + 1]! - hits[k]!;
      const mid = (hits[k]! + hits[k + 1]!) / 2;
      if (!best || length > best.length) best = { length, at: axis === 0 ? { x: mid, y: 0 } : { x: 0, y: mid } };
    }
  }
  return best ? f.toLatLng(best.at) : ring[0]!;
}
