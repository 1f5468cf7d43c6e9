import { ResultCode, callUrl, calls, codeText, type Lang } from '@nest/contracts';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, browserPayload, startTestServer, type TestServer } from '../../test/helpers.js';
import { THROTTLE } from './throttle.js';

/**
 * Sign-in throttling through the real HTTP listener (not inject), as a browser or a reverse proxy reaches
 * it: which address is counted depends on TRUST_PROXY, and a client cannot pick its own address by
 * sending X-Forwarded-For.
 */
async function listening(trustProxy: boolean): Promise<{ server: TestServer; url: string }> {
  const server = await startTestServer({ config: { trustProxy } });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}${callUrl(calls.login, server.config.bases)}` };
}

async function signIn(t: { server: TestServer; url: string }, account: string, password: string, xff?: string, lang: Lang = 'en') {
  const sealed = await new TestClient(t.server).seal(password);
  const res = await fetch(t.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(xff ? { 'x-forwarded-for': xff } : {}) },
    body: browserPayload('login', { account, password: sealed }, '', { lang }).toString(),
  });
  return (await res.json()) as { code: number; msg: string };
}

const auditRows = (t: { server: TestServer }, kind: string) =>
  t.server.db.selectFrom('audit_log').select(['ip', 'account', 'detail']).where('kind', '=', kind).orderBy('id').execute();

describe('sign-in throttling over HTTP, TRUST_PROXY off', () => {
  let t: { server: TestServer; url: string };
  beforeAll(async () => {
    t = await listening(false);
  });
  afterAll(async () => t?.server.close());

  it('counts the connection address whatever X-Forwarded-For says, locks it, answers in the caller language and audits the lock', async () => {
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      // A new account and a new forged address each time: only the real address can add up.
      const res = await signIn(t, `spoof${i}@nest.local`, 'wrong-pass-1', `203.0.113.${i + 1}`);
      expect(res.code).toBe(ResultCode.LOGIN_FAILED);
    }
    const zh = await signIn(t, 'fresh@nest.local', 'wrong-pass-1', '198.51.100.7', 'zh');
    expect(zh).toMatchObject({ code: ResultCode.LOGIN_THROTTLED, msg: codeText(ResultCode.LOGIN_THROTTLED, 'zh') });
    const en = await signIn(t, 'fresh2@nest.local', 'wrong-pass-1', undefined, 'en');
    expect(en).toMatchObject({ code: ResultCode.LOGIN_THROTTLED, msg: codeText(ResultCode.LOGIN_THROTTLED, 'en') });
    expect(codeText(ResultCode.LOGIN_THROTTLED, 'zh')).not.toBe(codeText(ResultCode.LOGIN_THROTTLED, 'en'));

    const failed = await auditRows(t, 'login_failed');
    expect(failed).toHaveLength(THROTTLE.addressLimit);
    expect(new Set(failed.map((r) => r.ip))).toEqual(new Set(['127.0.0.1']));
    const locks = await auditRows(t, 'login_locked');
    expect(locks.map((r) => [r.ip, JSON.parse(r.detail)])).toEqual([
      ['127.0.0.1', { reason: 'limit_reached', locked: ['address'] }],
      ['127.0.0.1', { reason: 'throttled' }],
      ['127.0.0.1', { reason: 'throttled' }],
    ]);
    const addresses = await t.server.db.selectFrom('login_attempts').select('key').where('kind', '=', 'address').execute();
    expect(addresses.map((r) => r.key)).toEqual(['127.0.0.1']);
  });
});

describe('sign-in throttling over HTTP, TRUST_PROXY on', () => {
  let t: { server: TestServer; url: string };
  beforeAll(async () => {
    t = await listening(true);
  });
  afterAll(async () => t?.server.close());

  it('counts the address the proxy saw (the last X-Forwarded-For hop), not one the client prepended', async () => {
    // The proxy appends the real client (10.9.8.7) to whatever the client sent.
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      const res = await signIn(t, `proxied${i}@nest.local`, 'wrong-pass-1', `203.0.113.${i + 1}, 10.9.8.7`);
      expect(res.code).toBe(ResultCode.LOGIN_FAILED);
    }
    expect((await signIn(t, 'fresh@nest.local', 'wrong-pass-1', '192.0.2.1, 10.9.8.7')).code).toBe(ResultCode.LOGIN_THROTTLED);
    // Another client behind the same proxy is not locked out.
    expect((await signIn(t, 'fresh@nest.local', 'wrong-pass-1', '10.9.8.8')).code).toBe(ResultCode.LOGIN_FAILED);
    const locks = await auditRows(t, 'login_locked');
    expect(locks.map((r) => r.ip)).toEqual(['10.9.8.7', '10.9.8.7']);
    const addresses = await t.server.db.selectFrom('login_attempts').select('key').where('kind', '=', 'address').orderBy('key').execute();
    expect(addresses.map((r) => r.key)).toEqual(['10.9.8.7', '10.9.8.8']);
  });
});
