import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import {
  MEDIA_CHUNK_MAX_BYTES,
  MEDIA_UPLOAD_PATH,
  PushMsgId,
  ResultCode,
  callFunId,
  type MediaUploadStart,
} from '@nest/contracts';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { makeJpeg, photoMeta } from './testing.js';
import { live, registerDevice } from '../../test/live.js';
import { findFfmpeg } from '../videos/demo.js';
import { mediaLinks, unsignedMediaUrl } from '../videos/links.js';
import { chunkKey, contentMatches, jpegSize, makeThumbnail, uploadFolder } from './files.js';
import { sweepStaleUploads } from './sweep.js';

let server: TestServer;
let base: string;
let wk: TestClient;
let gz: TestClient;
const SN = 'MEDIA-SN-1';
const funs = ['/result/list', '/result/delete/one', '/result/delete/ids', '/result/delete/sort', '/sorties/list'].map(callFunId);

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const authOf = (sn: string, password = live(server).devicePassword(sn)) => `Basic ${Buffer.from(`${sn}:${password}`).toString('base64')}`;

/** The shared photo metadata, at waypoint 3 (the assertions below read it back). */
const metaOf = (file: Buffer, over: Partial<MediaUploadStart> = {}): MediaUploadStart => photoMeta(file, { waypoint_index: 3, ...over });

function post(meta: unknown, auth = authOf(SN)) {
  return server.app.inject({ method: 'POST', url: MEDIA_UPLOAD_PATH, headers: { authorization: auth, 'content-type': 'application/json' }, payload: JSON.stringify(meta) });
}

function patch(mediaId: string, offset: number, chunk: Buffer, auth = authOf(SN)) {
  return server.app.inject({
    method: 'PATCH',
    url: `${MEDIA_UPLOAD_PATH}/${mediaId}`,
    headers: { authorization: auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
    payload: chunk,
  });
}

/** POST then PATCH in chunks; answers the last response. */
async function upload(meta: MediaUploadStart, file: Buffer, chunk = 64 * 1024) {
  const start = await post(meta);
  expect(start.statusCode).toBe(200);
  let offset = start.json<{ offset: number }>().offset;
  let last = start;
  while (offset < file.length) {
    last = await patch(meta.media_id, offset, file.subarray(offset, offset + chunk));
    if (last.statusCode !== 200) return last;
    offset = last.json<{ offset: number }>().offset;
  }
  return last;
}

type ResultRow = { id: string; sort_id: string | null; url: string; thumb_url: string; width: number | null; height: number | null; altitude: number; waypoint_index: number | null };
async function listed(client = wk, fields: Record<string, string | number> = {}) {
  const res = await client.call<{ list: ResultRow[]; total: number }>('resultList', fields);
  expect(res.body.code).toBe(ResultCode.OK);
  return res.body.data;
}
/** The file behind a result URL, signed (as listed) or stored. */
const fileOf = (url: string) => path.join(server.dataDir, unsignedMediaUrl(url).replace(/^\//, ''));
const resultsOf = (mediaId: string) => server.db.selectFrom('results').selectAll().where('media_id', '=', mediaId).execute();

beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: SN });
  await registerDevice(server, { sn_id: 'MEDIA-OFF', enabled: false });
  wk = await userClient(server, { funList: funs });
  gz = await userClient(server, { funList: funs, companyId: 'gzGh' });
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => server?.close());

describe('device media upload', () => {
  it('uploads a photo in chunks: verified, stored under /media/results/, thumbnail, listed once, attached to its sortie', async () => {
    const flightId = `F-${randomUUID()}`;
    const sortId = randomUUID();
    await server.db
      .insertInto('sorties')
      .values({ id: sortId, flight_id: flightId, sn_id: SN, company_id: 'wk', start_time: 1_700_000_000, created_at: 1_700_000_000 })
      .execute();
    const pushes: { msgId: number; data: unknown }[] = [];
    const hub = server.app.nest.hub;
    const publish = hub.publish.bind(hub);
    hub.publish = (sn: string, msgId: number, data: unknown) => {
      pushes.push({ msgId, data });
      return publish(sn, msgId, data);
    };
    const file = makeJpeg();
    const meta = metaOf(file, { flight_id: flightId });
    const res = await upload(meta, file, 10_000);
    hub.publish = publish;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ offset: file.length, complete: true });
    const { list } = await listed(wk, { sort_id: sortId });
    expect(list).toHaveLength(1);
    const r = list[0]!;
    expect(r).toMatchObject({ sort_id: sortId, width: 640, height: 360, altitude: 80, waypoint_index: 3 });
    // Listed as its signed path (videos/links.ts); stored under /media/results/.
    expect(r.url).toMatch(/^\/media\/s\/[^/]+\/results\/\d{4}-\d{2}\/[0-9a-f-]+\.jpg$/);
    expect(await readFile(fileOf(r.url))).toEqual(file);
    expect(existsSync(fileOf(r.thumb_url))).toBe(true);
    const thumb = jpeg.decode(await readFile(fileOf(r.thumb_url)));
    expect(thumb.width).toBe(320);
    expect(pushes).toEqual([
      { msgId: PushMsgId.RESULT_ADDED, data: { sn_id: SN, sort_id: sortId, id: r.id, type: 10, url: unsignedMediaUrl(r.url), thumb_url: unsignedMediaUrl(r.thumb_url) } },
    ]);
    const served = await server.app.inject({ method: 'GET', url: r.url });
    expect(served.statusCode).toBe(200);
    expect((await server.app.inject({ method: 'GET', url: unsignedMediaUrl(r.url) })).statusCode).toBe(401);
    const sortie = await server.db.selectFrom('sorties').select('count').where('id', '=', sortId).executeTakeFirstOrThrow();
    expect(Number(sortie.count)).toBe(1);
    // The same media_id again: complete at once, never a second result.
    const again = await post(meta);
    expect(again.json()).toEqual({ offset: file.length, complete: true });
    expect((await patch(meta.media_id, 0, file.subarray(0, 100))).json()).toEqual({ offset: file.length, complete: true });
    expect(await resultsOf(meta.media_id)).toHaveLength(1);
    // Nothing is left of the upload: no chunk in the store, no scratch file.
    expect(await server.app.nest.deps.media.list(`uploads/${SN}`)).toEqual([]);
    expect(await readdir(path.join(server.dataDir, 'tmp', 'finishing'))).toEqual([]);
  });

  it('resumes after a PATCH interrupted mid-body: the partial chunk is dropped, the device continues at the offset', async () => {
    const file = makeJpeg(800, 600);
    const meta = metaOf(file);
    await post(meta);
    const half = Math.floor(file.length / 2);
    expect((await patch(meta.media_id, 0, file.subarray(0, half))).json()).toEqual({ offset: half, complete: false });
    // A real HTTP PATCH that dies after part of its body.
    await new Promise<void>((resolve) => {
      const req = http.request(`${base}${MEDIA_UPLOAD_PATH}/${meta.media_id}`, {
        method: 'PATCH',
        headers: {
          authorization: authOf(SN),
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(half),
          'content-length': String(file.length - half),
        },
      });
      req.on('error', () => resolve());
      // Once the part is written to the socket, the connection ends: the server reads the part, then the end.
      req.write(file.subarray(half, half + 1000), () => {
        req.destroy();
        resolve();
      });
    });
    const state = await post(meta);
    expect(state.json()).toEqual({ offset: half, complete: false });
    expect((await listed()).list.some((r) => r.id === meta.media_id)).toBe(false);
    expect(await resultsOf(meta.media_id)).toHaveLength(0);
    const done = await patch(meta.media_id, half, file.subarray(half));
    expect(done.json()).toEqual({ offset: file.length, complete: true });
    expect(await resultsOf(meta.media_id)).toHaveLength(1);
  });

  it('chunks lost from the store (a wiped folder): the last chunk answers where they still follow on, and the device goes on from there', async () => {
    const file = makeJpeg(400, 300);
    const meta = metaOf(file);
    const { media } = server.app.nest.deps;
    await post(meta);
    const q = Math.floor(file.length / 4);
    for (let i = 0; i < 3; i++) expect((await patch(meta.media_id, i * q, file.subarray(i * q, (i + 1) * q))).statusCode).toBe(200);
    // The second chunk is gone: only the first follows on from 0.
    await media.delete(chunkKey(SN, meta.media_id, q));
    expect((await patch(meta.media_id, 3 * q, file.subarray(3 * q))).json()).toEqual({ offset: q, complete: false });
    expect(await resultsOf(meta.media_id)).toHaveLength(0);
    expect((await post(meta)).json()).toEqual({ offset: q, complete: false });
    expect((await patch(meta.media_id, q, file.subarray(q))).json()).toEqual({ offset: file.length, complete: true });
    const [r] = await resultsOf(meta.media_id);
    expect((await server.app.inject({ method: 'GET', url: (await mediaLinks(server.db)).media(r!.url) })).rawPayload).toEqual(file);
  });

  it.skipIf(!findFfmpeg())('uploads an MP4 video: type 20, a thumbnail frame from ffmpeg', async () => {
    const dir = await tempDir();
    const src = path.join(dir, 'v.mp4');
    await new Promise<void>((resolve, reject) =>
      execFile(findFfmpeg()!, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=10', '-t', '1', '-pix_fmt', 'yuv420p', src], (err) =>
        err ? reject(err) : resolve(),
      ),
    );
    const file = await readFile(src);
    const meta = metaOf(file, { type: 20, mime: 'video/mp4', file_name: 'DJI_0002.MP4', duration: 1, width: 320, height_px: 180 });
    expect((await upload(meta, file)).json()).toEqual({ offset: file.length, complete: true });
    const [row] = await resultsOf(meta.media_id);
    expect(row!.url).toMatch(/\.mp4$/);
    expect(row!.thumb_url).toMatch(/_thumb\.jpg$/);
    expect(existsSync(fileOf(row!.thumb_url))).toBe(true);
  });

  it('answers 409 with the server offset when the device is elsewhere', async () => {
    const file = makeJpeg(64, 64);
    const meta = metaOf(file);
    await post(meta);
    await patch(meta.media_id, 0, file.subarray(0, 100));
    const res = await patch(meta.media_id, 50, file.subarray(50, 200));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ offset: 100 });
    const missing = await patch('no-such-upload-1', 0, file.subarray(0, 10));
    expect(missing.statusCode).toBe(404);
  });

  it('refuses a sha256 mismatch (422, back to 0) and lists nothing; half-received uploads are never listed', async () => {
    const file = makeJpeg(64, 64);
    const meta = metaOf(file, { sha256: sha(Buffer.from('something else')) });
    await post(meta);
    const half = await patch(meta.media_id, 0, file.subarray(0, 100));
    expect(half.json()).toEqual({ offset: 100, complete: false });
    expect(await resultsOf(meta.media_id)).toHaveLength(0);
    const res = await patch(meta.media_id, 100, file.subarray(100));
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'sha256_mismatch', offset: 0 });
    expect((await post(meta)).json()).toEqual({ offset: 0, complete: false });
    expect(await resultsOf(meta.media_id)).toHaveLength(0);
    expect(await server.app.nest.deps.media.list(uploadFolder(SN, meta.media_id))).toEqual([]);
  });

  it('refuses a file that is not what its mime says', async () => {
    const fake = Buffer.from('GIF89a this is not a jpeg at all'.repeat(10));
    const meta = metaOf(fake);
    const res = await upload(meta, fake);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: 'content_mismatch', offset: 0 });
    expect(await resultsOf(meta.media_id)).toHaveLength(0);
  });

  it('refuses a chunk over MEDIA_CHUNK_MAX_BYTES, bytes past the size, and a wrong content type', async () => {
    const meta = metaOf(Buffer.alloc(10), { size: MEDIA_CHUNK_MAX_BYTES + 10 });
    await post(meta);
    const big = await patch(meta.media_id, 0, Buffer.alloc(MEDIA_CHUNK_MAX_BYTES + 1));
    expect(big.statusCode).toBe(413);
    const small = metaOf(Buffer.alloc(10), { size: 10 });
    await post(small);
    expect((await patch(small.media_id, 0, Buffer.alloc(11))).statusCode).toBe(413);
    const typed = await server.app.inject({
      method: 'PATCH',
      url: `${MEDIA_UPLOAD_PATH}/${small.media_id}`,
      headers: { authorization: authOf(SN), 'content-type': 'text/plain', 'upload-offset': '0' },
      payload: 'hello',
    });
    expect(typed.statusCode).toBe(415);
    const row = await server.db.selectFrom('media_uploads').select('received').where('media_id', '=', meta.media_id).executeTakeFirstOrThrow();
    expect(Number(row.received)).toBe(0);
    expect((await post({ ...small, size: -1 })).statusCode).toBe(400);
  });

  it('gives up unfinished uploads nobody touched for long, never finished ones', async () => {
    const file = makeJpeg(48, 48);
    const meta = metaOf(file);
    await post(meta);
    await patch(meta.media_id, 0, file.subarray(0, 100));
    const { media } = server.app.nest.deps;
    expect(await media.list(uploadFolder(SN, meta.media_id))).toEqual([chunkKey(SN, meta.media_id, 0)]);
    const done = metaOf(makeJpeg(50, 50));
    expect((await upload(done, makeJpeg(50, 50))).json()).toMatchObject({ complete: true });
    // A chunk left behind by a finished upload (its removal failed) goes too.
    await media.putBytes(chunkKey(SN, done.media_id, 0), Buffer.from('left over'));
    await sweepStaleUploads(server.app.nest.deps, Math.floor(Date.now() / 1000) + 10);
    expect(await media.list(`uploads/${SN}`)).toEqual([]);
    expect((await post(meta)).json()).toEqual({ offset: 0, complete: false });
    expect((await post(done)).json()).toMatchObject({ complete: true });
  });

  it('answers 401 to a wrong password, an unknown or a disabled device, and stores nothing', async () => {
    const file = makeJpeg(32, 32);
    const meta = metaOf(file);
    for (const auth of [
      authOf(SN, 'wrong'),
      authOf('MEDIA-UNKNOWN'),
      authOf('MEDIA-OFF'),
      'Bearer x',
      '',
    ]) {
      const res = await post(meta, auth);
      expect(res.statusCode).toBe(401);
      expect((await patch(meta.media_id, 0, file, auth)).statusCode).toBe(401);
    }
    expect(await server.db.selectFrom('media_uploads').select('media_id').where('media_id', '=', meta.media_id).execute()).toEqual([]);
  });

  it('scopes results by company; deletions are company-checked, remove the files and keep the sortie count', async () => {
    const flightId = `F-${randomUUID()}`;
    const sortId = randomUUID();
    await server.db
      .insertInto('sorties')
      .values({ id: sortId, flight_id: flightId, sn_id: SN, company_id: 'wk', start_time: 1_700_000_100, created_at: 1_700_000_100 })
      .execute();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const file = makeJpeg(40 + i, 40);
      const meta = metaOf(file, { flight_id: flightId });
      expect((await upload(meta, file)).statusCode).toBe(200);
      ids.push((await resultsOf(meta.media_id))[0]!.id);
    }
    expect((await listed(gz)).list.filter((r) => ids.includes(r.id))).toEqual([]);
    const foreign = await gz.call('resultDeleteOne', { id: ids[0]! });
    expect(foreign.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const mixed = await gz.call('resultDeleteIds', { ids: ids.join(',') });
    expect(mixed.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await listed(wk, { sort_id: sortId })).total).toBe(3);

    const [first] = (await listed(wk, { sort_id: sortId })).list.filter((r) => r.id === ids[0]);
    expect((await wk.call('resultDeleteOne', { id: ids[0]! })).body.code).toBe(ResultCode.OK);
    expect(existsSync(fileOf(first!.url))).toBe(false);
    expect(existsSync(fileOf(first!.thumb_url))).toBe(false);
    const count = async () => Number((await server.db.selectFrom('sorties').select('count').where('id', '=', sortId).executeTakeFirstOrThrow()).count);
    expect(await count()).toBe(2);
    expect((await gz.call('resultDeleteSort', { sort_id: sortId })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('resultDeleteSort', { sort_id: sortId })).body.code).toBe(ResultCode.OK);
    expect(await count()).toBe(0);
    expect((await listed(wk, { sort_id: sortId })).total).toBe(0);
  });
});

describe('media files', () => {
  it('makes a JPEG thumbnail with jpeg-js when there is no ffmpeg, and reads sizes from SOF', async () => {
    const dir = await tempDir();
    const src = path.join(dir, 'a.jpg');
    await writeFile(src, makeJpeg(1000, 500));
    expect(await jpegSize(src)).toEqual({ width: 1000, height: 500 });
    expect(await contentMatches(src, 'image/jpeg')).toBe(true);
    expect(await contentMatches(src, 'video/mp4')).toBe(false);
    expect(await makeThumbnail(src, path.join(dir, 't.jpg'), 'image/jpeg', null)).toBe(true);
    const t = jpeg.decode(await readFile(path.join(dir, 't.jpg')));
    expect([t.width, t.height]).toEqual([320, 160]);
    expect(await makeThumbnail(src, path.join(dir, 'v.jpg'), 'video/mp4', null)).toBe(false);
  });
});
