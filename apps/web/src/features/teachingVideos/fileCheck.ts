import { basicFileProblem, headBytes } from '../../shared/admin';
import { TEACHING_VIDEO_MAX_BYTES, isTeachingVideoFileName } from '@nest/contracts';

export type VideoFileProblem = 'name' | 'empty' | 'tooLarge' | 'content';
export type VideoMime = 'video/mp4' | 'video/webm';
export type VideoFileCheck = { ok: true; mime: VideoMime } | { ok: false; problem: VideoFileProblem };

/**
 * What the first bytes say (the server decides the same way): MP4 has an `ftyp` box first ('ftyp' at
 * offset 4); WebM starts with the EBML magic 1A 45 DF A3 and names the DocType 'webm' in its header.
 */
export function sniffVideo(head: Uint8Array): VideoMime | null {
  if (head.length >= 12 && head[4] === 0x66 && head[5] === 0x74 && head[6] === 0x79 && head[7] === 0x70) return 'video/mp4';
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    const text = String.fromCharCode(...head.subarray(0, Math.min(head.length, 64)));
    return text.includes('webm') ? 'video/webm' : null;
  }
  return null;
}

/** The browser's check of a chosen teaching video before it is sent: name, size, first bytes. */
export async function checkVideoFile(file: File, maxBytes: number = TEACHING_VIDEO_MAX_BYTES): Promise<VideoFileCheck> {
  const basic = basicFileProblem(file, isTeachingVideoFileName, maxBytes);
  if (basic) return { ok: false, problem: basic };
  const mime = sniffVideo(await headBytes(file, 64));
  return mime ? { ok: true, mime } : { ok: false, problem: 'content' };
}
