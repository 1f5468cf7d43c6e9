import { ZoneKind, ZoneType, type Text } from '@nest/contracts';
import { isValidLatLng, type LatLng } from './coords.js';
import { IssueCode, waypointName, type Issue } from './issues.js';
import { prepareRing, segmentPieceMiddles, type PreparedRing } from './polygon.js';

/**
 * Map zones a route must keep out of (the zones resource: contracts ZoneType 1 no-fly, 2 restricted,
 * 3 work). One rule, used by the route editor, the server's save and its pre-flight check:
 * - only no-fly and restricted zones restrict routes; work zones (and kinds this code does not know) are
 *   only drawn;
 * - the boundary belongs to the zone, as it belongs to a fence: a waypoint inside a zone or within
 *   BOUNDARY_TOLERANCE_M (5 cm) of its edge conflicts;
 * - a leg conflicts when some stretch of the straight leg lies in the zone (inside, or along its edge):
 *   a leg crossing a zone between two waypoints outside it is refused; a leg that only touches a corner,
 *   or passes through a concave notch of the zone without entering it, is not. A leg with an end inside
 *   the zone is reported through that waypoint only, so each conflict is said once;
 * - a survey (area) route is checked on its generated waypoints: the caller passes them.
 * Legs are straight in degrees, as the map draws them and as fence legs are checked (polygon.ts).
 * Company no-fly zones (nofly.ts) are checked by the same rule (keepOutIssues) with their own codes.
 */

export interface ZoneInput {
  id?: string;
  /** ZoneType value. */
  type: number;
  name: Text;
  paths: readonly LatLng[];
}

/** Whether routes must keep out of zones of this kind (no-fly and restricted). */
export const zoneRestrictsRoutes = (type: number): boolean => type === ZoneKind.NO_FLY || type === ZoneKind.RESTRICTED;

/** The zone on its own: its kind, then its name (`限飞区「深圳河」`, `Restricted zone "Shenzhen River"`). */
export function zoneLabel(zone: Pick<ZoneInput, 'type' | 'name'>): Text {
  return { zh: `${ZoneType.label(zone.type, 'zh')}「${zone.name.zh}」`, en: `${ZoneType.label(zone.type, 'en')} "${zone.name.en}"` };
}

/** The zone inside a sentence (`限飞区「深圳河」`, `the restricted zone "Shenzhen River"`). */
export const zoneInText = (zone: Pick<ZoneInput, 'type' | 'name'>): Text => ({
  zh: zoneLabel(zone).zh,
  en: `the ${ZoneType.label(zone.type, 'en').toLowerCase()} "${zone.name.en}"`,
});

/**
 * A place routes must keep out of, as the conflict rule sees it: map zones (below) and company no-fly
 * zones (nofly.ts) are both turned into regions, so both follow the one rule of keepOutIssues.
 */
export interface KeepOutRegion {
  /** Carried as the issues' item id. */
  id?: string;
  /** The region inside a sentence: `禁飞区「实验小学」` / `the no-fly zone "Primary school"`. */
  name: Text;
  /** Said after the conflict (e.g. the reason of a no-fly zone); absent: nothing. */
  suffix?: Text;
  /** Issue codes for a waypoint inside and for a leg crossing. */
  codes: { waypoint: string; leg: string };
  /** Inside or on the boundary (the boundary belongs to the region). */
  contains(p: LatLng): boolean;
  /** A point of the straight leg ab inside the region, or null when the leg stays out (touching is staying out). */
  legPoint(a: LatLng, b: LatLng): LatLng | null;
}

/**
 * A polygon as a region: inside or within BOUNDARY_TOLERANCE_M of its edge; a leg enters when some piece
 * of it lies inside or along the edge (legPointInZone). Null for fewer than 3 distinct points or invalid
 * coordinates (such a shape restricts nothing; the editors refuse it).
 */
export function ringRegion(points: readonly LatLng[]): Pick<KeepOutRegion, 'contains' | 'legPoint'> | null {
  if (!points.every(isValidLatLng)) return null;
  const ring = prepareRing(points);
  if (ring.ring.length < 3) return null;
  const lats = ring.ring.map((p) => p.lat);
  const lngs = ring.ring.map((p) => p.lng);
  const box = { minLat: Math.min(...lats), maxLat: Math.max(...lats), minLng: Math.min(...lngs), maxLng: Math.max(...lngs) };
  return {
    contains: (p) => !legMissesBox(p, p, box) && ring.contains(p),
    legPoint: (a, b) => (legMissesBox(a, b, box) ? null : legPointInZone(a, b, ring)),
  };
}

/** Degrees added around a zone's box before a leg is skipped: far above the 5 cm tolerance at any latitude. */
const BOX_MARGIN_DEG = 1e-5;

const legMissesBox = (a: LatLng, b: LatLng, box: { minLat: number; maxLat: number; minLng: number; maxLng: number }): boolean =>
  Math.max(a.lat, b.lat) < box.minLat - BOX_MARGIN_DEG ||
  Math.min(a.lat, b.lat) > box.maxLat + BOX_MARGIN_DEG ||
  Math.max(a.lng, b.lng) < box.minLng - BOX_MARGIN_DEG ||
  Math.min(a.lng, b.lng) > box.maxLng + BOX_MARGIN_DEG;

/**
 * A point of the straight leg ab inside the zone or on its edge, or null when the leg stays out (touching
 * a corner, or passing a concave notch, is staying out). The leg is cut at every meeting with the zone's
 * edges; each piece lies wholly inside, outside or along the edge, so its middle tells.
 */
export function legPointInZone(a: LatLng, b: LatLng, ring: PreparedRing): LatLng | null {
  return segmentPieceMiddles(a, b, ring.ring).find((m) => ring.contains(m)) ?? null;
}

/**
 * The conflicts of a route (its waypoints in order) with regions, region by region: the waypoint code per
 * waypoint inside, the leg code per leg entering the region between two waypoints outside it (a leg with
 * an end inside is reported through that waypoint only, so each conflict is said once). Texts name the
 * region and add its suffix; `at` is the waypoint, or a point of the leg inside the region. Waypoints with
 * invalid coordinates are skipped (waypointValueIssues reports them).
 */
export function keepOutIssues(waypoints: readonly LatLng[], regions: readonly KeepOutRegion[]): Issue[] {
  const issues: Issue[] = [];
  for (const r of regions) {
    const id = r.id !== undefined ? { id: r.id } : {};
    const after = r.suffix ?? { zh: '', en: '' };
    const inside = waypoints.map((w) => isValidLatLng(w) && r.contains(w));
    waypoints.forEach((w, i) => {
      if (!inside[i]) return;
      const group = { zh: `在${r.name.zh}内${after.zh}`, en: ` is inside ${r.name.en}${after.en}` };
      const n = waypointName(i);
      issues.push({
        code: r.codes.waypoint,
        item: { kind: 'waypoint', index: i, ...id },
        text: { zh: `${n.zh}${group.zh}`, en: `${n.en}${group.en}` },
        group,
        at: { lat: w.lat, lng: w.lng },
      });
    });
    for (let i = 0; i + 1 < waypoints.length; i++) {
      const a = waypoints[i]!;
      const b = waypoints[i + 1]!;
      if (inside[i] || inside[i + 1] || !isValidLatLng(a) || !isValidLatLng(b)) continue;
      const at = r.legPoint(a, b);
      if (!at) continue;
      const group = { zh: `穿过${r.name.zh}${after.zh}`, en: ` crosses ${r.name.en}${after.en}` };
      issues.push({
        code: r.codes.leg,
        item: { kind: 'leg', index: i, ...id },
        text: { zh: `第 ${i + 1} 到第 ${i + 2} 个航点之间的航线${group.zh}`, en: `The leg from waypoint ${i + 1} to ${i + 2}${group.en}` },
        group,
        at,
      });
    }
  }
  return issues;
}

/** A map zone as a region, or null when it does not restrict routes or its shape is unusable. */
function zoneRegion(zone: ZoneInput): KeepOutRegion | null {
  if (!zoneRestrictsRoutes(zone.type)) return null;
  const shape = ringRegion(zone.paths);
  if (!shape) return null;
  return {
    ...shape,
    ...(zone.id !== undefined ? { id: zone.id } : {}),
    name: zoneInText(zone),
    codes: { waypoint: IssueCode.WAYPOINT_IN_ZONE, leg: IssueCode.LEG_CROSSES_ZONE },
  };
}

/**
 * The conflicts of a route (its waypoints in order) with the zones: `waypoint.in_zone` per waypoint inside
 * a no-fly or restricted zone, `leg.crosses_zone` per leg crossing one between two waypoints outside it.
 * Item ids name the zone; texts give its kind and name (keepOutIssues).
 */
export function zoneConflictIssues(waypoints: readonly LatLng[], zones: readonly ZoneInput[]): Issue[] {
  return keepOutIssues(
    waypoints,
    zones.map(zoneRegion).filter((r): r is KeepOutRegion => r !== null),
  );
}

/** The first zone a route conflicts with (its kind and name), or null when it keeps out of every zone. */
export function firstZoneConflict(waypoints: readonly LatLng[], zones: readonly ZoneInput[]): { zone: ZoneInput; issue: Issue } | null {
  for (const z of zones) {
    const issue = zoneConflictIssues(waypoints, [z])[0];
    if (issue) return { zone: z, issue };
  }
  return null;
}
