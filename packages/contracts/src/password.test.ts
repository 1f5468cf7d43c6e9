/// <reference types="node" />
import { constants, createHash, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, passwordDigest, passwordEnvelopeContent, sealPassword } from './password.js';

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

describe('password envelope', () => {
  it('seals {d: sha256 hex, n: length} that the private key opens', async () => {
    const envelope = await sealPassword('secret-123', spki);
    const content = passwordEnvelopeContent.parse(open(envelope));
    expect(content).toEqual({ d: sha256('secret-123'), n: 10 });
  });

  it('counts characters, not bytes or UTF-16 units, and hashes UTF-8', async () => {
    const password = '密码ab🚁';
    const content = open(await sealPassword(password, spki));
    expect(content).toEqual({ d: sha256(password), n: 5 });
  });

  it('never repeats a ciphertext for the same password', async () => {
    const [a, b] = await Promise.all([sealPassword('same-pass', spki), sealPassword('same-pass', spki)]);
    expect(a).not.toBe(b);
    expect(open(a)).toEqual(open(b));
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
