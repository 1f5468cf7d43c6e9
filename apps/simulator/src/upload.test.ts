import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MEDIA_UPLOAD_PATH, mediaUploadStart } from '@nest/contracts';
import { UploadRejected, uploadMedia } from './upload.js';

/**
 * A tiny stand-in for the server's upload endpoint, only to exercise the uploader's resume and retry
 * mechanics (the real server is tested by the server team). `faults` decides per request what goes wrong.
 */
interface Fake {
  url: string;
  requests: { method: string; offset: number | null; bytes: number; auth: string }[];
  stored: Buffer;
  complete: boolean;
}

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function fake(fault: (n: number, req: IncomingMessage, res: ServerResponse, f: Fake) => boolean): Promise<Fake> {
  const f: Fake = { url: '', requests: [], stored: Buffer.alloc(0), complete: false };
  let sha = '';
  let size = 0;
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      const offsetHeader = req.headers['upload-offset'];
      f.requests.push({ method: req.method!, offset: offsetHeader ? Number(offsetHeader) : null, bytes: body.length, auth: req.headers.authorization ?? '' });
      if (fault(f.requests.length, req, res, f)) return;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && req.url === MEDIA_UPLOAD_PATH) {
        const start = mediaUploadStart.parse(JSON.parse(body.toString()));
        sha = start.sha256;
        size = start.size;
        return send(200, { offset: f.stored.length, complete: f.complete });
      }
      if (req.method === 'PATCH' && req.headers['content-type'] === 'application/offset+octet-stream') {
        if (Number(offsetHeader) !== f.stored.length) return send(409, { offset: f.stored.length });
        f.stored = Buffer.concat([f.stored, body]);
        if (f.stored.length === size) {
          if (createHash('sha256').update(f.stored).digest('hex') !== sha) {
            f.stored = Buffer.alloc(0);
            return send(422, { error: 'sha256 mismatch' });
          }
          f.complete = true;
        }
        return send(200, { offset: f.stored.length, complete: f.complete });
      }
      send(404, {});
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  f.url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return f;
}

const body = Buffer.from(Array.from({ length: 2_600_000 }, (_, i) => (i * 31) & 255));
const meta = {
  media_id: 'media-0001',
  flight_id: 'f-1',
  type: 10 as const,
  file_name: 'PHOTO_1.jpg',
  mime: 'image/jpeg' as const,
  taken_at: 1,
  lat: 22.5,
  lng: 114,
  height: 50,
  waypoint_index: 0,
  width: 10,
  height_px: 10,
  duration: null,
};
const opts = (url: string) => ({ baseUrl: url, sn: 'SIM-1', password: 'pw', meta, body, backoffMs: () => 5 });

describe('uploadMedia', () => {
  it('posts, then patches 1 MB chunks with upload-offset and Basic auth', async () => {
    const f = await fake(() => false);
    const r = await uploadMedia(opts(f.url));
    expect(r.complete).toBe(true);
    expect(f.stored.equals(body)).toBe(true);
    expect(f.requests.map((q) => `${q.method}:${q.offset ?? ''}`)).toEqual(['POST:', 'PATCH:0', 'PATCH:1048576', 'PATCH:2097152']);
    expect(f.requests[0]!.auth).toBe(`Basic ${Buffer.from('SIM-1:pw').toString('base64')}`);
  });

  it('resumes from the server offset after a network error', async () => {
    // The second PATCH dies mid-way (connection destroyed) after the server stored its bytes.
    const f = await fake((n, _req, res, state) => {
      if (n !== 3) return false;
      state.stored = body.subarray(0, 2 * 1024 * 1024);
      res.destroy();
      return true;
    });
    const r = await uploadMedia(opts(f.url));
    expect(r.complete).toBe(true);
    expect(f.stored.equals(body)).toBe(true);
    const after = f.requests.slice(3).map((q) => `${q.method}:${q.offset ?? ''}`);
    expect(after).toEqual(['POST:', 'PATCH:2097152']);
  });

  it('follows the offset of a 409 and restarts at 0 after a 422', async () => {
    let lied = false;
    const f = await fake((n, req, res, state) => {
      if (req.method === 'PATCH' && n === 2 && !lied) {
        // The server already has the first MB (e.g. from an earlier try): 409 with its offset.
        lied = true;
        state.stored = body.subarray(0, 1024 * 1024);
        res.writeHead(409, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ offset: state.stored.length }));
        return true;
      }
      return false;
    });
    const r = await uploadMedia(opts(f.url));
    expect(r.complete).toBe(true);
    expect(f.requests.map((q) => q.offset).filter((o) => o !== null)).toEqual([0, 1048576, 2097152]);
  });

  it('gives up on a definitive refusal (401)', async () => {
    const f = await fake((_n, _req, res) => {
      res.writeHead(401);
      res.end('{}');
      return true;
    });
    await expect(uploadMedia(opts(f.url))).rejects.toBeInstanceOf(UploadRejected);
  });
});
