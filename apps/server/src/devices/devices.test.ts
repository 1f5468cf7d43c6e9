import { DeviceTypeKey, ResultCode, deviceListItemSchema, type DeviceListItem } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { registerDevice } from '../../test/live.js';
import { InvalidSnError, SnTakenError, categoriesOfTypeFilter, createDevice } from './store.js';
import { ensureDemoDevices } from '../demo/devices.js';

let server: TestServer;
let admin: TestClient;
let wk: TestClient;
let gz: TestClient;

type Page = { list: DeviceListItem[]; total: number };

beforeAll(async () => {
  server = await startTestServer();
  admin = await adminClient(server);
  wk = await userClient(server, { funList: ['device_list', 'device_uav_type'] });
  gz = await userClient(server, { funList: ['device_list'], companyId: 'gzGh' });
  // wk: 7 fixed (5 stable + 2 mini), 2 mobile, 3 single-soldier; gzGh: 2.
  for (let i = 1; i <= 5; i++) await registerDevice(server, { sn_id: `DV-ST-${i}`, type: 'stable', airport_name: `Stable ${i}` });
  for (let i = 1; i <= 2; i++) await registerDevice(server, { sn_id: `DV-MI-${i}`, type: 'stable_mini', airport_name: `Mini ${i}` });
  for (let i = 1; i <= 2; i++) {
    await registerDevice(server, { sn_id: `DV-MO-${i}`, type: 'mobile', airport_name: `Mobile ${i}`, address: i === 1 ? 'Nanshan Harbour' : '' });
  }
  for (let i = 1; i <= 3; i++) await registerDevice(server, { sn_id: `DV-AL-${i}`, type: 'alone', airport_name: '', uav_name: `Drone ${i}` });
  for (let i = 1; i <= 2; i++) await registerDevice(server, { sn_id: `DV-GZ-${i}`, type: 'stable', airport_name: `GZ ${i}`, company_id: 'gzGh' });
});
afterAll(async () => server?.close());

const list = (c: TestClient, fields: Record<string, string | number> = {}) =>
  c.call<Page>('deviceList', { type: 0, page: 0, ...fields });

describe('/device/list', () => {
  it("answers the caller's company only, as DeviceListItems, offline ones sorted by name", async () => {
    const res = await list(wk);
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.total).toBe(12);
    for (const item of res.body.data.list) {
      deviceListItemSchema.parse(item);
      expect(item.company).toBe('wk');
      expect(item).toMatchObject({ state: 2, is_push_on: false, connected_by: null, stream_uav_list: [] });
    }
    expect(res.body.data.list.map((d) => d.name)).toEqual([
      'Drone 1', 'Drone 2', 'Drone 3', 'Mini 1', 'Mini 2', 'Mobile 1', 'Mobile 2',
      'Stable 1', 'Stable 2', 'Stable 3', 'Stable 4', 'Stable 5',
    ]);
    const gzList = await list(gz);
    expect(gzList.body.data.list.map((d) => d.sn_id)).toEqual(['DV-GZ-1', 'DV-GZ-2']);
  });

  it('shows a super administrator every company', async () => {
    const res = await list(admin);
    const sns = res.body.data.list.map((d) => d.sn_id);
    expect(sns).toEqual(expect.arrayContaining(['DV-ST-1', 'DV-GZ-1', 'DV-AL-3']));
    expect(res.body.data.total).toBe(14);
  });

  it('pages from 0 with size (default 200)', async () => {
    const p0 = await list(wk, { page: 0, size: 5 });
    const p1 = await list(wk, { page: 1, size: 5 });
    const p2 = await list(wk, { page: 2, size: 5 });
    expect(p0.body.data.list).toHaveLength(5);
    expect(p1.body.data.list).toHaveLength(5);
    expect(p2.body.data.list).toHaveLength(2);
    expect(p2.body.data.total).toBe(12);
    const all = [...p0.body.data.list, ...p1.body.data.list, ...p2.body.data.list].map((d) => d.sn_id);
    expect(new Set(all).size).toBe(12);
    expect((await list(wk, { page: 9, size: 5 })).body.data).toEqual({ list: [], total: 12 });
    expect((await wk.call<Page>('deviceList', { page: 0, type: 0 })).body.data.list).toHaveLength(12);
  });

  it('filters by kind code: 10 fixed (stable and mini), 100 mobile, 200 single-soldier', async () => {
    const kinds = async (type: number) => (await list(wk, { type })).body.data.list.map((d) => d.type);
    expect(await kinds(10)).toEqual([...Array(2).fill('stable_mini'), ...Array(5).fill('stable')]);
    expect(await kinds(100)).toEqual(['mobile', 'mobile']);
    expect(await kinds(200)).toEqual(['alone', 'alone', 'alone']);
    const bad = await list(wk, { type: 5 });
    expect(bad.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The device type filter must be 0 (all), 10, 100 or 200' });
    expect(categoriesOfTypeFilter(0)).toBe('all');
    expect(categoriesOfTypeFilter(10)).toEqual(['stable', 'stable_mini']);
  });

  it('searches sn, names and address, case-insensitively, LIKE wildcards taken literally', async () => {
    const sns = async (search: string, c = wk) => (await list(c, { search })).body.data.list.map((d) => d.sn_id).sort();
    expect(await sns('dv-al')).toEqual(['DV-AL-1', 'DV-AL-2', 'DV-AL-3']);
    expect(await sns('drone 2')).toEqual(['DV-AL-2']);
    expect(await sns('HARBOUR')).toEqual(['DV-MO-1']);
    expect(await sns('ST-3-UAV')).toEqual(['DV-ST-3']);
    expect(await sns('%')).toEqual([]);
    expect(await sns('_')).toEqual([]);
    expect(await sns('GZ')).toEqual([]);
    expect(await sns('GZ', gz)).toEqual(['DV-GZ-1', 'DV-GZ-2']);
  });

  it('needs the device_list function', async () => {
    const none = await userClient(server, { funList: [] });
    expect((await list(none)).status).toBe(401);
  });
});

describe('/device/uav/type', () => {
  it('answers the device type keys with labels in the caller language', async () => {
    const en = await wk.call<{ value: string; label: string }[]>('userGetDeviceType');
    expect(en.body).toMatchObject({ code: ResultCode.OK, data: DeviceTypeKey.options('en') });
    expect(en.body.data.map((t) => t.value)).toEqual(['stable', 'stable_mini', 'mobile', 'alone']);
    const zh = await wk.call<{ value: string; label: string }[]>('userGetDeviceType', {}, { lang: 'zh' });
    expect(zh.body.data[0]).toEqual({ value: 'stable', label: '固定机场' });
  });
});

describe('device store', () => {
  it('refuses the server user name and invalid serial numbers as device sns, and duplicates', async () => {
    for (const sn of ['nest-server', 'a/b', 'a+b', '#', '', 'x'.repeat(65)]) {
      await expect(createDevice(server.db, { type: 'stable', sn_id: sn, company_id: 'wk' })).rejects.toBeInstanceOf(InvalidSnError);
    }
    await expect(createDevice(server.db, { type: 'stable', sn_id: 'DV-ST-1', company_id: 'wk' })).rejects.toBeInstanceOf(SnTakenError);
  });

  it('registers demo devices once (idempotent)', async () => {
    const specs = [
      { sn: 'DEMO-STABLE-01', kind: 'stable' as const, name: 'Demo A01', uavSn: 'DEMO-STABLE-01-UAV', home: { lat: 22.5, lng: 114, alt: 30 } },
      { sn: 'DEMO-ALONE-01', kind: 'alone' as const, name: 'Demo D01', uavSn: 'DEMO-ALONE-01', home: { lat: 22.6, lng: 114.1, alt: 20 } },
    ];
    expect(await ensureDemoDevices(server.db, specs)).toEqual(['DEMO-STABLE-01', 'DEMO-ALONE-01']);
    expect(await ensureDemoDevices(server.db, specs)).toEqual([]);
    await server.app.nest.deps.live.directory.reload();
    const res = await list(wk, { search: 'DEMO-' });
    expect(res.body.data.list.map((d) => [d.sn_id, d.type, d.name, d.airport_point])).toEqual([
      ['DEMO-STABLE-01', 'stable', 'Demo A01', { lat: 22.5, lng: 114 }],
      ['DEMO-ALONE-01', 'alone', 'Demo D01', { lat: 22.6, lng: 114.1 }],
    ].sort((a, b) => String(a[2]).localeCompare(String(b[2]))));
  });
});
