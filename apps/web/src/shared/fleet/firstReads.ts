import { getToken } from '../cookie';

/** Reads older than this are not taken (the screen reads afresh). */
const MAX_AGE_MS = 10_000;

let started: { token: string; at: number; reads: Map<string, Promise<unknown>> } | null = null;
/** The session whose screen asked for its first reads before any were kept: it read them itself. */
let askedFirst: string | null = null;

/**
 * Keeps reads a screen starts before it mounts (right after sign-in, beside the fetch of its code), for the
 * screen to take (takeFirstRead) instead of asking once it has mounted. Reads belong to the session that
 * started them and are handed out once, within ten seconds.
 */
export function keepFirstReads(reads: ReadonlyMap<string, Promise<unknown>>): void {
  const token = getToken();
  if (!token) return;
  // A read nobody takes must not report an unhandled rejection; the taker still sees the failure.
  for (const read of reads.values()) read.catch(() => undefined);
  started = { token, at: Date.now(), reads: new Map(reads) };
}

/** The read kept for the current session under this name, once; null when there is none (read afresh). */
export function takeFirstRead<T = unknown>(name: string): Promise<T> | null {
  if (!started || started.token !== getToken()) {
    askedFirst = getToken();
    started = null;
    return null;
  }
  if (Date.now() - started.at > MAX_AGE_MS) {
    started = null;
    return null;
  }
  const read = started.reads.get(name);
  started.reads.delete(name);
  return (read as Promise<T> | undefined) ?? null;
}

/**
 * The screen of this session has mounted before its first reads were started (a busy main thread can run
 * the screen's render before the code that starts them) and has read for itself: starting them now would
 * read everything twice.
 */
export function firstReadsTooLate(): boolean {
  const token = getToken();
  return !!token && askedFirst === token;
}

/** Drops reads not taken (for tests). */
export function clearFirstReads(): void {
  started = null;
  askedFirst = null;
}
