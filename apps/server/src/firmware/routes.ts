import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { attachmentHeader } from '../static/headers.js';
import { sendObject } from '../storage/index.js';
import { FILE_KEY_PATTERN, firmwareKey } from './files.js';
import { linkHolds } from '../storage/links.js';
import { DOWNLOAD_PURPOSE, findLiveFirmware } from './store.js';

/**
 * The administrators' download of a live firmware package: GET <device base>/rom/download/:id?e=..&s=..,
 * the signed link /rom/list hands out (401 without a live signature, 404 for a deleted package), with Range
 * requests, ETag and Last-Modified (storage/serve.ts) and the file's digests in `x-firmware-sha256` /
 * `x-firmware-md5`. Devices download from maintenance/routes.ts (contracts FIRMWARE_DOWNLOAD_PATH, Basic
 * device credentials), which reads the same `firmware/` keys of the media store.
 */
export async function registerFirmwareRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const base = deps.config.bases.device;
  app.get<{ Params: { id: string } }>(`${base}/rom/download/:id`, async (request, reply) => {
    if (!(await linkHolds(deps.db, DOWNLOAD_PURPOSE, request.params.id, request.query))) return reply.code(401).send();
    const row = await findLiveFirmware(deps.db, request.params.id);
    if (!row || !FILE_KEY_PATTERN.test(row.file_key)) return reply.code(404).send();
    return sendObject(request, reply, deps.media, firmwareKey(row.file_key), {
      contentType: 'application/octet-stream',
      cacheControl: 'private, no-cache',
      headers: { 'x-firmware-sha256': row.sha256, 'x-firmware-md5': row.md5, 'content-disposition': attachmentHeader(row.file_name) },
    });
  });
}
