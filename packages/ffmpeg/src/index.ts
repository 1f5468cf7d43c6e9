import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The one place where the ffmpeg binary is looked up, for the simulator (live HLS, recorded clips) and the
 * server (thumbnails, posters, demo recordings), both through `@nest/ffmpeg` (node only). In this order, the
 * first that runs `-version` wins:
 *   1. the given path (simulator `--ffmpeg`) or the FFMPEG_PATH setting;
 *   2. `ffmpeg` on PATH (the system's, e.g. Debian's /usr/bin/ffmpeg);
 *   3. the binary shipped inside the npm package of this platform (`@ffmpeg-installer/<platform>-<arch>`,
 *      installed by `npm ci` from the registry, no download at install time).
 * Answers null when none runs: live video and recorded clips are then off, and video.start says why.
 */

export type FfmpegSource = 'setting' | 'system' | 'package';

export interface FfmpegInfo {
  /** Absolute path of the binary (or the setting as given). */
  path: string;
  /** The `ffmpeg version ...` word, e.g. 6.1.1-3ubuntu5 or N-47683-g0e8eb07980-static. */
  version: string;
  source: FfmpegSource;
}

export interface FfmpegLookup {
  /** An explicit binary (simulator --ffmpeg); tried before FFMPEG_PATH. */
  path?: string;
  /** Where PATH and FFMPEG_PATH are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Also try the packaged binary; default true. */
  packaged?: boolean;
}

/** The binary of `@ffmpeg-installer/ffmpeg` for this platform, or null when none is installed. */
export function packagedFfmpegPath(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const found = (require('@ffmpeg-installer/ffmpeg') as { path?: unknown }).path;
    return typeof found === 'string' && found ? found : null;
  } catch {
    // The package throws when there is no binary for this platform (or it was not installed).
    return null;
  }
}

/** The version word of a runnable ffmpeg, or null when it does not run. */
function versionOf(bin: string): string | null {
  const r = spawnSync(bin, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  if (r.status !== 0) return null;
  return /ffmpeg version (\S+)/.exec(r.stdout)?.[1] ?? 'unknown';
}

function onPath(env: NodeJS.ProcessEnv): string | null {
  const names = process.platform === 'win32' ? ['ffmpeg.exe'] : ['ffmpeg'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const file = path.resolve(dir, name);
      try {
        if (statSync(file).isFile()) return file;
      } catch {
        // not in this directory
      }
    }
  }
  return null;
}

const cache = new Map<string, FfmpegInfo | null>();

/** Finds ffmpeg (order above); the answer is remembered per lookup (one `-version` run per candidate). */
export function resolveFfmpeg(lookup: FfmpegLookup = {}): FfmpegInfo | null {
  const env = lookup.env ?? process.env;
  const setting = lookup.path ?? (env.FFMPEG_PATH || undefined);
  const packaged = lookup.packaged ?? true;
  const key = JSON.stringify([setting ?? null, env.PATH ?? '', packaged]);
  if (cache.has(key)) return cache.get(key)!;
  const candidates: [string | null, FfmpegSource][] = [
    [setting ?? null, 'setting'],
    [onPath(env), 'system'],
    [packaged ? packagedFfmpegPath() : null, 'package'],
  ];
  let found: FfmpegInfo | null = null;
  for (const [bin, source] of candidates) {
    if (!bin) continue;
    const version = versionOf(bin);
    if (version) {
      found = { path: bin, version, source };
      break;
    }
  }
  cache.set(key, found);
  return found;
}

/** The binary's path (see resolveFfmpeg), or null; `null` as the path turns video off. */
export function findFfmpeg(path?: string | null): string | null {
  if (path === null) return null;
  return resolveFfmpeg(path ? { path } : {})?.path ?? null;
}

const SOURCE_TEXT: Record<FfmpegSource, string> = {
  setting: 'FFMPEG_PATH / --ffmpeg',
  system: 'system, on PATH',
  package: 'packaged, @ffmpeg-installer',
};

/** The start-up line that says which ffmpeg is used, or that there is none and what that means. */
export function ffmpegLine(info: FfmpegInfo | null): string {
  if (info) return `Video: ffmpeg ${info.version} at ${info.path} (${SOURCE_TEXT[info.source]})`;
  return (
    `Video: no ffmpeg (FFMPEG_PATH unset or not runnable, none on PATH, no packaged binary for ${process.platform}-${process.arch}): ` +
    'live video, recorded clips and video thumbnails are off; the device panels say so'
  );
}

/**
 * setpriv (util-linux) when it can set the parent-death signal, or null. It sets the signal (prctl
 * PR_SET_PDEATHSIG) and then becomes the given program (exec, same process), and the kernel keeps the setting.
 */
let deathGuard: string | null | undefined;
function parentDeathGuard(): string | null {
  if (deathGuard !== undefined) return deathGuard;
  deathGuard = null;
  if (process.platform !== 'linux') return deathGuard;
  for (const bin of ['/usr/bin/setpriv', '/bin/setpriv']) {
    if (spawnSync(bin, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0) {
      deathGuard = bin;
      break;
    }
  }
  return deathGuard;
}

/**
 * Starts ffmpeg (`bin`, from findFfmpeg) so that it ends when this process ends, however it ends: the kernel
 * kills it the moment this process dies, also by SIGKILL or a crash, when no code of ours runs any more (a
 * recording ffmpeg would otherwise go on writing into a data directory that is being removed). ffmpeg does
 * not end at the end of its stdin, so a pipe alone cannot do this. On Linux with setpriv (util-linux, present
 * on Debian and most distributions); elsewhere ffmpeg is started directly and is ended by its owner's stop only.
 */
export function spawnFfmpeg(bin: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const guard = parentDeathGuard();
  return guard ? spawn(guard, ['--pdeathsig', 'KILL', '--', bin, ...args], options) : spawn(bin, args, options);
}

/**
 * Runs ffmpeg to its end, started with spawnFfmpeg (it ends with this process, also when this process is
 * killed midway: a demo recording at start-up, a thumbnail); stdin is not read. Rejects when it cannot
 * start or exits otherwise than with 0, with the last lines it printed.
 */
export function runFfmpeg(bin: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnFfmpeg(bin, ['-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2_000);
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited ${signal ?? code}: ${err.trim()}`));
    });
  });
}
