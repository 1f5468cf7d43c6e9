import { ResultCode, departmentNodeSchema, departmentSchema, type Department, type DepartmentNode } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

type Tree = { list: DepartmentNode[]; total: number };

async function add(by: TestClient, fields: Fields): Promise<Department> {
  const res = await by.call<Department>('teamAdd', fields);
  if (res.body.code !== ResultCode.OK) throw new Error(JSON.stringify(res.body));
  return res.body.data;
}

/** The /team/edit payload of a department as it is, with overrides. */
const editOf = (d: Department, over: Fields = {}): Fields => ({
  id: d.id,
  parent_id: d.parent_id,
  name: d.name,
  description: d.description,
  notes: d.notes,
  sort: d.sort,
  ...over,
});

const find = (nodes: readonly DepartmentNode[], id: string): DepartmentNode | undefined => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = find(n.children, id);
    if (inner) return inner;
  }
  return undefined;
};

const rowOf = (id: string) => server.db.selectFrom('departments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const countRows = async () => Number((await server.db.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('/team/add and /team/list', () => {
  it('builds the company tree with member counts, siblings by sort then name', async () => {
    const c = await userClient(server, { funList: ['team_add', 'team_list'] });
    const head = await add(c, { name: 'Head office', description: 'HQ', notes: 'n' });
    expect(departmentSchema.strict().parse(head)).toMatchObject({ parent_id: '', name: 'Head office', description: 'HQ', notes: 'n', state: 10, company_id: 'wk', sort: 0, member_count: 0 });
    const b = await add(c, { name: 'B team', parent_id: head.id, sort: 2 });
    const a = await add(c, { name: 'A team', parent_id: head.id, sort: 2 });
    const first = await add(c, { name: 'Z first', parent_id: head.id, sort: 1 });
    const leaf = await add(c, { name: 'Leaf', parent_id: a.id });
    await addUser(server, { team: a.id });
    await addUser(server, { team: a.id });
    await addUser(server, { team: a.id, state: 20 });
    const res = await c.call<Tree>('teamList');
    expect(res.body.code).toBe(ResultCode.OK);
    for (const n of res.body.data.list) departmentNodeSchema.parse(n);
    const node = find(res.body.data.list, head.id)!;
    expect(node.children.map((n) => n.name)).toEqual(['Z first', 'A team', 'B team']);
    expect(find(res.body.data.list, a.id)).toMatchObject({ member_count: 2, children: [{ id: leaf.id, member_count: 0, children: [] }] });
    expect(find(res.body.data.list, b.id)!.member_count).toBe(0);
    expect(first.sort).toBe(1);
    expect(res.body.data.total).toBeGreaterThanOrEqual(5);
  });

  it('keeps companies apart; a super administrator works on any company', async () => {
    const foreign = await add(admin, { name: 'Abroad', in_com_id: 'zrhk' });
    expect(foreign.company_id).toBe('zrhk');
    const sub = await add(admin, { name: 'Abroad sub', parent_id: foreign.id });
    expect(sub.company_id).toBe('zrhk');
    const zr = await admin.call<Tree>('teamList', { in_com_id: 'zrhk' });
    expect(zr.body.data.list.map((n) => n.name)).toEqual(['Abroad']);
    expect(find(zr.body.data.list, sub.id)).toBeDefined();
    expect(find((await admin.call<Tree>('teamList')).body.data.list, foreign.id)).toBeUndefined();
    expect((await admin.call('teamList', { in_com_id: 'nowhere' })).body.msg).toBe('The company does not exist');

    const c = await userClient(server, { funList: ['team_add', 'team_list', 'team_edit', 'team_delete'] });
    expect(find((await c.call<Tree>('teamList')).body.data.list, foreign.id)).toBeUndefined();
    expect((await c.call('teamList', { in_com_id: 'zrhk' })).status).toBe(401);
    expect((await c.call('teamAdd', { name: 'Sneaky', in_com_id: 'zrhk' })).status).toBe(401);
    expect((await c.call('teamAdd', { name: 'Sneaky', parent_id: foreign.id })).body.msg).toBe('The parent department does not exist in the same company');
    expect((await c.call('teamEdit', editOf(foreign, { name: 'Renamed' }))).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await c.call('teamDelete', { id: sub.id })).body).toMatchObject({ code: ResultCode.NOT_FOUND_OBJECT, msg: 'The department does not exist' });
    // A parent of one company with another company named is refused too.
    expect((await admin.call('teamAdd', { name: 'Mixed', parent_id: foreign.id, in_com_id: 'wk' })).body.msg).toBe('The parent department does not exist in the same company');
    expect((await rowOf(foreign.id)).name).toBe('Abroad');
  });

  it('refuses duplicate sibling names and bad input, adding nothing', async () => {
    const root = await add(admin, { name: 'Dup root' });
    await add(admin, { name: 'Same', parent_id: root.id });
    const before = await countRows();
    expect((await admin.call('teamAdd', { name: 'same', parent_id: root.id })).body).toMatchObject({
      code: ResultCode.BAD_REQUEST,
      msg: 'Another department under the same parent is already named "same"',
    });
    expect((await admin.call('teamAdd', { name: 'Dup root' }, { lang: 'zh' })).body.msg).toBe('同一上级下已有名为“Dup root”的部门');
    expect((await admin.call('teamAdd', { name: '' })).body.msg).toBe('Field name is required');
    expect((await admin.call('teamAdd', { name: 'x'.repeat(65) })).body.msg).toBe('Field name is too long');
    expect((await admin.call('teamAdd', { name: 'Y', sort: -1 })).body.msg).toBe('Field sort is invalid');
    expect((await admin.call('teamAdd', { name: 'Y', parent_id: 'missing' })).body.msg).toBe('The parent department does not exist in the same company');
    expect(await countRows()).toBe(before);
    // The same name under another parent is fine.
    expect((await add(admin, { name: 'Same' })).name).toBe('Same');
  });

  it('lets only one of two simultaneous adds of a sibling name through', async () => {
    const root = await add(admin, { name: 'Race root' });
    const before = await countRows();
    const answers = await Promise.all([1, 2, 3].map(() => admin.call('teamAdd', { name: 'Racer', parent_id: root.id })));
    expect(answers.filter((a) => a.body.code === ResultCode.OK)).toHaveLength(1);
    for (const a of answers.filter((x) => x.body.code !== ResultCode.OK)) {
      expect(a.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Another department under the same parent is already named "Racer"' });
    }
    expect(await countRows()).toBe(before + 1);
    // The index itself: a second live top-level row of one name cannot be written even past the handlers.
    const row = { description: '', notes: '', state: 10, company_id: 'wk', sort: 0, created_at: 1, updated_at: 1, parent_id: null };
    await server.db.insertInto('departments').values({ ...row, id: 'idx-a', name: 'Index top' }).execute();
    await expect(server.db.insertInto('departments').values({ ...row, id: 'idx-b', name: 'INDEX TOP' }).execute()).rejects.toThrow();
    await server.db.insertInto('departments').values({ ...row, id: 'idx-c', name: 'Index top', state: 20 }).execute();
  });

  it('needs team_list / team_add', async () => {
    const c = await userClient(server, { funList: ['menu_teamManage'] });
    expect((await c.call('teamList')).status).toBe(401);
    expect((await c.call('teamAdd', { name: 'No' })).status).toBe(401);
  });
});

describe('/team/edit', () => {
  it('renames, moves and re-sorts', async () => {
    const r1 = await add(admin, { name: 'Move root 1' });
    const r2 = await add(admin, { name: 'Move root 2' });
    const child = await add(admin, { name: 'Mover', parent_id: r1.id });
    const res = await admin.call<Department>('teamEdit', editOf(child, { parent_id: r2.id, name: 'Moved', description: 'd', notes: 'x', sort: 5 }));
    expect(res.body.data).toMatchObject({ id: child.id, parent_id: r2.id, name: 'Moved', description: 'd', notes: 'x', sort: 5, state: 10 });
    // To the top.
    expect((await admin.call<Department>('teamEdit', editOf(res.body.data, { parent_id: '' }))).body.data.parent_id).toBe('');
  });

  it('refuses cycles, foreign or deleted parents and sibling name clashes, changing nothing', async () => {
    const top = await add(admin, { name: 'Cycle top' });
    const mid = await add(admin, { name: 'Cycle mid', parent_id: top.id });
    const low = await add(admin, { name: 'Cycle low', parent_id: mid.id });
    const cycle = 'A department cannot be moved under itself or one of its sub-departments';
    expect((await admin.call('teamEdit', editOf(top, { parent_id: top.id }))).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: cycle });
    expect((await admin.call('teamEdit', editOf(top, { parent_id: low.id }))).body.msg).toBe(cycle);
    expect((await admin.call('teamEdit', editOf(mid, { parent_id: low.id }), { lang: 'zh' })).body.msg).toBe('不能把部门移动到它自己或它的下级部门之下');
    const foreign = await add(admin, { name: 'Cycle abroad', in_com_id: 'gzGh' });
    expect((await admin.call('teamEdit', editOf(low, { parent_id: foreign.id }))).body.msg).toBe('The parent department does not exist in the same company');
    const gone = await add(admin, { name: 'Cycle gone' });
    expect((await admin.call('teamDelete', { id: gone.id })).body.code).toBe(ResultCode.OK);
    expect((await admin.call('teamEdit', editOf(low, { parent_id: gone.id }))).body.msg).toBe('The parent department does not exist in the same company');
    await add(admin, { name: 'Taken', parent_id: mid.id });
    expect((await admin.call('teamEdit', editOf(low, { name: 'TAKEN' }))).body.msg).toBe('Another department under the same parent is already named "TAKEN"');
    expect((await admin.call('teamEdit', editOf(low, { state: 30 }))).body.msg).toBe('Field state is invalid');
    expect((await admin.call('teamEdit', { ...editOf(low), id: 'missing' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect(await rowOf(top.id)).toMatchObject({ parent_id: null, name: 'Cycle top' });
    expect(await rowOf(low.id)).toMatchObject({ parent_id: mid.id, name: 'Cycle low' });
  });

  it('state 20 deletes with the delete rules; state 10 restores under a live parent', async () => {
    const top = await add(admin, { name: 'State top' });
    const sub = await add(admin, { name: 'State sub', parent_id: top.id });
    expect((await admin.call('teamEdit', editOf(top, { state: 20 }))).body.msg).toBe('The department still has 0 users and 1 sub-department: move or delete them first');
    expect((await admin.call<Department>('teamEdit', editOf(sub, { state: 20 }))).body.data.state).toBe(20);
    expect((await admin.call<Department>('teamEdit', editOf(top, { state: 20 }))).body.data.state).toBe(20);
    // The sub cannot come back while its parent is deleted; the parent can, then the sub.
    expect((await admin.call('teamEdit', editOf(sub, { state: 10 }))).body.msg).toBe('The parent department does not exist in the same company');
    expect((await admin.call<Department>('teamEdit', editOf(top, { state: 10 }))).body.data.state).toBe(10);
    expect((await admin.call<Department>('teamEdit', editOf(sub, { state: 10 }))).body.data.state).toBe(10);
    // A restore whose name is taken meanwhile is refused.
    await admin.call('teamEdit', editOf(sub, { state: 20 }));
    await add(admin, { name: 'State sub', parent_id: top.id });
    expect((await admin.call('teamEdit', editOf(sub, { state: 10 }))).body.msg).toBe('Another department under the same parent is already named "State sub"');
  });

  it('needs team_edit', async () => {
    const d = await add(admin, { name: 'Locked' });
    const c = await userClient(server, { funList: ['team_list', 'team_add'] });
    expect((await c.call('teamEdit', editOf(d, { name: 'Changed' }))).status).toBe(401);
    expect((await rowOf(d.id)).name).toBe('Locked');
  });
});

describe('/team/delete', () => {
  it('refuses a department with users or sub-departments, naming how many', async () => {
    const top = await add(admin, { name: 'Busy' });
    await add(admin, { name: 'Busy child', parent_id: top.id });
    await add(admin, { name: 'Busy child 2', parent_id: top.id });
    const member = await addUser(server, { team: top.id });
    const res = await admin.call('teamDelete', { id: top.id });
    expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The department still has 1 user and 2 sub-departments: move or delete them first' });
    expect((await admin.call('teamDelete', { id: top.id }, { lang: 'zh' })).body.msg).toBe('该部门还有 1 名用户和 2 个下级部门，请先移走或删除它们');
    expect((await rowOf(top.id)).state).toBe(10);
    expect((await server.db.selectFrom('users').select('team').where('u_id', '=', member.u_id).executeTakeFirstOrThrow()).team).toBe(top.id);
  });

  it('deletes an empty department (deleted users lose it) and refuses a second delete', async () => {
    const d = await add(admin, { name: 'Empty soon' });
    const gone = await addUser(server, { team: d.id, state: 20 });
    const res = await admin.call<Department>('teamDelete', { id: d.id });
    expect(res.body.data).toMatchObject({ id: d.id, state: 20 });
    expect((await server.db.selectFrom('users').select('team').where('u_id', '=', gone.u_id).executeTakeFirstOrThrow()).team).toBe('');
    expect((await admin.call('teamDelete', { id: d.id })).body.msg).toBe('This department is already deleted');
    // Listed as deleted; its name is free again.
    expect(find((await admin.call<Tree>('teamList')).body.data.list, d.id)!.state).toBe(20);
    expect((await add(admin, { name: 'Empty soon' })).state).toBe(10);
    expect((await admin.call('teamDelete', { id: '' })).body.msg).toBe('Field id is required');
  });

  it('needs team_delete', async () => {
    const d = await add(admin, { name: 'Protected' });
    const c = await userClient(server, { funList: ['team_list', 'team_edit'] });
    expect((await c.call('teamDelete', { id: d.id })).status).toBe(401);
    expect((await rowOf(d.id)).state).toBe(10);
    const allowed = await userClient(server, { funList: ['team_delete'] });
    expect((await allowed.call('teamDelete', { id: d.id })).body.code).toBe(ResultCode.OK);
  });
});
