import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FIRMWARE_DOWNLOAD_PATH,
  LOG_DOWNLOAD_PATH,
  LOG_FILE_NAME_PATTERN,
  LOG_MAX_BYTES,
  LOG_UPLOAD_PATH,
  NEST_FIRMWARE_TYPE,
} from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { linkHolds } from '../auth/links.js';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { attachmentHeader } from '../static/headers.js';
import { authenticateDevice } from '../media/auth.js';
import type { Maintenance } from './service.js';
import { LOG_LINK_PURPOSE, findOp } from './store.js';

const OCTET = 'application/octet-stream';
/** Firmware packages as stored by the firmware screen (/rom/add): DATA_DIR/firmware/<file_key>. */
export const FIRMWARE_SUBDIR = 'firmware';
/** Uploaded nest logs: DATA_DIR/device-logs/<op id>. */
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
 *   hands out, i.e. to callers holding its function for a device they may see (auth/links.ts; no session token
 *   in URLs, where access logs and Referer headers would keep it).
 */
export async function registerMaintenanceRoutes(app: FastifyInstance, deps: AppDeps, maint: Maintenance): Promise<void> {
  const { dataDir } = deps.config;
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
        .where('state', '=', 10)
        .where('type', '=', NEST_FIRMWARE_TYPE)
        .executeTakeFirst();
      if (!rom || !SAFE_KEY.test(rom.file_key)) return problem(reply, 404, 'not_found');
      const file = path.join(dataDir, FIRMWARE_SUBDIR, rom.file_key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return problem(reply, 404, 'not_found');
      return reply
        .header('content-type', OCTET)
        .header('content-length', info.size)
        .header('x-content-sha256', rom.sha256)
        .header('cache-control', 'no-store')
        .send(createReadStream(file));
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
      const dir = path.join(dataDir, LOGS_SUBDIR);
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, op.id);
      // Written aside and renamed: a download never sees half a file.
      const part = `${file}.part`;
      await writeFile(part, body);
      await rename(part, file);
      const row = await maint.change(op.id, {
        progress: 90,
        outcome: { stage: 'upload', file_name: name, size: body.length },
        file: { key: op.id, name, size: body.length },
      });
      if (!row) {
        await rm(file, { force: true });
        return problem(reply, 409, 'not_running');
      }
      return reply.code(201).send({ size: body.length });
    });
  });

  app.get<{ Params: { op_id: string } }>(`${LOG_DOWNLOAD_PATH}/:op_id`, async (request, reply) => {
    if (!(await linkHolds(deps.db, LOG_LINK_PURPOSE, request.params.op_id, request.query))) return problem(reply, 401, 'unauthorized');
    const op = await findOp(deps.db, request.params.op_id);
    if (!op || !op.file_key || !SAFE_KEY.test(op.file_key)) return problem(reply, 404, 'not_found');
    const file = path.join(dataDir, LOGS_SUBDIR, op.file_key);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return problem(reply, 404, 'not_found');
    const name = op.file_name && LOG_FILE_NAME_PATTERN.test(op.file_name) ? op.file_name : `${op.sn_id}.log`;
    return reply
      .header('content-type', /\.(log|txt)$/i.test(name) ? 'text/plain; charset=utf-8' : OCTET)
      .header('content-length', info.size)
      .header('content-disposition', attachmentHeader(name))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(createReadStream(file));
  });
}
