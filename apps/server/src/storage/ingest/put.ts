/**
 * The S3-compatible PutObject endpoint docks upload to (`PUT <base>/s3/<bucket>/<key>`): each request is
 * checked with the dock's temporary credentials (sigv4.ts) and its body against the signed payload hash
 * before anything is written; an accepted object goes into the product's MediaStore under the same key.
 * The multipart calls (create, upload part, complete, abort) keep parts in a temp folder until completed.
 * A refused upload writes nothing and answers an S3-style XML error.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_MAX_BYTES } from '@nest/contracts';
import { isValidKey, type MediaStore } from '../store.js';
import { payloadMatches, type UploadCredentials } from './sigv4.js';

/** The largest single PutObject accepted (a dock photo or short clip; larger files use multipart). */
export const INGEST_PUT_MAX_BYTES = 64 * 1024 * 1024;

export interface IngestOptions {
  bucket: string;
  store: MediaStore;
  credentials: UploadCredentials;
  onStored?: (key: string, owner: string, size: number) => void;
  /** Where multipart parts wait until completed (a temp folder by default). */
  tmpDir?: string;
}

interface Multipart {
  key: string;
  owner: string;
  dir: string;
  parts: Map<number, number>;
}

function s3Error(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

export function registerIngestPut(app: FastifyInstance, opts: IngestOptions): void {
  void app.register((scope, _o, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INGEST_PUT_MAX_BYTES }, (_req, body, next) => next(null, body));
    const uploads = new Map<string, Multipart>();
    const tmpRoot = opts.tmpDir ?? tmpdir();
    const xml = (reply: FastifyReply, status: number, code: string, message: string) =>
      reply.code(status).type('application/xml').send(s3Error(code, message));

    /** Verifies the request for its key and body; answers the refusal itself and returns undefined then. */
    async function admit(req: FastifyRequest<{ Params: { bucket: string; '*': string } }>, reply: FastifyReply) {
      const key = req.params['*'];
      if (req.params.bucket !== opts.bucket || !isValidKey(key)) {
        await xml(reply, 404, 'NoSuchBucket', 'no such bucket or key');
        return undefined;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const [path = '', search = ''] = req.url.split('?');
      const query = Object.fromEntries(new URLSearchParams(search));
      const verdict = await opts.credentials.verify({ method: req.method, path, query, headers }, key);
      if (!verdict.ok) {
        req.log.warn({ key, reason: verdict.reason }, 'dock upload refused');
        const code = verdict.reason === 'expired' ? 'ExpiredToken' : verdict.reason === 'signature' ? 'SignatureDoesNotMatch' : 'AccessDenied';
        await xml(reply, 403, code, verdict.reason);
        return undefined;
      }
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!payloadMatches(verdict.payloadHash, body)) {
        req.log.warn({ key }, 'dock upload refused: body does not match its signed hash');
        await xml(reply, 400, 'XAmzContentSHA256Mismatch', 'body does not match its signed hash');
        return undefined;
      }
      return { key, owner: verdict.credentials.owner, body, query, contentType: headers['content-type'] };
    }

    const ownUpload = (id: string | undefined, key: string, owner: string) => {
      const upload = id === undefined ? undefined : uploads.get(id);
      return upload && upload.key === key && upload.owner === owner ? upload : undefined;
    };

    scope.put<{ Params: { bucket: string; '*': string } }>('/s3/:bucket/*', async (req, reply) => {
      const ok = await admit(req, reply);
      if (!ok) return reply;
      if (ok.query.uploadId !== undefined) {
        const upload = ownUpload(ok.query.uploadId, ok.key, ok.owner);
        const part = Number(ok.query.partNumber);
        if (!upload) return xml(reply, 404, 'NoSuchUpload', 'no such upload');
        if (!Number.isInteger(part) || part < 1 || part > 10000) return xml(reply, 400, 'InvalidArgument', 'bad part number');
        await writeFile(join(upload.dir, String(part)), ok.body);
        upload.parts.set(part, ok.body.length);
        return reply.header('etag', `"${part}"`).code(200).send();
      }
      await opts.store.putBytes(ok.key, ok.body, { contentType: ok.contentType });
      const info = await opts.store.stat(ok.key);
      opts.onStored?.(ok.key, ok.owner, ok.body.length);
      return reply.header('etag', info?.etag ?? '').code(200).send();
    });

    scope.post<{ Params: { bucket: string; '*': string } }>('/s3/:bucket/*', async (req, reply) => {
      const ok = await admit(req, reply);
      if (!ok) return reply;
      if (ok.query.uploads !== undefined) {
        await mkdir(tmpRoot, { recursive: true });
        const id = randomUUID();
        uploads.set(id, { key: ok.key, owner: ok.owner, dir: await mkdtemp(join(tmpRoot, 'ingest-')), parts: new Map() });
        return reply
          .type('application/xml')
          .send(`<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>${opts.bucket}</Bucket><Key>${ok.key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      const upload = ownUpload(ok.query.uploadId, ok.key, ok.owner);
      if (!upload || ok.query.uploadId === undefined) return xml(reply, 404, 'NoSuchUpload', 'no such upload');
      const numbers = [...ok.body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
      if (numbers.length === 0 || numbers.some((n, i) => !upload.parts.has(n) || (i > 0 && n <= numbers[i - 1]!))) {
        return xml(reply, 400, 'InvalidPart', 'parts missing or out of order');
      }
      const size = numbers.reduce((sum, n) => sum + upload.parts.get(n)!, 0);
      if (size > MEDIA_MAX_BYTES) return xml(reply, 400, 'EntityTooLarge', 'object too large');
      const whole = join(upload.dir, 'whole');
      await pipeline(async function* () {
        for (const n of numbers) yield await readFile(join(upload.dir, String(n)));
      }, createWriteStream(whole));
      await opts.store.putFile(ok.key, whole, { move: true, contentType: ok.contentType });
      uploads.delete(ok.query.uploadId);
      await rm(upload.dir, { recursive: true, force: true });
      const info = await opts.store.stat(ok.key);
      opts.onStored?.(ok.key, ok.owner, size);
      return reply
        .type('application/xml')
        .send(`<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUploadResult><Bucket>${opts.bucket}</Bucket><Key>${ok.key}</Key><ETag>${info?.etag ?? ''}</ETag></CompleteMultipartUploadResult>`);
    });

    scope.delete<{ Params: { bucket: string; '*': string } }>('/s3/:bucket/*', async (req, reply) => {
      const ok = await admit(req, reply);
      if (!ok) return reply;
      const upload = ownUpload(ok.query.uploadId, ok.key, ok.owner);
      if (!upload || ok.query.uploadId === undefined) return xml(reply, 404, 'NoSuchUpload', 'no such upload');
      uploads.delete(ok.query.uploadId);
      await rm(upload.dir, { recursive: true, force: true });
      return reply.code(204).send();
    });

    done();
  });
}
