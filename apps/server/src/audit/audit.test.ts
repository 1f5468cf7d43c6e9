import { PERMANENT_END_TIME, ResultCode, SUPER_ADMINISTRATOR, codeText, type AuditEntry, type Page } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { claimCommand } from '../flight/log.js';
import { findUserById } from '../users/store.js';
import {
  ADMIN_PASSWORD,
  TestClient,
  addUser,
  adminClient,
  startTestServer,
  userClient,
  type Fields,
  type TestServer,
} from '../../test/helpers.js';
import { THROTTLE } from '../auth/throttle.js';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

/** The audit rows about a target or an account, oldest first. */
const rowsFor = async (where: { target?: string; account?: string }) => {
  let q = server.db.selectFrom('audit_log').selectAll();
  if (where.target !== undefined) q = q.where('target', '=', where.target);
  if (where.account !== undefined) q = q.where('account', '=', where.account);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
};

async function must<D = unknown>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

describe('audit log: sign-in, sign-out, password', () => {
  it('records a sign-in and a sign-out with actor, company and address', async () => {
    const u = await addUser(server, { companyId: 'zrhk' });
    const c = new TestClient(server);
    expect((await c.login(u.account, u.password)).body.code).toBe(ResultCode.OK);
    expect((await c.call('logout')).body.code).toBe(ResultCode.OK);
    const rows = await rowsFor({ account: u.account });
    expect(rows.map((r) => [r.kind, r.outcome, r.u_id, r.company_id])).toEqual([
      ['login', 'ok', u.u_id, 'zrhk'],
      ['logout', 'ok', u.u_id, 'zrhk'],
    ]);
    expect(rows[0]!.ip).toBe('127.0.0.1');
  });

  it('records failures (wrong password, unknown account, disabled, expired) without an actor, then the lock', async () => {
    const u = await addUser(server, { companyId: 'zrhk' });
    const gone = await addUser(server, { state: 20 });
    const old = await addUser(server, { startTime: 1000, endTime: 2000 });
    const c = new TestClient(server);
    expect((await c.login(gone.account, gone.password)).body.code).toBe(ResultCode.ACCOUNT_DISABLED);
    expect((await c.login(old.account, old.password)).body.code).toBe(ResultCode.ACCOUNT_EXPIRED);
    expect((await rowsFor({ account: gone.account }))[0]).toMatchObject({ kind: 'login_failed', outcome: 'refused', u_id: null, detail: { reason: 'disabled' } });
    expect((await rowsFor({ account: old.account }))[0]).toMatchObject({ kind: 'login_failed', detail: { reason: 'expired' } });

    const unknown = 'nobody-audit@nest.local';
    expect((await c.login(unknown, 'whatever-1')).body.code).toBe(ResultCode.LOGIN_FAILED);
    expect(await rowsFor({ account: unknown })).toMatchObject([{ kind: 'login_failed', company_id: '', u_id: null, detail: { reason: 'unknown_account' } }]);

    for (let i = 0; i < THROTTLE.accountLimit; i++) expect((await c.login(u.account, 'wrong-pass-1')).body.code).toBe(ResultCode.LOGIN_FAILED);
    const locked = await c.login(u.account, u.password, { lang: 'zh' });
    expect(locked.body).toMatchObject({ code: ResultCode.LOGIN_THROTTLED, msg: codeText(ResultCode.LOGIN_THROTTLED, 'zh') });
    const rows = await rowsFor({ account: u.account });
    expect(rows.map((r) => r.kind)).toEqual([...Array(THROTTLE.accountLimit).fill('login_failed'), 'login_locked', 'login_locked']);
    expect(rows.every((r) => r.company_id === 'zrhk' && r.u_id === null && r.outcome === 'refused')).toBe(true);
    expect(rows[0]!.detail).toEqual({ reason: 'wrong_password' });
    expect(rows[THROTTLE.accountLimit]!.detail).toEqual({ reason: 'limit_reached', locked: ['account'] });
    expect(rows[THROTTLE.accountLimit + 1]!.detail).toEqual({ reason: 'throttled' });
    await server.db.deleteFrom('login_attempts').execute();
  });

  it('records a password change and a wrong old password, never the passwords or the token', async () => {
    const c = await userClient(server);
    const wrong = await c.call('userPsw', { account: c.account.account, password: await c.seal('not-it-1'), new_psw: await c.seal('next-secret-1') });
    expect(wrong.body.code).toBe(ResultCode.WRONG_OLD_PASSWORD);
    const token = c.token;
    const ok = await c.call('userPsw', { account: c.account.account, password: await c.seal(c.account.password), new_psw: await c.seal('next-secret-1') });
    expect(ok.body.code).toBe(ResultCode.OK);
    const rows = await rowsFor({ target: c.account.u_id });
    expect(rows.map((r) => [r.kind, r.outcome, r.u_id])).toEqual([
      ['password_change', 'refused', c.account.u_id],
      ['password_change', 'ok', c.account.u_id],
    ]);
    const all = JSON.stringify(await server.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [c.account.password, 'next-secret-1', 'not-it-1', token, ADMIN_PASSWORD, 'wrong-pass-1']) expect(all).not.toContain(secret);
    await server.db.deleteFrom('login_attempts').execute();
  });
});

describe('audit log: users, functions, groups, devices', () => {
  it('records user add, access edits (before/after functions), delete and recover; not a nick-only edit', async () => {
    const added = await must<{ u_id: string }>(admin, 'userAdd', {
      nick: 'Audited',
      phone: 'audited@nest.local',
      password: await admin.seal('first-pass-1'),
      start_time: 0,
      end_time: PERMANENT_END_TIME,
      fun_json: JSON.stringify(['menu_home']),
    });
    const row = (await findUserById(server.db, added.u_id))!;
    const edit = (over: Fields): Fields => ({
      u_id: row.u_id, state: row.state, start_time: row.start_time, end_time: row.end_time, nick: row.nick, phone: row.phone,
      email: row.email, password: '', team: row.team, notes: row.notes, in_com_id: row.company_id, fun_json: row.fun_list, ...over,
    });
    await must(admin, 'userEdit', edit({ nick: 'Renamed' }));
    await must(admin, 'userEdit', edit({ nick: 'Renamed', fun_json: JSON.stringify(['menu_home', 'user_list']), password: await admin.seal('reset-pass-1') }));
    await must(admin, 'userDelete', { u_id: row.u_id });
    await must(admin, 'userRecover', { u_id: row.u_id });
    const rows = await rowsFor({ target: row.u_id });
    expect(rows.map((r) => r.kind)).toEqual(['user_add', 'user_edit', 'user_delete', 'user_recover']);
    expect(rows.every((r) => r.u_id === admin.user!.u_id && r.company_id === 'wk')).toBe(true);
    expect(rows[0]!.detail).toMatchObject({ account: 'audited@nest.local', fun_list: ['menu_home'] });
    expect(rows[1]!.detail).toEqual({
      account: 'audited@nest.local',
      fun_list: { before: ['menu_home'], after: ['menu_home', 'user_list'] },
      reset: 'password',
    });
    expect(JSON.stringify(rows)).not.toContain('reset-pass-1');
    // /audit/list names the target user (their name now, and account) instead of the bare id.
    const listed = await must<Page<AuditEntry>>(admin, 'auditList', { kind: 'user_recover', size: 200 });
    expect(listed.list.find((e) => e.target === row.u_id)?.target_name).toBe('Renamed (audited@nest.local)');
  });

  it('records function add, edit and delete', async () => {
    const fun = { fun_id: 'audit_probe_fn', name: 'Probe', name_en: 'Probe', description: 'Probe' };
    await must(admin, 'funAdd', fun);
    await must(admin, 'funEdit', { ...fun, name: 'Probe 2', state: 10 });
    await must(admin, 'funEdit', { ...fun, state: 20 });
    const rows = await rowsFor({ target: fun.fun_id });
    expect(rows.map((r) => r.kind)).toEqual(['fun_add', 'fun_edit', 'fun_delete']);
    expect(rows[2]!.detail).toEqual({ name: 'Probe', state: { before: 10, after: 20 } });
    const listed = await must<Page<AuditEntry>>(admin, 'auditList', { kind: 'fun_delete', size: 200 });
    expect(listed.list.find((e) => e.target === fun.fun_id)?.target_name).toBe('Probe');
  });

  it('records device add, disable, enable and delete, a group membership change, and a device command by cmd_id', async () => {
    const dev = await must<{ id: string; sn_id: string }>(admin, 'deviceAdd', { type: 'alone', uav_name: 'Audit drone', sn_id: 'AUD-1', uav_sn: 'AUD-1' });
    const member = await addUser(server, { companyId: 'zrhk' });
    const group = await must<{ id: string }>(admin, 'comAdd', { name: 'Audit group', device_ids: dev.sn_id, user_ids: JSON.stringify([member.u_id]) });
    await must(admin, 'comEdit', { id: group.id, name: 'Audit group', device_ids: dev.sn_id, user_ids: '[]' });
    const groupRows = await rowsFor({ target: group.id });
    expect(groupRows.map((r) => r.detail.action)).toEqual(['add', 'edit']);
    expect(groupRows[1]!.detail).toMatchObject({ before: { user_ids: [member.u_id] }, after: { user_ids: [] } });

    await claimCommand(server.db, { u_id: admin.user!.u_id, nick: 'Admin', company_id: 'wk', all: true, source: 'console' }, {
      cmd_id: 'audit-cmd-1', sn_id: dev.sn_id, company_id: 'wk', cmd_type: 1, action_cmd: 0, method: 'takeoff', params: { secret_plan: 1 },
    });
    await must(admin, 'deviceEnable', { id: dev.id, enabled: 0 });
    await must(admin, 'deviceEnable', { id: dev.id, enabled: 1 });
    await must(admin, 'deviceDelete', { id: dev.id });
    const rows = await rowsFor({ target: dev.sn_id });
    expect(rows.map((r) => r.kind)).toEqual(['device_add', 'device_command', 'device_disable', 'device_enable', 'device_delete']);
    // The command is linked by cmd_id; its parameters stay in command_log only.
    expect(rows[1]!.detail).toEqual({ cmd_id: 'audit-cmd-1', source: 'console' });
  });
});

describe('/audit/list', () => {
  it("answers the caller's company only (newest first), every company to a super administrator, with filters", async () => {
    const reader = await userClient(server, { funList: ['audit_list'], companyId: 'zrhk' });
    const mine = await reader.call<Page<AuditEntry>>('auditList', { size: 200 });
    expect(mine.body.code).toBe(ResultCode.OK);
    expect(mine.body.data.total).toBeGreaterThan(0);
    expect(mine.body.data.list.every((e) => e.company_id === 'zrhk')).toBe(true);
    const times = mine.body.data.list.map((e) => e.at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(mine.body.data.list.find((e) => e.kind === 'login' && e.u_id === reader.account.u_id)).toMatchObject({ user_name: 'Tester', ip: '127.0.0.1' });

    const all = await admin.call<Page<AuditEntry>>('auditList', { size: 200 });
    expect(new Set(all.body.data.list.map((e) => e.company_id))).toEqual(new Set(['wk', 'zrhk', '']));

    const failed = await admin.call<Page<AuditEntry>>('auditList', { kind: 'login_failed', account: 'NOBODY-audit', size: 200 });
    expect(failed.body.data.list.map((e) => [e.kind, e.account])).toEqual([['login_failed', 'nobody-audit@nest.local']]);
    const future = await admin.call<Page<AuditEntry>>('auditList', { start_time: nowSeconds() + 3600 });
    expect(future.body.data).toEqual({ list: [], total: 0 });
    const paged = await admin.call<Page<AuditEntry>>('auditList', { page: 1, size: 2 });
    expect(paged.body.data.list).toEqual(all.body.data.list.slice(2, 4));
  });

  it('refuses an unknown kind (localised) and callers without the function', async () => {
    const bad = await admin.call('auditList', { kind: 'nope' }, { lang: 'zh' });
    expect(bad.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(bad.body.msg).toMatch(/kind/);
    const plain = await userClient(server, { funList: ['menu_home'] });
    expect((await plain.call('auditList', {})).body.code).toBe(ResultCode.NO_PERMISSION);
    const sup = await userClient(server, { funList: [SUPER_ADMINISTRATOR] });
    expect((await sup.call('auditList', {})).body.code).toBe(ResultCode.OK);
  });
});
