/**
 * Waiting in the simulator's tests: for a message, a file, a state; never for an amount of time.
 *
 * The limit is a safety net against a hang, far above how long anything awaited takes even on a loaded
 * 2-core machine, and kept under the unit project's testTimeout so the failure names what was awaited.
 * It is measured with performance.now(), so it still works in a test that fakes Date.
 */
export const WAIT_LIMIT_MS = 45_000;

/** Resolves with the first truthy value of `f` (checked every 10 ms); rejects, naming `what`, at the limit. */
export async function until<T>(what: string, f: () => T | undefined | null | false, limitMs = WAIT_LIMIT_MS): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = f();
    if (v) return v;
    if (performance.now() - start > limitMs) throw new Error(`waited ${Math.round(limitMs / 1000)} s (a safety limit) for ${what}, which did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
