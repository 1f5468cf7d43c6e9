import { privateApp } from './privateApp';
import { prefetchDataOf, preloadScreenOf } from './screens';

/**
 * Fetches the code a sign-in leads to (guard and shell, and the screen of `target` when it is a fixed
 * route such as the data screen) while the user types and the sign-in call runs; failures are left to the
 * render, which shows them.
 */
export function preloadAfterSignIn(target: string): void {
  privateApp.preload().catch(() => undefined);
  preloadScreenOf(target).catch(() => undefined);
}

/** Right after sign-in: starts the reads of the screen of `target` (a fixed route), beside its render. */
export function prefetchAfterSignIn(target: string): void {
  prefetchDataOf(target).catch(() => undefined);
}
