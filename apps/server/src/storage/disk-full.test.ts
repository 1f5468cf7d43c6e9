import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  FIRMWARE_FILE_FIELD,
  NEST_FIRMWARE_TYPE,
  TEACHING_VIDEO_FILE_FIELD,
  ResultCode,
  callFunId,
  callUrl,
  calls,
  type Envelope,
  type TeachingVideo,
} from '@nest/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMINISTRATOR, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { live, registerDevice } from '../../test/live.js';
import { mediaLinks } from '../videos/links.js';
import { samplePackage } from '../firmware/sample.js';
import { multipartBody, sendMultipart } from '../firmware/testing.js';
import { DeviceUploader, makeJpeg, photoMeta } from '../media/testing.js';
import { STORAGE_FULL_TEXT } from './store.js';

/**
 * Disk full for real: small tmpfs file systems mounted over DATA_DIR/tmp (files being received, scratch),
 * DATA_DIR/uploads (chunks of device uploads in progress), and DATA_DIR/media and DATA_DIR/teaching (the
 * local media store), filled up with a filler file. The tests
 * run as root (like CI); a machine that cannot mount fails here rather than skipping.
 */
let server: TestServer;
let wk: TestClient;
let device: DeviceUploader;
const SN = 'FULL-NEST-1';
const mounts: string[] = [];

async function mountTmpfs(dir: string, size: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
}

/** Fills the file system of `dir` until only about `leave` bytes are free. */
async function fill(dir: string, leave: number): Promise<void> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  await writeFile(path.join(dir, 'filler'), Buffer.alloc(Math.max(0, free - leave)));
}
const unfill = (dir: string) => rm(path.join(dir, 'filler'), { force: true });

/** Bytes of the stored chunks of one upload (local store: files under DATA_DIR/uploads/<sn>/<media_id>/). */
async function chunkBytes(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) if (e.isFile()) n += (await stat(path.join(dir, e.name))).size;
  return n;
}

/** Every file under `dir` but the filler: leftovers of a failed write would show here. */
async function filesIn(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const all = await readdir(dir, { recursive: true, withFileTypes: true });
  return all.filter((e) => e.isFile() && e.name !== 'filler').map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

let tmp: string;
let uploads: string;
let media: string;
let teaching: string;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  tmp = path.join(server.dataDir, 'tmp');
  uploads = path.join(server.dataDir, 'uploads');
  media = path.join(server.dataDir, 'media');
  teaching = path.join(server.dataDir, 'teaching');
  await mountTmpfs(tmp, '1m');
  await mountTmpfs(uploads, '1m');
  await mountTmpfs(media, '2m');
  await mountTmpfs(teaching, '1m');
  await registerDevice(server, { sn_id: SN });
  device = new DeviceUploader(server.app, DeviceUploader.basic(SN, live(server).devicePassword(SN)));
  // Firmware packages and teaching videos are system-wide catalogues: only a super administrator adds them.
  wk = await userClient(server, { funList: [callFunId('/result/list'), 'rom_list', 'menu_teachingVideos', SUPER_ADMINISTRATOR] });
});
afterAll(async () => {
  for (const dir of mounts.reverse()) execFileSync('umount', ['-l', dir]);
  await server?.close();
});

// A failed test must not leave the next one with a full disk.
afterEach(async () => {
  for (const dir of mounts) await unfill(dir);
});

const resultsOf = (mediaId: string) => server.db.selectFrom('results').selectAll().where('media_id', '=', mediaId).execute();
const uploadRow = (mediaId: string) => server.db.selectFrom('media_uploads').selectAll().where('media_id', '=', mediaId).executeTakeFirstOrThrow();

describe('disk full on upload', () => {
  it('a device upload while receiving: 507 with both texts, the offset kept, no result; resumes once there is room', async () => {
    const photo = makeJpeg(640, 400, true);
    expect(photo.length).toBeGreaterThan(300_000);
    const meta = photoMeta(photo);
    await fill(uploads, 128 * 1024);
    const res = await device.send(meta, photo, 64 * 1024);
    expect(res.statusCode).toBe(507);
    const body = res.json<{ error: string; offset: number; msg: { zh: string; en: string } }>();
    expect(body).toMatchObject({ error: 'storage_full', msg: STORAGE_FULL_TEXT });
    expect(body.msg.zh).toContain('存储空间不足');
    expect(body.msg.en).toContain('out of storage space');
    expect(body.offset).toBeGreaterThan(0);
    expect(body.offset).toBeLessThan(photo.length);
    // The refused chunk left nothing behind: the stored chunks hold exactly the acknowledged bytes.
    expect(await chunkBytes(path.join(uploads, SN, meta.media_id))).toBe(body.offset);
    expect((await filesIn(uploads)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(Number((await uploadRow(meta.media_id)).received)).toBe(body.offset);
    expect(await resultsOf(meta.media_id)).toEqual([]);
    expect(await filesIn(media)).toEqual([]);

    await unfill(uploads);
    const resumed = await device.send(meta, photo, 64 * 1024);
    expect(resumed.json()).toEqual({ offset: photo.length, complete: true });
    const [row] = await resultsOf(meta.media_id);
    const served = await server.app.inject({ method: 'GET', url: (await mediaLinks(server.db)).media(row!.url) });
    expect(served.rawPayload).toEqual(photo);
  });

  it('a device upload whose store is full when it finishes: 507, no result, no partial object; the next POST finishes it', async () => {
    const photo = makeJpeg(640, 400, true);
    const meta = photoMeta(photo);
    const before = await filesIn(media);
    await fill(media, 64 * 1024);
    const res = await device.send(meta, photo);
    expect(res.statusCode).toBe(507);
    expect(res.json()).toMatchObject({ error: 'storage_full', msg: STORAGE_FULL_TEXT });
    expect(await resultsOf(meta.media_id)).toEqual([]);
    // Neither the photo, its thumbnail nor a half-copied temp file is in the store.
    expect(await filesIn(media)).toEqual(before);
    // Every byte is still received, so nothing has to be sent again.
    expect(Number((await uploadRow(meta.media_id)).received)).toBe(photo.length);
    expect(await chunkBytes(path.join(uploads, SN, meta.media_id))).toBe(photo.length);

    await unfill(media);
    const again = await device.post(meta);
    expect(again.json()).toEqual({ offset: photo.length, complete: true });
    const [row] = await resultsOf(meta.media_id);
    expect((await server.app.inject({ method: 'GET', url: (await mediaLinks(server.db)).media(row!.url) })).rawPayload).toEqual(photo);
    expect(await filesIn(uploads)).toEqual([]);
    expect(await filesIn(path.join(tmp, 'finishing'))).toEqual([]);
  });

  it('a firmware package while the upload area is full: a clear error in zh and en, no row, no file; accepted once there is room', async () => {
    const pkg = samplePackage({ type: NEST_FIRMWARE_TYPE, versionCode: 3, payloadBytes: 400_000 });
    const fields = { type: NEST_FIRMWARE_TYPE, version_code: 3, version_name: '1.0.3', description: '修复', description_en: 'Fixes' };
    // The disk fills while the body is read, before its os_language field is known: the browser's
    // Accept-Language decides the language then.
    const add = (lang: string) => {
      const { body, contentType } = multipartBody('romAdd', { ...fields, os_language: lang }, wk.token, [{ field: FIRMWARE_FILE_FIELD, name: 'nest.wkimg', bytes: pkg }]);
      return server.app.inject({
        method: 'POST',
        url: callUrl(calls.romAdd, server.config.bases),
        headers: { 'content-type': contentType, 'accept-language': lang === 'zh' ? 'zh-CN,zh;q=0.9' : 'en-US,en;q=0.9' },
        payload: body,
      });
    };
    await fill(tmp, 64 * 1024);
    for (const [lang, text] of [['zh', STORAGE_FULL_TEXT.zh], ['en', STORAGE_FULL_TEXT.en]] as const) {
      const res = (await add(lang)).json<Envelope>();
      expect(res.code).toBe(ResultCode.SERVER_ERROR);
      expect(res.msg).toBe(text);
    }
    expect(await server.db.selectFrom('firmware').select('id').execute()).toEqual([]);
    expect(await filesIn(tmp)).toEqual([]);
    expect(existsSync(path.join(server.dataDir, 'firmware')) ? await readdir(path.join(server.dataDir, 'firmware')) : []).toEqual([]);

    await unfill(tmp);
    expect((await add('zh')).json<Envelope>().code).toBe(ResultCode.OK);
  });

  it('a teaching video whose store is full: a clear error, no row, nothing stored; accepted once there is room', async () => {
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(300_000, 5)]);
    const add = () => sendMultipart<TeachingVideo>(wk, 'teachAdd', { title: '降落', cla_type: 10 }, [{ field: TEACHING_VIDEO_FILE_FIELD, name: 'land.mp4', bytes: video, type: 'video/mp4' }]);
    await fill(teaching, 64 * 1024);
    const res = await add();
    expect(res.body.code).toBe(ResultCode.SERVER_ERROR);
    expect(res.body.msg).toBe(STORAGE_FULL_TEXT.en);
    expect(await server.db.selectFrom('teaching_videos').select('id').execute()).toEqual([]);
    expect(await filesIn(teaching)).toEqual([]);
    expect(await filesIn(tmp)).toEqual([]);

    await unfill(teaching);
    expect((await add()).body.code).toBe(ResultCode.OK);
    expect(await filesIn(teaching)).toHaveLength(1);
  });
});
