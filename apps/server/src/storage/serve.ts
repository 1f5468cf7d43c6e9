import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isValidKey, type ByteRange, type MediaStore } from './store.js';

export interface SendOptions {
  contentType: string;
  cacheControl: string;
  /** More headers (Content-Disposition, digests). */
  headers?: Readonly<Record<string, string>>;
  /** Answers a missing object (default: 404 with an empty body). */
  missing?: (reply: FastifyReply) => FastifyReply;
}

/**
 * One `Range` header against an object of `size` bytes: the inclusive range, 'unsatisfiable' (416), or
 * null to send the whole object (no header, several ranges, or a malformed one: RFC 9110 lets a server
 * ignore those).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

const etagMatches = (header: string, etag: string): boolean =>
  header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);

/**
 * Sends a stored object as an HTTP response, the same for every store: ETag / Last-Modified with 304 on
 * If-None-Match / If-Modified-Since, single byte ranges with 206 / 416 (the <video> element seeks with
 * them), If-Range. The bytes always come through this server, also from S3 (storage/README.md says why).
 */
export async function sendObject(request: FastifyRequest, reply: FastifyReply, store: MediaStore, key: string, opts: SendOptions): Promise<FastifyReply> {
  const info = isValidKey(key) ? await store.stat(key) : null;
  if (!info) return opts.missing ? opts.missing(reply) : reply.code(404).send();
  void reply
    .header('content-type', opts.contentType)
    .header('cache-control', opts.cacheControl)
    .header('accept-ranges', 'bytes')
    .header('etag', info.etag)
    .header('last-modified', info.modified.toUTCString());
  for (const [k, v] of Object.entries(opts.headers ?? {})) void reply.header(k, v);

  const inm = request.headers['if-none-match'];
  const ims = request.headers['if-modified-since'];
  if (inm ? etagMatches(inm, info.etag) : ims && Math.floor(info.modified.getTime() / 1000) <= Math.floor(Date.parse(ims) / 1000)) {
    return reply.code(304).send();
  }

  const ifRange = request.headers['if-range'];
  const rangeHolds = !ifRange || ifRange === info.etag || ifRange === info.modified.toUTCString();
  const range = rangeHolds ? parseRange(request.headers.range, info.size) : null;
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${info.size}`).send();
  if (range) {
    void reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    void reply.header('content-length', info.size);
  }
  // HEAD: the headers only, without fetching the object. An empty stream, not an empty body: Fastify's HEAD
  // handling keeps the Content-Length set above for a stream and resets it to 0 for an empty body.
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(await store.read(key, range ?? undefined));
}
