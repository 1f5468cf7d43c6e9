import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, watch } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFfmpeg } from '@nest/ffmpeg';
import { afterAll, describe, expect, it } from 'vitest';
import { DjiLivePublisher, publishArgs } from './live.js';

const ffmpeg = findFfmpeg();
const dir = mkdtempSync(join(tmpdir(), 'dji-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

/** Resolves when `file` exists in `folder` (watching the folder, no polling). */
function fileAppears(folder: string, file: string): Promise<void> {
  return new Promise((resolve) => {
    if (existsSync(join(folder, file))) return resolve();
    const w = watch(folder, () => {
      if (!existsSync(join(folder, file))) return;
      w.close();
      resolve();
    });
  });
}

describe('emulated dock live video', () => {
  it('publishes a test picture to an RTMP URL (an ingest turns it into HLS) until stopped', async () => {
    expect(ffmpeg, 'the packaged ffmpeg comes with npm ci').toBeTruthy();
    const port = await freePort();
    // The ingest stand-in: ffmpeg's RTMP listener writing the stream as HLS.
    const ingest = spawn(ffmpeg!, ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-i', `rtmp://127.0.0.1:${port}/live/SN1`, '-c', 'copy', '-f', 'hls', '-hls_time', '1', join(dir, 'index.m3u8')], {
      stdio: 'ignore',
    });
    const ingestEnded = once(ingest, 'exit');
    const publisher = new DjiLivePublisher({ ffmpegPath: ffmpeg });
    try {
      publisher.start('DRONE/80-0-0/normal-0', `rtmp://127.0.0.1:${port}/live/SN1`, 0);
      expect(publisher.isPublishing('DRONE/80-0-0/normal-0')).toBe(true);
      await fileAppears(dir, 'index.m3u8');
      const pid = publisher.pid('DRONE/80-0-0/normal-0');
      expect(pid).toBeGreaterThan(0);
      const stopped = publisher.stop('DRONE/80-0-0/normal-0');
      expect(publisher.isPublishing('DRONE/80-0-0/normal-0')).toBe(false);
      await stopped;
      // The publisher leaving ends the ingest's input.
      await ingestEnded;
    } finally {
      await publisher.stopAll();
      ingest.kill();
    }
  });

  it('picks the picture size from video_quality', () => {
    expect(publishArgs('rtmp://h/live/x', 1)).toContain('testsrc2=size=320x180:rate=15');
    expect(publishArgs('rtmp://h/live/x', 4)).toContain('testsrc2=size=1280x720:rate=15');
    expect(publishArgs('rtmp://h/live/x', 0).at(-1)).toBe('rtmp://h/live/x');
  });
});
