// Database: SQLite only: object storage implementations (disk, S3).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalMediaStore } from './local.js';
import { PART_SIZE, S3MediaStore } from './s3.js';
import { parseRange } from './serve.js';
import { NoSuchObject, isStorageFull, type MediaStore } from './store.js';
import { startTestS3, type TestS3 } from './testing.js';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let tmp: string;
let s3: TestS3;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'nest-store-'));
  s3 = await startTestS3();
});
afterAll(async () => {
  await s3?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** The same contract, run against the local directory and a real S3 server on loopback. */
const stores: { name: string; make: () => MediaStore }[] = [
  { name: 'local', make: () => new LocalMediaStore(path.join(tmp, 'root')) },
  { name: 's3', make: () => new S3MediaStore(s3.config('deploy-a')) },
];

describe.each(stores)('MediaStore contract: $name', ({ name, make }) => {
  let store: MediaStore;
  let n = 0;
  const srcFile = async (data: Uint8Array) => {
    const f = path.join(tmp, `${name}-src-${n++}`);
    await writeFile(f, data);
    return f;
  };
  beforeAll(() => {
    store = make();
  });
  afterAll(async () => store.close());

  it('puts a file and reads it back whole and by ranges; stat gives size and an ETag', async () => {
    const data = randomBytes(10_000);
    const file = await srcFile(data);
    await store.putFile('media/results/2026-11/a.jpg', file, { contentType: 'image/jpeg' });
    expect(existsSync(file)).toBe(true);
    const info = (await store.stat('media/results/2026-11/a.jpg'))!;
    expect(info.size).toBe(10_000);
    expect(info.etag).toMatch(/^".+"$/);
    expect(info.modified.getTime()).toBeGreaterThan(Date.now() - 3600_000);
    expect(sha(await bytesOf(await store.read('media/results/2026-11/a.jpg')))).toBe(sha(data));
    expect(await bytesOf(await store.read('media/results/2026-11/a.jpg', { start: 100, end: 199 }))).toEqual(data.subarray(100, 200));
    expect(await bytesOf(await store.read('media/results/2026-11/a.jpg', { start: 9_999, end: 9_999 }))).toEqual(data.subarray(9_999));
  });

  it('moves a file: the source is gone, the object holds its bytes', async () => {
    const data = randomBytes(2048);
    const file = await srcFile(data);
    await store.putFile('firmware/moved.wkimg', file, { move: true });
    expect(existsSync(file)).toBe(false);
    expect(await bytesOf(await store.read('firmware/moved.wkimg'))).toEqual(data);
  });

  it('overwrites: the new bytes and a new ETag', async () => {
    await store.putBytes('teaching/x.mp4', Buffer.from('first version'));
    const before = (await store.stat('teaching/x.mp4'))!;
    await store.putBytes('teaching/x.mp4', Buffer.from('second, longer version'));
    const after = (await store.stat('teaching/x.mp4'))!;
    expect((await bytesOf(await store.read('teaching/x.mp4'))).toString()).toBe('second, longer version');
    expect(after.size).toBe(22);
    expect(after.etag).not.toBe(before.etag);
  });

  it('a missing key: stat null, read NoSuchObject, delete is fine', async () => {
    expect(await store.stat('media/results/2026-11/none.jpg')).toBeNull();
    await expect(store.read('media/results/2026-11/none.jpg')).rejects.toBeInstanceOf(NoSuchObject);
    await expect(store.delete('media/results/2026-11/none.jpg')).resolves.toBeUndefined();
  });

  it('deletes one object, and a prefix; lists what is left', async () => {
    await store.putBytes('media/recordings/r1/a.mp4', Buffer.from('a'));
    await store.putBytes('media/recordings/r1/thumb.jpg', Buffer.from('b'));
    await store.putBytes('media/recordings/r2/a.mp4', Buffer.from('c'));
    expect(await store.list('media/recordings')).toEqual(['media/recordings/r1/a.mp4', 'media/recordings/r1/thumb.jpg', 'media/recordings/r2/a.mp4']);
    await store.deletePrefix('media/recordings/r1');
    expect(await store.list('media/recordings')).toEqual(['media/recordings/r2/a.mp4']);
    await store.delete('media/recordings/r2/a.mp4');
    expect(await store.stat('media/recordings/r2/a.mp4')).toBeNull();
    expect(await store.list('media/recordings')).toEqual([]);
  });

  it('refuses keys that could leave its root', async () => {
    for (const bad of ['../x', 'media/../../x', '/etc/passwd', 'media//x', 'media/.hidden', '', 'a\\b']) {
      await expect(store.putBytes(bad, Buffer.from('x'))).rejects.toThrow(/invalid media key/);
      await expect(store.stat(bad)).rejects.toThrow(/invalid media key/);
    }
  });

  it('stores a large object (several multipart parts on S3) byte for byte', async () => {
    const data = randomBytes(2 * PART_SIZE + 12_345);
    const file = await srcFile(data);
    const commands: string[] = [];
    if (store instanceof S3MediaStore) {
      store.client.middlewareStack.add(
        (next, context) => async (args) => {
          commands.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name: 'recordCommands' },
      );
    }
    await store.putFile('teaching/big.mp4', file, { contentType: 'video/mp4', move: true });
    if (store instanceof S3MediaStore) {
      expect(commands.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
      expect(commands).toContain('CompleteMultipartUploadCommand');
      store.client.middlewareStack.remove('recordCommands');
    }
    expect((await store.stat('teaching/big.mp4'))!.size).toBe(data.length);
    expect(sha(await bytesOf(await store.read('teaching/big.mp4')))).toBe(sha(data));
    const tail = await bytesOf(await store.read('teaching/big.mp4', { start: data.length - 100, end: data.length - 1 }));
    expect(tail).toEqual(data.subarray(data.length - 100));
    await store.delete('teaching/big.mp4');
  });
});

describe('S3 prefix', () => {
  it('keeps deployments apart: keys live under <prefix>/ in the bucket', async () => {
    const a = new S3MediaStore(s3.config('tenant-a/nest'));
    const b = new S3MediaStore(s3.config('tenant-b'));
    await a.putBytes('media/results/2026-11/p.jpg', Buffer.from('A'));
    expect(await b.stat('media/results/2026-11/p.jpg')).toBeNull();
    const root = new S3MediaStore(s3.config(''));
    expect(await root.list('tenant-a')).toEqual(['tenant-a/nest/media/results/2026-11/p.jpg']);
    await Promise.all([a.close(), b.close(), root.close()]);
  });
});

describe('parseRange', () => {
  it('reads single byte ranges like a <video> element sends them', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // Ignored (whole object): several ranges, reversed, other units, garbage.
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('bytes=9-3', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=-', 100)).toBeNull();
  });
});

describe('isStorageFull', () => {
  it('knows a full disk and a full object store, not other failures', () => {
    expect(isStorageFull(Object.assign(new Error('x'), { code: 'ENOSPC' }))).toBe(true);
    expect(isStorageFull(Object.assign(new Error('x'), { code: 'EDQUOT' }))).toBe(true);
    expect(isStorageFull({ name: 'XMinioStorageFull' })).toBe(true);
    expect(isStorageFull({ name: 'Unknown', $metadata: { httpStatusCode: 507 } })).toBe(true);
    expect(isStorageFull(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe(false);
    expect(isStorageFull(null)).toBe(false);
  });
});
