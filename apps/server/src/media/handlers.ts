import { sql, type Selectable } from 'kysely';
import type { Handlers } from '../calls/types.js';
import { callerOf } from '../auth/handlers.js';
import type { ResultsTable } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { planScopeOf } from '../fences/store.js';
import { STATE_NORMAL } from '../sorties/store.js';
import { likePattern } from '../users/store.js';
import { deleteResultIds, deleteResultsOfSortie } from './delete.js';

/**
 * A result row for the console. `width`/`height` are pixels; the drone's height above takeoff when it was
 * taken is `altitude` (m) so it does not clash with the pixel height.
 */
export function presentResult(r: Selectable<ResultsTable>) {
  return {
    id: r.id,
    sort_id: r.sort_id,
    sn_id: r.sn_id,
    type: Number(r.type),
    file_name: r.file_name,
    url: r.url,
    thumb_url: r.thumb_url,
    mime: r.mime,
    size: Number(r.size),
    width: r.width === null ? null : Number(r.width),
    height: r.height_px === null ? null : Number(r.height_px),
    duration: r.duration === null ? null : Number(r.duration),
    lat: Number(r.lat),
    lng: Number(r.lng),
    altitude: Number(r.height),
    waypoint_index: r.waypoint_index === null ? null : Number(r.waypoint_index),
    taken_at: Number(r.taken_at),
    create_time: Number(r.created_at),
  };
}

/**
 * /result/list and the deletions, in the caller's company (super_administrator: all). List filters: type,
 * sn_id, sort_id, search (file name or sn), start_time/end_time (s) on when it was taken; newest first.
 */
export function resultHandlers(deps: AppDeps): Handlers {
  const { db } = deps;
  return {
    resultList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const f = ctx.fields;
      let q = db.selectFrom('results').where('state', '=', STATE_NORMAL);
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (f.type !== undefined) q = q.where('type', '=', f.type);
      if (f.sn_id) q = q.where('sn_id', '=', f.sn_id);
      if (f.sort_id) q = q.where('sort_id', '=', f.sort_id);
      // taken_at is ms; the filters are seconds.
      if (f.start_time !== undefined) q = q.where('taken_at', '>=', f.start_time * 1000);
      if (f.end_time !== undefined) q = q.where('taken_at', '<', (f.end_time + 1) * 1000);
      if (f.search) {
        const p = likePattern(f.search);
        q = q.where((eb) =>
          eb.or([
            eb(sql<string>`lower(file_name)`, 'like', sql<string>`${p} escape '\\'`),
            eb(sql<string>`lower(sn_id)`, 'like', sql<string>`${p} escape '\\'`),
          ]),
        );
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('taken_at', 'desc').orderBy('id').limit(f.size).offset(f.page * f.size).execute();
      return { data: { list: rows.map(presentResult), total } };
    },
    resultDeleteOne: async (ctx) => {
      await deleteResultIds(deps, planScopeOf(callerOf(ctx.caller)), [ctx.fields.id]);
      return {};
    },
    resultDeleteIds: async (ctx) => {
      await deleteResultIds(deps, planScopeOf(callerOf(ctx.caller)), ctx.fields.ids);
      return {};
    },
    resultDeleteSort: async (ctx) => {
      await deleteResultsOfSortie(deps, planScopeOf(callerOf(ctx.caller)), ctx.fields.sort_id);
      return {};
    },
  };
}
