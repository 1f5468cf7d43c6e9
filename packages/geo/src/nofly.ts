import { NoFlyShape, ZoneKind, type Text } from '@nest/contracts';
import { isValidLatLng, type LatLng } from './coords.js';
import { IssueCode, type Issue } from './issues.js';
import { localFrame, type XY } from './local.js';
import { BOUNDARY_TOLERANCE_M, normalizeRing } from './polygon.js';
import { keepOutIssues, ringRegion, zoneInText, zoneRestrictsRoutes, type KeepOutRegion, type ZoneInput } from './zones.js';

/**
 * Company no-fly zones (contracts NoFlyZone): polygons and circles a company's routes must keep out of,
 * for every device of the company or for one, during a validity period. The rule is the map zones' rule
 * (zones.ts keepOutIssues), with its own issue codes and the zone's reason in every text:
 * - a zone restricts a route when it applies to the route's device (`sn_id` '' or that device) at the time
 *   asked (`valid_from` / `valid_to` inclusive, null open-ended): noFlyApplies; callers pass only the zones
 *   that apply;
 * - polygon: the boundary belongs to the zone (5 cm, BOUNDARY_TOLERANCE_M), a leg crosses when some piece
 *   of it lies inside or along the edge; touching a corner, or passing a concave notch, is not crossing;
 * - circle: exact, in the local metric frame around the centre (local.ts): a waypoint is inside when its
 *   distance from the centre is at most radius + 5 cm; a leg crosses when it comes nearer to the centre
 *   than the radius (a tangent leg only touches). The polygon noFlyRing draws, and survey grids avoid,
 *   contains the circle;
 * - a zone whose shape is unusable (fewer than 3 points, invalid coordinates, no centre or radius)
 *   restricts nothing: the editors refuse to save one.
 */

/** What the rules read of a no-fly zone: contracts NoFlyZone has these fields (and more). */
export interface NoFlyInput {
  id?: string;
  name: string;
  reason: string;
  /** NoFlyShape: 1 polygon (`boundary`), 2 circle (`center`, `radius`). */
  shape: number;
  /** Open WGS84 ring of a polygon; [] for a circle. */
  boundary: readonly LatLng[];
  center: LatLng | null;
  /** Metres, for a circle. */
  radius: number | null;
  /** '' for every device of the company, else the one device. */
  sn_id: string;
  /** Unix seconds, inclusive; null: open-ended. */
  valid_from: number | null;
  valid_to: number | null;
}

/** Largest distance (m) between a circle and the polygon noFlyRing makes of it. */
export const NO_FLY_RING_ERROR_M = 0.5;
/** Fewest sides of a circle's polygon, so small circles still look round. */
export const NO_FLY_RING_MIN_SIDES = 16;

/**
 * Whether the zone restricts a route flown by device `sn` (null: a route bound to no device, which only
 * company-wide zones restrict) at time `at` (unix seconds): the device matches (sn_id '' or equal) and `at`
 * lies in the validity period (inclusive; a null end is open).
 */
export function noFlyApplies(zone: Pick<NoFlyInput, 'sn_id' | 'valid_from' | 'valid_to'>, when: { sn: string | null; at: number }): boolean {
  if (zone.sn_id !== '' && zone.sn_id !== when.sn) return false;
  if (zone.valid_from !== null && when.at < zone.valid_from) return false;
  if (zone.valid_to !== null && when.at > zone.valid_to) return false;
  return true;
}

const isCircle = (zone: Pick<NoFlyInput, 'shape'>): boolean => zone.shape === NoFlyShape.CIRCLE;

/** The circle's centre and radius when usable, else null. */
function circleOf(zone: Pick<NoFlyInput, 'center' | 'radius'>): { center: LatLng; radius: number } | null {
  const { center, radius } = zone;
  if (!center || !isValidLatLng(center) || typeof radius !== 'number' || !Number.isFinite(radius) || radius <= 0) return null;
  return { center, radius };
}

/**
 * The number of sides of a circle's polygon: the polygon circumscribes the circle (every side touches it),
 * so it lies outside the circle by at most r / cos(pi / n) - r at its corners; the fewest sides keeping that
 * within NO_FLY_RING_ERROR_M, n >= pi / acos(r / (r + 0.5)) (about pi x sqrt(r): 32 sides at 100 m, 100 at
 * 1 km, 703 at 50 km), and at least NO_FLY_RING_MIN_SIDES.
 */
export function noFlyRingSides(radius: number): number {
  return Math.max(NO_FLY_RING_MIN_SIDES, Math.ceil(Math.PI / Math.acos(radius / (radius + NO_FLY_RING_ERROR_M)) - 1e-9));
}

/**
 * The zone as a polygon (open WGS84 ring): a polygon's own ring; a circle's circumscribed regular polygon
 * (noFlyRingSides sides, in the local frame around the centre, first corner due north), which CONTAINS the
 * circle and lies within NO_FLY_RING_ERROR_M of it: what maps draw and survey grids avoid. [] for an
 * unusable shape.
 */
export function noFlyRing(zone: Pick<NoFlyInput, 'shape' | 'boundary' | 'center' | 'radius'>): LatLng[] {
  if (!isCircle(zone)) return zone.boundary.every(isValidLatLng) ? normalizeRing(zone.boundary) : [];
  const c = circleOf(zone);
  if (!c) return [];
  const n = noFlyRingSides(c.radius);
  const corner = c.radius / Math.cos(Math.PI / n);
  const f = localFrame(c.center);
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return f.toLatLng({ x: corner * Math.sin(a), y: corner * Math.cos(a) });
  });
}

/** The circle as a region, exact in the local frame around its centre (see the module note). */
function circleRegion(center: LatLng, radius: number): Pick<KeepOutRegion, 'contains' | 'legPoint'> {
  const f = localFrame(center);
  const norm = (p: XY) => Math.hypot(p.x, p.y);
  return {
    contains: (p) => norm(f.toXY(p)) <= radius + BOUNDARY_TOLERANCE_M,
    legPoint(a, b) {
      const pa = f.toXY(a);
      const pb = f.toXY(b);
      const dx = pb.x - pa.x;
      const dy = pb.y - pa.y;
      const len2 = dx * dx + dy * dy;
      // The point of the leg nearest the centre: inside when nearer than the radius.
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(pa.x * dx + pa.y * dy) / len2));
      const near = { x: pa.x + t * dx, y: pa.y + t * dy };
      return norm(near) < radius ? f.toLatLng(near) : null;
    },
  };
}

/** The zone inside a sentence (`禁飞区「实验小学」`, `the no-fly zone "Primary school"`), as map zones are named. */
export const noFlyInText = (zone: Pick<NoFlyInput, 'name'>): Text => zoneInText({ type: ZoneKind.NO_FLY, name: { zh: zone.name, en: zone.name } });

/** The zone's reason after a refusal (`（原因：上课时段）`, ` (reason: school hours)`); nothing when it has none. */
export function noFlyReasonText(zone: Pick<NoFlyInput, 'reason'>): Text {
  const reason = zone.reason.trim();
  return reason ? { zh: `（原因：${reason}）`, en: ` (reason: ${reason})` } : { zh: '', en: '' };
}

/** A no-fly zone as a keep-out region (zones.ts), or null when its shape is unusable. */
function noFlyRegion(zone: NoFlyInput): KeepOutRegion | null {
  let shape: Pick<KeepOutRegion, 'contains' | 'legPoint'> | null;
  if (isCircle(zone)) {
    const c = circleOf(zone);
    shape = c ? circleRegion(c.center, c.radius) : null;
  } else {
    shape = ringRegion(zone.boundary);
  }
  if (!shape) return null;
  return {
    ...shape,
    ...(zone.id !== undefined ? { id: zone.id } : {}),
    name: noFlyInText(zone),
    suffix: noFlyReasonText(zone),
    codes: { waypoint: IssueCode.WAYPOINT_IN_NO_FLY, leg: IssueCode.LEG_CROSSES_NO_FLY },
  };
}

/**
 * The conflicts of a route (its waypoints in order) with no-fly zones (already filtered with noFlyApplies):
 * `waypoint.in_no_fly` per waypoint inside a zone, `leg.crosses_no_fly` per leg crossing one between two
 * waypoints outside it (`第 3 个航点在禁飞区「实验小学」内（原因：上课时段）`, `Waypoint 3 is inside the no-fly
 * zone "Primary school" (reason: school hours)`); item ids are the zones' ids, `at` the conflict point.
 */
export function noFlyConflictIssues(waypoints: readonly LatLng[], zones: readonly NoFlyInput[]): Issue[] {
  return keepOutIssues(
    waypoints,
    zones.map(noFlyRegion).filter((r): r is KeepOutRegion => r !== null),
  );
}

/** The first zone in the list a route conflicts with, with its first issue, or null when it keeps out of all. */
export function firstNoFlyConflict<Z extends NoFlyInput>(waypoints: readonly LatLng[], zones: readonly Z[]): { zone: Z; issue: Issue } | null {
  for (const zone of zones) {
    const issue = noFlyConflictIssues(waypoints, [zone])[0];
    if (issue) return { zone, issue };
  }
  return null;
}

/**
 * The rings a survey grid keeps out of (surveyGrid's `avoid`): each no-fly zone's ring (noFlyRing: circles
 * as their containing polygon) and each map zone that restricts routes (no-fly and restricted zones).
 * Zones are passed already filtered (noFlyApplies); unusable shapes are left out.
 */
export function surveyAvoidRings(noFly: readonly NoFlyInput[], zones: readonly ZoneInput[] = []): LatLng[][] {
  return [
    ...noFly.map(noFlyRing),
    ...zones.filter((z) => zoneRestrictsRoutes(z.type) && z.paths.every(isValidLatLng)).map((z) => normalizeRing(z.paths)),
  ].filter((r) => r.length >= 3);
}

