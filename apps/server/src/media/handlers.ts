import { sql, type Selectable } from 'kysely';
import type { Handlers } from '../calls/types.js';
import { callerOf } from '../calls/caller.js';
import type { ResultsTable } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { planScopeOf } from '../db/scope.js';
import { STATE_NORMAL, likePattern } from '../db/sql.js';
import { deviceNames } from '../sorties/api.js';
import { mediaLinks, type MediaLinks } from '../videos/api.js';
import { deleteResultIds, deleteResultsOfSortie } from './delete.js';
import { prepareZip } from './zip.js';

/**
 * A result row for the console. `width`/`height` are pixels; the drone's height above takeoff when it was
 * taken is `altitude` (m) so it does not clash with the pixel height. `url` and `thumb_url` are the files'
 * signed, expiring paths (videos/links.ts): only rows the caller may see are presented.
 */
export function presentResult(r: Selectable<ResultsTable>, links: MediaLinks, deviceName: string = r.sn_id) {
  return {
    id: r.id,
    sort_id: r.sort_id,
    sn_id: r.sn_id,
    device_name: deviceName,
    type: Number(r.type),
    file_name: r.file_name,
    url: links.media(r.url),
    thumb_url: links.media(r.thumb_url),
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
 * /result/list, /result/zip and the deletions, in the caller's company (super_administrator: all). List filters: type,
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
      // Devices without a GPS fix report 0, 0 (the Gulf of Guinea is not patrolled).
      if (f.located === 1) q = q.where((eb) => eb.or([eb('lat', '!=', 0), eb('lng', '!=', 0)]));
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
      const names = await deviceNames(db, rows.map((r) => r.sn_id));
      const links = await mediaLinks(db);
      return { data: { list: rows.map((r) => presentResult(r, links, names.get(r.sn_id))), total } };
    },
    resultZip: async (ctx) => ({ data: await prepareZip(deps, planScopeOf(callerOf(ctx.caller)), ctx.fields, undefined, ctx.lang) }),
    resultDeleteOne: async (ctx) => {
      await deleteResultIds(deps, planScopeOf(callerOf(ctx.caller)), [ctx.fields.id]);
      return { data: null };
    },
    resultDeleteIds: async (ctx) => {
      await deleteResultIds(deps, planScopeOf(callerOf(ctx.caller)), ctx.fields.ids);
      return { data: null };
    },
    resultDeleteSort: async (ctx) => {
      await deleteResultsOfSortie(deps, planScopeOf(callerOf(ctx.caller)), ctx.fields.sort_id);
      return { data: null };
    },
  };
}
