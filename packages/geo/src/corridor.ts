import { CORRIDOR_WIDTH_MAX_M, type MissionSettings } from '@nest/contracts';
import { cameraFromSettings, customCameraIssues } from './camera.js';
import { haversineDistance, isValidLatLng, pathLength, type LatLng } from './coords.js';
import type { Issue } from './issues.js';
import { localFrame, meanPoint, type XY } from './local.js';
import { pointSegmentDistance, segmentHits } from './polygon.js';
import { gridImaging, transectPhotoCount, type SurveyGrid, type SurveyParams, type SurveyPointRole } from './survey.js';

/**
 * Corridor (strip) scans along a centre line (MissionType 3 STRIP): the band `width` metres wide around
 * the line, square at its two ends, covered by lines parallel to the centre line, step by step:
 * 1. the centre line is put in a local metric frame (local.ts) and repeated points are dropped;
 * 2. the number of lines is n = ceil(width / lineSpacing) (at least 1), at signed offsets
 *    o_k = (k - (n - 1) / 2) * lineSpacing from the centre line (positive: to its left), so the outermost
 *    lines lie at most half a spacing inside the band's edges and every point of the band is within half a
 *    spacing of a line;
 * 3. each line is the raw offset polyline: every segment of the centre line moved o_k along its left
 *    normal; at a bend, on the outer side the two moved segments are joined round the true (round)
 *    offset's arc by a mitre when its corner strays no more than JOIN_TOLERANCE (a tenth of the spacing)
 *    beyond the arc, else by a polyline of several smaller mitres, none straying more than that (their
 *    legs touch the arc, so no point of the join is nearer the centre line than the offset); on the inner
 *    side the moved segments' ends are joined straight;
 * 4. the raw polyline is cut at every point where it crosses itself (the inner side of a bend, a hairpin
 *    narrower than the band) and each piece between cuts is kept only when its middle is at least |o_k|
 *    from the centre line: pieces closer than that are the loops of the inner side, which the band's
 *    other lines cover. What is left, in order, makes one or more runs (a run breaks where a loop was
 *    removed without the two sides meeting);
 * 5. lines are flown alternately from one edge of the band to the other (the first line forward, the
 *    next backward...), starting at the edge and end nearest the take-off point (else the right edge,
 *    forward); a line's runs are flown in its direction;
 * 6. with a turn-around distance each run gets a run-in before its entry and a run-out after its exit
 *    along its first and last segments.
 * Coverage bound: every point of the band is within lineSpacing / 2 + JOIN_TOLERANCE * lineSpacing of
 * a flown line (the tolerance is the joins' discretisation of the round offset). Photos: one at each run's entry and one every trigger
 * distance along it (the camera keeps triggering through a run's bends).
 */

/** What a corridor waypoint is: a survey role, or a bend inside a run (the camera keeps triggering). */
export type CorridorPointRole = SurveyPointRole | 'bend';

/** Refuse corridors with more lines than this (a wrong unit, not a corridor). */
export const MAX_CORRIDOR_LINES = 1000;

/** How far an outer join's mitre or arc chords may stray from the true offset, as a share of the spacing. */
export const JOIN_TOLERANCE = 0.1;

export interface CorridorOptions {
  /** Width of the band (m), > 0. */
  width: number;
  /** Distance between lines (m), > 0. */
  lineSpacing: number;
  /** Where the aircraft comes from: the first line starts at the band's corner nearest to it. */
  start?: LatLng;
}

const sub = (a: XY, b: XY): XY => ({ x: a.x - b.x, y: a.y - b.y });
const add = (a: XY, b: XY): XY => ({ x: a.x + b.x, y: a.y + b.y });
const mul = (a: XY, k: number): XY => ({ x: a.x * k, y: a.y * k });
const len = (a: XY): number => Math.hypot(a.x, a.y);
const rot = (a: XY, r: number): XY => ({ x: a.x * Math.cos(r) - a.y * Math.sin(r), y: a.x * Math.sin(r) + a.y * Math.cos(r) });
const unit = (a: XY): XY => mul(a, 1 / len(a));
/** Left normal of a unit direction. */
const left = (d: XY): XY => ({ x: -d.y, y: d.x });

/** Distance from p to the polyline. */
function polylineDistance(p: XY, line: readonly XY[]): number {
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) best = Math.min(best, pointSegmentDistance(p, line[i]!, line[i + 1]!));
  return best;
}

/** Step 3: the raw offset polyline at signed offset o (positive: left) with its joins. */
function rawOffset(line: readonly XY[], o: number, tol: number): XY[] {
  if (o === 0) return [...line];
  const dirs = line.slice(1).map((q, i) => unit(sub(q, line[i]!)));
  const out: XY[] = [add(line[0]!, mul(left(dirs[0]!), o))];
  for (let i = 1; i < line.length - 1; i++) {
    const v = line[i]!;
    const d0 = dirs[i - 1]!;
    const d1 = dirs[i]!;
    const a = mul(left(d0), o);
    const b = mul(left(d1), o);
    const cross = d0.x * d1.y - d0.y * d1.x;
    const dot = d0.x * d1.x + d0.y * d1.y;
    if (Math.abs(cross) < 1e-12 && dot > 0) {
      out.push(add(v, a)); // straight on
      continue;
    }
    // Outer side: the offset side is opposite to the turn (a left turn's outer side is the right).
    const outer = cross * o < 0 || (Math.abs(cross) < 1e-12 && dot <= 0);
    if (!outer) {
      out.push(add(v, a), add(v, b));
      continue;
    }
    // The sweep from a to b passing the forward side (d0 - d1), the way the aircraft goes round.
    let sweep = Math.atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y);
    if (Math.abs(Math.abs(sweep) - Math.PI) < 1e-9) sweep = Math.PI;
    const mid = rot(a, sweep / 2);
    const fwd = sub(d0, d1);
    if (mid.x * fwd.x + mid.y * fwd.y < 0) sweep = sweep > 0 ? sweep - 2 * Math.PI : sweep + 2 * Math.PI;
    // A mitre is a polyline round the arc with one corner; more corners when one would stray too far.
    // Its legs touch the arc, so no point of it is nearer the centre line than |o|.
    const r = Math.abs(o);
    const maxStep = 2 * Math.acos(1 / (1 + tol / r));
    const steps = Math.max(1, Math.ceil(Math.abs(sweep) / maxStep - 1e-9));
    const step = sweep / steps;
    // (The arc's ends lie on the legs, in line with the moved segments: they are not points of their own.)
    for (let k = 0; k < steps; k++) out.push(add(v, mul(rot(a, step * (k + 0.5)), 1 / Math.cos(step / 2))));
  }
  out.push(add(line[line.length - 1]!, mul(left(dirs[dirs.length - 1]!), o)));
  return out;
}

/** Step 4: the raw polyline cut where it crosses itself, keeping the pieces |o| or more from the line. */
function trimOffset(raw: readonly XY[], line: readonly XY[], o: number): XY[][] {
  if (o === 0) return [[...raw]];
  const r = Math.abs(o);
  const cuts: number[][] = raw.slice(1).map(() => [0, 1]);
  for (let i = 0; i + 1 < raw.length; i++)
    for (let j = i + 2; j + 1 < raw.length; j++) {
      const ts = segmentHits(raw[i]!, raw[i + 1]!, raw[j]!, raw[j + 1]!);
      if (ts.length !== 1) continue;
      const t = ts[0]!;
      const p = add(raw[i]!, mul(sub(raw[i + 1]!, raw[i]!), t));
      const sj = sub(raw[j + 1]!, raw[j]!);
      const l2 = sj.x * sj.x + sj.y * sj.y;
      cuts[i]!.push(t);
      cuts[j]!.push(l2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - raw[j]!.x) * sj.x + (p.y - raw[j]!.y) * sj.y) / l2)));
    }
  const eps = 1e-6 * Math.max(1, r);
  const runs: XY[][] = [];
  let current: XY[] | null = null;
  for (let i = 0; i + 1 < raw.length; i++) {
    const a = raw[i]!;
    const d = sub(raw[i + 1]!, a);
    const ts = [...new Set(cuts[i]!)].sort((x, y) => x - y);
    for (let k = 0; k + 1 < ts.length; k++) {
      const p = add(a, mul(d, ts[k]!));
      const q = add(a, mul(d, ts[k + 1]!));
      if (len(sub(q, p)) < 1e-9) continue;
      const keep = polylineDistance(mul(add(p, q), 0.5), line) >= r - eps;
      if (!keep) continue;
      // A removed loop starts and ends at the same crossing: the pieces either side join up.
      const last: XY | undefined = current?.[current.length - 1];
      if (current && last && len(sub(last, p)) < 1e-6) current.push(q);
      else {
        current = [p, q];
        runs.push(current);
      }
    }
  }
  return runs.filter((run) => pathLengthXY(run) > 1e-3);
}

const pathLengthXY = (pts: readonly XY[]): number => pts.slice(1).reduce((s, q, i) => s + len(sub(q, pts[i]!)), 0);

/** The corridor's lines in flight order and direction, each a list of runs (polylines, WGS84). */
export function corridorLines(centre: readonly LatLng[], opts: CorridorOptions): LatLng[][][] {
  if (!(opts.lineSpacing > 0) || !Number.isFinite(opts.lineSpacing)) throw new RangeError('line spacing must be a positive number of metres');
  if (!(opts.width > 0) || !Number.isFinite(opts.width) || opts.width > CORRIDOR_WIDTH_MAX_M)
    throw new RangeError(`corridor width must be above 0 and at most ${CORRIDOR_WIDTH_MAX_M} m`);
  const frame = localFrame(meanPoint(centre));
  const line: XY[] = [];
  for (const p of centre) {
    const q = frame.toXY(p);
    const prev = line[line.length - 1];
    if (!prev || len(sub(q, prev)) > 1e-6) line.push(q);
  }
  if (line.length < 2) return [];
  const count = Math.max(1, Math.ceil(opts.width / opts.lineSpacing - 1e-9));
  if (count > MAX_CORRIDOR_LINES) throw new RangeError(`corridor needs ${count} lines; at most ${MAX_CORRIDOR_LINES}`);
  const tol = JOIN_TOLERANCE * opts.lineSpacing;
  // Offsets from the right edge (negative) to the left one.
  const offsets = Array.from({ length: count }, (_, k) => (k - (count - 1) / 2) * opts.lineSpacing);
  const lines = offsets.map((o) => trimOffset(rawOffset(line, o, tol), line, o)).filter((runs) => runs.length > 0);
  if (lines.length === 0) return [];

  // Step 5: of the four ways in (either edge first, either direction first), the one entering nearest.
  const here = opts.start ? frame.toXY(opts.start) : null;
  const entryOf = (runs: XY[][], forward: boolean): XY => (forward ? runs[0]![0]! : runs[runs.length - 1]![runs[runs.length - 1]!.length - 1]!);
  let fromLeft = false;
  let firstForward = true;
  if (here) {
    let best = Infinity;
    for (const edge of [false, true])
      for (const fwd of [true, false]) {
        const first = edge ? lines[lines.length - 1]! : lines[0]!;
        const d = len(sub(entryOf(first, fwd), here));
        if (d < best - 1e-9) {
          best = d;
          fromLeft = edge;
          firstForward = fwd;
        }
      }
  }
  const ordered = fromLeft ? [...lines].reverse() : lines;
  return ordered.map((runs, k) => {
    const forward = (k % 2 === 0) === firstForward;
    const flown = forward ? runs : [...runs].reverse().map((run) => [...run].reverse());
    return flown.map((run) => run.map((p) => frame.toLatLng(p)));
  });
}

/**
 * The band itself as a ring (WGS84), to draw: its left edge (offset width / 2, joins and loops handled as
 * for the lines) and its right edge back. Empty for a line of fewer than 2 distinct points.
 */
export function corridorBand(centre: readonly LatLng[], width: number): LatLng[] {
  if (!(width > 0) || !Number.isFinite(width)) return [];
  const frame = localFrame(meanPoint(centre));
  const line: XY[] = [];
  for (const p of centre) {
    const q = frame.toXY(p);
    const prev = line[line.length - 1];
    if (!prev || len(sub(q, prev)) > 1e-6) line.push(q);
  }
  if (line.length < 2) return [];
  const edge = (o: number) => trimOffset(rawOffset(line, o, width / 40), line, o).flat();
  return [...edge(width / 2), ...edge(-width / 2).reverse()].map((p) => frame.toLatLng(p));
}

/** A corridor grid: the survey grid's facts, with runs (polylines) as transects. */
export interface CorridorGrid extends Omit<SurveyGrid, 'roles' | 'transects'> {
  /** Runs in flight order and direction, each a polyline from entry to exit. */
  transects: LatLng[][];
  roles: CorridorPointRole[];
  /** Number of lines across the band. */
  lineCount: number;
  /** Band width (m). */
  width: number;
}

export interface CorridorParams extends Omit<SurveyParams, 'angle'> {
  /** Width of the band (m). */
  width: number;
}

/** Run-in point `distance` metres before a along ba, or run-out beyond b along ab. */
function beyond(a: LatLng, b: LatLng, distance: number): LatLng {
  const frame = localFrame(b);
  const pa = frame.toXY(a);
  const l = Math.hypot(pa.x, pa.y);
  if (l === 0) return b;
  return frame.toLatLng({ x: (-pa.x / l) * distance, y: (-pa.y / l) * distance });
}

/**
 * A corridor grid along a centre line (WGS84, >= 2 points) for a camera, height (or GSD) and overlaps:
 * spacing and trigger distance from the footprint (camera.ts), lines by corridorLines. Throws RangeError
 * for impossible parameters.
 */
export function corridorGrid(centre: readonly LatLng[], params: CorridorParams): CorridorGrid {
  const imaging = gridImaging(params, 'corridor');
  const { turn, lineSpacing, triggerDistance } = imaging;
  if (centre.length < 2 || centre.some((p) => !isValidLatLng(p))) throw new RangeError('the centre line needs at least 2 valid points');
  const lines = corridorLines(centre, { width: params.width, lineSpacing, ...(params.start ? { start: params.start } : {}) });
  const transects = lines.flat();
  const waypoints: LatLng[] = [];
  const roles: CorridorPointRole[] = [];
  let photoCount = 0;
  for (const run of transects) {
    photoCount += transectPhotoCount(pathLength(run), triggerDistance);
    if (turn > 0) {
      waypoints.push(beyond(run[1]!, run[0]!, turn));
      roles.push('run_in');
    }
    run.forEach((p, i) => {
      waypoints.push(p);
      roles.push(i === 0 ? 'entry' : i === run.length - 1 ? 'exit' : 'bend');
    });
    if (turn > 0) {
      waypoints.push(beyond(run[run.length - 2]!, run[run.length - 1]!, turn));
      roles.push('run_out');
    }
  }
  return {
    transects,
    waypoints,
    roles,
    photoCount,
    triggerDistance,
    lineSpacing,
    gsd: imaging.gsd,
    height: imaging.height,
    footprint: imaging.footprint,
    length: pathLength(waypoints),
    area: pathLength(centre) * params.width,
    lineCount: lines.length,
    width: params.width,
  };
}

/**
 * A corridor grid from a task's settings (as surveyFromSettings: camera, photo type, default_height,
 * overlaps, turn distance; no grid angle: lines follow the centre line). A custom camera with missing
 * fields answers its issues instead.
 */
export function corridorFromSettings(
  centre: readonly LatLng[],
  width: number,
  settings: Pick<MissionSettings, 'camera_type' | 'photo_type' | 'default_height' | 'course_overlap' | 'lateral_overlap' | 'turn_distance'> &
    Partial<Pick<MissionSettings, 'sensor_width' | 'sensor_height' | 'image_width' | 'image_height' | 'focal_length'>>,
  takeoff?: LatLng,
): { grid: CorridorGrid; issues: [] } | { grid: null; issues: Issue[] } {
  const camera = cameraFromSettings(settings);
  if (!camera) return { grid: null, issues: customCameraIssues(settings) };
  const grid = corridorGrid(centre, {
    camera,
    width,
    photoType: settings.photo_type,
    height: settings.default_height,
    frontOverlap: settings.course_overlap,
    sideOverlap: settings.lateral_overlap,
    turnDistance: settings.turn_distance,
    ...(takeoff ? { start: takeoff } : {}),
  });
  return { grid, issues: [] };
}

/**
 * The corridor grid in the shape survey waypoints are made from (geo surveyWaypoints): bends count as
 * plain points there (only entries start and exits stop the camera), so the camera triggers through them.
 */
export const corridorAsSurvey = (grid: CorridorGrid): SurveyGrid => ({ ...grid, roles: grid.roles as SurveyPointRole[] });

/** Length of the centre line (m). */
export const corridorLength = (centre: readonly LatLng[]): number =>
  centre.slice(1).reduce((s, q, i) => s + haversineDistance(centre[i]!, q), 0);
