import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { LocalMediaStore } from '../local.js';
import { registerIngestPut } from './put.js';
import { UploadCredentials } from './sigv4.js';

describe('dock upload ingest with the AWS SDK client', () => {
  it('accepts a PutObject from @aws-sdk/client-s3 with issued credentials and refuses one with a wrong secret', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-sdk-'));
    const store = new LocalMediaStore(dir);
    const credentials = new UploadCredentials('us-east-1');
    const app = Fastify();
    registerIngestPut(app, { bucket: 'media', store, credentials });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const issued = credentials.issue('DOCK-A', 'dji/DOCK-A/', 3600);
    const client = (secret: string) =>
      new S3Client({
        endpoint: `${address}/s3`,
        forcePathStyle: true,
        region: 'us-east-1',
        requestChecksumCalculation: 'WHEN_REQUIRED',
        credentials: { accessKeyId: issued.accessKeyId, secretAccessKey: secret, sessionToken: issued.sessionToken },
      });
    try {
      const body = Buffer.from('jpeg bytes from the sdk');
      const good = client(issued.secret);
      await good.send(new PutObjectCommand({ Bucket: 'media', Key: 'dji/DOCK-A/p.jpg', Body: body, ContentType: 'image/jpeg' }));
      expect((await store.stat('dji/DOCK-A/p.jpg'))?.size).toBe(body.length);
      const bad = client('wrong');
      await expect(bad.send(new PutObjectCommand({ Bucket: 'media', Key: 'dji/DOCK-A/q.jpg', Body: body }))).rejects.toThrow();
      expect(await store.stat('dji/DOCK-A/q.jpg')).toBeNull();
      good.destroy();
      bad.destroy();
    } finally {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('assembles a multipart upload from @aws-sdk/lib-storage into one object', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-sdk-'));
    const store = new LocalMediaStore(join(dir, 'store'));
    const credentials = new UploadCredentials('us-east-1');
    const stored: string[] = [];
    const app = Fastify();
    registerIngestPut(app, { bucket: 'media', store, credentials, tmpDir: join(dir, 'tmp'), onStored: (key) => stored.push(key) });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const issued = credentials.issue('DOCK-A', 'dji/DOCK-A/', 3600);
    const client = new S3Client({
      endpoint: `${address}/s3`,
      forcePathStyle: true,
      region: 'us-east-1',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: issued.accessKeyId, secretAccessKey: issued.secret, sessionToken: issued.sessionToken },
    });
    try {
      const body = Buffer.alloc(6 * 1024 * 1024 + 123);
      for (let i = 0; i < body.length; i++) body[i] = (i * 31) & 0xff;
      await new Upload({ client, params: { Bucket: 'media', Key: 'dji/DOCK-A/v.mp4', Body: body }, partSize: 5 * 1024 * 1024, queueSize: 1 }).done();
      const info = await store.stat('dji/DOCK-A/v.mp4');
      expect(info?.size).toBe(body.length);
      const chunks: Buffer[] = [];
      for await (const chunk of await store.read('dji/DOCK-A/v.mp4')) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(body)).toBe(true);
      expect(stored).toEqual(['dji/DOCK-A/v.mp4']);
    } finally {
      client.destroy();
      await app.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
