import { ResultCode, timedTaskRowSchema } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { createDevice } from '../devices/store.js';
import { CENTER, json, offset, rect } from '../fences/test-fixtures.js';

const FUNS = ['fence_add', 'mission_add', 'task_add', 'task_edit', 'task_list'];
const NEST = 'TASK-NEST-1';
const NEST2 = 'TASK-NEST-2';
const FOREIGN = 'TASK-NEST-GZ';

interface Task {
  id: string;
  mission_id: string;
  f_title: string;
  m_title: string;
  sn_id: string;
  task_tms: number;
  interval: number;
  task_state: number;
  state: number;
  next_run: number | null;
  last_run: number | null;
  last_outcome: string;
  create_time: number;
}

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
let route1: string;
let route2: string;
let routeGz: string;
/** A base time well in the future, on a whole hour. */
const T0 = Math.ceil(Date.now() / 1000 / 3600) * 3600 + 24 * 3600;

async function must<D>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function routeOn(c: TestClient, sn: string, name: string, origin = CENTER): Promise<string> {
  const fence = await must<{ id: string }>(c, 'fenceAdd', { name: `Fence ${name}`, max_height: 300, boundary: json(rect(-1000, -1000, 1000, 1000, origin)), sn_id: sn });
  const pts = [offset(-200, 0, origin), offset(200, 0, origin), offset(200, 200, origin)].map((p) => ({ ...p, height: 80 }));
  const mission = await must<{ id: string }>(c, 'missionAdd', {
    name,
    fence_id: fence.id,
    mission_type: 1,
    auto_speed: 8,
    max_speed: 12,
    default_height: 80,
    return_height: 100,
    waypoints: json(pts),
  });
  return mission.id;
}

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await createDevice(server.db, { type: 'stable', sn_id: NEST, company_id: 'wk', airport_point: CENTER });
  await createDevice(server.db, { type: 'stable', sn_id: NEST2, company_id: 'wk', airport_point: offset(5000, 0) });
  await createDevice(server.db, { type: 'stable', sn_id: FOREIGN, company_id: 'gzGh', airport_point: offset(0, 5000) });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  gz = await userClient(server, { companyId: 'gzGh', funList: FUNS });
  route1 = await routeOn(wk, NEST, 'Patrol one');
  route2 = await routeOn(wk, NEST2, 'Patrol two', offset(5000, 0));
  routeGz = await routeOn(gz, FOREIGN, 'Foreign', offset(0, 5000));
});
afterAll(async () => server?.close());

describe('/task/add', () => {
  it('plans a task with the titles copied from the fence and route', async () => {
    const t = await must<Task>(wk, 'taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0, f_title: 'ignored', m_title: 'ignored' });
    expect(t).toMatchObject({
      mission_id: route1,
      f_title: 'Fence Patrol one',
      m_title: 'Patrol one',
      sn_id: NEST,
      task_tms: T0,
      interval: 0,
      task_state: 1,
      state: 0,
      next_run: T0,
      last_run: null,
    });
  });

  it('refuses another company route, a route of another device, a past time and a short interval', async () => {
    const foreign = await wk.call('taskAdd', { mission_id: routeGz, sn_id: NEST, task_tms: T0 + 7200 });
    expect(foreign.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const wrong = await wk.call('taskAdd', { mission_id: route2, sn_id: NEST, task_tms: T0 + 7200 }, { lang: 'zh' });
    expect(wrong.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: '该航线不属于所选设备的围栏' });
    const past = await wk.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: Math.floor(Date.now() / 1000) - 3600 });
    expect(past.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'The run time has passed: choose a time in the future' });
    const short = await wk.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 + 7200, interval: 20 });
    expect(short.body.code).toBe(ResultCode.BAD_REQUEST);
    // The other company cannot plan on wk's device either.
    expect((await gz.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 + 7200 })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('keeps runs of one device at least 30 minutes apart', async () => {
    const close = await wk.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 + 20 * 60 });
    expect(close.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(close.body.msg).toContain('Less than 30 minutes from this device\'s timed task "Patrol one"');
    const zh = await wk.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 - 10 * 60 }, { lang: 'zh' });
    expect(zh.body.msg).toContain('执行时间间隔不足 30 分钟');
    // A repeating series that would land 10 minutes from the once task a few hours later.
    const series = await wk.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 - 3 * 3600 + 10 * 60, interval: 60 });
    expect(series.body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 + 30 * 60 })).body.code).toBe(ResultCode.OK);
    // Another device is not affected.
    expect((await wk.call('taskAdd', { mission_id: route2, sn_id: NEST2, task_tms: T0 + 60, interval: 1440 })).body.code).toBe(ResultCode.OK);
  });
});

describe('/task/edit and /task/list', () => {
  it('pauses, resumes, changes time and interval, and deletes', async () => {
    const t = await must<Task>(wk, 'taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 + 5 * 3600 });
    const paused = await must<Task>(wk, 'taskEdit', { id: t.id, task_state: 3 });
    expect(paused).toMatchObject({ task_state: 3, next_run: null, task_tms: T0 + 5 * 3600 });
    const resumed = await must<Task>(wk, 'taskEdit', { id: t.id, task_state: 1 });
    expect(resumed).toMatchObject({ task_state: 1, next_run: T0 + 5 * 3600, m_title: 'Patrol one' });
    const moved = await must<Task>(wk, 'taskEdit', { id: t.id, task_tms: T0 + 6 * 3600, interval: 1440 });
    expect(moved).toMatchObject({ task_tms: T0 + 6 * 3600, interval: 1440, task_state: 1 });
    // Daily at T0+6h clashes with nothing; moving it onto the first task is refused and keeps the row.
    expect((await wk.call('taskEdit', { id: t.id, task_tms: T0 + 60 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('taskEdit', { id: t.id, task_state: 2 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await gz.call('taskEdit', { id: t.id, task_state: 3 })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const deleted = await must<Task>(wk, 'taskEdit', { id: t.id, state: 10 });
    expect(deleted.state).toBe(10);
    const list = await must<{ list: Task[] }>(wk, 'taskList', { page: 0, size: 50 });
    expect(list.list.map((x) => x.id)).not.toContain(t.id);
    expect((await wk.call('taskEdit', { id: t.id, task_state: 1 })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('changes the route and device together, refreshing the titles', async () => {
    const t = await must<Task>(wk, 'taskAdd', { mission_id: route1, sn_id: NEST, task_tms: T0 + 9 * 3600 });
    expect((await wk.call('taskEdit', { id: t.id, mission_id: route2 })).body.code).toBe(ResultCode.BAD_REQUEST);
    const moved = await must<Task>(wk, 'taskEdit', { id: t.id, mission_id: route2, sn_id: NEST2, task_tms: T0 + 9 * 3600 + 15 * 60 });
    expect(moved).toMatchObject({ sn_id: NEST2, m_title: 'Patrol two', f_title: 'Fence Patrol two' });
  });

  it('lists the caller company tasks with filters', async () => {
    const all = await must<{ list: Task[]; total: number }>(wk, 'taskList', { page: 0, size: 50 });
    expect(all.total).toBe(all.list.length);
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.list[0]).toHaveProperty('create_time');
    for (const row of all.list) timedTaskRowSchema.parse(row);
    const bySn = await must<{ list: Task[]; total: number }>(wk, 'taskList', { page: 0, size: 50, sn_id: NEST2 });
    expect(bySn.list.every((x) => x.sn_id === NEST2)).toBe(true);
    const search = await must<{ list: Task[]; total: number }>(wk, 'taskList', { page: 0, size: 50, search: 'TWO' });
    expect(search.total).toBeGreaterThan(0);
    expect(search.list.every((x) => x.m_title === 'Patrol two')).toBe(true);
    const waiting = await must<{ list: Task[]; total: number }>(wk, 'taskList', { page: 0, size: 50, task_state: 3 });
    expect(waiting.total).toBe(0);
    const foreign = await must<{ list: Task[]; total: number }>(gz, 'taskList', { page: 0, size: 50 });
    expect(foreign.total).toBe(0);
    const page = await must<{ list: Task[]; total: number }>(wk, 'taskList', { page: 1, size: 1 });
    expect(page.list).toHaveLength(1);
    expect(page.total).toBe(all.total);
  });
});
