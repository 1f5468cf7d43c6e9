import { PASSWORD_REFUSALS, PERMANENT_END_TIME, ResultCode, TIMESTAMP_WINDOW_MS, sealPassword, type Lang } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { userEditFields } from '../../test/accounts.js';
import { findUserById } from '../users/store.js';
import {
  TestClient,
  addUser,
  adminClient,
  startTestServer,
  uniquePhone,
  userClient,
  type Fields,
  type TestServer,
} from '../../test/helpers.js';
import { commonPasswords, isCommonPassword } from './common-passwords.js';
import { sha256Hex } from './passwords.js';

/**
 * Password envelopes bound to their request (os_timestamp and a nonce inside the envelope), and the
 * common-password list, through the real server: sign-in, /user/add, /user/edit and /user/psw.
 */
let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

const nonce = (n: number): string => n.toString(16).padStart(32, '0');
const sessionsOf = async (uId: string) =>
  Number((await server.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', uId).executeTakeFirstOrThrow()).n);
const nonceRows = () => server.db.selectFrom('password_nonces').select(['nonce', 'expires_at']).execute();
const failuresOf = async (account: string) =>
  (await server.db.selectFrom('login_attempts').select('failures').where('kind', '=', 'account').where('key', '=', account).executeTakeFirst())?.failures ?? 0;

const refusal = (key: keyof typeof PASSWORD_REFUSALS, lang: Lang = 'en') => ({
  code: key === 'common' ? ResultCode.PASSWORD_COMMON : ResultCode.STALE_TIMESTAMP,
  msg: PASSWORD_REFUSALS[key][lang],
});

async function addFields(over: Fields = {}): Promise<Fields> {
  return {
    nick: 'Envelope test',
    phone: uniquePhone(),
    email: '',
    password: await admin.seal('fine-pass-731'),
    start_time: nowSeconds() - 60,
    end_time: PERMANENT_END_TIME,
    team: '',
    notes: '',
    in_com_id: '',
    fun_json: '[]',
    ...over,
  };
}

const editFields = (uId: string, password: string): Promise<Fields> => userEditFields(server.db, uId, { password });

describe('password envelopes are bound to their request', () => {
  it('a captured sign-in envelope is refused when sent again, with a new timestamp and signature or with its own', async () => {
    const u = await addUser(server);
    const c = new TestClient(server);
    const sealed = await c.seal(u.password);
    const first = await c.call('login', { account: u.account, password: sealed }, { token: '' });
    expect(first.body.code).toBe(ResultCode.OK);
    const sessions = await sessionsOf(u.u_id);

    // Re-sent with a fresh os_timestamp and a pmd signed for it: the envelope names another timestamp.
    const later = Date.now() + 1000;
    for (const lang of ['en', 'zh'] as const) {
      const res = await c.call('login', { account: u.account, password: sealed }, { token: '', timestamp: later, lang });
      expect(res.body).toMatchObject(refusal('mismatch', lang));
    }
    // Re-sent as it was (its own timestamp, freshly signed): the nonce was used.
    for (const lang of ['en', 'zh'] as const) {
      const res = await c.call('login', { account: u.account, password: sealed }, { token: '', lang });
      expect(res.body).toMatchObject(refusal('replayed', lang));
    }
    // Nothing changed: no new session, no failure counted.
    expect(await sessionsOf(u.u_id)).toBe(sessions);
    expect(await failuresOf(u.account)).toBe(0);
  });

  it('refuses a nonce it accepted before, in another envelope too, and on another instance on the same database', async () => {
    const u = await addUser(server);
    const c = new TestClient(server);
    const reused = nonce(0xfeed01);
    const one = await c.seal(u.password, { nonce: reused });
    expect((await c.call('login', { account: u.account, password: one }, { token: '' })).body.code).toBe(ResultCode.OK);
    const sessions = await sessionsOf(u.u_id);
    // A new envelope (new timestamp, new ciphertext) with the same nonce.
    const stamp = Date.now() + 5;
    const two = await c.seal(u.password, { nonce: reused, timestamp: stamp });
    expect((await c.call('login', { account: u.account, password: two }, { token: '' })).body).toMatchObject(refusal('replayed'));
    // Another instance sharing the database refuses it as well.
    const other = await server.rebuild();
    const three = await c.seal(u.password, { nonce: reused });
    expect((await c.call('login', { account: u.account, password: three }, { token: '', app: other })).body).toMatchObject(refusal('replayed'));
    expect(await sessionsOf(u.u_id)).toBe(sessions);
  });

  it('lets exactly one of two requests racing with the same envelope through', async () => {
    const u = await addUser(server);
    const stamp = Date.now();
    const sealed = await sealPassword(u.password, server.keys.password, stamp, nonce(0xace));
    const send = (c: TestClient) => c.call('login', { account: u.account, password: sealed }, { token: '', timestamp: stamp });
    const [a, b] = await Promise.all([send(new TestClient(server)), send(new TestClient(server))]);
    expect([a.body.code, b.body.code].sort((x, y) => x - y)).toEqual([ResultCode.OK, ResultCode.STALE_TIMESTAMP]);
    expect([a.body.msg, b.body.msg]).toContain(PASSWORD_REFUSALS.replayed.en);
  });

  it('refuses an envelope whose timestamp differs from the request, or lies outside the clock window, changing nothing', async () => {
    const c = await userClient(server);
    const before = (await findUserById(server.db, c.account.u_id))!.password_hash;
    const stamp = Date.now();
    // One millisecond off.
    const off = {
      account: c.account.account,
      password: await c.seal(c.account.password, { timestamp: stamp }),
      new_psw: await c.seal('changed-pass-77', { timestamp: stamp }),
    };
    expect((await c.call('userPsw', off, { timestamp: stamp + 1 })).body).toMatchObject(refusal('mismatch'));
    // /user/psw is not timestamp-signed: the envelope's own time is what is checked.
    const old = stamp - TIMESTAMP_WINDOW_MS - 60_000;
    for (const lang of ['en', 'zh'] as const) {
      const stale = {
        account: c.account.account,
        password: await c.seal(c.account.password, { timestamp: old }),
        new_psw: await c.seal('changed-pass-77', { timestamp: old }),
      };
      expect((await c.call('userPsw', stale, { timestamp: old, lang })).body).toMatchObject(refusal('stale', lang));
    }
    // A sign-in whose envelope names another time than its (fresh, signed) os_timestamp.
    const login = await new TestClient(server).call(
      'login',
      { account: c.account.account, password: await c.seal(c.account.password, { timestamp: stamp - 1000 }) },
      { token: '', timestamp: stamp },
    );
    expect(login.body).toMatchObject(refusal('mismatch'));
    expect((await findUserById(server.db, c.account.u_id))!.password_hash).toBe(before);
    expect((await c.call('userInfo')).body.code).toBe(ResultCode.OK);
  });

  it('keeps the nonces of accepted envelopes only while they could pass, deleting expired ones as new ones come', async () => {
    await server.db.insertInto('password_nonces').values({ nonce: nonce(0xdead), expires_at: Date.now() - 1 }).execute();
    const u = await addUser(server);
    const c = new TestClient(server);
    const r = nonce(0xbeef);
    const stamp = Date.now();
    const sealed = await c.seal(u.password, { nonce: r, timestamp: stamp });
    expect((await c.call('login', { account: u.account, password: sealed }, { token: '' })).body.code).toBe(ResultCode.OK);
    const rows = await nonceRows();
    expect(rows.map((row) => row.nonce)).not.toContain(nonce(0xdead));
    const kept = rows.find((row) => row.nonce === r);
    expect(Number(kept?.expires_at)).toBe(stamp + 2 * TIMESTAMP_WINDOW_MS);
  });
});

describe('common passwords', () => {
  it('the list holds about ten thousand lower-case entries, checked by hash, whatever the letter case typed', () => {
    const list = commonPasswords();
    expect(list.length).toBeGreaterThan(10_000);
    expect(list).toContain('123456');
    expect(list).toContain('woaini1314');
    expect(list.every((p) => p === p.toLowerCase())).toBe(true);
    const secret = (p: string) => ({ d: sha256Hex(p), c: sha256Hex(p.toLowerCase()).slice(0, 32) });
    expect(isCommonPassword(secret('password1'))).toBe(true);
    expect(isCommonPassword(secret('PassWord1'))).toBe(true);
    expect(isCommonPassword(secret('fine-pass-731'))).toBe(false);
    // `d` alone is enough for an exact match, whatever `c` a client declares.
    expect(isCommonPassword({ d: sha256Hex('iloveyou'), c: '0'.repeat(32) })).toBe(true);
  });

  it('/user/add refuses a common password in both languages and adds nobody', async () => {
    const count = async () => Number((await server.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    for (const [password, lang] of [['password1', 'en'], ['Password1', 'zh'], ['woaini1314', 'en']] as const) {
      const fields = await addFields({ password: await admin.seal(password) });
      expect((await admin.call('userAdd', fields, { lang })).body).toMatchObject(refusal('common', lang));
    }
    expect(await count()).toBe(before);
    expect((await admin.call('userAdd', await addFields())).body.code).toBe(ResultCode.OK);
  });

  it('/user/edit refuses a common password set by an administrator, in both languages, and keeps the old one', async () => {
    const target = await addUser(server);
    const before = (await findUserById(server.db, target.u_id))!.password_hash;
    for (const lang of ['en', 'zh'] as const) {
      const res = await admin.call('userEdit', await editFields(target.u_id, await admin.seal('qwerty123')), { lang });
      expect(res.body).toMatchObject(refusal('common', lang));
    }
    expect((await findUserById(server.db, target.u_id))!.password_hash).toBe(before);
    expect((await new TestClient(server).login(target.account, target.password)).body.code).toBe(ResultCode.OK);
  });

  it('/user/psw refuses a common new password in both languages, keeping the password and the sessions', async () => {
    const c = await userClient(server);
    const before = (await findUserById(server.db, c.account.u_id))!.password_hash;
    for (const lang of ['en', 'zh'] as const) {
      const fields = { account: c.account.account, password: await c.seal(c.account.password), new_psw: await c.seal('ILoveYou') };
      expect((await c.call('userPsw', fields, { lang })).body).toMatchObject(refusal('common', lang));
    }
    expect((await findUserById(server.db, c.account.u_id))!.password_hash).toBe(before);
    expect((await c.call('userInfo')).body.code).toBe(ResultCode.OK);
  });

  it('sign-in is not affected: an account with a common password still signs in', async () => {
    const u = await addUser(server, { password: 'password1' });
    expect((await new TestClient(server).login(u.account, 'password1')).body.code).toBe(ResultCode.OK);
  });
});
