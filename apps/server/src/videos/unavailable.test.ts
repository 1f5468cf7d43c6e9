import { ResultCode } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { live, registerDevice, until } from '../../test/live.js';
import { loadSimulator, type SimFleet } from '../../test/simulator.js';
import { nowSeconds } from '../db/index.js';
import { mediaLinks } from './links.js';

/**
 * A device whose video cannot be produced (the real simulator, with a live directory but no ffmpeg): its
 * video.start refusal reaches the live route, which answers the reason in an envelope instead of a bare 404.
 */
const SN = 'NOVIDEO01';
let server: TestServer;
let fleet: SimFleet | null = null;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await live(server).link.ready();
  await registerDevice(server, { sn_id: SN, company_id: 'wk' });
  const sim = await loadSimulator();
  const l = live(server);
  fleet = await sim.startFleet({
    brokerUrl: l.brokerUrl,
    devices: [{ sn: SN, password: l.devicePassword(SN), kind: 'stable', name: SN, uavSn: `${SN}-UAV`, home: { lat: 22.54, lng: 114.05, alt: 30 } }],
    rateHz: 5,
    liveDir: server.config.liveDir,
    ffmpegPath: null,
    liveUrlBase: server.config.liveUrlBase,
    validate: true,
  });
  await until(() => l.link.isOnline(SN), 'the device online');
});

afterAll(async () => {
  await fleet?.stop();
  await server?.close();
});

describe('live video that cannot be produced', () => {
  it('the signed playlist answers why (no ffmpeg), in the caller language', async () => {
    const watcher = {};
    const video = live(server).video;
    const url = (await mediaLinks(server.db, nowSeconds())).live(server.config.liveUrlBase, SN);
    try {
      video.watch(SN, watcher);
      await until(() => video.unavailable(SN) !== null, 'the refusal of video.start');
      expect(video.unavailable(SN)).toBe('noFfmpeg');
      const res = await server.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en-US' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({
        code: ResultCode.NOT_FOUND_OBJECT,
        msg: 'No video: there is no ffmpeg on the server',
        data: { video: { available: false, reason: 'noFfmpeg' } },
      });
      const zh = await server.app.inject({ method: 'GET', url });
      expect(zh.json()).toMatchObject({ msg: '无法生成视频：服务器上没有 ffmpeg' });
      // Segments stay plain 404s: only the playlist carries the reason.
      const seg = await server.app.inject({ method: 'GET', url: url.replace('index.m3u8', 'seg-00001.ts') });
      expect(seg.statusCode).toBe(404);
      expect(seg.body).not.toContain('noFfmpeg');
    } finally {
      video.unwatch(SN, watcher);
    }
  });
});
