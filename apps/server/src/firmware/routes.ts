import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppDeps } from '../deps.js';
import { attachmentHeader } from '../static/headers.js';
import { FILE_KEY_PATTERN, firmwareDir } from './files.js';
import { linkHolds } from '../auth/links.js';
import { DOWNLOAD_PURPOSE, findLiveFirmware, type FirmwareRow } from './store.js';

/**
 * The administrators' download of a live firmware package: GET <device base>/rom/download/:id?e=..&s=..,
 * the signed link /rom/list hands out (401 without a live signature, 404 for a deleted package), with Range
 * requests, ETag and Last-Modified through @fastify/static's sender and the file's digests in
 * `x-firmware-sha256` / `x-firmware-md5`. Devices download from maintenance/routes.ts
 * (contracts FIRMWARE_DOWNLOAD_PATH, Basic device credentials), which reads the same DATA_DIR/firmware.
 */
export async function registerFirmwareRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const root = firmwareDir(deps.config.dataDir);
  await mkdir(root, { recursive: true });
  const base = deps.config.bases.device;

  await app.register(async (scope) => {
    await scope.register(fastifyStatic, { root, serve: false, index: false, list: false, dotfiles: 'deny', cacheControl: false });

    const send = (reply: FastifyReply, row: FirmwareRow) => {
      if (!FILE_KEY_PATTERN.test(row.file_key)) return reply.code(404).send();
      void reply
        .header('cache-control', 'private, no-cache')
        .header('content-type', 'application/octet-stream')
        .header('x-firmware-sha256', row.sha256)
        .header('x-firmware-md5', row.md5);
      void reply.header('content-disposition', attachmentHeader(row.file_name));
      return reply.sendFile(row.file_key, { contentType: false });
    };

    scope.get<{ Params: { id: string } }>(`${base}/rom/download/:id`, async (request, reply) => {
      if (!(await linkHolds(deps.db, DOWNLOAD_PURPOSE, request.params.id, request.query))) return reply.code(401).send();
      const row = await findLiveFirmware(deps.db, request.params.id);
      if (!row) return reply.code(404).send();
      return send(reply, row);
    });
  });
}
