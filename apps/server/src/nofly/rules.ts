import { ZoneKind, textsOf, type LatLng, type Lang, type Text } from '@nest/contracts';
import { firstNoFlyConflict, noFlyApplies, noFlyConflictIssues, noFlyReasonText, zoneLabel, type Issue, type NoFlyInput } from '@nest/geo';
import type { Kysely } from 'kysely';
import type { DB, NoFlyZoneRow } from '../db/schema.js';
import { deviceNoFlyRows, presentNoFly } from './store.js';

/** A zone as geo's no-fly rules read it, with its id. */
export type NoFlyRule = NoFlyInput & { id: string };

/**
 * Which instant a route is checked for:
 * - 'now': takeoff and a timed task firing; the zones that restrict at this moment;
 * - 'ahead': saving a route; the zones that restrict now or at any later moment of their validity (a
 *   route saved today must not cross a zone valid from tomorrow; a zone whose period is over is ignored).
 */
export type NoFlyWhen = 'now' | 'ahead';

const ruleOf = (row: NoFlyZoneRow, now: number): NoFlyRule => {
  const z = presentNoFly(row, now);
  return { id: z.id, name: z.name, reason: z.reason, shape: z.shape, boundary: z.boundary, center: z.center, radius: z.radius, sn_id: z.sn_id, valid_from: z.valid_from, valid_to: z.valid_to };
};

/**
 * The no-fly zones that restrict a route of company `companyId` flown by device `sn` (geo noFlyApplies:
 * the company's zones for every device and the device's own), at `now` or, for 'ahead', at the first
 * moment from `now` on when the zone is valid.
 */
export async function routeNoFly(db: Kysely<DB>, route: { companyId: string; sn: string }, when: NoFlyWhen, now: number): Promise<NoFlyRule[]> {
  const rows = await deviceNoFlyRows(db, route.companyId, route.sn);
  return rows
    .map((r) => ruleOf(r, now))
    .filter((z) => noFlyApplies(z, { sn: route.sn, at: when === 'ahead' ? Math.max(now, z.valid_from ?? now) : now }));
}

/** The zone with its name and reason in one language (a demo zone's texts are stored in Chinese). */
const inLang = (z: NoFlyRule, lang: Lang): NoFlyRule => ({ ...z, name: textsOf(z.name)[lang], reason: textsOf(z.reason)[lang] });

/**
 * geo noFlyConflictIssues, worded in each language with the zone's name and reason as that language shows
 * them: the rule is run once per language (the same issues in the same order), each issue taking its
 * Chinese text from the first run and its English text from the second.
 */
export function noFlyIssues(waypoints: readonly LatLng[], zones: readonly NoFlyRule[]): Issue[] {
  if (zones.length === 0) return [];
  const zh = noFlyConflictIssues(waypoints, zones.map((z) => inLang(z, 'zh')));
  const en = noFlyConflictIssues(waypoints, zones.map((z) => inLang(z, 'en')));
  return zh.map((issue, i) => {
    const other = en[i]!;
    return {
      ...issue,
      text: { zh: issue.text.zh, en: other.text.en },
      ...(issue.group && other.group ? { group: { zh: issue.group.zh, en: other.group.en } } : {}),
    };
  });
}

/** The zone as the pre-flight check names it: kind, name and reason (`禁飞区「学校」（原因：上课时段）`). */
export function noFlyLabel(zone: NoFlyRule): Text {
  const zh = inLang(zone, 'zh');
  const en = inLang(zone, 'en');
  const label = zoneLabel({ type: ZoneKind.NO_FLY, name: { zh: zh.name, en: en.name } });
  return { zh: `${label.zh}${noFlyReasonText(zh).zh}`, en: `${label.en}${noFlyReasonText(en).en}` };
}

/** The first zone the route enters, as the pre-flight check names it, or null when it keeps out of all. */
export function firstNoFlyLabel(waypoints: readonly LatLng[], zones: readonly NoFlyRule[]): Text | null {
  const hit = firstNoFlyConflict(waypoints, zones);
  return hit ? noFlyLabel(hit.zone) : null;
}
