import { spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegLine, resolveFfmpeg, spawnFfmpeg } from '@nest/ffmpeg';
import type { FfmpegInfo } from '@nest/ffmpeg';

export { findFfmpeg } from '@nest/ffmpeg';

/**
 * Live video of simulated devices: one ffmpeg child per wanted stream, writing HLS into
 * `<liveDir>/<sn>/index.m3u8` (a generated test pattern with the device name and the time burned in).
 * A crashed ffmpeg is restarted with backoff while the stream is still wanted; one that fails
 * FAILURES_BEFORE_GIVING_UP times in a row without writing a playlist (or cannot be started) is given up:
 * the stream is no longer wanted and `problem(sn)` says why, which video.start answers from then on.
 */
export const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
/** Fonts with Chinese glyphs for the device name, first found wins; without one only the sn is drawn. */
export const CJK_FONT_FILES: readonly string[] = [
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
];
export const HLS_PLAYLIST = 'index.m3u8';
const TITLE_FILE = 'title.txt';
/** Runs in a row that end without a playlist before the stream is given up (1 s + 2 s of backoff). */
export const FAILURES_BEFORE_GIVING_UP = 3;

/**
 * Why a device's video cannot be produced, as video.start's failed reply carries it in `output.reason`:
 * no ffmpeg binary, or ffmpeg kept failing. `detail` is for logs (the last line ffmpeg wrote).
 */
export type VideoProblemReason = 'noFfmpeg' | 'ffmpegFailed';
export interface VideoProblem {
  reason: VideoProblemReason;
  detail: string;
}

export interface VideoManager {
  readonly available: boolean;
  /** The binary used (null: none, video is off). */
  readonly ffmpeg: FfmpegInfo | null;
  /** Why the video of `sn` cannot be produced now (no ffmpeg, or ffmpeg was given up), or null. */
  problem(sn: string): VideoProblem | null;
  /** Starts (idempotent) the stream of `sn`; `name` (may be empty) is burned into the picture with the sn and time. */
  start(sn: string, name: string): void;
  stop(sn: string): void;
  isWanted(sn: string): boolean;
  /** Process id of the running ffmpeg of `sn` (undefined while none runs). */
  pid(sn: string): number | undefined;
  stopAll(): Promise<void>;
}

export interface VideoOptions {
  liveDir: string;
  /** null: no ffmpeg (video.start answers 'video unavailable'); undefined: look it up (ffmpeg.ts). */
  ffmpegPath?: string | null;
  /** Where the lookup reads PATH and FFMPEG_PATH; default process.env. */
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** A stream was given up (ffmpeg kept failing): its device publishes its state (no longer streaming). */
  onGiveUp?: (sn: string, problem: VideoProblem) => void;
}

const drawtextCache = new Map<string, boolean>();
/** Does this ffmpeg have the drawtext filter, and is there a font file for it? */
function drawtextUsable(ffmpeg: string): boolean {
  const known = drawtextCache.get(ffmpeg);
  if (known !== undefined) return known;
  const r = spawnSync(ffmpeg, ['-hide_banner', '-filters'], { encoding: 'utf8', timeout: 5_000 });
  const usable = r.status === 0 && /\bdrawtext\b/.test(r.stdout) && existsSync(FONT_FILE);
  drawtextCache.set(ffmpeg, usable);
  return usable;
}

/** The text of a drawtext `textfile`: expansion is on, so `\\` and `%` are escaped. */
export function drawtextFileText(s: string): string {
  return s.replace(/[\\%]/g, (c) => `\\${c}`);
}

/**
 * ffmpeg arguments for one stream. `overlay`: draw the title (read from `titleFile`, in `titleFont`) and
 * the local time (in FONT_FILE); null when drawtext or the font is missing.
 */
export function ffmpegArgs(outDir: string, overlay: { titleFile: string; titleFont: string } | null): string[] {
  const filters: string[] = [];
  if (overlay) {
    const box = 'fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=6';
    filters.push(
      `drawtext=fontfile=${overlay.titleFont}:textfile=${overlay.titleFile}:x=w-tw-16:y=16:fontsize=24:${box}`,
      `drawtext=fontfile=${FONT_FILE}:text='%{localtime}':x=16:y=h-40:fontsize=22:${box}`,
    );
  }
  return [
    '-hide_banner',
    '-loglevel', 'error',
    '-nostdin',
    '-re',
    '-f', 'lavfi',
    '-i', 'testsrc2=size=640x360:rate=15',
    ...(filters.length ? ['-vf', filters.join(',')] : []),
    '-an',
    '-c:v', 'libx264',
    '-preset', 'ultrafast',
    '-tune', 'zerolatency',
    '-pix_fmt', 'yuv420p',
    // GOP at most 30 frames, and a key frame every second so that segments really are 1 s long.
    '-g', '30',
    '-force_key_frames', 'expr:gte(t,n_forced*1)',
    '-sc_threshold', '0',
    '-f', 'hls',
    '-hls_time', '1',
    '-hls_list_size', '6',
    '-hls_flags', 'delete_segments+omit_endlist',
    '-hls_segment_filename', join(outDir, 'seg-%05d.ts'),
    join(outDir, HLS_PLAYLIST),
  ];
}

interface Stream {
  title: string;
  child: ChildProcess | null;
  restarts: number;
  /** Runs in a row that ended without writing the playlist. */
  failures: number;
  restartTimer: NodeJS.Timeout | null;
  startedAt: number;
}

/** Device serial numbers are checked by the contracts pattern; this keeps paths inside liveDir anyway. */
const safeSn = (sn: string): string => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(sn)) throw new Error(`bad serial number for a video path: ${sn}`);
  return sn;
};

export function createVideoManager(opts: VideoOptions): VideoManager {
  const info = opts.ffmpegPath === null ? null : resolveFfmpeg({ path: opts.ffmpegPath || undefined, env: opts.env });
  const ffmpeg = info?.path ?? null;
  const streams = new Map<string, Stream>();
  /** Streams given up, until the fleet stops (a binary that cannot produce video will not start to). */
  const givenUp = new Map<string, VideoProblem>();
  const dirOf = (sn: string): string => join(opts.liveDir, safeSn(sn));

  const giveUp = (sn: string, s: Stream, detail: string): void => {
    if (streams.get(sn) !== s) return;
    streams.delete(sn);
    if (s.restartTimer) clearTimeout(s.restartTimer);
    s.restartTimer = null;
    rmSync(dirOf(sn), { recursive: true, force: true });
    const problem: VideoProblem = { reason: 'ffmpegFailed', detail: detail || 'ffmpeg failed' };
    givenUp.set(sn, problem);
    opts.log(`${sn}: ffmpeg (${ffmpeg}) failed ${s.failures} times without a playlist, live video given up: ${problem.detail}`);
    opts.onGiveUp?.(sn, problem);
  };

  const launch = (sn: string, s: Stream): void => {
    if (!ffmpeg) return;
    const dir = dirOf(sn);
    mkdirSync(dir, { recursive: true });
    let overlay: { titleFile: string; titleFont: string } | null = null;
    if (drawtextUsable(ffmpeg)) {
      const cjk = CJK_FONT_FILES.find((f) => existsSync(f));
      // Without a Chinese font the name would be boxes: draw the sn only (also when there is no name).
      const title = cjk && s.title ? `${s.title}  ${sn}` : sn;
      writeFileSync(join(dir, TITLE_FILE), drawtextFileText(title));
      // Relative to the cwd (the stream's directory), so no path needs filtergraph escaping.
      overlay = { titleFile: TITLE_FILE, titleFont: cjk ?? FONT_FILE };
    }
    const child = spawnFfmpeg(ffmpeg, ffmpegArgs(dir, overlay), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    s.child = child;
    s.startedAt = Date.now();
    let errText = '';
    child.stderr?.on('data', (b: Buffer) => {
      errText = (errText + b.toString()).slice(-2_000);
    });
    const lastLine = (): string => errText.trim().split('\n').pop() ?? '';
    child.on('error', (err) => {
      // Could not be started at all (gone, not executable): no exit follows, and retrying will not help.
      opts.log(`${sn}: ffmpeg failed to start: ${err.message}`);
      if (s.child !== child) return;
      s.child = null;
      s.failures = FAILURES_BEFORE_GIVING_UP;
      giveUp(sn, s, err.message);
    });
    child.on('exit', (code, signal) => {
      if (s.child !== child) return;
      s.child = null;
      if (streams.get(sn) !== s) return;
      if (existsSync(join(dir, HLS_PLAYLIST))) s.failures = 0;
      else s.failures += 1;
      if (s.failures >= FAILURES_BEFORE_GIVING_UP) return giveUp(sn, s, lastLine());
      // Still wanted: restart with backoff (1 s doubling to 30 s; reset after a minute of good running).
      if (Date.now() - s.startedAt > 60_000) s.restarts = 0;
      const delay = Math.min(30_000, 1_000 * 2 ** s.restarts);
      s.restarts += 1;
      opts.log(`${sn}: ffmpeg exited (${signal ?? code}) ${lastLine()}; restarting in ${delay} ms`);
      s.restartTimer = setTimeout(() => {
        s.restartTimer = null;
        if (streams.get(sn) === s) launch(sn, s);
      }, delay);
      s.restartTimer.unref();
    });
  };

  const kill = (sn: string, s: Stream): Promise<void> => {
    if (s.restartTimer) clearTimeout(s.restartTimer);
    s.restartTimer = null;
    const child = s.child;
    s.child = null;
    const cleanup = (): void => rmSync(dirOf(sn), { recursive: true, force: true });
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      cleanup();
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => child.kill('SIGKILL'), 2_000);
      child.once('exit', () => {
        clearTimeout(t);
        cleanup();
        resolve();
      });
      child.kill('SIGTERM');
    });
  };

  return {
    available: ffmpeg !== null,
    ffmpeg: info,
    problem(sn) {
      if (!ffmpeg) return { reason: 'noFfmpeg', detail: ffmpegLine(null) };
      return givenUp.get(sn) ?? null;
    },
    start(sn, title) {
      if (!ffmpeg || streams.has(sn) || givenUp.has(sn)) return;
      const s: Stream = { title, child: null, restarts: 0, failures: 0, restartTimer: null, startedAt: 0 };
      streams.set(sn, s);
      rmSync(dirOf(sn), { recursive: true, force: true }); // leftovers of an earlier run
      launch(sn, s);
    },
    stop(sn) {
      const s = streams.get(sn);
      if (!s) return;
      streams.delete(sn);
      void kill(sn, s);
    },
    isWanted: (sn) => streams.has(sn),
    pid: (sn) => streams.get(sn)?.child?.pid,
    async stopAll() {
      const all = [...streams.entries()];
      streams.clear();
      await Promise.all(all.map(([sn, s]) => kill(sn, s)));
    },
  };
}
