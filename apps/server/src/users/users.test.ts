import { PERMANENT_END_TIME, ResultCode, codeText, userSchema, type User } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { THROTTLE } from '../auth/throttle.js';
import {
  ADMIN_ACCOUNT,
  TestClient,
  addUser,
  adminClient,
  browserPayload,
  startTestServer,
  uniquePhone,
  userClient,
  type Fields,
  type TestServer,
} from '../../test/helpers.js';
import { findUserById, parseFunList } from './store.js';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

type Signed = Awaited<ReturnType<typeof userClient>>;

/** The edit payload the account dialog sends for a user, with overrides. */
async function editFields(uId: string, over: Fields = {}): Promise<Fields> {
  const row = await findUserById(server.db, uId);
  if (!row) throw new Error('no such user');
  return {
    u_id: row.u_id,
    state: row.state,
    start_time: row.start_time,
    end_time: row.end_time,
    nick: row.nick,
    phone: row.phone,
    email: row.email,
    password: '',
    team: row.team,
    notes: row.notes,
    in_com_id: row.company_id,
    fun_json: row.fun_list,
    ...over,
  };
}

describe('/user/info', () => {
  it('answers the signed-in user with the caller token', async () => {
    const c = await userClient(server, { nick: 'Info', funList: ['menu_home'], team: 'Blue', notes: 'n' });
    const res = await c.call<User>('userInfo');
    expect(res.body.code).toBe(ResultCode.OK);
    const user = userSchema.parse(res.body.data);
    expect(user).toMatchObject({
      u_id: c.account.u_id,
      nick: 'Info',
      phone: c.account.account,
      fun_list: ['menu_home'],
      team: 'Blue',
      notes: 'n',
      state: 10,
      end_time: PERMANENT_END_TIME,
      company: 'wk',
      in_com: { id: 'wk', name: 'wk' },
      password: '',
      token: c.token,
    });
  });
});

describe('/user/edit: own account', () => {
  it('changes nick, account, e-mail and notes, answering the updated user with the caller token', async () => {
    const c = await userClient(server);
    const phone = uniquePhone();
    const res = await c.call<User>('userEdit', await editFields(c.account.u_id, { nick: 'New nick', phone, email: 'me@example.com', notes: 'hello' }));
    expect(res.body.code).toBe(ResultCode.OK);
    expect(userSchema.parse(res.body.data)).toMatchObject({ nick: 'New nick', phone, email: 'me@example.com', notes: 'hello', token: c.token });
    expect((await c.call<User>('userInfo')).body.data.phone).toBe(phone);
    // The new account signs in.
    expect((await new TestClient(server).login(phone, c.account.password)).body.code).toBe(ResultCode.OK);
  });

  it('cannot escalate: fun_json, state, validity, team and company are ignored without user_edit', async () => {
    const start = nowSeconds() - 100;
    const c = await userClient(server, { funList: ['menu_home'], startTime: start, endTime: nowSeconds() + 3600 });
    const res = await c.call<User>(
      'userEdit',
      await editFields(c.account.u_id, {
        fun_json: JSON.stringify(['super_administrator', 'user_edit']),
        state: 20,
        start_time: 0,
        end_time: PERMANENT_END_TIME,
        team: 'Red',
        in_com_id: 'zrhk',
        nick: 'Still me',
      }),
    );
    expect(res.body.code).toBe(ResultCode.OK);
    const row = (await findUserById(server.db, c.account.u_id))!;
    expect(parseFunList(row.fun_list)).toEqual(['menu_home']);
    expect(row).toMatchObject({ state: 10, start_time: start, team: '', company_id: 'wk', nick: 'Still me' });
    expect(row.end_time).toBeLessThan(PERMANENT_END_TIME);
  });

  it('with user_edit, still cannot change its own functions, state or validity (team may change)', async () => {
    const c = await userClient(server, { funList: ['user_edit'] });
    const res = await c.call<User>(
      'userEdit',
      await editFields(c.account.u_id, { fun_json: JSON.stringify(['user_edit', 'super_administrator']), state: 20, end_time: 5, start_time: 1, team: 'Ops' }),
    );
    expect(res.body.code).toBe(ResultCode.OK);
    const row = (await findUserById(server.db, c.account.u_id))!;
    expect(parseFunList(row.fun_list)).toEqual(['user_edit']);
    expect(row).toMatchObject({ state: 10, end_time: PERMANENT_END_TIME, team: 'Ops' });
  });

  it('a new password counts only with user_edit; it then revokes the caller’s own sessions too', async () => {
    const plain = await userClient(server);
    const ignored = await plain.call('userEdit', await editFields(plain.account.u_id, { password: await plain.seal('ignored-pass') }));
    expect(ignored.body.code).toBe(ResultCode.OK);
    expect((await plain.call('userInfo')).body.code).toBe(ResultCode.OK);
    expect((await new TestClient(server).login(plain.account.account, plain.account.password)).body.code).toBe(ResultCode.OK);

    const editor = await userClient(server, { funList: ['user_edit'] });
    const res = await editor.call<User>('userEdit', await editFields(editor.account.u_id, { password: await editor.seal('self-set-pass') }));
    expect(res.body.code).toBe(ResultCode.OK);
    expect((await editor.call('userInfo')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await new TestClient(server).login(editor.account.account, 'self-set-pass')).body.code).toBe(ResultCode.OK);
  });

  it('refuses an account already in use (case-insensitively)', async () => {
    const c = await userClient(server);
    const res = await c.call('userEdit', await editFields(c.account.u_id, { phone: ADMIN_ACCOUNT.toUpperCase() }));
    expect(res.body).toEqual({ code: ResultCode.ACCOUNT_TAKEN, msg: codeText(ResultCode.ACCOUNT_TAKEN, 'en'), data: null });
  });

  it('refuses bad input naming the field', async () => {
    const c = await userClient(server);
    const base = await editFields(c.account.u_id);
    const { nick: _nick, ...noNick } = base;
    expect((await c.call('userEdit', noNick)).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field nick is required' });
    expect((await c.call('userEdit', { ...base, nick: '' })).body).toMatchObject({ msg: 'Field nick is required' });
    expect((await c.call('userEdit', { ...base, phone: '12345678901' })).body).toMatchObject({
      code: ResultCode.BAD_REQUEST,
      msg: 'Please enter a valid phone number or e-mail',
    });
    expect((await c.call('userEdit', { ...base, phone: 'abc' }, { lang: 'zh' })).body.msg).toBe('请输入正确的手机号/邮箱');
    expect((await c.call('userEdit', { ...base, nick: 'n'.repeat(65) })).body).toMatchObject({ msg: 'Field nick is too long' });
    expect((await c.call('userEdit', { ...base, nick: 'n'.repeat(65) }, { lang: 'zh' })).body.msg).toBe('字段 nick 过长');
    expect((await c.call('userEdit', { ...base, email: 'not-mail' })).body).toMatchObject({ msg: 'Field email is invalid' });
    expect((await c.call('userEdit', { ...base, email: 'not-mail' }, { lang: 'zh' })).body.msg).toBe('字段 email 格式不正确');
    expect((await c.call('userEdit', { ...base, fun_json: '[not json' })).body).toMatchObject({ msg: 'Field fun_json is invalid' });
    expect((await c.call('userEdit', { ...base, start_time: 'soon' })).body).toMatchObject({ msg: 'Field start_time is invalid' });
    expect((await c.call('userEdit', { ...base, u_id: 'no-such-user' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('refuses a payload changed after signing', async () => {
    const c = await userClient(server);
    const fields = await editFields(c.account.u_id, { nick: 'Signed' });
    const signed = browserPayload('userEdit', fields, c.token);
    signed.set('nick', 'Tampered');
    const res = await c.call('userEdit', {}, { rawBody: signed.toString() });
    expect(res.body.code).toBe(ResultCode.BAD_SIGNATURE);
  });
});

describe('/user/edit: other users', () => {
  it('needs user_edit (HTTP 401 otherwise)', async () => {
    const c = await userClient(server, { funList: ['user_list'] });
    const target = await addUser(server);
    const res = await c.call('userEdit', await editFields(target.u_id, { nick: 'Hacked' }));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await findUserById(server.db, target.u_id))!.nick).toBe('Tester');
  });

  it('with user_edit in the same company: state, validity, team, functions held, new password', async () => {
    const editor = await userClient(server, { funList: ['user_edit', 'menu_home', 'fun_list'] });
    const target = await addUser(server, { funList: [] });
    const targetClient = new TestClient(server);
    await targetClient.login(target.account, target.password);
    const start = nowSeconds() - 50;
    const end = nowSeconds() + 86_400;
    const res = await editor.call<User>(
      'userEdit',
      await editFields(target.u_id, {
        state: 10,
        start_time: start,
        end_time: end,
        team: 'Field team',
        fun_json: JSON.stringify(['menu_home', 'fun_list']),
        password: await editor.seal('brand-new-pass'),
      }),
    );
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data).toMatchObject({ u_id: target.u_id, start_time: start, end_time: end, team: 'Field team', fun_list: ['menu_home', 'fun_list'], token: '' });
    // The target's sessions were revoked; the new password works, the old one does not.
    expect((await targetClient.call('userInfo')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await new TestClient(server).login(target.account, target.password)).body.code).toBe(ResultCode.LOGIN_FAILED);
    expect((await new TestClient(server).login(target.account, 'brand-new-pass')).body.code).toBe(ResultCode.OK);
    // The editor's own session is untouched.
    expect((await editor.call('userInfo')).body.code).toBe(ResultCode.OK);
  });

  it('an empty password keeps the old one', async () => {
    const target = await addUser(server);
    expect((await admin.call('userEdit', await editFields(target.u_id, { nick: 'Kept' }))).body.code).toBe(ResultCode.OK);
    expect((await new TestClient(server).login(target.account, target.password)).body.code).toBe(ResultCode.OK);
  });

  it('refuses functions the editor does not hold, super_administrator, other companies and super targets', async () => {
    const editor = await userClient(server, { funList: ['user_edit', 'menu_home'] });
    const target = await addUser(server, { funList: ['fun_list'] });
    const grant = async (funs: string[]) =>
      editor.call('userEdit', await editFields(target.u_id, { fun_json: JSON.stringify(funs) }));
    expect((await grant(['super_administrator'])).status).toBe(401);
    expect((await grant(['user_list'])).status).toBe(401);
    // Functions the editor holds, plus ones the target already had, are fine.
    expect((await grant(['menu_home', 'fun_list'])).body.code).toBe(ResultCode.OK);
    expect((await grant(['unknown_function'])).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The function unknown_function does not exist' });

    const foreign = await addUser(server, { companyId: 'zrhk' });
    expect((await editor.call('userEdit', await editFields(foreign.u_id, { nick: 'X' }))).status).toBe(401);
    const superTarget = await addUser(server, { funList: ['super_administrator'] });
    expect((await editor.call('userEdit', await editFields(superTarget.u_id, { nick: 'X' }))).status).toBe(401);
    // Moving a user to another company needs super_administrator.
    expect((await editor.call('userEdit', await editFields(target.u_id, { in_com_id: 'gzGh' }))).status).toBe(401);
  });

  it('a super administrator edits any company, moves users and grants super_administrator', async () => {
    const target = await addUser(server, { companyId: 'gzGh' });
    const res = await admin.call<User>(
      'userEdit',
      await editFields(target.u_id, { in_com_id: 'zrhk', fun_json: JSON.stringify(['super_administrator']) }),
    );
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data).toMatchObject({ company: 'zrhk', in_com: { id: 'zrhk' }, fun_list: ['super_administrator'] });
    expect((await admin.call('userEdit', await editFields(target.u_id, { in_com_id: 'nope' }))).body).toMatchObject({
      code: ResultCode.BAD_REQUEST,
      msg: 'The company does not exist',
    });
  });

  it('checks state, validity order and the new password', async () => {
    const target = await addUser(server);
    expect((await admin.call('userEdit', await editFields(target.u_id, { state: 30 }))).body).toMatchObject({ msg: 'Field state is invalid' });
    expect((await admin.call('userEdit', await editFields(target.u_id, { start_time: 200, end_time: 100 }))).body).toMatchObject({
      code: ResultCode.BAD_REQUEST,
      msg: 'The end time cannot be before the start time',
    });
    expect((await admin.call('userEdit', await editFields(target.u_id, { password: await admin.seal('short') }))).body).toMatchObject({
      code: ResultCode.BAD_REQUEST,
      msg: 'The password must have 6 to 32 characters',
    });
    expect((await admin.call('userEdit', await editFields(target.u_id, { password: 'Zm9v' }))).body.code).toBe(ResultCode.DECRYPT_FAILED);
    // A disabled user cannot sign in any more.
    expect((await admin.call('userEdit', await editFields(target.u_id, { state: 20 }))).body.code).toBe(ResultCode.OK);
    expect((await new TestClient(server).login(target.account, target.password)).body.code).toBe(ResultCode.ACCOUNT_DISABLED);
  });
});

describe('/user/psw', () => {
  const pswFields = async (c: Signed, old: string, next: string, account = c.account.account): Promise<Fields> => ({
    account,
    password: await c.seal(old),
    new_psw: await c.seal(next),
  });

  it('changes the password and revokes every session of the user, the current one included', async () => {
    const c = await userClient(server);
    const other = new TestClient(server);
    await other.login(c.account.account, c.account.password);
    const res = await c.call('userPsw', await pswFields(c, c.account.password, 'changed-pass-1'));
    expect(res.body).toEqual({ code: ResultCode.OK, msg: codeText(ResultCode.OK, 'en'), data: null });
    expect((await c.call('userInfo')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await other.call('userInfo')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await new TestClient(server).login(c.account.account, c.account.password)).body.code).toBe(ResultCode.LOGIN_FAILED);
    expect((await new TestClient(server).login(c.account.account, 'changed-pass-1')).body.code).toBe(ResultCode.OK);
  });

  it('refuses a wrong old password, counting it in the sign-in throttle', async () => {
    const c = await userClient(server);
    for (let i = 0; i < THROTTLE.accountLimit; i++) {
      const res = await c.call('userPsw', await pswFields(c, 'wrong-old-pass', 'changed-pass-2'));
      expect(res.body).toEqual({ code: ResultCode.WRONG_OLD_PASSWORD, msg: codeText(ResultCode.WRONG_OLD_PASSWORD, 'en'), data: null });
    }
    expect((await c.call('userPsw', await pswFields(c, c.account.password, 'changed-pass-2'))).body.code).toBe(ResultCode.LOGIN_THROTTLED);
    expect((await new TestClient(server).login(c.account.account, c.account.password)).body.code).toBe(ResultCode.LOGIN_THROTTLED);
  });

  it('only changes the caller’s own password', async () => {
    const c = await userClient(server);
    const res = await c.call('userPsw', await pswFields(c, c.account.password, 'changed-pass-3', ADMIN_ACCOUNT));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
  });

  it('checks the new password length and the input', async () => {
    const c = await userClient(server);
    const short = await c.call('userPsw', await pswFields(c, c.account.password, 'five5'));
    expect(short.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The password must have 6 to 32 characters' });
    const long = await c.call('userPsw', await pswFields(c, c.account.password, 'x'.repeat(33)), { lang: 'zh' });
    expect(long.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: '密码长度应为 6 到 32 个字符' });
    const fields = await pswFields(c, c.account.password, 'changed-pass-4');
    const { new_psw: _n, ...missing } = fields;
    expect((await c.call('userPsw', missing)).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field new_psw is required' });
    expect((await c.call('userPsw', { ...fields, account: 'x@y' })).body).toMatchObject({ msg: 'Please enter a valid phone number or e-mail' });
    expect((await c.call('userPsw', { ...fields, new_psw: 'A'.repeat(1025) })).body).toMatchObject({ msg: 'Field new_psw is too long' });
    expect((await c.call('userPsw', { ...fields, new_psw: 'QUJD' })).body.code).toBe(ResultCode.DECRYPT_FAILED);
    // Nothing changed: the old password still works.
    expect((await new TestClient(server).login(c.account.account, c.account.password)).body.code).toBe(ResultCode.OK);
  });
});
