import type { MissionSettings, Waypoint } from '@nest/contracts';
import {
  cameraFromSettings,
  customCameraIssues,
  governingFootprint,
  gsdFromHeight,
  gsdSensor,
  heightFromGsd,
  lineSpacingFor,
  triggerDistanceFor,
  type SurveyCamera,
} from './camera.js';
import { AVOID_CLEARANCE_M, detourPath, obstacleOf, withinOf, type Obstacle } from './avoid.js';
import { haversineDistance, isValidLatLng, pathLength, toRad, type LatLng } from './coords.js';
import type { Issue } from './issues.js';
import { localFrame, meanPoint, type XY } from './local.js';
import { normalizeRing } from './polygon.js';
import { flatTerrain, terrainFollowingHeights, type TerrainProvider } from './terrain.js';
import { ringArea } from './validation.js';

/**
 * Survey (lawnmower) grids over an area (REFERENCE section 5), done better than QGC for concave areas:
 * 1. the area is put in a local metric frame (see local.ts: affine in degrees, so inside/outside answers
 *    match turf exactly);
 * 2. sweep lines run in the grid direction `angle` (degrees clockwise from north: 0 = lines run
 *    north-south, 90 = east-west), `lineSpacing` apart, centred across the area (no line is farther than
 *    half a spacing from the area's edge);
 * 3. each sweep line is cut against the polygon (even-odd, scanline with an active-edge table) and EVERY
 *    inside stretch is its own transect, so a line never spans a gap of a concave area;
 * 4. transects are grouped into cells (runs of stretches on consecutive lines that overlap one to one,
 *    e.g. the two arms and the base of a U) and each cell is flown as a lawnmower (alternate directions);
 *    cells are chained nearest-first, the first one entered at the corner nearest the start point (or at
 *    the first line's start when none is given);
 * 5. with a turn-around distance each transect gets a run-in before its entry and a run-out after its exit
 *    along the line (these may leave the area: that is their purpose).
 * Photos: one at the entry and one every trigger distance along each transect.
 *
 * Areas to keep out of (`avoid`: rings of no-fly zones, circles as nofly.ts noFlyRing, restricted map
 * zones) are holes of the area, also where they reach out of it:
 * 6. each hole grows by the clearance (avoid.ts AVOID_CLEARANCE_M, 5 m): the hole itself (even-odd, as in
 *    step 3) and, around every edge, the points within the clearance of it (a rectangle along the edge and a
 *    disc at its corner), so the grown hole is exactly the points inside or within the clearance of the
 *    hole. Step 3 then keeps of each line what lies in the area and in no grown hole: every stretch is its
 *    own transect, ending the clearance away from the hole; cells (step 4) form over these stretches, so an
 *    area cut in two by a hole is covered on both sides;
 * 7. run-ins and run-outs (step 5) stop before the grown hole on their line (shortened; left out when under
 *    MIN_RUN_M);
 * 8. every leg between transects (a turn, or a hop between cells) that comes nearer to a hole than half
 *    the clearance gets detour waypoints (role 'transit') on the shortest way around the holes (avoid.ts
 *    detourPath), through narrow passages with less clearance; a transect no way reaches is left out
 *    (`unreached`). Detours can leave the area; given `within` (the fence) they, and every other leg
 *    between transects, keep inside it; where ways exist only out of it the leg stays straight, and route
 *    validation refuses it naming the zone it crosses (such an area must be surveyed in parts).
 * Coverage: a point of the area farther than half a line spacing from its edge and farther than half a
 * spacing plus the clearance from every hole lies within half a spacing of a transect (its nearest line
 * meets neither the edge nor a grown hole there).
 */

export interface SweepOptions {
  /** Distance between lines (m), > 0. */
  lineSpacing: number;
  /** Grid direction, degrees clockwise from north (default 0). */
  angle?: number;
  /** Where the aircraft comes from: the first transect starts at the corner nearest to it. */
  start?: LatLng;
  /** Rings to keep out of (steps 6-8), WGS84 open rings; rings under 3 points or invalid are ignored. */
  avoid?: readonly (readonly LatLng[])[];
  /** Distance kept from the avoided rings (m, default AVOID_CLEARANCE_M). */
  clearance?: number;
}

/** Shortest run-in or run-out kept when a hole shortens it (m): less is no turn at all. */
export const MIN_RUN_M = 1;
/** Stretches shorter than this (m) between a hole and the edge are not flown (they would be one point). */
const MIN_STRETCH_M = 0.05;

/** Refuse grids with more sweep lines than this (a wrong unit, not a survey). */
export const MAX_SWEEP_LINES = 200_000;

interface Segment {
  line: number;
  t0: number;
  t1: number;
  /** Free room along the line before t0 and after t1 up to the nearest grown hole (m; Infinity: none). */
  roomBefore?: number;
  roomAfter?: number;
}

/** Inside stretches [t0, t1] of each sweep line s = sValues[k] (scanline over an active-edge table). */
function cutLines(ring: readonly { s: number; t: number }[], sValues: readonly number[]): Segment[][] {
  const n = ring.length;
  const edges = Array.from({ length: n }, (_, i) => {
    const a = ring[i]!;
    const b = ring[(i + 1) % n]!;
    return { sMin: Math.min(a.s, b.s), sMax: Math.max(a.s, b.s), a, b };
  })
    .filter((e) => e.sMax > e.sMin)
    .sort((x, y) => x.sMin - y.sMin);
  const out: Segment[][] = [];
  let next = 0;
  let active: typeof edges = [];
  const ts: number[] = [];
  for (let k = 0; k < sValues.length; k++) {
    const s = sValues[k]!;
    while (next < edges.length && edges[next]!.sMin <= s) active.push(edges[next++]!);
    active = active.filter((e) => e.sMax > s);
    ts.length = 0;
    for (const { a, b } of active) {
      // Half-open rule (a.s <= s < b.s or the reverse): a line through a vertex counts it once.
      if (a.s <= s !== b.s <= s) ts.push(a.t + ((s - a.s) / (b.s - a.s)) * (b.t - a.t));
    }
    ts.sort((x, y) => x - y);
    const segs: Segment[] = [];
    for (let i = 0; i + 1 < ts.length; i += 2) if (ts[i + 1]! - ts[i]! > 1e-6) segs.push({ line: k, t0: ts[i]!, t1: ts[i + 1]! });
    out.push(segs);
  }
  return out;
}

type ST = { s: number; t: number };

/** The stretch [tMin, tMax] of the line s = s0 inside a convex polygon, or null when the line misses it. */
function convexLineStretch(poly: readonly ST[], s0: number): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i]!;
    const q = poly[(i + 1) % poly.length]!;
    if ((p.s - s0) * (q.s - s0) > 0) continue;
    if (p.s === q.s) {
      lo = Math.min(lo, p.t, q.t);
      hi = Math.max(hi, p.t, q.t);
    } else {
      const t = p.t + ((s0 - p.s) / (q.s - p.s)) * (q.t - p.t);
      lo = Math.min(lo, t);
      hi = Math.max(hi, t);
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * The stretch of the line s = s0 within `c` of the edge ab (step 6): the edge's rectangle (the edge moved
 * c to either side) and the disc of radius c at a, a convex set whose pieces' stretches span its own.
 * The disc at b is the next edge's.
 */
function edgeBandStretch(a: ST, b: ST, c: number, s0: number): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  const ds = s0 - a.s;
  if (Math.abs(ds) <= c) {
    const w = Math.sqrt(c * c - ds * ds);
    lo = a.t - w;
    hi = a.t + w;
  }
  const len = Math.hypot(b.s - a.s, b.t - a.t);
  if (len > 0) {
    const ns = (-(b.t - a.t) / len) * c;
    const nt = ((b.s - a.s) / len) * c;
    const rect = [
      { s: a.s + ns, t: a.t + nt },
      { s: b.s + ns, t: b.t + nt },
      { s: b.s - ns, t: b.t - nt },
      { s: a.s - ns, t: a.t - nt },
    ];
    const r = convexLineStretch(rect, s0);
    if (r) {
      lo = Math.min(lo, r[0]);
      hi = Math.max(hi, r[1]);
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/** Sorted, merged stretches. */
function mergeStretches(list: [number, number][]): [number, number][] {
  list.sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of list) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/**
 * Step 6: the area's stretches of each line less the grown holes, each kept piece with its free room
 * along the line on both sides.
 */
function cutHoles(lines: Segment[][], holes: readonly (readonly ST[])[], sValues: readonly number[], c: number): Segment[][] {
  const blocked = sValues.map(() => [] as [number, number][]);
  const s0 = sValues[0]!;
  const step = sValues.length > 1 ? sValues[1]! - s0 : 1;
  for (const hole of holes) {
    cutLines(hole, sValues).forEach((segs, k) => segs.forEach((g) => blocked[k]!.push([g.t0, g.t1])));
    for (let i = 0; i < hole.length; i++) {
      const a = hole[i]!;
      const b = hole[(i + 1) % hole.length]!;
      const from = Math.max(0, Math.ceil((Math.min(a.s, b.s) - c - s0) / step - 1e-9));
      const to = Math.min(sValues.length - 1, Math.floor((Math.max(a.s, b.s) + c - s0) / step + 1e-9));
      for (let k = from; k <= to; k++) {
        const band = edgeBandStretch(a, b, c, sValues[k]!);
        if (band) blocked[k]!.push(band);
      }
    }
  }
  return lines.map((segs, k) => {
    const holesHere = mergeStretches(blocked[k]!);
    if (holesHere.length === 0) return segs;
    const out: Segment[] = [];
    for (const seg of segs) {
      let t = seg.t0;
      for (const [h0, h1] of holesHere) {
        if (h1 <= t) continue;
        if (h0 >= seg.t1) break;
        if (h0 - t > MIN_STRETCH_M) out.push({ line: k, t0: t, t1: h0 });
        t = Math.max(t, h1);
      }
      if (seg.t1 - t > MIN_STRETCH_M) out.push({ line: k, t0: t, t1: seg.t1 });
    }
    for (const seg of out) {
      const before = holesHere.filter(([, h1]) => h1 <= seg.t0 + 1e-9).map(([, h1]) => seg.t0 - h1);
      const after = holesHere.filter(([h0]) => h0 >= seg.t1 - 1e-9).map(([h0]) => h0 - seg.t1);
      seg.roomBefore = Math.max(0, Math.min(Infinity, ...before));
      seg.roomAfter = Math.max(0, Math.min(Infinity, ...after));
    }
    return out;
  });
}

/** Runs of stretches on consecutive lines that overlap one to one. */
function buildCells(lines: readonly Segment[][]): Segment[][] {
  const cells: Segment[][] = [];
  let prevCells: number[] = [];
  let prev: Segment[] = [];
  for (const segs of lines) {
    const upCount = new Array<number>(segs.length).fill(0);
    const downCount = new Array<number>(prev.length).fill(0);
    const link = new Array<number>(segs.length).fill(-1);
    let j = 0;
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!;
      while (j < prev.length && prev[j]!.t1 <= s.t0) j++;
      for (let m = j; m < prev.length && prev[m]!.t0 < s.t1; m++) {
        upCount[i]!++;
        downCount[m]!++;
        link[i] = m;
      }
    }
    const cellsHere: number[] = [];
    for (let i = 0; i < segs.length; i++) {
      const m = link[i]!;
      if (upCount[i] === 1 && downCount[m] === 1) {
        const c = prevCells[m]!;
        cells[c]!.push(segs[i]!);
        cellsHere.push(c);
      } else {
        cells.push([segs[i]!]);
        cellsHere.push(cells.length - 1);
      }
    }
    prev = segs;
    prevCells = cellsHere;
  }
  return cells;
}

/** Transects over the area in flight order, each [entry, exit]; spacing, angle and holes as given. */
export function sweepTransects(polygon: readonly LatLng[], opts: SweepOptions): LatLng[][] {
  return sweep(polygon, opts).transects;
}

const clearanceOf = (opts: Pick<SweepOptions, 'clearance'>): number => {
  const c = opts.clearance ?? AVOID_CLEARANCE_M;
  if (!(Number.isFinite(c) && c > 0)) throw new RangeError('clearance must be a positive number of metres');
  return c;
};

/** The usable rings of `avoid`. */
const avoidRings = (avoid: SweepOptions['avoid']): LatLng[][] =>
  (avoid ?? []).filter((r) => r.every(isValidLatLng)).map(normalizeRing).filter((r) => r.length >= 3);

/** Steps 1-4 and 6: transects in flight order with the free room before the entry and after the exit. */
function sweep(polygon: readonly LatLng[], opts: SweepOptions): { transects: LatLng[][]; room: { before: number; after: number }[] } {
  const ring = normalizeRing(polygon);
  if (!(opts.lineSpacing > 0) || !Number.isFinite(opts.lineSpacing)) throw new RangeError('line spacing must be a positive number of metres');
  const clearance = clearanceOf(opts);
  if (ring.length < 3) return { transects: [], room: [] };
  const frame = localFrame(meanPoint(ring));
  const a = toRad(opts.angle ?? 0);
  const d: XY = { x: Math.sin(a), y: Math.cos(a) }; // along the lines
  const nrm: XY = { x: Math.cos(a), y: -Math.sin(a) }; // across them
  const toST = (p: LatLng): ST => {
    const q = frame.toXY(p);
    return { s: q.x * nrm.x + q.y * nrm.y, t: q.x * d.x + q.y * d.y };
  };
  const st = ring.map(toST);
  let sMin = Infinity;
  let sMax = -Infinity;
  for (const p of st) {
    sMin = Math.min(sMin, p.s);
    sMax = Math.max(sMax, p.s);
  }
  const width = sMax - sMin;
  const count = Math.max(1, Math.ceil(width / opts.lineSpacing - 1e-9));
  if (count > MAX_SWEEP_LINES) throw new RangeError(`survey needs ${count} lines; at most ${MAX_SWEEP_LINES}`);
  const first = sMin + (width - (count - 1) * opts.lineSpacing) / 2;
  const sValues = Array.from({ length: count }, (_, k) => first + k * opts.lineSpacing);
  const holes = avoidRings(opts.avoid).map((r) => r.map(toST));
  const stretches = cutLines(st, sValues);
  const cells = buildCells(holes.length > 0 ? cutHoles(stretches, holes, sValues, clearance) : stretches).filter((c) => c.length > 0);
  if (cells.length === 0) return { transects: [], room: [] };

  const toLatLng = (s: number, t: number): LatLng => frame.toLatLng({ x: s * nrm.x + t * d.x, y: s * nrm.y + t * d.y });
  const sOf = (seg: Segment) => sValues[seg.line]!;
  const end = (seg: Segment, side: number) => (side === 0 ? seg.t0 : seg.t1);
  type Option = { cell: number; reverse: boolean; side: number; entry: XY; exit: XY };
  const xyOf = (s: number, t: number): XY => ({ x: s * nrm.x + t * d.x, y: s * nrm.y + t * d.y });
  const options = (c: number): Option[] => {
    const cell = cells[c]!;
    const out: Option[] = [];
    for (const reverse of [false, true])
      for (const side of [0, 1]) {
        const firstSeg = reverse ? cell[cell.length - 1]! : cell[0]!;
        const lastSeg = reverse ? cell[0]! : cell[cell.length - 1]!;
        const exitSide = (side + cell.length) % 2; // alternate each line; exit is the far end of the last
        out.push({ cell: c, reverse, side, entry: xyOf(sOf(firstSeg), end(firstSeg, side)), exit: xyOf(sOf(lastSeg), end(lastSeg, exitSide)) });
      }
    return out;
  };
  const dist = (p: XY, q: XY) => Math.hypot(p.x - q.x, p.y - q.y);

  const remaining = new Set(cells.map((_, i) => i));
  const order: Option[] = [];
  let here: XY | null = opts.start ? frame.toXY(opts.start) : null;
  while (remaining.size > 0) {
    let best: Option | null = null;
    let bestD = Infinity;
    if (here === null) {
      best = options(0)[0]!; // first line's first stretch, from its start
    } else {
      for (const c of remaining)
        for (const o of options(c)) {
          const dd = dist(here, o.entry);
          if (dd < bestD) {
            bestD = dd;
            best = o;
          }
        }
    }
    order.push(best!);
    remaining.delete(best!.cell);
    here = best!.exit;
  }

  const transects: LatLng[][] = [];
  const room: { before: number; after: number }[] = [];
  for (const o of order) {
    const cell = o.reverse ? [...cells[o.cell]!].reverse() : cells[o.cell]!;
    cell.forEach((seg, i) => {
      const side = (o.side + i) % 2;
      transects.push([toLatLng(sOf(seg), end(seg, side)), toLatLng(sOf(seg), end(seg, 1 - side))]);
      const low = seg.roomBefore ?? Infinity;
      const high = seg.roomAfter ?? Infinity;
      room.push(side === 0 ? { before: low, after: high } : { before: high, after: low });
    });
  }
  return { transects, room };
}

/** Run-in / run-out points: `distance` metres before a and beyond b along the line ab. */
function extendTransect(a: LatLng, b: LatLng, distance: number): [LatLng, LatLng] {
  const frame = localFrame(a);
  const pb = frame.toXY(b);
  const len = Math.hypot(pb.x, pb.y);
  if (len === 0) return [a, b];
  const ux = pb.x / len;
  const uy = pb.y / len;
  return [frame.toLatLng({ x: -ux * distance, y: -uy * distance }), frame.toLatLng({ x: pb.x + ux * distance, y: pb.y + uy * distance })];
}

/** Photos along a transect: one at the entry and one every trigger distance. */
export const transectPhotoCount = (lengthM: number, triggerDistance: number): number => Math.floor(lengthM / triggerDistance + 1e-9) + 1;

export interface SurveyParams {
  camera: SurveyCamera;
  /** PhotoType: 1 infrared, 2 visible (default), 3 both. */
  photoType?: number;
  /** Flight height above the ground (m); or give `gsd`. */
  height?: number;
  /** Wanted GSD (cm/px) of the GSD sensor (see gsdSensor), used when `height` is not given. */
  gsd?: number;
  /** Course (front) overlap, percent 0-99. */
  frontOverlap: number;
  /** Lateral (side) overlap, percent 0-99. */
  sideOverlap: number;
  angle?: number;
  /** Run-in and run-out beyond each transect (m, default 0). */
  turnDistance?: number;
  start?: LatLng;
  /** Rings to keep out of (no-fly and restricted zones; nofly.ts surveyAvoidRings): steps 6-8. */
  avoid?: readonly (readonly LatLng[])[];
  /** Distance kept from them (m, default AVOID_CLEARANCE_M). */
  clearance?: number;
  /**
   * The ring the legs between transects stay inside (the route's fence, WGS84 open ring): such a leg
   * leaving it is routed inside, round its reflex corners and the avoided areas; where no way inside
   * exists, the leg stays straight (step 8).
   */
  within?: readonly LatLng[];
}

/**
 * What a waypoint of a survey is: run-in, transect entry (photos start), exit (photos stop), run-out, or a
 * transit point of a detour around an avoided area (step 8).
 */
export type SurveyPointRole = 'run_in' | 'entry' | 'exit' | 'run_out' | 'transit';

export interface SurveyGrid {
  /** Transects in flight order and direction, each [entry, exit], all inside the area. */
  transects: LatLng[][];
  /**
   * The path: per transect [run-in, entry, exit, run-out] with a turn distance, else [entry, exit]; with
   * avoided areas a run shortened under MIN_RUN_M is left out and detours add transit points between.
   */
  waypoints: LatLng[];
  roles: SurveyPointRole[];
  photoCount: number;
  /** Distance between photos along a transect (m). */
  triggerDistance: number;
  /** Distance between transects (m). */
  lineSpacing: number;
  /** GSD (cm/px) of the GSD sensor at `height`. */
  gsd: number;
  /** Flight height above the ground (m). */
  height: number;
  footprint: { side: number; front: number };
  /** Length of the path through the waypoints (m). */
  length: number;
  /** Area of the polygon (m²). */
  area: number;
  /**
   * Transects left out because no way reaches them without crossing an avoided area (a pocket shut in by
   * zones, step 8); absent when none. Not in `transects`, the waypoints or the photo count.
   */
  unreached?: LatLng[][];
}

const checkPercent = (v: number, name: string) => {
  if (!(Number.isFinite(v) && v >= 0 && v < 100)) throw new RangeError(`${name} must be 0 to 99 percent`);
};

/** What the camera settings give a grid (survey or corridor): the numbers both grids report alike. */
export interface GridImaging {
  photoType: number;
  /** Flight height above the ground (m). */
  height: number;
  /** Run-in and run-out (m). */
  turn: number;
  footprint: { side: number; front: number };
  /** Distance between lines (m). */
  lineSpacing: number;
  /** Distance between photos along a line (m). */
  triggerDistance: number;
  /** GSD (cm/px) of the GSD sensor at `height`. */
  gsd: number;
}

/**
 * Height (given, or from the wanted GSD), overlaps and turn distance checked, then the governing footprint,
 * line spacing and trigger distance (camera.ts). `subject` names the grid in the height error. Throws
 * RangeError for impossible parameters.
 */
export function gridImaging(params: Omit<SurveyParams, 'angle'>, subject: 'survey' | 'corridor'): GridImaging {
  const photoType = params.photoType ?? 2;
  const sensor = gsdSensor(params.camera, photoType);
  const height = params.height ?? (params.gsd !== undefined ? heightFromGsd(sensor, params.gsd) : NaN);
  if (!(Number.isFinite(height) && height > 0)) throw new RangeError(`${subject} height (or GSD) must be a positive number`);
  checkPercent(params.frontOverlap, 'front overlap');
  checkPercent(params.sideOverlap, 'side overlap');
  const turn = params.turnDistance ?? 0;
  if (!(Number.isFinite(turn) && turn >= 0)) throw new RangeError('turn distance must be 0 or more metres');
  const footprint = governingFootprint(params.camera, photoType, height);
  return {
    photoType,
    height,
    turn,
    footprint,
    lineSpacing: lineSpacingFor(footprint.side, params.sideOverlap),
    triggerDistance: triggerDistanceFor(footprint.front, params.frontOverlap),
    gsd: gsdFromHeight(sensor, height),
  };
}

/** A survey grid over a polygon (open ring, WGS84); throws RangeError for impossible parameters. */
export function surveyGrid(polygon: readonly LatLng[], params: SurveyParams): SurveyGrid {
  const imaging = gridImaging(params, 'survey');
  const { turn, lineSpacing, triggerDistance } = imaging;
  const { transects, room } = sweep(polygon, {
    lineSpacing,
    ...(params.angle !== undefined ? { angle: params.angle } : {}),
    ...(params.start ? { start: params.start } : {}),
    ...(params.avoid ? { avoid: params.avoid } : {}),
    ...(params.clearance !== undefined ? { clearance: params.clearance } : {}),
  });
  // One block per transect: its run-in, entry, exit and run-out (step 7: runs stop short of a grown hole,
  // and a run so shortened is left out under MIN_RUN_M).
  const kept = (run: number) => run > 0 && (run === turn || run >= MIN_RUN_M);
  let blocks: FlightBlock[] = (transects as [LatLng, LatLng][]).map(([a, b], i) => {
    const runIn = Math.min(turn, room[i]!.before);
    const runOut = Math.min(turn, room[i]!.after);
    const block: FlightBlock = { transect: [a, b], points: [], roles: [] };
    if (kept(runIn)) {
      block.points.push(extendTransect(a, b, runIn)[0]);
      block.roles.push('run_in');
    }
    block.points.push(a, b);
    block.roles.push('entry', 'exit');
    if (kept(runOut)) {
      block.points.push(extendTransect(a, b, runOut)[1]);
      block.roles.push('run_out');
    }
    return block;
  });
  const rings = avoidRings(params.avoid);
  let unreached: LatLng[][] = [];
  if (rings.length > 0 || params.within) ({ blocks, unreached } = detourAround(polygon, blocks, rings, clearanceOf(params), params.within));
  const waypoints = blocks.flatMap((b) => b.points);
  const roles = blocks.flatMap((b) => b.roles);
  const flown = blocks.map((b) => b.transect);
  const photoCount = flown.reduce((n, [a, b]) => n + transectPhotoCount(haversineDistance(a, b), triggerDistance), 0);
  return {
    transects: flown,
    waypoints,
    roles,
    photoCount,
    triggerDistance,
    lineSpacing,
    gsd: imaging.gsd,
    height: imaging.height,
    footprint: imaging.footprint,
    length: pathLength(waypoints),
    area: ringArea(polygon),
    ...(unreached.length > 0 ? { unreached } : {}),
  };
}

/** A transect as flown: its points (detour points before it, run-in, entry, exit, run-out) and their roles. */
interface FlightBlock {
  transect: [LatLng, LatLng];
  points: LatLng[];
  roles: SurveyPointRole[];
}

/**
 * Step 8: detour waypoints ('transit') before every transect whose way from the previous one comes nearer
 * to an avoided ring than half the clearance (avoid.ts detourPath; transects and runs keep the full
 * clearance by construction, steps 6 and 7). A transect no way reaches (a pocket closed by avoided areas)
 * is left out; when it is the route so far that sits in such a pocket (it cannot get out to anything
 * else), that part is left out instead.
 */
function detourAround(
  polygon: readonly LatLng[],
  blocks: readonly FlightBlock[],
  rings: readonly LatLng[][],
  clearance: number,
  withinRing?: readonly LatLng[],
): { blocks: FlightBlock[]; unreached: LatLng[][] } {
  const frame = localFrame(meanPoint(normalizeRing(polygon)));
  const obstacles = rings.map((r) => obstacleOf(r, frame)).filter((o): o is Obstacle => o !== null);
  const within = withinRing ? withinOf(withinRing, frame) : null;
  // A point outside every obstacle, beyond their boxes: what an open (not shut in) point can reach. Only
  // asked when a way is missing, which needs an obstacle.
  const far = () => ({
    x: Math.max(...obstacles.map((o) => o.box.maxX)) + 10 * clearance,
    y: Math.max(...obstacles.map((o) => o.box.maxY)) + 10 * clearance,
  });
  const out: FlightBlock[] = [];
  const unreached: LatLng[][] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (!last) {
      out.push(block);
      continue;
    }
    const from = frame.toXY(last.points[last.points.length - 1]!);
    const to = frame.toXY(block.points[0]!);
    const way = detourPath(from, to, obstacles, clearance, within);
    if (way) {
      out.push({ ...block, points: [...way.map((v) => frame.toLatLng(v)), ...block.points], roles: [...way.map((): SurveyPointRole => 'transit'), ...block.roles] });
    } else if (within && detourPath(from, to, obstacles, clearance) !== null) {
      // Ways exist, but only out of the fence: the straight leg stays, and route validation refuses it
      // naming the zone it crosses (the area must be split), rather than a way round far out of the fence.
      out.push(block);
    } else if (detourPath(from, far(), obstacles, clearance) === null && detourPath(to, far(), obstacles, clearance) !== null) {
      // The route so far is shut in and this transect is not: start again from here.
      unreached.push(...out.map((b) => b.transect));
      out.length = 0;
      out.push(block);
    } else {
      unreached.push(block.transect);
    }
  }
  return { blocks: out, unreached };
}

/**
 * A survey grid from a task's settings (MissionSettings): camera_type and the custom camera fields,
 * photo_type, default_height (flight height above ground), course_overlap, lateral_overlap, angle,
 * turn_distance; `avoid`: rings to keep out of (nofly.ts surveyAvoidRings); `within`: the ring legs between
 * transects stay in where they can (the fence). A custom camera with missing fields answers its issues
 * instead.
 */
export function surveyFromSettings(
  polygon: readonly LatLng[],
  settings: Pick<
    MissionSettings,
    'camera_type' | 'photo_type' | 'default_height' | 'course_overlap' | 'lateral_overlap' | 'angle' | 'turn_distance'
  > &
    Partial<Pick<MissionSettings, 'sensor_width' | 'sensor_height' | 'image_width' | 'image_height' | 'focal_length'>>,
  start?: LatLng,
  avoid?: readonly (readonly LatLng[])[],
  within?: readonly LatLng[],
): { grid: SurveyGrid; issues: [] } | { grid: null; issues: Issue[] } {
  const camera = cameraFromSettings(settings);
  if (!camera) return { grid: null, issues: customCameraIssues(settings) };
  const grid = surveyGrid(polygon, {
    camera,
    photoType: settings.photo_type,
    height: settings.default_height,
    frontOverlap: settings.course_overlap,
    sideOverlap: settings.lateral_overlap,
    angle: settings.angle,
    turnDistance: settings.turn_distance,
    ...(start ? { start } : {}),
    ...(avoid ? { avoid } : {}),
    ...(within ? { within } : {}),
  });
  return { grid, issues: [] };
}

export interface SurveyWaypointOptions {
  /** Height above the ground (m), normally the grid's height. */
  height: number;
  /** HeightType of the route: 0 relative to take-off, 1 altitude above sea level. */
  heightType: number;
  /** Speed set at the first waypoint (m/s). */
  speed?: number;
  /**
   * Terrain to follow (the task's `elevation` flag). Without it heights are `height` everywhere (relative)
   * or `height` above a flat ground at 0 m (altitude), and the answer carries flatTerrain's note.
   */
  terrain?: TerrainProvider;
  /** Take-off point for relative heights over terrain (default: the first waypoint). */
  takeoff?: LatLng;
  /** Terrain is sampled along every leg this often (m, default 25). */
  sampleSpacingM?: number;
  /**
   * Height tolerance (m, default 1) when following terrain: between samples, points are kept only where
   * dropping them would put the flown height off the wanted height above ground by more than this. The
   * task's `interval_height` is this tolerance when above 0.
   */
  toleranceM?: number;
}

/** Keep the profile points needed to stay within `tol` of every sample (Douglas-Peucker on height). */
function simplifyProfile(dist: readonly number[], h: readonly number[], tol: number): boolean[] {
  const keep = dist.map((_, i) => i === 0 || i === dist.length - 1);
  const stack: [number, number][] = [[0, dist.length - 1]];
  while (stack.length > 0) {
    const [i, j] = stack.pop()!;
    let worst = -1;
    let worstErr = tol;
    for (let k = i + 1; k < j; k++) {
      const f = (dist[k]! - dist[i]!) / (dist[j]! - dist[i]! || 1);
      const err = Math.abs(h[k]! - (h[i]! + f * (h[j]! - h[i]!)));
      if (err > worstErr) {
        worstErr = err;
        worst = k;
      }
    }
    if (worst >= 0) {
      keep[worst] = true;
      stack.push([i, worst], [worst, j]);
    }
  }
  return keep;
}

/**
 * Task waypoints for a grid: photos every trigger distance from each entry (cam_trig_dist), stopped at
 * each exit (0). With terrain, every leg is sampled and heights keep `height` above the ground
 * (terrainFollowingHeights), keeping the intermediate points the tolerance needs. Rejects with
 * TerrainUnavailableError when elevations cannot be had: such a route must not be saved.
 */
export async function surveyWaypoints(grid: SurveyGrid, opts: SurveyWaypointOptions): Promise<{ waypoints: Waypoint[]; note?: SurveyGridNote }> {
  const pts = grid.waypoints;
  if (pts.length === 0) return { waypoints: [] };
  const provider = opts.terrain ?? flatTerrain(0);
  const spacing = opts.sampleSpacingM ?? 25;
  const tol = opts.toleranceM ?? 1;
  // Dense path: original points (flagged) and samples between them.
  const dense: { p: LatLng; original: number }[] = [];
  pts.forEach((p, i) => {
    dense.push({ p, original: i });
    const q = pts[i + 1];
    if (!q || provider.kind === 'flat') return;
    const len = haversineDistance(p, q);
    const steps = Math.floor(len / spacing);
    for (let k = 1; k <= steps; k++) {
      const f = (k * spacing) / len;
      if (f >= 1 - 1e-9) break;
      dense.push({ p: { lat: p.lat + f * (q.lat - p.lat), lng: p.lng + f * (q.lng - p.lng) }, original: -1 });
    }
  });
  const heights = await terrainFollowingHeights(
    dense.map((x) => x.p),
    opts.height,
    provider,
    opts.heightType,
    opts.takeoff,
  );
  // Simplify each leg's samples.
  const keep = dense.map((x) => x.original >= 0);
  let startIdx = 0;
  for (let i = 1; i < dense.length; i++) {
    if (dense[i]!.original < 0) continue;
    if (i - startIdx > 1) {
      const idx = Array.from({ length: i - startIdx + 1 }, (_, k) => startIdx + k);
      const dist = idx.map((k) => haversineDistance(dense[startIdx]!.p, dense[k]!.p));
      const kept = simplifyProfile(dist, idx.map((k) => heights[k]!), tol);
      kept.forEach((kk, m) => {
        if (kk) keep[idx[m]!] = true;
      });
    }
    startIdx = i;
  }
  const waypoints: Waypoint[] = [];
  dense.forEach((x, i) => {
    if (!keep[i]) return;
    const w: Waypoint = { lat: x.p.lat, lng: x.p.lng, height: Math.round(heights[i]! * 100) / 100 };
    const role = x.original >= 0 ? grid.roles[x.original] : undefined;
    if (role === 'entry') w.cam_trig_dist = Math.round(grid.triggerDistance * 100) / 100;
    if (role === 'exit') w.cam_trig_dist = 0;
    if (waypoints.length === 0 && opts.speed !== undefined) w.speed = opts.speed;
    waypoints.push(w);
  });
  return provider.note ? { waypoints, note: provider.note } : { waypoints };
}

export type SurveyGridNote = NonNullable<TerrainProvider['note']>;

/**
 * Waypoint options from a task's settings: default_height above the ground, height_type, auto_speed at
 * the first waypoint; with the `elevation` flag the terrain is followed (flatTerrain, with its note, when
 * no provider is at hand) and `interval_height` (> 0) is the height tolerance.
 */
export function surveyWaypointOptions(
  settings: Pick<MissionSettings, 'default_height' | 'height_type' | 'auto_speed' | 'elevation' | 'interval_height'>,
  terrain?: TerrainProvider,
  takeoff?: LatLng,
): SurveyWaypointOptions {
  return {
    height: settings.default_height,
    heightType: settings.height_type,
    speed: settings.auto_speed,
    ...(settings.elevation ? { terrain: terrain ?? flatTerrain(0) } : {}),
    ...(settings.interval_height > 0 ? { toleranceM: settings.interval_height } : {}),
    ...(takeoff ? { takeoff } : {}),
  };
}
