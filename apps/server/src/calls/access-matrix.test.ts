import { ResultCode, callFunId, calls, callUrl, type CallName } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMINISTRATOR, browserPayload, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';

/**
 * The authorization matrix, generated from the call registry: every call is sent (with empty fields, so a
 * call that passes the access checks stops at its field validation and changes nothing) by
 * - nobody (no token), and by a user whose session has expired: 40263 for every call that is not public;
 * - a user without the call's function: NO_PERMISSION with HTTP 401 for every call guarded by a function;
 * - a user holding exactly that function, and a super administrator: never refused for access.
 * The other-company column (a user of another company holding the function) is company-scope.test.ts.
 * Writes to the system-wide catalogues (functions, device types, firmware, teaching videos) need
 * super_administrator: a company's administrator holding the function id the path names is refused.
 */
const NAMES = Object.keys(calls) as CallName[];
const ACCESS_REFUSALS: readonly number[] = [ResultCode.LOGIN_EXPIRED, ResultCode.NO_PERMISSION];
/** The writes of the catalogues every company shares: one company's change would be everybody's. */
const CATALOGUE_WRITES: readonly CallName[] = ['funAdd', 'funEdit', 'deviceTypeAdd', 'deviceTypeEdit', 'romAdd', 'romEdit', 'teachAdd', 'teachEdit'];

let server: TestServer;
let nobody: TestClient;
let expired: TestClient;
let superAdmin: TestClient;
/** One user per function id holding only it (calls sharing a function share the user). */
const holders = new Map<string, TestClient>();

beforeAll(async () => {
  server = await startTestServer();
  nobody = await userClient(server, { funList: [] });
  expired = await userClient(server, { funList: [SUPER_ADMINISTRATOR] });
  await server.db.updateTable('sessions').set({ expires_at: 0 }).where('user_id', '=', expired.user!.u_id).execute();
  superAdmin = await userClient(server, { funList: [SUPER_ADMINISTRATOR] });
  for (const name of NAMES) {
    const access = calls[name].access;
    if (access !== 'public' && access !== 'session' && !holders.has(access)) holders.set(access, await userClient(server, { funList: [access] }));
  }
});
afterAll(async () => server?.close());

/** The call as the browser sends it, with empty fields: multipart for multipart calls. */
async function send(name: CallName, client: TestClient, token: string) {
  const def = calls[name];
  if (name === 'logout') return { status: 0, body: { code: -1 } }; // signing out is covered in auth tests; it would end the session used here
  if (!def.multipart) return client.call(name, {}, { token });
  const boundary = 'matrix';
  let payload = '';
  for (const [k, v] of browserPayload(name, {}, token)) payload += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  payload += `--${boundary}--\r\n`;
  const res = await server.app.inject({
    method: 'POST',
    url: callUrl(def, server.config.bases),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return { status: res.statusCode, body: res.json<{ code: number }>() };
}

describe('authorization matrix (every registry call)', () => {
  it('covers the whole registry', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(80);
    expect(NAMES.filter((n) => calls[n].access === 'public')).toEqual(['login']);
  });

  it('the system-wide catalogues are written by super administrators only', async () => {
    expect(NAMES.filter((n) => calls[n].access === SUPER_ADMINISTRATOR).sort()).toEqual([...CATALOGUE_WRITES].sort());
    for (const name of CATALOGUE_WRITES) {
      const companyAdmin = await userClient(server, { companyId: 'gzGh', funList: [callFunId(calls[name].path)] });
      const refused = await send(name, companyAdmin, companyAdmin.token);
      expect(refused.body.code, name).toBe(ResultCode.NO_PERMISSION);
      expect(refused.status, name).toBe(401);
      expect(ACCESS_REFUSALS).not.toContain((await send(name, superAdmin, superAdmin.token)).body.code);
    }
  });

  it.each(NAMES.filter((n) => n !== 'logout'))('%s', async (name) => {
    const access = calls[name].access;
    const outcome = async (client: TestClient, token = client.token) => (await send(name, client, token)).body.code;

    // No token, and an expired session.
    if (access === 'public') {
      expect(await outcome(nobody, '')).not.toBe(ResultCode.LOGIN_EXPIRED);
    } else {
      expect(await outcome(nobody, '')).toBe(ResultCode.LOGIN_EXPIRED);
      expect(await outcome(expired)).toBe(ResultCode.LOGIN_EXPIRED);
    }

    // A user without the function; a user with exactly it; a super administrator.
    if (access !== 'public' && access !== 'session') {
      const refused = await send(name, nobody, nobody.token);
      expect(refused.body.code).toBe(ResultCode.NO_PERMISSION);
      expect(refused.status).toBe(401);
      expect(ACCESS_REFUSALS).not.toContain(await outcome(holders.get(access)!));
    } else if (access === 'session') {
      expect(ACCESS_REFUSALS).not.toContain(await outcome(nobody));
    }
    expect(ACCESS_REFUSALS).not.toContain(await outcome(superAdmin));
  });
});
