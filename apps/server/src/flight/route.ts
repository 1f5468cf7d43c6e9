import { Reason, type MissionPlan, type Text, type Waypoint } from '@nest/contracts';
import { firstZoneConflict, zoneLabel } from '@nest/geo';
import type { Kysely } from 'kysely';
import type { DB, DeviceRow, MissionRow } from '../db/schema.js';
import { fenceInputOf, findFence } from '../fences/api.js';
import { STATE_NORMAL } from '../db/sql.js';
import { groupFlightPart, storedRouteIssues } from '../missions/api.js';
import { firstNoFlyLabel, routeNoFly } from '../nofly/api.js';
import { nowSeconds } from '../db/index.js';
import { publicZones } from '../zones/api.js';

/**
 * A route that may fly as far as its fence goes, with the first no-fly or restricted zone it enters
 * (`zone`: its kind and name, and a company no-fly zone's reason; null when none), or the CommandReason
 * refusing it.
 */
export type RouteVerdict = { ok: true; mission: MissionRow; waypoints: Waypoint[]; zone: Text | null } | { ok: false; reason: number };

/**
 * Looks a route up for a device and re-validates it against its fence now (the fence may have been
 * edited since the route was saved): missing or deleted -> 11, bound to another device's fence -> 19,
 * broken against its fence (or the fence is gone) -> 10. Uses the missions module's own validation.
 * Then the zones as they are now (a zone may have been added since): the route's stored waypoints against
 * the map zones (geo's zone rule) and against the company no-fly zones that restrict the device at `now`
 * (geo's no-fly rule; a zone outside its validity period does not), the rules the save applies; the
 * pre-flight `zone` check reports the first one entered (reason 25). Takeoff and a timed task firing both
 * come here (flight runtime `checks` and `navigate`, which launchMission uses).
 */
export async function routeFor(db: Kysely<DB>, device: DeviceRow, missionId: string, now: number = nowSeconds()): Promise<RouteVerdict> {
  const asked = await db.selectFrom('missions').selectAll().where('id', '=', missionId).where('state', '=', STATE_NORMAL).executeTakeFirst();
  if (!asked) return { ok: false, reason: Reason.ROUTE_MISSING };
  // A part of a split survey flies its group's next part (missions groups.ts), whichever part was asked.
  const mission = await groupFlightPart(db, asked);
  const fence = await findFence(db, mission.fence_id);
  if (!fence) return { ok: false, reason: Reason.ROUTE_INVALID };
  if (fence.sn_id !== device.sn_id) return { ok: false, reason: Reason.WRONG_DEVICE };
  if (storedRouteIssues(mission, fenceInputOf(fence), device).length > 0) return { ok: false, reason: Reason.ROUTE_INVALID };
  let waypoints: Waypoint[];
  try {
    waypoints = JSON.parse(mission.waypoints) as Waypoint[];
  } catch {
    return { ok: false, reason: Reason.ROUTE_INVALID };
  }
  if (waypoints.length === 0) return { ok: false, reason: Reason.ROUTE_INVALID };
  const conflict = firstZoneConflict(waypoints, await publicZones(db));
  if (conflict) return { ok: true, mission, waypoints, zone: zoneLabel(conflict.zone) };
  const noFly = await routeNoFly(db, { companyId: fence.company_id, sn: device.sn_id }, 'now', now);
  return { ok: true, mission, waypoints, zone: firstNoFlyLabel(waypoints, noFly) };
}

/** The route as the device gets it (contracts missionPlanSchema); `startIndex` resumes at a breakpoint. */
export function planOf(mission: MissionRow, waypoints: Waypoint[], startIndex: number): MissionPlan {
  return {
    mission_id: mission.id,
    name: mission.name.slice(0, 64),
    mission_type: Number(mission.mission_type),
    height_type: Number(mission.height_type),
    auto_speed: Number(mission.auto_speed),
    max_speed: Number(mission.max_speed),
    default_height: Number(mission.default_height),
    return_height: Number(mission.return_height),
    finish_action: Number(mission.finish_action),
    photo_type: Number(mission.photo_type),
    waypoints,
    start_index: Math.min(Math.max(0, startIndex), waypoints.length - 1),
  };
}
