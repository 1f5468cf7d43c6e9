import type { MediaUploadStart } from '@nest/contracts';
import type { MediaRequest } from '../ops.js';
import { UploadQueue, uploadMedia } from '../upload.js';
import { findFfmpeg } from '@nest/ffmpeg';
import { PANORAMA_SIZE, PHOTO_SIZE, makePanorama, makePhoto } from './images.js';
import { RenderPool } from './render-pool.js';
import { clipSeconds, makeVideo } from './video.js';

/**
 * What happens to a picture or clip the drone took: rendered to a real file (JPEG / MP4) and uploaded to
 * the server, one at a time per device, in the order taken. Without a media URL nothing is rendered.
 */

export interface MediaPipelineOptions {
  mediaUrl: string;
  /** null: no videos; undefined: look for ffmpeg. */
  ffmpegPath?: string | null;
  log: (line: string) => void;
}

export interface MediaPipeline {
  submit(device: { sn: string; password: string }, m: MediaRequest): void;
  /** Uploads queued or running, over all devices. */
  pending(): number;
  stop(): void;
}

const TYPE = { photo: 10, panorama: 15, video: 20 } as const;

/** The file and its mediaUploadStart (without size and sha256) for one request. */
export async function renderMedia(m: MediaRequest, ffmpegPath: string | null, pool?: RenderPool): Promise<{ body: Buffer; meta: Omit<MediaUploadStart, 'size' | 'sha256'> } | null> {
  const at = { lat: m.lat, lng: m.lng, alt: m.alt, takenAt: m.takenAt };
  let body: Buffer;
  let width: number;
  let heightPx: number;
  let duration: number | null = null;
  if (m.kind === 'photo') {
    body = pool ? await pool.render('photo', at) : makePhoto(at);
    width = PHOTO_SIZE.width;
    heightPx = PHOTO_SIZE.height;
  } else if (m.kind === 'panorama') {
    body = pool ? await pool.render('panorama', at) : makePanorama(at);
    width = PANORAMA_SIZE.width;
    heightPx = PANORAMA_SIZE.height;
  } else {
    if (!ffmpegPath) return null;
    duration = clipSeconds(m.duration ?? 1);
    body = await makeVideo(duration, { ffmpegPath });
    width = 640;
    heightPx = 360;
  }
  const ext = m.kind === 'video' ? 'mp4' : 'jpg';
  return {
    body,
    meta: {
      media_id: m.id,
      flight_id: m.flightId,
      type: TYPE[m.kind],
      file_name: `${m.kind.toUpperCase()}_${m.id}.${ext}`.slice(-128),
      mime: m.kind === 'video' ? 'video/mp4' : 'image/jpeg',
      taken_at: m.takenAt,
      lat: Math.round(m.lat * 1e7) / 1e7,
      lng: Math.round(m.lng * 1e7) / 1e7,
      height: Math.round(m.height * 10) / 10,
      waypoint_index: m.waypointIndex,
      width,
      height_px: heightPx,
      duration,
    },
  };
}

export function createMediaPipeline(o: MediaPipelineOptions): MediaPipeline {
  const queues = new Map<string, UploadQueue>();
  const ffmpeg = o.ffmpegPath === null ? null : findFfmpeg(o.ffmpegPath);
  const pool = new RenderPool();
  let warned = false;
  return {
    submit(device, m) {
      if (m.kind === 'video' && !ffmpeg) {
        if (!warned) o.log('ffmpeg not found: recorded videos are not rendered or uploaded');
        warned = true;
        return;
      }
      let q = queues.get(device.sn);
      if (!q) {
        q = new UploadQueue(o.log);
        queues.set(device.sn, q);
      }
      q.push(async (signal) => {
        const file = await renderMedia(m, ffmpeg, pool);
        if (!file) return;
        await uploadMedia({ baseUrl: o.mediaUrl, sn: device.sn, password: device.password, meta: file.meta, body: file.body, signal, log: o.log });
      });
    },
    pending: () => [...queues.values()].reduce((n, q) => n + q.length, 0),
    stop() {
      for (const q of queues.values()) q.stop();
      void pool.stop();
    },
  };
}
