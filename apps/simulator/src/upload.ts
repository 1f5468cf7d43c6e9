import { createHash } from 'node:crypto';
import { MEDIA_UPLOAD_PATH, mediaUploadState } from '@nest/contracts';
import type { MediaUploadStart } from '@nest/contracts';

/**
 * Media upload from a device to the server (docs/device-protocol.md 9.4): POST to start or learn the
 * server's offset, PATCH chunks with `upload-offset`, resume from the server's offset after a 409 or a
 * network error, restart at 0 after a 422 (sha256 mismatch). Retries with backoff until it succeeds, the
 * server answers a definitive error, or the signal aborts.
 */

/** Chunk size the simulator sends (the server accepts up to contracts MEDIA_CHUNK_MAX_BYTES). */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

export interface UploadMediaOptions {
  /** Server base URL, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  sn: string;
  /** The device's broker password (Basic auth sn:password). */
  password: string;
  /** mediaUploadStart without size and sha256 (computed from `body`). */
  meta: Omit<MediaUploadStart, 'size' | 'sha256'>;
  body: Buffer;
  chunkBytes?: number;
  signal?: AbortSignal;
  /** Delay before retry number `attempt` (1-based); default 0.5 s doubling up to 30 s. */
  backoffMs?: (attempt: number) => number;
  /** Give up after this many failed attempts in a row (default: never). */
  maxAttempts?: number;
  log?: (line: string) => void;
}

export interface UploadResult {
  offset: number;
  complete: boolean;
  /** Requests made (for tests and logs). */
  requests: number;
}

/** An answer that retrying will not change (bad request, no permission, too large). */
export class UploadRejected extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const RETRYABLE = new Set([408, 409, 422, 425, 429]);
const defaultBackoff = (n: number): number => Math.min(30_000, 500 * 2 ** Math.min(10, n - 1));

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function uploadMedia(o: UploadMediaOptions): Promise<UploadResult> {
  const size = o.body.length;
  const sha256 = createHash('sha256').update(o.body).digest('hex');
  const start: MediaUploadStart = { ...o.meta, size, sha256 } as MediaUploadStart;
  const base = `${o.baseUrl.replace(/\/+$/, '')}${MEDIA_UPLOAD_PATH}`;
  const auth = `Basic ${Buffer.from(`${o.sn}:${o.password}`).toString('base64')}`;
  const chunk = Math.max(1, o.chunkBytes ?? UPLOAD_CHUNK_BYTES);
  const backoff = o.backoffMs ?? defaultBackoff;
  let requests = 0;
  let failures = 0;

  const call = async (method: string, url: string, body: Uint8Array | string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> => {
    requests += 1;
    const res = await fetch(url, { method, body: typeof body === 'string' ? body : new Uint8Array(body), headers: { authorization: auth, ...headers }, signal: o.signal });
    const text = await res.text();
    try {
      return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
    } catch {
      return { status: res.status, json: null };
    }
  };
  const offsetOf = (json: unknown): { offset: number; complete: boolean } | null => {
    const r = mediaUploadState.partial({ complete: true }).safeParse(json);
    return r.success ? { offset: r.data.offset, complete: r.data.complete ?? false } : null;
  };

  for (;;) {
    try {
      // Start, or learn how much the server already has.
      const s = await call('POST', base, JSON.stringify(start), { 'content-type': 'application/json' });
      if (s.status >= 400) {
        if (!RETRYABLE.has(s.status) && s.status < 500) throw new UploadRejected(s.status, `POST ${s.status}: ${JSON.stringify(s.json)}`);
        throw new Error(`POST answered ${s.status}`);
      }
      let state: { offset: number; complete: boolean } | null = offsetOf(s.json);
      if (!state) throw new Error('POST answered no offset');
      while (!state.complete && state.offset < size) {
        const from: number = state.offset;
        const part = o.body.subarray(from, Math.min(size, from + chunk));
        const p = await call('PATCH', `${base}/${encodeURIComponent(start.media_id)}`, part, {
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(from),
        });
        if (p.status === 409) {
          // Not the server's offset: continue from where the server is.
          state = { offset: offsetOf(p.json)?.offset ?? 0, complete: false };
          continue;
        }
        if (p.status === 422) {
          // sha256 mismatch: the server dropped the bytes; start again from 0.
          state = { offset: 0, complete: false };
          continue;
        }
        if (p.status >= 400) {
          if (!RETRYABLE.has(p.status) && p.status < 500) throw new UploadRejected(p.status, `PATCH ${p.status}: ${JSON.stringify(p.json)}`);
          throw new Error(`PATCH answered ${p.status}`);
        }
        state = offsetOf(p.json) ?? { offset: from + part.length, complete: false };
        failures = 0;
      }
      if (state.complete) return { ...state, requests };
      // Every byte sent but not complete: ask again (the POST answers the final state).
      throw new Error('upload not complete after the last byte');
    } catch (err) {
      if (err instanceof UploadRejected || o.signal?.aborted) throw err;
      failures += 1;
      if (o.maxAttempts !== undefined && failures >= o.maxAttempts) throw err;
      o.log?.(`${o.sn}: upload ${start.media_id} failed (${err instanceof Error ? err.message : String(err)}); retrying`);
      await sleep(backoff(failures), o.signal);
    }
  }
}

/** One upload at a time per device, in order; jobs render their file lazily. */
export class UploadQueue {
  private queue: (() => Promise<void>)[] = [];
  private running = false;
  private readonly abort = new AbortController();

  constructor(private readonly log: (line: string) => void) {}

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get length(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  push(job: (signal: AbortSignal) => Promise<void>): void {
    if (this.abort.signal.aborted) return;
    this.queue.push(() => job(this.abort.signal));
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.queue.length > 0 && !this.abort.signal.aborted) {
      const job = this.queue.shift()!;
      try {
        await job();
      } catch (err) {
        if (!this.abort.signal.aborted) this.log(`media upload dropped: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.running = false;
  }

  stop(): void {
    this.abort.abort(new Error('stopped'));
    this.queue.length = 0;
  }
}
