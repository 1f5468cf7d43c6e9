import { MISSION_LIMITS, ResultCode, missionLimitText, type MissionLimitField, type Waypoint } from '@nest/contracts';
import { prepareRing, routeEstimate, type Issue, type LatLng } from '@nest/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { patrolFields, surveyFields } from '../demo/plans.js';
import { createDevice } from '../devices/store.js';
import { CENTER, json, offset, rect, uShape } from '../fences/test-fixtures.js';
import { sampleHeight } from '../terrain/sample.js';

const FUNS = ['fence_add', 'mission_type', 'mission_list', 'mission_add', 'mission_edit', 'mission_info', 'mission_clearBreak'];

interface MissionAnswer {
  id: string;
  name: string;
  f_title: string;
  sn_id: string;
  waypoints: Waypoint[];
  survey_polygon: LatLng[] | null;
  distance: number;
  est_time: number;
  breakpoint: number | null;
  terrain_note?: string | null;
  survey?: { photo_count: number } | null;
}
type Refusal = { issues: Issue[] };

let server: TestServer;
let admin: TestClient;
let wk: TestClient;
let other: TestClient;
/** A 6 km square fence on a nest (5 km legs) and one on a single-soldier drone (2 km legs). */
let nestFence: string;
let droneFence: string;
/** A fence far outside the sample terrain tiles. */
let farFence: string;

const NEST = 'PLAN-MIS-NEST';
const DRONE = 'PLAN-MIS-ALONE';
const FAR = 'PLAN-MIS-FAR';
const FAR_ORIGIN = { lat: 30.5, lng: 104.0 };

async function addFence(c: TestClient, name: string, boundary: LatLng[], sn: string, max = 500): Promise<string> {
  const res = await c.call<{ id: string }>('fenceAdd', { name, max_height: max, boundary: json(boundary), sn_id: sn });
  if (res.body.code !== ResultCode.OK) throw new Error(JSON.stringify(res.body));
  return res.body.data.id;
}

const base = (fenceId: string, over: Fields = {}): Fields => ({
  name: 'Route',
  fence_id: fenceId,
  mission_type: 1,
  auto_speed: 8,
  max_speed: 12,
  default_height: 80,
  return_height: 100,
  ...over,
});
const wps = (...pts: LatLng[]) => json(pts.map((p) => ({ ...p, height: 80 })));

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  await createDevice(server.db, { type: 'stable', sn_id: NEST, company_id: 'wk', airport_point: CENTER });
  await createDevice(server.db, { type: 'alone', sn_id: DRONE, company_id: 'wk' });
  await createDevice(server.db, { type: 'mobile', sn_id: FAR, company_id: 'wk', airport_point: FAR_ORIGIN });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  other = await userClient(server, { companyId: 'gzGh', funList: FUNS });
  nestFence = await addFence(wk, 'Nest fence', rect(-3000, -3000, 3000, 3000), NEST);
  droneFence = await addFence(wk, 'Drone fence', rect(-3000, -3000, 3000, 3000), DRONE);
  farFence = await addFence(wk, 'Far fence', rect(-1000, -1000, 1000, 1000, FAR_ORIGIN), FAR);
});
afterAll(async () => server?.close());

describe('/mission/type', () => {
  it('answers the route kinds in the caller language', async () => {
    const en = await wk.call<{ value: number; label: string }[]>('missionType');
    expect(en.body.data).toEqual([
      { value: 1, label: 'Waypoint route' },
      { value: 2, label: 'Area survey route' },
      { value: 3, label: 'Strip route' },
    ]);
    const zh = await wk.call<{ value: number; label: string }[]>('missionType', {}, { lang: 'zh' });
    expect(zh.body.data[0]!.label).toBe('航点航线');
  });
});

describe('/mission/edit with state 20', () => {
  it('deletes the route: gone from list and info, other companies cannot', async () => {
    const res = await wk.call<MissionAnswer>('missionAdd', base(nestFence, { name: 'To delete', waypoints: wps(offset(0, 0), offset(500, 0)) }));
    const m = res.body.data;
    const theirs = await other.call('missionEdit', { ...base(nestFence, { name: m.name, waypoints: wps(offset(0, 0), offset(500, 0)) }), id: m.id, state: 20 });
    expect(theirs.body.code).not.toBe(ResultCode.OK);
    const del = await wk.call('missionEdit', { ...base(nestFence, { name: m.name, waypoints: wps(offset(0, 0), offset(500, 0)) }), id: m.id, state: 20 });
    expect(del.body.code).toBe(ResultCode.OK);
    const list = await wk.call<{ list: MissionAnswer[] }>('missionList', { fence_id: nestFence, page: 0, size: 100 });
    expect(list.body.data.list.map((x) => x.id)).not.toContain(m.id);
    const info = await wk.call('missionInfo', { id: m.id });
    expect(info.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });
});

describe('/mission/add, /mission/info, /mission/list', () => {
  it('saves a waypoint route with the server distance and estimate', async () => {
    const res = await wk.call<MissionAnswer>('missionAdd', base(nestFence, { name: 'WP ok', waypoints: wps(offset(0, 0), offset(1000, 0), offset(1000, 1000)) }));
    expect(res.body.code).toBe(ResultCode.OK);
    const m = res.body.data;
    expect(m).toMatchObject({ name: 'WP ok', f_title: 'Nest fence', sn_id: NEST, breakpoint: null, survey_polygon: null });
    expect(m.distance).toBeGreaterThan(1990);
    expect(m.distance).toBeLessThan(2010);
    expect(m.est_time).toBeGreaterThan(2000 / 8);
    const info = await wk.call<MissionAnswer>('missionInfo', { id: m.id });
    expect(info.body.data.waypoints).toHaveLength(3);
    const list = await wk.call<{ list: MissionAnswer[]; total: number }>('missionList', { fence_id: nestFence, search: 'wp', page: 0, size: 10 });
    expect(list.body.data.list.map((x) => x.id)).toContain(m.id);
  });

  it('refuses invalid input at the call layer (cruise above max speed, photo and panorama at once)', async () => {
    const speed = await wk.call('missionAdd', base(nestFence, { auto_speed: 15, max_speed: 10, waypoints: wps(offset(0, 0), offset(10, 0)) }));
    expect(speed.body.code).toBe(ResultCode.BAD_REQUEST);
    const both = await wk.call('missionAdd', base(nestFence, { waypoints: json([{ ...offset(0, 0), height: 50, takephoto: 3 }, { ...offset(50, 0), height: 50 }]) }));
    expect(both.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(both.body.msg).toContain('waypoints');
  });

  it('refuses a waypoint outside the fence, naming it; nothing is saved', async () => {
    const before = (await wk.call<{ total: number }>('missionList', { page: 0, size: 1 })).body.data.total;
    const res = await wk.call<Refusal>('missionAdd', base(nestFence, { name: 'Outside', waypoints: wps(offset(0, 0), offset(3500, 0)) }));
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.data.issues).toContainEqual(expect.objectContaining({ code: 'waypoint.outside_fence', item: { kind: 'waypoint', index: 1 } }));
    expect(res.body.msg).toBe(res.body.data.issues[0]!.text.en);
    expect((await wk.call<{ total: number }>('missionList', { page: 0, size: 1 })).body.data.total).toBe(before);
  });

  it('refuses a route without a visible fence', async () => {
    const res = await other.call<Refusal>('missionAdd', base(nestFence, { waypoints: wps(offset(0, 0), offset(100, 0)) }));
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.data.issues.map((i) => i.code)).toContain('route.no_fence');
  });

  it('applies 2 km legs to a single-soldier drone and 5 km to a nest', async () => {
    const leg = wps(offset(-1200, 0), offset(1300, 0));
    const drone = await wk.call<Refusal>('missionAdd', base(droneFence, { waypoints: leg }), { lang: 'zh' });
    expect(drone.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(drone.body.data.issues[0]).toMatchObject({ code: 'leg.too_long', item: { kind: 'leg', index: 0 } });
    expect(drone.body.msg).toBe(drone.body.data.issues[0]!.text.zh);
    expect((await wk.call('missionAdd', base(nestFence, { waypoints: leg }))).body.code).toBe(ResultCode.OK);
    const far = await wk.call<Refusal>('missionAdd', base(nestFence, { waypoints: wps(offset(-2900, -2900), offset(2900, 2900)) }));
    expect(far.body.data.issues[0]!.code).toBe('leg.too_long');
  });

  it('refuses heights above the fence maximum', async () => {
    const res = await wk.call<Refusal>('missionAdd', base(nestFence, { waypoints: json([{ ...offset(0, 0), height: 600 }, { ...offset(100, 0), height: 80 }]) }));
    expect(res.body.data.issues[0]).toMatchObject({ code: 'waypoint.above_fence', item: { index: 0 } });
  });

  it('cannot see or edit another company route; needs the function id', async () => {
    const mine = await wk.call<MissionAnswer>('missionAdd', base(nestFence, { name: 'Private', waypoints: wps(offset(0, 0), offset(100, 0)) }));
    expect((await other.call('missionInfo', { id: mine.body.data.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const edit = await other.call('missionEdit', { id: mine.body.data.id, ...base(nestFence, { waypoints: wps(offset(0, 0), offset(100, 0)) }) });
    expect(edit.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await other.call<{ total: number }>('missionList', { page: 0, size: 10 })).body.data.total).toBe(0);
    const adminList = await admin.call<{ total: number }>('missionList', { page: 0, size: 10 });
    expect(adminList.body.data.total).toBeGreaterThan(0);
    const noRight = await userClient(server, { companyId: 'wk', funList: ['mission_list'] });
    const res = await noRight.call('missionInfo', { id: mine.body.data.id });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
  });
});

const survey = (fenceId: string, polygon: LatLng[], over: Fields = {}): Fields =>
  base(fenceId, {
    name: 'Survey',
    mission_type: 2,
    camera_type: '6k',
    default_height: 100,
    course_overlap: 80,
    lateral_overlap: 70,
    angle: 0,
    turn_distance: 0,
    // The browser's preview waypoints are ignored: the server regenerates them from the polygon.
    waypoints: wps(offset(0, 0), offset(10, 10)),
    // Some areas here take more than one battery (ROUTE_FLIGHT_BUDGET_S): saved split, the answer is the
    // first part (strip.test.ts tests the split itself).
    split: 1,
    polygon: json(polygon),
    ...over,
  });

describe('area surveys', () => {
  it('regenerates the grid over a concave area: every transect lies inside the area', async () => {
    const area = uShape(1200, 1000, 300);
    const res = await wk.call<MissionAnswer>('missionAdd', survey(nestFence, area));
    expect(res.body.code).toBe(ResultCode.OK);
    const m = res.body.data;
    expect(m.survey_polygon).toEqual(area);
    expect(m.waypoints.length).toBeGreaterThan(4);
    expect(m.survey!.photo_count).toBeGreaterThan(0);
    const ring = prepareRing(area);
    const entries = m.waypoints.map((w, i) => ({ w, i })).filter(({ w }) => w.cam_trig_dist !== undefined && w.cam_trig_dist > 0);
    expect(entries.length).toBeGreaterThan(2);
    for (const { w, i } of entries) {
      const exit = m.waypoints[i + 1]!;
      expect(exit.cam_trig_dist).toBe(0);
      for (const f of [0, 0.25, 0.5, 0.75, 1]) {
        expect(ring.contains({ lat: w.lat + f * (exit.lat - w.lat), lng: w.lng + f * (exit.lng - w.lng) })).toBe(true);
      }
    }
    // No transect crosses the gap of the U (between the arms, north of the base).
    const gap = offset(0, 300);
    for (const { w, i } of entries) {
      const exit = m.waypoints[i + 1]!;
      const crosses = Math.min(w.lat, exit.lat) < gap.lat && Math.max(w.lat, exit.lat) > gap.lat && Math.abs(w.lng - gap.lng) < 1e-4;
      expect(crosses).toBe(false);
    }
  });

  it('takes the area from the waypoints when no polygon is sent; refuses an area outside the fence', async () => {
    const area = rect(-500, -500, 500, 500);
    const res = await wk.call<MissionAnswer>('missionAdd', survey(nestFence, area, { polygon: '', waypoints: wps(...area) }));
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.survey_polygon).toEqual(area);
    const out = await wk.call<Refusal>('missionAdd', survey(nestFence, rect(2500, 2500, 3500, 3500)));
    expect(out.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(out.body.data.issues[0]).toMatchObject({ code: 'survey.outside_fence', item: { kind: 'route', index: 1 } });
  });

  it('refuses a custom camera without its sensor fields', async () => {
    const res = await wk.call('missionAdd', survey(nestFence, rect(-500, -500, 500, 500), { camera_type: 'custom' }));
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('follows the sample terrain with the elevation flag (altitude heights = ground + height)', async () => {
    const area = rect(1500, 1000, 2500, 2000);
    const res = await wk.call<MissionAnswer>('missionAdd', survey(nestFence, area, { elevation: 1, height_type: 1, interval_height: 2 }));
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.terrain_note).toBeNull();
    for (const w of res.body.data.waypoints) expect(Math.abs(w.height - (sampleHeight(w.lat, w.lng) + 100))).toBeLessThan(3);
  });

  it('falls back to a flat ground with the note where no tile covers the area', async () => {
    const res = await wk.call<MissionAnswer>('missionAdd', survey(farFence, rect(-500, -500, 500, 500, FAR_ORIGIN), { elevation: 1 }), { lang: 'zh' });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.terrain_note).toContain('没有可用的地形数据');
    expect(new Set(res.body.data.waypoints.map((w) => w.height))).toEqual(new Set([100]));
  });
});

describe('/mission/edit, /mission/clearBreak', () => {
  it('edits a route and clears the breakpoint; clearBreak clears it too', async () => {
    const add = await wk.call<MissionAnswer>('missionAdd', base(nestFence, { name: 'Break', waypoints: wps(offset(0, 0), offset(200, 0), offset(200, 200)) }));
    const id = add.body.data.id;
    await server.db.updateTable('missions').set({ breakpoint: 1 }).where('id', '=', id).execute();
    expect((await wk.call<MissionAnswer>('missionInfo', { id })).body.data.breakpoint).toBe(1);
    const cleared = await wk.call<MissionAnswer>('missionClearBreak', { id });
    expect(cleared.body.code).toBe(ResultCode.OK);
    expect(cleared.body.data.breakpoint).toBeNull();
    expect((await wk.call<MissionAnswer>('missionInfo', { id })).body.data.breakpoint).toBeNull();

    await server.db.updateTable('missions').set({ breakpoint: 2 }).where('id', '=', id).execute();
    const edit = await wk.call<MissionAnswer>('missionEdit', { id, ...base(nestFence, { name: 'Break 2', waypoints: wps(offset(0, 0), offset(300, 0)) }) });
    expect(edit.body.code).toBe(ResultCode.OK);
    expect(edit.body.data).toMatchObject({ id, name: 'Break 2', breakpoint: null });
    const bad = await wk.call<Refusal>('missionEdit', { id, ...base(nestFence, { waypoints: wps(offset(0, 0), offset(0, 0)) }) });
    expect(bad.body.data.issues[0]!.code).toBe('leg.zero_length');
    expect((await wk.call<MissionAnswer>('missionInfo', { id })).body.data.name).toBe('Break 2');
    expect((await wk.call('missionClearBreak', { id: 'nope' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });
});

describe('one estimate (geo routeEstimate) for the list, the editor and the server', () => {
  /** The estimate input as the editor holds it: the sent settings, the stored waypoints, the nest as home. */
  const estimateOf = (fields: Fields, m: MissionAnswer) =>
    routeEstimate(
      {
        waypoints: m.waypoints,
        auto_speed: Number(fields.auto_speed),
        max_speed: Number(fields.max_speed),
        default_height: Number(fields.default_height),
        return_height: Number(fields.return_height),
        finish_action: Number(fields.finish_action ?? 20),
      },
      CENTER,
    );

  it('stores the estimate of the demo patrol and survey from the nest; the list shows it; saving again keeps it', async () => {
    const routes: Fields[] = [patrolFields('Demo patrol', nestFence, CENTER), surveyFields('Demo survey', nestFence, CENTER)];
    for (const fields of routes) {
      const add = await wk.call<MissionAnswer>('missionAdd', fields);
      expect(add.body.code).toBe(ResultCode.OK);
      const m = add.body.data;
      const est = estimateOf(fields, m);
      expect(m.est_time).toBe(est.est_time);
      expect(m.distance).toBe(est.distance);
      // The home legs count: the same route without a take-off point is shorter.
      expect(routeEstimate({ ...fields, waypoints: m.waypoints } as never).est_time).toBeLessThan(m.est_time);
      const list = await wk.call<{ list: MissionAnswer[] }>('missionList', { fence_id: nestFence, page: 0, size: 100 });
      expect(list.body.data.list.find((x) => x.id === m.id)?.est_time).toBe(est.est_time);
      // Saved again as the editor sends it (its waypoints, and the area of a survey): the same estimate.
      const again = await wk.call<MissionAnswer>('missionEdit', {
        id: m.id,
        ...fields,
        waypoints: json(m.waypoints),
        ...(m.survey_polygon ? { polygon: json(m.survey_polygon) } : {}),
      });
      expect(again.body.code).toBe(ResultCode.OK);
      expect(again.body.data.est_time).toBe(m.est_time);
      expect(again.body.data.distance).toBe(m.distance);
    }
  });

  it('refuses speeds and heights out of range with the range in the message (zh and en); nothing is moved into the range', async () => {
    const route = wps(offset(0, 0), offset(300, 0));
    const cases: [Fields, MissionLimitField][] = [
      [{ auto_speed: 0 }, 'auto_speed'],
      [{ auto_speed: 0.1 }, 'auto_speed'],
      [{ max_speed: 16, auto_speed: 8 }, 'max_speed'],
      [{ default_height: 0 }, 'default_height'],
      [{ default_height: 1 }, 'default_height'],
      [{ return_height: 5 }, 'return_height'],
    ];
    for (const [over, field] of cases) {
      for (const lang of ['zh', 'en'] as const) {
        const res = await wk.call('missionAdd', base(nestFence, { name: 'Lax', waypoints: route, ...over }), { lang });
        expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
        expect(res.body.msg).toBe(missionLimitText(field)[lang]);
      }
    }
    expect(missionLimitText('auto_speed')).toEqual({ zh: '自动巡航速度须在 1 到 15 m/s 之间', en: 'Cruise speed must be 1 to 15 m/s' });
    expect(missionLimitText('default_height').en).toBe(`Default height must be ${MISSION_LIMITS.default_height.min} to ${MISSION_LIMITS.default_height.max} m`);
    // The edges are accepted.
    const edge = await wk.call<MissionAnswer>('missionAdd', base(nestFence, { name: 'Edge', waypoints: route, auto_speed: 1, max_speed: 15, default_height: 10, return_height: 20 }));
    expect(edge.body.code).toBe(ResultCode.OK);
    const edit = await wk.call('missionEdit', { id: edge.body.data.id, ...base(nestFence, { waypoints: route, auto_speed: 0 }) }, { lang: 'zh' });
    expect(edit.body.msg).toBe(missionLimitText('auto_speed').zh);
  });

  it('a survey above the fence height is refused with one line for all its waypoints', async () => {
    await createDevice(server.db, { type: 'stable', sn_id: 'PLAN-MIS-LOW', company_id: 'wk', airport_point: CENTER });
    const low = await addFence(wk, 'Low fence', rect(-2000, -2000, 2000, 2000), 'PLAN-MIS-LOW', 50);
    const res = await wk.call<Refusal>('missionAdd', survey(low, rect(-300, -300, 300, 300), { default_height: 100 }), { lang: 'en' });
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    const above = res.body.data.issues.filter((i) => i.code === 'waypoint.above_fence');
    expect(above.length).toBeGreaterThan(5);
    expect(res.body.msg).toBe(`Each of ${above.length} waypoints is at 100 m, above the fence's maximum height of 50 m`);
  });
});
