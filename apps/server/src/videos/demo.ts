import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { findFfmpeg, runFfmpeg } from '@nest/ffmpeg';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { MEDIA_PREFIX } from './routes.js';

/**
 * ffmpeg of this machine (FFMPEG_PATH, else on PATH, else the packaged binary), or null: the one lookup,
 * shared with the simulator's live video and clips.
 */
export { findFfmpeg };

const pad = (n: number): string => String(n).padStart(2, '0');
const stamp = (s: number): string => {
  const d = new Date(s * 1000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}_${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
};

export const DEMO_RECORDING_SECONDS = 6;

/**
 * Two short recordings (outside cameras 1 and 2) per demo nest that has none yet: real H.264 mp4 files made
 * with ffmpeg's test source, with a jpg thumbnail, made in DATA_DIR/tmp and stored under the media key
 * media/recordings/<random id>/ (the random folder makes the URL unguessable). Without ffmpeg nothing is
 * made. Answers how many were added.
 */
export async function seedDemoRecordings(
  deps: Pick<AppDeps, 'db' | 'config' | 'media'>,
  nests: readonly { sn: string; companyId: string }[],
  ffmpeg: string | null = findFfmpeg(),
): Promise<number> {
  if (!ffmpeg) return 0;
  const { db, media } = deps;
  let added = 0;
  const now = nowSeconds();
  for (const [i, nest] of nests.entries()) {
    const has = await db.selectFrom('recordings').select('id').where('sn_id', '=', nest.sn).executeTakeFirst();
    if (has) continue;
    for (const vr of [1, 2] as const) {
      const id = randomUUID();
      const dir = path.join(deps.config.dataDir, 'tmp', 'recordings', id);
      await mkdir(dir, { recursive: true });
      const start = now - 3600 * (2 * i + vr) - 600;
      const fileName = `${nest.sn}_cam${vr}_${stamp(start)}.mp4`;
      const file = path.join(dir, fileName);
      const source = vr === 1 ? 'testsrc2=size=640x360:rate=25' : 'smptehdbars=size=640x360:rate=25';
      try {
        await runFfmpeg(ffmpeg, [
          '-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-t', String(DEMO_RECORDING_SECONDS),
          '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', file,
        ]);
        await runFfmpeg(ffmpeg, ['-v', 'error', '-y', '-ss', '1', '-i', file, '-frames:v', '1', '-vf', 'scale=320:-2', path.join(dir, 'thumb.jpg')]);
      } catch {
        await rm(dir, { recursive: true, force: true });
        continue;
      }
      const { size } = await stat(file);
      const folder = `media/recordings/${id}`;
      try {
        await media.putFile(`${folder}/thumb.jpg`, path.join(dir, 'thumb.jpg'), { move: true, contentType: 'image/jpeg' });
        await media.putFile(`${folder}/${fileName}`, file, { move: true, contentType: 'video/mp4' });
      } catch (err) {
        await media.deletePrefix(folder).catch(() => undefined);
        throw err;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const base = `${MEDIA_PREFIX}recordings/${id}/`;
      await db
        .insertInto('recordings')
        .values({
          id,
          sn_id: nest.sn,
          company_id: nest.companyId,
          thumb_url: `${base}thumb.jpg`,
          vr_type: vr,
          start_time: start,
          end_time: start + DEMO_RECORDING_SECONDS,
          file_name: fileName,
          size_kb: Math.round((size / 1024) * 10) / 10,
          url: `${base}${fileName}`,
          created_at: now,
        })
        .execute();
      added++;
    }
  }
  return added;
}
