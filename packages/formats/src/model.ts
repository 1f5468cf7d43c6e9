import type { LatLng, MissionSettings, NoFlyZone, Waypoint } from '@nest/contracts';

/**
 * The neutral model every reader produces and every writer consumes. One model for all formats keeps
 * the conversions N + N instead of N x N.
 *
 * Conventions:
 * - Positions are WGS84 decimal degrees `{lat, lng}` (never GCJ-02: convert at the map boundary).
 * - Heights are metres, in the reference named by the route's `height_type` (HeightType: 0 relative to
 *   the take-off point, 1 altitude above sea level).
 * - Rings (fence boundaries, survey polygons) are OPEN: the closing point is not repeated, as in the
 *   contracts' fenceSchema. Writers close them where the format wants a closed ring.
 * - Waypoints are the contracts' Waypoint (lat, lng, height and optional actions); an absent action is
 *   not performed. A few optional fields beyond it (PlanWaypoint) keep what a file says exactly where the
 *   console's route has no place for it, so a file converted to its own format comes back unchanged;
 *   checkAgainstTask hands the console plain contracts waypoints.
 */

export type MissionTypeValue = MissionSettings['mission_type'];
export type HeightTypeValue = MissionSettings['height_type'];
export type FinishActionValue = MissionSettings['finish_action'];
export type CameraTypeValue = MissionSettings['camera_type'];

/** A work fence: a closed area (open ring of >= 3 points) and an optional ceiling in metres. */
export interface PlanFence {
  name: string;
  boundary: LatLng[];
  max_height?: number;
}

/**
 * A no-fly zone (an exclusion area inside the working area): the contracts' NoFlyZone fields a file can
 * carry, so `{...zone, boundary: JSON.stringify(zone.boundary), center: ...}` is a noFlyAdd request.
 * `shape` NoFlyShape: 1 polygon (`boundary` open ring, `center`/`radius` null), 2 circle (`center`,
 * `radius` m, `boundary` []).
 */
export type PlanNoFly = Pick<NoFlyZone, 'name' | 'shape' | 'boundary' | 'center' | 'radius'> & { reason?: string };

/**
 * How a file gave one waypoint's altitude, where it differs from the route's height type (0 relative,
 * 1 above sea level): `relative` to the take-off point, `amsl` above sea level, `terrain` above the
 * terrain under the waypoint (QGC frame 10), `terrain_calc` above terrain with the sea-level altitude
 * computed by the planner (QGC AltitudeMode 3: `height` is the height above terrain, `amsl` the computed
 * value, absent while the planner had no terrain).
 */
export type AltitudeFrame = 'relative' | 'amsl' | 'terrain' | 'terrain_calc';

/** A waypoint with what a file says beyond the contracts' Waypoint (every field optional). */
export interface PlanWaypoint extends Waypoint {
  /** Altitude reference of this waypoint when it is not the route's. */
  alt_mode?: AltitudeFrame;
  /** The planner's computed sea-level altitude of a `terrain_calc` waypoint. */
  amsl?: number;
  /**
   * The altitude the file gave when the console cannot fly it: null when the file gave none, a value at or
   * below 0 otherwise. `height` then holds the route's default height.
   */
  file_alt?: number | null;
  /** Hold seconds exactly as the file gave them, when `hover` (whole seconds, 0-255) cannot carry them. */
  hold?: number;
  /** The file holds this waypoint as a timed loiter (QGC NAV_LOITER_TIME) with this radius (m, 0 none). */
  loiter?: { radius: number };
  /**
   * Region of interest set after this waypoint is reached: from the next waypoint on the aircraft and
   * gimbal point at it (null: the region of interest is cleared). `alt` in the route's height type.
   */
  roi?: { lat: number; lng: number; alt: number } | null;
  /** `uav_yaw` and `gimbal_ctrl` of this waypoint were computed from a region of interest, not given. */
  aimed?: true;
}

/**
 * The route's take-off item (QGC NAV_TAKEOFF): its own position (null where the file gives none, as
 * ArduPilot's take-off at the vehicle does) and climb altitude in `alt_mode` (the route's height type when
 * absent; null when the file gave none).
 */
export interface PlanTakeoff {
  at: LatLng | null;
  alt: number | null;
  alt_mode?: AltitudeFrame;
  /** The planner's computed sea-level altitude of a `terrain_calc` take-off. */
  amsl?: number;
}

/** Route-wide settings a file may carry; every field optional (names as in the contracts' mission settings). */
export type RouteSettings = Partial<
  Pick<MissionSettings, 'auto_speed' | 'max_speed' | 'default_height' | 'return_height' | 'finish_action' | 'elevation'>
>;

/** A flight route: waypoints in flying order. */
export interface PlanRoute {
  name: string;
  mission_type: MissionTypeValue;
  height_type: HeightTypeValue;
  waypoints: PlanWaypoint[];
  settings?: RouteSettings;
  /** The take-off item's own position and climb altitude, when the file has one. */
  takeoff?: PlanTakeoff;
  /** Where a landing finish lands when the file gives it a place other than the last waypoint. */
  land_at?: LatLng;
}

/**
 * Survey (area mapping) parameters a file may carry. Names follow the contracts' mission settings:
 * `angle` grid direction (degrees), `course_overlap` front and `lateral_overlap` side overlap (percent),
 * `turn_distance` run-out beyond each line (m), `default_height` flying height (m) in `height_type`,
 * camera by type or by its numbers (`sensor_*` mm, `image_*` px, `focal_length` mm); `camera_name` is
 * the name a planner gave it (QGC CameraName).
 */
export type SurveyParams = Partial<
  Pick<
    MissionSettings,
    | 'angle'
    | 'course_overlap'
    | 'lateral_overlap'
    | 'turn_distance'
    | 'default_height'
    | 'height_type'
    | 'auto_speed'
    | 'finish_action'
    | 'camera_type'
    | 'sensor_width'
    | 'sensor_height'
    | 'image_width'
    | 'image_height'
    | 'focal_length'
    | 'elevation'
    | 'interval_height'
    | 'photo_type'
  >
> & { camera_name?: string };

/** The numeric survey settings every format carries (as properties, ExtendedData, ...). */
export const SURVEY_NUMERIC_PARAMS = [
  'angle',
  'course_overlap',
  'lateral_overlap',
  'turn_distance',
  'default_height',
  'auto_speed',
  'sensor_width',
  'sensor_height',
  'image_width',
  'image_height',
  'focal_length',
  'interval_height',
] as const;

/** A survey area: the polygon to cover with a lawnmower grid, plus how a planner set it up. */
export interface PlanSurvey {
  name: string;
  polygon: LatLng[];
  params?: SurveyParams;
}

/**
 * A strip (corridor) scan: photos along a line, `width` metres wide in all (half on each side), with
 * the survey settings that fit it (overlaps, camera, `default_height`, `height_type`, `turn_distance`,
 * `elevation`, `interval_height`). @nest/geo generates its route (corridorFromSettings).
 */
export interface PlanCorridor {
  name: string;
  line: LatLng[];
  width: number;
  params?: SurveyParams;
}

/**
 * Mission-level values of a QGC plan kept so a plan written back says the same: autopilot and vehicle
 * (MAV_AUTOPILOT, MAV_TYPE), cruise and hover speeds (m/s), planned home position (altitude above sea
 * level) and the plan's altitude mode.
 */
export interface PlanVehicle {
  firmwareType?: number;
  vehicleType?: number;
  cruiseSpeed?: number;
  hoverSpeed?: number;
  home?: { lat: number; lng: number; alt: number };
  globalPlanAltitudeMode?: number;
}

/** What one file holds, in the order the file gives them. */
export interface PlanDocument {
  /** Document title if the file has one. */
  name?: string;
  fences: PlanFence[];
  routes: PlanRoute[];
  surveys: PlanSurvey[];
  /** No-fly zones (readers always fill it; writers take a missing list as none). */
  noFlyZones?: PlanNoFly[];
  /** Strip scans (readers always fill it; writers take a missing list as none). */
  corridors?: PlanCorridor[];
  vehicle?: PlanVehicle;
}

export const emptyDocument = (name?: string): PlanDocument => ({
  ...(name ? { name } : {}),
  fences: [],
  routes: [],
  surveys: [],
  noFlyZones: [],
  corridors: [],
});

/** A no-fly zone's outline: its ring, or its centre for a circle. */
export const noFlyPositions = (z: PlanNoFly): LatLng[] => (z.center ? [z.center] : z.boundary);

export interface BoundingBox {
  minLat: number;
  minLng: number;
  maxLat: number;
  maxLng: number;
}

/** Every position of a document (fence and survey vertices, waypoints). */
export function* documentPositions(doc: PlanDocument): Generator<LatLng> {
  for (const f of doc.fences) yield* f.boundary;
  for (const r of doc.routes) yield* r.waypoints;
  for (const s of doc.surveys) yield* s.polygon;
  for (const z of doc.noFlyZones ?? []) yield* noFlyPositions(z);
  for (const c of doc.corridors ?? []) yield* c.line;
}

/** Bounding box of all positions, or null for an empty document. */
export function boundingBox(doc: PlanDocument): BoundingBox | null {
  let box: BoundingBox | null = null;
  for (const p of documentPositions(doc)) {
    if (!box) box = { minLat: p.lat, minLng: p.lng, maxLat: p.lat, maxLng: p.lng };
    else {
      box.minLat = Math.min(box.minLat, p.lat);
      box.maxLat = Math.max(box.maxLat, p.lat);
      box.minLng = Math.min(box.minLng, p.lng);
      box.maxLng = Math.max(box.maxLng, p.lng);
    }
  }
  return box;
}

export const isEmptyDocument = (doc: PlanDocument): boolean =>
  doc.fences.length === 0 &&
  doc.routes.length === 0 &&
  doc.surveys.length === 0 &&
  !doc.noFlyZones?.length &&
  !doc.corridors?.length;
