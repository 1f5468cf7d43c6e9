import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runFfmpeg } from '@nest/ffmpeg';
import jpeg from 'jpeg-js';
import { MEDIA_PREFIX } from '../videos/api.js';

/** Thumbnails are this wide (height follows the aspect ratio). */
export const THUMB_WIDTH = 320;
export const RESULTS_SUBDIR = 'results';

/**
 * Where the chunks of an upload in progress live in the media store: one object per accepted chunk, named
 * by its offset, under `uploads/<sn>/<media_id>/` (outside media/, so nothing unverified is ever served).
 * In the store rather than on one instance's disk, so any instance can take the next chunk.
 */
export const uploadFolder = (sn: string, mediaId: string): string => `uploads/${sn}/${mediaId}`;
/** Offsets are zero-padded so that the names sort in byte order. */
export const chunkKey = (sn: string, mediaId: string, offset: number): string => `${uploadFolder(sn, mediaId)}/${String(offset).padStart(15, '0')}`;
/** The offset a chunk key names, or null for anything else in the folder. */
export const chunkOffset = (key: string): number | null => {
  const m = /\/(\d{15})$/.exec(key);
  return m ? Number(m[1]) : null;
};
/** Before the chunks went into the store (a one-time cleanup removes what is left there). */
export const legacyPartDir = (dataDir: string): string => path.join(dataDir, 'tmp', 'uploads');
/** Local scratch of one finishing upload: the chunks are joined here to be verified and thumbnailed. */
export const scratchPath = (dataDir: string, name: string): string => path.join(dataDir, 'tmp', 'finishing', name);

/** The store keys' folder `media/results/<yyyy-mm>/` of a moment (UTC), and its URL prefix. */
export function resultPlace(at: Date): { prefix: string; url: string } {
  const month = `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return { prefix: `media/${RESULTS_SUBDIR}/${month}/`, url: `${MEDIA_PREFIX}${RESULTS_SUBDIR}/${month}/` };
}

/** The store key behind a /media/results/ URL, or null for anything else (never outside media/results). */
export function keyOfUrl(url: string): string | null {
  const prefix = `${MEDIA_PREFIX}${RESULTS_SUBDIR}/`;
  if (!url.startsWith(prefix)) return null;
  const rel = url.slice(prefix.length);
  if (!/^\d{4}-\d{2}\/[A-Za-z0-9_-]+\.(jpg|mp4)$/.test(rel)) return null;
  return `media/${RESULTS_SUBDIR}/${rel}`;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function headAndTail(file: string, n: number): Promise<{ head: Buffer; tail: Buffer; size: number }> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(n, size));
    await fh.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(n, size));
    await fh.read(tail, 0, tail.length, size - tail.length);
    return { head, tail, size };
  } finally {
    await fh.close();
  }
}

/**
 * Whether the file really is what the device claims: a JPEG starts with SOI (FF D8 FF) and ends with EOI
 * (FF D9); an MP4 starts with an `ftyp` box. Enough to refuse a wrong or truncated file before it is served
 * with that type; the decoder (thumbnail) sees the rest.
 */
export async function contentMatches(file: string, mime: string): Promise<boolean> {
  const { head, tail, size } = await headAndTail(file, 16);
  if (mime === 'image/jpeg') {
    return size >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff && tail[tail.length - 2] === 0xff && tail[tail.length - 1] === 0xd9;
  }
  if (mime === 'video/mp4') return size >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp';
  return false;
}

/** Width and height of a JPEG from its SOF marker (no decoding), or null. */
export async function jpegSize(file: string): Promise<{ width: number; height: number } | null> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(256 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    let i = 2;
    while (i + 9 < bytesRead) {
      if (buf[i] !== 0xff) return null;
      const marker = buf[i + 1]!;
      if (marker === 0xff) {
        i++;
        continue;
      }
      const len = buf.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
      }
      i += 2 + len;
    }
    return null;
  } finally {
    await fh.close();
  }
}

/** Area-average downscale of RGBA pixels to `w` x `h` (sharper than nearest-neighbour, no dependency). */
export function downscale(src: Uint8Array, sw: number, sh: number, w: number, h: number): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor((y * sh) / h);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * sh) / h));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * sw) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * sw) / w));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const p = (yy * sw + xx) * 4;
          r += src[p]!;
          g += src[p + 1]!;
          b += src[p + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = 255;
    }
  }
  return out;
}

/** A JPEG thumbnail in-process with jpeg-js (no ffmpeg on this machine). */
export async function jpegThumbnail(src: string, dest: string): Promise<void> {
  const img = jpeg.decode(await readFile(src), { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
  const w = Math.min(THUMB_WIDTH, img.width);
  const h = Math.max(1, Math.round((img.height * w) / img.width));
  const data = downscale(img.data, img.width, img.height, w, h);
  await writeFile(dest, jpeg.encode({ data, width: w, height: h }, 80).data);
}

/**
 * Makes `dest` (JPEG, THUMB_WIDTH wide). Photos: ffmpeg when present (fast on 20 MP), else jpeg-js.
 * Videos: a frame at 0.5 s with ffmpeg, else none. Answers whether a thumbnail was made; a file the
 * decoder cannot read gets none rather than failing the upload (the original is still verified).
 */
export async function makeThumbnail(src: string, dest: string, mime: string, ffmpeg: string | null): Promise<boolean> {
  try {
    if (mime === 'image/jpeg') {
      if (ffmpeg) {
        await runFfmpeg(ffmpeg, ['-v', 'error', '-y', '-i', src, '-frames:v', '1', '-vf', `scale='min(${THUMB_WIDTH},iw)':-2`, '-f', 'image2', dest]);
      } else {
        await jpegThumbnail(src, dest);
      }
      return true;
    }
    if (mime === 'video/mp4' && ffmpeg) {
      await runFfmpeg(ffmpeg, ['-v', 'error', '-y', '-ss', '0.5', '-i', src, '-frames:v', '1', '-vf', `scale=${THUMB_WIDTH}:-2`, '-f', 'image2', dest]);
      return true;
    }
  } catch {
    await rm(dest, { force: true });
  }
  return false;
}
