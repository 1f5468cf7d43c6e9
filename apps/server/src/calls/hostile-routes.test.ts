import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { live, registerDevice } from '../../test/live.js';
import { installWriteLog, type WriteLog } from '../../test/writes.js';

/**
 * Every HTTP route besides the form calls (downloads, device uploads, static files, media), generated from
 * the app's own route table: hostile path parameters, query strings and credentials (NUL, traversal,
 * overlong, prototype names, broken percent-encoding) must never answer a 5xx, and never write a row.
 */

let server: TestServer;
let writes: WriteLog;
const SN = 'ROUTE-FUZZ';

beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: SN });
  writes = await installWriteLog(server, new Set(['sessions', 'audit_log']));
});
afterAll(async () => server?.close());

/** Full paths and methods of the app's routes, read from fastify's printed route tree. */
function routes(): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  const stack: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.indexOf('── ');
    if (at < 0) continue;
    const depth = Math.round((at - 1) / 4);
    const m = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 3).trim());
    if (!m) continue;
    stack.length = depth;
    const full = (stack[depth - 1] ?? '') + m[1]!;
    stack[depth] = full;
    if (m[2]) out.push({ path: full.startsWith('/') ? full : `/${full}`, methods: m[2].split(',').map((s) => s.trim()) });
  }
  return out;
}

const PARAMS = ['%00', 'a%00b', '..%2F..%2F..%2Fetc%2Fpasswd', '..', '%2e%2e', 'x'.repeat(2000), '__proto__', 'constructor', '%ff%fe', '%', '-1', 'NaN', '1e309'];
const QUERIES = ['', '?e=NaN&s=%00', '?e=1e309&s=x', '?e=-1&s=' + 'A'.repeat(5000), '?__proto__[polluted]=1&constructor[prototype][polluted]=1', '?e=1&e=2&s=a&s=b'];

describe('hostile requests on every non-call route', () => {
  it('no 5xx, no row written, whatever the path parameters, query and credentials', async () => {
    const list = routes().filter((r) => r.methods.some((m) => m !== 'POST') || r.path.includes(':') || r.path.includes('*'));
    expect(list.length).toBeGreaterThan(5);
    const device = `Basic ${Buffer.from(`${SN}:${live(server).devicePassword(SN)}`).toString('base64')}`;
    const problems: string[] = [];
    await writes.take();
    for (const r of list) {
      const params = r.path.includes(':') || r.path.includes('*') ? PARAMS : [''];
      for (const method of r.methods.filter((m) => m !== 'HEAD')) {
        for (const [i, p] of params.entries()) {
          const url = r.path.replace(/:[A-Za-z_]+|\*/g, p) + QUERIES[i % QUERIES.length];
          for (const [k, authorization] of [undefined, device, 'Basic AA=='].entries()) {
            const res = await server.app.inject({
              method: method as 'GET',
              url,
              headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/octet-stream', 'upload-offset': '0' },
              ...(method === 'GET' ? {} : { payload: Buffer.from('hostile') }),
            });
            // The web app is not built for server tests: its 503 says so and is not a fault of the request.
            if (res.statusCode === 503 && res.body.includes('web app not built')) continue;
            if (res.statusCode >= 500) problems.push(`${method} ${url.slice(0, 100)} (${['no auth', 'device auth', 'bad auth'][k]}): ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await writes.take()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
