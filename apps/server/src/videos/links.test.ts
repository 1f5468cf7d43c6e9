import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MIN_TELEMETRY_HZ, ResultCode, type DeviceListItem, type RecordingVideo, type ResultItem } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { RawDevice, envelope, live, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { nowSeconds } from '../db/index.js';
import { addResult } from '../stats/test-fixtures.js';
import { LINK_STEP_SECONDS, MEDIA_LINK_SECONDS, mediaLinks, unsignedMediaUrl } from './links.js';

/**
 * Company files are served only through the signed, expiring paths the calls hand out (links.ts): the
 * real server, its calls and its file routes, with links made by the calls or by the same signer at
 * another moment (the expired ones).
 */

const SN = 'LNK-1';
const GZ_SN = 'LNK-GZ';
const SIGNED = /^\/media\/s\/\d{10}\.[A-Za-z0-9_-]{43}\/results\/\d{4}-\d{2}\/[0-9a-f-]+\.jpg$/;
const LIVE_SIGNED = new RegExp(`^/live/\\d{10}\\.[A-Za-z0-9_-]{43}/${SN}/index\\.m3u8$`);

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
let device: RawDevice;
let beat: NodeJS.Timeout | undefined;
const T0 = 1_760_000_000;
const wkBody: Buffer[] = [];

type Page<T> = { list: T[]; total: number };

const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

/** A refusal: 401 with the NO_PERMISSION envelope and nothing else. */
async function expectRefused(url: string): Promise<void> {
  const res = await get(url);
  expect(res.statusCode, url).toBe(401);
  expect(res.headers['content-type'], url).toMatch(/^application\/json/);
  expect(res.json(), url).toEqual({ code: ResultCode.NO_PERMISSION, msg: '没有权限访问', data: null });
}

/** Replaces the character at `i` of the token (after /media/s/ or /live/) with another one. */
function tamper(url: string, prefix: string): string {
  const at = prefix.length + 20;
  const c = url[at] === 'A' ? 'B' : 'A';
  return url.slice(0, at) + c + url.slice(at + 1);
}

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await live(server).link.ready();
  await registerDevice(server, { sn_id: SN, company_id: 'wk' });
  await registerDevice(server, { sn_id: GZ_SN, company_id: 'gzGh' });
  const funList = ['result_list', 'device_list', 'video_user_list'];
  wk = await userClient(server, { companyId: 'wk', funList });
  gz = await userClient(server, { companyId: 'gzGh', funList });
  for (let i = 0; i < 2; i++) {
    wkBody.push((await addResult(server.db, { sn: SN, company: 'wk', takenAt: T0 + i, dataDir: server.dataDir, bytes: 100 + i })).body);
  }
  await addResult(server.db, { sn: GZ_SN, company: 'gzGh', takenAt: T0, dataDir: server.dataDir });

  // The device's live directory, as its video pipeline writes it.
  const dir = path.join(server.config.liveDir, SN);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'index.m3u8'), '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nseg-00001.ts\n');
  await writeFile(path.join(dir, 'seg-00001.ts'), Buffer.alloc(188, 0x47));
  await mkdir(path.join(server.config.liveDir, GZ_SN), { recursive: true });
  await writeFile(path.join(server.config.liveDir, GZ_SN, 'index.m3u8'), '#EXTM3U\n');

  // Online, so that /device/list answers its video URL; it keeps telemetering while the tests run.
  device = await RawDevice.connect(server, SN);
  await device.publish('presence', envelope('presence', { online: true, rate_hz: MIN_TELEMETRY_HZ }), { qos: 1, retain: true });
  const telemetry = () => device.publish('telemetry', envelope('telemetry', nestTelemetry()), { qos: 1 });
  await telemetry();
  beat = setInterval(() => void telemetry(), 500);
  await until(() => live(server).link.isOnline(SN), 'the device online');
});

afterAll(async () => {
  if (beat) clearInterval(beat);
  await device?.end();
  await server?.close();
});

const results = async (client: TestClient) => (await client.call<Page<ResultItem>>('resultList', { page: 0 })).body.data.list;

describe('result files', () => {
  it('are served with the link /result/list hands out, and refused without it', async () => {
    const list = await results(wk);
    expect(list).toHaveLength(2);
    for (const r of list) {
      expect(r.url).toMatch(SIGNED);
      const served = await get(r.url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(wkBody.some((b) => b.equals(served.rawPayload))).toBe(true);
      // The stored path, as it was served before: refused, in the caller's language.
      const plain = unsignedMediaUrl(r.url);
      expect(plain).toMatch(/^\/media\/results\//);
      await expectRefused(plain);
      const en = await get(plain, { 'accept-language': 'en-US' });
      expect(en.statusCode).toBe(401);
      expect(en.json()).toEqual({ code: ResultCode.NO_PERMISSION, msg: 'No permission to access', data: null });
    }
    // Ranges still work through the signed path.
    const part = await get(list[0]!.url, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload).toHaveLength(10);
    // Lists read again within the hour answer the same links (the browser's cache keeps working).
    expect((await results(wk)).map((r) => r.url)).toEqual(list.map((r) => r.url));
  });

  it('refuses a tampered, expired or malformed signature, and a link used for another file', async () => {
    const [a, b] = await results(wk);
    await expectRefused(tamper(a!.url, '/media/s/'));
    // The expiry is part of what is signed: a later expiry with the same signature does not hold.
    await expectRefused(a!.url.replace(/\/media\/s\/(\d+)\./, (_m, e: string) => `/media/s/${Number(e) + 3600}.`));
    // A link made long enough ago has expired (same secret, earlier clock).
    const old = await mediaLinks(server.db, nowSeconds() - MEDIA_LINK_SECONDS - 2 * LINK_STEP_SECONDS);
    const stale = old.media(unsignedMediaUrl(a!.url));
    expect(stale).toMatch(SIGNED);
    expect(stale).not.toBe(a!.url);
    await expectRefused(stale);
    // A link made now by the same signer holds (the test's signer is the server's).
    expect((await get((await mediaLinks(server.db)).media(unsignedMediaUrl(a!.url)))).statusCode).toBe(200);
    // a's token on b's path.
    const tokenA = a!.url.split('/')[3]!;
    await expectRefused(`/media/s/${tokenA}${unsignedMediaUrl(b!.url).slice('/media'.length)}`);
    for (const bad of ['/media/s/', '/media/s/x', `/media/s/${tokenA}`, `/media/s/${tokenA}/`, '/media/s/1.abc/results/x.jpg', '/media/keys/device.key']) {
      await expectRefused(bad);
    }
  });

  it('never reach another company: its lists hold only its own files, and a link opens only its own file', async () => {
    const own = await results(gz);
    expect(own.map((r) => r.sn_id)).toEqual([GZ_SN]);
    const wkPaths = (await results(wk)).map((r) => unsignedMediaUrl(r.url));
    const gzToken = own[0]!.url.split('/')[3]!;
    for (const p of wkPaths) await expectRefused(`/media/s/${gzToken}${p.slice('/media'.length)}`);
    // A filter naming the other company's device finds nothing.
    expect((await gz.call<Page<ResultItem>>('resultList', { page: 0, sn_id: SN })).body.data).toEqual({ list: [], total: 0 });
  });

  it('never leave the media folder, whatever the signed path says', async () => {
    await writeFile(path.join(server.dataDir, 'secret.txt'), 'secret');
    const links = await mediaLinks(server.db);
    for (const rel of ['../secret.txt', '..%2fsecret.txt', 'results/../../secret.txt', '.hidden']) {
      const url = links.media(`/media/${rel}`);
      const res = await get(url);
      expect(res.statusCode, url).not.toBe(200);
      expect(res.body, url).not.toContain('secret');
    }
    for (const url of ['/media/../secret.txt', '/media/%2e%2e/secret.txt', '/media/s/%2e%2e/secret.txt', '/media/..%5csecret.txt']) {
      const res = await get(url);
      expect(res.statusCode, url).not.toBe(200);
      expect(res.body, url).not.toContain('secret');
    }
  });

  it('holds on another instance sharing the database (one secret for all)', async () => {
    const other = await server.rebuild();
    const [r] = await results(wk);
    const res = await other.inject({ method: 'GET', url: r!.url });
    expect(res.statusCode).toBe(200);
    expect((await other.inject({ method: 'GET', url: unsignedMediaUrl(r!.url) })).statusCode).toBe(401);
  });
});

describe('recordings', () => {
  it('/video/user/list hands out signed links; the plain paths are refused', async () => {
    const id = 'rec-1';
    const folder = path.join(server.dataDir, 'media', 'recordings', id);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'thumb.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    await writeFile(path.join(folder, 'a.mp4'), Buffer.from('....ftypisom'));
    await server.db
      .insertInto('recordings')
      .values({ id, sn_id: SN, company_id: 'wk', thumb_url: `/media/recordings/${id}/thumb.jpg`, vr_type: 1, start_time: T0, end_time: T0 + 60, file_name: 'a.mp4', size_kb: 1, url: `/media/recordings/${id}/a.mp4`, created_at: T0 })
      .execute();
    const [rec] = (await wk.call<Page<RecordingVideo>>('videoUserList', { page: 0 })).body.data.list;
    expect(rec!.url).toMatch(/^\/media\/s\/\d{10}\.[A-Za-z0-9_-]{43}\/recordings\/rec-1\/a\.mp4$/);
    expect((await get(rec!.url)).headers['content-type']).toBe('video/mp4');
    expect((await get(rec!.thumb_url)).headers['content-type']).toBe('image/jpeg');
    await expectRefused(`/media/recordings/${id}/a.mp4`);
    // The thumbnail's link does not open the video.
    await expectRefused(`/media/s/${rec!.thumb_url.split('/')[3]!}/recordings/${id}/a.mp4`);
    expect((await gz.call<Page<RecordingVideo>>('videoUserList', { page: 0 })).body.data.list).toEqual([]);
  });
});

describe('live video', () => {
  const streamOf = async (client: TestClient, sn: string) =>
    (await client.call<Page<DeviceListItem>>('deviceList', { type: 0, page: 0 })).body.data.list.find((d) => d.sn_id === sn)?.stream_uav_list[0];

  it('/device/list hands out a signed playlist; its segments inherit the signature', async () => {
    const url = await streamOf(wk, SN);
    expect(url).toMatch(LIVE_SIGNED);
    const playlist = await get(url!);
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers['cache-control']).toBe('no-cache');
    // The segment named relatively in the playlist, resolved against the playlist's URL.
    const segment = new URL('seg-00001.ts', `http://x${url!}`).pathname;
    const seg = await get(segment);
    expect(seg.statusCode).toBe(200);
    expect(seg.headers['content-type']).toBe('video/mp2t');
    expect(seg.rawPayload).toHaveLength(188);
    // Re-read within the hour: the same URL, so a playing video is not restarted.
    expect(await streamOf(wk, SN)).toBe(url);
  });

  it('refuses the plain, tampered, expired and other-device paths', async () => {
    const url = (await streamOf(wk, SN))!;
    const token = url.split('/')[2]!;
    await expectRefused(`/live/${SN}/index.m3u8`);
    await expectRefused(`/live/${SN}/seg-00001.ts`);
    await expectRefused(tamper(url, '/live/'));
    const old = await mediaLinks(server.db, nowSeconds() - 3 * LINK_STEP_SECONDS);
    await expectRefused(old.live('/live', SN));
    // The device's token for another device's directory.
    await expectRefused(`/live/${token}/${GZ_SN}/index.m3u8`);
    // A media link's token is not a live one.
    const [r] = await results(wk);
    await expectRefused(`/live/${r!.url.split('/')[3]!}/${SN}/index.m3u8`);
    for (const bad of [`/live/${token}`, `/live/${token}/`, `/live/${token}/..%2f${GZ_SN}/index.m3u8`, `/live/${token}/${SN}/..%2f..%2fsecret.txt`]) {
      const res = await get(bad);
      expect(res.statusCode, bad).not.toBe(200);
      expect(res.body, bad).not.toContain('EXTM3U');
    }
  });

  it('is not handed to another company', async () => {
    expect(await streamOf(gz, SN)).toBeUndefined();
    const list = (await gz.call<Page<DeviceListItem>>('deviceList', { type: 0, page: 0 })).body.data.list;
    expect(list.map((d) => d.sn_id)).toEqual([GZ_SN]);
    expect(JSON.stringify(list)).not.toContain(`/${SN}/`);
  });

  it('is left as configured when LIVE_URL_BASE is another media server', async () => {
    const links = await mediaLinks(server.db);
    expect(links.live('https://video.example.com/live', SN)).toBe(`https://video.example.com/live/${SN}/index.m3u8`);
  });
});
