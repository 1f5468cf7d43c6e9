import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { linkHolds } from '../storage/links.js';
import { sendObject } from '../storage/index.js';
import { POSTER_KEY_PATTERN, VIDEO_KEY_PATTERN, teachingKey } from './files.js';
import { POSTER_PURPOSE, VIDEO_PURPOSE, findLiveTeaching } from './store.js';

/**
 * Playback of live teaching videos: GET <video base>/teach/file/:id and /teach/poster/:id with the signed
 * link /teach/list hands out (401 without a live signature, 404 for a deleted video). Served from the
 * media store by storage/serve.ts: Range requests (seeking in the browser's player), ETag, Last-Modified;
 * the type is the one sniffed at upload. `private`: the links are personal, proxies keep nothing.
 */
export async function registerTeachingRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const base = deps.config.bases.video;

  app.get<{ Params: { id: string } }>(`${base}/teach/file/:id`, async (request, reply) => {
    if (!(await linkHolds(deps.db, VIDEO_PURPOSE, request.params.id, request.query))) return reply.code(401).send();
    const row = await findLiveTeaching(deps.db, request.params.id);
    if (!row || !VIDEO_KEY_PATTERN.test(row.file_key)) return reply.code(404).send();
    return sendObject(request, reply, deps.media, teachingKey(row.file_key), { contentType: row.mime, cacheControl: 'private, max-age=3600' });
  });

  app.get<{ Params: { id: string } }>(`${base}/teach/poster/:id`, async (request, reply) => {
    if (!(await linkHolds(deps.db, POSTER_PURPOSE, request.params.id, request.query))) return reply.code(401).send();
    const row = await findLiveTeaching(deps.db, request.params.id);
    if (!row?.thumb_key || !POSTER_KEY_PATTERN.test(row.thumb_key)) return reply.code(404).send();
    return sendObject(request, reply, deps.media, teachingKey(row.thumb_key), { contentType: 'image/jpeg', cacheControl: 'private, max-age=3600' });
  });
}
