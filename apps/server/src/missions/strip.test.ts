import { ROUTE_FLIGHT_BUDGET_S, ResultCode, type Waypoint } from '@nest/contracts';
import { localFrame, type Issue, type LatLng } from '@nest/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { createDevice } from '../devices/store.js';
import { CENTER, json, offset, rect } from '../fences/test-fixtures.js';
import { routeFor } from '../flight/route.js';
import { groupFlightPart, markPartFlown } from './groups.js';

const FUNS = ['fence_add', 'mission_list', 'mission_add', 'mission_edit', 'mission_info'];
const NEST = 'PLAN-STRIP-NEST';

interface Saved {
  id: string;
  name: string;
  mission_type: number;
  waypoints: Waypoint[];
  est_time: number;
  corridor_line: LatLng[] | null;
  corridor_width: number | null;
  group_id: string | null;
  group_index: number | null;
  group_count: number | null;
  group_next: string | null;
  survey?: { photo_count: number; line_spacing: number } | null;
  group?: { count: number; parts: { id: string; name: string; est_time: number }[] } | null;
}

let server: TestServer;
let wk: TestClient;
let fence: string;

const settings = (over: Fields): Fields => ({
  fence_id: fence,
  auto_speed: 8,
  max_speed: 12,
  default_height: 100,
  return_height: 100,
  camera_type: '6k',
  course_overlap: 80,
  lateral_overlap: 70,
  waypoints: json([]),
  ...over,
});
const strip = (line: LatLng[], width: number, over: Fields = {}) =>
  settings({ name: 'Pipeline', mission_type: 3, line: json(line), corridor_width: width, ...over });
const survey = (area: LatLng[], over: Fields = {}) => settings({ name: 'Big survey', mission_type: 2, angle: 0, polygon: json(area), ...over });

/** Distance (m) from p to the polyline, in a local frame at the centre. */
function distanceToLine(p: LatLng, line: readonly LatLng[]): number {
  const f = localFrame(CENTER);
  const q = f.toXY(p);
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) {
    const a = f.toXY(line[i]!);
    const b = f.toXY(line[i + 1]!);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const t = Math.max(0, Math.min(1, ((q.x - a.x) * dx + (q.y - a.y) * dy) / (dx * dx + dy * dy)));
    best = Math.min(best, Math.hypot(q.x - a.x - t * dx, q.y - a.y - t * dy));
  }
  return best;
}

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await createDevice(server.db, { type: 'stable', sn_id: NEST, company_id: 'wk', airport_point: CENTER });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  const res = await wk.call<{ id: string }>('fenceAdd', { name: 'Strip fence', max_height: 500, boundary: json(rect(-3000, -3000, 3000, 3000)), sn_id: NEST });
  if (res.body.code !== ResultCode.OK) throw new Error(JSON.stringify(res.body));
  fence = res.body.data.id;
});
afterAll(async () => server?.close());

describe('strip routes (MissionType 3)', () => {
  const line = [offset(0, 200), offset(1200, 200), offset(1200, 900)];

  it('generates the corridor lines from the centre line and width, storing both; the browser waypoints are ignored', async () => {
    const res = await wk.call<Saved>('missionAdd', strip(line, 120, { waypoints: json([{ ...offset(5, 5), height: 100 }]) }));
    expect(res.body.code).toBe(ResultCode.OK);
    const m = res.body.data;
    expect(m.mission_type).toBe(3);
    expect(m.corridor_line).toEqual(line);
    expect(m.corridor_width).toBe(120);
    expect(m.group_id).toBeNull();
    const spacing = m.survey!.line_spacing;
    const lines = Math.ceil(120 / spacing);
    // Entries and exits: one pair per line (an L-bend keeps each line in one run).
    expect(m.waypoints.filter((w) => (w.cam_trig_dist ?? 0) > 0)).toHaveLength(lines);
    expect(m.waypoints.filter((w) => w.cam_trig_dist === 0)).toHaveLength(lines);
    // Every waypoint lies within the band (plus the joins' tolerance round the bend).
    for (const w of m.waypoints) expect(distanceToLine(w, line)).toBeLessThanOrEqual(60 + 0.1 * spacing + 0.5);
    expect(m.survey!.photo_count).toBeGreaterThan(lines * 10);
    expect(m.est_time).toBeGreaterThan(0);
    const info = await wk.call<Saved>('missionInfo', { id: m.id });
    expect(info.body.data.corridor_line).toEqual(line);
    expect(info.body.data.waypoints).toEqual(m.waypoints);
  });

  it('refuses a strip route without its line or width at the call layer, and one with a single point', async () => {
    const noWidth = await wk.call('missionAdd', settings({ name: 'x', mission_type: 3, line: json(line) }));
    expect(noWidth.body.code).toBe(ResultCode.BAD_REQUEST);
    const noLine = await wk.call('missionAdd', settings({ name: 'x', mission_type: 3, corridor_width: 50 }));
    expect(noLine.body.code).toBe(ResultCode.BAD_REQUEST);
    const before = await wk.call<{ total: number }>('missionList', { page: 0, size: 100 });
    const onePoint = await wk.call<{ issues: Issue[] }>('missionAdd', strip([offset(0, 0), offset(0, 0)], 50), { lang: 'en' });
    expect(onePoint.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(onePoint.body.data.issues[0]!.code).toBe('strip.line_invalid');
    expect(onePoint.body.msg).toBe('The strip route needs a centre line of at least 2 distinct points');
    const after = await wk.call<{ total: number }>('missionList', { page: 0, size: 100 });
    expect(after.body.data.total).toBe(before.body.data.total);
  });

  it('refuses a corridor whose band reaches outside the fence', async () => {
    // The line is inside, 100 m from the fence's north edge; the band is 400 m wide.
    const res = await wk.call<{ issues: Issue[] }>('missionAdd', strip([offset(0, 2900), offset(1000, 2900)], 400));
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.data.issues.map((i) => i.code)).toContain('waypoint.outside_fence');
  });
});

describe('surveys longer than one battery', () => {
  const area = rect(0, 0, 1500, 1500);
  let parts: Saved['group'];

  it('refuses without split, saying how many flights it takes (zh and en); nothing is saved', async () => {
    const before = await wk.call<{ total: number }>('missionList', { page: 0, size: 100 });
    const en = await wk.call<{ issues: Issue[] }>('missionAdd', survey(area), { lang: 'en' });
    expect(en.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(en.body.data.issues[0]!.code).toBe('route.needs_split');
    const n = Number(/takes (\d+) flights/.exec(en.body.msg)?.[1]);
    expect(n).toBeGreaterThan(1);
    const zh = await wk.call('missionAdd', survey(area), { lang: 'zh' });
    expect(zh.body.msg).toContain(`拆分为 ${n} 个架次`);
    const after = await wk.call<{ total: number }>('missionList', { page: 0, size: 100 });
    expect(after.body.data.total).toBe(before.body.data.total);
  });

  it('with split=1 stores the parts as a group "Name (k/N)", each within the budget, part 1 flying next', async () => {
    const res = await wk.call<Saved>('missionAdd', survey(area, { split: 1 }));
    expect(res.body.code).toBe(ResultCode.OK);
    const first = res.body.data;
    parts = first.group!;
    expect(parts.count).toBeGreaterThan(1);
    expect(parts.parts).toHaveLength(parts.count);
    expect(first.id).toBe(parts.parts[0]!.id);
    expect(first.name).toBe(`Big survey (1/${parts.count})`);
    parts.parts.forEach((p, k) => {
      expect(p.name).toBe(`Big survey (${k + 1}/${parts!.count})`);
      expect(p.est_time).toBeLessThanOrEqual(ROUTE_FLIGHT_BUDGET_S * 1.02);
    });
    const list = await wk.call<{ list: Saved[] }>('missionList', { page: 0, size: 100 });
    const members = list.body.data.list.filter((m) => m.group_id === first.group_id);
    expect(members).toHaveLength(parts.count);
    for (const m of members) {
      expect(m.group_count).toBe(parts.count);
      expect(m.group_next).toBe(first.id);
    }
    expect(members.map((m) => m.group_index).sort((a, b) => a! - b!)).toEqual(parts.parts.map((_, k) => k + 1));
  });

  it('flies the next unflown part whichever part is started, and starts over once all have flown', async () => {
    const ids = parts!.parts.map((p) => p.id);
    const device = await server.db.selectFrom('devices').selectAll().where('sn_id', '=', NEST).executeTakeFirstOrThrow();
    const row = (id: string) => server.db.selectFrom('missions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // Starting the last part flies part 1.
    const v = await routeFor(server.db, device, ids[ids.length - 1]!);
    expect(v.ok && v.mission.id).toBe(ids[0]);
    await markPartFlown(server.db, ids[0]!);
    expect((await groupFlightPart(server.db, await row(ids[0]!))).id).toBe(ids[1]);
    const info = await wk.call<Saved>('missionInfo', { id: ids[2] ?? ids[0]! });
    expect(info.body.data.group_next).toBe(ids[1]);
    for (const id of ids.slice(1, -1)) await markPartFlown(server.db, id);
    expect((await groupFlightPart(server.db, await row(ids[0]!))).id).toBe(ids[ids.length - 1]);
    await markPartFlown(server.db, ids[ids.length - 1]!);
    // The whole group flown: part 1 is next again.
    expect((await groupFlightPart(server.db, await row(ids[1]!))).id).toBe(ids[0]);
  });

  it('editing a part re-plans the whole area: the old parts are replaced by the new group', async () => {
    const made = await wk.call<Saved>('missionAdd', survey(area, { split: 1, name: 'Edited' }));
    const old = made.body.data.group!.parts.map((p) => p.id);
    // A smaller area that fits one battery: the edited part becomes a route of its own, named without its suffix.
    const small = rect(0, 0, 400, 400);
    const res = await wk.call<Saved>('missionEdit', { id: old[1]!, ...survey(small, { name: made.body.data.group!.parts[1]!.name }) });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data).toMatchObject({ id: old[1], name: 'Edited', group_id: null, group: null });
    for (const id of old.filter((x) => x !== old[1])) expect((await wk.call('missionInfo', { id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // Back to the large area, split: the route is part 1 of a new group.
    const again = await wk.call<Saved>('missionEdit', { id: old[1]!, ...survey(area, { name: 'Edited', split: 1 }) });
    expect(again.body.code).toBe(ResultCode.OK);
    expect(again.body.data.id).toBe(old[1]);
    expect(again.body.data.name).toBe(`Edited (1/${again.body.data.group!.count})`);
    expect(again.body.data.group_next).toBe(old[1]);
  });

  it('deleting a part deletes its group', async () => {
    const ids = parts!.parts.map((p) => p.id);
    const del = await wk.call('missionEdit', { id: ids[1]!, ...survey(area), state: 20 });
    expect(del.body.code).toBe(ResultCode.OK);
    for (const id of ids) expect((await wk.call('missionInfo', { id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });
});
