import type { AppDeps } from '../deps.js';
import { uploadFolder } from './files.js';

/** An unfinished upload untouched this long is given up: the device will have deleted or re-sent it by then. */
export const STALE_UPLOAD_SECONDS = 7 * 24 * 3600;
export const UPLOAD_SWEEP_MS = 3600_000;

/**
 * Removes unfinished uploads (row and stored chunks) not touched since `before` (s), and the chunks of
 * uploads that are finished or gone (a removal after finishing that failed). Answers how many unfinished
 * uploads were given up.
 */
export async function sweepStaleUploads(deps: Pick<AppDeps, 'db' | 'media'>, before: number): Promise<number> {
  const stale = await deps.db
    .selectFrom('media_uploads')
    .select(['sn_id', 'media_id'])
    .where('result_id', 'is', null)
    .where('updated_at', '<', before)
    .execute();
  for (const s of stale) {
    await deps.db
      .deleteFrom('media_uploads')
      .where('sn_id', '=', s.sn_id)
      .where('media_id', '=', s.media_id)
      .where('result_id', 'is', null)
      .where('updated_at', '<', before)
      .execute();
    await deps.media.deletePrefix(uploadFolder(s.sn_id, s.media_id));
  }
  const folders = new Set((await deps.media.list('uploads')).map((key) => key.split('/').slice(1, 3).join('/')));
  for (const folder of folders) {
    const [sn, mediaId] = folder.split('/') as [string, string];
    const row = await deps.db.selectFrom('media_uploads').select('result_id').where('sn_id', '=', sn).where('media_id', '=', mediaId).executeTakeFirst();
    if (!row || row.result_id) await deps.media.deletePrefix(uploadFolder(sn, mediaId));
  }
  return stale.length;
}
