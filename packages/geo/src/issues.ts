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
  /**
   * Waypoint issues: the text after the waypoint's name. A list shows several issues of the same code and
   * the same `group` once with their count (a survey whose height is above the fence: one line, not one
   * per waypoint). Absent: the issue is always its own line.
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
 * Issues as lines to show: waypoint issues with the same code and the same `group` text become one line
 * with their count ("共 12 个航点的高度 200 米超过围栏最大高度 150 米", "Each of 12 waypoints is at 200 m,
 * above ..."), a lone one keeps its own text; the same text is shown once; lines keep the order of their
 * first issue.
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
    seen.line.text = { zh: `共 ${n} 个航点${g.zh}`, en: `Each of ${n} waypoints${g.en}` };
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
