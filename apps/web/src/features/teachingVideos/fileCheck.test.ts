import { describe, expect, it } from 'vitest';
import { checkVideoFile, sniffVideo } from './fileCheck';

const MP4 = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom'), 0, 0, 2, 0]);
const WEBM = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84, ...new TextEncoder().encode('webm'), 0x42, 0x87]);
const MKV = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88, ...new TextEncoder().encode('matroska')]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

describe('teaching video pre-check', () => {
  it('sniffs MP4 and WebM, nothing else', () => {
    expect(sniffVideo(MP4)).toBe('video/mp4');
    expect(sniffVideo(WEBM)).toBe('video/webm');
    expect(sniffVideo(MKV)).toBeNull();
    expect(sniffVideo(JPEG)).toBeNull();
    expect(sniffVideo(new Uint8Array(3))).toBeNull();
  });

  it('checks name, emptiness, size and content', async () => {
    expect(await checkVideoFile(new File([MP4], 'lesson.mp4'))).toEqual({ ok: true, mime: 'video/mp4' });
    expect(await checkVideoFile(new File([WEBM], 'Lesson.WEBM'))).toEqual({ ok: true, mime: 'video/webm' });
    expect(await checkVideoFile(new File([MP4], 'lesson.mov'))).toEqual({ ok: false, problem: 'name' });
    expect(await checkVideoFile(new File([], 'lesson.mp4'))).toEqual({ ok: false, problem: 'empty' });
    expect(await checkVideoFile(new File([MP4], 'lesson.mp4'), 10)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(await checkVideoFile(new File([JPEG], 'photo.mp4'))).toEqual({ ok: false, problem: 'content' });
    // A WebM named .mp4 is still a video; the server stores it by its content.
    expect(await checkVideoFile(new File([WEBM], 'lesson.mp4'))).toEqual({ ok: true, mime: 'video/webm' });
  });
});
