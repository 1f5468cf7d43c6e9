import type { Text } from '@nest/contracts';
import type { LatLng } from './coords.js';

/**
 * A broken rule, ready to show: `code` is stable for programs ('fence.self_intersecting'), `item` names
 * what is wrong (`index` is 0-based; the texts count from 1 as people do), `text` says it in both
 * languages, `at` is where to point on the map. A check answers a list of issues; empty means valid.
 */
export type IssueKind = 'fence' | 'waypoint' | 'leg' | 'route';

/**
 * Every issue code of the fence and route rules (validation.ts, zones.ts, nofly.ts) and of the server's route
 * planning (survey area, fence edits stranding a route). Programs compare with these, never with literals.
 */
export const IssueCode = {
  FENCE_POINTS_TOO_FEW: 'fence.points_too_few',
  FENCE_POINT_INVALID: 'fence.point_invalid',
  FENCE_SELF_INTERSECTING: 'fence.self_intersecting',
  FENCE_AREA_ZERO: 'fence.area_zero',
  FENCE_MAX_HEIGHT: 'fence.max_height',
  FENCE_OVERLAP: 'fence.overlap',
  /** Server: a fence edit would leave a bound route invalid. */
  FENCE_STRANDS_ROUTE: 'fence.strands_route',
  ROUTE_WAYPOINTS_TOO_FEW: 'route.waypoints_too_few',
  ROUTE_WAYPOINTS_TOO_MANY: 'route.waypoints_too_many',
  ROUTE_AUTO_SPEED: 'route.auto_speed',
  ROUTE_MAX_SPEED: 'route.max_speed',
  ROUTE_DEFAULT_HEIGHT: 'route.default_height',
  ROUTE_RETURN_HEIGHT: 'route.return_height',
  ROUTE_SPEED_ORDER: 'route.speed_order',
  ROUTE_NO_FENCE: 'route.no_fence',
  ROUTE_FENCE_INVALID: 'route.fence_invalid',
  WAYPOINT_COORDINATE: 'waypoint.coordinate',
  WAYPOINT_HEIGHT: 'waypoint.height',
  WAYPOINT_SPEED: 'waypoint.speed',
  WAYPOINT_SPEED_ABOVE_MAX: 'waypoint.speed_above_max',
  WAYPOINT_TRIGGER_DISTANCE: 'waypoint.trigger_distance',
  WAYPOINT_YAW: 'waypoint.yaw',
  WAYPOINT_GIMBAL_YAW: 'waypoint.gimbal_yaw',
  WAYPOINT_GIMBAL_PITCH: 'waypoint.gimbal_pitch',
  WAYPOINT_HOVER: 'waypoint.hover',
  WAYPOINT_PHOTO: 'waypoint.photo',
  WAYPOINT_OUTSIDE_FENCE: 'waypoint.outside_fence',
  WAYPOINT_ABOVE_FENCE: 'waypoint.above_fence',
  /** A waypoint inside a no-fly or restricted zone (item.id: the zone). */
  WAYPOINT_IN_ZONE: 'waypoint.in_zone',
  LEG_OUTSIDE_FENCE: 'leg.outside_fence',
  LEG_TOO_LONG: 'leg.too_long',
  LEG_ZERO_LENGTH: 'leg.zero_length',
  /** A leg crossing a no-fly or restricted zone between two waypoints outside it (item.id: the zone). */
  LEG_CROSSES_ZONE: 'leg.crosses_zone',
  /**
   * A waypoint inside a company no-fly zone (nofly.ts; item.id: the no-fly zone). Own codes, apart from
   * the map zones', because the ids are of another kind and the texts carry the zone's reason.
   */
  WAYPOINT_IN_NO_FLY: 'waypoint.in_no_fly',
  /** A leg entering a company no-fly zone between two waypoints outside it (item.id: the no-fly zone). */
  LEG_CROSSES_NO_FLY: 'leg.crosses_no_fly',
  /** Server: the survey area polygon is not usable. */
  SURVEY_AREA_INVALID: 'survey.area_invalid',
  /** Server: a survey area corner outside the fence. */
  SURVEY_OUTSIDE_FENCE: 'survey.outside_fence',
  /** Server: no grid can be made with the survey settings. */
  SURVEY_PARAMS: 'survey.params',
  /** Server: the survey area is too small for any survey line. */
  SURVEY_EMPTY: 'survey.empty',
  /** Server: a strip route's centre line is not usable (fewer than 2 distinct points, bad coordinates). */
  STRIP_LINE_INVALID: 'strip.line_invalid',
  /** Server: a survey or strip route longer than one battery or the waypoint limit, saved without `split`. */
  ROUTE_NEEDS_SPLIT: 'route.needs_split',
} as const;
export type IssueCode = (typeof IssueCode)[keyof typeof IssueCode];

export interface IssueItem {
  kind: IssueKind;
  /** 0-based: the waypoint, the leg (from waypoint `index` to `index + 1`) or the boundary point. */
  index?: number;
  /** The fence (or other object) concerned, when it has an id. */
  id?: string;
}

export interface Issue {
  code: string;
  item: IssueItem;
  text: Text;
  at?: LatLng;
  /**
   * Waypoint and leg issues: the text after the waypoint's (or leg's) name. A list shows several issues of
   * the same code and the same `group` once with their count (a survey whose height is above the fence:
   * one line, not one per waypoint). Absent: the issue is always its own line.
   */
  group?: Text;
}

/** One line of an issue list: the text, and how many issues it stands for. */
export interface IssueLine {
  code: string;
  text: Text;
  count: number;
}

/**
 * Issues as lines to show: waypoint (or leg) issues with the same code and the same `group` text become one
 * line with their count ("共 12 个航点的高度 200 米超过围栏最大高度 150 米", "Each of 12 waypoints is at
 * 200 m, above ..."; "共 3 段航线穿过…", "Each of 3 legs crosses ..."), a lone one keeps its own text; the
 * same text is shown once; lines keep the order of their first issue.
 */
export function issueLines(issues: readonly Issue[]): IssueLine[] {
  const lines: IssueLine[] = [];
  const byKey = new Map<string, { line: IssueLine; first: Issue }>();
  for (const i of issues) {
    const key = i.group ? `g\u0000${i.code}\u0000${i.group.zh}\u0000${i.group.en}` : `t\u0000${i.text.zh}\u0000${i.text.en}`;
    const seen = byKey.get(key);
    if (!seen) {
      const line = { code: i.code, text: i.text, count: 1 };
      byKey.set(key, { line, first: i });
      lines.push(line);
      continue;
    }
    // The same text again (not another item) counts once.
    if (seen.first.text.zh === i.text.zh && seen.first.text.en === i.text.en) continue;
    seen.line.count++;
    const g = i.group!;
    const n = seen.line.count;
    seen.line.text =
      seen.first.item.kind === 'leg' ? { zh: `共 ${n} 段航线${g.zh}`, en: `Each of ${n} legs${g.en}` } : { zh: `共 ${n} 个航点${g.zh}`, en: `Each of ${n} waypoints${g.en}` };
  }
  return lines;
}

/** Numbers inside texts: at most 2 decimals, no trailing zeros. */
export const issueNumber = (v: number): string => (Number.isFinite(v) ? String(Math.round(v * 100) / 100) : String(v));

export const waypointName = (index: number): Text => ({ zh: `第 ${index + 1} 个航点`, en: `Waypoint ${index + 1}` });

export const fenceName = (name?: string | null): Text =>
  name ? { zh: `围栏「${name}」`, en: `Fence "${name}"` } : { zh: '围栏', en: 'The fence' };

/** Whether any issue carries the code (or starts with `prefix.`). */
export const hasIssue = (issues: readonly Issue[], codeOrPrefix: string): boolean =>
  issues.some((i) => i.code === codeOrPrefix || i.code.startsWith(`${codeOrPrefix}.`));
