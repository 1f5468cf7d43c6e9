import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ffmpegLine, packagedFfmpegPath, resolveFfmpeg } from './index.js';

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
