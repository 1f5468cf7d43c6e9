import { DATA_CHANGED_PERIOD_MS, type DataTopic } from '@nest/contracts';
import { refill, type TokenBucket } from '../link/bucket.js';
import type { PushClient } from './client.js';

/** More frames than this within one second close the socket with 1008 (policy violation). */
export const PUSH_FLOOD_FRAMES_PER_SECOND = 50;
/** 300 frames a socket may get in a burst above the device rate (jitter). */
export const TELEMETRY_BURST = 2;

/** Counts a frame in the socket's one-second window; answers true once the socket sends too many. */
export function floods(client: PushClient, now: number): boolean {
  if (now - client.windowStart >= 1000) {
    client.windowStart = now;
    client.frames = 0;
  }
  return ++client.frames > PUSH_FLOOD_FRAMES_PER_SECOND;
}

/**
 * The socket's 300 token bucket for a device, refilled to `now`: filled at the device's announced rate
 * (burst TELEMETRY_BURST), so in the long run a socket gets at most the device rate, whatever the device
 * sends; jitter costs nothing. A frame may go while it holds a token; the sender takes the token once sent.
 */
export function telemetryBucket(client: PushClient, sn: string, rateHz: number, now: number): TokenBucket {
  const kept = client.telemetrySentAt.get(sn);
  // Refilled in place: a socket's buckets are stored once, not on every frame.
  const bucket = refill(kept, now, rateHz, TELEMETRY_BURST);
  if (!kept) client.telemetrySentAt.set(sn, bucket);
  return bucket;
}

/** Topics of a company waiting for their 380, and when its last 380 went out. */
interface DataChangedState {
  topics: Set<DataTopic>;
  sentAt: number;
  timer: NodeJS.Timeout | null;
}

/**
 * 380 pacing per company: at most one per DATA_CHANGED_PERIOD_MS, the first at once, later ones at the end
 * of the period, naming every topic noticed since the previous one (sorted).
 */
export class DataChangedThrottle {
  private readonly companies = new Map<string, DataChangedState>();

  constructor(private readonly send: (companyId: string, topics: DataTopic[]) => void) {}

  /** A company's data changed: its 380 goes out now if none went out within the period, else at its end. */
  note(companyId: string, topic: DataTopic): void {
    let st = this.companies.get(companyId);
    if (!st) this.companies.set(companyId, (st = { topics: new Set(), sentAt: 0, timer: null }));
    st.topics.add(topic);
    if (st.timer) return;
    const wait = st.sentAt + DATA_CHANGED_PERIOD_MS - Date.now();
    if (wait <= 0) return this.flush(companyId, st);
    st.timer = setTimeout(() => this.flush(companyId, st), wait);
    st.timer.unref();
  }

  private flush(companyId: string, st: DataChangedState): void {
    st.timer = null;
    st.sentAt = Date.now();
    const topics = [...st.topics].sort();
    st.topics.clear();
    if (topics.length === 0) return;
    this.send(companyId, topics);
  }

  /** Stops every pending 380. */
  close(): void {
    for (const st of this.companies.values()) if (st.timer) clearTimeout(st.timer);
    this.companies.clear();
  }
}
