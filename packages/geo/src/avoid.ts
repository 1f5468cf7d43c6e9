import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { polygon as turfPolygon } from '@turf/helpers';
import type { LatLng } from './coords.js';
import type { LocalFrame, XY } from './local.js';
import { normalizeRing, pointSegmentDistance, prepareRing, segmentPointOutside } from './polygon.js';

/**
 * Ways around areas a survey route keeps out of (survey.ts `avoid`: no-fly zones, restricted map zones),
 * in a local metric frame (local.ts: straight lines there are the straight legs the maps draw):
 * - an obstacle is a ring; the route keeps AVOID_CLEARANCE_M from it along survey lines, and at least half
 *   of that on detours (a bevelled corner is passed nearer than its clearance);
 * - detourPath answers the shortest way between two points on the visibility graph over the obstacles'
 *   convex corners pushed outward by the clearance (cornerPoints). A shortest way around polygons only
 *   ever bends at their convex corners, so these points are enough (gently turning runs of corners share
 *   one point: the way round a circle is a little longer than the shortest, and has few points);
 * - the graph starts with the obstacles the straight leg comes near and grows with any other obstacle the
 *   way found comes near, until the way is clear of all of them;
 * - through a passage narrower than the clearance the way keeps a smaller one (NARROWER), never entering;
 * - given a ring to stay in (`within`: the route's fence), the way keeps inside it (the fence's leg rule,
 *   polygon.ts segmentPointOutside), bending also at its reflex corners pushed inward.
 */

/** Distance (m) survey lines keep from an avoided ring; detours keep at least half of it. */
export const AVOID_CLEARANCE_M = 5;

export interface Obstacle {
  /** The ring in the frame, counter-clockwise (x east, y north). */
  readonly pts: readonly XY[];
  readonly box: { minX: number; maxX: number; minY: number; maxY: number };
  /** Inside the ring or on its boundary (turf's planar test, no tolerance). */
  inside(p: XY): boolean;
}

const signedArea = (pts: readonly XY[]): number => {
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    const q = pts[(i + 1) % pts.length]!;
    a += p.x * q.y - q.x * p.y;
  }
  return a / 2;
};

/** A WGS84 ring as an obstacle in the frame, or null when it has fewer than 3 distinct points. */
export function obstacleOf(ring: readonly LatLng[], frame: LocalFrame): Obstacle | null {
  const points = normalizeRing(ring);
  if (points.length < 3) return null;
  let pts = points.map((p) => frame.toXY(p));
  if (signedArea(pts) < 0) pts = pts.reverse();
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  // The frame is affine in degrees, so turf's planar test answers the same in metres.
  const feature = turfPolygon([[...pts, pts[0]!].map((p) => [p.x, p.y])]);
  return {
    pts,
    box: { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) },
    inside: (p) => booleanPointInPolygon([p.x, p.y], feature),
  };
}

const cross = (o: XY, a: XY, b: XY): number => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Whether segments pq and ab meet (crossing or touching). */
function segmentsMeet(p: XY, q: XY, a: XY, b: XY): boolean {
  const d1 = cross(a, b, p);
  const d2 = cross(a, b, q);
  const d3 = cross(p, q, a);
  const d4 = cross(p, q, b);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 === 0 && pointSegmentDistance(p, a, b) === 0) || (d2 === 0 && pointSegmentDistance(q, a, b) === 0) ||
    (d3 === 0 && pointSegmentDistance(a, p, q) === 0) || (d4 === 0 && pointSegmentDistance(b, p, q) === 0);
}

/** Whether segment pq keeps at least `gap` metres from the obstacle's edges and does not lie inside it. */
function keepsClear(p: XY, q: XY, o: Obstacle, gap: number): boolean {
  const { box } = o;
  if (Math.max(p.x, q.x) < box.minX - gap || Math.min(p.x, q.x) > box.maxX + gap || Math.max(p.y, q.y) < box.minY - gap || Math.min(p.y, q.y) > box.maxY + gap)
    return true;
  const n = o.pts.length;
  const lo = { x: Math.min(p.x, q.x) - gap, y: Math.min(p.y, q.y) - gap };
  const hi = { x: Math.max(p.x, q.x) + gap, y: Math.max(p.y, q.y) + gap };
  for (let i = 0; i < n; i++) {
    const a = o.pts[i]!;
    const b = o.pts[(i + 1) % n]!;
    // An edge whose box is farther than the gap from the segment's box is neither met nor near.
    if (Math.max(a.x, b.x) < lo.x || Math.min(a.x, b.x) > hi.x || Math.max(a.y, b.y) < lo.y || Math.min(a.y, b.y) > hi.y) continue;
    if (segmentsMeet(p, q, a, b)) return false;
    if (Math.min(pointSegmentDistance(p, a, b), pointSegmentDistance(q, a, b), pointSegmentDistance(a, p, q), pointSegmentDistance(b, p, q)) < gap) return false;
  }
  // Not meeting any edge: wholly inside or wholly outside; one end tells.
  return !o.inside(p);
}

/** Largest turn (radians) of a run of gently turning corners given one point together: 30 degrees. */
const CHAIN_TURN = Math.PI / 6;
/** Runs turning less than this (radians) are as good as straight: no way bends there. */
const FLAT_TURN = 1e-3;

/** A ring detours stay inside where they can (the route's fence). */
export interface Within {
  /** Whether the straight leg pq stays inside the ring or on its boundary (within 5 cm), as fence legs must. */
  holds(p: XY, q: XY): boolean;
  /** Inside the ring or on its boundary (within 5 cm). */
  contains(p: XY): boolean;
  /** The ring's reflex corners pushed inward by the clearance: where a way inside it bends. */
  corners(clearance: number): XY[];
}

/** A WGS84 ring as a ring to stay in, in the frame; null when it has fewer than 3 distinct points. */
export function withinOf(ring: readonly LatLng[], frame: LocalFrame): Within | null {
  const prepared = prepareRing(ring);
  if (prepared.ring.length < 3) return null;
  // Clockwise, so that cornerPoints' left turns are the reflex corners and its right side is inward.
  let pts = prepared.ring.map((p) => frame.toXY(p));
  if (signedArea(pts) > 0) pts = pts.reverse();
  return {
    holds: (p, q) => segmentPointOutside(frame.toLatLng(p), frame.toLatLng(q), prepared) === null,
    contains: (p) => prepared.contains(frame.toLatLng(p)),
    corners: (clearance) => cornerPoints(pts, clearance),
  };
}

/**
 * The corner points of a detour around the obstacle (a counter-clockwise ring): its convex corners pushed
 * out by the clearance (the right of the direction of travel; on a clockwise ring, its reflex corners
 * pushed in).
 * Consecutive convex corners turning 30 degrees or less in all (the sides of a circle's polygon, a rounded
 * outline) share one point, where the lines of the run's first and last edges, moved out by the
 * clearance, meet: the run lies inside both lines, so the point keeps the clearance from all of it, and a
 * circle's detour has 12 points rather than hundreds. A corner turning more than 30 degrees is its own run:
 * up to 90 degrees the same meeting point (the mitre), beyond that three points at the clearance (across
 * each edge and along the bisector), since a sharp mitre would reach far out.
 */
function cornerPoints(ring: readonly XY[], clearance: number): XY[] {
  const n = ring.length;
  const dir = (i: number): XY => {
    const a = ring[i % n]!;
    const b = ring[(i + 1) % n]!;
    const l = Math.hypot(b.x - a.x, b.y - a.y);
    return { x: (b.x - a.x) / l, y: (b.y - a.y) / l };
  };
  const edges = Array.from({ length: n }, (_, i) => dir(i)); // edge i runs from corner i to corner i + 1
  const turnAt = (i: number): number => {
    const e1 = edges[(i + n - 1) % n]!;
    const e2 = edges[i]!;
    return Math.atan2(e1.x * e2.y - e1.y * e2.x, e1.x * e2.x + e1.y * e2.y);
  };
  const turns = Array.from({ length: n }, (_, i) => turnAt(i));
  const out: XY[] = [];
  // Where the lines of edges `a` (into the run) and `b` (out of it), moved out by the clearance, meet.
  const meet = (a: number, b: number): XY => {
    const ea = edges[a]!;
    const eb = edges[b]!;
    // Outward normals: right of the direction of travel on a counter-clockwise ring.
    const pa = { x: ring[a]!.x + ea.y * clearance, y: ring[a]!.y - ea.x * clearance };
    const pb = { x: ring[b]!.x + eb.y * clearance, y: ring[b]!.y - eb.x * clearance };
    const s = ((pb.x - pa.x) * eb.y - (pb.y - pa.y) * eb.x) / (ea.x * eb.y - ea.y * eb.x);
    return { x: pa.x + s * ea.x, y: pa.y + s * ea.y };
  };
  let run: { first: number; last: number; turn: number } | null = null;
  const close = () => {
    if (run && run.turn >= FLAT_TURN) out.push(meet((run.first + n - 1) % n, run.last));
    run = null;
  };
  // Start after a corner that ends any run (reflex, straight or sharp), so no run is cut by the ring's start.
  const breakAt = turns.findIndex((t) => t <= 0 || t > CHAIN_TURN);
  const start = breakAt < 0 ? 0 : breakAt + 1;
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    const t = turns[i]!;
    if (t <= 0) {
      close(); // reflex or straight: a shortest way never bends there
    } else if (t > CHAIN_TURN) {
      close();
      if (t <= Math.PI / 2) {
        out.push(meet((i + n - 1) % n, i));
      } else {
        const v = ring[i]!;
        const e1 = edges[(i + n - 1) % n]!;
        const e2 = edges[i]!;
        const bl = Math.hypot(e1.x - e2.x, e1.y - e2.y);
        for (const d of [{ x: e1.y, y: -e1.x }, { x: (e1.x - e2.x) / bl, y: (e1.y - e2.y) / bl }, { x: e2.y, y: -e2.x }])
          out.push({ x: v.x + d.x * clearance, y: v.y + d.y * clearance });
      }
    } else if (run && run.turn + t <= CHAIN_TURN) {
      run.last = i;
      run.turn += t;
    } else {
      close();
      run = { first: i, last: i, turn: t };
    }
  }
  close();
  return out;
}

/** Shortest way from points[0] to points[1] through the other points, legs allowed by `clear` (A*). */
function shortestWay(points: readonly XY[], clear: (p: XY, q: XY) => boolean): number[] | null {
  const n = points.length;
  const dist = (i: number, j: number) => Math.hypot(points[i]!.x - points[j]!.x, points[i]!.y - points[j]!.y);
  const g = new Array<number>(n).fill(Infinity);
  const prev = new Array<number>(n).fill(-1);
  const done = new Array<boolean>(n).fill(false);
  g[0] = 0;
  for (;;) {
    let u = -1;
    let best = Infinity;
    for (let i = 0; i < n; i++) {
      if (done[i] || g[i] === Infinity) continue;
      const f = g[i]! + dist(i, 1);
      if (f < best) {
        best = f;
        u = i;
      }
    }
    if (u < 0) return null;
    if (u === 1) break;
    done[u] = true;
    for (let v = 0; v < n; v++) {
      if (done[v]) continue;
      const d = g[u]! + dist(u, v);
      if (d < g[v]! && clear(points[u]!, points[v]!)) {
        g[v] = d;
        prev[v] = u;
      }
    }
  }
  const way: number[] = [];
  for (let i = prev[1]!; i > 0; i = prev[i]!) way.unshift(i);
  return way;
}

/**
 * Narrower clearances tried, as shares of the clearance, when no way keeps the whole of it (a passage
 * between two obstacles narrower than the clearance): down to 1/25, 0.2 m at 5 m, whose ways keep 10 cm,
 * twice the 5 cm boundary tolerance of the route rules.
 */
const NARROWER = [1, 1 / 2, 1 / 4, 1 / 10, 1 / 25];

/**
 * The points to fly through between a and b so that no leg comes nearer than half the clearance to any
 * obstacle (see the module note), or, through passages too narrow for that, half of a narrower clearance
 * (NARROWER), and, given `within`, no leg leaves it: [] when the straight leg already does, null when no
 * way is found (an end shut in by obstacles, or too near one, or no way inside `within`).
 */
export function detourPath(a: XY, b: XY, obstacles: readonly Obstacle[], clearance: number = AVOID_CLEARANCE_M, within?: Within | null): XY[] | null {
  for (const share of NARROWER) {
    const way = detourWith(a, b, obstacles, clearance * share, within ?? null);
    if (way) return way;
  }
  return null;
}

function detourWith(a: XY, b: XY, obstacles: readonly Obstacle[], clearance: number, within: Within | null): XY[] | null {
  const gap = clearance / 2;
  const blocking = (p: XY, q: XY) => obstacles.filter((o) => !keepsClear(p, q, o, gap));
  const stays = (p: XY, q: XY) => !within || within.holds(p, q);
  const first = blocking(a, b);
  if (first.length === 0 && stays(a, b)) return [];
  const active = new Set(first);
  const inward = within ? within.corners(clearance) : [];
  for (let round = 0; round <= obstacles.length; round++) {
    const list = [...active];
    const corners = [...list.flatMap((o) => cornerPoints(o.pts, clearance)), ...inward].filter(
      (c) => obstacles.every((o) => keepsClear(c, c, o, gap * 0.999)) && (!within || within.contains(c)),
    );
    const points = [a, b, ...corners];
    const way = shortestWay(points, (p, q) => list.every((o) => keepsClear(p, q, o, gap)) && stays(p, q));
    if (!way) return null;
    const path = [a, ...way.map((i) => points[i]!), b];
    let grown = false;
    for (let i = 0; i + 1 < path.length; i++) {
      for (const o of blocking(path[i]!, path[i + 1]!)) {
        if (!active.has(o)) {
          active.add(o);
          grown = true;
        }
      }
    }
    if (!grown) return way.map((i) => points[i]!);
  }
  return null;
}
