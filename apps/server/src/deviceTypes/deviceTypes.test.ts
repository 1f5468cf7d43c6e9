import { ResultCode, type DeviceType, type Page } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPER_ADMINISTRATOR, adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { seedDeviceTypes } from './store.js';

let server: TestServer;
let admin: TestClient;
let manager: TestClient;
let chooser: TestClient;

async function must<D>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const rows = () => server.db.selectFrom('device_types').selectAll().orderBy('value').execute();

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  // A super administrator of another company: the catalogue is global, so the company does not matter, and
  // only a super administrator writes it.
  manager = await userClient(server, { companyId: 'gzGh', funList: [SUPER_ADMINISTRATOR] });
  chooser = await userClient(server, { funList: ['deviceType_list'] });
});
afterAll(async () => server?.close());

describe('device types', () => {
  it('seeds the four standard types once, and not again after they are deleted', async () => {
    const seeded = await rows();
    expect(seeded.map((r) => [r.value, Number(r.cla_type), Number(r.state)])).toEqual([
      ['alone', 200, 10],
      ['mobile', 100, 10],
      ['stable', 10, 10],
      ['stable_mini', 10, 10],
    ]);
    await seedDeviceTypes(server.db);
    expect(await rows()).toHaveLength(4);
  });

  it('lists with filters, search and paging', async () => {
    const all = await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 0, size: 2 });
    expect(all.total).toBe(4);
    expect(all.list).toHaveLength(2);
    const page2 = await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 1, size: 2 });
    expect(new Set([...all.list, ...page2.list].map((r) => r.value)).size).toBe(4);
    const fixed = await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 0, cla_type: 10 });
    expect(fixed.list.map((r) => r.value).sort()).toEqual(['stable', 'stable_mini']);
    const search = await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 0, search: 'MINI' });
    expect(search.list.map((r) => r.value)).toEqual(['stable_mini']);
    const like = await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 0, search: '%' });
    expect(like.total).toBe(0);
  });

  it('adds, edits, disables and deletes; /deviceType/list answers enabled ones only', async () => {
    const added = await must<DeviceType>(manager, 'deviceTypeAdd', { cla_type: 100, cla_name: '车载机场', value: 'vehicle', stream: 2, notes: 'truck' });
    expect(added).toMatchObject({ cla_type: 100, cla_name: '车载机场', value: 'vehicle', stream: 2, state: 10, notes: 'truck' });
    expect((await must<DeviceType[]>(chooser, 'deviceTypeList', { cla_type: 100 })).map((r) => r.value)).toEqual(['mobile', 'vehicle']);

    const edited = await must<DeviceType>(manager, 'deviceTypeEdit', { id: added.id, cla_type: 100, cla_name: 'Vehicle nest', value: 'vehicle', stream: 3, state: 20 });
    expect(edited).toMatchObject({ cla_name: 'Vehicle nest', stream: 3, state: 20, notes: 'truck' });
    expect((await must<DeviceType[]>(chooser, 'deviceTypeList', {})).map((r) => r.value)).not.toContain('vehicle');
    expect((await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 0, state: 20 })).list.map((r) => r.id)).toEqual([added.id]);

    await must(manager, 'deviceTypeEdit', { id: added.id, cla_type: 100, cla_name: 'Vehicle nest', value: 'vehicle', stream: 3, state: 30 });
    expect((await must<Page<DeviceType>>(admin, 'deviceTypeAdminList', { page: 0, search: 'vehicle' })).total).toBe(0);
    const again = await manager.call('deviceTypeEdit', { id: added.id, cla_type: 100, cla_name: 'x', value: 'vehicle', stream: 1, state: 10 });
    expect(again.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // The key is free again once the old entry is deleted.
    const reborn = await must<DeviceType>(manager, 'deviceTypeAdd', { cla_type: 100, cla_name: 'Vehicle', value: 'vehicle', stream: 1 });
    expect(reborn.id).not.toBe(added.id);
  });

  it('keeps one live entry per kind and key (add and edit), the same key under another kind is fine', async () => {
    const before = await rows();
    const dup = await manager.call('deviceTypeAdd', { cla_type: 10, cla_name: 'Copy', value: 'stable', stream: 1 }, { lang: 'zh' });
    expect(dup.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(dup.body.msg).toContain('stable');
    expect(await rows()).toEqual(before);

    const other = await must<DeviceType>(manager, 'deviceTypeAdd', { cla_type: 200, cla_name: 'Stable drone', value: 'stable', stream: 1 });
    const clash = await manager.call('deviceTypeEdit', { id: other.id, cla_type: 10, cla_name: 'Stable drone', value: 'stable', stream: 1, state: 10 });
    expect(clash.body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await server.db.selectFrom('device_types').select('cla_type').where('id', '=', other.id).executeTakeFirstOrThrow()).cla_type).toBe(200);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await rows();
    const bad: Fields[] = [
      { cla_type: 11, cla_name: 'x', value: 'x1', stream: 1 },
      { cla_type: 10, cla_name: '', value: 'x2', stream: 1 },
      { cla_type: 10, cla_name: 'x', value: 'has space', stream: 1 },
      { cla_type: 10, cla_name: 'x', value: 'x3', stream: 4 },
      { cla_type: 10, cla_name: 'x', value: 'x4', stream: 1, state: 30 },
      { cla_type: 10, cla_name: 'x'.repeat(65), value: 'x5', stream: 1 },
    ];
    for (const fields of bad) expect((await manager.call('deviceTypeAdd', fields)).body.code, JSON.stringify(fields)).toBe(ResultCode.BAD_REQUEST);
    const id = before[0]!.id;
    expect((await manager.call('deviceTypeEdit', { id, cla_type: 10, cla_name: 'x', value: 'v', stream: 1, state: 40 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await manager.call('deviceTypeEdit', { id: 'nope', cla_type: 10, cla_name: 'x', value: 'v', stream: 1, state: 10 })).body.code).toBe(
      ResultCode.NOT_FOUND_OBJECT,
    );
    expect(await rows()).toEqual(before);
  });

  it('needs the functions', async () => {
    const before = await rows();
    expect((await chooser.call('deviceTypeAdminList', { page: 0 })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await chooser.call('deviceTypeAdd', { cla_type: 10, cla_name: 'x', value: 'perm', stream: 1 })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await chooser.call('deviceTypeEdit', { id: before[0]!.id, cla_type: 10, cla_name: 'x', value: 'v', stream: 1, state: 30 })).body.code).toBe(
      ResultCode.NO_PERMISSION,
    );
    // A company's administrator holding the former write functions lists the catalogue but changes nothing.
    const companyAdmin = await userClient(server, { funList: ['deviceType_adminList', 'deviceType_add', 'deviceType_edit'] });
    expect((await companyAdmin.call('deviceTypeAdminList', { page: 0 })).body.code).toBe(ResultCode.OK);
    expect((await companyAdmin.call('deviceTypeAdd', { cla_type: 10, cla_name: 'x', value: 'perm', stream: 1 })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await companyAdmin.call('deviceTypeEdit', { id: before[0]!.id, cla_type: 10, cla_name: 'x', value: 'v', stream: 1, state: 30 })).body.code).toBe(
      ResultCode.NO_PERMISSION,
    );
    expect((await companyAdmin.call('deviceTypeList', {})).body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await rows()).toEqual(before);
  });
});
