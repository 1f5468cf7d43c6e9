import { z } from 'zod';

/**
 * Passwords never travel in clear: the browser hashes the password (SHA-256), wraps the digest with the
 * length of the original (so the server can enforce 6-32 characters) and encrypts that envelope with the
 * server's public key (RSA-OAEP, SHA-256). The server decrypts, checks, and stores only a slow hash of the
 * digest. Web Crypto is used on both sides (browsers in a secure context, Node 20).
 */
export const passwordEnvelopeContent = z.object({
  d: z.string().regex(/^[0-9a-f]{64}$/),
  n: z.number().int().min(0).max(10_000),
});
export type PasswordEnvelopeContent = z.infer<typeof passwordEnvelopeContent>;

const subtle = (): SubtleCrypto => {
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

export async function sealPassword(password: string, spkiBase64: string): Promise<string> {
  const content: PasswordEnvelopeContent = { d: await passwordDigest(password), n: [...password].length };
  return sealWithPublicKey(JSON.stringify(content), spkiBase64);
}

/** Public keys as served to the browser (base64 DER SPKI). */
export const publicKeysSchema = z.object({ password: z.string().min(1), licence: z.string().min(1) });
export type PublicKeys = z.infer<typeof publicKeysSchema>;
export const PUBLIC_KEYS_PATH = '/api/static/public-keys.json';
