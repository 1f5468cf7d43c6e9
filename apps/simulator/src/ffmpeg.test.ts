import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_VERSION, parseLinkMessage, topicOf } from '@nest/contracts';
import { demoFleet, devicePassword, startFleet } from './index.js';
import type { Fleet } from './index.js';
import { startBroker } from './test/broker.js';
import type { TestBroker } from './test/broker.js';
import { until } from './test/wait.js';
import { FAILURES_BEFORE_GIVING_UP, createVideoManager } from './video.js';
import type { VideoProblem } from './video.js';

const dirs: string[] = [];
let broker: TestBroker | null = null;
let fleet: Fleet | null = null;
afterEach(async () => {
  await fleet?.stop();
  fleet = null;
  await broker?.close();
  broker = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'sim-ffmpeg-'));
  dirs.push(d);
  return d;
}

/** A machine without a system ffmpeg: nothing on PATH, no FFMPEG_PATH. */
const NO_SYSTEM_FFMPEG: NodeJS.ProcessEnv = { PATH: '' };

describe('the packaged ffmpeg', () => {
  it('the packaged binary makes the live HLS playlist when the system has no ffmpeg', async () => {
    const liveDir = tmp();
    const video = createVideoManager({ liveDir, env: NO_SYSTEM_FFMPEG, log: () => {} });
    try {
      expect(video.ffmpeg?.source).toBe('package');
      expect(video.problem('CAM-1')).toBeNull();
      video.start('CAM-1', 'Nest A01');
      const playlist = join(liveDir, 'CAM-1', 'index.m3u8');
      await until('a segment in the playlist of the packaged ffmpeg', () =>
        existsSync(playlist) && readFileSync(playlist, 'utf8').split('\n').some((l) => l.endsWith('.ts')),
      );
      expect(readFileSync(playlist, 'utf8')).toContain('#EXTM3U');
    } finally {
      await video.stopAll();
    }
  });
});

describe('when video cannot be produced', () => {
  it('an ffmpeg that keeps failing without a playlist is given up, with the reason', async () => {
    const bin = tmp();
    const broken = join(bin, 'ffmpeg');
    writeFileSync(broken, '#!/bin/sh\nif [ "$2" = "-version" ]; then echo "ffmpeg version broken-1"; exit 0; fi\necho "libx264: no such encoder" >&2\nexit 1\n');
    chmodSync(broken, 0o755);
    const gaveUp: { sn: string; problem: VideoProblem }[] = [];
    const logs: string[] = [];
    const video = createVideoManager({ liveDir: tmp(), ffmpegPath: broken, log: (l) => logs.push(l), onGiveUp: (sn, problem) => gaveUp.push({ sn, problem }) });
    try {
      video.start('CAM-2', 'Nest A02');
      await until('the stream given up', () => gaveUp.length > 0);
      expect(gaveUp).toEqual([{ sn: 'CAM-2', problem: { reason: 'ffmpegFailed', detail: 'libx264: no such encoder' } }]);
      expect(video.isWanted('CAM-2')).toBe(false);
      expect(video.problem('CAM-2')).toEqual(gaveUp[0]!.problem);
      expect(logs.filter((l) => l.includes('restarting'))).toHaveLength(FAILURES_BEFORE_GIVING_UP - 1);
      // Asked again: nothing is started, the problem stays.
      video.start('CAM-2', 'Nest A02');
      expect(video.pid('CAM-2')).toBeUndefined();
    } finally {
      await video.stopAll();
    }
  });

  it('video.start says why in its reply (output.reason) when there is no ffmpeg', async () => {
    const devices = demoFleet({ lat: 30.6, lng: 104.06 }, { nests: 1, drones: 0 }).map((d) => ({ ...d, password: devicePassword('s', d.sn) }));
    const sn = devices[0]!.sn;
    broker = await startBroker({ passwords: new Map(devices.map((d) => [d.sn, d.password])) });
    fleet = await startFleet({ brokerUrl: broker.url, devices, liveDir: tmp(), ffmpegPath: null });
    const obs = await broker.observer();
    const replies: { tid: string; data: { result: number; output?: unknown } }[] = [];
    obs.on('message', (_topic, payload) => {
      const p = parseLinkMessage(payload);
      if (p.ok) replies.push(p.message as never);
    });
    await obs.subscribeAsync(topicOf(sn, 'commands_reply'), { qos: 1 });
    const tid = randomUUID();
    await obs.publishAsync(topicOf(sn, 'commands'), JSON.stringify({ v: LINK_VERSION, tid, bid: '', ts: Date.now(), method: 'video.start', data: {} }), { qos: 1 });
    const reply = await until('the reply to video.start', () => replies.find((r) => r.tid === tid));
    expect(reply.data).toMatchObject({ result: 2, output: { reason: 'noFfmpeg' } });
  });
});
