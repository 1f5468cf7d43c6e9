import { MissionType, type ParsedFields, type Text, type Waypoint } from '@nest/contracts';
import {
  IssueCode,
  corridorAsSurvey,
  fenceShapeIssues,
  isValidLatLng,
  normalizeRing,
  prepareRing,
  routeEstimate,
  surveyAvoidRings,
  surveyFromSettings,
  surveyWaypointOptions,
  surveyWaypoints,
  validateRoute,
  waypointDistanceLimit,
  type FenceInput,
  type Issue,
  type LatLng,
  type SurveyGrid,
  type TerrainProvider,
  type ZoneInput,
} from '@nest/geo';
import type { DeviceRow, MissionRow } from '../db/schema.js';
import { noFlyIssues, type NoFlyRule } from '../nofly/api.js';
import { groundFor } from '../terrain/api.js';
import { budgetParts, gridSettings, needsSplitIssue, stripGrid } from './strip.js';

/**
 * Adjacent-waypoint distance limit (SPEC 5 and 9: "2 km or 5 km"). Decision: by the bound device's type
 * key. A single-soldier drone (`alone`) is flown within the operator's radio range: 2 km. Nests
 * (`stable`, `stable_mini`, `mobile`) fly automatic routes over their own long-range link: 5 km. A fence
 * whose device is gone gets the short limit.
 */
export const allowsLongLegs = (device: Pick<DeviceRow, 'type'> | null | undefined): boolean => !!device && device.type !== 'alone';
export const distanceLimitFor = (device: Pick<DeviceRow, 'type'> | null | undefined): number => waypointDistanceLimit(allowsLongLegs(device));

export const MISSION_WAYPOINT = 1;
export const MISSION_SURVEY = 2;

export type MissionFields = ParsedFields<'missionAdd'>;

export interface PlannedRoute {
  waypoints: Waypoint[];
  survey_polygon: LatLng[] | null;
  distance: number;
  est_time: number;
  /** Set when terrain was wanted but no tile covered the area (flat fallback). */
  terrain_note: Text | null;
  /** Survey facts (null for waypoint routes); a part's photo count is its own. */
  survey: { photo_count: number; line_spacing: number; trigger_distance: number; gsd: number; area: number } | null;
  /** Strip routes: the centre line and corridor width the waypoints were generated from. */
  corridor_line: LatLng[] | null;
  corridor_width: number | null;
}

const surveyIssue = (code: string, zh: string, en: string, index?: number, at?: LatLng): Issue => ({
  code,
  item: { kind: 'route', ...(index !== undefined ? { index } : {}) },
  text: { zh, en },
  ...(at ? { at } : {}),
});

/** The survey area: the `polygon` field (JSON ring) when sent, else the sent waypoints' positions. */
export function surveyPolygonOf(fields: Pick<MissionFields, 'waypoints' | 'polygon'>): LatLng[] {
  return fields.polygon ?? fields.waypoints.map((w) => ({ lat: w.lat, lng: w.lng }));
}

function surveyAreaIssues(polygon: LatLng[] | null, fence: FenceInput | null): Issue[] {
  if (!polygon || polygon.length > 2000) {
    return [surveyIssue(IssueCode.SURVEY_AREA_INVALID, '测区多边形无效', 'The survey area is not a valid polygon')];
  }
  const shape = fenceShapeIssues({ boundary: polygon });
  if (polygon.some((p) => !isValidLatLng(p)) || normalizeRing(polygon).length < 3 || shape.length > 0) {
    return [
      surveyIssue(
        IssueCode.SURVEY_AREA_INVALID,
        '测区至少需要 3 个不重合的顶点，且边界不能自相交',
        'The survey area needs at least 3 distinct corners and must not cross itself',
      ),
    ];
  }
  if (!fence || fenceShapeIssues(fence).length > 0) return [];
  const ring = prepareRing(fence.boundary);
  const issues: Issue[] = [];
  polygon.forEach((p, i) => {
    if (!ring.contains(p))
      issues.push(surveyIssue(IssueCode.SURVEY_OUTSIDE_FENCE, `测区第 ${i + 1} 个顶点不在围栏内`, `Survey area corner ${i + 1} is outside the fence`, i, p));
  });
  return issues;
}

export interface PlanInput {
  fields: MissionFields;
  fence: FenceInput | null;
  device: DeviceRow | null;
  terrain: TerrainProvider;
  /** The map zones (zones/zones.ts publicZones): the route keeps out of the no-fly and restricted ones. */
  zones: readonly ZoneInput[];
  /**
   * The company no-fly zones that restrict the route now or later (nofly/api.ts routeNoFly 'ahead'):
   * waypoints and legs keep out of them (refused with the zone's name and reason); survey grids go around them.
   */
  noFly?: readonly NoFlyRule[];
}

/** The take-off point of a route: the airport of its fence's device (none: the estimate has no home legs). */
export const home = (device: DeviceRow | null): LatLng | undefined =>
  device && device.airport_lat !== null && device.airport_lng !== null ? { lat: Number(device.airport_lat), lng: Number(device.airport_lng) } : undefined;

/**
 * Builds the route the server stores, or the issues refusing it:
 * - area surveys (MissionType 2): the grid is regenerated from the area polygon and the camera settings
 *   (the browser's waypoints are not trusted); strip routes (3): the corridor grid is generated from the
 *   centre line, the width and the camera settings (geo corridorFromSettings);
 * - a survey or strip grid longer than one battery (contracts ROUTE_FLIGHT_BUDGET_S, take-off and return
 *   included) or the waypoint limit is split into parts (strip.ts budgetParts): without the `split` flag
 *   it is refused with the number of parts (route.needs_split), with it every part is planned as a route
 *   of its own (`parts`, the first also being `route`);
 * - with the `elevation` flag a grid's heights follow the terrain tiles, or a flat ground (with
 *   flatTerrain's note) where no tile covers the area; elevations are awaited;
 * - other routes: the sent waypoints; altitude routes (HeightType 1) compare with max height + the ground
 *   from the tiles where covered;
 * - then every geo rule (validateRoute) against the bound fence with the device's distance limit and
 *   the map zones (a grid's generated waypoints are what is checked, part by part).
 */
export async function planRoute(
  input: PlanInput,
): Promise<{ issues: Issue[] } | { issues: []; route: PlannedRoute; parts: PlannedRoute[] | null }> {
  const { fields: f, fence, device } = input;
  const takeoff = home(device);
  const settings = gridSettings(f);
  let polygon: LatLng[] | null = null;
  let corridor: { line: LatLng[]; width: number } | null = null;
  let grid: SurveyGrid | null = null;

  if (f.mission_type === MISSION_SURVEY) {
    polygon = surveyPolygonOf(f);
    const areaIssues = surveyAreaIssues(polygon, fence);
    if (areaIssues.length > 0) return { issues: areaIssues };
    let made: ReturnType<typeof surveyFromSettings>;
    try {
      // The grid goes around the no-fly zones and the restricting map zones (geo surveyAvoidRings).
      made = surveyFromSettings(polygon!, settings, takeoff, surveyAvoidRings(input.noFly ?? [], input.zones));
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      return { issues: [surveyIssue(IssueCode.SURVEY_PARAMS, `测区参数无效：${msg}`, `Survey settings are not valid: ${msg}`)] };
    }
    if (!made.grid) return { issues: made.issues };
    grid = made.grid;
    if (grid.waypoints.length === 0)
      return { issues: [surveyIssue(IssueCode.SURVEY_EMPTY, '测区太小，无法生成航线', 'The survey area is too small for any survey line')] };
  } else if (f.mission_type === MissionType.STRIP) {
    const made = stripGrid(f, takeoff);
    if ('issues' in made) return made;
    grid = corridorAsSurvey(made.grid);
    corridor = { line: f.line!, width: made.grid.width };
  }

  /** One route from its waypoints (a grid's: terrain heights first), validated, with its estimate. */
  const finish = async (sent: Waypoint[], part: SurveyGrid | null): Promise<{ issues: Issue[] } | { route: PlannedRoute }> => {
    let waypoints = sent;
    let note: Text | null = null;
    let survey: PlannedRoute['survey'] = null;
    let groundElevation: number[] | undefined;
    if (part) {
      let terrain: TerrainProvider | undefined;
      if (f.elevation) {
        const probe = [...(takeoff && f.height_type === 0 ? [takeoff] : []), ...part.waypoints];
        const ground = await groundFor(input.terrain, probe);
        terrain = ground.provider;
        note = ground.note ?? null;
      }
      const opts = surveyWaypointOptions(settings, terrain, f.height_type === 0 ? takeoff : undefined);
      waypoints = (await surveyWaypoints(part, opts)).waypoints;
      survey = {
        photo_count: part.photoCount,
        line_spacing: part.lineSpacing,
        trigger_distance: part.triggerDistance,
        gsd: part.gsd,
        area: part.area,
      };
    }
    if (f.height_type === 1 && waypoints.length > 0) {
      const ground = await groundFor(input.terrain, waypoints);
      if (!ground.note) groundElevation = ground.elevations;
    }
    const issues = [
      ...validateRoute({ ...f, waypoints }, fence, {
        distanceLimitM: distanceLimitFor(device),
        zones: input.zones,
        ...(groundElevation ? { groundElevation } : {}),
      }),
    ...noFlyIssues(waypoints, input.noFly ?? []),
    ];
    if (issues.length > 0) return { issues };
    // The one estimate (geo routeEstimate), from the take-off point the editor uses too: the airport of the
    // fence's device. Stored as computed: the list shows it, and saving the same route again gives it again.
    const est = routeEstimate({ ...f, waypoints }, takeoff);
    return {
      route: {
        waypoints,
        survey_polygon: polygon,
        distance: est.distance,
        est_time: est.est_time,
        terrain_note: note,
        survey,
        corridor_line: corridor?.line ?? null,
        corridor_width: corridor?.width ?? null,
      },
    };
  };

  if (!grid) {
    const one = await finish(f.waypoints, null);
    return 'issues' in one ? one : { issues: [], route: one.route, parts: null };
  }
  const split = budgetParts(grid, f, takeoff);
  if ('issues' in split) return split;
  if (split.parts.length === 1) {
    const one = await finish([], grid);
    return 'issues' in one ? one : { issues: [], route: one.route, parts: null };
  }
  if (!f.split) {
    // What is wrong with the route besides its size comes first (a band outside the fence, a zone).
    const whole = await finish([], grid);
    const other = 'issues' in whole ? whole.issues.filter((i) => i.code !== IssueCode.ROUTE_WAYPOINTS_TOO_MANY) : [];
    return { issues: other.length > 0 ? other : [needsSplitIssue(split.parts.length)] };
  }
  const parts: PlannedRoute[] = [];
  for (const part of split.parts) {
    const made = await finish([], part);
    if ('issues' in made) return made;
    parts.push(made.route);
  }
  return { issues: [], route: parts[0]!, parts };
}

/** Issues of a stored route against a (new) fence: used when a fence is edited. */
export function storedRouteIssues(row: MissionRow, fence: FenceInput, device: DeviceRow | null): Issue[] {
  let waypoints: Waypoint[];
  try {
    waypoints = JSON.parse(row.waypoints) as Waypoint[];
  } catch {
    waypoints = [];
  }
  return validateRoute(
    {
      mission_type: Number(row.mission_type),
      height_type: Number(row.height_type),
      auto_speed: Number(row.auto_speed),
      max_speed: Number(row.max_speed),
      default_height: Number(row.default_height),
      return_height: Number(row.return_height),
      waypoints,
    },
    fence,
    { distanceLimitM: distanceLimitFor(device) },
  );
}
