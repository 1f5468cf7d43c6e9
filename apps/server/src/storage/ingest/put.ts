/**
 * The S3-compatible PutObject endpoint docks upload to (`PUT <base>/s3/<bucket>/<key>`): each request is
 * checked with the dock's temporary credentials (sigv4.ts) and its body against the signed payload hash
 * before anything is written; an accepted object goes into the product's MediaStore under the same key.
 * A refused upload writes nothing and answers an S3-style XML error.
 */
import type { FastifyInstance } from 'fastify';
import { isValidKey, type MediaStore } from '../store.js';
import { payloadMatches, type UploadCredentials } from './sigv4.js';

/** The largest single PutObject accepted (a dock photo or short clip; larger files use multipart). */
export const INGEST_PUT_MAX_BYTES = 64 * 1024 * 1024;

export interface IngestOptions {
  bucket: string;
  store: MediaStore;
  credentials: UploadCredentials;
  onStored?: (key: string, owner: string, size: number) => void;
}

function s3Error(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

export function registerIngestPut(app: FastifyInstance, opts: IngestOptions): void {
  void app.register((scope, _o, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INGEST_PUT_MAX_BYTES }, (_req, body, next) => next(null, body));
    scope.put<{ Params: { bucket: string; '*': string } }>('/s3/:bucket/*', async (req, reply) => {
      const key = req.params['*'];
      if (req.params.bucket !== opts.bucket || !isValidKey(key)) {
        return reply.code(404).type('application/xml').send(s3Error('NoSuchBucket', 'no such bucket or key'));
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const [path = '', search = ''] = req.url.split('?');
      const query = Object.fromEntries(new URLSearchParams(search));
      const verdict = await opts.credentials.verify({ method: 'PUT', path, query, headers }, key);
      if (!verdict.ok) {
        req.log.warn({ key, reason: verdict.reason }, 'dock upload refused');
        const code = verdict.reason === 'expired' ? 'ExpiredToken' : verdict.reason === 'signature' ? 'SignatureDoesNotMatch' : 'AccessDenied';
        return reply.code(403).type('application/xml').send(s3Error(code, verdict.reason));
      }
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!payloadMatches(verdict.payloadHash, body)) {
        req.log.warn({ key }, 'dock upload refused: body does not match its signed hash');
        return reply.code(400).type('application/xml').send(s3Error('XAmzContentSHA256Mismatch', 'body does not match its signed hash'));
      }
      await opts.store.putBytes(key, body, { contentType: headers['content-type'] });
      const info = await opts.store.stat(key);
      opts.onStored?.(key, verdict.credentials.owner, body.length);
      return reply.header('etag', info?.etag ?? '').code(200).send();
    });
    done();
  });
}
