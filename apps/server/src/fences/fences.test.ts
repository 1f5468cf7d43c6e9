import { ResultCode, fenceSchema, type Fence } from '@nest/contracts';
import type { Issue } from '@nest/geo';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { createDevice } from '../devices/store.js';
import { json, offset, rect } from './test-fixtures.js';

const FENCE_FUNS = ['fence_list', 'fence_add', 'fence_edit', 'fence_one', 'mission_add', 'mission_info'];

let server: TestServer;
let admin: TestClient;
let wkUser: TestClient;
let otherUser: TestClient;
const SN = 'PLAN-FENCE-1';
const SN2 = 'PLAN-FENCE-2';

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  await createDevice(server.db, { type: 'stable', sn_id: SN, company_id: 'wk', airport_point: offset(0, 0) });
  await createDevice(server.db, { type: 'stable', sn_id: SN2, company_id: 'wk' });
  wkUser = await userClient(server, { companyId: 'wk', funList: FENCE_FUNS });
  otherUser = await userClient(server, { companyId: 'gzGh', funList: FENCE_FUNS });
});
afterAll(async () => server?.close());

type Refusal = { issues: Issue[] };

const fenceFields = (name: string, boundary: unknown, sn = SN, max = 120) => ({ name, max_height: max, boundary: json(boundary), sn_id: sn });

describe('/fence/add', () => {
  it('creates a fence of a visible device and answers it', async () => {
    const res = await wkUser.call<Fence>('fenceAdd', fenceFields('Add ok', rect(-3000, -3000, -2000, -2000)));
    expect(res.body.code).toBe(ResultCode.OK);
    const f = fenceSchema.parse(res.body.data);
    expect(f).toMatchObject({ name: 'Add ok', max_height: 120, sn_id: SN });
    expect(f.boundary).toHaveLength(4);
    const one = await wkUser.call<Fence>('fenceOne', { id: f.id });
    expect(one.body.data.boundary).toEqual(f.boundary);
  });

  it('refuses invalid fields (too few points, no max height) at the call layer', async () => {
    const few = await wkUser.call('fenceAdd', fenceFields('Few', rect(0, 0, 10, 10).slice(0, 2)));
    expect(few.body.code).toBe(ResultCode.BAD_REQUEST);
    const zero = await wkUser.call('fenceAdd', fenceFields('Zero', rect(0, 0, 10, 10), SN, 0));
    expect(zero.body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('refuses a self-crossing boundary with the issue, in the caller language', async () => {
    const bow = [offset(5000, 5000), offset(5100, 5100), offset(5100, 5000), offset(5000, 5100)];
    const res = await wkUser.call<Refusal>('fenceAdd', fenceFields('Bow', bow), { lang: 'zh' });
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.data.issues[0]!.code).toBe('fence.self_intersecting');
    expect(res.body.msg).toBe(res.body.data.issues[0]!.text.zh);
  });

  it('refuses a fence crossing another fence of the same device, naming it; nothing is saved', async () => {
    const a = await wkUser.call<Fence>('fenceAdd', fenceFields('Cross A', rect(2000, 2000, 2400, 2400)));
    expect(a.body.code).toBe(ResultCode.OK);
    const before = await server.db.selectFrom('fences').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const b = await wkUser.call<Refusal>('fenceAdd', fenceFields('Cross B', rect(2200, 2200, 2600, 2600)));
    expect(b.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(b.body.data.issues).toHaveLength(1);
    expect(b.body.data.issues[0]).toMatchObject({ code: 'fence.overlap', item: { kind: 'fence', id: a.body.data.id } });
    expect(b.body.msg).toContain('Cross A');
    const after = await server.db.selectFrom('fences').select(server.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // Another device may overlap; touching fences of the same device are fine.
    expect((await wkUser.call('fenceAdd', fenceFields('Other device', rect(2200, 2200, 2600, 2600), SN2))).body.code).toBe(ResultCode.OK);
    expect((await wkUser.call('fenceAdd', fenceFields('Touching', rect(2400, 2000, 2800, 2400)))).body.code).toBe(ResultCode.OK);
  });

  it('refuses a device of another company', async () => {
    const res = await otherUser.call('fenceAdd', fenceFields('Not mine', rect(-9000, -9000, -8000, -8000)));
    expect(res.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('answers 401 without the function id', async () => {
    const c = await userClient(server, { companyId: 'wk', funList: ['fence_list'] });
    const res = await c.call('fenceAdd', fenceFields('No right', rect(-7000, -7000, -6000, -6000)));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
  });
});

describe('/fence/list, /fence/one: company scoping', () => {
  it('lists own company fences with filters; another company sees none of them', async () => {
    const res = await wkUser.call<{ list: Fence[]; total: number }>('fenceList', { sn_id: SN, search: 'cross', page: 0, size: 50 });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.list.map((f) => f.name)).toEqual(['Cross A']);
    expect(res.body.data.total).toBe(1);
    const all = await admin.call<{ list: Fence[]; total: number }>('fenceList', { page: 0, size: 100 });
    expect(all.body.data.total).toBeGreaterThanOrEqual(4);

    const other = await otherUser.call<{ list: Fence[]; total: number }>('fenceList', { page: 0, size: 100 });
    expect(other.body.data).toEqual({ list: [], total: 0 });
    const id = res.body.data.list[0]!.id;
    expect((await otherUser.call('fenceOne', { id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const edit = await otherUser.call('fenceEdit', { id, ...fenceFields('Stolen', rect(2000, 2000, 2400, 2400)) });
    expect(edit.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });
});

describe('/fence/edit', () => {
  it('edits a fence; refuses an edit that would leave a bound route outside, naming the route', async () => {
    const add = await wkUser.call<Fence>('fenceAdd', fenceFields('Edit me', rect(-1000, 3000, 0, 4000)));
    const fence = add.body.data;
    const route = await wkUser.call<{ id: string }>('missionAdd', {
      name: 'Bound route',
      fence_id: fence.id,
      mission_type: 1,
      auto_speed: 8,
      max_speed: 12,
      default_height: 80,
      return_height: 100,
      waypoints: json([
        { ...offset(-900, 3100), height: 80 },
        { ...offset(-900, 3900), height: 80 },
      ]),
    });
    expect(route.body.code).toBe(ResultCode.OK);

    const ok = await wkUser.call<Fence>('fenceEdit', { id: fence.id, ...fenceFields('Edited', rect(-1000, 3000, 100, 4000)) });
    expect(ok.body.code).toBe(ResultCode.OK);
    expect(ok.body.data.name).toBe('Edited');

    const shrink = await wkUser.call<Refusal>('fenceEdit', { id: fence.id, ...fenceFields('Shrunk', rect(-500, 3000, 100, 4000)) });
    expect(shrink.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(shrink.body.data.issues[0]).toMatchObject({ code: 'fence.strands_route', item: { kind: 'route', id: route.body.data.id } });
    expect(shrink.body.msg).toContain('Bound route');
    expect((await wkUser.call<Fence>('fenceOne', { id: fence.id })).body.data.name).toBe('Edited');

    const lower = await wkUser.call<Refusal>('fenceEdit', { id: fence.id, ...fenceFields('Low', rect(-1000, 3000, 100, 4000), SN, 50) });
    expect(lower.body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('re-validates the overlap rule, skipping the fence itself', async () => {
    const a = await wkUser.call<Fence>('fenceAdd', fenceFields('Edit A', rect(6000, 0, 6500, 500)));
    const b = await wkUser.call<Fence>('fenceAdd', fenceFields('Edit B', rect(7000, 0, 7500, 500)));
    const grow = await wkUser.call<Refusal>('fenceEdit', { id: b.body.data.id, ...fenceFields('Edit B', rect(6400, 0, 7500, 500)) });
    expect(grow.body.data.issues[0]).toMatchObject({ code: 'fence.overlap', item: { id: a.body.data.id } });
    const same = await wkUser.call('fenceEdit', { id: b.body.data.id, ...fenceFields('Edit B2', rect(7000, 0, 7600, 500)) });
    expect(same.body.code).toBe(ResultCode.OK);
  });
});
