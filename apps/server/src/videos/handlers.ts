import type { RecordingVideo } from '@nest/contracts';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from '../calls/caller.js';
import { scopeOf } from '../db/scope.js';
import { mediaLinks } from './links.js';

/**
 * /video/user/list: recordings of the nests' outside cameras of the caller's company (super_administrator:
 * all), newest first. Filters: `sn_id`, `vr_type` (1 or 2), `start_time`/`end_time` (s): recordings that
 * started within the range. Answers `{list: RecordingVideo[], total}`; `url` and `thumb_url` are signed,
 * expiring paths (links.ts), made only for the rows of the caller's scope.
 */
export function videoHandlers(deps: AppDeps): Handlers {
  const { db } = deps;
  return {
    videoUserList: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const scope = scopeOf(caller);
      let q = db.selectFrom('recordings');
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (f.sn_id) q = q.where('sn_id', '=', f.sn_id);
      if (f.vr_type !== undefined) q = q.where('vr_type', '=', f.vr_type);
      if (f.start_time !== undefined) q = q.where('start_time', '>=', f.start_time);
      if (f.end_time !== undefined) q = q.where('start_time', '<=', f.end_time);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('start_time', 'desc')
        .orderBy('id')
        .limit(f.size)
        .offset(f.page * f.size)
        .execute();
      const links = await mediaLinks(db);
      const list: RecordingVideo[] = rows.map((r) => ({
        id: r.id,
        sn_id: r.sn_id,
        thumb_url: links.media(r.thumb_url),
        vr_type: r.vr_type as 1 | 2,
        start_time: Number(r.start_time),
        end_time: Number(r.end_time),
        file_name: r.file_name,
        size_kb: Number(r.size_kb),
        url: links.media(r.url),
      }));
      return { data: { list, total } };
    },
  };
}
