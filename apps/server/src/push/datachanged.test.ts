import { DEVICE_PUSH_FUNCTION, PushMsgId, ResultCode, type DataTopic } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, listen } from '../../test/live.js';
import { createDevice } from '../devices/store.js';
import { CENTER, json, offset, rect } from '../fences/test-fixtures.js';
import { addResult, addSortie } from '../stats/test-fixtures.js';

/** Which modules say that a company's data changed, through real calls (push 380's sources). */
const FUNS = ['fence_add', 'mission_add', 'task_add', 'task_edit', 'result_delete_one', 'result_delete_sort', 'sorties_delete', DEVICE_PUSH_FUNCTION];
const NEST = 'DC-NEST-1';

let server: TestServer;
let wk: TestClient;
let route: string;
let notices: [string, DataTopic][] = [];
const T0 = Math.ceil(Date.now() / 1000 / 3600) * 3600 + 24 * 3600;

async function must<D>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await createDevice(server.db, { type: 'stable', sn_id: NEST, company_id: 'wk', airport_point: CENTER });
  wk = await userClient(server, { companyId: 'wk', funList: FUNS });
  const fence = await must<{ id: string }>(wk, 'fenceAdd', { name: 'DC fence', max_height: 300, boundary: json(rect(-1000, -1000, 1000, 1000)), sn_id: NEST });
  const pts = [offset(-200, 0), offset(200, 0), offset(200, 200)].map((p) => ({ ...p, height: 80 }));
  route = (
    await must<{ id: string }>(wk, 'missionAdd', {
      name: 'DC route',
      fence_id: fence.id,
      mission_type: 1,
      auto_speed: 8,
      max_speed: 12,
      default_height: 80,
      return_height: 100,
      waypoints: json(pts),
    })
  ).id;
  server.app.nest.deps.changes.on('changed', (company, topic) => notices.push([company, topic]));
});
afterAll(async () => server?.close());

describe('data-changed notices', () => {
  it('timed tasks: added and edited', async () => {
    notices = [];
    const t = await must<{ id: string }>(wk, 'taskAdd', { mission_id: route, sn_id: NEST, task_tms: T0 });
    expect(notices).toEqual([['wk', 'tasks']]);
    await must(wk, 'taskEdit', { id: t.id, task_tms: T0 + 3600 });
    await must(wk, 'taskEdit', { id: t.id, state: 10 });
    expect(notices).toEqual([['wk', 'tasks'], ['wk', 'tasks'], ['wk', 'tasks']]);
  });

  it('results deleted one by one, by sortie, and with their sorties; 380 reaches the company socket', async () => {
    const base = await listen(server);
    const s = await PushSocket.open(base);
    expect((await s.verifyUser(wk)).code).toBe(ResultCode.OK);
    const sortie = await addSortie(server.db, { sn: NEST, start: T0 });
    const one = (await addResult(server.db, { sn: NEST, sortId: sortie, takenAt: T0 + 10, dataDir: server.config.dataDir })).id;
    await addResult(server.db, { sn: NEST, sortId: sortie, takenAt: T0 + 20, dataDir: server.config.dataDir });
    notices = [];
    await must(wk, 'resultDeleteOne', { id: one });
    expect(notices).toEqual([['wk', 'results']]);
    await must(wk, 'resultDeleteSort', { sort_id: sortie });
    await must(wk, 'sortiesDelete', { ids: sortie });
    expect(notices).toEqual([
      ['wk', 'results'],
      ['wk', 'results'],
      ['wk', 'sorties'],
      ['wk', 'results'],
    ]);
    const frame = await s.wait((f) => f.msg_id === PushMsgId.DATA_CHANGED, WAIT_LIMIT_MS);
    expect((frame.data as { topics: string[] }).topics).toContain('results');
    s.close();
  });
});
