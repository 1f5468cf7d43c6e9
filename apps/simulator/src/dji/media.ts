import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
/** The AWS SDK is loaded on a dock's first upload, not when the emulator (or the launcher hosting it) starts. */
const s3 = () => import('@aws-sdk/client-s3');
import { makePhoto } from '../media/images.js';

/**
 * The dock's result uploads (DJI-CLOUD-API.md section 6): photos taken during a mission wait on the dock
 * until it is back, then each is uploaded to the bucket `storage_config_get` names (path style, with the
 * temporary credentials it hands out; asked again when they expire) and reported with the event
 * `file_upload_callback` (need_reply), sent again with the same tid and bid until the cloud answers. A
 * failed step is tried again with a growing pause, as a real dock keeps its files until they are uploaded;
 * a refusal in the cloud's answer ends that file.
 */

/** A photo as the drone took it. */
export interface Shot {
  flightId: string;
  lat: number;
  lng: number;
  /** Ellipsoid metres. */
  absoluteAltitude: number;
  /** Metres above the dock. */
  relativeAltitude: number;
  gimbalYaw: number;
  /** ms. */
  takenAt: number;
}

export interface MediaUploaded {
  flight_id: string;
  object_key: string;
  tid: string;
  bid: string;
  /** The cloud's answer to file_upload_callback (0 accepted). */
  result: number;
}

export interface MediaHost {
  dockSn: string;
  droneModelKey: string;
  payloadModelKey: string;
  timeScale: number;
  request(method: string, data: unknown): Promise<{ result: number; output?: unknown } | null>;
  /** Publishes an event message on the gateway's events topic (QoS 1). */
  publishEvent(body: Record<string, unknown>): void;
  uploaded(u: MediaUploaded): void;
  log(line: string): void;
}

interface StorageConfig {
  bucket: string;
  endpoint: string;
  region: string;
  prefix: string;
  accessKeyId: string;
  secret: string;
  token: string;
  /** Unix seconds. */
  expire: number;
}

/** Wall-clock ms before an unanswered file_upload_callback is sent again (answers come at wall-clock speed). */
const CALLBACK_RESEND_MS = 3_000;
const CALLBACK_TRIES = 5;
/** Simulated seconds of the first pause after a failure, doubled each time up to the last. */
const RETRY_FIRST_S = 5;
const RETRY_MAX_S = 300;
const RETRY_MIN_REAL_MS = 500;
/** The photos' pixel size: small, so uploads stay cheap (the picture is what the native simulator draws). */
const PHOTO_WIDTH = 320;
const PHOTO_HEIGHT = 240;

const rec = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `storage_config_get`'s output, or null when it is not a usable answer. */
function storageConfigOf(output: unknown): StorageConfig | null {
  const o = rec(output);
  const c = rec(o.credentials);
  const endpoint = str(o.endpoint);
  if (!/^https?:\/\//.test(endpoint) || !str(o.bucket) || !str(c.access_key_id) || !str(c.access_key_secret)) return null;
  return {
    bucket: str(o.bucket),
    endpoint,
    region: str(o.region) || 'us-east-1',
    prefix: str(o.object_key_prefix).replace(/\/+$/, ''),
    accessKeyId: str(c.access_key_id),
    secret: str(c.access_key_secret),
    token: str(c.security_token),
    expire: typeof c.expire === 'number' ? c.expire : 0,
  };
}

/** DJI's file name shape: DJI_<yyyymmddhhmmss>_<nnnn>_V.jpeg. */
function fileName(takenAt: number, n: number): string {
  const d = new Date(takenAt).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `DJI_${d}_${String(n).padStart(4, '0')}_V.jpeg`;
}

/** A photo on the dock: its file name, its object key once uploaded, the ids its callback goes out with. */
interface Held extends Shot {
  name: string;
  key: string | null;
  tid: string;
  bid: string;
}

export class DjiMediaUploader {
  private readonly waiting: Held[] = [];
  private readonly queue: Held[] = [];
  private readonly replies = new Map<string, { bid: string; resolve: (result: number) => void }>();
  private config: StorageConfig | null = null;
  private client: S3Client | null = null;
  private running = false;
  private stopped = false;
  private counter = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly host: MediaHost) {}

  /** A photo taken during flight `flightId`: kept until the mission is over (release). */
  shot(s: Shot): void {
    this.waiting.push({ ...s, name: fileName(s.takenAt, ++this.counter), key: null, tid: randomUUID(), bid: randomUUID() });
  }

  /** The drone is back in the dock after flight `flightId`: its photos go up. */
  release(flightId: string): void {
    for (let i = 0; i < this.waiting.length; ) {
      if (this.waiting[i]!.flightId === flightId) this.queue.push(...this.waiting.splice(i, 1));
      else i++;
    }
    void this.run();
  }

  /** Photos not yet reported and accepted. */
  pending(): number {
    return this.waiting.length + this.queue.length;
  }

  /** An events_reply: true when it answers one of our callbacks. */
  onEventsReply(tid: string, bid: string, data: unknown): boolean {
    const r = this.replies.get(tid);
    if (!r || r.bid !== bid) return false;
    this.replies.delete(tid);
    const result = rec(data).result;
    r.resolve(typeof result === 'number' ? result : -1);
    return true;
  }

  /**
   * Sends file_upload_callback with `file` (need_reply), again with the same tid and bid while unanswered;
   * resolves with the cloud's result, or null when CALLBACK_TRIES sends went unanswered.
   */
  async callback(file: Record<string, unknown>, ids: { tid?: string; bid?: string } = {}): Promise<number | null> {
    const tid = ids.tid ?? randomUUID();
    const bid = ids.bid ?? randomUUID();
    for (let i = 0; i < CALLBACK_TRIES && !this.stopped; i++) {
      const answered = new Promise<number>((resolve) => this.replies.set(tid, { bid, resolve }));
      this.host.publishEvent({ tid, bid, timestamp: Date.now(), gateway: this.host.dockSn, method: 'file_upload_callback', need_reply: 1, data: { result: 0, file } });
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([answered, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CALLBACK_RESEND_MS)))]);
      clearTimeout(timer);
      if (result !== null) return result;
    }
    this.replies.delete(tid);
    return null;
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.wake?.();
    for (const r of this.replies.values()) r.resolve(-1);
    this.replies.clear();
    this.client?.destroy();
    this.client = null;
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    let failures = 0;
    try {
      while (!this.stopped && this.queue.length > 0) {
        const s = this.queue[0]!;
        try {
          const done = await this.upload(s);
          this.queue.shift();
          failures = 0;
          this.host.uploaded(done);
        } catch (e) {
          failures++;
          const waitS = Math.min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (failures - 1));
          this.host.log(`dji ${this.host.dockSn}: media upload failed (${e instanceof Error ? e.message : String(e)}), again in ${waitS} s`);
          await this.pause(Math.max(RETRY_MIN_REAL_MS, (waitS * 1000) / this.host.timeScale));
        }
      }
    } finally {
      this.running = false;
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.retryTimer = setTimeout(resolve, ms);
    });
  }

  /** Fresh storage settings (asked again a minute before the credentials expire). */
  private async storage(): Promise<{ config: StorageConfig; client: S3Client }> {
    if (this.config && this.client && this.config.expire - 60 > Date.now() / 1000) return { config: this.config, client: this.client };
    const reply = await this.host.request('storage_config_get', { module: 0 });
    if (!reply) throw new Error('storage_config_get unanswered');
    if (reply.result !== 0) throw new Error(`storage_config_get refused (${reply.result})`);
    const config = storageConfigOf(reply.output);
    if (!config) throw new Error('storage_config_get answer unusable');
    this.client?.destroy();
    this.config = config;
    const { S3Client } = await s3();
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secret, sessionToken: config.token },
      maxAttempts: 1,
    });
    return { config, client: this.client };
  }

  private async upload(s: Held): Promise<MediaUploaded> {
    const { name } = s;
    if (s.key === null) {
      const { config, client } = await this.storage();
      const key = `${config.prefix}/${s.flightId}/${name}`;
      const body = makePhoto({ lat: s.lat, lng: s.lng, alt: s.absoluteAltitude, takenAt: s.takenAt, width: PHOTO_WIDTH, height: PHOTO_HEIGHT });
      try {
        const { PutObjectCommand } = await s3();
        await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: body, ContentType: 'image/jpeg' }));
      } catch (e) {
        // Refused credentials: ask for new ones next time.
        this.config = null;
        throw e;
      }
      // Uploaded: a failed report is sent again (same tid and bid), the file is not uploaded twice.
      s.key = key;
    }
    const key = s.key;
    const file = {
      object_key: key,
      path: s.flightId,
      name,
      ext: { flight_id: s.flightId, drone_model_key: this.host.droneModelKey, payload_model_key: this.host.payloadModelKey, is_original: true },
      metadata: {
        gimbal_yaw_degree: s.gimbalYaw,
        absolute_altitude: s.absoluteAltitude,
        relative_altitude: s.relativeAltitude,
        created_time: new Date(s.takenAt).toISOString(),
        shoot_position: { lat: s.lat, lng: s.lng },
      },
    };
    const { tid, bid } = s;
    const result = await this.callback(file, { tid, bid });
    if (result === null) throw new Error('file_upload_callback unanswered');
    if (result !== 0) this.host.log(`dji ${this.host.dockSn}: file_upload_callback for ${key} refused (${result})`);
    return { flight_id: s.flightId, object_key: key, tid, bid, result };
  }
}
