import { randomUUID } from 'node:crypto';
import { IssueCode, noFlyConflictIssues, ringOverlap, validateRoute, zoneConflictIssues, zoneRestrictsRoutes, type Issue, type LatLng } from '@nest/geo';
import { NoFlyShape, Reason, ResultCode, ZoneKind, zonesAnswerSchema, type NoFlyZone, type PreflightCheck, type Waypoint } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { registerDevice } from '../../test/live.js';
import { DEFAULT_SIM_CENTER } from '../config.js';
import { ensureDemoDevices } from '../demo/devices.js';
import { seedDemoPlans } from '../demo/seed.js';
import { json, offset, rect } from '../fences/test-fixtures.js';
import { loadSimulator } from '../../test/simulator.js';
import { ZONES_PATH } from './routes.js';
import { DEMO_ZONES, publicZones } from './zones.js';

const FUNS = ['fence_add', 'mission_list', 'mission_add', 'mission_edit', 'mission_info', 'device_list'];
const log = { info: () => undefined, warn: () => undefined } as never;

let server: TestServer;
let wk: TestClient;

/** A point on the border strip's centre line (between two of its bends). */
const RIVER: LatLng = { lat: 22.5096, lng: 114.044 };
const NEST = 'ZONE-T-NEST';
let fenceId: string;

const route = (name: string, pts: LatLng[], over: Fields = {}): Fields => ({
  name,
  fence_id: fenceId,
  mission_type: 1,
  auto_speed: 8,
  max_speed: 12,
  default_height: 80,
  return_height: 100,
  waypoints: json(pts.map((p) => ({ ...p, height: 80 }))),
  ...over,
});

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await registerDevice(server, { sn_id: NEST, airport_point: offset(0, 800, RIVER) });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  // A fence across the river: fences may overlap zones, routes may not enter them.
  const f = await wk.call<{ id: string }>('fenceAdd', { name: 'River fence', max_height: 300, boundary: json(rect(-1500, -1500, 1500, 1500, RIVER)), sn_id: NEST });
  expect(f.body.code).toBe(ResultCode.OK);
  fenceId = f.body.data.id;
});
afterAll(async () => server?.close());

describe('the zones resource', () => {
  it('lists the zone kinds and every zone with its name in both languages; a stored row keeps working', async () => {
    await server.db
      .insertInto('zones')
      .values({
        id: 'stored-1',
        type: ZoneKind.WORK,
        name: 'Stored area',
        paths: json([offset(0, 0, { lat: 30, lng: 110 }), offset(100, 0, { lat: 30, lng: 110 }), offset(0, 100, { lat: 30, lng: 110 })]),
        stroke_color: '#000',
        solid_color: '#000',
        stroke_width: 1,
        company_id: null,
        created_at: 0,
      } as never)
      .execute();
    const res = await server.app.inject({ method: 'GET', url: ZONES_PATH });
    const body = zonesAnswerSchema.parse(res.json());
    expect(body.types.map((t) => t.label.en)).toEqual(['No-fly zone', 'Restricted zone', 'Work zone']);
    const border = body.list.find((z) => z.id === 'demo-restricted-border')!;
    expect(border.name).toEqual({ zh: '深圳河边境（演示）', en: 'Shenzhen River border (demo)' });
    expect(body.list.find((z) => z.id === 'stored-1')?.name).toEqual({ zh: 'Stored area', en: 'Stored area' });
  });
});

describe('routes keep out of no-fly and restricted zones', () => {
  it('refuses to save a route crossing the border strip, naming the zone in the caller language', async () => {
    const across = route('Across', [offset(0, 600, RIVER), offset(0, -600, RIVER)]);
    const en = await wk.call<{ issues: Issue[] }>('missionAdd', across, { lang: 'en' });
    expect(en.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(en.body.msg).toBe('The leg from waypoint 1 to 2 crosses the restricted zone "Shenzhen River border (demo)"');
    expect(en.body.data.issues).toEqual([expect.objectContaining({ code: IssueCode.LEG_CROSSES_ZONE, item: { kind: 'leg', index: 0, id: 'demo-restricted-border' } })]);
    const zh = await wk.call('missionAdd', across, { lang: 'zh' });
    expect(zh.body.msg).toBe('第 1 到第 2 个航点之间的航线穿过限飞区「深圳河边境（演示）」');

    const into = await wk.call<{ issues: Issue[] }>('missionAdd', route('Into', [offset(0, 600, RIVER), RIVER]), { lang: 'en' });
    expect(into.body.msg).toBe('Waypoint 2 is inside the restricted zone "Shenzhen River border (demo)"');

    // The same fence, north of the river: saved.
    const north = await wk.call('missionAdd', route('North bank', [offset(-500, 600, RIVER), offset(500, 600, RIVER)]));
    expect(north.body.code).toBe(ResultCode.OK);
  });

  it('generates a survey around the zones; an area the strip cuts in two, with no way round inside the fence, is refused', async () => {
    const survey = (name: string, polygon: LatLng[]) =>
      wk.call<{ issues: Issue[]; waypoints: Waypoint[] }>(
        'missionAdd',
        route(name, [], { mission_type: 2, camera_type: '6k', course_overlap: 80, lateral_overlap: 70, waypoints: '[]', polygon: json(polygon) }),
        { lang: 'en' },
      );
    // Reaching into the strip from the north bank: the grid stops short of it.
    const bank = await survey('North bank survey', rect(-200, 0, 200, 300, RIVER));
    expect(bank.body.code, bank.body.msg).toBe(ResultCode.OK);
    expect(bank.body.data.waypoints.length).toBeGreaterThan(2);
    expect(zoneConflictIssues(bank.body.data.waypoints, await publicZones(server.db))).toEqual([]);

    // Across the whole strip: the banks can only be joined around its ends, outside the fence.
    const across = await survey('Survey over the river', rect(-400, -400, 400, 400, RIVER));
    expect(across.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(across.body.data.issues.length).toBeGreaterThan(0);
    expect(across.body.data.issues.some((i) => i.code === IssueCode.WAYPOINT_IN_ZONE || i.code === IssueCode.LEG_CROSSES_ZONE)).toBe(false);
  });

  it('a zone added after a route was saved fails the pre-flight zone check, in the checklist and when a timed task fires', async () => {
    const saved = await wk.call<{ id: string }>('missionAdd', route('Later blocked', [offset(-800, 900, RIVER), offset(800, 900, RIVER)]));
    expect(saved.body.code).toBe(ResultCode.OK);
    const missionId = saved.body.data.id;
    const box = rect(-100, 800, 100, 1000, RIVER);
    await server.db
      .insertInto('zones')
      .values({ id: randomUUID(), type: ZoneKind.NO_FLY, name: 'Stadium', paths: json(box), stroke_color: '#f00', solid_color: '#f00', stroke_width: 2, company_id: null, created_at: 0 } as never)
      .execute();

    const admin = await adminClient(server);
    for (const lang of ['en', 'zh'] as const) {
      const res = await admin.call<{ ready: boolean; checks: PreflightCheck[] }>('flightCheck', { sn_id: NEST, mission_id: missionId }, { lang });
      expect(res.body.data.ready).toBe(false);
      const zone = res.body.data.checks.find((c) => c.item === 'zone');
      expect(zone).toEqual({ item: 'zone', ok: false, reason: Reason.ROUTE_ZONE, value: lang === 'en' ? 'No-fly zone "Stadium"' : '禁飞区「Stadium」' });
      // The zone check follows the route check.
      const items = res.body.data.checks.map((c) => c.item);
      expect(items.indexOf('zone')).toBe(items.indexOf('route') + 1);
    }

    // The timed-task path: launchMission with the task actor runs the same checks.
    const answer = await server.app.nest.flight.launchMission(
      { u_id: 'task-user', nick: 'Task', company_id: 'wk', all: false, source: 'task' },
      { sn: NEST, missionId, cmdId: randomUUID() },
      'zh',
    );
    expect(answer.code).not.toBe(ResultCode.OK);
    const checks = (answer.data as { checks?: PreflightCheck[] }).checks ?? [];
    expect(checks.find((c) => c.item === 'zone')).toMatchObject({ ok: false, reason: Reason.ROUTE_ZONE, value: '禁飞区「Stadium」' });

    // A route clear of every zone passes the zone check.
    const clear = await wk.call<{ id: string }>('missionAdd', route('Clear', [offset(-800, 1300, RIVER), offset(800, 1300, RIVER)]));
    const ok = await admin.call<{ checks: PreflightCheck[] }>('flightCheck', { sn_id: NEST, mission_id: clear.body.data.id });
    expect(ok.body.data.checks.find((c) => c.item === 'zone')).toEqual({ item: 'zone', ok: true, reason: null, value: null });
  });
});

describe('the demo data', () => {
  it('seeds the default fleet\'s demo fences, routes and company no-fly zones, the routes clear of every zone', async () => {
    const sim = await loadSimulator();
    const specs = sim.demoFleet(DEFAULT_SIM_CENTER, { nests: 3, drones: 2 });
    await ensureDemoDevices(server.db, specs);
    const nests = specs.filter((s) => s.kind !== 'alone').map((s) => ({ sn: s.sn, name: s.name, home: s.home }));
    // Saved through the real handlers, which refuse a route entering a zone.
    expect(await seedDemoPlans(server.app.nest.deps, nests, log)).toBe(nests.length * 2);

    const fences = await server.db.selectFrom('fences').selectAll().where('sn_id', 'in', nests.map((n) => n.sn)).execute();
    expect(fences).toHaveLength(nests.length);
    const missions = await server.db.selectFrom('missions').selectAll().where('fence_id', 'in', fences.map((f) => f.id)).execute();
    expect(missions).toHaveLength(nests.length * 2);
    const zones = await publicZones(server.db);
    const restricting = DEMO_ZONES.filter((z) => zoneRestrictsRoutes(z.type));
    expect(restricting.map((z) => z.type).sort()).toEqual([ZoneKind.NO_FLY, ZoneKind.RESTRICTED]);
    for (const m of missions) {
      const fence = fences.find((f) => f.id === m.fence_id)!;
      const waypoints = JSON.parse(m.waypoints) as Waypoint[];
      expect(waypoints.length).toBeGreaterThan(1);
      expect(zoneConflictIssues(waypoints, DEMO_ZONES)).toEqual([]);
      const boundary = JSON.parse(fence.boundary) as LatLng[];
      expect(validateRoute({ ...m, mission_type: Number(m.mission_type), waypoints }, { boundary, max_height: Number(fence.max_height) }, { zones })).toEqual([]);
    }
    // The demo fences do not reach into them either.
    for (const f of fences) for (const z of restricting) expect(ringOverlap(JSON.parse(f.boundary) as LatLng[], z.paths)).toBeNull();

    // One demo no-fly zone per company of the fleet, named in the reader's language, that no demo route enters.
    const companies = [...new Set(fences.map((f) => f.company_id))];
    const admin = await adminClient(server);
    const listed = await admin.call<{ list: NoFlyZone[] }>('noFlyList', { search: 'school', page: 0, size: 100 }, { lang: 'en' });
    const demoZones = listed.body.data.list.filter((z) => z.name.startsWith('Demo no-fly zone: school'));
    const rows = await server.db.selectFrom('no_fly_zones').select(['id', 'company_id']).where('id', 'in', demoZones.map((z) => z.id)).execute();
    expect(rows.map((r) => r.company_id).sort()).toEqual(companies.sort());
    for (const z of demoZones) {
      expect(z).toMatchObject({ shape: NoFlyShape.CIRCLE, sn_id: '', active: true, reason: 'No overflight of the school during classes (demo)' });
      const company = rows.find((r) => r.id === z.id)!.company_id;
      for (const m of missions.filter((x) => x.company_id === company)) expect(noFlyConflictIssues(JSON.parse(m.waypoints) as Waypoint[], [z])).toEqual([]);
    }
    const zh = await admin.call<{ list: NoFlyZone[] }>('noFlyList', { search: '学校', page: 0, size: 100 }, { lang: 'zh' });
    expect(zh.body.data.list.some((z) => z.name.startsWith('演示禁飞区 学校'))).toBe(true);
  });
});
