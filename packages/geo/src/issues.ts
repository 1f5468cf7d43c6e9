import type { Text } from '@nest/contracts';
import type { LatLng } from './coords.js';

/**
 * A broken rule, ready to show: `code` is stable for programs ('fence.self_intersecting'), `item` names
 * what is wrong (`index` is 0-based; the texts count from 1 as people do), `text` says it in both
 * languages, `at` is where to point on the map. A check answers a list of issues; empty means valid.
 */
export type IssueKind = 'fence' | 'waypoint' | 'leg' | 'route';

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
}

/** Numbers inside texts: at most 2 decimals, no trailing zeros. */
export const issueNumber = (v: number): string => (Number.isFinite(v) ? String(Math.round(v * 100) / 100) : String(v));

export const waypointName = (index: number): Text => ({ zh: `第 ${index + 1} 个航点`, en: `Waypoint ${index + 1}` });

export const fenceName = (name?: string | null): Text =>
  name ? { zh: `围栏「${name}」`, en: `Fence "${name}"` } : { zh: '围栏', en: 'The fence' };

/** Whether any issue carries the code (or starts with `prefix.`). */
export const hasIssue = (issues: readonly Issue[], codeOrPrefix: string): boolean =>
  issues.some((i) => i.code === codeOrPrefix || i.code.startsWith(`${codeOrPrefix}.`));
