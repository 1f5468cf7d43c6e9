import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { LiveIngest, LiveSlot } from '../link/dji/live.js';

/** The RTMP application docks publish to: `<publishBase>/live/<sn>?key=<key>`. */
export const RTMP_APP = 'live';

export interface RtmpSlotsOptions {
  /** The RTMP address docks reach, without a trailing slash, e.g. rtmp://192.0.2.10:1935. */
  publishBase: string;
  /** Where the console reads live video (LIVE_URL_BASE), e.g. /live. */
  liveUrlBase: string;
  /** A slot was closed: the RTMP server drops its publisher. */
  onClose?: (sn: string) => void;
}

/**
 * The publish slots of the live ingest: one per device whose video is wanted, each with a random key that
 * only the server and that dock (through its live_start_push) know. The RTMP server asks `accepts` before
 * taking a publisher; a stream path or key it does not know is refused. A closed slot's key is forgotten,
 * so a dock told to stop cannot publish again with the old URL.
 */
export class RtmpSlots implements LiveIngest {
  private readonly keys = new Map<string, string>();

  constructor(private readonly opts: RtmpSlotsOptions) {}

  open(sn: string): LiveSlot {
    let key = this.keys.get(sn);
    if (!key) this.keys.set(sn, (key = randomBytes(16).toString('hex')));
    return {
      rtmpUrl: `${this.opts.publishBase}/${RTMP_APP}/${encodeURIComponent(sn)}?key=${key}`,
      playlist: `${this.opts.liveUrlBase}/${encodeURIComponent(sn)}/index.m3u8`,
    };
  }

  close(sn: string): void {
    if (this.keys.delete(sn)) this.opts.onClose?.(sn);
  }

  /** The device a publisher to `streamPath` (`/live/<sn>`) with `key` publishes for, or null when refused. */
  accepts(streamPath: string, key: string | undefined): string | null {
    const m = /^\/([^/]+)\/([^/]+)$/.exec(streamPath);
    if (!m || m[1] !== RTMP_APP || typeof key !== 'string') return null;
    let sn: string;
    try {
      sn = decodeURIComponent(m[2]!);
    } catch {
      return null;
    }
    const expected = this.keys.get(sn);
    if (!expected) return null;
    const a = Buffer.from(key);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b) ? sn : null;
  }
}
