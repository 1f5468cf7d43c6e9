import { MissionType, ResultCode, type Lang, type ParsedFields, type Waypoint } from '@nest/contracts';
import { issueLines, type Issue, type LatLng, type TerrainProvider } from '@nest/geo';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { CallContext, Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { Kysely } from 'kysely';
import type { DB, MissionRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { STATE_DELETED, STATE_NORMAL, newId, searchText } from '../db/sql.js';
import { fenceInputOf, findFence, refusal } from '../fences/api.js';
import { inPlanScope, planScopeOf, type PlanScope } from '../db/scope.js';
import { tileTerrain } from '../terrain/api.js';
import { planRoute, type PlannedRoute } from './plan.js';
import { groupNextParts } from './groups.js';
import { groupBaseName, partName } from './strip.js';
import { publicZones } from '../zones/api.js';
import { routeNoFly } from '../nofly/api.js';

const parseJson = <T>(text: string | null, fallback: T): T => {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/**
 * A route as the console reads it: contracts missionSchema plus `sn_id` (the fence's device),
 * `survey_polygon` (area surveys), `breakpoint` (waypoint index an interrupted flight stopped at, or
 * null) and `u_id`.
 */

/**
 * A route's refusal: every issue in `data`, the message the first line of the issue list as the editor
 * shows it (the same waypoint rule broken at many waypoints is one line with the count).
 */
function routeRefusal(issues: readonly Issue[]) {
  const first = issueLines(issues)[0];
  return { ...refusal(issues), message: (lang: Lang) => first?.text[lang] ?? '' };
}

/** `groupNext`: the id of the next part of the row's group (groups.ts groupNextParts), null outside one. */
export function presentMission(row: MissionRow, fence: { name: string; sn_id: string } | undefined, groupNext: string | null = null) {
  return {
    id: row.id,
    name: row.name,
    fence_id: row.fence_id,
    f_title: fence?.name ?? '',
    sn_id: fence?.sn_id ?? '',
    mission_type: Number(row.mission_type),
    height_type: Number(row.height_type),
    auto_speed: Number(row.auto_speed),
    max_speed: Number(row.max_speed),
    default_height: Number(row.default_height),
    return_height: Number(row.return_height),
    finish_action: Number(row.finish_action),
    exec_type: Number(row.exec_type),
    camera_type: row.camera_type,
    sensor_width: row.sensor_width === null ? null : Number(row.sensor_width),
    sensor_height: row.sensor_height === null ? null : Number(row.sensor_height),
    image_width: row.image_width === null ? null : Number(row.image_width),
    image_height: row.image_height === null ? null : Number(row.image_height),
    focal_length: row.focal_length === null ? null : Number(row.focal_length),
    course_overlap: Number(row.course_overlap),
    lateral_overlap: Number(row.lateral_overlap),
    turn_distance: Number(row.turn_distance),
    angle: Number(row.angle),
    interval_height: Number(row.interval_height),
    elevation: Number(row.elevation) === 1,
    photo_type: Number(row.photo_type),
    waypoints: parseJson<Waypoint[]>(row.waypoints, []),
    survey_polygon: parseJson<LatLng[] | null>(row.survey_polygon, null),
    distance: Number(row.distance),
    est_time: Number(row.est_time),
    breakpoint: row.breakpoint === null ? null : Number(row.breakpoint),
    corridor_line: parseJson<LatLng[] | null>(row.corridor_line, null),
    corridor_width: row.corridor_width === null ? null : Number(row.corridor_width),
    group_id: row.group_id,
    group_index: row.group_index === null ? null : Number(row.group_index),
    group_count: row.group_count === null ? null : Number(row.group_count),
    group_next: row.group_id ? groupNext : null,
    user_name: row.user_name,
    u_id: row.u_id,
    create_time: Number(row.created_at),
    modified_time: Number(row.updated_at),
  };
}

/** Extra facts of a save: the terrain note (flat fallback) in the caller's language and survey figures. */
const saveExtras = (route: PlannedRoute, lang: Lang, group: GroupSummary | null = null) => ({
  terrain_note: route.terrain_note ? route.terrain_note[lang] : null,
  survey: route.survey,
  group,
});

type GroupSummary = { count: number; parts: { id: string; name: string; est_time: number }[] };

/**
 * Routes (tasks):
 * - /mission/type: MissionType options `[{value, label}]` in the caller's language.
 * - /mission/list: routes of fences the caller sees; filters fence_id, mission_type, search (name);
 *   newest first; `{list: Mission[], total}` (Mission: see presentMission).
 * - /mission/add, /mission/edit: the bound fence must be one the caller sees (else the route.no_fence
 *   issue); the route is rebuilt and checked by planRoute (plan.ts: survey regeneration, terrain, geo
 *   validateRoute with the device's distance limit and the map zones: a waypoint in, or a leg across, a
 *   no-fly or restricted zone is refused, its text naming the zone) and refused with `data: {issues}`
 *   like fences. Stored waypoints, distance (m) and est_time (s) are the server's. Answers the Mission
 *   plus `terrain_note` (string or null) and `survey` (photo_count, line_spacing, trigger_distance, gsd,
 *   area, or null).
 *   Strip routes and surveys longer than one battery: see plan.ts planRoute; a split save (`split`)
 *   stores the parts as a group (store) and answers part 1 with `group`. Every Mission carries
 *   `group_next` (groups.ts). Editing clears the breakpoint (the waypoints may have changed).
 * - /mission/info: one Mission. /mission/clearBreak: sets breakpoint to null, answers the Mission.
 */
export function missionHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const terrain: TerrainProvider = tileTerrain(config.dataDir);

  async function visibleMission(scope: PlanScope, id: string): Promise<MissionRow> {
    const row = await db.selectFrom('missions').selectAll().where('id', '=', id).where('state', '=', STATE_NORMAL).executeTakeFirst();
    if (!row || !inPlanScope(scope, row)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  async function answer(row: MissionRow) {
    const fence = await db.selectFrom('fences').select(['name', 'sn_id']).where('id', '=', row.fence_id).executeTakeFirst();
    const next = row.group_id ? ((await groupNextParts(db, [row.group_id])).get(row.group_id) ?? null) : null;
    return presentMission(row, fence, next);
  }

  /**
   * Stores a save: one route, or a split survey's parts as a group ("Name (1/N)".."(N/N)", one group id,
   * none flown). `current` (an edit) becomes the first route; the other parts of its old group, if any,
   * are deleted (a group is edited as the whole area it was made from). Answers the first route's row and
   * the group summary (null for one route).
   */
  async function store(
    planned: { route: PlannedRoute; parts: PlannedRoute[] | null; columns: Omit<MissionRow, 'id' | 'state' | 'u_id' | 'user_name' | 'created_at'> },
    owner: { u_id: string; user_name: string },
    current: MissionRow | null,
  ): Promise<{ row: MissionRow; group: GroupSummary | null }> {
    const parts = planned.parts ?? [planned.route];
    const groupId = parts.length > 1 ? newId() : null;
    const rows: MissionRow[] = parts.map((part, k) => ({
      ...planned.columns,
      ...(groupId ? { name: partName(planned.columns.name, k + 1, parts.length) } : current?.group_id ? { name: groupBaseName(planned.columns.name) } : {}),
      waypoints: JSON.stringify(part.waypoints),
      distance: part.distance,
      est_time: part.est_time,
      group_id: groupId,
      group_index: groupId ? k + 1 : null,
      group_count: groupId ? parts.length : null,
      group_flown: 0,
      id: k === 0 && current ? current.id : newId(),
      state: STATE_NORMAL,
      u_id: k === 0 && current ? current.u_id : owner.u_id,
      user_name: k === 0 && current ? current.user_name : owner.user_name,
      created_at: k === 0 && current ? current.created_at : planned.columns.updated_at,
    }));
    const write = async (trx: Kysely<DB>) => {
      if (current?.group_id)
        await trx
          .updateTable('missions')
          .set({ state: STATE_DELETED, updated_at: planned.columns.updated_at })
          .where('group_id', '=', current.group_id)
          .where('id', '<>', current.id)
          .execute();
      if (current) {
        const { id: _id, ...set } = rows[0]!;
        await trx.updateTable('missions').set(set).where('id', '=', current.id).execute();
      }
      const inserts = current ? rows.slice(1) : rows;
      if (inserts.length > 0) await trx.insertInto('missions').values(inserts).execute();
    };
    // The demo seed runs the handlers inside its own transaction (one that may not open another): its
    // transaction holds these writes then.
    await (db.isTransaction ? write(db) : db.transaction().execute(write));
    const group = groupId ? { count: rows.length, parts: rows.map((r) => ({ id: r.id, name: r.name, est_time: r.est_time })) } : null;
    return { row: rows[0]!, group };
  }

  /** Plans a save; answers the refusal, or the columns to store. */
  async function plan(ctx: CallContext<'missionAdd'> | CallContext<'missionEdit'>, scope: PlanScope) {
    const f = ctx.fields as ParsedFields<'missionAdd'>;
    const fenceRow = await findFence(db, f.fence_id);
    const fence = fenceRow && inPlanScope(scope, fenceRow) ? fenceRow : undefined;
    const device = fence
      ? ((await db.selectFrom('devices').selectAll().where('sn_id', '=', fence.sn_id).where('state', '=', STATE_NORMAL).executeTakeFirst()) ??
        null)
      : null;
    // The company's no-fly zones for the fence's device, now or later (a zone valid from tomorrow counts).
    const noFly = fence ? await routeNoFly(db, { companyId: fence.company_id, sn: fence.sn_id }, 'ahead', nowSeconds()) : [];
    const result = await planRoute({ fields: f, fence: fence ? fenceInputOf(fence) : null, device, terrain, zones: await publicZones(db), noFly });
    if (!('route' in result)) return { ok: false as const, refused: routeRefusal(result.issues) };
    // (`parts`: a split survey's routes, the first being `route`.)
    const r = result.route;
    const columns = {
      name: f.name,
      fence_id: f.fence_id,
      mission_type: f.mission_type,
      height_type: f.height_type,
      auto_speed: f.auto_speed,
      max_speed: f.max_speed,
      default_height: f.default_height,
      return_height: f.return_height,
      finish_action: f.finish_action,
      exec_type: f.exec_type,
      camera_type: f.camera_type,
      sensor_width: f.sensor_width ?? null,
      sensor_height: f.sensor_height ?? null,
      image_width: f.image_width ?? null,
      image_height: f.image_height ?? null,
      focal_length: f.focal_length ?? null,
      course_overlap: f.course_overlap ?? 0,
      lateral_overlap: f.lateral_overlap ?? 0,
      turn_distance: f.turn_distance ?? 0,
      angle: f.angle ?? 0,
      interval_height: f.interval_height ?? 0,
      elevation: f.elevation ? 1 : 0,
      photo_type: f.photo_type,
      waypoints: JSON.stringify(r.waypoints),
      survey_polygon: r.survey_polygon ? JSON.stringify(r.survey_polygon) : null,
      corridor_line: r.corridor_line ? JSON.stringify(r.corridor_line) : null,
      corridor_width: r.corridor_width,
      group_id: null as string | null,
      group_index: null as number | null,
      group_count: null as number | null,
      group_flown: 0,
      distance: r.distance,
      est_time: r.est_time,
      breakpoint: null,
      company_id: fence!.company_id,
      updated_at: nowSeconds(),
    };
    return { ok: true as const, route: r, parts: result.parts, columns };
  }

  return {
    missionType: async (ctx) => ({ data: MissionType.options(ctx.lang) }),

    missionList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const { fence_id, mission_type, search, page, size } = ctx.fields;
      let q = db.selectFrom('missions').where('state', '=', STATE_NORMAL);
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (fence_id) q = q.where('fence_id', '=', fence_id);
      if (mission_type !== undefined) q = q.where('mission_type', '=', mission_type);
      if (search) q = q.where(searchText(['name'], search));
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      const fenceIds = [...new Set(rows.map((r) => r.fence_id))];
      const fences = fenceIds.length
        ? await db.selectFrom('fences').select(['id', 'name', 'sn_id']).where('id', 'in', fenceIds).execute()
        : [];
      const byId = new Map(fences.map((x) => [x.id, x]));
      const next = await groupNextParts(db, rows.flatMap((r) => (r.group_id ? [r.group_id] : [])));
      return { data: { list: rows.map((r) => presentMission(r, byId.get(r.fence_id), r.group_id ? (next.get(r.group_id) ?? null) : null)), total } };
    },

    missionAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const planned = await plan(ctx, planScopeOf(caller));
      if (!planned.ok) return planned.refused;
      const { row, group } = await store(planned, { u_id: caller.user.u_id, user_name: caller.user.nick }, null);
      return { data: { ...(await answer(row)), ...saveExtras(planned.route, ctx.lang, group) } };
    },

    missionEdit: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const current = await visibleMission(scope, ctx.fields.id);
      if (ctx.fields.state === STATE_DELETED) {
        // Deleting keeps the row (state 20) so sorties and timed tasks still name their route. A split
        // survey's part deletes its whole group (its parts are one survey).
        const updated_at = nowSeconds();
        let del = db.updateTable('missions').set({ state: STATE_DELETED, updated_at });
        del = current.group_id ? del.where('group_id', '=', current.group_id) : del.where('id', '=', current.id);
        await del.execute();
        return { data: await answer({ ...current, state: STATE_DELETED, updated_at }) };
      }
      const planned = await plan(ctx, scope);
      if (!planned.ok) return planned.refused;
      const { row, group } = await store(planned, current, current);
      return { data: { ...(await answer(row)), ...saveExtras(planned.route, ctx.lang, group) } };
    },

    missionInfo: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      return { data: await answer(await visibleMission(scope, ctx.fields.id)) };
    },

    missionClearBreak: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const row = await visibleMission(scope, ctx.fields.id);
      await db.updateTable('missions').set({ breakpoint: null }).where('id', '=', row.id).execute();
      return { data: await answer({ ...row, breakpoint: null }) };
    },
  };
}
