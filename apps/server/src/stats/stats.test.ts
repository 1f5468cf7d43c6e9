import {
  CheckingType,
  INSPECTION_RECORD_LIMIT,
  ResultCode,
  STATIC_RESOURCES,
  STATIC_TOKEN_HEADER,
  analysisSchema,
  callFunId,
  equipmentRecordSchema,
  rankingSchema,
  realtimeMessageSchema,
  type Analysis,
  type Ranking,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { registerDevice } from '../../test/live.js';
import type { LiveDevice } from '../link/adapter.js';
import { addAlarm, addResult, addSortie, iso } from './test-fixtures.js';

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
let noFun: TestClient;
let admin: TestClient;

// Around the CST (UTC+8) midnight between 1 and 2 March 2026: 16:00 UTC.
const BEFORE_MIDNIGHT = iso('2026-03-01T15:30:00Z');
const AFTER_MIDNIGHT = iso('2026-03-01T16:30:00Z');
const LONG_AGO = iso('2025-01-01T00:00:00Z');

beforeAll(async () => {
  server = await startTestServer();
  for (const sn of ['ST-A', 'ST-B', 'ST-C']) await registerDevice(server, { sn_id: sn, airport_name: `Nest ${sn.slice(3)}` });
  await registerDevice(server, { sn_id: 'ST-G', company_id: 'gzGh', airport_name: 'Nest G' });
  await server.db.updateTable('devices').set({ created_at: LONG_AGO }).execute();
  const db = server.db;
  // wk: A flies 3 times (one still open), B once; gzGh: G 5 times.
  const a1 = await addSortie(db, { sn: 'ST-A', start: BEFORE_MIDNIGHT, end: BEFORE_MIDNIGHT + 600, distance: 1000, mission: 'East fence' });
  await addSortie(db, { sn: 'ST-A', start: AFTER_MIDNIGHT, end: AFTER_MIDNIGHT + 300, distance: 500, mission: 'East fence' });
  await addSortie(db, { sn: 'ST-A', start: AFTER_MIDNIGHT + 3600, end: null, distance: 0, mission: '' });
  await addSortie(db, { sn: 'ST-B', start: AFTER_MIDNIGHT + 60, end: AFTER_MIDNIGHT + 1260, distance: 3000, mission: 'River' });
  for (let i = 0; i < 5; i++) await addSortie(db, { sn: 'ST-G', company: 'gzGh', start: BEFORE_MIDNIGHT + i, distance: 9000 });
  await addResult(db, { sn: 'ST-A', sortId: a1, type: 10, takenAt: BEFORE_MIDNIGHT + 10 });
  await addResult(db, { sn: 'ST-A', sortId: a1, type: 10, takenAt: BEFORE_MIDNIGHT + 20 });
  await addResult(db, { sn: 'ST-A', type: 15, takenAt: AFTER_MIDNIGHT + 10 });
  await addResult(db, { sn: 'ST-B', type: 20, takenAt: AFTER_MIDNIGHT + 100 });
  for (let i = 0; i < 10; i++) await addResult(db, { sn: 'ST-G', company: 'gzGh', takenAt: BEFORE_MIDNIGHT + i });
  await addAlarm(db, { sn: 'ST-A', level: 30, kind: 'battery_critical', value: 9, raisedAt: BEFORE_MIDNIGHT + 100 });
  await addAlarm(db, { sn: 'ST-B', level: 10, kind: 'rain', state: 20, value: 3.25, raisedAt: AFTER_MIDNIGHT + 200 });
  await addAlarm(db, { sn: 'ST-G', company: 'gzGh', level: 20, raisedAt: AFTER_MIDNIGHT });
  // A online for the whole 15:00 hour and half of the 16:00 hour (UTC).
  await db
    .insertInto('device_uptime')
    .values([
      { sn_id: 'ST-A', company_id: 'wk', hour: Date.parse('2026-03-01T15:00:00Z'), seconds: 3600 },
      { sn_id: 'ST-A', company_id: 'wk', hour: Date.parse('2026-03-01T16:00:00Z'), seconds: 1800 },
      { sn_id: 'ST-G', company_id: 'gzGh', hour: Date.parse('2026-03-01T16:00:00Z'), seconds: 3600 },
    ])
    .execute();
  const funs = ['menu_home', callFunId('/ins/ranking'), callFunId('/data/analyse')];
  wk = await userClient(server, { funList: funs });
  gz = await userClient(server, { funList: funs, companyId: 'gzGh' });
  noFun = await userClient(server, { funList: ['menu_users'] });
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

const rank = async (client: TestClient, fields: Record<string, string | number>) => {
  const res = await client.call<Ranking>('insRanking', fields);
  expect(res.body.code).toBe(ResultCode.OK);
  return rankingSchema.parse(res.body.data);
};

describe('/ins/ranking', () => {
  it('ranks the company devices by sorties, metres and results, zero-valued devices last', async () => {
    const byCount = await rank(wk, { type: 10 });
    expect(byCount.list.map((r) => [r.rank, r.sn_id, r.name, r.value])).toEqual([
      [1, 'ST-A', 'Nest A', 3],
      [2, 'ST-B', 'Nest B', 1],
      [3, 'ST-C', 'Nest C', 0],
    ]);
    expect((await rank(wk, { type: 20 })).list.map((r) => [r.sn_id, r.value])).toEqual([
      ['ST-B', 3000],
      ['ST-A', 1500],
      ['ST-C', 0],
    ]);
    expect((await rank(wk, { type: 30 })).list.map((r) => [r.sn_id, r.value])).toEqual([
      ['ST-A', 3],
      ['ST-B', 1],
      ['ST-C', 0],
    ]);
  });

  it('limits to size and to the period', async () => {
    expect((await rank(wk, { type: 10, size: 1 })).list.map((r) => r.sn_id)).toEqual(['ST-A']);
    const late = await rank(wk, { type: 10, start_time: AFTER_MIDNIGHT, end_time: AFTER_MIDNIGHT + 120 });
    expect(late.list.map((r) => [r.sn_id, r.value])).toEqual([
      ['ST-A', 1],
      ['ST-B', 1],
      ['ST-C', 0],
    ]);
  });

  it('keeps to the company; the super administrator sees every company', async () => {
    expect((await rank(gz, { type: 10 })).list.map((r) => [r.sn_id, r.value])).toEqual([['ST-G', 5]]);
    const all = await rank(admin, { type: 10, size: 100 });
    expect(all.list[0]).toMatchObject({ sn_id: 'ST-G', value: 5 });
    expect(all.list.map((r) => r.sn_id)).toEqual(expect.arrayContaining(['ST-A', 'ST-B', 'ST-C', 'ST-G']));
  });

  it('refuses a bad type and a caller without the function', async () => {
    expect((await wk.call('insRanking', { type: 40 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('insRanking', { type: 10, size: 0 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await noFun.call('insRanking', { type: 10 })).body.code).toBe(ResultCode.NO_PERMISSION);
  });
});

describe('/data/analyse', () => {
  // 1 and 2 March in CST: [28 Feb 16:00 UTC, 2 Mar 16:00 UTC).
  const period = { start_time: iso('2026-02-28T16:00:00Z'), end_time: iso('2026-03-02T16:00:00Z') - 1 };
  const analyse = async (client: TestClient, fields: Record<string, string | number>) => {
    const res = await client.call<Analysis>('dataAnalyse', fields);
    expect(res.body.code).toBe(ResultCode.OK);
    return analysisSchema.parse(res.body.data);
  };

  it('buckets by calendar day in the caller time zone', async () => {
    const a = await analyse(wk, period);
    expect(a.days.map((d) => d.day)).toEqual(['2026-03-01', '2026-03-02']);
    const [d1, d2] = a.days;
    expect(d1).toMatchObject({ day: '2026-03-01', sorties: 1, flight_seconds: 600, distance: 1000, results: { '10': 2, '15': 0, '20': 0 } });
    expect(d1!.alarms).toEqual({ '10': 0, '20': 0, '30': 1 });
    // The open sortie counts as a sortie, not yet as time or distance.
    expect(d2).toMatchObject({ sorties: 3, flight_seconds: 300 + 1200, distance: 3500, results: { '10': 0, '15': 1, '20': 1 } });
    expect(d2!.alarms).toEqual({ '10': 1, '20': 0, '30': 0 });
    expect(a.totals).toEqual({ sorties: 4, flight_seconds: 2100, distance: 4500, results: { '10': 2, '15': 1, '20': 1 }, alarms: { '10': 1, '20': 0, '30': 1 } });

    // In UTC every one of them falls on 1 March.
    const utc = await analyse(wk, { start_time: iso('2026-03-01T00:00:00Z'), end_time: iso('2026-03-01T23:59:59Z'), tz_offset: 0 });
    expect(utc.days.map((d) => [d.day, d.sorties])).toEqual([['2026-03-01', 4]]);
  });

  it('answers per device: figures, online seconds and rate, utilisation', async () => {
    const a = await analyse(wk, period);
    const byId = Object.fromEntries(a.devices.map((d) => [d.sn_id, d]));
    expect(Object.keys(byId).sort()).toEqual(['ST-A', 'ST-B', 'ST-C']);
    const seconds = 2 * 86_400;
    expect(byId['ST-A']).toMatchObject({ name: 'Nest A', sorties: 3, flight_seconds: 900, distance: 1500, results: 3, alarms: 1, online_seconds: 5400, utilisation: 1 });
    expect(byId['ST-A']!.online_rate).toBeCloseTo(5400 / seconds, 6);
    expect(byId['ST-B']).toMatchObject({ sorties: 1, results: 1, alarms: 1, online_seconds: 0, online_rate: 0, utilisation: 0.5 });
    expect(byId['ST-C']).toMatchObject({ sorties: 0, utilisation: 0, online_rate: 0 });
  });

  it('counts an hour partly inside the period pro rata, and clips the rate to the device creation', async () => {
    // From 16:30 UTC: half of the 16:00 hour (1800 s online) is inside.
    const a = await analyse(wk, { start_time: iso('2026-03-01T16:30:00Z'), end_time: iso('2026-03-01T17:29:59Z'), sn_ids: 'ST-A' });
    expect(a.devices.map((d) => [d.sn_id, d.online_seconds])).toEqual([['ST-A', 900]]);
    expect(a.devices[0]!.online_rate).toBeCloseTo(900 / 3600, 6);
    // The current hour counts as long as it has lasted: a period ending now gets all of its seconds.
    const now = Math.floor(Date.now() / 1000);
    const hourStart = now - (now % 3600);
    await server.db.insertInto('device_uptime').values({ sn_id: 'ST-C', company_id: 'wk', hour: hourStart * 1000, seconds: 1 }).execute();
    try {
      const cur = await analyse(wk, { start_time: hourStart, end_time: now, sn_ids: 'ST-C' });
      expect(cur.devices[0]!.online_seconds).toBe(1);
    } finally {
      await server.db.deleteFrom('device_uptime').where('sn_id', '=', 'ST-C').execute();
    }
    // B created at noon CST on 2 March, online one hour after: 1 day of 1 with a sortie, 1 hour of 12.
    await server.db.updateTable('devices').set({ created_at: iso('2026-03-02T04:00:00Z') }).where('sn_id', '=', 'ST-B').execute();
    await server.db.insertInto('device_uptime').values({ sn_id: 'ST-B', company_id: 'wk', hour: Date.parse('2026-03-02T05:00:00Z'), seconds: 3600 }).execute();
    try {
      const b = await analyse(wk, { ...period, sn_ids: 'ST-B' });
      expect(b.devices[0]).toMatchObject({ sn_id: 'ST-B', utilisation: 1, online_seconds: 3600 });
      expect(b.devices[0]!.online_rate).toBeCloseTo(3600 / 43_200, 6);
    } finally {
      await server.db.updateTable('devices').set({ created_at: LONG_AGO }).where('sn_id', '=', 'ST-B').execute();
      await server.db.deleteFrom('device_uptime').where('sn_id', '=', 'ST-B').execute();
    }
  });

  it('keeps to the company and its devices', async () => {
    expect((await wk.call('dataAnalyse', { ...period, sn_ids: 'ST-A,ST-G' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('dataAnalyse', { ...period, sn_ids: 'NOPE' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const g = await analyse(gz, period);
    expect(g.devices.map((d) => d.sn_id)).toEqual(['ST-G']);
    expect(g.totals.sorties).toBe(5);
    expect(g.devices[0]!.online_seconds).toBe(3600);
  });

  it('refuses a reversed or too long period, a bad time zone, and a caller without the function', async () => {
    expect((await wk.call('dataAnalyse', { start_time: period.end_time, end_time: period.start_time })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('dataAnalyse', { start_time: 0, end_time: 400 * 86_400 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('dataAnalyse', { ...period, tz_offset: 900 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await noFun.call('dataAnalyse', period)).body.code).toBe(ResultCode.NO_PERMISSION);
  });
});

describe('data-screen resources', () => {
  const get = (url: string, token: string, lang = 'en') =>
    server.app.inject({ method: 'GET', url, headers: { [STATIC_TOKEN_HEADER]: token, 'accept-language': lang } });

  it('need a live session holding menu_home: 401 JSON otherwise', async () => {
    for (const url of Object.values(STATIC_RESOURCES)) {
      const none = await server.app.inject({ method: 'GET', url });
      expect(none.statusCode).toBe(401);
      expect(none.json().code).toBe(ResultCode.LOGIN_EXPIRED);
      expect(none.headers['cache-control']).toBe('no-store');
      expect((await get(url, 'forged-token')).statusCode).toBe(401);
      const refused = await get(url, noFun.token);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().code).toBe(ResultCode.NO_PERMISSION);
      const ok = await get(url, wk.token);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['cache-control']).toBe('no-store');
    }
  });

  it('inspection-leaderboard answers the ranking of /ins/ranking', async () => {
    const res = await get(`${STATIC_RESOURCES.inspectionLeaderboard}?type=20&size=2`, wk.token);
    expect(rankingSchema.parse(res.json())).toEqual(await rank(wk, { type: 20, size: 2 }));
    expect(res.json().list).toHaveLength(2);
    const def = await get(STATIC_RESOURCES.inspectionLeaderboard, gz.token);
    expect(def.json()).toEqual({ type: 10, list: [{ rank: 1, sn_id: 'ST-G', name: 'Nest G', value: 5 }] });
    const bad = await get(`${STATIC_RESOURCES.inspectionLeaderboard}?type=99`, wk.token);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe(ResultCode.BAD_REQUEST);
  });

  it('checking-type lists the options in both languages', async () => {
    const res = await get(STATIC_RESOURCES.checkingType, wk.token);
    expect(res.json()).toEqual(CheckingType.entries.map((e) => ({ value: e.value, label: e.label })));
  });

  it('realtime-message: alarms and sorties of the company, newest first, in both languages', async () => {
    const list = realtimeMessageSchema.array().parse((await get(STATIC_RESOURCES.realtimeMessage, wk.token)).json());
    expect(list.every((m) => ['ST-A', 'ST-B'].includes(m.sn_id))).toBe(true);
    const times = list.map((m) => m.time);
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    // 4 starts, 3 ends, 2 alarms.
    expect(list).toHaveLength(9);
    const alarm = list.find((m) => m.kind === 'alarm' && m.level === 30)!;
    expect(alarm).toMatchObject({ sn_id: 'ST-A', device_name: 'Nest A', time: (BEFORE_MIDNIGHT + 100) * 1000 });
    expect(alarm.text).toEqual({ zh: '电池电量严重不足：9%', en: 'Critically low battery: 9%' });
    const start = list.find((m) => m.kind === 'sortie_start' && m.sn_id === 'ST-B')!;
    expect(start.text).toEqual({ zh: 'Nest B 开始执行航线「River」', en: 'Nest B started route "River"' });
    const end = list.find((m) => m.kind === 'sortie_end' && m.sn_id === 'ST-B')!;
    expect(end.time).toBe((AFTER_MIDNIGHT + 1260) * 1000);
    expect(end.text.en).toBe('Nest B finished route "River"');
    const gzList = (await get(STATIC_RESOURCES.realtimeMessage, gz.token)).json() as { sn_id: string }[];
    expect(gzList.every((m) => m.sn_id === 'ST-G')).toBe(true);
    expect(gzList).toHaveLength(11);
  });

  it('equipment-record: the fleet from the live status and the database figures', async () => {
    const { live } = server.app.nest.deps;
    const device = live.link.device.bind(live.link);
    const holder = live.status.holder.bind(live.status);
    // A online, held and in the air; B online on the ground; C offline.
    live.link.device = (sn: string) =>
      sn === 'ST-A' || sn === 'ST-B'
        ? ({ sn, online: true, telemetry: { drone: { flight_state: sn === 'ST-A' ? 2 : 0 } } } as unknown as LiveDevice)
        : device(sn);
    live.status.holder = (sn: string) => (sn === 'ST-A' ? { u_id: 'u', nick: 'n', since: 0, renewedAt: Date.now() } : holder(sn));
    try {
      const r = equipmentRecordSchema.parse((await get(STATIC_RESOURCES.equipmentRecord, wk.token)).json());
      expect(r.devices).toEqual({ total: 3, online: 2, offline: 1, connected: 1, flying: 1 });
      expect(r.inspection).toEqual({
        sorties_total: 4,
        sorties_today: 0,
        flight_seconds_total: 2100,
        distance_total: 4500,
        results_total: 4,
        results_today: 0,
        results_by_type: { '10': 2, '15': 1, '20': 1 },
        alarms_pending: 1,
      });
      expect(r.records.map((s) => [s.sn_id, s.start_time, s.end_time])).toEqual([
        ['ST-A', AFTER_MIDNIGHT + 3600, 0],
        ['ST-B', AFTER_MIDNIGHT + 60, AFTER_MIDNIGHT + 1260],
        ['ST-A', AFTER_MIDNIGHT, AFTER_MIDNIGHT + 300],
        ['ST-A', BEFORE_MIDNIGHT, BEFORE_MIDNIGHT + 600],
      ]);
      expect(r.records[1]).toMatchObject({ device_name: 'Nest B', mission_name: 'River', distance: 3000 });
      const g = equipmentRecordSchema.parse((await get(STATIC_RESOURCES.equipmentRecord, gz.token)).json());
      expect(g.devices).toEqual({ total: 1, online: 0, offline: 1, connected: 0, flying: 0 });
      expect(g.inspection.sorties_total).toBe(5);
      expect(g.inspection.results_total).toBe(10);
      expect(g.records.length).toBeLessThanOrEqual(INSPECTION_RECORD_LIMIT);
    } finally {
      live.link.device = device;
      live.status.holder = holder;
    }
  });

  it('equipment-record counts today from the server midnight', async () => {
    const now = Math.floor(Date.now() / 1000);
    const id = await addSortie(server.db, { sn: 'ST-C', start: now - 5, end: null });
    await addResult(server.db, { sn: 'ST-C', sortId: id, takenAt: now - 1 });
    try {
      const r = equipmentRecordSchema.parse((await get(STATIC_RESOURCES.equipmentRecord, wk.token)).json());
      expect(r.inspection.sorties_today).toBe(1);
      expect(r.inspection.results_today).toBe(1);
      expect(r.records[0]).toMatchObject({ sn_id: 'ST-C', end_time: 0 });
    } finally {
      await server.db.deleteFrom('results').where('sort_id', '=', id).execute();
      await server.db.deleteFrom('sorties').where('id', '=', id).execute();
    }
  });
});
