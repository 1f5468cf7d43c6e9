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
import { haversineDistance, pathLength, toRad, type LatLng } from './coords.js';
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
 */

export interface SweepOptions {
  /** Distance between lines (m), > 0. */
  lineSpacing: number;
  /** Grid direction, degrees clockwise from north (default 0). */
  angle?: number;
  /** Where the aircraft comes from: the first transect starts at the corner nearest to it. */
  start?: LatLng;
}

/** Refuse grids with more sweep lines than this (a wrong unit, not a survey). */
export const MAX_SWEEP_LINES = 200_000;

interface Segment {
  line: number;
  t0: number;
  t1: number;
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

/** Transects over the area in flight order, each [entry, exit]; spacing and angle as given. */
export function sweepTransects(polygon: readonly LatLng[], opts: SweepOptions): LatLng[][] {
  const ring = normalizeRing(polygon);
  if (!(opts.lineSpacing > 0) || !Number.isFinite(opts.lineSpacing)) throw new RangeError('line spacing must be a positive number of metres');
  if (ring.length < 3) return [];
  const frame = localFrame(meanPoint(ring));
  const a = toRad(opts.angle ?? 0);
  const d: XY = { x: Math.sin(a), y: Math.cos(a) }; // along the lines
  const nrm: XY = { x: Math.cos(a), y: -Math.sin(a) }; // across them
  const st = ring.map((p) => {
    const q = frame.toXY(p);
    return { s: q.x * nrm.x + q.y * nrm.y, t: q.x * d.x + q.y * d.y };
  });
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
  const cells = buildCells(cutLines(st, sValues));

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
  for (const o of order) {
    const cell = o.reverse ? [...cells[o.cell]!].reverse() : cells[o.cell]!;
    cell.forEach((seg, i) => {
      const side = (o.side + i) % 2;
      transects.push([toLatLng(sOf(seg), end(seg, side)), toLatLng(sOf(seg), end(seg, 1 - side))]);
    });
  }
  return transects;
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
}

/** What a waypoint of a survey is: run-in, transect entry (photos start), exit (photos stop), run-out. */
export type SurveyPointRole = 'run_in' | 'entry' | 'exit' | 'run_out';

export interface SurveyGrid {
  /** Transects in flight order and direction, each [entry, exit], all inside the area. */
  transects: LatLng[][];
  /** The path: per transect [run-in, entry, exit, run-out] with a turn distance, else [entry, exit]. */
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
}

const checkPercent = (v: number, name: string) => {
  if (!(Number.isFinite(v) && v >= 0 && v < 100)) throw new RangeError(`${name} must be 0 to 99 percent`);
};

/** A survey grid over a polygon (open ring, WGS84); throws RangeError for impossible parameters. */
export function surveyGrid(polygon: readonly LatLng[], params: SurveyParams): SurveyGrid {
  const photoType = params.photoType ?? 2;
  const height = params.height ?? (params.gsd !== undefined ? heightFromGsd(gsdSensor(params.camera, photoType), params.gsd) : NaN);
  if (!(Number.isFinite(height) && height > 0)) throw new RangeError('survey height (or GSD) must be a positive number');
  checkPercent(params.frontOverlap, 'front overlap');
  checkPercent(params.sideOverlap, 'side overlap');
  const turn = params.turnDistance ?? 0;
  if (!(Number.isFinite(turn) && turn >= 0)) throw new RangeError('turn distance must be 0 or more metres');
  const print = governingFootprint(params.camera, photoType, height);
  const lineSpacing = lineSpacingFor(print.side, params.sideOverlap);
  const triggerDistance = triggerDistanceFor(print.front, params.frontOverlap);
  const transects = sweepTransects(polygon, { lineSpacing, ...(params.angle !== undefined ? { angle: params.angle } : {}), ...(params.start ? { start: params.start } : {}) });
  const waypoints: LatLng[] = [];
  const roles: SurveyPointRole[] = [];
  let photoCount = 0;
  for (const [a, b] of transects as [LatLng, LatLng][]) {
    photoCount += transectPhotoCount(haversineDistance(a, b), triggerDistance);
    if (turn > 0) {
      const [runIn, runOut] = extendTransect(a, b, turn);
      waypoints.push(runIn, a, b, runOut);
      roles.push('run_in', 'entry', 'exit', 'run_out');
    } else {
      waypoints.push(a, b);
      roles.push('entry', 'exit');
    }
  }
  return {
    transects,
    waypoints,
    roles,
    photoCount,
    triggerDistance,
    lineSpacing,
    gsd: gsdFromHeight(gsdSensor(params.camera, photoType), height),
    height,
    footprint: print,
    length: pathLength(waypoints),
    area: ringArea(polygon),
  };
}

/**
 * A survey grid from a task's settings (MissionSettings): camera_type and the custom camera fields,
 * photo_type, default_height (flight height above ground), course_overlap, lateral_overlap, angle,
 * turn_distance. A custom camera with missing fields answers its issues instead.
 */
export function surveyFromSettings(
  polygon: readonly LatLng[],
  settings: Pick<
    MissionSettings,
    'camera_type' | 'photo_type' | 'default_height' | 'course_overlap' | 'lateral_overlap' | 'angle' | 'turn_distance'
  > &
    Partial<Pick<MissionSettings, 'sensor_width' | 'sensor_height' | 'image_width' | 'image_height' | 'focal_length'>>,
  start?: LatLng,
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
