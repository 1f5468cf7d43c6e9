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
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { USER_EDIT_FUNCTION, seedFunctions } from './seed.js';

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
    for (const f of seedFunctions()) {
      expect(f.name.length).toBeGreaterThan(0);
      expect(f.name_en.length).toBeGreaterThan(0);
    }
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
