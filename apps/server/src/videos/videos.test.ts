import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ResultCode, recordingVideoSchema, type RecordingVideo } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { DEMO_RECORDING_SECONDS, findFfmpeg, seedDemoRecordings } from './demo.js';
import { mediaLinks } from './links.js';

let server: TestServer;
let wk: TestClient;
let gz: TestClient;

type Page = { list: RecordingVideo[]; total: number };

async function addRecording(sn: string, company: string, start: number, vr: 1 | 2): Promise<string> {
  const id = randomUUID();
  await server.db
    .insertInto('recordings')
    .values({
      id,
      sn_id: sn,
      company_id: company,
      thumb_url: `/media/recordings/${id}/thumb.jpg`,
      vr_type: vr,
      start_time: start,
      end_time: start + 60,
      file_name: `${sn}_${start}.mp4`,
      size_kb: 1024.5,
      url: `/media/recordings/${id}/${sn}_${start}.mp4`,
      created_at: start,
    })
    .execute();
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  wk = await userClient(server, { funList: ['video_user_list'] });
  gz = await userClient(server, { funList: ['video_user_list'], companyId: 'gzGh' });
  for (let i = 0; i < 6; i++) await addRecording(i % 2 ? 'VR-A' : 'VR-B', 'wk', 1_700_000_000 + i * 1000, ((i % 2) + 1) as 1 | 2);
  await addRecording('VR-GZ', 'gzGh', 1_700_000_500, 1);
});
afterAll(async () => server?.close());

describe('/video/user/list', () => {
  it("answers the company's recordings, newest first", async () => {
    const res = await wk.call<Page>('videoUserList', { page: 0 });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.total).toBe(6);
    for (const r of res.body.data.list) recordingVideoSchema.parse(r);
    const starts = res.body.data.list.map((r) => r.start_time);
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    expect(res.body.data.list.some((r) => r.sn_id === 'VR-GZ')).toBe(false);
    expect((await gz.call<Page>('videoUserList', { page: 0 })).body.data.list.map((r) => r.sn_id)).toEqual(['VR-GZ']);
  });

  it('filters by device, camera and start range; pages', async () => {
    const q = async (f: Record<string, string | number>) => (await wk.call<Page>('videoUserList', { page: 0, ...f })).body.data;
    expect((await q({ sn_id: 'VR-A' })).list.every((r) => r.sn_id === 'VR-A')).toBe(true);
    expect((await q({ sn_id: 'VR-A' })).total).toBe(3);
    expect((await q({ vr_type: 2 })).list.every((r) => r.vr_type === 2)).toBe(true);
    expect((await q({ start_time: 1_700_002_000, end_time: 1_700_003_000 })).list.map((r) => r.start_time)).toEqual([1_700_003_000, 1_700_002_000]);
    const p1 = await q({ page: 1, size: 4 });
    expect(p1).toMatchObject({ total: 6 });
    expect(p1.list).toHaveLength(2);
    expect((await wk.call('videoUserList', { page: 0, vr_type: 3 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('videoUserList', { page: 0, start_time: 5, end_time: 4 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await gz.call<Page>('videoUserList', { page: 0, sn_id: 'VR-A' })).body.data).toEqual({ list: [], total: 0 });
  });
});

describe('/media/ and /live/', () => {
  it('serve files under DATA_DIR/media and LIVE_DIR through signed links only, and nothing outside them', async () => {
    await mkdir(path.join(server.dataDir, 'media', 'x'), { recursive: true });
    await writeFile(path.join(server.dataDir, 'media', 'x', 'a.txt'), 'media file');
    await writeFile(path.join(server.dataDir, 'secret.txt'), 'secret');
    await mkdir(path.join(server.config.liveDir, 'SN1'), { recursive: true });
    await writeFile(path.join(server.config.liveDir, 'SN1', 'index.m3u8'), '#EXTM3U\n');
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    const links = await mediaLinks(server.db);
    expect((await get(links.media('/media/x/a.txt'))).body).toBe('media file');
    expect((await get('/media/x/a.txt')).statusCode).toBe(401);
    const playlist = await get(links.live('/live', 'SN1'));
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['cache-control']).toBe('no-cache');
    expect((await get('/live/SN1/index.m3u8')).statusCode).toBe(401);
    for (const url of ['/media/../secret.txt', '/media/%2e%2e/secret.txt', '/media/x/%2e%2e/%2e%2e/secret.txt', '/live/..%2fsecret.txt', '/media/..%5csecret.txt', '/media/x/']) {
      const res = await get(url);
      // Refused: 404, or the error envelope.
      expect(res.statusCode === 404 || JSON.parse(res.body).code !== ResultCode.OK, url).toBe(true);
      expect(res.body, url).not.toContain('secret');
    }
    await writeFile(path.join(server.dataDir, 'media', '.hidden'), 'hidden');
    const hidden = await get(links.media('/media/.hidden'));
    expect(hidden.body).not.toContain('hidden');
    expect(JSON.parse(hidden.body).code).not.toBe(ResultCode.OK);
    expect((await get(links.media('/media/keys/device.key'))).statusCode).toBe(404);
  });
});

describe.runIf(findFfmpeg() !== null)('demo recordings', () => {
  it('makes two real mp4 recordings with thumbnails per nest, once, and lists them', async () => {
    expect(await seedDemoRecordings(server.app.nest.deps, [{ sn: 'VR-DEMO', companyId: 'wk' }])).toBe(2);
    expect(await seedDemoRecordings(server.app.nest.deps, [{ sn: 'VR-DEMO', companyId: 'wk' }])).toBe(0);
    const res = await wk.call<Page>('videoUserList', { page: 0, sn_id: 'VR-DEMO' });
    expect(res.body.data.list.map((r) => r.vr_type).sort()).toEqual([1, 2]);
    for (const r of res.body.data.list) {
      expect(r.end_time - r.start_time).toBe(DEMO_RECORDING_SECONDS);
      expect(r.file_name).toMatch(/^VR-DEMO_cam[12]_\d{8}_\d{6}\.mp4$/);
      const video = await server.app.inject({ method: 'GET', url: r.url });
      expect(video.statusCode).toBe(200);
      expect(video.headers['content-type']).toBe('video/mp4');
      expect(video.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
      expect(Math.round(video.rawPayload.length / 102.4) / 10).toBeCloseTo(r.size_kb, 0);
      const thumb = await server.app.inject({ method: 'GET', url: r.thumb_url });
      expect(thumb.headers['content-type']).toBe('image/jpeg');
    }
  });
});
