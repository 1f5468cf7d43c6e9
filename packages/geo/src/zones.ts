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
const zoneInText = (zone: Pick<ZoneInput, 'type' | 'name'>): Text => ({
  zh: zoneLabel(zone).zh,
  en: `the ${ZoneType.label(zone.type, 'en').toLowerCase()} "${zone.name.en}"`,
});

interface PreparedZone {
  zone: ZoneInput;
  ring: PreparedRing;
  /** Bounding box of the ring, to skip legs far from it. */
  box: { minLat: number; maxLat: number; minLng: number; maxLng: number };
}

function prepareZone(zone: ZoneInput): PreparedZone | null {
  if (!zoneRestrictsRoutes(zone.type) || !zone.paths.every(isValidLatLng)) return null;
  const ring = prepareRing(zone.paths);
  if (ring.ring.length < 3) return null;
  const lats = ring.ring.map((p) => p.lat);
  const lngs = ring.ring.map((p) => p.lng);
  return { zone, ring, box: { minLat: Math.min(...lats), maxLat: Math.max(...lats), minLng: Math.min(...lngs), maxLng: Math.max(...lngs) } };
}

/** Degrees added around a zone's box before a leg is skipped: far above the 5 cm tolerance at any latitude. */
const BOX_MARGIN_DEG = 1e-5;

const legMissesBox = (a: LatLng, b: LatLng, box: PreparedZone['box']): boolean =>
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
 * The conflicts of a route (its waypoints in order) with the zones: `waypoint.in_zone` per waypoint inside
 * a no-fly or restricted zone, `leg.crosses_zone` per leg crossing one between two waypoints outside it.
 * Item ids name the zone; texts give its kind and name; waypoints with invalid coordinates are skipped
 * (waypointValueIssues reports them).
 */
export function zoneConflictIssues(waypoints: readonly LatLng[], zones: readonly ZoneInput[]): Issue[] {
  const issues: Issue[] = [];
  for (const z of zones) {
    const p = prepareZone(z);
    if (!p) continue;
    const label = zoneInText(z);
    const id = z.id !== undefined ? { id: z.id } : {};
    const inside = waypoints.map((w) => isValidLatLng(w) && p.ring.contains(w));
    waypoints.forEach((w, i) => {
      if (!inside[i]) return;
      const group = { zh: `在${label.zh}内`, en: ` is inside ${label.en}` };
      const n = waypointName(i);
      issues.push({
        code: IssueCode.WAYPOINT_IN_ZONE,
        item: { kind: 'waypoint', index: i, ...id },
        text: { zh: `${n.zh}${group.zh}`, en: `${n.en}${group.en}` },
        group,
        at: { lat: w.lat, lng: w.lng },
      });
    });
    for (let i = 0; i + 1 < waypoints.length; i++) {
      const a = waypoints[i]!;
      const b = waypoints[i + 1]!;
      if (inside[i] || inside[i + 1] || !isValidLatLng(a) || !isValidLatLng(b) || legMissesBox(a, b, p.box)) continue;
      const at = legPointInZone(a, b, p.ring);
      if (!at) continue;
      const group = { zh: `穿过${label.zh}`, en: ` crosses ${label.en}` };
      issues.push({
        code: IssueCode.LEG_CROSSES_ZONE,
        item: { kind: 'leg', index: i, ...id },
        text: { zh: `第 ${i + 1} 到第 ${i + 2} 个航点之间的航线${group.zh}`, en: `The leg from waypoint ${i + 1} to ${i + 2}${group.en}` },
        group,
        at,
      });
    }
  }
  return issues;
}

/** The first zone a route conflicts with (its kind and name), or null when it keeps out of every zone. */
export function firstZoneConflict(waypoints: readonly LatLng[], zones: readonly ZoneInput[]): { zone: ZoneInput; issue: Issue } | null {
  for (const z of zones) {
    const issue = zoneConflictIssues(waypoints, [z])[0];
    if (issue) return { zone: z, issue };
  }
  return null;
}
