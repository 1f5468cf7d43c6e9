import { PERMANENT_END_TIME, ResultCode, codeText, userListItemSchema, userSchema, type User, type UserListItem } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { userEditFields } from '../../test/accounts.js';
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
import { findUserById, otherActiveSupers, parseFunList } from './store.js';

let server: TestServer;
let admin: TestClient;
/** Departments of company wk (Ops, Field team) and of zrhk (Far away). */
let ops: string;
let field: string;
let far: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
  ops = await department(admin, 'Ops');
  field = await department(admin, 'Field team');
  far = await department(admin, 'Far away', 'zrhk');
});
afterAll(async () => server?.close());

type Signed = Awaited<ReturnType<typeof userClient>>;
type ListData = { list: UserListItem[]; total: number };

/** A top-level department made through /team/add; answers its id. */
async function department(by: TestClient, name: string, company?: string): Promise<string> {
  const res = await by.call<{ id: string }>('teamAdd', { name, ...(company ? { in_com_id: company } : {}) });
  if (res.body.code !== ResultCode.OK) throw new Error(JSON.stringify(res.body));
  return res.body.data.id;
}

/** The edit payload the account dialog sends for a user, with overrides. */
const editFields = (uId: string, over: Fields = {}): Promise<Fields> => userEditFields(server.db, uId, over);

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
      await editFields(c.account.u_id, { fun_json: JSON.stringify(['user_edit', 'super_administrator']), state: 20, end_time: 5, start_time: 1, team: ops }),
    );
    expect(res.body.code).toBe(ResultCode.OK);
    const row = (await findUserById(server.db, c.account.u_id))!;
    expect(parseFunList(row.fun_list)).toEqual(['user_edit']);
    expect(row).toMatchObject({ state: 10, end_time: PERMANENT_END_TIME, team: ops });
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
        team: field,
        fun_json: JSON.stringify(['menu_home', 'fun_list']),
        password: await editor.seal('brand-new-pass'),
      }),
    );
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data).toMatchObject({ u_id: target.u_id, start_time: start, end_time: end, team: field, fun_list: ['menu_home', 'fun_list'], token: '' });
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
    // Another company's user does not exist for the editor.
    expect((await editor.call('userEdit', await editFields(foreign.u_id, { nick: 'X' }))).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
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
      msg: 'The end time must be after the start time',
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

/** The /user/add payload for a new user of company wk, with overrides (the password sealed by `by`). */
async function addFields(by: TestClient, over: Fields = {}): Promise<Fields> {
  return {
    nick: 'New user',
    phone: uniquePhone(),
    email: '',
    password: await by.seal('first-pass-1'),
    start_time: nowSeconds() - 60,
    end_time: PERMANENT_END_TIME,
    team: '',
    notes: '',
    in_com_id: '',
    fun_json: '[]',
    ...over,
  };
}

const countUsers = async () => Number((await server.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('/user/list', () => {
  it('lists the caller company’s users with the table fields and never a password hash', async () => {
    const lister = await userClient(server, { funList: ['user_list'], nick: 'Lister' });
    const member = await addUser(server, { nick: 'Member of ops', team: ops, notes: 'seen' });
    await addUser(server, { nick: 'Foreign user', companyId: 'zrhk' });
    const res = await lister.call<ListData>('userList', { search: 'Member of ops' });
    expect(res.body.code).toBe(ResultCode.OK);
    const [row] = res.body.data.list;
    expect(res.body.data.total).toBe(1);
    expect(userListItemSchema.strict().parse(row)).toEqual(row);
    expect(row).toMatchObject({ u_id: member.u_id, nick: 'Member of ops', phone: member.account, company: 'wk', in_com: { id: 'wk' }, team: ops, team_name: 'Ops', notes: 'seen', state: 10, password: '', token: '' });
    expect(row!.create_time).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt/);
    // Company scope: another company’s user is not listed, and asking for that company is refused.
    expect((await lister.call<ListData>('userList', { search: 'Foreign user' })).body.data.total).toBe(0);
    expect((await lister.call('userList', { in_com_id: 'zrhk' })).status).toBe(401);
    expect((await lister.call<ListData>('userList', { in_com_id: 'wk', search: 'Lister' })).body.data.total).toBe(1);
  });

  it('searches nick, account and e-mail; filters state and department; pages', async () => {
    const tag = `pg${Date.now() % 100000}`;
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await addUser(server, { nick: `${tag} user ${i}`, email: `${tag}${i}@example.com`, team: i < 2 ? field : '' }));
    await admin.call('userDelete', { u_id: users[4]!.u_id });
    const all = await admin.call<ListData>('userList', { search: tag, size: 2, page: 0 });
    expect(all.body.data.total).toBe(5);
    expect(all.body.data.list.map((u) => u.nick)).toEqual([`${tag} user 0`, `${tag} user 1`]);
    const page2 = await admin.call<ListData>('userList', { search: tag, size: 2, page: 2 });
    expect(page2.body.data.list.map((u) => u.nick)).toEqual([`${tag} user 4`]);
    expect((await admin.call<ListData>('userList', { search: `${tag}3@EXAMPLE` })).body.data.list.map((u) => u.u_id)).toEqual([users[3]!.u_id]);
    expect((await admin.call<ListData>('userList', { search: users[2]!.account })).body.data.list.map((u) => u.u_id)).toEqual([users[2]!.u_id]);
    expect((await admin.call<ListData>('userList', { search: tag, state: 20 })).body.data.list.map((u) => u.u_id)).toEqual([users[4]!.u_id]);
    expect((await admin.call<ListData>('userList', { search: tag, state: '10' })).body.data.total).toBe(4);
    expect((await admin.call<ListData>('userList', { search: tag, team: field })).body.data.total).toBe(2);
    expect((await admin.call<ListData>('userList', { search: '%' })).body.data.total).toBe(0);
  });

  it('lets a super administrator see every company or filter one', async () => {
    const foreign = await addUser(server, { nick: 'Only in gzGh', companyId: 'gzGh' });
    expect((await admin.call<ListData>('userList', { search: 'Only in gzGh' })).body.data.list.map((u) => u.u_id)).toEqual([foreign.u_id]);
    expect((await admin.call<ListData>('userList', { search: 'Only in gzGh', in_com_id: 'gzGh' })).body.data.total).toBe(1);
    expect((await admin.call<ListData>('userList', { search: 'Only in gzGh', in_com_id: 'wk' })).body.data.total).toBe(0);
  });

  it('refuses bad input and callers without user_list', async () => {
    expect((await admin.call('userList', { state: '30' })).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field state is invalid' });
    expect((await admin.call('userList', { size: 201 })).body).toMatchObject({ msg: 'Field size is invalid' });
    const plain = await userClient(server, { funList: ['menu_userManage'] });
    expect((await plain.call('userList')).status).toBe(401);
  });
});

describe('/user/add', () => {
  it('adds a user who can sign in, with company, department, functions and a date range', async () => {
    const start = nowSeconds() - 60;
    const end = nowSeconds() + 86_400;
    const fields = await addFields(admin, { nick: 'Added', email: 'added@example.com', start_time: start, end_time: end, team: ops, notes: 'hi', fun_json: JSON.stringify(['menu_home', 'user_list']) });
    const res = await admin.call<UserListItem>('userAdd', fields);
    expect(res.body.code).toBe(ResultCode.OK);
    expect(userListItemSchema.parse(res.body.data)).toMatchObject({ nick: 'Added', phone: fields.phone, email: 'added@example.com', start_time: start, end_time: end, team: ops, team_name: 'Ops', notes: 'hi', fun_list: ['menu_home', 'user_list'], company: 'wk', state: 10, password: '' });
    const c = new TestClient(server);
    expect((await c.login(String(fields.phone), 'first-pass-1')).body.code).toBe(ResultCode.OK);
    expect((await c.call<ListData>('userList', { search: 'Added' })).body.code).toBe(ResultCode.OK);
    // An e-mail account works too; any end time from the marker on is stored as the marker.
    const mail = await admin.call<UserListItem>('userAdd', await addFields(admin, { phone: `new.${Date.now()}@example.org`, end_time: PERMANENT_END_TIME + 5 }));
    expect(mail.body.data.end_time).toBe(PERMANENT_END_TIME);
    // A super administrator places a user in another company, with that company's department.
    const foreign = await admin.call<UserListItem>('userAdd', await addFields(admin, { in_com_id: 'zrhk', team: far }));
    expect(foreign.body.data).toMatchObject({ company: 'zrhk', team: far, team_name: 'Far away' });
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await countUsers();
    const expectRefused = async (over: Fields, msg: string, code: number = ResultCode.BAD_REQUEST) =>
      expect((await admin.call('userAdd', await addFields(admin, over))).body).toMatchObject({ code, msg });
    await expectRefused({ phone: '12345' }, 'Please enter a valid phone number or e-mail');
    await expectRefused({ phone: ADMIN_ACCOUNT.toUpperCase() }, codeText(ResultCode.ACCOUNT_TAKEN, 'en'), ResultCode.ACCOUNT_TAKEN);
    await expectRefused({ nick: '' }, 'Field nick is required');
    await expectRefused({ email: 'nope' }, 'Field email is invalid');
    await expectRefused({ password: await admin.seal('short') }, 'The password must have 6 to 32 characters');
    await expectRefused({ password: await admin.seal('x'.repeat(33)) }, 'The password must have 6 to 32 characters');
    await expectRefused({ password: '' }, 'Field password is required');
    await expectRefused({ start_time: 1000, end_time: 1000 }, 'The end time must be after the start time');
    await expectRefused({ start_time: 2000, end_time: 1000 }, 'The end time must be after the start time');
    await expectRefused({ in_com_id: 'nowhere' }, 'The company does not exist');
    await expectRefused({ team: far }, 'The department does not exist in this company');
    await expectRefused({ team: 'no-such-team' }, 'The department does not exist in this company');
    await expectRefused({ fun_json: JSON.stringify(['no_such_fun']) }, 'The function no_such_fun does not exist');
    await expectRefused({ fun_json: '{"a":1}' }, 'Field fun_json is invalid');
    expect((await admin.call('userAdd', await addFields(admin, { password: 'Zm9v' }))).body.code).toBe(ResultCode.DECRYPT_FAILED);
    expect(await countUsers()).toBe(before);
  });

  it('needs user_add; grants only held functions, never super_administrator, only the own company', async () => {
    const before = await countUsers();
    const plain = await userClient(server, { funList: ['user_list', 'menu_home'] });
    expect((await plain.call('userAdd', await addFields(plain))).status).toBe(401);
    const adder = await userClient(server, { funList: ['user_add', 'menu_home'] });
    const after = await countUsers();
    expect(after).toBe(before + 2);
    expect((await adder.call('userAdd', await addFields(adder, { fun_json: JSON.stringify(['super_administrator']) }))).status).toBe(401);
    expect((await adder.call('userAdd', await addFields(adder, { fun_json: JSON.stringify(['user_list']) }))).status).toBe(401);
    expect((await adder.call('userAdd', await addFields(adder, { in_com_id: 'zrhk' }))).status).toBe(401);
    expect(await countUsers()).toBe(after);
    const ok = await adder.call<UserListItem>('userAdd', await addFields(adder, { fun_json: JSON.stringify(['menu_home']), team: ops, in_com_id: 'wk' }));
    expect(ok.body.data).toMatchObject({ fun_list: ['menu_home'], company: 'wk', team: ops });
  });

  it('does not grant a deleted function', async () => {
    await server.db.updateTable('functions').set({ state: 20 }).where('fun_id', '=', 'menu_googleMap').execute();
    try {
      const res = await admin.call('userAdd', await addFields(admin, { fun_json: JSON.stringify(['menu_googleMap']) }));
      expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The function menu_googleMap is deleted and cannot be granted' });
    } finally {
      await server.db.updateTable('functions').set({ state: 10 }).where('fun_id', '=', 'menu_googleMap').execute();
    }
  });
});

describe('/user/edit: administration rules', () => {
  it('function changes count from the user’s next call, with the same token', async () => {
    const c = await userClient(server, { funList: ['user_list', 'fun_list'] });
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
    expect((await admin.call('userEdit', await editFields(c.account.u_id, { fun_json: JSON.stringify(['user_list']) }))).body.code).toBe(ResultCode.OK);
    const denied = await c.call('funList');
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await c.call('userList')).body.code).toBe(ResultCode.OK);
    expect((await admin.call('userEdit', await editFields(c.account.u_id, { fun_json: JSON.stringify(['user_list', 'fun_list']) }))).body.code).toBe(ResultCode.OK);
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
  });

  it('keeps a deleted function the user already had but refuses granting it anew', async () => {
    const holder = await addUser(server, { funList: ['menu_outLineMap'] });
    const other = await addUser(server);
    await server.db.updateTable('functions').set({ state: 20 }).where('fun_id', '=', 'menu_outLineMap').execute();
    try {
      expect((await admin.call('userEdit', await editFields(holder.u_id, { nick: 'Kept fun' }))).body.code).toBe(ResultCode.OK);
      expect(parseFunList((await findUserById(server.db, holder.u_id))!.fun_list)).toEqual(['menu_outLineMap']);
      const res = await admin.call('userEdit', await editFields(other.u_id, { fun_json: JSON.stringify(['menu_outLineMap']) }));
      expect(res.body.msg).toBe('The function menu_outLineMap is deleted and cannot be granted');
    } finally {
      await server.db.updateTable('functions').set({ state: 10 }).where('fun_id', '=', 'menu_outLineMap').execute();
    }
  });

  it('checks the department against the user’s company', async () => {
    const target = await addUser(server);
    expect((await admin.call('userEdit', await editFields(target.u_id, { team: far }))).body.msg).toBe('The department does not exist in this company');
    expect((await admin.call('userEdit', await editFields(target.u_id, { team: ops }))).body.code).toBe(ResultCode.OK);
    // Moving to another company with the old company's department is refused; with one of the new company it works.
    expect((await admin.call('userEdit', await editFields(target.u_id, { in_com_id: 'zrhk' }))).body.msg).toBe('The department does not exist in this company');
    expect((await findUserById(server.db, target.u_id))!.company_id).toBe('wk');
    expect((await admin.call('userEdit', await editFields(target.u_id, { in_com_id: 'zrhk', team: far }))).body.code).toBe(ResultCode.OK);
  });

  it('lets a super administrator take the function from another one while one stays', async () => {
    const second = await addUser(server, { funList: ['super_administrator'] });
    const res = await admin.call<User>('userEdit', await editFields(second.u_id, { fun_json: '["user_list"]' }));
    expect(res.body.data.fun_list).toEqual(['user_list']);
    // Editing oneself never touches one's own functions: the admin stays a super administrator.
    expect((await admin.call('userEdit', await editFields(admin.user!.u_id, { fun_json: '[]', nick: 'Root' }))).body.code).toBe(ResultCode.OK);
    expect(parseFunList((await findUserById(server.db, admin.user!.u_id))!.fun_list)).toEqual(['super_administrator']);
  });
});

describe('/user/delete and /user/recover', () => {
  it('deletes (state 20, sessions revoked, sign-in refused) and recovers', async () => {
    const c = await userClient(server, { funList: ['menu_home'] });
    const res = await admin.call<UserListItem>('userDelete', { u_id: c.account.u_id });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data).toMatchObject({ u_id: c.account.u_id, state: 20 });
    expect((await c.call('userInfo')).body.code).toBe(ResultCode.LOGIN_EXPIRED);
    expect((await new TestClient(server).login(c.account.account, c.account.password)).body.code).toBe(ResultCode.ACCOUNT_DISABLED);
    expect((await admin.call('userDelete', { u_id: c.account.u_id })).body.msg).toBe('This user is already deleted');
    const back = await admin.call<UserListItem>('userRecover', { u_id: c.account.u_id });
    expect(back.body.data).toMatchObject({ state: 10 });
    expect((await new TestClient(server).login(c.account.account, c.account.password)).body.code).toBe(ResultCode.OK);
    expect((await admin.call('userRecover', { u_id: c.account.u_id })).body.msg).toBe('This user is not deleted');
    expect((await admin.call('userDelete', { u_id: 'no-such-user' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await admin.call('userDelete', { u_id: '' })).body.msg).toBe('Field u_id is required');
  });

  it('cannot delete oneself; a super administrator may delete another one', async () => {
    const self = await admin.call('userDelete', { u_id: admin.user!.u_id }, { lang: 'zh' });
    expect(self.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: '不能删除自己的账号' });
    expect((await findUserById(server.db, admin.user!.u_id))!.state).toBe(10);
    const other = await addUser(server, { funList: ['super_administrator'] });
    expect((await admin.call('userDelete', { u_id: other.u_id })).body.code).toBe(ResultCode.OK);
  });

  it('counts the active super administrators the last-one rule protects', async () => {
    const adminId = admin.user!.u_id;
    const before = await otherActiveSupers(server.db, adminId);
    const lookalike = await addUser(server, { funList: ['superXadministrator', 'user_list'] });
    const real = await addUser(server, { funList: ['user_list', 'super_administrator'] });
    const disabled = await addUser(server, { funList: ['super_administrator'], state: 20 });
    expect(await otherActiveSupers(server.db, adminId)).toBe(before + 1);
    expect(await otherActiveSupers(server.db, real.u_id)).toBe(before + 1);
    expect([lookalike.u_id, disabled.u_id]).toHaveLength(2);
  });

  it('is scoped: other companies and super administrators are out of reach without super_administrator', async () => {
    const manager = await userClient(server, { funList: ['user_delete', 'user_recover'] });
    const foreign = await addUser(server, { companyId: 'zrhk' });
    const superUser = await addUser(server, { funList: ['super_administrator'] });
    const colleague = await addUser(server);
    expect((await manager.call('userDelete', { u_id: foreign.u_id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await manager.call('userDelete', { u_id: superUser.u_id })).status).toBe(401);
    for (const u_id of [foreign.u_id, superUser.u_id]) expect((await findUserById(server.db, u_id))!.state).toBe(10);
    expect((await manager.call('userDelete', { u_id: colleague.u_id })).body.code).toBe(ResultCode.OK);
    expect((await manager.call('userRecover', { u_id: colleague.u_id })).body.code).toBe(ResultCode.OK);
    const lister = await userClient(server, { funList: ['user_list'] });
    expect((await lister.call('userDelete', { u_id: colleague.u_id })).status).toBe(401);
    expect((await lister.call('userRecover', { u_id: colleague.u_id })).status).toBe(401);
  });
});
