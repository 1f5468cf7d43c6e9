import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** Any component: lazy() takes components of any props. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyComponent = ComponentType<any>;

/** A dynamic import of a module whose default export is a component. */
export type ModuleLoader<T extends AnyComponent = ComponentType> = () => Promise<{ default: T }>;

export interface Preloadable<T extends AnyComponent> {
  /** The component: suspends while its module is fetched, renders at once when it is already in. */
  Component: LazyExoticComponent<T>;
  /** Fetches the module ahead of rendering (once; after a failure the next call tries again). */
  preload(): Promise<void>;
  /** The module is in (preloaded or rendered before). */
  loaded(): boolean;
}

/**
 * A lazy component that can be fetched ahead. React's lazy() suspends even on a promise that has settled
 * (it waits for `then`), and React holds back the reveal of content that suspended until 300 ms after the
 * last fallback it showed; so a module that is already in is handed to lazy() through a thenable that
 * answers synchronously, and the component renders in the same pass without a fallback.
 */
export function preloadable<T extends AnyComponent>(load: ModuleLoader<T>): Preloadable<T> {
  let module: { default: T } | null = null;
  let pending: Promise<{ default: T }> | null = null;
  const fetchModule = (): Promise<{ default: T }> => {
    pending ??= load().then(
      (m) => (module = m),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Component = lazy(() => {
    const ready = module;
    if (!ready) return fetchModule();
    const settled = { then: (resolve: (m: { default: T }) => void) => resolve(ready) };
    // A thenable that resolves at once lets React render a loaded module without suspending; lazy's
    // types ask for a Promise.
    return settled as unknown as Promise<{ default: T }>;
  });
  return {
    Component,
    preload: () => fetchModule().then(() => undefined),
    loaded: () => module !== null,
  };
}

/** Runs `fn` when the main thread is idle (at the latest after `timeoutMs`). */
export function whenIdle(fn: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(fn, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(fn, 1);
  return () => clearTimeout(id);
}

/**
 * How long after a screen shows its on-demand code is fetched ahead: by then its first paint, map and
 * data are in, even on a loaded machine, and the fetch (and its parse) does not compete with them.
 */
export const PREFETCH_AFTER_MS = 10_000;

/** Runs `fn` once the page is idle, `delayMs` after now at the earliest; answers a cancel. */
export function whenSettled(fn: () => void, delayMs = PREFETCH_AFTER_MS): () => void {
  let cancelIdle = () => {};
  const timer = setTimeout(() => {
    cancelIdle = whenIdle(fn);
  }, delayMs);
  return () => {
    clearTimeout(timer);
    cancelIdle();
  };
}
