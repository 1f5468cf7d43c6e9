/// <reference types="node" />
import { constants, createHash, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  bytesToBase64,
  commonCheckDigest,
  envelopeNonce,
  passwordDigest,
  passwordEnvelopeContent,
  sealPassword,
  sealWithPublicKey,
} from './password.js';

const { publicKey, privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'der' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const spki = Buffer.from(publicKey).toString('base64');

const open = (envelope: string): unknown =>
  JSON.parse(
    privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(envelope, 'base64'),
    ).toString('utf8'),
  );
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

const STAMP = 1_767_225_600_000;
const NONCE = 'ab'.repeat(16);

describe('password envelope', () => {
  it('seals {d: sha256 hex, n: length, c: 128-bit sha256 of the lower case, t: the timestamp, r: a nonce} that the private key opens', async () => {
    const envelope = await sealPassword('Secret-123', spki, STAMP, NONCE);
    const content = passwordEnvelopeContent.parse(open(envelope));
    expect(content).toEqual({ d: sha256('Secret-123'), n: 10, c: sha256('secret-123').slice(0, 32), t: STAMP, r: NONCE });
  });

  it('takes the timestamp as the os_timestamp text too, and draws a fresh 128-bit nonce per envelope', async () => {
    const [a, b] = await Promise.all([sealPassword('same-pass', spki, String(STAMP)), sealPassword('same-pass', spki, STAMP)]);
    const [ca, cb] = [passwordEnvelopeContent.parse(open(a)), passwordEnvelopeContent.parse(open(b))];
    expect(ca.t).toBe(STAMP);
    expect(ca.r).toMatch(/^[0-9a-f]{32}$/);
    expect(ca.r).not.toBe(cb.r);
    expect(envelopeNonce()).not.toBe(envelopeNonce());
  });

  it('counts characters, not bytes or UTF-16 units, and hashes UTF-8', async () => {
    const password = '密码ab🚁';
    const content = open(await sealPassword(password, spki, STAMP, NONCE));
    expect(content).toEqual({ d: sha256(password), n: 5, c: sha256(password).slice(0, 32), t: STAMP, r: NONCE });
    expect(await commonCheckDigest('QWERTY123')).toBe(sha256('qwerty123').slice(0, 32));
  });

  it('never repeats a ciphertext for the same password, timestamp and nonce', async () => {
    const [a, b] = await Promise.all([sealPassword('same-pass', spki, STAMP, NONCE), sealPassword('same-pass', spki, STAMP, NONCE)]);
    expect(a).not.toBe(b);
    expect(open(a)).toEqual(open(b));
  });

  it('fits the largest content in what RSA-OAEP (SHA-256) seals under a 2048-bit key (190 bytes)', async () => {
    const largest = { d: 'f'.repeat(64), n: 10_000, c: 'f'.repeat(32), t: Number.MAX_SAFE_INTEGER, r: 'f'.repeat(32) };
    expect(passwordEnvelopeContent.parse(largest)).toEqual(largest);
    const plain = JSON.stringify(largest);
    expect(new TextEncoder().encode(plain).length).toBeLessThanOrEqual(190);
    expect(open(await sealWithPublicKey(plain, spki))).toEqual(largest);
  });

  it('refuses content without the timestamp or nonce, or with malformed ones', () => {
    const ok = { d: 'a'.repeat(64), n: 8, c: 'b'.repeat(32), t: STAMP, r: NONCE };
    expect(passwordEnvelopeContent.safeParse(ok).success).toBe(true);
    for (const bad of [
      { ...ok, t: undefined },
      { ...ok, r: undefined },
      { ...ok, c: undefined },
      { ...ok, t: String(STAMP) },
      { ...ok, t: -1 },
      { ...ok, r: 'xyz' },
      { ...ok, c: 'a'.repeat(64) },
    ]) {
      expect(passwordEnvelopeContent.safeParse(bad).success).toBe(false);
    }
  });

  it('digests like node:crypto', async () => {
    expect(await passwordDigest('')).toBe(sha256(''));
    expect(await passwordDigest('Ünïcødé')).toBe(sha256('Ünïcødé'));
  });

  it('round-trips base64', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    expect(Array.from(base64ToBytes(bytesToBase64(bytes)))).toEqual(Array.from(bytes));
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });
});
