import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordEnvelopeContent,
  type PasswordEnvelopeContent,
} from '@nest/contracts';
import type { ScryptCost } from '../config.js';
import { decryptOaep, type KeyPair } from './keys.js';

/**
 * Stored password hashes: scrypt of the SHA-256 hex digest the browser sends (inside the RSA envelope),
 * 16-byte random salt, 32-byte key, encoded `scrypt$N$r$p$salt$hash` (salt and hash base64url) so the cost
 * can be raised later without invalidating existing hashes. Always async (libuv pool), never scryptSync.
 */
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Refuse absurd costs read from a stored hash (memory = 128 * N * r bytes). */
const MAX_LOG_N = 20;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export async function hashDigest(digest: string, cost: ScryptCost): Promise<string> {
  const N = 2 ** cost.logN;
  const salt = randomBytes(SALT_LENGTH);
  const key = await scryptAsync(digest, salt, N, cost.r, cost.p);
  return ['scrypt', N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Hash of a clear-text password (seed, CLI): the same digest the browser computes. */
export const hashPassword = (password: string, cost: ScryptCost): Promise<string> => hashDigest(sha256Hex(password), cost);

export async function verifyDigest(digest: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (!Number.isInteger(N) || N < 2 || N > 2 ** MAX_LOG_N || (N & (N - 1)) !== 0) return false;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scryptAsync(digest, salt, N, r, p);
  return timingSafeEqual(actual, expected);
}

const dummies = new Map<string, Promise<string>>();
/**
 * A hash of a random secret with the given cost, computed once: verified against when an account does not
 * exist, so unknown accounts take the same time as wrong passwords.
 */
export function dummyHash(cost: ScryptCost): Promise<string> {
  const key = `${cost.logN}/${cost.r}/${cost.p}`;
  let hash = dummies.get(key);
  if (!hash) {
    hash = hashDigest(randomBytes(32).toString('hex'), cost);
    dummies.set(key, hash);
  }
  return hash;
}

/**
 * Decrypts and checks the shape of a password envelope (contracts password.ts); null when it is unusable.
 * Calls open envelopes with envelopes.ts openRequestEnvelope, which also binds them to the request.
 */
export function openPasswordEnvelope(pair: KeyPair, base64: string): PasswordEnvelopeContent | null {
  const plain = decryptOaep(pair, base64);
  if (plain === null) return null;
  try {
    const parsed = passwordEnvelopeContent.safeParse(JSON.parse(plain));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const passwordLengthOk = (n: number): boolean => n >= PASSWORD_MIN && n <= PASSWORD_MAX;

/** A strong password for the generated first administrator (20 characters, ~120 bits). */
export const generatePassword = (): string => randomBytes(15).toString('base64url');
