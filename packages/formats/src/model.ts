import type { LatLng, MissionSettings, Waypoint } from '@nest/contracts';

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
 *   not performed.
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

/** Route-wide settings a file may carry; every field optional (names as in the contracts' mission settings). */
export type RouteSettings = Partial<
  Pick<MissionSettings, 'auto_speed' | 'max_speed' | 'default_height' | 'return_height' | 'finish_action' | 'elevation'>
>;

/** A flight route: waypoints in flying order. */
export interface PlanRoute {
  name: string;
  mission_type: MissionTypeValue;
  height_type: HeightTypeValue;
  waypoints: Waypoint[];
  settings?: RouteSettings;
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
] as const;

/** A survey area: the polygon to cover with a lawnmower grid, plus how a planner set it up. */
export interface PlanSurvey {
  name: string;
  polygon: LatLng[];
  params?: SurveyParams;
}

/** What one file holds, in the order the file gives them. */
export interface PlanDocument {
  /** Document title if the file has one. */
  name?: string;
  fences: PlanFence[];
  routes: PlanRoute[];
  surveys: PlanSurvey[];
}

export const emptyDocument = (name?: string): PlanDocument => ({
  ...(name ? { name } : {}),
  fences: [],
  routes: [],
  surveys: [],
});

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
  doc.fences.length === 0 && doc.routes.length === 0 && doc.surveys.length === 0;
