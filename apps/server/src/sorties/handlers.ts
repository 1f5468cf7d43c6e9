import { ResultCode } from '@nest/contracts';
import { sql } from 'kysely';
import type { Handlers } from '../calls/types.js';
import { CallError } from '../calls/errors.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from '../calls/caller.js';
import { inPlanScope, planScopeOf, type PlanScope } from '../db/scope.js';
import { searchText } from '../db/sql.js';
import type { SortiesTable } from '../db/schema.js';
import type { Selectable } from 'kysely';
import { deleteSorties } from '../media/api.js';
import { STATE_NORMAL, deviceNames, parsePlan } from './store.js';
import type { SortieRecorder } from './recorder.js';
import { nowSeconds } from '../db/index.js';

type SortieRow = Selectable<SortiesTable>;

/**
 * The SPEC Sortie fields plus device_name, distance, place and mission_id; an open sortie has end_time 0.
 * `deviceName` defaults to the sn (see deviceNames).
 */
export function presentSortie(r: SortieRow, deviceName: string = r.sn_id) {
  return {
    sort_id: r.id,
    mission_name: r.mission_name,
    sn_id: r.sn_id,
    device_name: deviceName,
    uav_id: r.uav_id,
    mission_type: Number(r.mission_type),
    user_name: r.user_name,
    start_time: Number(r.start_time),
    end_time: r.end_time === null ? 0 : Number(r.end_time),
    count: Number(r.count),
    distance: Number(r.distance),
    place: r.place === null ? null : Number(r.place),
    mission_id: r.mission_id,
    flight_id: r.flight_id,
  };
}

/**
 * /sorties/list, /sorties/track, /sorties/delete and /alternate/list, all in the caller's company
 * (super_administrator: every company); a row of another company reads as missing (NOT_FOUND_OBJECT).
 */
export function sortieHandlers(deps: AppDeps, recorder: Pick<SortieRecorder, 'flush'>): Handlers {
  const { db } = deps;

  async function visibleSortie(scope: PlanScope, id: string): Promise<SortieRow> {
    const row = await db.selectFrom('sorties').selectAll().where('id', '=', id).where('state', '=', STATE_NORMAL).executeTakeFirst();
    if (!row || !inPlanScope(scope, row)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  return {
    sortiesList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const f = ctx.fields;
      let q = db.selectFrom('sorties').where('state', '=', STATE_NORMAL);
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (f.sn_id) q = q.where('sn_id', '=', f.sn_id);
      if (f.mission_type !== undefined) q = q.where('mission_type', '=', f.mission_type);
      if (f.start_time !== undefined) q = q.where('start_time', '>=', f.start_time);
      if (f.end_time !== undefined) q = q.where('start_time', '<=', f.end_time);
      if (f.search) q = q.where(searchText(['mission_name', 'user_name'], f.search));
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const dir = f.asc === 1 ? 'asc' : 'desc';
      // A sortie still flying counts its duration up to now, so it sorts among the finished ones it outlasts.
      const key =
        f.order === 'duration'
          ? sql<number>`coalesce(end_time, ${nowSeconds()}) - start_time`
          : f.order === 'distance'
            ? sql<number>`distance`
            : f.order === 'count'
              ? sql<number>`count`
              : sql<number>`start_time`;
      const rows = await q
        .selectAll()
        .orderBy(key, dir)
        .orderBy('start_time', 'desc')
        .orderBy('id')
        .limit(f.size)
        .offset(f.page * f.size)
        .execute();
      const names = await deviceNames(db, rows.map((r) => r.sn_id));
      return { data: { list: rows.map((r) => presentSortie(r, names.get(r.sn_id))), total } };
    },

    sortiesTrack: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const sortie = await visibleSortie(scope, ctx.fields.id);
      // Points of an open sortie may still sit in the recorder's buffer.
      if (sortie.end_time === null) await recorder.flush();
      const rows = await db
        .selectFrom('sortie_track')
        .select(['t', 'lat', 'lng', 'alt', 'height', 'speed', 'heading', 'battery', 'flight_state'])
        .where('sort_id', '=', sortie.id)
        .orderBy('t')
        .execute();
      const points = rows.map((p) => ({
        t: Number(p.t),
        lat: Number(p.lat),
        lng: Number(p.lng),
        alt: Number(p.alt),
        height: Number(p.height),
        speed: Number(p.speed),
        heading: Number(p.heading),
        battery: Number(p.battery),
        flight_state: Number(p.flight_state),
      }));
      const names = await deviceNames(db, [sortie.sn_id]);
      return { data: { sortie: presentSortie(sortie, names.get(sortie.sn_id)), points, planned: parsePlan(sortie.plan) } };
    },

    sortiesDelete: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      await deleteSorties(deps, scope, ctx.fields.ids);
      return { data: null };
    },

    alternateList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const f = ctx.fields;
      let q = db.selectFrom('alternate_landings');
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (f.sn_id) q = q.where('sn_id', '=', f.sn_id);
      if (f.start_time !== undefined) q = q.where('create_time', '>=', f.start_time);
      if (f.end_time !== undefined) q = q.where('create_time', '<=', f.end_time);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('timestamp', 'desc').orderBy('id').limit(f.size).offset(f.page * f.size).execute();
      const list = rows.map((r) => ({
        id: r.id,
        sn_id: r.sn_id,
        flight_id: r.flight_id,
        reason: Number(r.reason),
        solution: Number(r.solution),
        timestamp: Number(r.timestamp),
        drone_int: Number(r.drone_int),
        altn_int: Number(r.altn_int),
        place_int: Number(r.place_int),
        lat: Number(r.lat),
        lng: Number(r.lng),
        create_time: Number(r.create_time),
      }));
      return { data: { list, total } };
    },
  };
}
