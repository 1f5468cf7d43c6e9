import { ResultCode, type Waypoint } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, type TestServer } from '../../test/helpers.js';
import { ensureDemoDevices } from './devices.js';
import { createDevice, findDeviceBySn } from '../devices/store.js';
import { offset } from '../fences/test-fixtures.js';
import { alternateOf, fleetExtras, withAlternate } from './fleet.js';
import { liveIdle, startDemoLauncher } from './launcher.js';
import { labelOf } from './plans.js';
import { DEMO_SEEDED_KEY, patrolRouteOf, seedDemoPlans, type DemoNest } from './seed.js';

let server: TestServer;
const NESTS: DemoNest[] = [
  { sn: 'DEMO-T-N1', name: '机场 A01', home: offset(0, 0) },
  { sn: 'DEMO-T-N2', name: '机场 B01', home: offset(6000, 0) },
  { sn: 'DEMO-T-N3', name: '机场 C01', home: offset(0, 6000) },
];
const log = { info: () => undefined, warn: () => undefined } as never;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  for (const n of NESTS) await createDevice(server.db, { type: 'stable', sn_id: n.sn, company_id: 'wk', airport_point: n.home });
});
afterAll(async () => server?.close());

describe('demo plans', () => {
  it('gives each nest a fence, a patrol route and an area survey, once (a second run, or another instance, is a no-op)', async () => {
    const deps = server.app.nest.deps;
    // Two seeds at once, then another instance (a second connection to the same database) later. (Two
    // connections of one process cannot race on SQLite: better-sqlite3 waits for a lock synchronously.)
    const counts = await Promise.all([seedDemoPlans(deps, NESTS, log), seedDemoPlans(deps, NESTS, log)]);
    expect(counts.sort()).toEqual([0, 6]);
    expect(await seedDemoPlans({ ...deps, db: server.db }, NESTS, log)).toBe(0);
    const key = await server.db.selectFrom('settings').select('value').where('key', '=', DEMO_SEEDED_KEY).executeTakeFirstOrThrow();
    expect(JSON.parse(key.value)).toMatchObject({ routes: 6 });

    const fences = await server.db.selectFrom('fences').selectAll().where('sn_id', 'in', NESTS.map((n) => n.sn)).execute();
    expect(fences.map((f) => f.name).sort()).toEqual(['演示围栏 A01', '演示围栏 B01', '演示围栏 C01']);
    // One no-fly zone for the company (wk), near its first nest, with a bilingual name and reason.
    const zones = await server.db.selectFrom('no_fly_zones').selectAll().where('company_id', '=', 'wk').where('name', 'like', '演示禁飞区%').execute();
    expect(zones.map((z) => [z.name, z.reason, Number(z.shape), z.sn_id])).toEqual([['演示禁飞区 学校 A01', '上课时段禁止飞越校园（演示）', 2, '']]);

    // Read back through the console's own call (in English: the demo names' English forms): valid, stored routes of company wk.
    const admin = await adminClient(server);
    const res = await admin.call<{ list: { name: string; mission_type: number; sn_id: string; finish_action: number; waypoints: Waypoint[]; distance: number }[]; total: number }>(
      'missionList',
      { page: 0, size: 50 },
    );
    expect(res.body.code).toBe(ResultCode.OK);
    const routes = res.body.data.list.filter((m) => NESTS.some((n) => n.sn === m.sn_id));
    expect(routes).toHaveLength(6);
    const patrol = routes.find((m) => m.name === 'Patrol A01')!;
    expect(patrol).toMatchObject({ mission_type: 1, finish_action: 20 });
    expect(patrol.waypoints.length).toBeGreaterThanOrEqual(5);
    expect(patrol.waypoints.length).toBeLessThanOrEqual(8);
    expect(patrol.waypoints.every((w) => w.height >= 60 && w.height <= 100)).toBe(true);
    expect(patrol.waypoints.filter((w) => w.takephoto === 2)).toHaveLength(1);
    expect(patrol.waypoints.filter((w) => w.takephoto === 1).length).toBeGreaterThan(patrol.waypoints.length / 2);
    expect(patrol.waypoints.some((w) => w.gimbal_ctrl && w.gimbal_ctrl.pitch < 0)).toBe(true);
    const survey = routes.find((m) => m.name === 'Survey A01')!;
    expect(survey.mission_type).toBe(2);
    expect(survey.waypoints.length).toBeGreaterThan(2);
    expect(survey.distance).toBeGreaterThan(300);

    expect(await patrolRouteOf(server.app.nest.deps, NESTS[1]!.sn)).toMatchObject({ name: '巡检 B01', company_id: 'wk' });
    expect(await patrolRouteOf(server.app.nest.deps, 'NO-SUCH')).toBeNull();
    expect(Object.keys(JSON.parse(key.value).patrols).sort()).toEqual(NESTS.map((n) => n.sn));
  });

  it('names demo objects from the nest name', () => {
    expect(labelOf('机场 A01', 'SIM-STB-01')).toBe('A01');
    expect(labelOf('Nest', 'SIM-STB-01')).toBe('STB-01');
  });
});

describe('demo launcher', () => {
  it('launches round-robin on idle nests with a route, skipping busy ones', async () => {
    const lines: string[] = [];
    const busy = new Set(['DEMO-T-N2']);
    const launcher = startDemoLauncher({
      // The real flight runtime of the app (no test double): only the choice of nest is checked here.
      flight: server.app.nest.flight,
      nests: [...NESTS.map((n) => n.sn), 'DEMO-T-NOROUTE'],
      isIdle: (sn) => !busy.has(sn),
      routeOf: (sn) => patrolRouteOf(server.app.nest.deps, sn),
      periodMs: 3_600_000,
      firstDelayMs: 3_600_000,
      log: (line) => lines.push(line),
    });
    try {
      expect(await launcher.launchNext()).toBe('DEMO-T-N1');
      expect(await launcher.launchNext()).toBe('DEMO-T-N3');
      expect(await launcher.launchNext()).toBe('DEMO-T-N1');
      busy.add('DEMO-T-N1');
      busy.add('DEMO-T-N3');
      expect(await launcher.launchNext()).toBeNull();
    } finally {
      await launcher.stop();
    }
    expect(lines.filter((l) => l.startsWith('Demo mission: launching'))).toHaveLength(3);
    expect(lines[0]).toBe('Demo mission: launching "巡检 A01" on DEMO-T-N1');
    // One outcome line per launch, whatever the flight runtime answered.
    expect(lines.filter((l) => l.startsWith('Demo mission on '))).toHaveLength(3);
  });

  it('sees offline devices as not idle', () => {
    expect(liveIdle(server.app.nest.deps.live)('DEMO-T-N1')).toBe(false);
  });
});

describe('demo fleet options', () => {
  it('passes the time scale, the media URL and an alternate point 250 m north-east of each nest', () => {
    expect(fleetExtras({ simTimeScale: 5 }, 8080)).toEqual({ timeScale: 5, mediaUrl: 'http://127.0.0.1:8080' });
    const home = { lat: 22.5431, lng: 114.0579 };
    const alt = alternateOf(home);
    const north = (alt.lat - home.lat) * 111_320;
    const east = (alt.lng - home.lng) * 111_320 * Math.cos((home.lat * Math.PI) / 180);
    expect(Math.hypot(north, east)).toBeCloseTo(250, 0);
    expect(north).toBeCloseTo(east, 0);
    expect(withAlternate({ kind: 'alone', home: { ...home, alt: 0 } })).not.toHaveProperty('alternate');
    expect(withAlternate({ kind: 'stable', home: { ...home, alt: 0 } }).alternate).toEqual(alt);
  });

  it('registers demo nests with that alternate landing point', async () => {
    const home = { ...offset(-6000, 0), alt: 30 };
    await ensureDemoDevices(server.db, [
      { sn: 'DEMO-T-ALT', kind: 'stable', name: '机场 Z01', uavSn: 'DEMO-T-ALT-UAV', home },
      { sn: 'DEMO-T-SOLO', kind: 'alone', name: '单兵 D01', uavSn: 'DEMO-T-SOLO', home },
    ]);
    const nest = await findDeviceBySn(server.db, 'DEMO-T-ALT');
    expect({ lat: Number(nest!.altn_lat), lng: Number(nest!.altn_lng) }).toEqual(alternateOf(home));
    expect((await findDeviceBySn(server.db, 'DEMO-T-SOLO'))!.altn_lat).toBeNull();
  });
});
