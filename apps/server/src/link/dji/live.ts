import { DjiMethod, DjiResult, LinkMethod } from '@nest/contracts';

/**
 * Live video of DJI docks. The console's `video.start` becomes `live_start_push` with an RTMP URL of the
 * product's live ingest (url_type 1, normal quality): the dock publishes its drone's camera there and the
 * ingest turns it into the same HLS playlist native devices write (LIVE_DIR/<sn>/index.m3u8), so the
 * browser's player needs nothing else. `video.stop` becomes `live_stop_push` and closes the ingest's slot.
 */

/** Where a dock publishes a device's stream: an RTMP URL carrying a per-stream key, and the playlist the console plays. */
export interface LiveSlot {
  rtmpUrl: string;
  /** Playlist path as native devices answer it, e.g. /live/<sn>/index.m3u8. */
  playlist: string;
}

/** What the adapter needs of the live ingest. */
export interface LiveIngest {
  /** Opens (or keeps) the publish slot of `sn`; only a publisher presenting its key is accepted. Null: no ingest. */
  open(sn: string): LiveSlot | null;
  /** Closes the slot of `sn`: its key is forgotten and a running publisher is dropped. */
  close(sn: string): void;
}

/** A service sent to the dock, answered with its result code (null: no answer after the resends). */
export type LiveSend = (method: string, data: Record<string, unknown>) => Promise<{ result: number } | null>;

/** What the adapter makes of a live command: ok with the playlist, failed with a DJI code, or no answer. */
export type LiveResult = { status: 'ok'; output: { url?: string } } | { status: 'failed'; code: number; message: string } | { status: 'timeout' };

/** The normal-lens stream of the drone's main camera (payload index 0 on the 80-0-0 camera slot). */
export const defaultVideoId = (droneSn: string): string => `${droneSn}/80-0-0/normal-0`;

/**
 * The video id to publish: the first camera of the drone in the dock's `live_capacity` state when it
 * reported one (device_list[].camera_list[].video_list[]), else the default.
 */
export function videoIdOf(droneSn: string, capacity: unknown): string {
  const devices = (capacity as { device_list?: unknown } | null | undefined)?.device_list;
  if (Array.isArray(devices)) {
    for (const d of devices as { sn?: unknown; camera_list?: unknown }[]) {
      if (d?.sn !== droneSn || !Array.isArray(d.camera_list)) continue;
      for (const c of d.camera_list as { camera_index?: unknown; video_list?: unknown }[]) {
        if (typeof c?.camera_index !== 'string' || !Array.isArray(c.video_list)) continue;
        const v = (c.video_list as { video_index?: unknown }[]).find((x) => typeof x?.video_index === 'string');
        if (v) return `${droneSn}/${c.camera_index}/${v.video_index as string}`;
      }
    }
  }
  return defaultVideoId(droneSn);
}

export class DjiLive {
  /** The video id each device publishes now, by console sn. */
  private readonly videoIds = new Map<string, string>();

  constructor(private readonly ingest: LiveIngest | null) {}

  async command(method: string, sn: string, droneSn: string, capacity: unknown, send: LiveSend): Promise<LiveResult> {
    if (method === LinkMethod.VIDEO_START) return this.start(sn, droneSn, capacity, send);
    return this.stop(sn, droneSn, send);
  }

  private async start(sn: string, droneSn: string, capacity: unknown, send: LiveSend): Promise<LiveResult> {
    const slot = this.ingest?.open(sn) ?? null;
    if (!slot) return { status: 'failed', code: DjiResult.UNSUPPORTED, message: 'no live ingest' };
    const videoId = videoIdOf(droneSn, capacity);
    const reply = await send(DjiMethod.LIVE_START_PUSH, { url_type: 1, url: slot.rtmpUrl, video_id: videoId, video_quality: 0 });
    if (!reply) return { status: 'timeout' };
    if (reply.result !== 0 && reply.result !== DjiResult.ALREADY_LIVE) {
      this.ingest?.close(sn);
      return { status: 'failed', code: reply.result, message: 'live_start_push refused by the device' };
    }
    this.videoIds.set(sn, videoId);
    return { status: 'ok', output: { url: slot.playlist } };
  }

  private async stop(sn: string, droneSn: string, send: LiveSend): Promise<LiveResult> {
    const videoId = this.videoIds.get(sn) ?? defaultVideoId(droneSn);
    const reply = await send(DjiMethod.LIVE_STOP_PUSH, { video_id: videoId });
    this.videoIds.delete(sn);
    this.ingest?.close(sn);
    if (!reply) return { status: 'timeout' };
    if (reply.result !== 0 && reply.result !== DjiResult.NOT_LIVE) return { status: 'failed', code: reply.result, message: 'live_stop_push refused by the device' };
    return { status: 'ok', output: {} };
  }
}
