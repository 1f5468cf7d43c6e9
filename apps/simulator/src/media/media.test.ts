import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { findFfmpeg } from '../video.js';
import { readExif } from './exif.js';
import { makePanorama, makePhoto } from './images.js';
import { makeVideo } from './video.js';
import { mediaUploadStart } from '@nest/contracts';
import { renderMedia } from './pipeline.js';

const AT = { lat: 22.5412345, lng: -114.0598765, alt: 123.4, takenAt: Date.UTC(2026, 10, 22, 3, 4, 5) };

describe('media files', () => {
  it('writes a JPEG whose EXIF reads back GPS and DateTimeOriginal', () => {
    const jpg = makePhoto({ ...AT, width: 320, height: 240 });
    const exif = readExif(jpg)!;
    expect(exif.lat).toBeCloseTo(AT.lat, 6);
    expect(exif.lng).toBeCloseTo(AT.lng, 6);
    expect(exif.alt).toBeCloseTo(AT.alt, 2);
    expect(exif.dateTimeOriginal).toBe('2026:11:22 03:04:05');
    // Still a valid JPEG of the asked size.
    const img = jpeg.decode(jpg);
    expect([img.width, img.height]).toEqual([320, 240]);
  });

  it('is deterministic for a position and differs between positions', () => {
    const a = makePhoto({ ...AT, width: 160, height: 120 });
    const b = makePhoto({ ...AT, width: 160, height: 120 });
    const c = makePhoto({ ...AT, lat: AT.lat + 0.01, width: 160, height: 120 });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it('renders a full-size photo and a 2:1 panorama', () => {
    const photo = jpeg.decode(makePhoto(AT));
    expect([photo.width, photo.height]).toEqual([1280, 960]);
    const pano = makePanorama(AT);
    const img = jpeg.decode(pano);
    expect([img.width, img.height]).toEqual([2048, 1024]);
    expect(readExif(pano)!.lat).toBeCloseTo(AT.lat, 6);
  });

  it('renders a request into a file and a mediaUploadStart that the contracts accept', async () => {
    const r = (await renderMedia(
      { kind: 'panorama', id: 'SIM-UAV-abc-7', flightId: 'f-1', takenAt: AT.takenAt, lat: AT.lat, lng: AT.lng, alt: AT.alt, height: 80, heading: 0, waypointIndex: 3, duration: null },
      null,
    ))!;
    const start = mediaUploadStart.parse({ ...r.meta, size: r.body.length, sha256: 'a'.repeat(64) });
    expect(start).toMatchObject({ type: 15, mime: 'image/jpeg', width: 2048, height_px: 1024, waypoint_index: 3 });
  });

  it.skipIf(!findFfmpeg())('renders an MP4 clip with ffmpeg', async () => {
    const mp4 = await makeVideo(1, { ffmpegPath: findFfmpeg()! });
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });
});
