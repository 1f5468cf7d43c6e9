import { createHash } from 'node:crypto';
import { PERMANENT_END_TIME, ResultCode, codeText, sealPassword, signPmd, userSchema } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { createUser } from '../users/store.js';
import { hashPassword } from './passwords.js';
import {
  ADMIN_ACCOUNT,
  ADMIN_PASSWORD,
  TestClient,
  addUser,
  browserPayload,
  startTestServer,
  uniquePhone,
  type TestServer,
} from '../../test/helpers.js';
import { THROTTLE } from './throttle.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const client = () => new TestClient(server);

describe('/user/login', () => {
  it('signs in and answers the user (userSchema) with a fresh token, storing only its hash', async () => {
    const c = client();
    const res = await c.login(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(ResultCode.OK);
    const user = userSchema.parse(res.body.data);
    expect(user).toMatchObject({ phone: ADMIN_ACCOUNT, password: '', fun_list: ['super_administrator'], company: 'wk' });
    expect(user.in_com).toEqual({ id: 'wk', name: 'wk' });
    expect(user.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hash = createHash('sha256').update(user.token).digest('hex');
    const row = await server.db.selectFrom('sessions').selectAll().where('token_hash', '=', hash).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(user.u_id);
    expect(row.revoked_at).toBeNull();
    expect(row.expires_at - row.created_at).toBe(server.config.sessionMaxHours * 3600);
    expect(JSON.stringify(row)).not.toContain(user.token);
    // Chinese company name in Chinese.
    const zh = await client().login(ADMIN_ACCOUNT, ADMIN_PASSWORD, { lang: 'zh' });
    expect(zh.body.data.in_com.name).toBe('沃科');
  });

  it('answers the same code and text for a wrong password and an unknown account', async () => {
    const wrong = await client().login(ADMIN_ACCOUNT, 'not-the-password');
    const unknown = await client().login('nobody@nest.local', 'not-the-password');
    expect(wrong.body).toEqual({ code: ResultCode.LOGIN_FAILED, msg: codeText(ResultCode.LOGIN_FAILED, 'en'), data: null });
    expect(unknown.body).toEqual(wrong.body);
    const wrongZh = await client().login(ADMIN_ACCOUNT, 'not-the-password', { lang: 'zh' });
    const unknownZh = await client().login('13800000000', 'not-the-password', { lang: 'zh' });
    expect(wrongZh.body.msg).toBe('账号或密码错误');
    expect(unknownZh.body).toEqual(wrongZh.body);
    await server.db.deleteFrom('login_attempts').execute();
  });

  it('spends the same hashing time on an unknown account as on a wrong password', async () => {
    // A cost where one verification clearly dominates a request (~tens of ms): without the dummy hash an
    // unknown account would answer many times faster.
    const cost = { logN: 15, r: 8, p: 1 };
    const app = await server.rebuild({ scrypt: cost });
    const account = uniquePhone();
    await createUser(server.db, { nick: 'Timing', account, passwordHash: await hashPassword('timing-pass', cost), companyId: 'wk', funList: [] });
    const c = client();
    // CPU time of this process (the hash runs on libuv's pool, which counts too): the work a login costs,
    // which other programs on a busy machine do not stretch the way they stretch wall-clock time.
    const cpu = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    const time = async (who: string) => {
      const started = cpu();
      const res = await c.call('login', { account: who, password: await c.seal('wrong-pass') }, { token: '', app });
      expect(res.body.code).toBe(ResultCode.LOGIN_FAILED);
      return cpu() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      wrong.push(await time(account));
      unknown.push(await time(uniquePhone()));
    }
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5);
    await server.db.deleteFrom('login_attempts').execute();
  });

  it('finds e-mail accounts case-insensitively', async () => {
    const u = await addUser(server, { account: 'Mixed.Case@Example.com', password: 'mixed-pass-1' });
    const res = await client().login('mixed.case@EXAMPLE.COM', u.password);
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.phone).toBe('Mixed.Case@Example.com');
  });

  it('refuses bad input with a message naming the field', async () => {
    const c = client();
    const seal = await c.seal('whatever1');
    const missing = await c.call('login', { password: seal }, { token: '' });
    expect(missing.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field account is required' });
    const noPassword = await c.call('login', { account: '13900000000' }, { token: '' });
    expect(noPassword.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field password is required' });
    const format = await c.call('login', { account: '12345', password: seal }, { token: '' });
    expect(format.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Please enter a valid phone number or e-mail' });
    const formatZh = await c.call('login', { account: 'not an account', password: seal }, { token: '', lang: 'zh' });
    expect(formatZh.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: '请输入正确的手机号/邮箱' });
    const long = await c.call('login', { account: `${'a'.repeat(130)}@example.com`, password: seal }, { token: '' });
    expect(long.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field account is too long' });
    const longPassword = await c.call('login', { account: '13900000000', password: 'A'.repeat(2000) }, { token: '' });
    expect(longPassword.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field password is too long' });
  });

  it('refuses a wrong signature', async () => {
    const c = client();
    const res = await c.call('login', { account: ADMIN_ACCOUNT, password: await c.seal(ADMIN_PASSWORD) }, { token: '', pmd: 'f'.repeat(32) });
    expect(res.body.code).toBe(ResultCode.BAD_SIGNATURE);
    // Signed without the timestamp although the call has the timestamp flag.
    const noStamp = await c.call('login', { account: ADMIN_ACCOUNT, password: await c.seal(ADMIN_PASSWORD) }, {
      token: '',
      pmd: signPmd({ token: '', pmdValue: ADMIN_ACCOUNT }),
    });
    expect(noStamp.body.code).toBe(ResultCode.BAD_SIGNATURE);
  });

  it('answers DECRYPT_FAILED for an envelope it cannot open', async () => {
    const c = client();
    const garbage = await c.call('login', { account: ADMIN_ACCOUNT, password: 'bm90IGVuY3J5cHRlZA==' }, { token: '' });
    expect(garbage.body.code).toBe(ResultCode.DECRYPT_FAILED);
    const stamp = Date.now();
    const otherKey = await sealPassword(ADMIN_PASSWORD, server.keys.licence, stamp);
    const wrongKey = await c.call('login', { account: ADMIN_ACCOUNT, password: otherKey }, { token: '', timestamp: stamp });
    expect(wrongKey.body.code).toBe(ResultCode.DECRYPT_FAILED);
  });
});

describe('validity window and state (only after the password was verified)', () => {
  const now = () => nowSeconds();

  it('refuses an account that is not valid yet', async () => {
    const u = await addUser(server, { startTime: now() + 3600 });
    expect((await client().login(u.account, 'wrong-password')).body.code).toBe(ResultCode.LOGIN_FAILED);
    expect((await client().login(u.account, u.password)).body.code).toBe(ResultCode.ACCOUNT_NOT_YET_VALID);
  });

  it('refuses an expired account, but not a permanent one', async () => {
    const u = await addUser(server, { startTime: now() - 7200, endTime: now() - 3600 });
    expect((await client().login(u.account, 'wrong-password')).body.code).toBe(ResultCode.LOGIN_FAILED);
    expect((await client().login(u.account, u.password)).body.code).toBe(ResultCode.ACCOUNT_EXPIRED);
    const p = await addUser(server, { startTime: now() - 7200, endTime: PERMANENT_END_TIME });
    expect((await client().login(p.account, p.password)).body.code).toBe(ResultCode.OK);
    const stillValid = await addUser(server, { startTime: now() - 7200, endTime: now() + 3600 });
    expect((await client().login(stillValid.account, stillValid.password)).body.code).toBe(ResultCode.OK);
  });

  it('refuses a disabled account', async () => {
    const u = await addUser(server, { state: 20 });
    expect((await client().login(u.account, 'wrong-password')).body.code).toBe(ResultCode.LOGIN_FAILED);
    expect((await client().login(u.account, u.password)).body.code).toBe(ResultCode.ACCOUNT_DISABLED);
    await server.db.deleteFrom('login_attempts').execute();
  });
});

describe('throttling', () => {
  it(`locks an account after ${THROTTLE.accountLimit} failures, before checking the password`, async () => {
    const u = await addUser(server);
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      expect((await client().login(u.account, `wrong-${i}-pass`)).body.code).toBe(ResultCode.LOGIN_FAILED);
    }
    const locked = await client().login(u.account, u.password);
    expect(locked.body).toEqual({ code: ResultCode.LOGIN_THROTTLED, msg: codeText(ResultCode.LOGIN_THROTTLED, 'en'), data: null });
    const row = await server.db
      .selectFrom('login_attempts')
      .selectAll()
      .where('kind', '=', 'account')
      .where('key', '=', u.account)
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(THROTTLE.accountLimit);
    expect(row.locked_until).toBeGreaterThan(nowSeconds() + THROTTLE.lockSeconds - 60);
    // Once the lock is over (moved into the past), the right password works and clears the counter.
    await server.db.updateTable('login_attempts').set({ locked_until: nowSeconds() - 1, window_start: nowSeconds() - THROTTLE.windowSeconds - 1 }).execute();
    expect((await client().login(u.account, u.password)).body.code).toBe(ResultCode.OK);
    const cleared = await server.db.selectFrom('login_attempts').selectAll().where('kind', '=', 'account').where('key', '=', u.account).executeTakeFirst();
    expect(cleared).toBeUndefined();
  });

  it('throttles unknown accounts the same way', async () => {
    const ghost = uniquePhone();
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      expect((await client().login(ghost, 'wrong-pass')).body.code).toBe(ResultCode.LOGIN_FAILED);
    }
    expect((await client().login(ghost, 'wrong-pass')).body.code).toBe(ResultCode.LOGIN_THROTTLED);
  });

  it('a success clears the account counter', async () => {
    const u = await addUser(server);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < THROTTLE.accountLimit - 1; i++) {
        expect((await client().login(u.account, 'wrong-pass')).body.code).toBe(ResultCode.LOGIN_FAILED);
      }
      expect((await client().login(u.account, u.password)).body.code).toBe(ResultCode.OK);
    }
  });

  it(`locks a client address after ${THROTTLE.addressLimit} failures, whatever the accounts`, async () => {
    await server.db.deleteFrom('login_attempts').execute();
    const u = await addUser(server);
    const from = async (remoteAddress: string, account: string, password: string): Promise<number> => {
      const payload = browserPayload('login', { account, password: await client().seal(password) }, '').toString();
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/user/user/login',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      return res.json().code as number;
    };
    for (let i = 0; i < THROTTLE.addressLimit; i++) {
      expect(await from('10.9.8.7', uniquePhone(), 'wrong-pass')).toBe(ResultCode.LOGIN_FAILED);
    }
    expect(await from('10.9.8.7', u.account, u.password)).toBe(ResultCode.LOGIN_THROTTLED);
    expect(await from('10.9.8.6', u.account, u.password)).toBe(ResultCode.OK);
  });
});
