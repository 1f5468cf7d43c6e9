import { z } from 'zod';
import type { Lang } from './i18n.js';

/**
 * Passwords never travel in clear: the browser hashes the password (SHA-256) and encrypts an envelope with
 * the server's public key (RSA-OAEP, SHA-256). The server decrypts, checks, and stores only a slow hash of
 * the digest. Web Crypto is used on both sides (browsers in a secure context, Node 20).
 *
 * The envelope (JSON, at most 190 bytes: what RSA-OAEP with SHA-256 seals under a 2048-bit key):
 * - `d`: SHA-256 of the password (hex). The stored hash is a slow hash of it; sign-in compares it.
 * - `n`: the length of the password in characters (code points). Declared by the client: the server never
 *   sees the password, so it can only hold the client to its word (6-32).
 * - `c`: the first 128 bits of the SHA-256 of the lower-cased password (hex), for the server's check of new
 *   passwords against its list of the most common ones, whatever their letter case. Like `n`, it is declared
 *   by the client: the server cannot tie it to `d`. It tells whoever opens the envelope nothing `d` does not
 *   already let them guess (both are unsalted hashes of the same password, useful only to confirm a guess),
 *   it is never stored, and it is cut to 128 bits because the list check needs no more and the envelope
 *   has no room for more.
 * - `t`: the os_timestamp (ms) of the request that carries the envelope, and `r`: a random nonce (128 bits,
 *   hex). They bind the envelope to one request: the server refuses an envelope whose `t` is not the
 *   request's os_timestamp or is outside the accepted clock window, and a nonce it has seen within that
 *   window, so a captured envelope cannot be sent again with a new timestamp and signature.
 */
export const passwordEnvelopeContent = z.object({
  d: z.string().regex(/^[0-9a-f]{64}$/),
  n: z.number().int().min(0).max(10_000),
  c: z.string().regex(/^[0-9a-f]{32}$/),
  t: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  r: z.string().regex(/^[0-9a-f]{32}$/),
});
export type PasswordEnvelopeContent = z.infer<typeof passwordEnvelopeContent>;

const subtle = () => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('Web Crypto is not available (the console must be served over HTTPS or from localhost)');
  return s;
};

const toHex = (buf: ArrayBuffer): string =>
  Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

export const base64ToBytes = (b64: string): Uint8Array<ArrayBuffer> => {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};
export const bytesToBase64 = (bytes: Uint8Array): string => {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
};

export async function passwordDigest(password: string): Promise<string> {
  return toHex(await subtle().digest('SHA-256', new TextEncoder().encode(password)));
}

/** Encrypts short text with an SPKI (base64 DER) RSA public key; answers base64. */
export async function sealWithPublicKey(plain: string, spkiBase64: string): Promise<string> {
  const key = await subtle().importKey('spki', base64ToBytes(spkiBase64), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
    'encrypt',
  ]);
  const cipher = await subtle().encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
  return bytesToBase64(new Uint8Array(cipher));
}

/** The `c` of an envelope: the first 128 bits of the SHA-256 of the lower-cased password (hex). */
export async function commonCheckDigest(password: string): Promise<string> {
  return (await passwordDigest(password.toLowerCase())).slice(0, 32);
}

/** A fresh random nonce for an envelope: 128 bits, hex. */
export const envelopeNonce = (): string => {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return toHex(bytes.buffer);
};

/**
 * Seals a password for one request: `timestamp` must be the os_timestamp that request carries (ms); the
 * nonce is fresh unless given (tests give one to show that a reused nonce is refused).
 */
export async function sealPassword(
  password: string,
  spkiBase64: string,
  timestamp: number | string,
  nonce: string = envelopeNonce(),
): Promise<string> {
  const content: PasswordEnvelopeContent = {
    d: await passwordDigest(password),
    n: [...password].length,
    c: await commonCheckDigest(password),
    t: Number(timestamp),
    r: nonce,
  };
  return sealWithPublicKey(JSON.stringify(content), spkiBase64);
}

/**
 * What the server answers when it refuses an envelope or a new password, in both console languages: the
 * envelope refusals with STALE_TIMESTAMP, the common password with PASSWORD_COMMON (whose code text is the
 * same; the web forms show it on the password field).
 */
export const PASSWORD_REFUSALS = {
  mismatch: {
    zh: '密码数据与本次请求不符，请重新提交',
    en: 'The password data does not belong to this request; submit again',
  },
  stale: {
    zh: '密码数据已过期，请检查本机时间后重新提交',
    en: 'The password data is out of date; check this computer’s clock and submit again',
  },
  replayed: { zh: '密码数据已被使用过，请重新提交', en: 'The password data was already used; submit again' },
  common: {
    zh: '该密码过于常见，容易被猜中，请换一个',
    en: 'This password is too common and easy to guess; choose another one',
  },
} as const satisfies Record<string, Record<Lang, string>>;

/** Public keys as served to the browser (base64 DER SPKI). */
export const publicKeysSchema = z.object({ password: z.string().min(1), licence: z.string().min(1) });
export type PublicKeys = z.infer<typeof publicKeysSchema>;
export const PUBLIC_KEYS_PATH = '/api/static/public-keys.json';
