import { CALL_LIST, ResultCode, callUrl, calls, codeText, type CallName } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRoutes } from './routes.js';
import { CallError } from './errors.js';
import { ADMIN_ACCOUNT, TestClient, adminClient, browserPayload, startTestServer, userClient, type TestServer } from '../../test/helpers.js';

let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({
    handlers: {
      // Test doubles for unimplemented registry calls: one that throws half-way through a transaction,
      // one that answers a handler-chosen failure.
      deviceConnect: async () => {
        await server.app.nest.deps.db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 'half-applied', value: 'x' }).execute();
          throw new Error('boom');
        });
        return { data: null };
      },
      insRanking: async () => {
        throw new CallError(ResultCode.NOT_FOUND_OBJECT);
      },
    },
  });
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

describe('routes and the registry', () => {
  it('registers POST <base><path> for every registry call, and nothing else under the bases', async () => {
    const urls = callRoutes(server.config.bases).map((r) => r.url);
    expect(urls).toHaveLength(CALL_LIST.length);
    expect(new Set(urls).size).toBe(urls.length);
    for (const name of Object.keys(calls) as CallName[]) {
      expect(server.app.hasRoute({ method: 'POST', url: callUrl(calls[name], server.config.bases) })).toBe(true);
    }
    // Every POST route of the app is a registry call.
    const registered = server.app.nest.routes.filter((r) => r.method === 'POST').map((r) => r.url);
    expect(registered.sort()).toEqual([...urls].sort());
  });

  it('answers 404 NO_SUCH_CALL for any other path under /api', async () => {
    for (const url of ['/api/user/nope', '/api/nothing', '/api/device/list/extra']) {
      const res = await server.app.inject({ method: 'POST', url, headers: { 'accept-language': 'en' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: ResultCode.NO_SUCH_CALL, msg: codeText(ResultCode.NO_SUCH_CALL, 'en'), data: null });
    }
    const get = await server.app.inject({ method: 'GET', url: '/api/user/user/login' });
    expect(get.statusCode).toBe(404);
    expect(get.json().code).toBe(ResultCode.NO_SUCH_CALL);
  });
});
