import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FIRMWARE_DOWNLOAD_PATH, FIRMWARE_FILE_FIELD, NEST_FIRMWARE_TYPE, TEACHING_VIDEO_FILE_FIELD, ResultCode, callFunId, type Firmware, type Page, type TeachingVideo } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMINISTRATOR, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { live, registerDevice } from '../../test/live.js';
import { mediaLinks, unsignedMediaUrl } from '../videos/links.js';
import { samplePackage } from '../firmware/sample.js';
import { sendMultipart } from '../firmware/testing.js';
import { DeviceUploader, makeJpeg, photoMeta } from '../media/testing.js';
import { S3MediaStore } from './s3.js';
import { startTestS3, type TestS3 } from './testing.js';
import { findFfmpeg, seedDemoRecordings } from '../videos/demo.js';

/**
 * MEDIA_STORE=s3 end to end, against a real S3 server on loopback: files uploaded through the product land
 * in the bucket (not in DATA_DIR), and a second instance serves them through the product's own URLs.
 */
let s3: TestS3;
let server: TestServer;
let other: FastifyInstance;
let bucket: S3MediaStore;
let wk: TestClient;
const SN = 'S3-NEST-1';
const PREFIX = 'nest/test';
// Firmware packages and teaching videos are system-wide catalogues: only a super administrator writes them.
const funs = [...['/result/list', '/result/zip', '/result/delete/one'].map(callFunId), 'rom_list', 'menu_teachingVideos', SUPER_ADMINISTRATOR];
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const localFiles = async (sub: string) => {
  const dir = path.join(server.dataDir, sub);
  return existsSync(dir) ? (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name) : [];
};

beforeAll(async () => {
  s3 = await startTestS3();
  server = await startTestServer({ config: { simulator: false, mediaStore: s3.config(PREFIX) } });
  other = await server.rebuild();
  bucket = new S3MediaStore(s3.config(PREFIX));
  await registerDevice(server, { sn_id: SN });
  wk = await userClient(server, { funList: funs });
});
afterAll(async () => {
  await server?.close();
  await bucket?.close();
  await s3?.close();
});

describe('MEDIA_STORE=s3', () => {
  it('a device result: stored in the bucket, served by another instance with ranges, zipped, deleted', async () => {
    expect(server.app.nest.deps.media.kind).toBe('s3');
    const photo = makeJpeg(800, 600);
    const device = new DeviceUploader(server.app, DeviceUploader.basic(SN, live(server).devicePassword(SN)));
    const done = await device.send(photoMeta(photo), photo, 50_000);
    expect(done.json()).toEqual({ offset: photo.length, complete: true });
    const list = (await wk.call<{ list: { id: string; url: string; thumb_url: string }[] }>('resultList', { page: 0 })).body.data.list;
    expect(list).toHaveLength(1);
    const r = list[0]!;
    // Listed as signed paths (videos/links.ts), which the other instance checks with the shared secret.
    expect(r.url).toMatch(/^\/media\/s\/[^/]+\/results\/\d{4}-\d{2}\/[0-9a-f-]+\.jpg$/);
    const key = unsignedMediaUrl(r.url).slice(1);
    expect(await bucket.list('media/results')).toEqual([key, unsignedMediaUrl(r.thumb_url).slice(1)].sort());
    expect(await localFiles('media')).toEqual([]);

    const whole = await other.inject({ method: 'GET', url: r.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('image/jpeg');
    expect(sha(whole.rawPayload)).toBe(sha(photo));
    const part = await other.inject({ method: 'GET', url: r.url, headers: { range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${photo.length}`);
    expect(part.rawPayload).toEqual(photo.subarray(100, 1100));
    const again = await other.inject({ method: 'GET', url: r.url, headers: { 'if-none-match': String(whole.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await other.inject({ method: 'GET', url: r.url, headers: { range: `bytes=${photo.length}-` } })).statusCode).toBe(416);
    const thumb = await other.inject({ method: 'GET', url: r.thumb_url });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const zip = (await wk.call<{ url: string }>('resultZip', { ids: r.id })).body.data;
    const archive = await other.inject({ method: 'GET', url: zip.url });
    expect(archive.statusCode).toBe(200);
    expect(archive.headers['content-type']).toBe('application/zip');
    // Stored, not compressed: the photo's bytes are in the archive as they are.
    expect(archive.rawPayload.includes(photo)).toBe(true);

    expect((await wk.call('resultDeleteOne', { id: r.id })).body.code).toBe(ResultCode.OK);
    expect(await bucket.list('media/results')).toEqual([]);
    expect((await other.inject({ method: 'GET', url: r.url })).statusCode).toBe(404);
  });

  it('a device upload goes on at another instance: chunks in the bucket, one chunk counted once when both take it', async () => {
    const photo = makeJpeg(640, 480);
    const meta = photoMeta(photo);
    const auth = DeviceUploader.basic(SN, live(server).devicePassword(SN));
    const a = new DeviceUploader(server.app, auth);
    const b = new DeviceUploader(other, auth);
    const third = Math.floor(photo.length / 3);
    expect((await a.post(meta)).json()).toEqual({ offset: 0, complete: false });
    expect((await a.patch(meta.media_id, 0, photo.subarray(0, third))).json()).toEqual({ offset: third, complete: false });
    // The chunk is in the bucket, not on the first instance's disk.
    expect(await bucket.list(`uploads/${SN}/${meta.media_id}`)).toHaveLength(1);
    expect(await localFiles('uploads')).toEqual([]);
    // The device's next request reaches the other instance: it knows the offset and takes the chunk.
    expect((await b.post(meta)).json()).toEqual({ offset: third, complete: false });
    // A retry lands on both instances at once: one counts it, the other answers where the upload stands.
    const both = await Promise.all([a, b].map((d) => d.patch(meta.media_id, third, photo.subarray(third, 2 * third))));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.map((r) => r.json<{ offset: number }>().offset)).toEqual([2 * third, 2 * third]);
    const last = await b.patch(meta.media_id, 2 * third, photo.subarray(2 * third));
    expect(last.json()).toEqual({ offset: photo.length, complete: true });
    const results = await server.db.selectFrom('results').selectAll().where('media_id', '=', meta.media_id).execute();
    expect(results).toHaveLength(1);
    const served = await server.app.inject({ method: 'GET', url: (await mediaLinks(server.db)).media(results[0]!.url) });
    expect(sha(served.rawPayload)).toBe(sha(photo));
    // Finished: no chunk is left in the bucket.
    expect(await bucket.list(`uploads/${SN}`)).toEqual([]);
  });

  it('a firmware package: stored in the bucket, downloaded by administrators (Range) and by a nest from another instance', async () => {
    const pkg = samplePackage({ type: NEST_FIRMWARE_TYPE, versionCode: 7, payloadBytes: 200_000 });
    const res = await sendMultipart<Firmware>(wk, 'romAdd', { type: NEST_FIRMWARE_TYPE, version_code: 7, version_name: '1.0.7', description: '修复', description_en: 'Fixes' }, [
      { field: FIRMWARE_FILE_FIELD, name: 'nest.wkimg', bytes: pkg },
    ]);
    expect(res.body.code).toBe(ResultCode.OK);
    const row = await server.db.selectFrom('firmware').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(await bucket.list('firmware')).toEqual([`firmware/${row.file_key}`]);
    expect(await localFiles('firmware')).toEqual([]);

    const url = (await wk.call<Page<Firmware>>('romList', { page: 0 })).body.data.list[0]!.url;
    const whole = await other.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload).toEqual(Buffer.from(pkg));
    expect(whole.headers['x-firmware-sha256']).toBe(sha(pkg));
    const part = await other.inject({ method: 'GET', url, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('WKIMG01\n');

    const byNest = await other.inject({
      method: 'GET',
      url: `${FIRMWARE_DOWNLOAD_PATH}/${row.id}`,
      headers: { authorization: DeviceUploader.basic(SN, live(server).devicePassword(SN)) },
    });
    expect(byNest.statusCode).toBe(200);
    expect(byNest.headers['x-content-sha256']).toBe(sha(pkg));
    expect(byNest.rawPayload).toEqual(Buffer.from(pkg));

    expect((await wk.call('romEdit', { id: row.id, state: 20, version_name: '1.0.7', description: '修复', description_en: 'Fixes' })).body.code).toBe(ResultCode.OK);
    expect(await bucket.list('firmware')).toEqual([]);
  });

  it('a teaching video: stored in the bucket, played from another instance with seeking (Range)', async () => {
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(300_000, 3)]);
    const res = await sendMultipart<TeachingVideo>(wk, 'teachAdd', { title: '起飞', cla_type: 10 }, [
      { field: TEACHING_VIDEO_FILE_FIELD, name: 'lesson.mp4', bytes: video, type: 'video/mp4' },
    ]);
    expect(res.body.code).toBe(ResultCode.OK);
    const row = await server.db.selectFrom('teaching_videos').selectAll().where('id', '=', res.body.data.id).executeTakeFirstOrThrow();
    expect(await bucket.list('teaching')).toContain(`teaching/${row.file_key}`);
    expect(await localFiles('teaching')).toEqual([]);

    const listed = (await wk.call<Page<TeachingVideo>>('teachList', { page: 0 })).body.data.list.find((v) => v.id === row.id)!;
    const whole = await other.inject({ method: 'GET', url: listed.preview_url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload).toEqual(video);
    // HEAD (players probe with it): the headers without the bytes.
    const head = await other.inject({ method: 'HEAD', url: listed.preview_url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(video.length));
    expect(head.rawPayload.length).toBe(0);
    const seek = await other.inject({ method: 'GET', url: listed.preview_url, headers: { range: 'bytes=4-' } });
    expect(seek.statusCode).toBe(206);
    expect(seek.headers['content-length']).toBe(String(video.length - 4));
    expect(seek.rawPayload).toEqual(video.subarray(4));

    expect((await wk.call('teachEdit', { id: row.id, state: 20, title: '起飞', cla_type: 10 })).body.code).toBe(ResultCode.OK);
    expect(await bucket.list('teaching')).toEqual([]);
  });

  it.runIf(findFfmpeg() !== null)('recordings: made locally, stored in the bucket, played from another instance', async () => {
    expect(await seedDemoRecordings(server.app.nest.deps, [{ sn: SN, companyId: 'wk' }])).toBe(2);
    const rows = await server.db.selectFrom('recordings').selectAll().where('sn_id', '=', SN).execute();
    expect((await bucket.list('media/recordings')).sort()).toEqual(rows.flatMap((r) => [r.url.slice(1), r.thumb_url.slice(1)]).sort());
    expect(await localFiles('media')).toEqual([]);
    expect(await localFiles('tmp/recordings')).toEqual([]);
    const links = await mediaLinks(server.db);
    const r = rows[0]!;
    const head = await other.inject({ method: 'GET', url: links.media(r.url), headers: { range: 'bytes=0-11' } });
    expect(head.statusCode).toBe(206);
    expect(head.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    expect((await other.inject({ method: 'GET', url: links.media(r.thumb_url) })).headers['content-type']).toBe('image/jpeg');
  });
});
