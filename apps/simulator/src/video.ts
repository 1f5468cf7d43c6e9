import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Live video of simulated devices: one ffmpeg child per wanted stream, writing HLS into
 * `<liveDir>/<sn>/index.m3u8` (a generated test pattern with the device name and the time burned in).
 * A crashed ffmpeg is restarted with backoff while the stream is still wanted.
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

export interface VideoManager {
  readonly available: boolean;
  /** Starts (idempotent) the stream of `sn`; `name` is burned into the picture with the sn and time. */
  start(sn: string, name: string): void;
  stop(sn: string): void;
  isWanted(sn: string): boolean;
  /** Process id of the running ffmpeg of `sn` (undefined while none runs). */
  pid(sn: string): number | undefined;
  stopAll(): Promise<void>;
}

export interface VideoOptions {
  liveDir: string;
  /** null: no ffmpeg (video.start answers 'video unavailable'); undefined: look for `ffmpeg`. */
  ffmpegPath?: string | null;
  log: (line: string) => void;
}

/** Finds a runnable ffmpeg: the given path, else /usr/bin/ffmpeg, else `ffmpeg` on PATH; null if none. */
export function findFfmpeg(path?: string | null): string | null {
  if (path === null) return null;
  const candidates = path ? [path] : ['/usr/bin/ffmpeg', 'ffmpeg'];
  for (const c of candidates) {
    const r = spawnSync(c, ['-hide_banner', '-version'], { stdio: 'ignore', timeout: 5_000 });
    if (r.status === 0) return c;
  }
  return null;
}

let drawtextCache: boolean | null = null;
/** Does this ffmpeg have the drawtext filter, and is there a font file for it? */
function drawtextUsable(ffmpeg: string): boolean {
  if (drawtextCache !== null) return drawtextCache;
  const r = spawnSync(ffmpeg, ['-hide_banner', '-filters'], { encoding: 'utf8', timeout: 5_000 });
  drawtextCache = r.status === 0 && /\bdrawtext\b/.test(r.stdout) && existsSync(FONT_FILE);
  return drawtextCache;
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
  restartTimer: NodeJS.Timeout | null;
  startedAt: number;
}

/** Device serial numbers are checked by the contracts pattern; this keeps paths inside liveDir anyway. */
const safeSn = (sn: string): string => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(sn)) throw new Error(`bad serial number for a video path: ${sn}`);
  return sn;
};

export function createVideoManager(opts: VideoOptions): VideoManager {
  const ffmpeg = findFfmpeg(opts.ffmpegPath);
  const streams = new Map<string, Stream>();
  const dirOf = (sn: string): string => join(opts.liveDir, safeSn(sn));

  const launch = (sn: string, s: Stream): void => {
    if (!ffmpeg) return;
    const dir = dirOf(sn);
    mkdirSync(dir, { recursive: true });
    let overlay: { titleFile: string; titleFont: string } | null = null;
    if (drawtextUsable(ffmpeg)) {
      const cjk = CJK_FONT_FILES.find((f) => existsSync(f));
      // Without a Chinese font the name would be boxes: draw the sn only.
      const title = cjk ? `${s.title}  ${sn}` : sn;
      writeFileSync(join(dir, TITLE_FILE), drawtextFileText(title));
      // Relative to the cwd (the stream's directory), so no path needs filtergraph escaping.
      overlay = { titleFile: TITLE_FILE, titleFont: cjk ?? FONT_FILE };
    }
    const child = spawn(ffmpeg, ffmpegArgs(dir, overlay), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    s.child = child;
    s.startedAt = Date.now();
    let errText = '';
    child.stderr?.on('data', (b: Buffer) => {
      errText = (errText + b.toString()).slice(-2_000);
    });
    child.on('error', (err) => opts.log(`${sn}: ffmpeg failed to start: ${err.message}`));
    child.on('exit', (code, signal) => {
      if (s.child !== child) return;
      s.child = null;
      if (streams.get(sn) !== s) return;
      // Still wanted: restart with backoff (1 s doubling to 30 s; reset after a minute of good running).
      if (Date.now() - s.startedAt > 60_000) s.restarts = 0;
      const delay = Math.min(30_000, 1_000 * 2 ** s.restarts);
      s.restarts += 1;
      opts.log(`${sn}: ffmpeg exited (${signal ?? code}) ${errText.trim().split('\n').pop() ?? ''}; restarting in ${delay} ms`);
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
    start(sn, title) {
      if (!ffmpeg || streams.has(sn)) return;
      const s: Stream = { title, child: null, restarts: 0, restartTimer: null, startedAt: 0 };
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
