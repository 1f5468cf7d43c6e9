import {
  APP_CODE,
  APP_IDS,
  PushMsgId,
  ResultCode,
  STATIC_RESOURCES,
  STATIC_TOKEN_HEADER,
  realtimeMessageSchema,
  type Alarm,
  type Lang,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, listen } from '../../test/live.js';
import { ensureDemoDevices } from './devices.js';
import { createDevice } from '../devices/store.js';
import { loadSimulator } from '../../test/simulator.js';
import { addAlarm, addSortie } from '../stats/test-fixtures.js';
import { seedDemoPlans } from './seed.js';

/**
 * Demo data is stored once and read in the caller's language (contracts demo-texts): the simulator's fleet,
 * its demo plans, the demo actor and the sentences that name them; what a user typed reads as typed.
 */
let server: TestServer;
let admin: TestClient;
const log = { info: () => undefined, warn: () => undefined } as never;
const NOW = Math.floor(Date.now() / 1000);
/** User-typed names, one close to a demo name: never translated. */
const TYPED = { nest: '东门机场 7号', uav: 'North gate UAV', route: '巡检 A01 东侧', address: 'Simulated (by hand)' };

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  const sim = await loadSimulator();
  // The fleet as the product starts it: one fixed nest (A01) and one single-soldier drone (D01).
  const specs = sim.demoFleet({ lat: 22.5431, lng: 114.0579 }, { nests: 1, drones: 1 }, 'TXT');
  await ensureDemoDevices(server.db, specs);
  const nest = specs.find((s) => s.kind === 'stable')!;
  await seedDemoPlans(server.app.nest.deps, [{ sn: nest.sn, name: nest.name, home: nest.home }], log);
  await createDevice(server.db, {
    type: 'stable',
    sn_id: 'TXT-TYPED-01',
    company_id: 'wk',
    airport_name: TYPED.nest,
    uav_name: TYPED.uav,
    address: TYPED.address,
    airport_point: { lat: 22.6, lng: 114.1 },
  });
  // The device list reads the directory: it learns of rows written past the server, as after the CLI.
  await server.app.nest.deps.live.directory.reload();
  await addSortie(server.db, { sn: 'TXT-ALONE-01', start: NOW - 600, end: NOW - 300, mission: '' });
  await addSortie(server.db, { sn: 'TXT-STABLE-01', start: NOW - 500, end: NOW - 200, mission: '巡检 A01' });
  await addSortie(server.db, { sn: 'TXT-TYPED-01', start: NOW - 400, end: NOW - 100, mission: TYPED.route });
  await addAlarm(server.db, { sn: 'TXT-ALONE-01', level: 20, kind: 'rain', value: 2, raisedAt: NOW - 50 });
});
afterAll(async () => server?.close());

interface DeviceItem {
  sn_id: string;
  airport_name: string;
  uav_name: string;
  address: string;
  description: string;
}

const devices = async (lang: Lang, search?: string): Promise<Map<string, DeviceItem>> => {
  const res = await admin.call<{ list: DeviceItem[] }>('deviceList', search ? { search } : {}, { lang });
  expect(res.body.code).toBe(ResultCode.OK);
  return new Map(res.body.data.list.map((d) => [d.sn_id, d]));
};

describe('demo data in the language of the reader', () => {
  it('stores the simulated fleet and its plans once, in Chinese', async () => {
    const rows = await server.db.selectFrom('devices').select(['sn_id', 'airport_name', 'uav_name', 'address']).orderBy('sn_id').execute();
    expect(rows.find((r) => r.sn_id === 'TXT-STABLE-01')).toMatchObject({ airport_name: '机场 A01', uav_name: '机场 A01 无人机' });
    expect(rows.find((r) => r.sn_id === 'TXT-ALONE-01')!.address).toMatch(/^模拟位置（/);
    const routes = await server.db.selectFrom('missions').select('name').orderBy('name').execute();
    expect(routes.map((r) => r.name)).toEqual(['巡检 A01', '测区 A01']);
  });

  it('answers device names, addresses and descriptions in English or Chinese', async () => {
    const en = await devices('en');
    expect(en.get('TXT-STABLE-01')).toMatchObject({ airport_name: 'Nest A01', uav_name: 'Nest A01 UAV', description: 'Simulated device (SIMULATOR=on)' });
    expect(en.get('TXT-ALONE-01')!.uav_name).toBe('Soldier D01');
    expect(en.get('TXT-ALONE-01')!.address).toMatch(/^Simulated \(\d+\.\d{4}, \d+\.\d{4}\)$/);
    const zh = await devices('zh');
    expect(zh.get('TXT-STABLE-01')).toMatchObject({ airport_name: '机场 A01', uav_name: '机场 A01 无人机', description: '模拟设备（SIMULATOR=on）' });
    expect(zh.get('TXT-ALONE-01')!.uav_name).toBe('单兵 D01');
    expect(zh.get('TXT-ALONE-01')!.address).toMatch(/^模拟位置（\d+\.\d{4}, \d+\.\d{4}）$/);
  });

  it('never translates what a user typed', async () => {
    for (const lang of ['en', 'zh'] as const) {
      expect((await devices(lang)).get('TXT-TYPED-01')).toMatchObject({ airport_name: TYPED.nest, uav_name: TYPED.uav, address: TYPED.address });
      const sorties = await admin.call<{ list: { sn_id: string; mission_name: string }[] }>('sortiesList', { page: 0, size: 50 }, { lang });
      expect(sorties.body.data.list.find((s) => s.sn_id === 'TXT-TYPED-01')!.mission_name).toBe(TYPED.route);
    }
  });

  it('answers routes, fences and sorties (route, device, demo actor) in the reader language', async () => {
    for (const [lang, patrol, fence] of [
      ['en', 'Patrol A01', 'Demo fence A01'],
      ['zh', '巡检 A01', '演示围栏 A01'],
    ] as const) {
      const routes = await admin.call<{ list: { name: string }[] }>('missionList', { page: 0, size: 50 }, { lang });
      expect(routes.body.data.list.map((r) => r.name)).toContain(patrol);
      const fences = await admin.call<{ list: { name: string }[] }>('fenceList', { page: 0, size: 50 }, { lang });
      expect(fences.body.data.list.map((f) => f.name)).toEqual([fence]);
      const sorties = await admin.call<{ list: { sn_id: string; mission_name: string }[] }>('sortiesList', { page: 0, size: 50 }, { lang });
      expect(sorties.body.data.list.find((s) => s.sn_id === 'TXT-STABLE-01')!.mission_name).toBe(patrol);
    }
  });

  it('finds a demo name by the words of either language', async () => {
    expect([...(await devices('en', 'Nest A0')).keys()]).toEqual(['TXT-STABLE-01']);
    expect([...(await devices('en', 'soldier')).keys()]).toEqual(['TXT-ALONE-01']);
    const routes = await admin.call<{ list: { name: string }[] }>('missionList', { page: 0, size: 50, search: 'patrol' }, { lang: 'en' });
    expect(routes.body.data.list.map((r) => r.name)).toEqual(['Patrol A01']);
  });

  it('composes the real-time messages per language with the demo names of that language', async () => {
    const get = async (lang: Lang) => {
      const res = await server.app.inject({
        method: 'GET',
        url: STATIC_RESOURCES.realtimeMessage,
        headers: { [STATIC_TOKEN_HEADER]: admin.token, 'accept-language': lang },
      });
      return realtimeMessageSchema.array().parse(res.json());
    };
    const en = await get('en');
    const start = en.find((m) => m.kind === 'sortie_start' && m.sn_id === 'TXT-ALONE-01')!;
    expect(start.device_name).toBe('Soldier D01');
    expect(start.text).toEqual({ zh: '单兵 D01 起飞', en: 'Soldier D01 took off' });
    const patrolEnd = en.find((m) => m.kind === 'sortie_end' && m.sn_id === 'TXT-STABLE-01')!;
    expect(patrolEnd.text).toEqual({ zh: '机场 A01 完成航线「巡检 A01」', en: 'Nest A01 finished route "Patrol A01"' });
    const typed = en.find((m) => m.kind === 'sortie_end' && m.sn_id === 'TXT-TYPED-01')!;
    expect(typed.text).toEqual({ zh: `${TYPED.nest} 完成航线「${TYPED.route}」`, en: `${TYPED.nest} finished route "${TYPED.route}"` });
    expect(en.find((m) => m.kind === 'alarm')!.device_name).toBe('Soldier D01');
    expect((await get('zh')).find((m) => m.kind === 'alarm')!.device_name).toBe('单兵 D01');
  });

  it('pushes alarms with the device named in each socket language', async () => {
    const listed = await admin.call<{ list: Alarm[] }>('alarmList', { page: 0, size: 10 }, { lang: 'en' });
    const alarm = listed.body.data.list.find((a) => a.sn_id === 'TXT-ALONE-01')!;
    expect(alarm.device_name).toBe('Soldier D01');
    const base = await listen(server);
    const sockets = await Promise.all((['en', 'zh'] as const).map(async (lang) => {
      const s = await PushSocket.open(base);
      const verified = await s.request(PushMsgId.USER_VERIFY, {
        token: admin.token,
        app_ids: APP_IDS,
        app_code: APP_CODE,
        licence: await admin.licence(),
        os_language: lang,
      });
      expect(verified.code).toBe(ResultCode.OK);
      return s;
    }));
    try {
      // Stored form of the name, as the alarm monitor reads it from the database.
      server.app.nest.hub.broadcastAlarm('wk', { event: 'raised', alarm: { ...alarm, device_name: '单兵 D01' }, pending: 1 });
      const [en, zh] = await Promise.all(sockets.map((s) => s.wait((f) => f.msg_id === PushMsgId.ALARM)));
      expect((en!.data as { alarm: Alarm }).alarm.device_name).toBe('Soldier D01');
      expect((zh!.data as { alarm: Alarm }).alarm.device_name).toBe('单兵 D01');
    } finally {
      sockets.forEach((s) => s.close());
    }
  });
});
