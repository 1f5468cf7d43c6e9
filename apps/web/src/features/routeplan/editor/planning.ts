import { MISSION_LIMITS, ROUTE_FLIGHT_BUDGET_S, inMissionLimit, missionLimitText, type Lang, type LatLng, type MissionLimitField, type Waypoint } from '@nest/contracts';
import {
  IssueCode,
  cameraFromSettings,
  corridorAsSurvey,
  corridorBand,
  corridorFromSettings,
  customCameraIssues,
  gsdFromHeight,
  gsdSensor,
  heightFromGsd,
  issueLines,
  splitSurvey,
  surveyFromSettings,
  validateFence,
  validateRoute,
  type FenceInput,
  type Issue,
  type NoFlyInput,
  type SurveyGrid,
  type ZoneInput,
} from '@nest/geo';
import type { EditMode, RouteDraft, WorkingState } from './store';

/* ------------------------------------------------------------------------------------------------ */
/* Survey parameters: GSD <-> height through the camera of the task (geo)                            */

type CameraSettings = Pick<
  RouteDraft,
  'camera_type' | 'photo_type' | 'sensor_width' | 'sensor_height' | 'image_width' | 'image_height' | 'focal_length'
>;

const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** GSD (cm/px) at a flight height for the task's camera and photo type; null when the camera is incomplete. */
export function gsdForHeight(settings: CameraSettings, height: number): number | null {
  const camera = cameraFromSettings(settings);
  if (!camera || !(height > 0)) return null;
  return round(gsdFromHeight(gsdSensor(camera, settings.photo_type), height), 2);
}

/** Flight height (m, 1 decimal) giving a GSD for the task's camera; null when the camera is incomplete. */
export function heightForGsd(settings: CameraSettings, gsd: number): number | null {
  const camera = cameraFromSettings(settings);
  if (!camera || !(gsd > 0)) return null;
  return round(heightFromGsd(gsdSensor(camera, settings.photo_type), gsd), 1);
}

export interface SurveyPreview {
  grid: SurveyGrid | null;
  issues: Issue[];
  /** Why no grid could be made (geo's RangeError message), when not an issue. */
  error?: string;
}

/**
 * The live survey grid of the area with the task's settings (surveyFromSettings), around the `avoid` rings
 * (the zones restricting the route, geo surveyAvoidRings, as the server makes the grid), or why there is none.
 */
export function surveyPreview(route: RouteDraft, start?: LatLng, avoid?: readonly (readonly LatLng[])[]): SurveyPreview {
  if (route.area.length < 3) return { grid: null, issues: [] };
  try {
    const r = surveyFromSettings(route.area, route, start, avoid?.length ? avoid : undefined);
    return r.grid ? { grid: r.grid, issues: [] } : { grid: null, issues: r.issues };
  } catch (err) {
    return { grid: null, issues: [], error: err instanceof Error ? err.message : String(err) };
  }
}

export interface StripPreview extends SurveyPreview {
  /** The corridor as a ring, to draw as a band (empty before the line has 2 points). */
  band: LatLng[];
}

/**
 * The live corridor grid of a strip route (geo corridorFromSettings: the server's generator), in the shape
 * of a survey grid (corridorAsSurvey), with the band to draw, or why there is none.
 */
export function stripPreview(route: RouteDraft, start?: LatLng): StripPreview {
  if (route.line.length < 2) return { grid: null, issues: [], band: [] };
  const band = corridorBand(route.line, route.corridor_width);
  try {
    const r = corridorFromSettings(route.line, route.corridor_width, route, start);
    return r.grid ? { grid: corridorAsSurvey(r.grid), issues: [], band } : { grid: null, issues: r.issues, band };
  } catch (err) {
    return { grid: null, issues: [], band, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * How many flights a survey or strip grid takes: geo splitSurvey with contracts ROUTE_FLIGHT_BUDGET_S from
 * the take-off point, as the server splits it (1 when it fits one battery; null when part of it is out of
 * reach).
 */
export function flightsNeeded(grid: SurveyGrid, route: RouteDraft, home: LatLng | null): number | null {
  try {
    return splitSurvey(grid, {
      budgetS: ROUTE_FLIGHT_BUDGET_S,
      speed: route.auto_speed,
      maxSpeed: route.max_speed,
      returnHeight: route.return_height,
      finishAction: route.finish_action,
      ...(home ? { takeoff: home } : {}),
    }).length;
  } catch {
    return null;
  }
}

/** Waypoints of a survey grid: entries start photos every trigger distance, exits stop them. */
export function gridWaypoints(grid: SurveyGrid, route: Pick<RouteDraft, 'default_height' | 'auto_speed'>): Waypoint[] {
  return grid.waypoints.map((p, i) => {
    const role = grid.roles[i];
    const wp: Waypoint = { lat: p.lat, lng: p.lng, height: route.default_height };
    if (i === 0) wp.speed = route.auto_speed;
    if (role === 'entry') wp.cam_trig_dist = Math.round(grid.triggerDistance * 100) / 100;
    if (role === 'exit') wp.cam_trig_dist = 0;
    return wp;
  });
}

/* ------------------------------------------------------------------------------------------------ */
/* Validation (geo) and what to highlight on the map                                                 */

export interface OtherFence extends FenceInput {
  id: string;
}

/**
 * Route speeds and heights outside the ranges the server accepts (contracts MISSION_LIMITS), one issue
 * each with the range in its text: the form never moves a value into the range by itself.
 */
export function missionLimitIssues(r: Pick<RouteDraft, MissionLimitField>): Issue[] {
  return (Object.keys(MISSION_LIMITS) as MissionLimitField[])
    .filter((k) => !inMissionLimit(k, r[k]))
    .map((k) => ({ code: LIMIT_CODES[k], item: { kind: 'route' as const }, text: missionLimitText(k) }));
}

/** The geo issue code of each ranged route field (its "above 0" rule, which the range replaces). */
const LIMIT_CODES: Readonly<Record<MissionLimitField, string>> = {
  auto_speed: IssueCode.ROUTE_AUTO_SPEED,
  max_speed: IssueCode.ROUTE_MAX_SPEED,
  default_height: IssueCode.ROUTE_DEFAULT_HEIGHT,
  return_height: IssueCode.ROUTE_RETURN_HEIGHT,
};

/**
 * Every issue of the working state for the mode, from @nest/geo's rules and the server's field ranges;
 * a route (a survey: its generated waypoints) also keeps out of the no-fly and restricted `zones` and of the
 * company no-fly zones restricting its device now (`noFly`, filtered with geo noFlyApplies).
 */
export function validate(
  mode: EditMode,
  s: WorkingState,
  others: readonly OtherFence[],
  fenceOfRoute: FenceInput | null,
  zones: readonly ZoneInput[] = [],
  noFly: readonly NoFlyInput[] = [],
): Issue[] {
  if (mode === 'fence') {
    if (!s.fence) return [];
    return validateFence({ ...s.fence, ...(s.fenceId ? { id: s.fenceId } : {}) }, others);
  }
  const r = s.routeItem;
  if (!r) return [];
  // A field out of its range is said once, with the range (geo's looser "above 0" text for it is dropped).
  const limits = missionLimitIssues(r);
  const limited = new Set(limits.map((i) => i.code));
  const issues = [...limits, ...validateRoute(r, fenceOfRoute, { zones, noFly }).filter((i) => !limited.has(i.code))];
  if (mode === 'survey' || mode === 'strip') {
    if (r.camera_type === 'custom') issues.push(...customCameraIssues(r));
  }
  return issues;
}

/** The survey area is checked as a fence-like ring too: inside the fence is required of its waypoints. */
export interface Highlights {
  /** Boundary points of the edited ring (fence vertices, or survey-area vertices). */
  vertices: Set<number>;
  waypoints: Set<number>;
  /** Legs, by their first waypoint. */
  legs: Set<number>;
  /** Problems of the whole (no item to point at). */
  general: boolean;
  /** Points to mark (issue.at) where there is no index. */
  at: LatLng[];
}

/** Maps issues to the map features to draw in red. */
export function highlightsOf(issues: readonly Issue[]): Highlights {
  const h: Highlights = { vertices: new Set(), waypoints: new Set(), legs: new Set(), general: false, at: [] };
  for (const i of issues) {
    const index = i.item.index;
    if (i.item.kind === 'fence' && index !== undefined) h.vertices.add(index);
    else if (i.item.kind === 'waypoint' && index !== undefined) h.waypoints.add(index);
    else if (i.item.kind === 'leg' && index !== undefined) h.legs.add(index);
    else {
      h.general = true;
      if (i.at) h.at.push(i.at);
    }
  }
  return h;
}

/** Issue texts in a language, each once, in order. */
export const issueTexts = (issues: readonly Issue[], lang: Lang): string[] => [...new Set(issues.map((i) => i.text[lang]))];

/**
 * The issue list's lines in a language: the same waypoint rule broken at many waypoints (a survey above
 * the fence's height) is one line with the count (geo issueLines), each text once, in order.
 */
export const issueLineTexts = (issues: readonly Issue[], lang: Lang): string[] => [...new Set(issueLines(issues).map((l) => l.text[lang]))];

/** The convex hull of points (the survey area of a saved survey, whose polygon is not stored). */
export function convexHull(points: readonly LatLng[]): LatLng[] {
  const pts = [...points].sort((a, b) => a.lng - b.lng || a.lat - b.lat);
  if (pts.length < 3) return pts;
  const cross = (o: LatLng, a: LatLng, b: LatLng) => (a.lng - o.lng) * (b.lat - o.lat) - (a.lat - o.lat) * (b.lng - o.lng);
  const lower: LatLng[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: LatLng[] = [];
  for (const p of [...pts].reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)].map(({ lat, lng }) => ({ lat, lng }));
}
