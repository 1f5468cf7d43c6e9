import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ResultCode, TEACHING_VIDEO_FILE_FIELD, type Page, type TeachingVideo } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMINISTRATOR, adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { sendMultipart } from '../firmware/testing.js';
import { findFfmpeg } from '../videos/demo.js';
import { probeDuration, sniffVideo } from './files.js';

const run = promisify(execFile);
const ffmpeg = findFfmpeg();

let server: TestServer;
let admin: TestClient;
let manager: TestClient;
let viewer: TestClient;
let realMp4: Buffer | null = null;

/** The smallest thing that sniffs as MP4 / WebM (not playable: no poster can be made from them). */
const FAKE_MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(64, 1)]);
const FAKE_WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84]), Buffer.from('webm'), Buffer.alloc(64, 2)]);

const add = (c: TestClient, fields: Fields, bytes: Uint8Array, name = 'lesson.mp4', app = c.server.app) =>
  sendMultipart<TeachingVideo>(c, 'teachAdd', fields, [{ field: TEACHING_VIDEO_FILE_FIELD, name, bytes, type: 'video/mp4' }], app);
const rows = () => server.db.selectFrom('teaching_videos').selectAll().orderBy('id').execute();
const stored = async () => {
  const dir = path.join(server.dataDir, 'teaching');
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
};

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  // The teaching videos are one catalogue for every company: only a super administrator writes it.
  manager = await userClient(server, { companyId: 'gzGh', funList: [SUPER_ADMINISTRATOR] });
  viewer = await userClient(server, { companyId: 'gzGh', funList: ['menu_teachingVideos'] });
  if (ffmpeg) {
    const out = path.join(server.dataDir, 'sample.mp4');
    await run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', out]).catch(() =>
      run(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '2', out]),
    );
    realMp4 = await readFile(out);
  }
});
afterAll(async () => server?.close());

describe('sniffing', () => {
  it('knows MP4 and WebM by their first bytes, nothing else', () => {
    expect(sniffVideo(FAKE_MP4)).toBe('video/mp4');
    expect(sniffVideo(FAKE_WEBM)).toBe('video/webm');
    // Matroska that is not WebM, a JPEG, text.
    expect(sniffVideo(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from('matroska')]))).toBeNull();
    expect(sniffVideo(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(sniffVideo(Buffer.from('hello world, not a video'))).toBeNull();
  });
});

describe('length', () => {
  it.skipIf(!ffmpeg)('is read from ffmpeg itself when no ffprobe sits beside it (the packaged ffmpeg has none)', async () => {
    const file = path.join(server.dataDir, 'sample.mp4');
    expect(await probeDuration(file, null, ffmpeg)).toBeCloseTo(2, 0);
    expect(await probeDuration(path.join(server.dataDir, 'missing.mp4'), null, ffmpeg)).toBeNull();
    expect(await probeDuration(file, null, null)).toBeNull();
  });
});

describe('teaching videos', () => {
  it.skipIf(!ffmpeg)('stores an MP4 with a poster and its length; plays it through the signed link with Range', async () => {
    const res = await add(manager, { title: '起飞前检查', describe: '如何做起飞前检查', notes: 'n', cla_type: 10 }, realMp4!, '检查.mp4');
    expect(res.body.code).toBe(ResultCode.OK);
    const v = res.body.data;
    expect(v).toMatchObject({ title: '起飞前检查', describe: '如何做起飞前检查', notes: 'n', cla_type: 10, mime: 'video/mp4', file_name: '检查.mp4', state: 10 });
    expect(v.duration).toBeCloseTo(2, 0);
    expect(v.poster_url).toMatch(/^\/api\/video\/teach\/poster\//);
    const poster = await server.app.inject({ method: 'GET', url: v.poster_url });
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(poster.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const listed = (await viewer.call<Page<TeachingVideo>>('teachList', { page: 0 })).body.data.list.find((x) => x.id === v.id)!;
    const whole = await server.app.inject({ method: 'GET', url: listed.preview_url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.rawPayload).toEqual(realMp4);
    const part = await server.app.inject({ method: 'GET', url: listed.preview_url, headers: { range: 'bytes=4-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('ftyp');
    expect((await server.app.inject({ method: 'GET', url: listed.preview_url.replace(/e=\d+/, 'e=9999999999') })).statusCode).toBe(401);
  });

  it('takes the type from the content: a WebM named .webm; a file without a frame gets no poster', async () => {
    const res = await add(manager, { title: 'WebM lesson' }, FAKE_WEBM, 'lesson.webm');
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data).toMatchObject({ mime: 'video/webm', poster_url: '', cla_type: 0, describe: '' });
    expect(res.body.data.preview_url).not.toBe('');
    const row = (await rows()).find((r) => r.id === res.body.data.id)!;
    expect(row.file_key).toMatch(/\.webm$/);
    expect(row.thumb_key).toBeNull();
  });

  it('refuses what is not a video, a wrong name, no file, bad fields; keeps nothing', async () => {
    const before = { rows: await rows(), files: await stored() };
    const refused = [
      await add(manager, { title: 'x' }, Buffer.from('not a video at all, just text'), 'x.mp4'),
      await add(manager, { title: 'x' }, FAKE_MP4, 'x.avi'),
      await add(manager, { title: 'x' }, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6, 7, 8]), 'x.webm'),
      await sendMultipart(manager, 'teachAdd', { title: 'x' }, []),
      await add(manager, { title: '' }, FAKE_MP4),
      await add(manager, { title: 'x', cla_type: 11 }, FAKE_MP4),
      await add(manager, { title: 'x'.repeat(65) }, FAKE_MP4),
    ];
    for (const r of refused) expect(r.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(refused[0]!.body.msg).toBe('The file content is not an MP4 or WebM video');
    expect(refused[1]!.body.msg).toBe('The video must be an .mp4 or .webm file');
    expect(await rows()).toEqual(before.rows);
    expect(await stored()).toEqual(before.files);
  });

  it('refuses a video over the limit', async () => {
    const small = await server.rebuild({ teachingVideoMaxBytes: 1000 });
    const before = await rows();
    const res = await add(manager, { title: 'big' }, Buffer.concat([FAKE_MP4, Buffer.alloc(2000)]), 'big.mp4', small);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(ResultCode.PAYLOAD_TOO_LARGE);
    expect(await rows()).toEqual(before);
  });

  it('lists by kind (general videos under every kind) and search, with the kinds that have videos', async () => {
    await add(manager, { title: 'Mobile nest parking', describe: 'Level the truck', cla_type: 100 }, FAKE_MP4);
    await add(manager, { title: 'Drone pairing', cla_type: 200 }, FAKE_MP4);
    const mobile = (await viewer.call<Page<TeachingVideo>>('teachList', { page: 0, cla_type: 100 })).body.data;
    expect(mobile.list.map((v) => v.cla_type).sort()).toEqual([0, 100]);
    const search = (await viewer.call<Page<TeachingVideo>>('teachList', { page: 0, search: 'TRUCK' })).body.data;
    expect(search.list.map((v) => v.title)).toEqual(['Mobile nest parking']);
    const paged = (await viewer.call<Page<TeachingVideo>>('teachList', { page: 0, size: 1 })).body.data;
    expect(paged.list).toHaveLength(1);
    expect(paged.total).toBe((await rows()).length);
    const kinds = (await viewer.call<{ cla_type: number; cla_name: string; count: number }[]>('videoDeviceTypeList', {}, { lang: 'zh' })).body.data;
    expect(kinds.map((k) => k.cla_type)).toEqual(ffmpeg ? [0, 10, 100, 200] : [0, 100, 200]);
    expect(kinds.find((k) => k.cla_type === 100)).toEqual({ cla_type: 100, cla_name: '移动机场', count: 1 });
    expect((await viewer.call('teachList', { page: 0, cla_type: 7 })).body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('edits texts and kind; deleting removes the files and the links stop working', async () => {
    const v = (await add(manager, { title: 'Old', describe: 'd', cla_type: 10 }, realMp4 ?? FAKE_MP4)).body.data;
    const edited = await manager.call<TeachingVideo>('teachEdit', { id: v.id, title: 'New', describe: 'dd', notes: 'nn', cla_type: 200 });
    expect(edited.body.data).toMatchObject({ title: 'New', describe: 'dd', notes: 'nn', cla_type: 200, state: 10 });
    const before = await rows();
    expect((await manager.call('teachEdit', { id: v.id, title: '' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect(await rows()).toEqual(before);

    const row = (await rows()).find((r) => r.id === v.id)!;
    const del = await manager.call<TeachingVideo>('teachEdit', { id: v.id, title: 'New', state: 20 });
    expect(del.body.data).toMatchObject({ state: 20, preview_url: '' });
    expect(existsSync(path.join(server.dataDir, 'teaching', row.file_key))).toBe(false);
    if (row.thumb_key) expect(existsSync(path.join(server.dataDir, 'teaching', row.thumb_key))).toBe(false);
    expect((await server.app.inject({ method: 'GET', url: v.preview_url })).statusCode).toBe(404);
    expect((await viewer.call<Page<TeachingVideo>>('teachList', { page: 0, search: 'New' })).body.data.total).toBe(0);
    expect((await manager.call('teachEdit', { id: v.id, title: 'again' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('needs the functions: viewers list, only a super administrator adds, changes or deletes', async () => {
    const before = await rows();
    expect((await add(viewer, { title: 'x' }, FAKE_MP4)).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await viewer.call('teachEdit', { id: before[0]!.id, title: 'x', state: 20 })).body.code).toBe(ResultCode.NO_PERMISSION);
    // A company's administrator holding the former write functions changes nothing.
    const companyAdmin = await userClient(server, { funList: ['menu_teachingVideos', 'teach_add', 'teach_edit'] });
    expect((await add(companyAdmin, { title: 'x' }, FAKE_MP4)).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await companyAdmin.call('teachEdit', { id: before[0]!.id, title: 'x', state: 20 })).body.code).toBe(ResultCode.NO_PERMISSION);
    const stranger = await userClient(server, { funList: ['menu_home'] });
    expect((await stranger.call('teachList', { page: 0 })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await stranger.call('videoDeviceTypeList', {})).body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await rows()).toEqual(before);
    expect((await admin.call('teachList', { page: 0 })).body.code).toBe(ResultCode.OK);
  });
});
