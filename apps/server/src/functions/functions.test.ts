import {
  CALL_LIST,
  DEVICE_PUSH_FUNCTION,
  ResultCode,
  SUPER_ADMINISTRATOR,
  functionItemSchema,
  menuFunctionIds,
  type FunctionItem,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, adminClient, startTestServer, userClient, type TestServer } from '../../test/helpers.js';
import { USER_EDIT_FUNCTION, seedFunctionRows, seedFunctions } from './seed.js';

let server: TestServer;
let admin: TestClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

type ListData = { list: FunctionItem[]; total: number };

describe('seeded functions', () => {
  it('cover every menu entry, every protected call, user_edit, device_10 and super_administrator', () => {
    const ids = seedFunctions().map((f) => f.fun_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of menuFunctionIds()) expect(ids).toContain(id);
    for (const def of CALL_LIST) if (def.access !== 'public' && def.access !== 'session') expect(ids).toContain(def.access);
    for (const id of [USER_EDIT_FUNCTION, DEVICE_PUSH_FUNCTION, SUPER_ADMINISTRATOR]) expect(ids).toContain(id);
  });

  it('have readable names in both languages', () => {
    const byId = new Map(seedFunctions().map((f) => [f.fun_id, f]));
    expect(byId.get('menu_home')).toMatchObject({ name: '菜单：数据大屏', name_en: 'Menu: Data screen' });
    expect(byId.get('user_list')).toMatchObject({ name: '用户列表', name_en: 'List users' });
    expect(byId.get(DEVICE_PUSH_FUNCTION)).toMatchObject({ name: '设备推送', name_en: 'Device push' });
    // The analysis and recordings screens are menu entries of their own, so an administrator can grant them.
    expect(byId.get('menu_dataAnalyse')).toMatchObject({ name: '菜单：数据分析', name_en: 'Menu: Data analysis' });
    expect(byId.get('menu_videoList')).toMatchObject({ name: '菜单：外置相机录像', name_en: 'Menu: Outside camera recordings' });
    for (const f of seedFunctions()) {
      expect(f.name.length).toBeGreaterThan(0);
      expect(f.name_en.length).toBeGreaterThan(0);
    }
  });
});

describe('seeding an existing installation', () => {
  it('adds the menu functions it lacks (a database from before an entry existed) and leaves the rest', async () => {
    const added = ['menu_dataAnalyse', 'menu_videoList'];
    await server.db.deleteFrom('functions').where('fun_id', 'in', added).execute();
    expect(await seedFunctionRows(server.db)).toBe(added.length);
    const rows = await server.db.selectFrom('functions').select(['fun_id', 'name_en']).where('fun_id', 'in', added).orderBy('fun_id').execute();
    expect(rows).toEqual([
      { fun_id: 'menu_dataAnalyse', name_en: 'Menu: Data analysis' },
      { fun_id: 'menu_videoList', name_en: 'Menu: Outside camera recordings' },
    ]);
    expect(await seedFunctionRows(server.db)).toBe(0);
  });
});

describe('/fun/list', () => {
  it('lists every function in seed order with the function item fields', async () => {
    const res = await admin.call<ListData>('funList');
    expect(res.body.code).toBe(ResultCode.OK);
    const { list, total } = res.body.data;
    expect(total).toBe(list.length);
    expect(list.map((f) => f.fun_id)).toEqual(seedFunctions().map((f) => f.fun_id));
    for (const item of list) expect(functionItemSchema.strict().parse(item)).toEqual(item);
  });

  it('filters by search (case-insensitive, wildcards literal) and state', async () => {
    const search = await admin.call<ListData>('funList', { search: 'DEVICE PUSH' });
    expect(search.body.data.list.map((f) => f.fun_id)).toEqual([DEVICE_PUSH_FUNCTION]);
    const zh = await admin.call<ListData>('funList', { search: '用户列表' });
    expect(zh.body.data.list.map((f) => f.fun_id)).toEqual(['user_list']);
    const wildcard = await admin.call<ListData>('funList', { search: '%' });
    expect(wildcard.body.data.total).toBe(0);
    const byId = await admin.call<ListData>('funList', { search: 'user_' });
    expect(byId.body.data.list.every((f) => /user_/.test(f.fun_id) || /user_/i.test(f.name_en) || /user_/.test(f.description))).toBe(true);

    await server.db.updateTable('functions').set({ state: 20 }).where('fun_id', '=', 'menu_googleMap').execute();
    const deleted = await admin.call<ListData>('funList', { state: '20' });
    expect(deleted.body.data.list.map((f) => f.fun_id)).toEqual(['menu_googleMap']);
    const normal = await admin.call<ListData>('funList', { state: 10 });
    expect(normal.body.data.list.map((f) => f.fun_id)).not.toContain('menu_googleMap');
  });

  it('refuses bad input naming the field', async () => {
    expect((await admin.call('funList', { state: '99' })).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Field state is invalid' });
    expect((await admin.call('funList', { state: '12345' })).body).toMatchObject({ msg: 'Field state is too long' });
    expect((await admin.call('funList', { search: 's'.repeat(65) })).body).toMatchObject({ msg: 'Field search is too long' });
  });

  it('needs the function fun_list', async () => {
    const limited = await userClient(server, { funList: ['menu_home'] });
    const res = await limited.call('funList');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
    const allowed = await userClient(server, { funList: ['fun_list'] });
    expect((await allowed.call('funList')).body.code).toBe(ResultCode.OK);
  });
});

const addFields = (over: Record<string, string | number> = {}) => ({
  name: '巡检报表',
  name_en: 'Inspection reports',
  fun_id: `report_${Date.now() % 1e6}_${Math.floor(Math.random() * 1000)}`,
  description: '查看巡检报表 / Reads inspection reports',
  notes: '',
  ...over,
});
const countFunctions = async () => Number((await server.db.selectFrom('functions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('/fun/add', () => {
  it('adds a function at the end of the list, in state 10 unless told', async () => {
    const fields = addFields({ notes: 'custom' });
    const res = await admin.call<FunctionItem>('funAdd', fields);
    expect(res.body.code).toBe(ResultCode.OK);
    expect(functionItemSchema.strict().parse(res.body.data)).toEqual({ ...fields, state: 10 });
    const list = (await admin.call<ListData>('funList')).body.data.list;
    expect(list.at(-1)!.fun_id).toBe(fields.fun_id);
    const deleted = await admin.call<FunctionItem>('funAdd', addFields({ state: 20 }));
    expect(deleted.body.data.state).toBe(20);
  });

  it('refuses missing fields, unsafe ids and taken ids (case-insensitively), changing nothing', async () => {
    const before = await countFunctions();
    for (const field of ['name', 'name_en', 'fun_id', 'description'] as const) {
      expect((await admin.call('funAdd', addFields({ [field]: '' }))).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: `Field ${field} is required` });
    }
    for (const fun_id of ['1abc', 'a b', 'a-b', '<b>', 'x'.repeat(65)]) {
      expect((await admin.call('funAdd', addFields({ fun_id }))).body.code).toBe(ResultCode.BAD_REQUEST);
    }
    expect((await admin.call('funAdd', addFields({ fun_id: 'a.b' }))).body.msg).toBe('Field fun_id is invalid');
    expect((await admin.call('funAdd', addFields({ fun_id: 'USER_LIST' }))).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The function id user_list already exists' });
    expect((await admin.call('funAdd', addFields({ fun_id: 'user_list' }), { lang: 'zh' })).body.msg).toBe('功能标识 user_list 已存在');
    expect((await admin.call('funAdd', addFields({ state: 15 }))).body.msg).toBe('Field state is invalid');
    expect(await countFunctions()).toBe(before);
  });

  it('only a super administrator adds functions (one catalogue for every company)', async () => {
    const before = await countFunctions();
    const c = await userClient(server, { funList: ['fun_list', 'fun_add', 'fun_edit'] });
    const res = await c.call('funAdd', addFields());
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await countFunctions()).toBe(before);
    const allowed = await userClient(server, { companyId: 'gzGh', funList: [SUPER_ADMINISTRATOR] });
    expect((await allowed.call('funAdd', addFields())).body.code).toBe(ResultCode.OK);
  });
});

describe('/fun/edit', () => {
  it('edits the texts and notes; fun_id names the function and stays', async () => {
    const fields = addFields();
    await admin.call('funAdd', fields);
    const res = await admin.call<FunctionItem>('funEdit', { ...fields, name: '新名称', name_en: 'New name', description: 'Changed', notes: 'n', state: 10 });
    expect(res.body.data).toEqual({ fun_id: fields.fun_id, name: '新名称', name_en: 'New name', description: 'Changed', notes: 'n', state: 10 });
    expect((await admin.call('funEdit', { ...fields, fun_id: 'no_such_function', state: 10 })).body).toMatchObject({
      code: ResultCode.NOT_FOUND_OBJECT,
      msg: 'The function no_such_function does not exist',
    });
  });

  it('refuses bad input and keeps the row', async () => {
    const fields = addFields();
    await admin.call('funAdd', fields);
    expect((await admin.call('funEdit', { ...fields, name: '', state: 10 })).body.msg).toBe('Field name is required');
    expect((await admin.call('funEdit', { ...fields, description: ' ', state: 10 })).body.msg).toBe('Field description is required');
    expect((await admin.call('funEdit', { ...fields, state: 15 })).body.msg).toBe('Field state is invalid');
    expect((await admin.call('funEdit', { ...fields, name_en: 'x'.repeat(65), state: 10 })).body.msg).toBe('Field name_en is too long');
    const row = await server.db.selectFrom('functions').selectAll().where('fun_id', '=', fields.fun_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: fields.name, name_en: fields.name_en, description: fields.description, state: 10 });
  });

  it('a deleted function grants nothing from the next call on, is listed as deleted, and a restore gives it back', async () => {
    const c = await userClient(server, { funList: ['fun_list', 'user_list'] });
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
    const item = (await admin.call<ListData>('funList', { search: 'fun_list' })).body.data.list.find((f) => f.fun_id === 'fun_list')!;
    expect((await admin.call('funEdit', { ...item, state: 20 })).body.code).toBe(ResultCode.OK);
    const denied = await c.call('funList');
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe(ResultCode.NO_PERMISSION);
    // The user keeps it on file; userInfo and a new sign-in answer only what grants access now.
    expect((await c.call<{ fun_list: string[] }>('userInfo')).body.data.fun_list).toEqual(['user_list']);
    expect((await new TestClient(server).login(c.account.account, c.account.password)).body.data.fun_list).toEqual(['user_list']);
    const deleted = await admin.call<ListData>('funList', { state: 20 });
    expect(deleted.body.data.list.map((f) => f.fun_id)).toContain('fun_list');
    // A super administrator is not affected.
    expect((await admin.call('funList')).body.code).toBe(ResultCode.OK);
    expect((await admin.call('funEdit', { ...item, state: 10 })).body.code).toBe(ResultCode.OK);
    expect((await c.call('funList')).body.code).toBe(ResultCode.OK);
  });

  it('will not delete super_administrator', async () => {
    const item = (await admin.call<ListData>('funList', { search: 'super_administrator' })).body.data.list.find((f) => f.fun_id === SUPER_ADMINISTRATOR)!;
    const res = await admin.call('funEdit', { ...item, state: 20 });
    expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The super administrator function cannot be deleted' });
    expect((await admin.call('funEdit', { ...item, notes: 'still here', state: 10 })).body.code).toBe(ResultCode.OK);
  });

  it('only a super administrator edits functions', async () => {
    const fields = addFields();
    await admin.call('funAdd', fields);
    const c = await userClient(server, { funList: ['fun_list', 'fun_add', 'fun_edit'] });
    expect((await c.call('funEdit', { ...fields, state: 20 })).status).toBe(401);
    const row = await server.db.selectFrom('functions').select('state').where('fun_id', '=', fields.fun_id).executeTakeFirstOrThrow();
    expect(row.state).toBe(10);
  });
});
