import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { isValidKey, sendObject } from '../storage/index.js';

export const MEDIA_PREFIX = '/media/';
export const LIVE_PREFIX = '/live/';
/** The media store key of everything under /media/ (results, thumbnails, recordings). */
export const MEDIA_KEY_ROOT = 'media';

const TYPES: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** The store key behind a /media/ URL path, or null for anything that is not a plain media key. */
export function mediaKeyOfPath(rel: string): string | null {
  const key = `${MEDIA_KEY_ROOT}/${rel}`;
  return isValidKey(key) ? key : null;
}

/**
 * Files: the media store's `media/` keys at /media/ (results, thumbnails, recordings; from any instance
 * when the store is S3) and LIVE_DIR at /live/ (HLS playlists and segments written by devices' video
 * pipelines). Media keys are checked (no `..`, no dot files); Range requests, ETag and 304 come from
 * storage/serve.ts. Playlists are never cached, segments and recordings are immutable once written.
 */
export async function registerMediaRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'config' | 'media'>): Promise<void> {
  const { config, media } = deps;
  await mkdir(config.liveDir, { recursive: true });
  app.get(`${MEDIA_PREFIX}*`, async (request, reply) => {
    const key = mediaKeyOfPath((request.params as { '*': string })['*']);
    if (!key) return reply.callNotFound();
    return sendObject(request, reply, media, key, {
      contentType: TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream',
      cacheControl: 'private, max-age=3600',
      missing: (r) => {
        r.callNotFound();
        return r;
      },
    });
  });
  await app.register(fastifyStatic, {
    root: config.liveDir,
    prefix: LIVE_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders: (res, filePath) => {
      res.header('cache-control', filePath.endsWith('.m3u8') ? 'no-cache' : 'private, max-age=60');
    },
  });
}
