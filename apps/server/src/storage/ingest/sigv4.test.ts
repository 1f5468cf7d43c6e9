import { createHash } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { describe, expect, it } from 'vitest';
import { NodeSha256, payloadMatches, UploadCredentials, type IssuedCredentials, type SignedRequest } from './sigv4.js';

const REGION = 'us-east-1';
const HOST = '127.0.0.1:8080';

/** Signs a PutObject the way an S3 client does, with the given secret (the issued one unless overridden). */
async function signedPut(issued: IssuedCredentials, key: string, body: Uint8Array, secret = issued.secret, at = new Date()): Promise<SignedRequest> {
  const signer = new SignatureV4({
    credentials: { accessKeyId: issued.accessKeyId, secretAccessKey: secret, sessionToken: issued.sessionToken },
    region: REGION,
    service: 's3',
    sha256: NodeSha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const path = `/media/${key}`;
  const signed = await signer.sign(
    {
      method: 'PUT',
      protocol: 'http:',
      hostname: HOST,
      path,
      query: {},
      headers: { host: HOST, 'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'), 'content-type': 'image/jpeg' },
    },
    { signingDate: at },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) headers[name.toLowerCase()] = String(value);
  return { method: 'PUT', path, query: {}, headers };
}

describe('dock upload credentials (SigV4)', () => {
  const body = new Uint8Array(Buffer.from('jpeg bytes'));

  it('accepts a request signed with the issued credentials under the dock prefix', async () => {
    const store = new UploadCredentials(REGION);
    const issued = store.issue('DOCK-A', 'media/DOCK-A/', 3600);
    const result = await store.verify(await signedPut(issued, 'media/DOCK-A/1.jpg', body), 'media/DOCK-A/1.jpg');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.credentials.owner).toBe('DOCK-A');
      expect(payloadMatches(result.payloadHash, body)).toBe(true);
      expect(payloadMatches(result.payloadHash, new Uint8Array(Buffer.from('other bytes')))).toBe(false);
    }
  });

  it('refuses a wrong secret, a tampered header, another dock prefix, an unknown key and expired credentials', async () => {
    let now = Date.now();
    const store = new UploadCredentials(REGION, () => now);
    const a = store.issue('DOCK-A', 'media/DOCK-A/', 60);
    store.issue('DOCK-B', 'media/DOCK-B/', 60);
    const key = 'media/DOCK-A/1.jpg';

    expect(await store.verify(await signedPut(a, key, body, 'not-the-secret'), key)).toEqual({ ok: false, reason: 'signature' });

    const tampered = await signedPut(a, key, body);
    tampered.headers['content-type'] = 'text/html';
    expect(await store.verify(tampered, key)).toEqual({ ok: false, reason: 'signature' });

    const other = 'media/DOCK-B/1.jpg';
    expect(await store.verify(await signedPut(a, other, body), other)).toEqual({ ok: false, reason: 'prefix' });

    const unknown = await signedPut({ ...a, accessKeyId: 'DJIUNKNOWN' }, key, body);
    expect(await store.verify(unknown, key)).toEqual({ ok: false, reason: 'unknown-key' });

    const stolenToken = await signedPut(a, key, body);
    stolenToken.headers['x-amz-security-token'] = 'forged';
    expect(await store.verify(stolenToken, key)).toEqual({ ok: false, reason: 'token' });

    const fresh = await signedPut(a, key, body, a.secret, new Date(now));
    now += 61_000;
    expect(await store.verify(fresh, key)).toEqual({ ok: false, reason: 'expired' });
  });
});
