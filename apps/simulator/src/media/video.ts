import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIDEO_MAX_SECONDS } from '../camera.js';

/** Seconds of a rendered clip: the recording time, at least 1 s and at most VIDEO_MAX_SECONDS. */
export const clipSeconds = (recorded: number): number => Math.max(1, Math.min(VIDEO_MAX_SECONDS, Math.round(recorded)));

/**
 * An MP4 (H.264, yuv420p) test-pattern clip of `seconds` (capped at VIDEO_MAX_SECONDS), rendered by
 * ffmpeg into a temporary file. Rejects when ffmpeg fails or is missing.
 */
export async function makeVideo(seconds: number, opts: { ffmpegPath: string }): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'nest-sim-video-'));
  const out = join(dir, 'clip.mp4');
  try {
    const args = [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25',
      '-t', String(clipSeconds(seconds)),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart',
      out,
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(opts.ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (b: Buffer) => {
        err = (err + b.toString()).slice(-2000);
      });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err.trim()}`))));
    });
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
