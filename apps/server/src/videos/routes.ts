import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

export const MEDIA_PREFIX = '/media/';
export const LIVE_PREFIX = '/live/';
export const mediaDir = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'media');

/**
 * Files: DATA_DIR/media at /media/ (recordings and their thumbnails) and LIVE_DIR at /live/ (HLS
 * playlists and segments written by devices' video pipelines). @fastify/static refuses paths that leave
 * the root (.., encoded or not) and dot files; no directory listings. Playlists are never cached,
 * segments and recordings are immutable once written.
 */
export async function registerMediaRoutes(app: FastifyInstance, config: Pick<Config, 'dataDir' | 'liveDir'>): Promise<void> {
  const media = mediaDir(config);
  await mkdir(media, { recursive: true });
  await mkdir(config.liveDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: media,
    prefix: MEDIA_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders: (res) => {
      res.header('cache-control', 'private, max-age=3600');
    },
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
