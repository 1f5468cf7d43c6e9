import { createHash } from 'node:crypto';
import {
  FIRMWARE_DOWNLOAD_PATH,
  LOG_DOWNLOAD_PATH,
  LOG_FILE_NAME_PATTERN,
  LOG_MAX_BYTES,
  LOG_UPLOAD_PATH,
  NEST_FIRMWARE_TYPE,
  RecordState,
} from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { linkHolds } from '../storage/links.js';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { attachmentHeader } from '../static/headers.js';
import { authenticateDevice } from '../devices/api.js';
import { STORAGE_FULL_TEXT, isStorageFull, sendObject } from '../storage/index.js';
import type { Maintenance } from './service.js';
import { LOG_LINK_PURPOSE, findOp } from './store.js';

const OCTET = 'application/octet-stream';
/** Firmware packages as stored by the firmware screen (/rom/add): media store key firmware/<file_key>. */
export const FIRMWARE_SUBDIR = 'firmware';
/** Uploaded nest logs: media store key device-logs/<op id> (DATA_DIR/device-logs/ locally). */
export const LOGS_SUBDIR = 'device-logs';
const SAFE_KEY = /^[A-Za-z0-9._-]{1,200}$/;

const problem = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error });

/**
 * HTTP routes of maintenance (README.md), outside the call router:
 * - GET FIRMWARE_DOWNLOAD_PATH/:id: a device (Basic sn:password, like media upload) downloads an enabled
 *   nest firmware package; `x-content-sha256` names its digest (the device checks it too).
 * - PUT LOG_UPLOAD_PATH/:op_id: the nest's log for its own running `log` operation, one octet-stream body up
 *   to LOG_MAX_BYTES with `x-content-sha256` (422 on a mismatch) and `x-file-name`; a repeat replaces it.
 * - GET LOG_DOWNLOAD_PATH/:op_id?e=&s=: the browser downloads a log through the signed link that /device/ops
 *   hands out, i.e. to callers holding its function for a device they may see (storage/links.ts; no session token
 *   in URLs, where access logs and Referer headers would keep it).
 */
export async function registerMaintenanceRoutes(app: FastifyInstance, deps: AppDeps, maint: Maintenance): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser(OCTET, { parseAs: 'buffer', bodyLimit: LOG_MAX_BYTES }, (_req, body, done) => done(null, body));
    const devices = new WeakMap<FastifyRequest, DeviceRow>();
    // Before any body is read: a stranger cannot make the server buffer a log.
    scope.addHook('onRequest', async (request, reply) => {
      const device = await authenticateDevice(deps, request);
      if (!device) return reply.code(401).header('www-authenticate', 'Basic realm="nest-device"').send({ error: 'unauthorized' });
      devices.set(request, device);
    });

    scope.get<{ Params: { id: string } }>(`${FIRMWARE_DOWNLOAD_PATH}/:id`, async (request, reply) => {
      const rom = await deps.db
        .selectFrom('firmware')
        .selectAll()
        .where('id', '=', request.params.id)
        .where('state', '=', RecordState.NORMAL)
        .where('type', '=', NEST_FIRMWARE_TYPE)
        .executeTakeFirst();
      if (!rom || !SAFE_KEY.test(rom.file_key)) return problem(reply, 404, 'not_found');
      return sendObject(request, reply, deps.media, `${FIRMWARE_SUBDIR}/${rom.file_key}`, {
        contentType: OCTET,
        cacheControl: 'no-store',
        headers: { 'x-content-sha256': rom.sha256 },
        missing: (r) => problem(r, 404, 'not_found'),
      });
    });

    scope.put<{ Params: { op_id: string } }>(`${LOG_UPLOAD_PATH}/:op_id`, async (request, reply) => {
      const device = devices.get(request)!;
      if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== OCTET) return problem(reply, 415, 'unsupported_media');
      const op = await findOp(deps.db, request.params.op_id);
      if (!op || op.sn_id !== device.sn_id || op.kind !== 'log') return problem(reply, 404, 'not_found');
      if (op.state !== 'running') return problem(reply, 409, 'not_running');
      const body = request.body as Buffer;
      const name = String(request.headers['x-file-name'] ?? '');
      const expected = String(request.headers['x-content-sha256'] ?? '').toLowerCase();
      if (!Buffer.isBuffer(body) || body.length === 0 || !LOG_FILE_NAME_PATTERN.test(name) || !/^[0-9a-f]{64}$/.test(expected)) {
        return problem(reply, 400, 'bad_request');
      }
      if (createHash('sha256').update(body).digest('hex') !== expected) return problem(reply, 422, 'sha256_mismatch');
      const key = `${LOGS_SUBDIR}/${op.id}`;
      // The store never shows half an object; a full one answers 507 and nothing is recorded.
      try {
        await deps.media.putBytes(key, body, { contentType: OCTET });
      } catch (err) {
        if (isStorageFull(err)) return reply.code(507).send({ error: 'storage_full', msg: STORAGE_FULL_TEXT });
        throw err;
      }
      const row = await maint.change(op.id, {
        progress: 90,
        outcome: { stage: 'upload', file_name: name, size: body.length },
        file: { key: op.id, name, size: body.length },
      });
      if (!row) {
        await deps.media.delete(key);
        return problem(reply, 409, 'not_running');
      }
      return reply.code(201).send({ size: body.length });
    });
  });

  app.get<{ Params: { op_id: string } }>(`${LOG_DOWNLOAD_PATH}/:op_id`, async (request, reply) => {
    if (!(await linkHolds(deps.db, LOG_LINK_PURPOSE, request.params.op_id, request.query))) return problem(reply, 401, 'unauthorized');
    const op = await findOp(deps.db, request.params.op_id);
    if (!op || !op.file_key || !SAFE_KEY.test(op.file_key)) return problem(reply, 404, 'not_found');
    const name = op.file_name && LOG_FILE_NAME_PATTERN.test(op.file_name) ? op.file_name : `${op.sn_id}.log`;
    return sendObject(request, reply, deps.media, `${LOGS_SUBDIR}/${op.file_key}`, {
      contentType: /\.(log|txt)$/i.test(name) ? 'text/plain; charset=utf-8' : OCTET,
      cacheControl: 'private, no-store',
      headers: { 'content-disposition': attachmentHeader(name), 'x-content-type-options': 'nosniff' },
      missing: (r) => problem(r, 404, 'not_found'),
    });
  });
}
