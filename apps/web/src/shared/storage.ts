import { STORAGE_KEYS } from '@nest/contracts';

/**
 * Local storage keys. The three of SPEC section 9 come from contracts; the rest belong to this client
 * only (namespaced so they cannot collide with anything the SPEC names).
 */
export const KEYS = {
  ...STORAGE_KEYS,
  /** Account remembered by the login screen's "remember account" box. */
  rememberAccount: 'nest.rememberAccount',
  /** Per-browser random secret from which the token cookie's AES key is derived. */
  tokenSecret: 'nest.tokenSecret',
  /** '1' turns off the right-click / devtools-shortcut block. */
  devtools: 'nest.devtools',
} as const;

/** localStorage that never throws (private mode, disabled storage, quota). */
export const storage = {
  get(key: string): string | null {
    try {
      return globalThis.localStorage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      globalThis.localStorage?.setItem(key, value);
    } catch {
      /* storage unavailable: the value lives for this page only */
    }
  },
  remove(key: string): void {
    try {
      globalThis.localStorage?.removeItem(key);
    } catch {
      /* ignore */
    }
  },
  getJson<T>(key: string): T | null {
    const raw = storage.get(key);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: string, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
};
