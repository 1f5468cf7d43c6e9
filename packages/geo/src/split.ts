import { WAYPOINT_LIMITS } from '@nest/contracts';
import { haversineDistance, pathLength, type LatLng } from './coords.js';
import { estimateFlight, type EstimateWaypoint } from './estimate.js';
import { transectPhotoCount } from './survey.js';

/**
 * A survey (or corridor) too long for one battery, split into parts flown one after another, step by
 * step:
 * 1. the grid's waypoints are cut into transects by their roles: a transect runs from its run-in (or
 *    entry) to its run-out (or exit), with a corridor's bends in between;
 * 2. parts are contiguous runs of transects in the grid's flight order, filled greedily: a transect joins
 *    the current part while the part's estimate (estimate.ts estimateFlight, INCLUDING the flight from the
 *    take-off point to its first waypoint and the return home) stays within the budget and its waypoints
 *    within the waypoint limit; else it starts the next part;
 * 3. a transect that alone exceeds the budget (or the limit) is cut along its length: the longest
 *    stretch that fits (bisection on the length, to a metre) becomes a part ending with an exit, the rest
 *    starts the next one with an entry at the cut, and so on;
 * 4. order: the grid already starts at the corner nearest the take-off point (survey.ts, corridor.ts), so
 *    parts are numbered in that sweep order, the nearest first. Each part's transit is home -> its first
 *    waypoint and its last waypoint -> home, whichever order the parts fly in, so keeping the sweep order
 *    keeps neighbouring parts next to each other without adding transit.
 * Throws RangeError when a metre of transect cannot be flown within the budget from the take-off point
 * (the area is out of the battery's reach).
 */

/** A grid that can be split: waypoints with survey or corridor roles (survey.ts, corridor.ts). */
export interface SplittableGrid {
  waypoints: LatLng[];
  roles: readonly string[];
  triggerDistance: number;
  /** Flight height above the ground (m), used for the estimate. */
  height: number;
  /** Entry-to-exit polylines in flight order. */
  transects: LatLng[][];
}

export interface SplitOptions {
  /** Flight-time budget of one part (s), take-off and return included. */
  budgetS: number;
  /** The take-off and landing point (the nest). */
  takeoff?: LatLng;
  /** Cruise speed (m/s). */
  speed: number;
  maxSpeed?: number;
  returnHeight?: number;
  /** FinishAction of each part (default 20 return home). */
  finishAction?: number;
  /** Waypoints per part, at most (default contracts WAYPOINT_LIMITS.maxWaypoints). */
  maxWaypoints?: number;
}

/** One part: the grid with its own waypoints and roles, and its estimate. */
export type SplitPart<G extends SplittableGrid> = G & {
  /** Estimated flight time of the part (s, whole), as estimate.ts rounds it. */
  estTime: number;
  photoCount: number;
  length: number;
};

type Block = { points: LatLng[]; roles: string[] };

/** Step 1: transects by roles. */
function blocksOf(grid: SplittableGrid): Block[] {
  const out: Block[] = [];
  let cur: Block | null = null;
  grid.waypoints.forEach((p, i) => {
    const role = grid.roles[i] ?? '';
    if (!cur || role === 'run_in' || (role === 'entry' && cur.roles[cur.roles.length - 1] !== 'run_in')) {
      cur = { points: [], roles: [] };
      out.push(cur);
    }
    cur.points.push(p);
    cur.roles.push(role);
    if (role === 'run_out') cur = null;
  });
  return out;
}

/** Photos of a block: one at each entry and one every trigger distance up to its exit. */
function photosOf(b: Block, trigger: number): number {
  return transectsOf(b).reduce((n, t) => n + transectPhotoCount(pathLength(t), trigger), 0);
}

/** A part's transects: each entry to the next exit, bends included. */
function transectsOf(b: Block): LatLng[][] {
  const out: LatLng[][] = [];
  let from = -1;
  b.roles.forEach((r, i) => {
    if (r === 'entry') from = i;
    if (r === 'exit' && from >= 0) {
      out.push(b.points.slice(from, i + 1));
      from = -1;
    }
  });
  return out;
}

/** Points along the polyline up to distance d (the point at d included). */
function cutAt(points: readonly LatLng[], d: number): { head: LatLng[]; at: LatLng; tailFrom: number } {
  let acc = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    const l = haversineDistance(a, b);
    if (acc + l >= d) {
      const f = l === 0 ? 0 : (d - acc) / l;
      const at = { lat: a.lat + f * (b.lat - a.lat), lng: a.lng + f * (b.lng - a.lng) };
      return { head: [...points.slice(0, i + 1), at], at, tailFrom: i + 1 };
    }
    acc += l;
  }
  const last = points[points.length - 1]!;
  return { head: [...points], at: last, tailFrom: points.length };
}

/** Splits the grid's transects into parts within the budget; see the module note. */
export function splitSurvey<G extends SplittableGrid>(grid: G, opts: SplitOptions): SplitPart<G>[] {
  if (!(opts.budgetS > 0)) throw new RangeError('the flight-time budget must be above 0 s');
  const maxWp = opts.maxWaypoints ?? WAYPOINT_LIMITS.maxWaypoints;
  const estimate = (points: readonly LatLng[]): number => {
    const waypoints: EstimateWaypoint[] = points.map((p) => ({ ...p, height: grid.height }));
    return estimateFlight(
      {
        waypoints,
        auto_speed: opts.speed,
        ...(opts.maxSpeed !== undefined ? { max_speed: opts.maxSpeed } : {}),
        default_height: grid.height,
        ...(opts.returnHeight !== undefined ? { return_height: opts.returnHeight } : {}),
        finish_action: opts.finishAction ?? 20,
      },
      opts.takeoff ? { home: opts.takeoff } : {},
    ).total;
  };
  const fits = (points: readonly LatLng[]) => points.length <= maxWp && Math.round(estimate(points)) <= opts.budgetS;

  // Step 3: a transect too long alone, cut into stretches that fit.
  const cutBlock = (b: Block): Block[] => {
    const pieces: Block[] = [];
    let rest = b;
    while (!fits(rest.points)) {
      const entry = rest.roles.indexOf('entry');
      const total = pathLength(rest.points);
      let lo = 0;
      let hi = total;
      while (hi - lo > 1) {
        const mid = (lo + hi) / 2;
        const { head } = cutAt(rest.points, mid);
        if (fits(head)) lo = mid;
        else hi = mid;
      }
      // A head must reach past the entry (else it photographs nothing) and leave some of the line.
      const { head, at, tailFrom } = cutAt(rest.points, lo);
      if (lo < 1 || head.length - 1 <= entry) throw new RangeError('a transect cannot be reached and flown within the flight-time budget');
      pieces.push({ points: head, roles: [...rest.roles.slice(0, head.length - 1), 'exit'] });
      rest = { points: [at, ...rest.points.slice(tailFrom)], roles: ['entry', ...rest.roles.slice(tailFrom)] };
    }
    pieces.push(rest);
    return pieces;
  };

  const parts: Block[] = [];
  let cur: Block = { points: [], roles: [] };
  for (const block of blocksOf(grid)) {
    const joined = [...cur.points, ...block.points];
    if (cur.points.length > 0 && fits(joined)) {
      cur = { points: joined, roles: [...cur.roles, ...block.roles] };
      parts[parts.length - 1] = cur;
      continue;
    }
    const pieces = fits(block.points) ? [block] : cutBlock(block);
    for (const piece of pieces) {
      cur = { points: [...piece.points], roles: [...piece.roles] };
      parts.push(cur);
    }
  }
  return parts.map((p) => ({
    ...grid,
    waypoints: p.points,
    roles: p.roles,
    transects: transectsOf(p),
    estTime: Math.round(estimate(p.points)),
    photoCount: photosOf(p, grid.triggerDistance),
    length: pathLength(p.points),
  }));
}

/** How many parts the grid takes (1 when it fits one battery). */
export const splitCount = (grid: SplittableGrid, opts: SplitOptions): number => splitSurvey(grid, opts).length;
