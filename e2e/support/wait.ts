/**
 * Waiting for a state of the page, the API or the database: the condition is read again and again until it
 * holds. The limit is a safety net far above the normal duration, so a busy machine is slow but not failing;
 * when it is reached, the error names what was awaited and the last value read (or the last error thrown
 * while reading), which is where a diagnosis starts.
 */

/** The default safety limit of a wait: far above any state the console reaches in normal use. */
export const WAIT_LIMIT_MS = 60_000;

/**
 * Pauses between two reads: short at first (most states arrive within a frame or two), then every 250 ms
 * (reads are page evaluations or API calls; reading more often only loads the machine being waited on).
 */
const PAUSES_MS = [10, 25, 50, 100, 250];

/**
 * Reads `read()` until `ok` accepts the value and answers that value. Without `ok`, a value other than
 * false, null, undefined, 0 or '' is accepted. A read that throws (a page between two documents, an API
 * answer not there yet) counts as not yet and is read again.
 */
export async function until<T, S extends T>(what: string, read: () => Promise<T> | T, ok: (value: T) => value is S, limitMs?: number): Promise<S>;
export async function until<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, limitMs?: number): Promise<T>;
export async function until<T>(what: string, read: () => Promise<T> | T): Promise<NonNullable<T>>;
export async function until<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean = Boolean, limitMs = WAIT_LIMIT_MS): Promise<T> {
  const deadline = Date.now() + limitMs;
  let last: { value: T } | { error: unknown };
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await read();
      if (ok(value)) return value;
      last = { value };
    } catch (error) {
      // A closed page or browser never answers again: no point in reading until the limit.
      if (error instanceof Error && /has been closed/.test(error.message)) throw error;
      last = { error };
    }
    if (Date.now() >= deadline) {
      const seen = 'error' in last ? `the last read threw: ${describeError(last.error)}` : `the last value read: ${describe(last.value)}`;
      throw new Error(`gave up after ${Math.round(limitMs / 1000)} s waiting for ${what}; ${seen}`);
    }
    await new Promise((r) => setTimeout(r, PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)]));
  }
}

function describe(value: unknown): string {
  try {
    const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
    return text.length > 2_000 ? `${text.slice(0, 2_000)}...` : text;
  } catch {
    return String(value);
  }
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}
