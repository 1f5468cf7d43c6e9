import { rm } from 'node:fs/promises';
import type { AppDeps } from '../deps.js';
import { partPath } from './files.js';

/** An unfinished upload untouched this long is given up: the device will have deleted or re-sent it by then. */
export const STALE_UPLOAD_SECONDS = 7 * 24 * 3600;
export const UPLOAD_SWEEP_MS = 3600_000;

/** Removes unfinished uploads (row and part file) not touched since `before` (s). Answers how many. */
export async function sweepStaleUploads(deps: Pick<AppDeps, 'db' | 'config'>, before: number): Promise<number> {
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
    await rm(partPath(deps.config.dataDir, s.sn_id, s.media_id), { force: true });
  }
  return stale.length;
}
