import { area as turfArea } from '@turf/area';
import { featureCollection } from '@turf/helpers';
import { intersect } from '@turf/intersect';
import { kinks } from '@turf/kinks';
import {
  TakePhoto,
  WAYPOINT_DISTANCE_LIMIT_LONG_M,
  WAYPOINT_DISTANCE_LIMIT_M,
  WAYPOINT_LIMITS,
  formatDistanceText,
} from '@nest/contracts';
import { haversineDistance, isValidLatLng, type LatLng } from './coords.js';
import { IssueCode, fenceName, issueNumber, waypointName, type Issue } from './issues.js';
import { meanPoint } from './local.js';
import { normalizeRing, prepareRing, ringToPolygon, ringsInteriorMeet, segmentPointOutside, type PreparedRing } from './polygon.js';
import { noFlyConflictIssues, type NoFlyInput } from './nofly.js';
import { zoneConflictIssues, type ZoneInput } from './zones.js';

/**
 * Fence and route rules (SPEC section 5, limits of section 9 and WAYPOINT_LIMITS). Each rule is a plain
 * function answering Issue[] (empty = valid); validateFence and validateRoute compose them. Decisions:
 * - A waypoint ON the fence boundary counts as inside (within BOUNDARY_TOLERANCE_M = 5 cm).
 * - Fences TOUCHING each other (a shared vertex or a shared stretch of edge, no common area) are allowed:
 *   neighbouring work areas are commonly drawn edge to edge. Crossing, containing or overlapping fences
 *   (a common area above FENCE_OVERLAP_MIN_AREA_M2) are refused.
 * - A leg between two inside waypoints that leaves a concave fence is refused (leg.outside_fence), since
 *   the aircraft flies the straight leg; turn it off with `checkLegs: false`.
 * - Heights are in the route's HeightType: relative (0) heights compare with the fence's max height;
 *   altitude (1) heights with max height + ground elevation, and only when the ground elevation is given.
 */

/** Common area (m²) below which two fences only touch: float noise of shared edges stays far below it. */
export const FENCE_OVERLAP_MIN_AREA_M2 = 0.01;
/** A fence must enclose at least this much (m²); anything less is a degenerate (collinear) ring. */
export const FENCE_MIN_AREA_M2 = 1;
/** Adjacent waypoints closer than this horizontally and vertically are the same place (m). */
export const SAME_PLACE_M = 0.01;
/** Largest camera trigger distance of a waypoint (m), as waypointSchema allows. */
export const CAM_TRIG_DIST_MAX_M = 10_000;

export interface FenceInput {
  id?: string;
  name?: string;
  max_height: number;
  boundary: readonly LatLng[];
  /** The bound device; fences of other devices are not compared. */
  sn_id?: string;
}

export interface WaypointInput extends LatLng {
  height: number;
  uav_yaw?: number | null;
  hover?: number | null;
  takephoto?: number | null;
  gimbal_ctrl?: { pitch: number; yaw: number } | null;
  speed?: number | null;
  cam_trig_dist?: number | null;
}

/** The parts of a task (MissionSettings) the rules read; absent settings are not checked. */
export interface RouteInput {
  mission_type?: number;
  height_type?: number;
  auto_speed?: number;
  max_speed?: number;
  default_height?: number;
  return_height?: number;
  waypoints: readonly WaypointInput[];
}

export interface RouteValidationOptions {
  /**
   * Largest distance between adjacent waypoints (m): WAYPOINT_DISTANCE_LIMIT_M (2 km) by default,
   * WAYPOINT_DISTANCE_LIMIT_LONG_M (5 km) where the device type allows it (see waypointDistanceLimit).
   */
  distanceLimitM?: number;
  /**
   * Ground elevation (m above sea level) for altitude (HeightType 1) routes: one number for the whole
   * route (e.g. at the nest) or one per waypoint. Without it altitude heights are not compared with the
   * fence's max height.
   */
  groundElevation?: number | readonly (number | null | undefined)[];
  /** Refuse legs leaving the fence between inside waypoints (default true). */
  checkLegs?: boolean;
  /**
   * Map zones (zones.ts): waypoints inside, and legs crossing, a no-fly or restricted zone are refused.
   * Without it no zone is checked.
   */
  zones?: readonly ZoneInput[];
  /**
   * Company no-fly zones (nofly.ts) that apply to the route's device now, already filtered with
   * noFlyApplies: waypoints inside, and legs crossing, one are refused with the zone's reason.
   */
  noFly?: readonly NoFlyInput[];
}

/** The adjacent-waypoint distance limit for a device: 5 km where its type allows long legs, else 2 km. */
export const waypointDistanceLimit = (allowLong: boolean): number =>
  allowLong ? WAYPOINT_DISTANCE_LIMIT_LONG_M : WAYPOINT_DISTANCE_LIMIT_M;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const present = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;
const between = (v: unknown, min: number, max: number): boolean => finite(v) && v >= min && v <= max;
const positiveUpTo = (v: unknown, max: number): boolean => finite(v) && v > 0 && v <= max;
const HEIGHT_MAX = WAYPOINT_LIMITS.heightMax;
const SPEED_MAX = WAYPOINT_LIMITS.speedMax;

/* ------------------------------------------------------------------------------------------------ */
/* Fence rules                                                                                       */

/** At least 3 distinct boundary points (a closing copy of the first and repeated points do not count). */
export function fencePointCountIssues(fence: Pick<FenceInput, 'boundary' | 'name' | 'id'>): Issue[] {
  const n = normalizeRing(fence.boundary.filter(isValidLatLng)).length;
  if (n >= 3) return [];
  const f = fenceName(fence.name);
  return [
    {
      code: IssueCode.FENCE_POINTS_TOO_FEW,
      item: { kind: 'fence', ...(fence.id ? { id: fence.id } : {}) },
      text: { zh: `${f.zh}至少需要 3 个边界点（当前 ${n} 个）`, en: `${f.en} needs at least 3 boundary points (has ${n})` },
    },
  ];
}

/** Every boundary point has finite coordinates within -90..90 / -180..180. */
export function fenceCoordinateIssues(fence: Pick<FenceInput, 'boundary' | 'name' | 'id'>): Issue[] {
  const f = fenceName(fence.name);
  const issues: Issue[] = [];
  fence.boundary.forEach((p, i) => {
    if (isValidLatLng(p)) return;
    issues.push({
      code: IssueCode.FENCE_POINT_INVALID,
      item: { kind: 'fence', index: i, ...(fence.id ? { id: fence.id } : {}) },
      text: { zh: `${f.zh}的第 ${i + 1} 个边界点坐标无效`, en: `${f.en}: boundary point ${i + 1} has an invalid coordinate` },
    });
  });
  return issues;
}

/** The boundary does not cross or touch itself (turf kinks); expects valid coordinates, >= 3 points. */
export function fenceSelfIntersectionIssues(fence: Pick<FenceInput, 'boundary' | 'name' | 'id'>): Issue[] {
  const ring = normalizeRing(fence.boundary);
  if (ring.length < 3) return [];
  const found = kinks(ringToPolygon(ring)).features;
  if (found.length === 0) return [];
  const [lng, lat] = found[0]!.geometry.coordinates as [number, number];
  const f = fenceName(fence.name);
  return [
    {
      code: IssueCode.FENCE_SELF_INTERSECTING,
      item: { kind: 'fence', ...(fence.id ? { id: fence.id } : {}) },
      text: { zh: `${f.zh}的边界自相交`, en: `${f.en} crosses itself` },
      at: { lat, lng },
    },
  ];
}

/** Area of a ring in m² (turf area, geodesic); 0 for fewer than 3 points. */
export function ringArea(points: readonly LatLng[]): number {
  const ring = normalizeRing(points);
  return ring.length < 3 ? 0 : turfArea(ringToPolygon(ring));
}

/** The fence encloses an area (at least FENCE_MIN_AREA_M2). */
export function fenceAreaIssues(fence: Pick<FenceInput, 'boundary' | 'name' | 'id'>): Issue[] {
  if (ringArea(fence.boundary) >= FENCE_MIN_AREA_M2) return [];
  const f = fenceName(fence.name);
  return [
    {
      code: IssueCode.FENCE_AREA_ZERO,
      item: { kind: 'fence', ...(fence.id ? { id: fence.id } : {}) },
      text: { zh: `${f.zh}的面积为 0`, en: `${f.en} encloses no area` },
    },
  ];
}

/** Max height above 0 and at most WAYPOINT_LIMITS.heightMax. */
export function fenceMaxHeightIssues(fence: Pick<FenceInput, 'max_height' | 'name' | 'id'>): Issue[] {
  if (positiveUpTo(fence.max_height, HEIGHT_MAX)) return [];
  const f = fenceName(fence.name);
  return [
    {
      code: IssueCode.FENCE_MAX_HEIGHT,
      item: { kind: 'fence', ...(fence.id ? { id: fence.id } : {}) },
      text: {
        zh: `${f.zh}的最大高度须大于 0 且不超过 ${HEIGHT_MAX} 米`,
        en: `${f.en}: maximum height must be above 0 and at most ${HEIGHT_MAX} m`,
      },
    },
  ];
}

/** Shape rules in order; geometric ones only once the points themselves are usable. */
export function fenceShapeIssues(fence: Pick<FenceInput, 'boundary' | 'name' | 'id'>): Issue[] {
  const coordinates = fenceCoordinateIssues(fence);
  if (coordinates.length > 0) return coordinates;
  const count = fencePointCountIssues(fence);
  if (count.length > 0) return count;
  const crossing = fenceSelfIntersectionIssues(fence);
  if (crossing.length > 0) return crossing;
  return fenceAreaIssues(fence);
}

/**
 * Common area (m²) of two simple rings and a point inside it (null when they are apart or only touch).
 * turf intersect (polyclip-ts) answers touching rings with no polygon.
 */
export function ringOverlap(a: readonly LatLng[], b: readonly LatLng[]): { area: number; at: LatLng } | null {
  const ra = normalizeRing(a);
  const rb = normalizeRing(b);
  if (ra.length < 3 || rb.length < 3) return null;
  const common = intersect(featureCollection([ringToPolygon(ra), ringToPolygon(rb)]));
  if (!common) return null;
  const area = turfArea(common);
  if (area <= FENCE_OVERLAP_MIN_AREA_M2) return null;
  const g = common.geometry;
  const rings = g.type === 'Polygon' ? [g.coordinates[0]!] : g.coordinates.map((p) => p[0]!);
  // Point the map at the largest piece: its vertex mean when inside it, else its first vertex.
  let best = rings[0]!;
  let bestArea = -1;
  for (const r of rings) {
    const pts = r.map(([lng, lat]) => ({ lat: lat!, lng: lng! }));
    const s = ringArea(pts);
    if (s > bestArea) {
      bestArea = s;
      best = r;
    }
  }
  const pts = normalizeRing(best.map(([lng, lat]) => ({ lat: lat!, lng: lng! })));
  const mean = meanPoint(pts);
  const at = prepareRing(pts).contains(mean, 0) ? mean : pts[0]!;
  return { area, at };
}

/**
 * The fence does not cross, contain or overlap another fence of the same device (touching is allowed, see
 * the module note). Others with the fence's own id (the stored copy of an edited fence) and others bound
 * to another device (when both name one) are skipped.
 */
export function fenceOverlapIssues(fence: FenceInput, others: readonly FenceInput[]): Issue[] {
  const issues: Issue[] = [];
  const f = fenceName(fence.name);
  for (const other of others) {
    if (fence.id !== undefined && other.id === fence.id) continue;
    if (fence.sn_id && other.sn_id && other.sn_id !== fence.sn_id) continue;
    if (!other.boundary.every(isValidLatLng)) continue;
    let overlap: { area: number; at: LatLng } | null;
    try {
      overlap = ringOverlap(fence.boundary, other.boundary);
    } catch {
      // polyclip refuses some degenerate (e.g. self-crossing stored) rings: fall back to edge pieces.
      const at = ringsInteriorMeet(prepareRing(fence.boundary), prepareRing(other.boundary));
      overlap = at ? { area: NaN, at } : null;
    }
    if (!overlap) continue;
    const name = other.name ?? other.id ?? '';
    issues.push({
      code: IssueCode.FENCE_OVERLAP,
      item: { kind: 'fence', ...(other.id ? { id: other.id } : {}) },
      text: { zh: `${f.zh}与围栏「${name}」重叠`, en: `${f.en} overlaps fence "${name}"` },
      at: overlap.at,
    });
  }
  return issues;
}

/** Shape, max height and overlap with the device's other fences. */
export function validateFence(fence: FenceInput, others: readonly FenceInput[] = []): Issue[] {
  const shape = fenceShapeIssues(fence);
  const height = fenceMaxHeightIssues(fence);
  if (shape.length > 0) return [...shape, ...height];
  return [...height, ...fenceOverlapIssues(fence, others)];
}

/* ------------------------------------------------------------------------------------------------ */
/* Route rules                                                                                       */

const wpIssue = (code: string, index: number, zh: string, en: string, at?: LatLng): Issue => {
  const n = waypointName(index);
  return {
    code,
    item: { kind: 'waypoint', index },
    text: { zh: `${n.zh}${zh}`, en: `${n.en}${en}` },
    group: { zh, en },
    ...(at ? { at } : {}),
  };
};

const routeIssue = (code: string, zh: string, en: string): Issue => ({ code, item: { kind: 'route' }, text: { zh, en } });

/** A waypoint route (MissionType 1, or no type given) has at least 2 waypoints; no route more than the limit. */
export function waypointCountIssues(route: Pick<RouteInput, 'mission_type' | 'waypoints'>): Issue[] {
  const n = route.waypoints.length;
  const issues: Issue[] = [];
  if ((route.mission_type === undefined || route.mission_type === 1) && n < 2)
    issues.push(
      routeIssue(IssueCode.ROUTE_WAYPOINTS_TOO_FEW, `航点航线至少需要 2 个航点（当前 ${n} 个）`, `A waypoint route needs at least 2 waypoints (has ${n})`),
    );
  if (n > WAYPOINT_LIMITS.maxWaypoints)
    issues.push(
      routeIssue(
        IssueCode.ROUTE_WAYPOINTS_TOO_MANY,
        `航点数量 ${n} 超过上限 ${WAYPOINT_LIMITS.maxWaypoints}`,
        `${n} waypoints is more than the limit of ${WAYPOINT_LIMITS.maxWaypoints}`,
      ),
    );
  return issues;
}

/** Route-wide settings: speeds and heights above 0 and within limits, cruise speed not above max speed. */
export function routeSettingsIssues(route: Omit<RouteInput, 'waypoints'>): Issue[] {
  const issues: Issue[] = [];
  const speed = (v: number | undefined, code: string, zh: string, en: string) => {
    if (present(v) && !positiveUpTo(v, SPEED_MAX))
      issues.push(routeIssue(code, `${zh}须大于 0 且不超过 ${SPEED_MAX} m/s`, `${en} must be above 0 and at most ${SPEED_MAX} m/s`));
  };
  const height = (v: number | undefined, code: string, zh: string, en: string) => {
    if (present(v) && !positiveUpTo(v, HEIGHT_MAX))
      issues.push(routeIssue(code, `${zh}须大于 0 且不超过 ${HEIGHT_MAX} 米`, `${en} must be above 0 and at most ${HEIGHT_MAX} m`));
  };
  speed(route.auto_speed, IssueCode.ROUTE_AUTO_SPEED, '自动巡航速度', 'Cruise speed');
  speed(route.max_speed, IssueCode.ROUTE_MAX_SPEED, '最大速度', 'Maximum speed');
  height(route.default_height, IssueCode.ROUTE_DEFAULT_HEIGHT, '默认高度', 'Default height');
  height(route.return_height, IssueCode.ROUTE_RETURN_HEIGHT, '返航高度', 'Return height');
  if (finite(route.auto_speed) && finite(route.max_speed) && route.auto_speed > route.max_speed)
    issues.push(
      routeIssue(
        IssueCode.ROUTE_SPEED_ORDER,
        `自动巡航速度 ${issueNumber(route.auto_speed)} m/s 不能大于最大速度 ${issueNumber(route.max_speed)} m/s`,
        `Cruise speed ${issueNumber(route.auto_speed)} m/s must not exceed the maximum speed ${issueNumber(route.max_speed)} m/s`,
      ),
    );
  return issues;
}

/**
 * Per-waypoint values: coordinates; height and speed above 0 and within limits (values cannot be 0);
 * speed not above the route's max speed; camera trigger distance 0 (stop) to 10 km; heading 0-360;
 * gimbal yaw and pitch -180..180; hover a whole number of seconds 0-255; photo action one TakePhoto value
 * (so only one of photo or panorama).
 */
export function waypointValueIssues(waypoints: readonly WaypointInput[], maxSpeed?: number): Issue[] {
  const issues: Issue[] = [];
  const L = WAYPOINT_LIMITS;
  waypoints.forEach((w, i) => {
    if (!isValidLatLng(w)) issues.push(wpIssue(IssueCode.WAYPOINT_COORDINATE, i, '的坐标无效', ' has an invalid coordinate'));
    const at = isValidLatLng(w) ? { lat: w.lat, lng: w.lng } : undefined;
    if (!positiveUpTo(w.height, HEIGHT_MAX))
      issues.push(wpIssue(IssueCode.WAYPOINT_HEIGHT, i, `的高度须大于 0 且不超过 ${HEIGHT_MAX} 米`, `: height must be above 0 and at most ${HEIGHT_MAX} m`, at));
    if (present(w.speed)) {
      if (!positiveUpTo(w.speed, SPEED_MAX))
        issues.push(wpIssue(IssueCode.WAYPOINT_SPEED, i, `的速度须大于 0 且不超过 ${SPEED_MAX} m/s`, `: speed must be above 0 and at most ${SPEED_MAX} m/s`, at));
      else if (finite(maxSpeed) && w.speed > maxSpeed)
        issues.push(
          wpIssue(IssueCode.WAYPOINT_SPEED_ABOVE_MAX, i, `的速度 ${issueNumber(w.speed)} m/s 超过最大速度 ${issueNumber(maxSpeed)} m/s`, `: speed ${issueNumber(w.speed)} m/s is above the maximum speed ${issueNumber(maxSpeed)} m/s`, at),
        );
    }
    if (present(w.cam_trig_dist) && !between(w.cam_trig_dist, 0, CAM_TRIG_DIST_MAX_M))
      issues.push(
        wpIssue(IssueCode.WAYPOINT_TRIGGER_DISTANCE, i, `的拍照间距须在 0 到 ${CAM_TRIG_DIST_MAX_M} 米之间`, `: photo distance must be 0 to ${CAM_TRIG_DIST_MAX_M} m`, at),
      );
    if (present(w.uav_yaw) && !between(w.uav_yaw, L.yawMin, L.yawMax))
      issues.push(wpIssue(IssueCode.WAYPOINT_YAW, i, `的机头朝向须在 ${L.yawMin} 到 ${L.yawMax} 度之间`, `: heading must be ${L.yawMin} to ${L.yawMax} degrees`, at));
    if (present(w.gimbal_ctrl)) {
      if (!between(w.gimbal_ctrl.yaw, L.gimbalMin, L.gimbalMax))
        issues.push(wpIssue(IssueCode.WAYPOINT_GIMBAL_YAW, i, `的云台偏航角须在 ${L.gimbalMin} 到 ${L.gimbalMax} 度之间`, `: gimbal yaw must be ${L.gimbalMin} to ${L.gimbalMax} degrees`, at));
      if (!between(w.gimbal_ctrl.pitch, L.gimbalMin, L.gimbalMax))
        issues.push(
          wpIssue(IssueCode.WAYPOINT_GIMBAL_PITCH, i, `的云台俯仰角须在 ${L.gimbalMin} 到 ${L.gimbalMax} 度之间`, `: gimbal pitch must be ${L.gimbalMin} to ${L.gimbalMax} degrees`, at),
        );
    }
    if (present(w.hover) && !(between(w.hover, L.hoverMin, L.hoverMax) && Number.isInteger(w.hover)))
      issues.push(wpIssue(IssueCode.WAYPOINT_HOVER, i, `的悬停时间须为 ${L.hoverMin} 到 ${L.hoverMax} 秒的整数`, `: hover time must be a whole ${L.hoverMin} to ${L.hoverMax} seconds`, at));
    if (present(w.takephoto) && !TakePhoto.has(w.takephoto))
      issues.push(wpIssue(IssueCode.WAYPOINT_PHOTO, i, '只能选择拍照或全景拍照其中之一', ': choose either a photo or a panorama photo', at));
  });
  return issues;
}

/** Every waypoint inside the fence or on its boundary. */
export function waypointsInFenceIssues(waypoints: readonly LatLng[], fence: Pick<FenceInput, 'boundary'> | PreparedRing): Issue[] {
  const ring = 'contains' in fence ? fence : prepareRing(fence.boundary);
  const issues: Issue[] = [];
  waypoints.forEach((w, i) => {
    if (isValidLatLng(w) && !ring.contains(w))
      issues.push(wpIssue(IssueCode.WAYPOINT_OUTSIDE_FENCE, i, '不在围栏内', ' is outside the fence', { lat: w.lat, lng: w.lng }));
  });
  return issues;
}

const legName = (i: number) => ({ zh: `第 ${i + 1} 到第 ${i + 2} 个航点之间的航线`, en: `The leg from waypoint ${i + 1} to ${i + 2}` });

/**
 * Legs joining two inside waypoints stay inside the fence (a concave fence can be left between them).
 * Legs with an outside end are already reported by waypointsInFenceIssues.
 */
export function legsInFenceIssues(waypoints: readonly LatLng[], fence: Pick<FenceInput, 'boundary'> | PreparedRing): Issue[] {
  const ring = 'contains' in fence ? fence : prepareRing(fence.boundary);
  const issues: Issue[] = [];
  for (let i = 0; i + 1 < waypoints.length; i++) {
    const a = waypoints[i]!;
    const b = waypoints[i + 1]!;
    if (!isValidLatLng(a) || !isValidLatLng(b) || !ring.contains(a) || !ring.contains(b)) continue;
    const out = segmentPointOutside(a, b, ring);
    if (!out) continue;
    const n = legName(i);
    issues.push({ code: IssueCode.LEG_OUTSIDE_FENCE, item: { kind: 'leg', index: i }, text: { zh: `${n.zh}超出围栏`, en: `${n.en} leaves the fence` }, at: out });
  }
  return issues;
}

/** Adjacent waypoints at most `limitM` apart and not at the same place (values cannot be 0). */
export function legDistanceIssues(
  waypoints: readonly (LatLng & { height?: number })[],
  limitM: number = WAYPOINT_DISTANCE_LIMIT_M,
): Issue[] {
  const issues: Issue[] = [];
  for (let i = 0; i + 1 < waypoints.length; i++) {
    const a = waypoints[i]!;
    const b = waypoints[i + 1]!;
    if (!isValidLatLng(a) || !isValidLatLng(b)) continue;
    const d = haversineDistance(a, b);
    const mid = { lat: (a.lat + b.lat) / 2, lng: (a.lng + b.lng) / 2 };
    if (d > limitM) {
      issues.push({
        code: IssueCode.LEG_TOO_LONG,
        item: { kind: 'leg', index: i },
        text: {
          zh: `第 ${i + 1} 与第 ${i + 2} 个航点相距 ${formatDistanceText(d)}，超过 ${formatDistanceText(limitM)} 的限制`,
          en: `Waypoints ${i + 1} and ${i + 2} are ${formatDistanceText(d)} apart (limit ${formatDistanceText(limitM)})`,
        },
        at: mid,
      });
    } else if (d < SAME_PLACE_M && Math.abs((a.height ?? 0) - (b.height ?? 0)) < SAME_PLACE_M) {
      issues.push({
        code: IssueCode.LEG_ZERO_LENGTH,
        item: { kind: 'leg', index: i },
        text: { zh: `第 ${i + 1} 与第 ${i + 2} 个航点位置重合`, en: `Waypoints ${i + 1} and ${i + 2} are at the same place` },
        at: mid,
      });
    }
  }
  return issues;
}

/**
 * No waypoint above the fence's max height. Relative heights (HeightType 0) compare directly; altitude
 * heights (HeightType 1) compare with max height + ground elevation (one number, or one per waypoint),
 * and are not compared where the ground elevation is unknown.
 */
export function waypointHeightAboveFenceIssues(
  waypoints: readonly (LatLng & { height: number })[],
  maxHeight: number,
  heightType = 0,
  groundElevation?: RouteValidationOptions['groundElevation'],
): Issue[] {
  if (!finite(maxHeight)) return [];
  const issues: Issue[] = [];
  waypoints.forEach((w, i) => {
    if (!finite(w.height)) return;
    let limit = maxHeight;
    if (heightType === 1) {
      const g = typeof groundElevation === 'number' ? groundElevation : groundElevation?.[i];
      if (!finite(g)) return;
      limit = maxHeight + g;
    }
    if (w.height <= limit) return;
    const zh = heightType === 1 ? `（地面海拔 ${issueNumber(limit - maxHeight)} 米 + 围栏最大高度 ${issueNumber(maxHeight)} 米）` : '';
    const en = heightType === 1 ? ` (ground ${issueNumber(limit - maxHeight)} m + fence maximum ${issueNumber(maxHeight)} m)` : '';
    issues.push(
      wpIssue(
        IssueCode.WAYPOINT_ABOVE_FENCE,
        i,
        `的高度 ${issueNumber(w.height)} 米超过围栏最大高度 ${issueNumber(limit)} 米${zh}`,
        ` is at ${issueNumber(w.height)} m, above the fence's maximum height of ${issueNumber(limit)} m${en}`,
        isValidLatLng(w) ? { lat: w.lat, lng: w.lng } : undefined,
      ),
    );
  });
  return issues;
}

/**
 * All route rules against the route's fence: counts, settings, waypoint values, adjacent distance, out of
 * the no-fly and restricted map zones given (`opts.zones`) and the company no-fly zones given (`opts.noFly`),
 * inside the fence (points and legs), heights under the fence's max height. A fence whose shape is broken answers one route.fence_invalid issue instead of
 * the fence's geometric checks.
 */
export function validateRoute(
  route: RouteInput,
  fence: Pick<FenceInput, 'boundary' | 'max_height' | 'name' | 'id'> | null,
  opts: RouteValidationOptions = {},
): Issue[] {
  const wps = route.waypoints;
  const issues: Issue[] = [
    ...waypointCountIssues(route),
    ...routeSettingsIssues(route),
    ...waypointValueIssues(wps, route.max_speed),
    ...legDistanceIssues(wps, opts.distanceLimitM ?? WAYPOINT_DISTANCE_LIMIT_M),
    ...(opts.zones ? zoneConflictIssues(wps, opts.zones) : []),
    ...(opts.noFly ? noFlyConflictIssues(wps, opts.noFly) : []),
  ];
  if (!fence) {
    issues.push(routeIssue(IssueCode.ROUTE_NO_FENCE, '航线未绑定围栏', 'The route has no fence'));
    return issues;
  }
  if (fenceShapeIssues(fence).length > 0) {
    issues.push(routeIssue(IssueCode.ROUTE_FENCE_INVALID, '航线绑定的围栏无效', "The route's fence is not valid"));
    return issues;
  }
  const ring = prepareRing(fence.boundary);
  issues.push(...waypointsInFenceIssues(wps, ring));
  if (opts.checkLegs !== false) issues.push(...legsInFenceIssues(wps, ring));
  issues.push(...waypointHeightAboveFenceIssues(wps, fence.max_height, route.height_type ?? 0, opts.groundElevation));
  return issues;
}
