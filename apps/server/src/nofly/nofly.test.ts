import { IssueCode, noFlyConflictIssues, type Issue, type NoFlyInput } from '@nest/geo';
import { Reason, ResultCode, noFlyZoneSchema, type LatLng, type NoFlyZone, type PreflightCheck, type Waypoint } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { FakeNest } from '../../test/fake-nest.js';
import { registerDevice } from '../../test/live.js';
import { nowSeconds } from '../db/index.js';
import { json, offset, rect, uShape } from '../fences/test-fixtures.js';
import { findDeviceBySn } from '../devices/store.js';
import { routeFor } from '../flight/route.js';
import { createScheduler } from '../tasks/scheduler.js';

/**
 * Company no-fly zones through the real server: the calls and their company scope, bad input, and the
 * one rule on every path (save, survey generation, pre-flight checks, a timed task firing), plus fence
 * deletion. Each test works in its own area of a 10 km fence far from the demo map zones, so zones of one
 * test do not reach another's routes.
 */

const O: LatLng = { lat: 30.5, lng: 114.3 };
/** The centre of a test's own area, `n` km east of O. */
const area = (n: number): LatLng => offset(n * 1000 - 4000, 0, O);
/** Close to the nest: a survey there fits in one flight with its way out and back. */
const NEAR: LatLng = offset(300, 300, O);
const SN = 'NOFLY-T-1';
const SN2 = 'NOFLY-T-2';
const SN_OTHER = 'NOFLY-T-OTHER';
const FUNS = ['nofly_list', 'nofly_add', 'nofly_edit', 'nofly_delete', 'fence_add', 'fence_delete', 'fence_one', 'mission_add', 'mission_edit', 'task_add', 'task_edit', 'task_list'];
const log = { info: () => undefined, warn: () => undefined };

let server: TestServer;
let admin: TestClient;
let wk: TestClient;
let other: TestClient;
const fenceOf: Record<string, string> = {};

type Refusal = { issues: Issue[] };

async function addFence(sn: string, client: TestClient = wk, name = `Fence ${sn}`): Promise<string> {
  const res = await client.call<{ id: string }>('fenceAdd', { name, max_height: 300, boundary: json(rect(-5000, -5000, 5000, 5000, O)), sn_id: sn });
  expect(res.body.code, res.body.msg).toBe(ResultCode.OK);
  return res.body.data.id;
}

const routeFields = (name: string, sn: string, pts: LatLng[], over: Fields = {}): Fields => ({
  name,
  fence_id: fenceOf[sn]!,
  mission_type: 1,
  auto_speed: 10,
  max_speed: 12,
  default_height: 80,
  return_height: 100,
  waypoints: json(pts.map((p) => ({ ...p, height: 80 }))),
  ...over,
});

const polygonZone = (name: string, boundary: LatLng[], over: Fields = {}): Fields => ({ name, reason: 'Test reason', shape: 1, boundary: json(boundary), ...over });
const circleZone = (name: string, center: LatLng, radius: number, over: Fields = {}): Fields => ({ name, reason: 'Test reason', shape: 2, center: json(center), radius, ...over });

async function addZone(fields: Fields, client: TestClient = wk): Promise<NoFlyZone> {
  const res = await client.call<NoFlyZone>('noFlyAdd', fields);
  expect(res.body.code, res.body.msg).toBe(ResultCode.OK);
  return noFlyZoneSchema.parse(res.body.data);
}

const count = async (table: 'no_fly_zones' | 'missions' | 'fences'): Promise<number> =>
  Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  await registerDevice(server, { sn_id: SN, airport_point: O });
  await registerDevice(server, { sn_id: SN2, airport_point: O });
  await registerDevice(server, { sn_id: SN_OTHER, company_id: 'gzGh', airport_point: O });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  other = await userClient(server, { companyId: 'gzGh', funList: FUNS });
  fenceOf[SN] = await addFence(SN);
  fenceOf[SN2] = await addFence(SN2);
  fenceOf[SN_OTHER] = await addFence(SN_OTHER, other);
});
afterAll(async () => server?.close());

describe('/nofly calls', () => {
  it('adds, lists, edits and deletes zones of the caller company; a device zone is listed for its device only', async () => {
    const a = area(0);
    const poly = await addZone(polygonZone('Substation', rect(100, 100, 300, 300, a), { reason: 'High voltage' }));
    expect(poly).toMatchObject({ name: 'Substation', reason: 'High voltage', shape: 1, sn_id: '', center: null, radius: null, active: true, valid_from: null, valid_to: null });
    expect(poly.boundary).toHaveLength(4);
    const circle = await addZone(circleZone('Kindergarten', offset(-300, -300, a), 80, { sn_id: SN }));
    expect(circle).toMatchObject({ shape: 2, boundary: [], radius: 80, sn_id: SN, active: true });
    expect(circle.center!.lat).toBeCloseTo(offset(-300, -300, a).lat, 9);

    const names = async (fields: Fields, client = wk) =>
      (await client.call<{ list: NoFlyZone[]; total: number }>('noFlyList', { page: 0, size: 100, ...fields })).body.data.list.map((z) => z.name).sort();
    expect(await names({})).toEqual(expect.arrayContaining(['Kindergarten', 'Substation']));
    expect(await names({ search: 'subst' })).toEqual(['Substation']);
    expect(await names({ sn_id: SN })).toEqual(expect.arrayContaining(['Kindergarten', 'Substation']));
    expect(await names({ sn_id: SN2 })).toContain('Substation');
    expect(await names({ sn_id: SN2 })).not.toContain('Kindergarten');

    const edited = await wk.call<NoFlyZone>('noFlyEdit', { id: poly.id, ...circleZone('Substation B', offset(200, 200, a), 120) });
    expect(edited.body.code).toBe(ResultCode.OK);
    expect(edited.body.data).toMatchObject({ id: poly.id, name: 'Substation B', shape: 2, boundary: [], radius: 120 });

    const del = await wk.call<{ id: string }>('noFlyDelete', { id: poly.id });
    expect(del.body).toMatchObject({ code: ResultCode.OK, data: { id: poly.id } });
    expect(await names({})).not.toContain('Substation B');
    expect((await wk.call('noFlyEdit', { id: poly.id, ...circleZone('Back', offset(0, 0, a), 10) })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);

    const audit = await server.db.selectFrom('audit_log').select(['kind', 'target']).where('target', '=', poly.id).orderBy('id').execute();
    expect(audit.map((r) => r.kind)).toEqual(['nofly_add', 'nofly_edit', 'nofly_delete']);
    await wk.call('noFlyDelete', { id: circle.id });
  });

  it('another company sees none of them and cannot touch them; a device of another company is refused', async () => {
    const zone = await addZone(polygonZone('Mine only', rect(100, 100, 300, 300, area(1))));
    const list = await other.call<{ list: NoFlyZone[]; total: number }>('noFlyList', { page: 0, size: 100 });
    expect(list.body.data.list.map((z) => z.id)).not.toContain(zone.id);
    expect((await other.call<{ total: number }>('noFlyList', { sn_id: SN, page: 0, size: 100 })).body.data).toEqual({ list: [], total: 0 });
    expect((await other.call('noFlyEdit', { id: zone.id, ...polygonZone('Stolen', rect(0, 0, 10, 10, area(1))) })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await other.call('noFlyDelete', { id: zone.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await other.call('noFlyAdd', polygonZone('On theirs', rect(0, 0, 10, 10, area(1)), { sn_id: SN }))).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('noFlyAdd', polygonZone('On another', rect(0, 0, 10, 10, area(1)), { sn_id: SN_OTHER }))).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // The super administrator sees every company's zones.
    const all = await admin.call<{ list: NoFlyZone[] }>('noFlyList', { page: 0, size: 1000 });
    expect(all.body.data.list.map((z) => z.id)).toContain(zone.id);
    expect((await wk.call<NoFlyZone>('noFlyList', { page: 0, size: 100 })).body.code).toBe(ResultCode.OK);
    await wk.call('noFlyDelete', { id: zone.id });
  });

  it('refuses bad input with a localised message and saves nothing', async () => {
    const a = area(2);
    const before = await count('no_fly_zones');
    const bow = [offset(0, 0, a), offset(100, 100, a), offset(100, 0, a), offset(0, 100, a)];
    const zh = await wk.call<Refusal>('noFlyAdd', polygonZone('Bow', bow), { lang: 'zh' });
    expect(zh.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(zh.body.msg).toBe('禁飞区「Bow」的边界自相交');
    const en = await wk.call<Refusal>('noFlyAdd', polygonZone('Bow', bow), { lang: 'en' });
    expect(en.body.msg).toBe('No-fly zone "Bow" crosses itself');
    expect(en.body.data.issues[0]!.code).toBe(IssueCode.FENCE_SELF_INTERSECTING);
    const line = [offset(0, 0, a), offset(50, 0, a), offset(100, 0, a)];
    expect((await wk.call('noFlyAdd', polygonZone('Line', line), { lang: 'en' })).body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'No-fly zone "Line" encloses no area' });
    for (const fields of [
      circleZone('Radius 0', a, 0),
      circleZone('Too wide', a, 50_001),
      { ...circleZone('No centre', a, 10), center: '' },
      { name: 'No ring', shape: 1 },
      polygonZone('Backwards', rect(0, 0, 10, 10, a), { valid_from: nowSeconds() + 100, valid_to: nowSeconds() }),
    ]) {
      const res = await wk.call('noFlyAdd', fields, { lang: 'en' });
      expect(res.body.code, JSON.stringify(fields)).toBe(ResultCode.BAD_REQUEST);
      expect(res.body.msg).not.toBe('');
    }
    const zone = await addZone(polygonZone('Keep', rect(0, 0, 100, 100, a)));
    const edit = await wk.call('noFlyEdit', { id: zone.id, ...polygonZone('Keep', bow) });
    expect(edit.body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call<{ list: NoFlyZone[] }>('noFlyList', { search: 'Keep', page: 0, size: 10 })).body.data.list[0]!.boundary).toEqual(zone.boundary);
    expect(await count('no_fly_zones')).toBe(before + 1);
    await wk.call('noFlyDelete', { id: zone.id });
  });
});

describe('routes keep out of no-fly zones', () => {
  it('refuses to save a waypoint inside or a leg across a concave zone or a circle, naming the zone and its reason', async () => {
    const a = area(3);
    // A U open to the north: 400 m wide, arms 100 m; its notch is x in (-100, 100), y above -100.
    const school = await addZone(polygonZone('School', uShape(400, 400, 100, a), { reason: 'Classes' }));
    const circle = await addZone(circleZone('Crowd', offset(0, 800, a), 100, { reason: 'Festival' }));
    const before = await count('missions');

    // Down into the notch and back out: it never enters the U.
    const notch = await wk.call('missionAdd', routeFields('Notch', SN, [offset(0, 400, a), offset(0, 0, a), offset(60, 300, a)]));
    expect(notch.body.code, notch.body.msg).toBe(ResultCode.OK);

    const across = await wk.call<Refusal>('missionAdd', routeFields('Across the arms', SN, [offset(-300, 0, a), offset(300, 0, a)]), { lang: 'en' });
    expect(across.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(across.body.data.issues).toEqual([expect.objectContaining({ code: IssueCode.LEG_CROSSES_NO_FLY, item: { kind: 'leg', index: 0, id: school.id } })]);
    expect(across.body.msg).toContain('"School"');
    expect(across.body.msg).toContain('Classes');
    const zh = await wk.call('missionAdd', routeFields('Across the arms', SN, [offset(-300, 0, a), offset(300, 0, a)]), { lang: 'zh' });
    expect(zh.body.msg).toContain('禁飞区「School」');
    expect(zh.body.msg).toContain('Classes');

    const inside = await wk.call<Refusal>('missionAdd', routeFields('Into the crowd', SN, [offset(-300, 400, a), offset(30, 800, a)]), { lang: 'en' });
    expect(inside.body.data.issues).toEqual([expect.objectContaining({ code: IssueCode.WAYPOINT_IN_NO_FLY, item: { kind: 'waypoint', index: 1, id: circle.id } })]);
    const chord = await wk.call<Refusal>('missionAdd', routeFields('Through the crowd', SN, [offset(-300, 750, a), offset(300, 750, a)]));
    expect(chord.body.data.issues[0]).toMatchObject({ code: IssueCode.LEG_CROSSES_NO_FLY, item: { id: circle.id } });
    // Passing 10 m north of the circle is clear.
    const by = await wk.call('missionAdd', routeFields('By the crowd', SN, [offset(-300, 910, a), offset(300, 910, a)]));
    expect(by.body.code, by.body.msg).toBe(ResultCode.OK);
    expect(await count('missions')).toBe(before + 2);
  });

  it('a zone outside its validity period does not restrict; one valid later restricts saving but not a takeoff now', async () => {
    const a = area(4);
    const now = nowSeconds();
    const leg = [offset(-300, 0, a), offset(300, 0, a)];
    const past = await addZone(circleZone('Past event', a, 100, { valid_from: now - 7200, valid_to: now - 3600 }));
    expect(past.active).toBe(false);
    const saved = await wk.call<{ id: string }>('missionAdd', routeFields('After the event', SN, leg));
    expect(saved.body.code, saved.body.msg).toBe(ResultCode.OK);

    const zoneCheck = async (missionId: string) =>
      (await admin.call<{ checks: PreflightCheck[] }>('flightCheck', { sn_id: SN, mission_id: missionId }, { lang: 'en' })).body.data.checks.find((c) => c.item === 'zone');
    expect(await zoneCheck(saved.body.data.id)).toMatchObject({ ok: true });

    // Valid from tomorrow: a new route crossing it is refused now; the saved one may still fly today.
    const later = await addZone(circleZone('Tomorrow', offset(0, 0, a), 50, { valid_from: now + 86_400 }));
    expect(later.active).toBe(false);
    const refused = await wk.call<Refusal>('missionAdd', routeFields('Into tomorrow', SN, leg));
    expect(refused.body.data.issues[0]).toMatchObject({ code: IssueCode.LEG_CROSSES_NO_FLY, item: { id: later.id } });
    expect(await zoneCheck(saved.body.data.id)).toMatchObject({ ok: true });

    // The same zone made valid now: the saved route fails the check, naming the zone and its reason.
    const nowZone = await wk.call<NoFlyZone>('noFlyEdit', { id: later.id, ...circleZone('Tomorrow', offset(0, 0, a), 50, { reason: 'Works', valid_from: now - 60 }) });
    expect(nowZone.body.data.active).toBe(true);
    expect(await zoneCheck(saved.body.data.id)).toEqual({ item: 'zone', ok: false, reason: Reason.ROUTE_ZONE, value: 'No-fly zone "Tomorrow" (reason: Works)' });
    await wk.call('noFlyDelete', { id: later.id });
    expect(await zoneCheck(saved.body.data.id)).toMatchObject({ ok: true });
  });

  it('at takeoff a zone restricts from its first to its last second, both included', async () => {
    const a = offset(0, 2500, O);
    const saved = await wk.call<{ id: string }>('missionAdd', routeFields('Before the works', SN, [offset(-300, 0, a), offset(300, 0, a)]));
    expect(saved.body.code, saved.body.msg).toBe(ResultCode.OK);
    const from = nowSeconds() + 1000;
    const to = from + 1000;
    await addZone(circleZone('Works', a, 50, { reason: 'Crane', valid_from: from, valid_to: to }));
    const device = (await findDeviceBySn(server.db, SN))!;
    const zoneAt = async (t: number) => {
      const v = await routeFor(server.db, device, saved.body.data.id, t);
      return v.ok ? v.zone : 'refused';
    };
    expect(await zoneAt(from - 1)).toBeNull();
    expect(await zoneAt(from)).toEqual({ zh: '禁飞区「Works」（原因：Crane）', en: 'No-fly zone "Works" (reason: Crane)' });
    expect(await zoneAt(to)).not.toBeNull();
    expect(await zoneAt(to + 1)).toBeNull();
  });

  it('a zone of one device restricts only that device\'s routes', async () => {
    const a = area(5);
    const zone = await addZone(circleZone('Only 2', a, 100, { sn_id: SN2 }));
    const leg = [offset(-300, 0, a), offset(300, 0, a)];
    expect((await wk.call('missionAdd', routeFields('Device 1 crosses', SN, leg))).body.code).toBe(ResultCode.OK);
    const two = await wk.call<Refusal>('missionAdd', routeFields('Device 2 crosses', SN2, leg));
    expect(two.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(two.body.data.issues[0]!.item.id).toBe(zone.id);
  });

  it('generates a survey around a zone inside its area', async () => {
    const a = NEAR;
    const zone = await addZone(circleZone('Tower', offset(150, 100, a), 30, { reason: 'Mast' }));
    const res = await wk.call<{ waypoints: Waypoint[] }>(
      'missionAdd',
      routeFields('Survey around the tower', SN, [], { mission_type: 2, camera_type: '6k', course_overlap: 80, lateral_overlap: 70, waypoints: '[]', polygon: json(rect(0, 0, 300, 200, a)) }),
    );
    expect(res.body.code, res.body.msg).toBe(ResultCode.OK);
    const wps = res.body.data.waypoints;
    expect(wps.length).toBeGreaterThan(4);
    const input: NoFlyInput = { ...zone };
    expect(noFlyConflictIssues(wps, [input])).toEqual([]);
    // The grid covers both sides of the zone, not just one.
    const c = zone.center!;
    expect(wps.some((w) => w.lng < c.lng) && wps.some((w) => w.lng > c.lng)).toBe(true);
  });
});

describe('takeoff and timed tasks', () => {
  it('a zone declared over a saved route refuses its takeoff and its timed task, with the zone and its reason', async () => {
    const sn = 'NOFLY-T-LIVE';
    await registerDevice(server, { sn_id: sn, airport_point: O });
    fenceOf[sn] = await addFence(sn);
    const nest = await FakeNest.start(server, sn);
    try {
      const a = area(7);
      const route = await wk.call<{ id: string }>('missionAdd', routeFields('Market patrol', sn, [offset(-300, 0, a), offset(300, 0, a)]));
      expect(route.body.code, route.body.msg).toBe(ResultCode.OK);
      // The administrator asking does not hold the device (control); a timed task needs no hold.
      const failing = (checks: PreflightCheck[]) => checks.filter((c) => !c.ok && c.item !== 'control');
      const ready = await admin.call<{ ready: boolean; checks: PreflightCheck[] }>('flightCheck', { sn_id: sn, mission_id: route.body.data.id });
      expect(failing(ready.body.data.checks)).toEqual([]);

      // Declaring the zone is not refused because a saved route crosses it.
      const zone = await addZone(polygonZone('Market', rect(-50, -50, 50, 50, a), { reason: 'Crowd' }));
      for (const lang of ['en', 'zh'] as const) {
        const res = await admin.call<{ ready: boolean; checks: PreflightCheck[] }>('flightCheck', { sn_id: sn, mission_id: route.body.data.id }, { lang });
        expect(res.body.data.ready).toBe(false);
        expect(failing(res.body.data.checks)).toEqual([
          { item: 'zone', ok: false, reason: Reason.ROUTE_ZONE, value: lang === 'en' ? 'No-fly zone "Market" (reason: Crowd)' : '禁飞区「Market」（原因：Crowd）' },
        ]);
      }

      const tms = nowSeconds() + 3600;
      const task = await wk.call<{ id: string }>('taskAdd', { mission_id: route.body.data.id, sn_id: sn, task_tms: tms, interval: 0 });
      expect(task.body.code, task.body.msg).toBe(ResultCode.OK);
      const scheduler = createScheduler({ db: server.db, flight: server.app.nest.flight, log, now: () => tms });
      expect(await scheduler.tick()).toBe(1);
      const row = await server.db.selectFrom('timed_tasks').selectAll().where('id', '=', task.body.data.id).executeTakeFirstOrThrow();
      expect(row.last_outcome).toBe(
        `reply:refused:${Reason.ROUTE_ZONE}|${JSON.stringify({ zh: '禁飞区「Market」（原因：Crowd）', en: 'No-fly zone "Market" (reason: Crowd)' })}`,
      );
      expect(Number(row.task_state)).toBe(40);
      // The task's outcome names the zone and its reason in the language of whoever lists it.
      const outcome = async (lang: 'zh' | 'en') =>
        (await wk.call<{ list: { id: string; outcome_text: string }[] }>('taskList', { sn_id: sn, page: 0, size: 10 }, { lang })).body.data.list.find(
          (t) => t.id === task.body.data.id,
        )?.outcome_text;
      expect(await outcome('en')).toBe('The route enters a no-fly or restricted zone: No-fly zone "Market" (reason: Crowd)');
      expect(await outcome('zh')).toMatch(/^航线.+：禁飞区「Market」（原因：Crowd）$/);
      expect(nest.commands).toEqual([]);

      await wk.call('noFlyDelete', { id: zone.id });
      const clear = await admin.call<{ checks: PreflightCheck[] }>('flightCheck', { sn_id: sn, mission_id: route.body.data.id });
      expect(failing(clear.body.data.checks)).toEqual([]);
    } finally {
      await nest.stop();
    }
  });
});

describe('/fence/delete', () => {
  it('is refused while routes or a planned timed task use the fence, naming them; allowed once they are gone', async () => {
    const sn = 'NOFLY-T-DEL';
    await registerDevice(server, { sn_id: sn, airport_point: O });
    fenceOf[sn] = await addFence(sn, wk, 'Doomed');
    const a = area(8);
    const ids: string[] = [];
    for (const name of ['R1', 'R2', 'R3', 'R4']) {
      const r = await wk.call<{ id: string }>('missionAdd', routeFields(name, sn, [offset(-100, 0, a), offset(100, 0, a)]));
      expect(r.body.code, r.body.msg).toBe(ResultCode.OK);
      ids.push(r.body.data.id);
    }
    const task = await wk.call<{ id: string }>('taskAdd', { mission_id: ids[0]!, sn_id: sn, task_tms: nowSeconds() + 7200, interval: 0 });
    expect(task.body.code, task.body.msg).toBe(ResultCode.OK);

    const en = await wk.call<{ routes: { id: string }[]; tasks: { id: string }[] }>('fenceDelete', { id: fenceOf[sn]! }, { lang: 'en' });
    expect(en.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(en.body.msg).toBe('Fence "Doomed" is still used and cannot be deleted: routes "R1", "R2", "R3" and 1 more; the timed task of "R1"');
    expect(en.body.data.routes.map((r) => r.id)).toEqual(ids);
    expect(en.body.data.tasks.map((t) => t.id)).toEqual([task.body.data.id]);
    const zh = await wk.call('fenceDelete', { id: fenceOf[sn]! }, { lang: 'zh' });
    expect(zh.body.msg).toBe('围栏「Doomed」仍在使用中，不能删除：航线「R1」、「R2」、「R3」等 4 条；定时任务「R1」');
    expect((await other.call('fenceDelete', { id: fenceOf[sn]! })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);

    for (const id of ids) {
      const del = await wk.call('missionEdit', { id, ...routeFields('gone', sn, [offset(-100, 0, a), offset(100, 0, a)]), state: 20 });
      expect(del.body.code).toBe(ResultCode.OK);
    }
    // The task still names a route on the fence.
    const stillTask = await wk.call('fenceDelete', { id: fenceOf[sn]! }, { lang: 'en' });
    expect(stillTask.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Fence "Doomed" is still used and cannot be deleted: the timed task of "R1"' });
    expect((await wk.call('taskEdit', { id: task.body.data.id, state: 10 })).body.code).toBe(ResultCode.OK);

    const ok = await wk.call<{ id: string }>('fenceDelete', { id: fenceOf[sn]! });
    expect(ok.body).toMatchObject({ code: ResultCode.OK, data: { id: fenceOf[sn] } });
    expect((await wk.call('fenceOne', { id: fenceOf[sn]! })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('fenceDelete', { id: fenceOf[sn]! })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const audit = await server.db.selectFrom('audit_log').select('kind').where('target', '=', fenceOf[sn]!).execute();
    expect(audit.map((r) => r.kind)).toEqual(['fence_delete']);
  });
});
