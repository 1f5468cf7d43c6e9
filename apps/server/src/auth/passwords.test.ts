// Database: SQLite only: password hashing and envelopes.
import { generateKeyPairSync } from 'node:crypto';
import { sealPassword, sealWithPublicKey } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT_COST } from '../config.js';
import type { KeyPair } from './keys.js';
import {
  generatePassword,
  hashDigest,
  hashPassword,
  openPasswordEnvelope,
  passwordLengthOk,
  sha256Hex,
  verifyDigest,
} from './passwords.js';

const cheap = { logN: 10, r: 8, p: 1 };

function pair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicSpki: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
}

describe('password hashes', () => {
  it('uses scrypt N=2^17, r=8, p=1 by default, with the cost in the encoded hash', async () => {
    expect(DEFAULT_SCRYPT_COST).toEqual({ logN: 17, r: 8, p: 1 });
    const hash = await hashDigest(sha256Hex('secret-1'), DEFAULT_SCRYPT_COST);
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyDigest(sha256Hex('secret-1'), hash)).toBe(true);
  });

  it('verifies with the cost stored in the hash, salts every hash, and refuses wrong or malformed input', async () => {
    const a = await hashPassword('secret-2', cheap);
    const b = await hashPassword('secret-2', cheap);
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyDigest(sha256Hex('secret-2'), a)).toBe(true);
    expect(await verifyDigest(sha256Hex('secret-3'), a)).toBe(false);
    expect(await verifyDigest(sha256Hex('secret-2'), 'plain')).toBe(false);
    expect(await verifyDigest(sha256Hex('secret-2'), a.replace('$1024$', '$1000$'))).toBe(false);
    expect(await verifyDigest(sha256Hex('secret-2'), a.replace('$1024$', `$${2 ** 24}$`))).toBe(false);
  });

  it('generates strong passwords within the allowed length', () => {
    const p = generatePassword();
    expect(p).toHaveLength(20);
    expect(passwordLengthOk([...p].length)).toBe(true);
    expect(generatePassword()).not.toBe(p);
    expect(passwordLengthOk(5)).toBe(false);
    expect(passwordLengthOk(33)).toBe(false);
  });
});

describe('password envelopes', () => {
  it('opens what contracts sealPassword produced with the public key', async () => {
    const keys = pair();
    const sealed = await sealPassword('Pässwörd-€', keys.publicSpki, 1_767_225_600_000, 'cd'.repeat(16));
    expect(openPasswordEnvelope(keys, sealed)).toEqual({
      d: sha256Hex('Pässwörd-€'),
      n: 10,
      c: sha256Hex('pässwörd-€').slice(0, 32),
      t: 1_767_225_600_000,
      r: 'cd'.repeat(16),
    });
  });

  it('answers null for other keys, garbage and wrong contents', async () => {
    const keys = pair();
    expect(openPasswordEnvelope(keys, await sealPassword('secret-1', pair().publicSpki, Date.now()))).toBeNull();
    // The envelope of before the request binding (no timestamp, nonce nor common-list hash).
    expect(openPasswordEnvelope(keys, await sealWithPublicKey(JSON.stringify({ d: sha256Hex('secret-1'), n: 8 }), keys.publicSpki))).toBeNull();
    expect(openPasswordEnvelope(keys, 'not base64 !')).toBeNull();
    expect(openPasswordEnvelope(keys, await sealWithPublicKey('{"d":"zz","n":3}', keys.publicSpki))).toBeNull();
    expect(openPasswordEnvelope(keys, await sealWithPublicKey('not json', keys.publicSpki))).toBeNull();
  });
});
