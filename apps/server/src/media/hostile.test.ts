import { MEDIA_CHUNK_MAX_BYTES, MEDIA_UPLOAD_PATH, mediaUploadStart } from '@nest/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { live, registerDevice } from '../../test/live.js';
import { installWriteLog, type WriteLog } from '../../test/writes.js';
import { DeviceUploader, makeJpeg, photoMeta } from './testing.js';

/**
 * Hostile media uploads (the device's HTTP side of the link): start requests one mutation away
 * from valid (fast-check, fixed seed), malformed JSON, forged credentials, hostile offsets and ids. Each
 * is refused with a 4xx and a JSON reason, never a 5xx, and no row is written; a sound upload still works.
 */

let server: TestServer;
let writes: WriteLog;
let uploader: DeviceUploader;
const SN = 'MEDIA-FUZZ';

beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: SN });
  uploader = new DeviceUploader(server.app, DeviceUploader.basic(SN, live(server).devicePassword(SN)));
  writes = await installWriteLog(server, new Set(['sessions', 'audit_log']));
});
afterAll(async () => server?.close());

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1e308, -1e308, 2 ** 53, 'NaN', 'Infinity', '', '../../etc/passwd', 'a\u0000b', 'x'.repeat(300), [], {}, { __proto__: null, polluted: 1 }),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
);

function expectRefused(res: { statusCode: number; body: string }, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
  expect(() => JSON.parse(res.body) as unknown, what).not.toThrow();
}

describe('hostile media uploads', () => {
  it('start requests one mutation away from valid, and malformed bodies: 4xx, nothing stored', async () => {
    const file = makeJpeg(64, 48);
    const valid = photoMeta(file) as unknown as Record<string, unknown>;
    await writes.take();
    const cases = fc.sample(
      fc.tuple(fc.constantFrom(...Object.keys(valid)), hostile, fc.boolean()).map(([key, v, drop]) => {
        const meta: Record<string, unknown> = { ...valid, media_id: `fuzz-${Math.random().toString(36).slice(2, 12)}` };
        if (drop) delete meta[key];
        else meta[key] = v;
        return meta;
      }),
      { numRuns: 150, seed: 20261125 },
    ).filter((m) => !mediaUploadStart.safeParse(m).success);
    expect(cases.length).toBeGreaterThan(100);
    for (const meta of cases) expectRefused(await uploader.post(meta as never), JSON.stringify(meta).slice(0, 120));

    const raw = (payload: string, contentType = 'application/json') =>
      server.app.inject({ method: 'POST', url: MEDIA_UPLOAD_PATH, headers: { authorization: DeviceUploader.basic(SN, live(server).devicePassword(SN)), 'content-type': contentType }, payload });
    for (const body of ['', '{', 'null', '[]', '"x"', `${'['.repeat(5000)}${']'.repeat(5000)}`, `{"__proto__":${JSON.stringify(valid)}}`, JSON.stringify({ ...valid, pad: 'x'.repeat(2_000_000) })]) {
      expectRefused(await raw(body), body.slice(0, 40));
    }
    expectRefused(await raw(JSON.stringify(valid), 'text/plain'), 'text/plain');
    expect(await writes.take()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('forged credentials, hostile offsets, ids and chunks: 4xx, nothing stored; a sound upload still works', async () => {
    const file = makeJpeg(64, 48);
    const meta = photoMeta(file);
    const started = await uploader.post(meta);
    expect(started.statusCode).toBe(200);
    await writes.take();

    const post = (authorization: string) =>
      server.app.inject({ method: 'POST', url: MEDIA_UPLOAD_PATH, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(photoMeta(file)) });
    const password = live(server).devicePassword(SN);
    for (const auth of ['', 'Basic', 'Basic !!!', `Basic ${Buffer.from(SN).toString('base64')}`, `Basic ${Buffer.from(`${SN}:wrong`).toString('base64')}`, `Basic ${Buffer.from(`NOPE:${password}`).toString('base64')}`, `Basic ${Buffer.from(`${SN}\u0000:${password}`).toString('base64')}`, `Bearer ${password}`, `Basic ${'A'.repeat(10_000)}`]) {
      expectRefused(await post(auth), `auth ${auth.slice(0, 30)}`);
    }

    const patch = (id: string, offset: string, body: Buffer, contentType = 'application/offset+octet-stream') =>
      server.app.inject({
        method: 'PATCH',
        url: `${MEDIA_UPLOAD_PATH}/${id}`,
        headers: { authorization: DeviceUploader.basic(SN, password), 'content-type': contentType, 'upload-offset': offset },
        payload: body,
      });
    const chunk = file.subarray(0, 100);
    for (const offset of ['-1', 'NaN', '1e309', '9'.repeat(30), '', '0x10', '1.5', ' 0', String(file.length + 1), '100']) {
      expectRefused(await patch(meta.media_id, offset, chunk), `offset ${offset}`);
    }
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(300), 'no-such-upload-id', encodeURIComponent('__proto__')]) {
      expectRefused(await patch(id, '0', chunk), `id ${id}`);
    }
    expectRefused(await patch(meta.media_id, '0', chunk, 'application/json'), 'content-type');
    expectRefused(await patch(meta.media_id, '0', Buffer.alloc(MEDIA_CHUNK_MAX_BYTES + 1)), 'chunk over the limit');
    expectRefused(await patch(meta.media_id, '0', Buffer.alloc(file.length + 10)), 'more than the declared size');
    expect(await writes.take()).toEqual([]);

    // The upload goes on from where it was.
    const done = await uploader.send(meta, file);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<{ complete: boolean }>().complete).toBe(true);
  });
});
