import {
  MAP_DOWNLOAD_MAX_ACTIVE,
  MAP_DOWNLOAD_MAX_TILES,
  MapDownloadState,
  PushMsgId,
  ResultCode,
  isActiveDownload,
  tileCount,
} from '@nest/contracts';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../db/scope.js';
import { newId } from '../db/sql.js';
import type { PushHub } from '../push/hub.js';
import { presentDownload } from './downloads.js';
import { MAP_TEXTS } from './texts.js';

/** Push 391 goes to the sockets of the user who started the job (other users of the company see the list). */
export const downloadNotifier = (hub: Pick<PushHub, 'broadcastToUser'>) => (job: ReturnType<typeof presentDownload>) =>
  void hub.broadcastToUser(job.u_id, PushMsgId.MAP_DOWNLOAD, job);

/**
 * Offline map download calls (zone service), company-scoped (super_administrator: every company):
 * - /map/down: counts the tiles of the box and zooms (contracts tileCount, the number the browser shows),
 *   refuses above MAP_DOWNLOAD_MAX_TILES (the count in the message) or with MAP_DOWNLOAD_MAX_ACTIVE jobs of
 *   the company unfinished; stores a waiting job and kicks the runner. Answers `{id, total}`.
 * - /map/downList: the jobs, newest first, optional state filter; `{list, total}`.
 * - /map/downCancel: a waiting or running job becomes cancelled (the runner stops after its batch; tiles
 *   already cut stay in the store); an ended job is refused. Answers the job.
 */
export function mapHandlers(deps: AppDeps, runner: { kick(): void }, notify?: (job: ReturnType<typeof presentDownload>) => void): Handlers {
  const { db } = deps;

  return {
    mapDown: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const total = tileCount(f, f.min_zoom, f.max_zoom);
      if (total > MAP_DOWNLOAD_MAX_TILES) throw new CallError(ResultCode.BAD_REQUEST, MAP_TEXTS.tooMany(total, MAP_DOWNLOAD_MAX_TILES));
      const companyId = caller.user.company_id;
      const active = await db
        .selectFrom('map_downloads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .where('state', 'in', [MapDownloadState.WAITING, MapDownloadState.RUNNING])
        .executeTakeFirst();
      if (Number(active?.n ?? 0) >= MAP_DOWNLOAD_MAX_ACTIVE) throw new CallError(ResultCode.BAD_REQUEST, MAP_TEXTS.busy(MAP_DOWNLOAD_MAX_ACTIVE));
      const now = nowSeconds();
      const row = {
        id: newId(),
        company_id: companyId,
        name: f.name ?? '',
        min_lat: f.min_lat,
        min_lng: f.min_lng,
        max_lat: f.max_lat,
        max_lng: f.max_lng,
        min_zoom: f.min_zoom,
        max_zoom: f.max_zoom,
        total,
        done: 0,
        state: MapDownloadState.WAITING,
        error: '',
        claimed_by: null,
        claimed_at: null,
        u_id: caller.user.u_id,
        create_time: now,
        modified_time: now,
      };
      await db.insertInto('map_downloads').values(row).execute();
      notify?.(presentDownload(row));
      runner.kick();
      return { data: { id: row.id, total } };
    },

    mapDownList: async (ctx) => {
      const scope = scopeOf(callerOf(ctx.caller));
      const { state, page, size } = ctx.fields;
      let q = db.selectFrom('map_downloads');
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (state) q = q.where('state', '=', state);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: rows.map(presentDownload), total } };
    },

    mapDownCancel: async (ctx) => {
      const scope = scopeOf(callerOf(ctx.caller));
      const row = await db.selectFrom('map_downloads').selectAll().where('id', '=', ctx.fields.id).executeTakeFirst();
      if (!row || !(scope.all || row.company_id === scope.companyId)) throw new CallError(ResultCode.NOT_FOUND_OBJECT, MAP_TEXTS.noJob);
      if (!isActiveDownload(row.state)) throw new CallError(ResultCode.BAD_REQUEST, MAP_TEXTS.ended);
      const now = nowSeconds();
      const res = await db
        .updateTable('map_downloads')
        .set({ state: MapDownloadState.CANCELLED, claimed_by: null, claimed_at: null, modified_time: now })
        .where('id', '=', row.id)
        .where('state', 'in', [MapDownloadState.WAITING, MapDownloadState.RUNNING])
        .executeTakeFirst();
      // Ended between the read and the update: answer as for an ended job.
      if (Number(res.numUpdatedRows) !== 1) throw new CallError(ResultCode.BAD_REQUEST, MAP_TEXTS.ended);
      const fresh = presentDownload((await db.selectFrom('map_downloads').selectAll().where('id', '=', row.id).executeTakeFirst())!);
      notify?.(fresh);
      return { data: fresh };
    },
  };
}
