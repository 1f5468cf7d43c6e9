import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignatureV4 } from '@smithy/signature-v4';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalMediaStore } from '../local.js';
import { registerIngestPut } from './put.js';
import { NodeSha256, UploadCredentials, type IssuedCredentials } from './sigv4.js';

const REGION = 'us-east-1';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'ingest-'));
  dirs.push(dir);
  const store = new LocalMediaStore(dir);
  const credentials = new UploadCredentials(REGION);
  const stored: string[] = [];
  const app = Fastify();
  registerIngestPut(app, { bucket: 'media', store, credentials, onStored: (key) => stored.push(key) });
  await app.ready();
  return { app, store, credentials, stored };
}

async function signed(issued: IssuedCredentials, key: string, body: Buffer, secret = issued.secret) {
  const signer = new SignatureV4({
    credentials: { accessKeyId: issued.accessKeyId, secretAccessKey: secret, sessionToken: issued.sessionToken },
    region: REGION,
    service: 's3',
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const req = await signer.sign({
    method: 'PUT',
    protocol: 'http:',
    hostname: 'localhost:80',
    path: `/s3/media/${key}`,
    query: {},
    headers: { host: 'localhost:80', 'content-type': 'image/jpeg', 'x-amz-content-sha256': createHash('sha256').update(body).digest('hex') },
  });
  return req.headers;
}

describe('dock upload ingest (PutObject)', () => {
  it('stores a correctly signed object in the media store', async () => {
    const { app, store, credentials, stored } = await setup();
    const issued = credentials.issue('DOCK-A', 'dji/DOCK-A/', 3600);
    const body = Buffer.from('a jpeg');
    const res = await app.inject({ method: 'PUT', url: '/s3/media/dji/DOCK-A/1.jpg', headers: await signed(issued, 'dji/DOCK-A/1.jpg', body), payload: body });
    expect(res.statusCode).toBe(200);
    expect((await store.stat('dji/DOCK-A/1.jpg'))?.size).toBe(body.length);
    expect(stored).toEqual(['dji/DOCK-A/1.jpg']);
    await app.close();
  });

  it('refuses a wrong secret, another dock prefix and a tampered body, writing nothing', async () => {
    const { app, store, credentials, stored } = await setup();
    const a = credentials.issue('DOCK-A', 'dji/DOCK-A/', 3600);
    const body = Buffer.from('a jpeg');
    const wrong = await app.inject({ method: 'PUT', url: '/s3/media/dji/DOCK-A/1.jpg', headers: await signed(a, 'dji/DOCK-A/1.jpg', body, 'bad'), payload: body });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('SignatureDoesNotMatch');
    const other = await app.inject({ method: 'PUT', url: '/s3/media/dji/DOCK-B/1.jpg', headers: await signed(a, 'dji/DOCK-B/1.jpg', body), payload: body });
    expect(other.statusCode).toBe(403);
    const tampered = await app.inject({ method: 'PUT', url: '/s3/media/dji/DOCK-A/2.jpg', headers: await signed(a, 'dji/DOCK-A/2.jpg', body), payload: Buffer.from('b jpeg') });
    expect(tampered.statusCode).toBe(400);
    expect(await store.list('dji')).toEqual([]);
    expect(stored).toEqual([]);
    await app.close();
  });
});
