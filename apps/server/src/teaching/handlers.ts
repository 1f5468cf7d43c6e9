import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { DeviceKind, ResultCode, TEACHING_VIDEO_FILE_FIELD, isTeachingVideoFileName, type Lang } from '@nest/contracts';
import { findFfmpeg } from '@nest/ffmpeg';
import { sql } from 'kysely';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { likePattern } from '../db/sql.js';
import { EXT_OF, findFfprobe, makePoster, probeDuration, sniffFile, teachingKey } from './files.js';
import { TEACH_DELETED, TEACH_LIVE, findLiveTeaching, presentTeaching, type TeachingRow } from './store.js';
import { TEACHING_TEXTS } from './texts.js';

const refuse = (msg: (lang: Lang) => string, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);

/**
 * Teaching videos (menu teachingVideos): how-to videos for the operators, the same for every company (no
 * company column: they teach the product, not a company's data). Whoever may open the screen
 * (menu_teachingVideos) lists and plays them; only a super administrator manages them (the registry gives
 * /teach/add and /teach/edit the function super_administrator: one company's change would be everybody's).
 * - /teach/add: exactly one file in part TEACHING_VIDEO_FILE_FIELD, named .mp4 / .webm, whose first bytes
 *   are an MP4 `ftyp` box or a WebM EBML header (the stored type comes from the content); a poster frame
 *   and the length when the server has ffmpeg / ffprobe. Size: TEACHING_VIDEO_MAX_MB (multipart limit).
 * - /teach/edit: texts and kind; state 20 deletes and removes the files.
 * - /teach/list: search in title / description, cla_type filter (videos for every kind, 0, are listed
 *   under each kind), newest first; links valid for hours (storage/links.ts).
 * - /video/deviceType/list: the kinds that have videos, with counts, for the screen's filter.
 */
export function teachingHandlers(deps: AppDeps): Handlers {
  const { db, config } = deps;
  const videoBase = config.bases.video;
  const ffmpeg = findFfmpeg();
  const ffprobe = findFfprobe(ffmpeg);

  async function liveRow(id: string): Promise<TeachingRow> {
    const row = await findLiveTeaching(db, id);
    if (!row) throw refuse(TEACHING_TEXTS.notFound, ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  return {
    teachList: async (ctx) => {
      const { search, cla_type, page, size } = ctx.fields;
      let q = db.selectFrom('teaching_videos').where('state', '=', TEACH_LIVE);
      if (cla_type !== undefined && cla_type !== 0) q = q.where('cla_type', 'in', [0, cla_type]);
      if (search) {
        const pattern = sql<string>`${likePattern(search)} escape '\\'`;
        q = q.where((eb) => eb.or([eb(sql<string>`lower(title)`, 'like', pattern), eb(sql<string>`lower(${sql.ref('describe')})`, 'like', pattern)]));
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: await Promise.all(rows.map((r) => presentTeaching(db, videoBase, r))), total } };
    },

    teachAdd: async (ctx) => {
      const f = ctx.fields;
      const files = ctx.files.filter((x) => x.field === TEACHING_VIDEO_FILE_FIELD);
      if (files.length !== 1 || ctx.files.length !== 1) throw refuse(TEACHING_TEXTS.noFile);
      const upload = files[0]!;
      if (!isTeachingVideoFileName(upload.filename)) throw refuse(TEACHING_TEXTS.wrongName);
      const mime = await sniffFile(upload.path);
      if (!mime) throw refuse(TEACHING_TEXTS.notVideo);

      const id = randomUUID();
      const key = randomUUID();
      const fileKey = `${key}${EXT_OF[mime]}`;
      const posterKey = `${key}_poster.jpg`;
      // Poster and length are read from the received temp file; then both go to the media store.
      const posterFile = `${upload.path}_poster.jpg`;
      const poster = await makePoster(upload.path, posterFile, ffmpeg);
      const duration = await probeDuration(upload.path, ffprobe, ffmpeg);
      const kept: string[] = [];
      try {
        if (poster) {
          kept.push(teachingKey(posterKey));
          await deps.media.putFile(teachingKey(posterKey), posterFile, { move: true, contentType: 'image/jpeg' });
        }
        kept.push(teachingKey(fileKey));
        // A full store throws here, before there is a row (the call answers storage full).
        await deps.media.putFile(teachingKey(fileKey), upload.path, { move: true, contentType: mime });
        const now = nowSeconds();
        const row: TeachingRow = {
          id,
          title: f.title,
          describe: f.describe ?? '',
          notes: f.notes ?? '',
          cla_type: f.cla_type,
          file_key: fileKey,
          file_name: upload.filename.slice(-255),
          mime,
          size: upload.size,
          duration,
          thumb_key: poster ? posterKey : null,
          state: TEACH_LIVE,
          u_id: callerOf(ctx.caller).user.u_id,
          create_time: now,
          modified_time: now,
        };
        await db.insertInto('teaching_videos').values(row).execute();
        return { data: await presentTeaching(db, videoBase, row) };
      } catch (err) {
        await Promise.allSettled([...kept.map((k) => deps.media.delete(k)), rm(posterFile, { force: true })]);
        throw err;
      }
    },

    teachEdit: async (ctx) => {
      const f = ctx.fields;
      const current = await liveRow(f.id);
      const now = nowSeconds();
      if (f.state === TEACH_DELETED) {
        const done = await db
          .updateTable('teaching_videos')
          .set({ state: TEACH_DELETED, modified_time: now })
          .where('id', '=', current.id)
          .where('state', '=', TEACH_LIVE)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 1) {
          const names = [current.file_key, current.thumb_key].filter((k): k is string => !!k);
          await Promise.all(names.map((k) => deps.media.delete(teachingKey(k))));
        }
        return { data: await presentTeaching(db, videoBase, { ...current, state: TEACH_DELETED, modified_time: now }) };
      }
      const patch = { title: f.title, describe: f.describe ?? current.describe, notes: f.notes ?? current.notes, cla_type: f.cla_type, modified_time: now };
      await db.updateTable('teaching_videos').set(patch).where('id', '=', current.id).execute();
      return { data: await presentTeaching(db, videoBase, { ...current, ...patch }) };
    },

    videoDeviceTypeList: async (ctx) => {
      const rows = await db
        .selectFrom('teaching_videos')
        .select(['cla_type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('state', '=', TEACH_LIVE)
        .groupBy('cla_type')
        .orderBy('cla_type')
        .execute();
      const list = rows.map((r) => {
        const kind = Number(r.cla_type);
        const name = kind === 0 ? TEACHING_TEXTS.everyKind(ctx.lang) : DeviceKind.label(kind, ctx.lang);
        return { cla_type: kind, cla_name: name, count: Number(r.n) };
      });
      return { data: list };
    },
  };
}
