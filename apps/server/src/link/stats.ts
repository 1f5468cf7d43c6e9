import { LINK_RATE_WINDOW_S, type LinkDropReason } from '@nest/contracts';

/** Width of one rate bucket; LINK_RATE_WINDOW_S / BUCKET_S buckets make the window. */
const BUCKET_S = 5;
const BUCKETS = LINK_RATE_WINDOW_S / BUCKET_S;

interface Bucket {
  /** Bucket start, ms (a multiple of BUCKET_S seconds). */
  start: number;
  messages: number;
  telemetry: number;
}

/** What one device's link counted since the server started (read-only view for /link/stats). */
export interface DeviceLinkCounts {
  accepted: number;
  dropped: Partial<Record<LinkDropReason, number>>;
  /** Messages and telemetry messages per second over the rate window (or since first counted). */
  messagesPerSecond: number;
  telemetryPerSecond: number;
  rtt: { count: number; lastMs: number; avgMs: number; maxMs: number } | null;
  commandTimeouts: number;
}

class DeviceCounters {
  accepted = 0;
  readonly dropped: Partial<Record<LinkDropReason, number>> = {};
  readonly buckets: Bucket[] = [];
  firstAt: number;
  rttCount = 0;
  rttSum = 0;
  rttLast = 0;
  rttMax = 0;
  timeouts = 0;
  constructor(now: number) {
    this.firstAt = now;
  }

  bucket(now: number): Bucket {
    const start = now - (now % (BUCKET_S * 1000));
    let b = this.buckets.at(-1);
    if (!b || b.start !== start) {
      b = { start, messages: 0, telemetry: 0 };
      this.buckets.push(b);
      if (this.buckets.length > BUCKETS + 1) this.buckets.shift();
    }
    return b;
  }
}

/**
 * Per-device link counters kept by the LinkService (accepted messages by time bucket, drops by reason,
 * command round trips). Counting only: nothing here changes how messages are handled. Devices that
 * never sent anything have no entry.
 */
export class LinkCounters {
  private readonly devices = new Map<string, DeviceCounters>();

  private of(sn: string, now: number): DeviceCounters {
    let c = this.devices.get(sn);
    if (!c) {
      // A device flood of made-up sns cannot grow this without bound: registered devices are few.
      if (this.devices.size > 100_000) this.devices.clear();
      this.devices.set(sn, (c = new DeviceCounters(now)));
    }
    return c;
  }

  accepted(sn: string, telemetry: boolean, now = Date.now()): void {
    const c = this.of(sn, now);
    c.accepted++;
    const b = c.bucket(now);
    b.messages++;
    if (telemetry) b.telemetry++;
  }

  dropped(sn: string, reason: LinkDropReason, now = Date.now()): void {
    const c = this.of(sn, now);
    c.dropped[reason] = (c.dropped[reason] ?? 0) + 1;
  }

  roundTrip(sn: string, ms: number, now = Date.now()): void {
    const c = this.of(sn, now);
    c.rttCount++;
    c.rttSum += ms;
    c.rttLast = ms;
    c.rttMax = Math.max(c.rttMax, ms);
  }

  timeout(sn: string, now = Date.now()): void {
    this.of(sn, now).timeouts++;
  }

  /** The counts of one device, rates over the window ending now; null when nothing was counted. */
  read(sn: string, now = Date.now()): DeviceLinkCounts | null {
    const c = this.devices.get(sn);
    if (!c) return null;
    const windowStart = now - LINK_RATE_WINDOW_S * 1000;
    let messages = 0;
    let telemetry = 0;
    let from = now;
    for (const b of c.buckets) {
      if (b.start < windowStart) continue;
      from = Math.min(from, b.start);
      messages += b.messages;
      telemetry += b.telemetry;
    }
    // Over the whole buckets counted, and only since the device was first counted (not diluted).
    const spanS = Math.max(1, (now - Math.max(from, c.firstAt)) / 1000);
    return {
      accepted: c.accepted,
      dropped: { ...c.dropped },
      messagesPerSecond: messages / spanS,
      telemetryPerSecond: telemetry / spanS,
      rtt: c.rttCount > 0 ? { count: c.rttCount, lastMs: c.rttLast, avgMs: c.rttSum / c.rttCount, maxMs: c.rttMax } : null,
      commandTimeouts: c.timeouts,
    };
  }
}
