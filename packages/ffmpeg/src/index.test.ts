import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ffmpegLine, packagedFfmpegPath, resolveFfmpeg, runFfmpeg } from './index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'nest-ffmpeg-'));
  dirs.push(d);
  return d;
}

/** A machine without a system ffmpeg: nothing on PATH, no FFMPEG_PATH. */
const NO_SYSTEM_FFMPEG: NodeJS.ProcessEnv = { PATH: '' };

describe('which ffmpeg', () => {
  it('without a system ffmpeg the packaged binary (npm tarball) is found, and says so', () => {
    const packaged = packagedFfmpegPath();
    if (!packaged) throw new Error(`no @ffmpeg-installer binary for ${process.platform}-${process.arch}: run npm ci`);
    const info = resolveFfmpeg({ env: NO_SYSTEM_FFMPEG });
    expect(info).toMatchObject({ path: packaged, source: 'package' });
    expect(info!.path).toContain('@ffmpeg-installer');
    expect(ffmpegLine(info)).toBe(`Video: ffmpeg ${info!.version} at ${packaged} (packaged, @ffmpeg-installer)`);
  });

  it('FFMPEG_PATH and PATH come first; a setting that does not run falls through to the next', () => {
    const bin = tmp();
    const fake = join(bin, 'ffmpeg');
    writeFileSync(fake, '#!/bin/sh\necho "ffmpeg version 9.9-test"\n');
    chmodSync(fake, 0o755);
    expect(resolveFfmpeg({ env: { PATH: bin } })).toEqual({ path: fake, version: '9.9-test', source: 'system' });
    expect(resolveFfmpeg({ env: { PATH: '', FFMPEG_PATH: fake } })).toEqual({ path: fake, version: '9.9-test', source: 'setting' });
    expect(resolveFfmpeg({ env: { PATH: '', FFMPEG_PATH: join(bin, 'missing') } })?.source).toBe('package');
    expect(resolveFfmpeg({ env: NO_SYSTEM_FFMPEG, packaged: false })).toBeNull();
    expect(ffmpegLine(null)).toMatch(/^Video: no ffmpeg .*live video, recorded clips and video thumbnails are off/);
  });
});

describe('ffmpeg started by spawnFfmpeg', () => {
  it('runFfmpeg resolves when ffmpeg succeeds and rejects with what it printed when it fails', async () => {
    const bin = resolveFfmpeg()?.path;
    if (!bin) throw new Error('no ffmpeg: run npm ci (it installs the packaged binary)');
    await runFfmpeg(bin, ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=32x32:rate=5', '-t', '0.4', '-f', 'null', '-']);
    await expect(runFfmpeg(bin, ['-hide_banner', '-v', 'error', '-i', join(tmp(), 'missing.mp4'), '-f', 'null', '-'])).rejects.toThrow(
      /^ffmpeg exited 1: .*missing\.mp4/,
    );
  });


  it('ends when the process that started it is killed with SIGKILL; one started plainly goes on', async () => {
    const bin = resolveFfmpeg()?.path;
    if (!bin) throw new Error('no ffmpeg: run npm ci (it installs the packaged binary)');
    // A long run that writes nothing: it ends only when it is killed (-t is a safety net).
    const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc=size=32x32:rate=5', '-t', '300', '-f', 'null', '-'];
    // The parent holds two pipes of this test as its fds 3 and 4 and hands one to each ffmpeg (as its fd 3).
    // A pipe reaches its end when every process holding it has exited: the parent and then that ffmpeg.
    const script = `
      import { spawn } from 'node:child_process';
      import { spawnFfmpeg } from ${JSON.stringify(new URL('./index.ts', import.meta.url).href)};
      const [bin, args] = JSON.parse(process.argv[1]);
      const guarded = spawnFfmpeg(bin, args, { stdio: ['ignore', 'ignore', 'ignore', 3] });
      const plain = spawn(bin, args, { stdio: ['ignore', 'ignore', 'ignore', 4] });
      await Promise.all([guarded, plain].map((c) => new Promise((r) => c.once('spawn', r))));
      console.log(JSON.stringify({ guarded: guarded.pid, plain: plain.pid }));
      setInterval(() => undefined, 60_000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, JSON.stringify([bin, args])], {
      stdio: ['ignore', 'pipe', 'inherit', 'pipe', 'pipe'],
    });
    const ended = (i: 3 | 4) => new Promise<void>((r) => (parent.stdio[i] as Readable).on('data', () => undefined).once('close', () => r()));
    const [guardedEnded, plainEnded] = [ended(3), ended(4)];
    let plainGone = false;
    void plainEnded.then(() => (plainGone = true));
    const pids = await new Promise<{ guarded: number; plain: number }>((resolve, reject) => {
      let out = '';
      parent.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(JSON.parse(out) as { guarded: number; plain: number });
      });
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before starting ffmpeg`)));
    });
    try {
      const exited = new Promise((r) => parent.once('exit', r));
      parent.kill('SIGKILL');
      await exited;
      // A limit far above the moment it takes, so that a failure says what did not happen.
      let limit: NodeJS.Timeout | undefined;
      await Promise.race([
        guardedEnded,
        new Promise((_, reject) => (limit = setTimeout(() => reject(new Error('ffmpeg still runs 30 s after its parent was killed')), 30_000))),
      ]).finally(() => clearTimeout(limit));
      // A killed process closes its files before it becomes a zombie: on a loaded machine the pipe can end
      // a moment before the process is gone, so its state is read until it is (within the same limit).
      const gone = Date.now() + 30_000;
      while (alive(pids.guarded) && Date.now() < gone) await new Promise((r) => setTimeout(r, 10));
      expect(alive(pids.guarded)).toBe(false);
      // The plain one outlives its parent: what spawnFfmpeg prevents.
      expect(plainGone).toBe(false);
      expect(alive(pids.plain)).toBe(true);
    } finally {
      for (const pid of [pids.guarded, pids.plain]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await Promise.all([guardedEnded, plainEnded]);
    }
  });
});

/** Whether `pid` runs (a zombie, exited but not yet reaped by its new parent, counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}
