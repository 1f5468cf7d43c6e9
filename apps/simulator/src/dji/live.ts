import type { ChildProcess } from 'node:child_process';
import { findFfmpeg, spawnFfmpeg } from '@nest/ffmpeg';

/**
 * Live video of the emulated dock: an accepted `live_start_push` makes it publish a generated test picture
 * (ffmpeg's testsrc2, H.264 in FLV, as a dock's RTMP push is) to the URL the cloud gave, until
 * `live_stop_push`. A publisher that ends while its video is still wanted (the ingest was not listening
 * yet, or dropped it) is started again after a backoff of 1 s doubling to 10 s.
 */

export interface LivePublisherOptions {
  /** The ffmpeg binary; undefined: looked up (@nest/ffmpeg); null: none (video is then not published). */
  ffmpegPath?: string | null;
  log?: (line: string) => void;
}

/** ffmpeg arguments publishing a test picture to `url`; sizes by DJI video_quality (0 auto, 1 smooth .. 4 ultra HD). */
export function publishArgs(url: string, quality: number): string[] {
  const size = quality >= 3 ? '1280x720' : quality === 1 ? '320x180' : '640x360';
  return [
    '-hide_banner',
    '-loglevel', 'error',
    '-nostdin',
    '-re',
    '-f', 'lavfi',
    '-i', `testsrc2=size=${size}:rate=15`,
    '-an',
    '-c:v', 'libx264',
    '-preset', 'ultrafast',
    '-tune', 'zerolatency',
    '-pix_fmt', 'yuv420p',
    '-g', '15',
    '-f', 'flv',
    url,
  ];
}

interface Stream {
  url: string;
  quality: number;
  child: ChildProcess | null;
  restarts: number;
  timer: NodeJS.Timeout | null;
}

export class DjiLivePublisher {
  private readonly streams = new Map<string, Stream>();
  private readonly ffmpeg: string | null;
  private stopped = false;

  constructor(private readonly opts: LivePublisherOptions = {}) {
    this.ffmpeg = opts.ffmpegPath === undefined ? findFfmpeg() : opts.ffmpegPath;
  }

  /** Process id of the ffmpeg publishing `videoId` (undefined while none runs). */
  pid(videoId: string): number | undefined {
    return this.streams.get(videoId)?.child?.pid;
  }

  isPublishing(videoId: string): boolean {
    return this.streams.has(videoId);
  }

  /** Publishes `videoId` to `url` (an accepted live_start_push); a video already published is kept. */
  start(videoId: string, url: string, quality: number): void {
    if (this.stopped || this.streams.has(videoId)) return;
    if (!this.ffmpeg) {
      this.opts.log?.(`${videoId}: no ffmpeg, live video is not published`);
      return;
    }
    const s: Stream = { url, quality, child: null, restarts: 0, timer: null };
    this.streams.set(videoId, s);
    this.launch(videoId, s, this.ffmpeg);
  }

  private launch(videoId: string, s: Stream, ffmpeg: string): void {
    const child = spawnFfmpeg(ffmpeg, publishArgs(s.url, s.quality), { stdio: ['ignore', 'ignore', 'pipe'] });
    s.child = child;
    let errText = '';
    child.stderr?.on('data', (b: Buffer) => {
      errText = (errText + b.toString()).slice(-1_000);
    });
    child.on('error', (err) => this.opts.log?.(`${videoId}: ffmpeg failed to start: ${err.message}`));
    child.on('exit', (code, signal) => {
      if (s.child !== child) return;
      s.child = null;
      if (this.streams.get(videoId) !== s) return;
      const delay = Math.min(10_000, 1_000 * 2 ** s.restarts);
      s.restarts += 1;
      this.opts.log?.(`${videoId}: publisher ended (${signal ?? code}) ${errText.trim().split('\n').pop() ?? ''}; again in ${delay} ms`);
      s.timer = setTimeout(() => {
        s.timer = null;
        if (this.streams.get(videoId) === s) this.launch(videoId, s, ffmpeg);
      }, delay);
      s.timer.unref();
    });
  }

  /** Stops publishing `videoId`; resolves once its ffmpeg has exited. */
  stop(videoId: string): Promise<void> {
    const s = this.streams.get(videoId);
    if (!s) return Promise.resolve();
    this.streams.delete(videoId);
    if (s.timer) clearTimeout(s.timer);
    const child = s.child;
    s.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async stopAll(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.streams.keys()].map((id) => this.stop(id)));
  }
}
