import { createPublicKey } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { PUBLIC_KEYS_PATH, publicKeysSchema, sealWithPublicKey } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { decryptOaep, keyFile, loadOrCreateKeys } from './keys.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('server keys', () => {
  it('serves both public keys as base64 DER SPKI (RSA-2048) without caching', async () => {
    const res = await server.app.inject({ method: 'GET', url: `${PUBLIC_KEYS_PATH}?t=1` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const keys = publicKeysSchema.parse(res.json());
    expect(keys.password).not.toBe(keys.licence);
    for (const k of [keys.password, keys.licence]) {
      const key = createPublicKey({ key: Buffer.from(k, 'base64'), format: 'der', type: 'spki' });
      expect(key.asymmetricKeyType).toBe('rsa');
      expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    }
  });

  it('keeps the private keys as 0600 PEM files in DATA_DIR/keys', async () => {
    for (const name of ['password', 'licence'] as const) {
      const s = await stat(keyFile(server.dataDir, name));
      expect(s.mode & 0o777).toBe(0o600);
    }
  });

  it('reuses the keys across two app builds on one data dir', async () => {
    const again = await server.rebuild();
    const res = await again.inject({ method: 'GET', url: PUBLIC_KEYS_PATH });
    expect(res.json()).toEqual(server.keys);
    const loaded = await loadOrCreateKeys(server.dataDir);
    expect(loaded.password.publicSpki).toBe(server.keys.password);
    const cipher = await sealWithPublicKey('hello', server.keys.licence);
    expect(decryptOaep(loaded.licence, cipher)).toBe('hello');
    expect(decryptOaep(loaded.password, cipher)).toBeNull();
  });
});
