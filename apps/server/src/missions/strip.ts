import { ROUTE_FLIGHT_BUDGET_S, WAYPOINT_LIMITS, type ParsedFields } from '@nest/contracts';
import {
  IssueCode,
  corridorFromSettings,
  isValidLatLng,
  splitSurvey,
  type CorridorGrid,
  type Issue,
  type LatLng,
  type SurveyGrid,
} from '@nest/geo';

type Fields = ParsedFields<'missionAdd'>;

const routeIssue = (code: string, zh: string, en: string): Issue => ({ code, item: { kind: 'route' }, text: { zh, en } });

/** The survey settings with the defaults area surveys use when a field is absent. */
export const gridSettings = (f: Fields) => ({
  ...f,
  course_overlap: f.course_overlap ?? 80,
  lateral_overlap: f.lateral_overlap ?? 70,
  angle: f.angle ?? 0,
  turn_distance: f.turn_distance ?? 0,
  interval_height: f.interval_height ?? 0,
});

/**
 * A strip route's corridor grid (geo corridorFromSettings) from the `line` and `corridor_width` fields,
 * starting at the band's corner nearest the take-off point, or the issues refusing it. The fence and
 * zones are checked on the generated waypoints afterwards (planRoute), like an area survey's.
 */
export function stripGrid(f: Fields, takeoff: LatLng | undefined): { grid: CorridorGrid } | { issues: Issue[] } {
  const line = f.line ?? [];
  const distinct = line.filter((p, i) => i === 0 || p.lat !== line[i - 1]!.lat || p.lng !== line[i - 1]!.lng);
  if (line.some((p) => !isValidLatLng(p)) || distinct.length < 2)
    return {
      issues: [
        routeIssue(IssueCode.STRIP_LINE_INVALID, '带状航线的中心线至少需要 2 个不重合的点', 'The strip route needs a centre line of at least 2 distinct points'),
      ],
    };
  const width = f.corridor_width ?? 0;
  try {
    const made = corridorFromSettings(line, width, gridSettings(f), takeoff);
    if (!made.grid) return { issues: made.issues };
    if (made.grid.waypoints.length === 0)
      return { issues: [routeIssue(IssueCode.SURVEY_EMPTY, '带状区域太小，无法生成航线', 'The corridor is too small for any line')] };
    return { grid: made.grid };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return { issues: [routeIssue(IssueCode.SURVEY_PARAMS, `带状航线参数无效：${msg}`, `Strip route settings are not valid: ${msg}`)] };
  }
}

/**
 * The parts a survey or strip grid is flown in: one when it fits ROUTE_FLIGHT_BUDGET_S (take-off, the
 * flight from and back to the take-off point included) and the waypoint limit, else geo splitSurvey's
 * parts, nearest the take-off point first. The budget is checked on the grid at its flat height; terrain
 * following adds waypoints but little time, and each part's own waypoints are checked again afterwards.
 */
export function budgetParts(grid: SurveyGrid, f: Fields, takeoff: LatLng | undefined): { parts: SurveyGrid[] } | { issues: Issue[] } {
  try {
    const parts = splitSurvey(grid, {
      budgetS: ROUTE_FLIGHT_BUDGET_S,
      speed: f.auto_speed,
      maxSpeed: f.max_speed,
      returnHeight: f.return_height,
      finishAction: f.finish_action,
      maxWaypoints: WAYPOINT_LIMITS.maxWaypoints,
      ...(takeoff ? { takeoff } : {}),
    });
    return { parts };
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    const minutes = ROUTE_FLIGHT_BUDGET_S / 60;
    return {
      issues: [
        routeIssue(
          IssueCode.SURVEY_PARAMS,
          `部分航线离机场太远，${minutes} 分钟内无法往返`,
          `Part of the route is too far from the take-off point to fly there and back within ${minutes} min`,
        ),
      ],
    };
  }
}

/** The refusal of a route too long for one battery saved without `split`: how many flights it takes. */
export function needsSplitIssue(parts: number): Issue {
  const minutes = ROUTE_FLIGHT_BUDGET_S / 60;
  const max = WAYPOINT_LIMITS.maxWaypoints;
  return routeIssue(
    IssueCode.ROUTE_NEEDS_SPLIT,
    `航线超出单次飞行能力（每架次最多 ${minutes} 分钟、${max} 个航点），需拆分为 ${parts} 个架次；请选择拆分保存`,
    `The route is longer than one flight (at most ${minutes} min and ${max} waypoints each): it takes ${parts} flights; save it split`,
  );
}

/** A part's " (2/3)" suffix. */
const PART_SUFFIX = / \(\d+\/\d+\)$/;

/** A route name without its part suffix (the name a group's parts share). */
export const groupBaseName = (name: string): string => name.replace(PART_SUFFIX, '');

/** "Name (2/3)": a part's name, the base cut so the whole stays within the 64-character name limit. */
export function partName(name: string, index: number, count: number): string {
  const tail = ` (${index}/${count})`;
  return groupBaseName(name).slice(0, 64 - tail.length) + tail;
}
