import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { LINK_VERSION, parseLinkMessage, topicOf, videoStartOutput } from '@nest/contracts';
import { demoFleet, devicePassword, startFleet } from './index.js';
import type { Fleet } from './index.js';
import { startBroker } from './test/broker.js';
import type { TestBroker } from './test/broker.js';
import { until } from './test/wait.js';
import { createVideoManager, findFfmpeg } from './video.js';

let broker: TestBroker | null = null;
let fleet: Fleet | null = null;
const dirs: string[] = [];

afterEach(async () => {
  await fleet?.stop();
  fleet = null;
  await broker?.close();
  broker = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sim-live-'));
  dirs.push(d);
  return d;
}

const segmentsIn = (playlist: string): string[] =>
  existsSync(playlist) ? readFileSync(playlist, 'utf8').split('\n').filter((l) => l.endsWith('.ts')) : [];

describe('live video (ffmpeg HLS)', () => {
  it('ffmpeg is installed (required: CI installs it; this test never skips)', () => {
    const ffmpeg = findFfmpeg();
    if (!ffmpeg) throw new Error('ffmpeg not found (FFMPEG_PATH, on PATH, or the packaged @ffmpeg-installer binary): run npm ci');
    expect(ffmpeg).toBeTruthy();
  });

  it('video.start produces index.m3u8 with a segment; video.stop kills it and removes the files', async () => {
    if (!findFfmpeg()) throw new Error('ffmpeg not found: install ffmpeg to run the simulator video tests');
    const liveDir = tmp();
    const devices = demoFleet({ lat: 30.6, lng: 104.06 }, { nests: 1, drones: 0 }).map((d) => ({ ...d, password: devicePassword('s', d.sn) }));
    const sn = devices[0]!.sn;
    broker = await startBroker({ passwords: new Map(devices.map((d) => [d.sn, d.password])) });
    fleet = await startFleet({ brokerUrl: broker.url, devices, liveDir, liveUrlBase: '/live/' });
    const obs = await broker.observer();
    const replies: { tid: string; data: { result: number; message?: string; output?: unknown } }[] = [];
    const states: { video: { streaming: boolean; url: string | null } }[] = [];
    obs.on('message', (topic, payload) => {
      const p = parseLinkMessage(payload);
      if (!p.ok) return;
      if (topic.endsWith('/commands_reply')) replies.push(p.message as never);
      if (topic.endsWith('/state')) states.push(p.message.data as never);
    });
    await obs.subscribeAsync([topicOf(sn, 'commands_reply'), topicOf(sn, 'state')], { qos: 1 });
    const send = async (method: string) => {
      const tid = randomUUID();
      await obs.publishAsync(topicOf(sn, 'commands'), JSON.stringify({ v: LINK_VERSION, tid, bid: '', ts: Date.now(), method, data: {} }), { qos: 1 });
      return until(`the reply to ${method}`, () => replies.find((r) => r.tid === tid));
    };
    const started = await send('video.start');
    expect(started.data).toEqual({ result: 0, message: 'started', output: { url: `/live/${sn}/index.m3u8` } });
    expect(videoStartOutput.parse(started.data.output).url).toBe(`/live/${sn}/index.m3u8`);
    const playlist = join(liveDir, sn, 'index.m3u8');
    await until('an HLS segment in the playlist', () => segmentsIn(playlist).length >= 1);
    const text = readFileSync(playlist, 'utf8');
    expect(text).toContain('#EXTM3U');
    expect(text).not.toContain('#EXT-X-ENDLIST');
    expect(readdirSync(join(liveDir, sn)).some((f) => f.endsWith('.ts'))).toBe(true);
    expect(states.some((s) => s.video.streaming && s.video.url === `/live/${sn}/index.m3u8`)).toBe(true);
    const stopped = await send('video.stop');
    expect(stopped.data.result).toBe(0);
    await until('the stream directory removed', () => !existsSync(join(liveDir, sn)));
  });

  it('restarts a crashed ffmpeg while the stream is wanted', async () => {
    if (!findFfmpeg()) throw new Error('ffmpeg not found: install ffmpeg to run the simulator video tests');
    const liveDir = tmp();
    const logs: string[] = [];
    const video = createVideoManager({ liveDir, log: (l) => logs.push(l) });
    try {
      video.start('CAM-1', '机场 A01');
      const playlist = join(liveDir, 'CAM-1', 'index.m3u8');
      await until('an HLS segment in the playlist', () => segmentsIn(playlist).length >= 1);
      const pid = video.pid('CAM-1');
      expect(pid).toBeTypeOf('number');
      process.kill(pid!, 'SIGKILL');
      await until('a new ffmpeg', () => video.pid('CAM-1') !== undefined && video.pid('CAM-1') !== pid);
      expect(video.pid('CAM-1')).not.toBe(pid);
      expect(logs.some((l) => l.includes('restarting'))).toBe(true);
    } finally {
      await video.stopAll();
    }
    expect(existsSync(join(liveDir, 'CAM-1'))).toBe(false);
  });

  it('without ffmpeg video.start answers video unavailable', () => {
    const video = createVideoManager({ liveDir: tmp(), ffmpegPath: null, log: () => {} });
    expect(video.available).toBe(false);
  });
});
