import { formatDateTime, type Fence, type Lang, type LatLng, type NoFlyZone } from '@nest/contracts';
import type { PlanNoFly } from '@nest/formats';
import { noFlyApplies, noFlyConflictIssues, type Issue } from '@nest/geo';

/**
 * What the route planning screens say about company no-fly zones: which zones restrict a route, the
 * route's first conflict (geo's rule, the one the server applies at save and takeoff), and a zone's
 * validity period in the operator's language.
 */

/** A route crossing a no-fly zone that restricts it: drawn in this red, as the editor draws a bad leg. */
export const BLOCKED_COLOR = '#ef4444';

/** Now, in unix seconds, as the zones' validity periods are written. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The zones restricting the routes of a fence's device at `at` (unix s): geo noFlyApplies. */
export function zonesFor(zones: readonly NoFlyZone[], fence: Pick<Fence, 'sn_id'> | null, at: number): NoFlyZone[] {
  return zones.filter((z) => noFlyApplies(z, { sn: fence?.sn_id || null, at }));
}

/**
 * The first conflict of a saved route with the no-fly zones restricting it now (null when it keeps out of
 * every one): its text names the zone and its reason.
 */
export function routeConflict(
  waypoints: readonly LatLng[],
  fence: Pick<Fence, 'sn_id'> | null,
  zones: readonly NoFlyZone[],
  at: number,
): Issue | null {
  const restricting = zonesFor(zones, fence, at);
  if (restricting.length === 0 || waypoints.length === 0) return null;
  return noFlyConflictIssues(waypoints, restricting)[0] ?? null;
}

/** A route blocked by a zone being drawn. */
export interface BlockedRoute {
  id: string;
  name: string;
  issue: Issue;
}

/**
 * The saved routes a zone (as drawn, not yet saved) would block: those of a device it applies to, crossing
 * it, while it is valid. A zone valid later is checked as of its start, so the warning tells what it will
 * block; one already expired blocks nothing.
 */
export function routesBlockedBy(
  zone: Pick<NoFlyZone, 'name' | 'reason' | 'shape' | 'boundary' | 'center' | 'radius' | 'sn_id' | 'valid_from' | 'valid_to'>,
  routes: readonly { id: string; name: string; fence_id: string; waypoints: readonly LatLng[] }[],
  fences: ReadonlyMap<string, Pick<Fence, 'sn_id'>>,
  at: number,
): BlockedRoute[] {
  const when = zone.valid_from !== null && zone.valid_from > at ? zone.valid_from : at;
  return routes.flatMap((r) => {
    const fence = fences.get(r.fence_id) ?? null;
    if (!noFlyApplies(zone, { sn: fence?.sn_id || null, at: when })) return [];
    const issue = noFlyConflictIssues(r.waypoints, [zone])[0];
    return issue ? [{ id: r.id, name: r.name, issue }] : [];
  });
}

/** Date and minute of a period's end (unix s) in the language's one format (contracts formatDateTime). */
const when = (seconds: number, lang: Lang): string => formatDateTime(seconds * 1000, lang, false);

/**
 * The validity period as the list shows it: both ends, one of them, or none (`长期有效` / `No time limit`),
 * from the feature's texts (`t`) with the dates in the language's format.
 */
export function validityText(
  zone: Pick<NoFlyZone, 'valid_from' | 'valid_to'>,
  lang: Lang,
  t: (key: 'routeplan.nofly.valid.always' | 'routeplan.nofly.valid.from' | 'routeplan.nofly.valid.until' | 'routeplan.nofly.valid.range', vars?: Record<string, string>) => string,
): string {
  const { valid_from: from, valid_to: to } = zone;
  if (from === null && to === null) return t('routeplan.nofly.valid.always');
  if (to === null) return t('routeplan.nofly.valid.from', { from: when(from!, lang) });
  if (from === null) return t('routeplan.nofly.valid.until', { to: when(to, lang) });
  return t('routeplan.nofly.valid.range', { from: when(from, lang), to: when(to, lang) });
}

/** Degrees within which two corners are the same (files keep positions to 1e-7 degrees). */
const SAME_DEG = 1e-7;
const samePoint = (a: LatLng, b: LatLng): boolean => Math.abs(a.lat - b.lat) <= SAME_DEG && Math.abs(a.lng - b.lng) <= SAME_DEG;

/**
 * Whether a zone read from a file is one the company has already (same shape and geometry; the name is
 * not compared, as a QGC plan keeps none): a re-imported export does not create its zones twice.
 */
export function zoneExists(z: PlanNoFly, existing: readonly NoFlyZone[]): boolean {
  return existing.some(
    (e) =>
      e.shape === z.shape &&
      (z.center
        ? !!e.center && samePoint(e.center, z.center) && Math.abs((e.radius ?? 0) - (z.radius ?? 0)) <= 0.01
        : e.boundary.length === z.boundary.length && e.boundary.every((p, i) => samePoint(p, z.boundary[i]!))),
  );
}
