import { PUBLIC_KEYS_PATH, ResultCode, type Envelope } from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { SECURITY_HEADERS } from '../static/headers.js';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { BAD_URL_TEXT, LONG_URL_TEXT } from './http-guards.js';

/**
 * Requests the router cannot take (a broken %-escape, an overlong path parameter) answer the product's
 * envelope with a 4xx status, logged at warn; a request that came through a proxy while TRUST_PROXY is unset
 * makes one warning naming the setting.
 */

/** JSON log lines an app wrote (pino levels: 40 warn, 50 error). */
class LogLines {
  readonly lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  write(line: string): void {
    this.lines.push(JSON.parse(line) as LogLines['lines'][number]);
  }
}

let server: TestServer;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
});
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  await server?.close();
});

/** Another app on the test server's data and database, logging at warn into `logs`. */
async function appWithLogs(trustProxy: boolean): Promise<{ app: FastifyInstance; logs: LogLines }> {
  const logs = new LogLines();
  const app = await buildApp({ ...server.config, logLevel: 'warn', trustProxy }, { logStream: logs });
  apps.push(app);
  return { app, logs };
}

describe('URLs the router cannot decode', () => {
  it('a broken %-escape answers BAD_REQUEST in the envelope with HTTP 400, localised, logged at warn', async () => {
    const { app, logs } = await appWithLogs(false);
    const urls = ['/api/user/user/%E0%A4%A', '/api/user/user/%', '/api/user/user/list%ZZ', '/nest/%E0%A4%A', '/api/device/rom/download/%C0%AF'];
    for (const url of urls) {
      for (const method of ['GET', 'POST'] as const) {
        for (const lang of ['zh', 'en'] as const) {
          const res = await app.inject({
            method,
            url,
            headers: { 'accept-language': lang === 'zh' ? 'zh-CN,zh;q=0.9' : 'en-US,en;q=0.9', 'content-type': 'application/x-www-form-urlencoded' },
            ...(method === 'POST' ? { payload: 'app_type=3' } : {}),
          });
          expect(res.statusCode, `${method} ${url}`).toBe(400);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(res.json<Envelope>(), `${method} ${url}`).toEqual({ code: ResultCode.BAD_REQUEST, msg: BAD_URL_TEXT(lang), data: null });
          for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name], name).toBe(value);
        }
      }
    }
    const lines = logs.lines.filter((l) => /invalid percent-encoding/.test(l.msg));
    expect(lines).toHaveLength(urls.length * 4);
    expect(lines.every((l) => l.level === 40)).toBe(true);
    expect(logs.lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('a broken %-escape in the query string of a call does not change its answer: the envelope of the call', async () => {
    const { app, logs } = await appWithLogs(false);
    for (const query of ['?x=%E0%A4%A', '?%=1', '?a=%ZZ&b=%']) {
      const res = await app.inject({ method: 'POST', url: `/api/user/user/info${query}`, headers: { 'accept-language': 'en', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'app_type=3' });
      expect(res.statusCode, query).toBeLessThan(500);
      // The call's own answer to this body: os_timestamp is missing.
      expect(res.json<Envelope>(), query).toEqual({ code: ResultCode.BAD_REQUEST, msg: 'Field os_timestamp is required', data: null });
    }
    expect(logs.lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('a path parameter over the router limit answers the envelope with HTTP 414', async () => {
    const { app, logs } = await appWithLogs(false);
    const res = await app.inject({ method: 'GET', url: `/api/device/rom/download/${'x'.repeat(2000)}`, headers: { 'accept-language': 'en' } });
    expect(res.statusCode).toBe(414);
    expect(res.json<Envelope>()).toEqual({ code: ResultCode.BAD_REQUEST, msg: LONG_URL_TEXT('en'), data: null });
    expect(logs.lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('a proxy in front without TRUST_PROXY', () => {
  const proxyWarnings = (logs: LogLines) => logs.lines.filter((l) => l.level === 40 && /TRUST_PROXY is not set/.test(l.msg));

  it('is warned about once, at the first request carrying a proxy header, naming the setting', async () => {
    const { app, logs } = await appWithLogs(false);
    // A direct request says nothing about a proxy.
    await app.inject({ method: 'GET', url: PUBLIC_KEYS_PATH });
    expect(proxyWarnings(logs)).toEqual([]);
    const proxied: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=198.51.100.2' }, { 'x-real-ip': '192.0.2.9' }, { 'x-forwarded-for': '203.0.113.8' }];
    for (const headers of proxied) await app.inject({ method: 'GET', url: PUBLIC_KEYS_PATH, headers });
    const warned = proxyWarnings(logs);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ header: 'x-forwarded-for' });
    expect(warned[0]!.msg).toContain('TRUST_PROXY=true');
    expect(warned[0]!.msg).toContain('docs/deployment.md');
  });

  it('is not warned about when TRUST_PROXY is set', async () => {
    const { app, logs } = await appWithLogs(true);
    for (const headers of [{ 'x-forwarded-for': '203.0.113.7' }, { 'x-real-ip': '192.0.2.9' }]) await app.inject({ method: 'GET', url: PUBLIC_KEYS_PATH, headers });
    expect(proxyWarnings(logs)).toEqual([]);
  });
});
