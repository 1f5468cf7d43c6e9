import { PERMANENT_END_TIME, ResultCode, codeText, signPmd, type CallName } from '@nest/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { sessionPolicyOf } from '../deps.js';
import { TestClient, startTestServer, userClient, type Fields, type TestServer } from '../../test/helpers.js';
import { TOUCH_INTERVAL_SECONDS, findLiveSession, hashToken } from './sessions.js';

/**
 * The access matrix of every implemented call that needs a session: missing token, wrong signature,
 * expired, idle, revoked by logout, revoked by a password change, disabled user, and (for function-guarded
 * calls) a user without the function.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

type Signed = TestClient & { account: { u_id: string; account: string; password: string } };

const SESSION_CALLS: CallName[] = ['logout', 'userInfo', 'userEdit', 'userPsw', 'funList'];

async function fieldsFor(name: CallName, c: Signed): Promise<Fields> {
  switch (name) {
    case 'userEdit':
      return {
        u_id: c.account.u_id,
        state: 10,
        start_time: 0,
        end_time: PERMANENT_END_TIME,
        nick: 'Renamed',
        phone: c.account.account,
        email: '',
        password: '',
        team: '',
        notes: '',
        in_com_id: 'wk',
        fun_json: '[]',
      };
    case 'userPsw':
      return { account: c.account.account, password: await c.seal(c.account.password), new_psw: await c.seal('new-secret-9') };
    default:
      return {};
  }
}

const signIn = () => userClient(server, { funList: ['fun_list'], startTime: 0 }) as Promise<Signed>;

describe.each(SESSION_CALLS)('%s', (name) => {
  it('works with a live session', async () => {
    const c = await signIn();
    const res = await c.call(name, await fieldsFor(name, c));
    expect(res.body.code).toBe(ResultCode.OK);
  });

  it('answers LOGIN_EXPIRED without a token', async () => {
    const c = await signIn();
    const res = await c.call(name, await fieldsFor(name, c), { token: '' });
    expect(res.body).toEqual({ code: ResultCode.LOGIN_EXPIRED, msg: codeText(ResultCode.LOGIN_EXPIRED, 'en'), data: null });
  });

  it('answers BAD_SIGNATURE for a wrong pmd', async () => {
    const c = await signIn();
    const res = await c.call(name, await fieldsFor(name, c), { pmd: '0123456789abcdef0123456789abcdef' });
    expect(res.body.code).toBe(ResultCode.BAD_SIGNATURE);
    // Signed for another token.
    const other = await c.call(name, await fieldsFor(name, c), {
      pmd: signPmd({ token: 'x', pmdValue: '' }),
    });
    expect(other.body.code).toBe(ResultCode.BAD_SIGNATURE);
  });

  it('answers LOGIN_EXPIRED once the session expired (UPDATE sessions SET expires_at = 0)', async () => {
    const c = await signIn();
    await sql`UPDATE sessions SET expires_at = 0 WHERE user_id = ${c.account.u_id}`.execute(server.db);
    expect((await c.call(name, await fieldsFor(name, c))).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('answers LOGIN_EXPIRED after the idle limit', async () => {
    const c = await signIn();
    const idle = server.config.sessionIdleMinutes * 60;
    await server.db.updateTable('sessions').set({ last_seen_at: nowSeconds() - idle - 1 }).where('user_id', '=', c.account.u_id).execute();
    expect((await c.call(name, await fieldsFor(name, c))).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('answers LOGIN_EXPIRED after logout', async () => {
    const c = await signIn();
    expect((await c.call('logout')).body.code).toBe(ResultCode.OK);
    expect((await c.call(name, await fieldsFor(name, c))).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('answers LOGIN_EXPIRED after a password change, for every session of the user', async () => {
    const c = await signIn();
    const twin = new TestClient(server);
    expect((await twin.login(c.account.account, c.account.password)).body.code).toBe(ResultCode.OK);
    const psw = await c.call('userPsw', await fieldsFor('userPsw', c));
    expect(psw.body.code).toBe(ResultCode.OK);
    const fields = await fieldsFor(name, c);
    expect((await c.call(name, fields)).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await twin.call(name, fields)).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });

  it('answers LOGIN_EXPIRED once the user is disabled', async () => {
    const c = await signIn();
    await server.db.updateTable('users').set({ state: 20 }).where('u_id', '=', c.account.u_id).execute();
    expect((await c.call(name, await fieldsFor(name, c))).body.code).toBe(ResultCode.LOGIN_EXPIRED);
  });
});

describe('function-guarded calls', () => {
  it('answer HTTP 401 NO_PERMISSION to a user without the function, read from the database at each call', async () => {
    const c = (await userClient(server, { funList: [] })) as Signed;
    const denied = await c.call('funList');
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ code: ResultCode.NO_PERMISSION, msg: codeText(ResultCode.NO_PERMISSION, 'en'), data: null });
    await server.db.updateTable('users').set({ fun_list: JSON.stringify(['fun_list']) }).where('u_id', '=', c.account.u_id).execute();
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
    await server.db.updateTable('users').set({ fun_list: '[]' }).where('u_id', '=', c.account.u_id).execute();
    expect((await c.call('funList')).status).toBe(401);
  });
});

describe('deleted functions', () => {
  it('grant nothing from the next call on, exactly the deleted ids (not ids that only look alike)', async () => {
    const now = nowSeconds();
    const fn = (fun_id: string, state: number) => ({ fun_id, name: fun_id, name_en: fun_id, state, created_at: now, updated_at: now });
    // Deleted: one whose `_` would match any character in a LIKE pattern, one differing from a held id only in case.
    await server.db.insertInto('functions').values([fn('accXprobe', 10), fn('acc_probe', 20), fn('ACCXPROBE', 20)]).execute();
    const c = (await userClient(server, { funList: ['fun_list', 'accXprobe'] })) as Signed;
    const funs = async () => (await findLiveSession(server.db, c.token, sessionPolicyOf(server.config)))?.funList;
    expect(await funs()).toEqual(['fun_list', 'accXprobe']);
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
    await server.db.updateTable('functions').set({ state: 20 }).where('fun_id', '=', 'fun_list').execute();
    try {
      expect(await funs()).toEqual(['accXprobe']);
      expect((await c.call('funList')).status).toBe(401);
    } finally {
      await server.db.updateTable('functions').set({ state: 10 }).where('fun_id', '=', 'fun_list').execute();
    }
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
  });
});

describe('session bookkeeping', () => {
  it('refreshes last_seen_at at most once a minute', async () => {
    const c = await signIn();
    const hash = hashToken(c.token);
    const seen = async () =>
      (await server.db.selectFrom('sessions').select('last_seen_at').where('token_hash', '=', hash).executeTakeFirstOrThrow()).last_seen_at;
    const recent = nowSeconds() - 10;
    await server.db.updateTable('sessions').set({ last_seen_at: recent }).where('token_hash', '=', hash).execute();
    await c.call('userInfo');
    expect(await seen()).toBe(recent);
    const old = nowSeconds() - TOUCH_INTERVAL_SECONDS - 5;
    await server.db.updateTable('sessions').set({ last_seen_at: old }).where('token_hash', '=', hash).execute();
    await c.call('userInfo');
    expect(await seen()).toBeGreaterThanOrEqual(nowSeconds() - 2);
  });

  it('logout revokes only the current session', async () => {
    const c = await signIn();
    const other = new TestClient(server);
    await other.login(c.account.account, c.account.password);
    await c.call('logout');
    expect((await c.call('userInfo')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await other.call('userInfo')).body.code).toBe(ResultCode.OK);
  });
});
