import { useSyncExternalStore } from 'react';
import { TOKEN_COOKIE, TOKEN_COOKIE_HOURS, bytesToBase64, base64ToBytes } from '@nest/contracts';
import { t } from './i18n';
import { KEYS, storage } from './storage';

/** Path every cookie of the console is scoped to (the app is served under /nest/). */
export const COOKIE_PATH = '/nest';

/** Thrown for an empty cookie key; `message` is the SPEC wording, `localized` the current language's. */
export class CookieKeyError extends Error {
  readonly localized: string;
  constructor() {
    super(t('cookie.emptyKey', undefined, 'en'));
    this.name = 'CookieKeyError';
    this.localized = t('cookie.emptyKey');
  }
}

const secureFlag = (): string => (globalThis.location?.protocol === 'https:' ? '; Secure' : '');

export function setCookie(key: string, value: string, hours: number): void {
  if (!key) throw new CookieKeyError();
  const maxAge = Math.max(0, Math.round(hours * 3600));
  const expires = new Date(Date.now() + maxAge * 1000).toUTCString();
  document.cookie =
    `${encodeURIComponent(key)}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Expires=${expires}` +
    `; Path=${COOKIE_PATH}; SameSite=Strict${secureFlag()}`;
}

export function getCookie(key: string): string | null {
  if (!key) throw new CookieKeyError();
  const wanted = encodeURIComponent(key);
  for (const part of document.cookie ? document.cookie.split('; ') : []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === wanted) {
      try {
        return decodeURIComponent(part.slice(eq + 1));
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function removeCookie(key: string): void {
  if (!key) throw new CookieKeyError();
  document.cookie = `${encodeURIComponent(key)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=${COOKIE_PATH}; SameSite=Strict${secureFlag()}`;
}

// ------------------------------------------------------------------ encrypted token cookie

const b64url = (bytes: Uint8Array): string => bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromB64url = (text: string): Uint8Array<ArrayBuffer> => {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return base64ToBytes(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
};

const subtle = (): SubtleCrypto => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('Web Crypto is not available');
  return s;
};

/** The AES-GCM key, derived (HKDF-SHA-256) from a random per-browser secret kept in localStorage. */
async function tokenKey(): Promise<CryptoKey> {
  let secret = storage.get(KEYS.tokenSecret);
  if (!secret || fromB64url(secret).length !== 32) {
    secret = b64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
    storage.set(KEYS.tokenSecret, secret);
  }
  const base = await subtle().importKey('raw', fromB64url(secret), 'HKDF', false, ['deriveKey']);
  return subtle().deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new TextEncoder().encode('nest-console'), info: new TextEncoder().encode('token-cookie') },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

export async function encryptToken(token: string): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv }, await tokenKey(), new TextEncoder().encode(token)));
  const out = new Uint8Array(iv.length + cipher.length);
  out.set(iv);
  out.set(cipher, iv.length);
  return b64url(out);
}

/** Answers the token, or null when the value cannot be decrypted (other browser secret, tampering). */
export async function decryptToken(value: string): Promise<string | null> {
  try {
    const bytes = fromB64url(value);
    if (bytes.length < 13) return null;
    const plain = await subtle().decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, await tokenKey(), bytes.slice(12));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

// In-memory copy so that signing stays synchronous once the cookie has been read.
let token = '';
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** The current token ('' when signed out). */
export const getToken = (): string => token;

/** Reads and decrypts the token cookie into memory; an unreadable cookie counts as no token. */
export async function loadToken(): Promise<string> {
  const raw = getCookie(TOKEN_COOKIE);
  const plain = raw ? await decryptToken(raw) : null;
  if (raw && plain === null) removeCookie(TOKEN_COOKIE);
  if ((plain ?? '') !== token) {
    token = plain ?? '';
    emit();
  }
  return token;
}

/** Stores the token encrypted in the cookie (and in memory at once). */
export async function saveToken(value: string, hours: number = TOKEN_COOKIE_HOURS): Promise<void> {
  token = value;
  emit();
  setCookie(TOKEN_COOKIE, await encryptToken(value), hours);
}

export function clearToken(): void {
  removeCookie(TOKEN_COOKIE);
  if (token !== '') {
    token = '';
    emit();
  }
}

export function useToken(): string {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getToken,
    getToken,
  );
}
