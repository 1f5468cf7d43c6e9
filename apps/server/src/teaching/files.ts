import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Teaching videos and their posters are the media store's `teaching/<random name>` (DATA_DIR/teaching/ locally). */
export const teachingKey = (name: string): string => `teaching/${name}`;
export const VIDEO_KEY_PATTERN = /^[0-9a-f-]{36}\.(mp4|webm)$/;
export const POSTER_KEY_PATTERN = /^[0-9a-f-]{36}_poster\.jpg$/;
/** Posters are this wide (height follows the aspect ratio), like result thumbnails. */
export const POSTER_WIDTH = 480;

export type VideoMime = 'video/mp4' | 'video/webm';
export const EXT_OF: Readonly<Record<VideoMime, string>> = { 'video/mp4': '.mp4', 'video/webm': '.webm' };

/**
 * What the first bytes say the file is: MP4 (ISO BMFF) has an `ftyp` box first (size, then 'ftyp' at
 * offset 4); WebM (Matroska) starts with the EBML magic 1A 45 DF A3 and names its DocType 'webm' in the
 * EBML header. Anything else: null. The extension the user gave does not decide.
 */
export function sniffVideo(head: Uint8Array): VideoMime | null {
  if (head.length >= 12 && head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70) return 'video/mp4';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    return Buffer.from(head.subarray(0, Math.min(head.length, 64))).includes('webm') ? 'video/webm' : null;
  }
  return null;
}

export async function sniffFile(file: string): Promise<VideoMime | null> {
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return sniffVideo(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** ffprobe beside ffmpeg, or null. */
export function findFfprobe(ffmpeg: string | null): string | null {
  if (!ffmpeg) return null;
  const probe = path.join(path.dirname(ffmpeg), 'ffprobe');
  return existsSync(probe) ? probe : null;
}

/**
 * A poster frame (JPEG, POSTER_WIDTH wide) from 1 s in, or from the first frame of a shorter video; false
 * when ffmpeg is missing or cannot decode the file (the video is kept: browsers may still play it).
 */
export async function makePoster(src: string, dest: string, ffmpeg: string | null): Promise<boolean> {
  if (!ffmpeg) return false;
  for (const at of ['1', '0']) {
    try {
      await run(ffmpeg, ['-v', 'error', '-y', '-ss', at, '-i', src, '-frames:v', '1', '-vf', `scale='min(${POSTER_WIDTH},iw)':-2`, '-f', 'image2', dest], {
        timeout: 60_000,
      });
      if (existsSync(dest)) return true;
    } catch {
      await rm(dest, { force: true });
    }
  }
  return false;
}

/**
 * The length in seconds, or null: from ffprobe where it sits beside ffmpeg (Debian's), else from the
 * `Duration:` line ffmpeg itself prints about its input (the packaged ffmpeg comes without ffprobe).
 */
export async function probeDuration(src: string, ffprobe: string | null, ffmpeg: string | null = null): Promise<number | null> {
  const seconds = (d: number) => (Number.isFinite(d) && d >= 0 ? Math.round(d * 10) / 10 : null);
  if (ffprobe) {
    try {
      const { stdout } = await run(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', src], {
        timeout: 30_000,
      });
      return seconds(Number(stdout.trim()));
    } catch {
      return null;
    }
  }
  if (!ffmpeg) return null;
  // `ffmpeg -i <file>` with no output describes the input on stderr and exits 1 ("At least one output file").
  const stderr = await new Promise<string>((resolve) => {
    execFile(ffmpeg, ['-hide_banner', '-nostdin', '-i', src], { timeout: 30_000 }, (_err, _stdout, err) => resolve(String(err ?? '')));
  });
  const m = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  return m ? seconds(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) : null;
}
