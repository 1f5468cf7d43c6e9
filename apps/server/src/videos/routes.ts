import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ResultCode, type Lang } from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ffmpegLine, resolveFfmpeg } from '@nest/ffmpeg';
import { envelope, type Message } from '../calls/errors.js';
import { headerLang } from '../calls/routes.js';
import type { AppDeps } from '../deps.js';
import { LocalMediaStore, isValidKey, sendObject } from '../storage/index.js';
import { LIVE_PREFIX, MEDIA_PREFIX, SIGNED_MEDIA_PREFIX, linkTokenHolds } from './links.js';
import type { VideoUnavailableReason } from './live.js';

export { LIVE_PREFIX, MEDIA_PREFIX } from './links.js';
/** The media store key of everything under /media/ (results, thumbnails, recordings). */
export const MEDIA_KEY_ROOT = 'media';

const TYPES: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

const LIVE_TYPES: Readonly<Record<string, string>> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  '.aac': 'audio/aac',
};

/** The store key behind a /media/ URL path, or null for anything that is not a plain media key. */
export function mediaKeyOfPath(rel: string): string | null {
  const key = `${MEDIA_KEY_ROOT}/${rel}`;
  return isValidKey(key) ? key : null;
}

/** `<token>/<rest>` of a signed path, or null. */
function splitToken(rest: string): { token: string; rel: string } | null {
  const slash = rest.indexOf('/');
  return slash <= 0 ? null : { token: rest.slice(0, slash), rel: rest.slice(slash + 1) };
}

/** The answer to a path without a live signature: 401 with the envelope, nothing of the file. */
const refuse = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
  reply.code(401).header('cache-control', 'no-store').send(envelope(ResultCode.NO_PERMISSION, headerLang(request)));

const notFound = (reply: FastifyReply): FastifyReply => {
  reply.callNotFound();
  return reply;
};

const UNAVAILABLE_TEXT: Readonly<Record<VideoUnavailableReason, Record<Lang, string>>> = {
  noFfmpeg: { zh: '无法生成视频：服务器上没有 ffmpeg', en: 'No video: there is no ffmpeg on the server' },
  ffmpegFailed: { zh: '无法生成视频：服务器上的 ffmpeg 运行失败', en: 'No video: ffmpeg failed on the server' },
  unavailable: { zh: '设备无法提供视频', en: 'The device cannot provide video' },
};

/**
 * The answer for a live playlist that is not there because the device said its video cannot be produced:
 * 404 with the envelope, `data.video` `{available: false, reason}`, so the player says why and stops
 * retrying (apps/web/src/shared/video/engines.ts).
 */
export function liveUnavailableEnvelope(reason: VideoUnavailableReason, lang: Lang) {
  const message: Message = (l) => UNAVAILABLE_TEXT[reason][l];
  return envelope(ResultCode.NOT_FOUND_OBJECT, lang, { video: { available: false, reason } }, message);
}

/**
 * Company files, only through the signed paths the calls hand out (links.ts; the calls sign only what the
 * caller may see):
 * - `/media/s/<exp>.<sig>/<rel>`: the media store's key `media/<rel>` (results, thumbnails, recordings; from
 *   any instance when the store is S3);
 * - `/live/<exp>.<sig>/<sn>/<file>`: LIVE_DIR/<sn>/<file> (HLS playlists and segments written by devices'
 *   video pipelines).
 * Anything else under /media/ and /live/ (the plain paths, a bad, expired or other path's signature) is
 * refused with 401 and the NO_PERMISSION envelope, before any file is looked at. A missing playlist of a
 * device whose video.start was refused is answered with liveUnavailableEnvelope (the reason), else 404. Keys are checked (no `..`,
 * no dot files); Range requests, ETag and 304 come from storage/serve.ts. Playlists are never cached,
 * segments and recordings are immutable once written. /media/zip/ (zip.ts) has its own signed tokens.
 */
export async function registerMediaRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'config' | 'media' | 'db'> & Partial<Pick<AppDeps, 'live'>>): Promise<void> {
  const { config, media, db } = deps;
  // Which ffmpeg makes video here is printed by main.ts at start-up; the log keeps it for servers built in tests.
  const ffmpeg = resolveFfmpeg();
  app.log.debug({ ffmpeg: ffmpeg?.path ?? null, version: ffmpeg?.version ?? null, source: ffmpeg?.source ?? null }, ffmpegLine(ffmpeg));
  await mkdir(config.liveDir, { recursive: true });
  const liveFiles = new LocalMediaStore(config.liveDir);

  app.get(`${SIGNED_MEDIA_PREFIX}*`, async (request, reply) => {
    const signed = splitToken((request.params as { '*': string })['*']);
    if (!signed || !(await linkTokenHolds(db, 'media', signed.rel, signed.token))) return refuse(request, reply);
    const key = mediaKeyOfPath(signed.rel);
    if (!key) return notFound(reply);
    return sendObject(request, reply, media, key, {
      contentType: TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: 'private, max-age=3600',
      missing: notFound,
    });
  });
  app.get(`${MEDIA_PREFIX}*`, async (request, reply) => refuse(request, reply));

  app.get(`${LIVE_PREFIX}*`, async (request, reply) => {
    const signed = splitToken((request.params as { '*': string })['*']);
    const slash = signed ? signed.rel.indexOf('/') : -1;
    const sn = signed && slash > 0 ? signed.rel.slice(0, slash) : '';
    if (!signed || !sn || !(await linkTokenHolds(db, 'live', sn, signed.token))) return refuse(request, reply);
    const key = signed.rel;
    if (!isValidKey(key)) return notFound(reply);
    const ext = path.extname(key).toLowerCase();
    const reason = ext === '.m3u8' ? (deps.live?.video.unavailable(sn) ?? null) : null;
    return sendObject(request, reply, liveFiles, key, {
      contentType: LIVE_TYPES[ext] ?? 'application/octet-stream',
      cacheControl: ext === '.m3u8' ? 'no-cache' : 'private, max-age=60',
      missing: reason
        ? (r) => r.code(404).header('cache-control', 'no-store').send(liveUnavailableEnvelope(reason, headerLang(request)))
        : notFound,
    });
  });
}
