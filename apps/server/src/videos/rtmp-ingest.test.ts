// Database: SQLite only: the RTMP ingest and its ffmpeg (streams, keys, playlists); nothing it does is stored.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveFfmpeg } from '@nest/ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RtmpIngest } from './rtmp-ingest.js';
import { RtmpSlots } from './rtmp.js';

// The packaged ffmpeg (@nest/ffmpeg's dependency) is always there.
const ffmpeg = resolveFfmpeg()?.path ?? '';
const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined };

/** A small test picture published to `url` (FLV over RTMP) until killed. */
function publish(bin: string, url: string) {
  return spawn(
    bin,
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=10', '-an', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-pix_fmt', 'yuv420p', '-f', 'flv', url],
    { stdio: 'ignore' },
  );
}

/**
 * Resolves with the text of `file` once it exists and its text satisfies `ready` (watching its directory's
 * parent), rejects after `ms`. ffmpeg rewrites a playlist in place, so a read can find it empty or part
 * written: the text that satisfied `ready` is the one answered.
 */
async function fileReady(file: string, ready: (text: string) => boolean, ms: number): Promise<string> {
  const root = path.dirname(path.dirname(file));
  const watcher = watch(root, { recursive: true });
  const textNow = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  try {
    const deadline = AbortSignal.timeout(ms);
    for (let text = textNow(); ; text = textNow()) {
      if (ready(text)) return text;
      await once(watcher, 'change', { signal: deadline });
    }
  } finally {
    watcher.close();
  }
}

describe('RTMP ingest', () => {
  const liveDir = mkdtempSync(path.join(tmpdir(), 'rtmp-ingest-'));
  let slots: RtmpSlots;
  let ingest: RtmpIngest;
  let base = '';

  beforeAll(async () => {
    let drop: (sn: string) => void = () => undefined;
    slots = new RtmpSlots({ publishBase: '', liveUrlBase: '/live', onClose: (sn) => drop(sn) });
    ingest = new RtmpIngest({ accepts: (p, k) => slots.accepts(p, k), liveDir, host: '127.0.0.1', port: 0, ffmpeg, log: quiet });
    drop = (sn) => ingest.drop(sn);
    base = `rtmp://127.0.0.1:${await ingest.start()}`;
  });

  afterAll(async () => {
    await ingest.stop();
    rmSync(liveDir, { recursive: true, force: true });
  });

  it('refuses a publisher with a wrong key: it is disconnected and nothing is written', async () => {
    slots.open('DOCK-X');
    const child = publish(ffmpeg, `${base}/live/DOCK-X?key=0123`);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).not.toBe(0);
    expect(existsSync(path.join(liveDir, 'DOCK-X'))).toBe(false);
    slots.close('DOCK-X');
  });

  it('turns an accepted stream into LIVE_DIR/<sn>/index.m3u8; closing the slot drops the publisher', async () => {
    const slot = slots.open('DOCK-A');
    const child = publish(ffmpeg, `${base}${slot.rtmpUrl}`);
    const playlist = path.join(liveDir, 'DOCK-A', 'index.m3u8');
    try {
      const listsASegment = (text: string) => /#EXTM3U[\s\S]*seg-\d{5}\.ts/.test(text);
      // Fails (rejects) unless the playlist comes to list a segment within 20 s.
      const text = await fileReady(playlist, listsASegment, 20_000);
      // The newest segment listed (older ones may be rotated out meanwhile) is on disk.
      const segment = [...text.matchAll(/seg-\d{5}\.ts/g)].at(-1)![0];
      expect(existsSync(path.join(liveDir, 'DOCK-A', segment))).toBe(true);
      const exited = once(child, 'exit');
      slots.close('DOCK-A');
      await exited;
    } finally {
      child.kill();
    }
  }, 30_000);

  it('closes a connection that never becomes a publisher, and refuses connections beyond the pending cap', async () => {
    const guarded = new RtmpIngest({ accepts: () => null, liveDir, host: '127.0.0.1', port: 0, ffmpeg, log: quiet, handshakeMs: 300, maxPending: 2 });
    const port = await guarded.start();
    const open = async (): Promise<Socket> => {
      const s = connect(port, '127.0.0.1');
      await once(s, 'connect');
      return s;
    };
    try {
      const idle = [await open(), await open()];
      let idleClosed = 0;
      for (const s of idle) s.once('close', () => (idleClosed += 1));
      // Both places are taken: a third connection is closed by the server at once, while the first two
      // (opened earlier, same handshake time) are still open.
      const third = await open();
      await once(third, 'close');
      expect(idleClosed).toBe(0);
      // The idle ones are closed when their handshake time runs out.
      await Promise.all(idle.map((s) => once(s, 'close')));
    } finally {
      await guarded.stop();
    }
  });
});
