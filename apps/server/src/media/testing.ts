import { createHash, randomUUID } from 'node:crypto';
import { MEDIA_UPLOAD_PATH, type MediaUploadStart } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import jpeg from 'jpeg-js';

/** Noise bytes from a seed (mulberry32): the same seed gives the same bytes on every run. */
function noiseFrom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) & 0xff;
  };
}

/**
 * A real JPEG (a gradient) made with jpeg-js; `noise` makes it compress badly (a bigger file). The noise comes
 * from a fixed seed, so the same call makes the same file on every run.
 */
export function makeJpeg(width = 640, height = 360, noise = false): Buffer {
  const data = Buffer.alloc(width * height * 4);
  const next = noiseFrom(width * 65_536 + height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o] = noise ? next() : (x * 255) / width;
      data[o + 1] = noise ? next() : (y * 255) / height;
      data[o + 2] = 128;
      data[o + 3] = 255;
    }
  }
  return Buffer.from(jpeg.encode({ data, width, height }, 95).data);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export function photoMeta(file: Buffer, over: Partial<MediaUploadStart> = {}): MediaUploadStart {
  return {
    media_id: randomUUID(),
    flight_id: null,
    type: 10,
    file_name: 'DJI_0001.JPG',
    mime: 'image/jpeg',
    size: file.length,
    sha256: sha(file),
    taken_at: Date.now(),
    lat: 22.54,
    lng: 114.05,
    height: 80,
    waypoint_index: 1,
    width: null,
    height_px: null,
    duration: null,
    ...over,
  };
}

/** A device's side of the upload protocol (docs/device-protocol.md 9.4), through inject(). */
export class DeviceUploader {
  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: string,
  ) {}

  static basic(sn: string, password: string): string {
    return `Basic ${Buffer.from(`${sn}:${password}`).toString('base64')}`;
  }

  post(meta: MediaUploadStart) {
    return this.app.inject({
      method: 'POST',
      url: MEDIA_UPLOAD_PATH,
      headers: { authorization: this.auth, 'content-type': 'application/json' },
      payload: JSON.stringify(meta),
    });
  }

  patch(mediaId: string, offset: number, chunk: Buffer) {
    return this.app.inject({
      method: 'PATCH',
      url: `${MEDIA_UPLOAD_PATH}/${mediaId}`,
      headers: { authorization: this.auth, 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) },
      payload: chunk,
    });
  }

  /** POST, then PATCHes from the server's offset; stops at the first answer that is not 200. */
  async send(meta: MediaUploadStart, file: Buffer, chunk = 256 * 1024) {
    let last = await this.post(meta);
    if (last.statusCode !== 200) return last;
    let offset = last.json<{ offset: number; complete: boolean }>().offset;
    while (offset < file.length) {
      last = await this.patch(meta.media_id, offset, file.subarray(offset, offset + chunk));
      if (last.statusCode !== 200) return last;
      offset = last.json<{ offset: number }>().offset;
    }
    return last;
  }
}
