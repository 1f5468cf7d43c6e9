/**
 * Collaboration groups: the four /com calls (success, bad input, permission, company scope) and what
 * membership does: members of another company SEE the group's devices (/device/list, push 200 / 300 /
 * 310) but cannot control them (/device/connect, 401, 473); changes apply on the next call without restart.
 * The live part runs the real simulator against the test server's broker.
 */
import {
  CommandReason,
  DEVICE_PUSH_FUNCTION,
  MIN_TELEMETRY_HZ,
  PushMsgId,
  Reason,
  ResultCode,
  collaborationGroupSchema,
  fleetUpdatePush,
  type CollaborationGroup,
  type DeviceListItem,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { PushSocket, WAIT_LIMIT_MS, listen, live, registerDevice, startSim, until, clockPast } from '../../test/live.js';
import type { SimFleet } from '../../test/simulator.js';
import { GroupShares, SHARE_CACHE_MS } from './shares.js';

const COM_FUNS = ['com_getList', 'com_getOne', 'com_add', 'com_edit'];
/** The simulated devices' telemetry rate, the slowest a device may announce: only 6 s of silence take them offline. */
const SIM_RATE_HZ = MIN_TELEMETRY_HZ;
const OPERATOR_FUNS = [DEVICE_PUSH_FUNCTION, 'device_list', 'device_connect'];

type Page = { list: CollaborationGroup[]; total: number };
type DevicePage = { list: DeviceListItem[]; total: number };

let server: TestServer;
let fleet: SimFleet;
let base: string;
let admin: TestClient;
/** wk company: manages groups. */
let manager: TestClient;
/** wk company without the com functions. */
let plain: TestClient;
/** gzGh company: manages its own groups. */
let gzManager: TestClient;
/** gzGh operators: one becomes a member of a wk group, the other does not. */
let member: TestClient & { account: { u_id: string } };
let outsider: TestClient;
const sockets: PushSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  await registerDevice(server, { sn_id: 'GR-N1', type: 'stable', airport_name: 'Group nest 1' });
  await registerDevice(server, { sn_id: 'GR-N2', type: 'stable', airport_name: 'Group nest 2' });
  await registerDevice(server, { sn_id: 'GR-N3', type: 'alone', airport_name: '', uav_name: 'Group drone 3' });
  await registerDevice(server, { sn_id: 'GR-GZ', type: 'stable', airport_name: 'GZ nest', company_id: 'gzGh' });
  fleet = await startSim(server, [{ sn: 'GR-N1' }, { sn: 'GR-GZ' }], { rateHz: SIM_RATE_HZ });
  await until(() => ['GR-N1', 'GR-GZ'].every((sn) => live(server).link.isOnline(sn)), 'GR-N1 and GR-GZ online');
  admin = await adminClient(server);
  manager = await userClient(server, { nick: 'Manager', funList: [...COM_FUNS, ...OPERATOR_FUNS] });
  plain = await userClient(server, { nick: 'Plain', funList: OPERATOR_FUNS });
  gzManager = await userClient(server, { nick: 'GZ manager', funList: COM_FUNS, companyId: 'gzGh' });
  member = await userClient(server, { nick: 'Member', funList: OPERATOR_FUNS, companyId: 'gzGh' });
  outsider = await userClient(server, { nick: 'Outsider', funList: OPERATOR_FUNS, companyId: 'gzGh' });
  base = await listen(server);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await fleet?.stop();
  await server?.close();
});

const add = (c: TestClient, fields: Record<string, string | number>) => c.call<CollaborationGroup>('comAdd', fields);
const edit = (c: TestClient, fields: Record<string, string | number>) => c.call<CollaborationGroup>('comEdit', fields);
const list = (c: TestClient, fields: Record<string, string | number> = {}) => c.call<Page>('comGetList', { page: 0, ...fields });
const groupCount = async () => Number((await server.db.selectFrom('com_groups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n);
const deviceSns = async (c: TestClient) => (await c.call<DevicePage>('deviceList', { type: 0, page: 0 })).body.data.list;

async function socket(c: TestClient): Promise<PushSocket> {
  const s = await PushSocket.open(base);
  sockets.push(s);
  expect((await s.verifyUser(c)).code).toBe(ResultCode.OK);
  return s;
}

describe('/com/add', () => {
  it('creates a group of own devices with members of any company; answers it with live counts', async () => {
    const res = await add(manager, { name: 'Harbour patrol', device_ids: JSON.stringify(['GR-N1', 'GR-N2']), user_ids: `${member.account.u_id}`, notes: 'night shift' });
    expect(res.body.code).toBe(ResultCode.OK);
    const g = collaborationGroupSchema.parse(res.body.data);
    expect(g).toMatchObject({
      name: 'Harbour patrol',
      notes: 'night shift',
      company: 'wk',
      creator: 'Manager',
      state: 10,
      device_count: 2,
      online_count: 1,
      device_ids: ['GR-N1', 'GR-N2'],
      user_ids: [member.account.u_id],
      users: [{ u_id: member.account.u_id, nick: 'Member', company: 'gzGh' }],
    });
    expect(g.devices?.map((d) => [d.sn_id, d.name, d.state])).toEqual([
      ['GR-N1', 'Group nest 1', 1],
      ['GR-N2', 'Group nest 2', 2],
    ]);
  });

  it('refuses a missing name or no device, unknown or foreign devices, unknown members, a taken name; nothing is stored', async () => {
    const before = await groupCount();
    expect((await add(manager, { name: '', device_ids: 'GR-N1' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await add(manager, { name: 'No devices', device_ids: '' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await add(manager, { name: 'No devices', device_ids: '[]' })).body.code).toBe(ResultCode.BAD_REQUEST);
    const foreign = await add(manager, { name: 'Foreign', device_ids: 'GR-N1,GR-GZ' });
    expect(foreign.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: "Device GR-GZ does not exist or is not your company's" });
    expect((await add(manager, { name: 'Unknown', device_ids: 'NOPE' })).body.code).toBe(ResultCode.BAD_REQUEST);
    const ghost = await add(manager, { name: 'Ghost', device_ids: 'GR-N1', user_ids: 'no-such-user' });
    expect(ghost.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'Member no-such-user does not exist or is disabled' });
    const taken = await add(manager, { name: 'Harbour patrol', device_ids: 'GR-N3' });
    expect(taken.body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await manager.call('comAdd', { name: 'Harbour patrol', device_ids: 'GR-N3' }, { lang: 'zh' })).body.msg).toBe('协同分组名称「Harbour patrol」已存在');
    expect(await groupCount()).toBe(before);
  });

  it('needs the function; a super administrator may group any one company, not two at once', async () => {
    expect((await add(plain, { name: 'Nope', device_ids: 'GR-N1' })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await add(admin, { name: 'Mixed', device_ids: 'GR-N3,GR-GZ' })).body.code).toBe(ResultCode.BAD_REQUEST);
    const gz = await add(admin, { name: 'GZ by admin', device_ids: 'GR-GZ' });
    expect(gz.body).toMatchObject({ code: ResultCode.OK, data: { company: 'gzGh', device_ids: ['GR-GZ'] } });
  });
});

describe('/com/getList and /com/getOne', () => {
  it("lists the caller's company only, with search, state and paging", async () => {
    const mine = await list(manager);
    expect(mine.body.code).toBe(ResultCode.OK);
    expect(mine.body.data.list.map((g) => g.name)).toEqual(['Harbour patrol']);
    for (const g of mine.body.data.list) collaborationGroupSchema.parse(g);
    expect((await list(gzManager)).body.data.list.map((g) => g.name)).toEqual(['GZ by admin']);
    expect((await list(admin)).body.data.total).toBe(2);
    expect((await list(admin, { search: 'HARBOUR' })).body.data.list.map((g) => g.name)).toEqual(['Harbour patrol']);
    expect((await list(admin, { search: 'night' })).body.data.total).toBe(1);
    expect((await list(admin, { search: '%' })).body.data.total).toBe(0);
    const p0 = await list(admin, { size: 1 });
    const p1 = await list(admin, { size: 1, page: 1 });
    expect(p0.body.data.total).toBe(2);
    expect([p0.body.data.list[0]!.name, p1.body.data.list[0]!.name].sort()).toEqual(['GZ by admin', 'Harbour patrol']);
    expect((await list(admin, { state: 20 })).body.data.total).toBe(0);
    expect((await list(admin, { state: 30 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await list(plain)).body.code).toBe(ResultCode.NO_PERMISSION);
  });

  it("answers one group with its devices' live status; another company's group does not exist", async () => {
    const [g] = (await list(manager)).body.data.list;
    const one = await manager.call<CollaborationGroup>('comGetOne', { id: g!.id });
    expect(one.body.data.devices).toHaveLength(2);
    expect((await gzManager.call('comGetOne', { id: g!.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await manager.call('comGetOne', { id: 'nope' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await plain.call('comGetOne', { id: g!.id })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await admin.call('comGetOne', { id: g!.id })).body.code).toBe(ResultCode.OK);
  });
});

describe('members see the devices without controlling them', () => {
  it('/device/list shows shared devices flagged, to members only', async () => {
    const seen = await deviceSns(member);
    expect(seen.map((d) => [d.sn_id, d.shared ?? false]).sort()).toEqual([
      ['GR-GZ', false],
      ['GR-N1', true],
      ['GR-N2', true],
    ]);
    expect((await deviceSns(outsider)).map((d) => d.sn_id)).toEqual(['GR-GZ']);
    // The wk company's own list is unchanged (GR-N3 included, nothing flagged).
    expect((await deviceSns(plain)).map((d) => [d.sn_id, d.shared ?? false]).sort()).toEqual([
      ['GR-N1', false],
      ['GR-N2', false],
      ['GR-N3', false],
    ]);
    const searched = await member.call<DevicePage>('deviceList', { type: 0, page: 0, search: 'nest 2' });
    expect(searched.body.data.list.map((d) => d.sn_id)).toEqual(['GR-N2']);
  });

  it('push: a member watches (200), gets telemetry (300) and fleet batches (310); an outsider does not', async () => {
    const s = await socket(member);
    expect(await s.verifyDevice(member, 'GR-N1')).toMatchObject({ code: ResultCode.OK, data: { sn_id: 'GR-N1' } });
    await s.wait((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY && (f.data as { sn_id: string }).sn_id === 'GR-N1', WAIT_LIMIT_MS);
    expect((await s.request(PushMsgId.FLEET_SUBSCRIBE, { on: true })).code).toBe(ResultCode.OK);
    const sns = () => new Set(s.of(PushMsgId.FLEET_UPDATE).flatMap((f) => fleetUpdatePush.parse(f.data).devices.map((d) => d.sn_id)));
    // The first batch has every visible device; later ones only those that changed.
    await until(() => ['GR-N1', 'GR-N2', 'GR-GZ'].every((sn) => sns().has(sn)), 'fleet batches naming the visible devices');
    // Shared GR-N1 (online) and GR-N2 (offline, at its airport point) and the own GR-GZ; not wk's GR-N3.
    expect(sns()).toEqual(new Set(['GR-N1', 'GR-N2', 'GR-GZ']));

    const o = await socket(outsider);
    expect((await o.verifyDevice(outsider, 'GR-N1')).code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('refuses control: /device/connect answers NOT_FOUND_OBJECT, 401 and 473 "watch, not control"; the device is not held', async () => {
    expect((await member.call('deviceConnect', { sn_id: 'GR-N1', action: 'connect' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect(live(server).status.status('GR-N1')).toBe(1);
    const s = await socket(member);
    const control = await s.request(PushMsgId.CONTROL, { sn_id: 'GR-N1', cmd_type: 8, action_cmd: 1, value: 'm' });
    expect(control).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'refused', reason: Reason.SHARED_ONLY } });
    expect(control.msg).toBe(CommandReason.label(Reason.SHARED_ONLY, 'en'));
    const process = await s.request(PushMsgId.PROCESS_CONTROL, { sn_id: 'GR-N1', control_cmd: 1 });
    expect(process).toMatchObject({ code: ResultCode.PUSH_FAILED, data: { outcome: 'refused', reason: Reason.SHARED_ONLY } });
    // The owner company still controls it.
    expect((await plain.call('deviceConnect', { sn_id: 'GR-N1', action: 'connect' })).body.code).toBe(ResultCode.OK);
    expect((await plain.call('deviceConnect', { sn_id: 'GR-N1', action: 'release' })).body.code).toBe(ResultCode.OK);
  });
});

describe('/com/edit', () => {
  it('replaces devices and members; a removed member stops seeing at the next call and the next verification', async () => {
    const [g] = (await list(manager)).body.data.list;
    const s = await socket(member);
    expect((await s.verifyDevice(member, 'GR-N1')).code).toBe(ResultCode.OK);
    // Absent user_ids keep the members.
    const kept = await edit(manager, { id: g!.id, name: 'Harbour patrol', device_ids: 'GR-N1,GR-N3', notes: '' });
    expect(kept.body.data).toMatchObject({ device_ids: ['GR-N1', 'GR-N3'], user_ids: [member.account.u_id], notes: '' });
    expect((await deviceSns(member)).map((d) => d.sn_id).sort()).toEqual(['GR-GZ', 'GR-N1', 'GR-N3']);

    const cleared = await edit(manager, { id: g!.id, name: 'Harbour patrol', device_ids: 'GR-N1,GR-N3', user_ids: '[]' });
    expect(cleared.body.data.user_ids).toEqual([]);
    expect((await deviceSns(member)).map((d) => d.sn_id)).toEqual(['GR-GZ']);
    // The open socket: a new 200 is refused, and the heartbeat drops the watch (telemetry stops).
    expect((await s.verifyDevice(member, 'GR-N1')).code).toBe(ResultCode.NOT_FOUND_OBJECT);
    await s.roundTrip();
    const from = s.frames.length;
    const unwatched = Date.now();
    // GR-N1 goes on sending: once the server has handled its telemetry of a period later (a watching socket's
    // telemetry allowance refills at the device rate, so that one would be forwarded), a heartbeat's round trip
    // brings any frame the server sent for it.
    await until(() => (live(server).link.device('GR-N1')?.telemetryAt ?? 0) >= unwatched + 1000 / SIM_RATE_HZ, 'GR-N1 telemetry a period after the watch ended');
    await s.roundTrip();
    expect(s.frames.slice(from).filter((f) => f.msg_id === PushMsgId.DEVICE_TELEMETRY)).toEqual([]);
  });

  it('refuses bad input, foreign devices and other companies; nothing changes', async () => {
    const [g] = (await list(manager)).body.data.list;
    const before = JSON.stringify((await manager.call('comGetOne', { id: g!.id })).body.data);
    expect((await edit(manager, { id: g!.id, name: '', device_ids: 'GR-N1' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await edit(manager, { id: g!.id, name: 'X', device_ids: '' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await edit(manager, { id: g!.id, name: 'X', device_ids: 'GR-GZ' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await edit(manager, { id: g!.id, name: 'X', device_ids: 'GR-N1', user_ids: 'ghost' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await edit(manager, { id: g!.id, name: 'X', device_ids: 'GR-N1', state: 30 })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await edit(gzManager, { id: g!.id, name: 'X', device_ids: 'GR-N1' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await edit(plain, { id: g!.id, name: 'X', device_ids: 'GR-N1' })).body.code).toBe(ResultCode.NO_PERMISSION);
    // A super administrator keeps the group's company: another company's devices are refused.
    expect((await edit(admin, { id: g!.id, name: 'X', device_ids: 'GR-GZ' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect(JSON.stringify((await manager.call('comGetOne', { id: g!.id })).body.data)).toBe(before);
  });

  it('state 20 deletes the group and ends its sharing', async () => {
    const [g] = (await list(manager)).body.data.list;
    expect((await edit(manager, { id: g!.id, name: g!.name, device_ids: 'GR-N2', user_ids: member.account.u_id })).body.code).toBe(ResultCode.OK);
    expect((await deviceSns(member)).map((d) => d.sn_id).sort()).toEqual(['GR-GZ', 'GR-N2']);
    const del = await edit(manager, { id: g!.id, name: g!.name, device_ids: 'GR-N2', state: 20 });
    expect(del.body).toMatchObject({ code: ResultCode.OK, data: { state: 20 } });
    expect((await deviceSns(member)).map((d) => d.sn_id)).toEqual(['GR-GZ']);
    expect((await list(manager)).body.data.total).toBe(0);
    expect((await list(manager, { state: 20 })).body.data.list.map((x) => x.id)).toEqual([g!.id]);
    expect((await manager.call('comGetOne', { id: g!.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // A deleted group's name may be used again.
    expect((await add(manager, { name: g!.name, device_ids: 'GR-N3' })).body.code).toBe(ResultCode.OK);
  });
});

describe('share cache', () => {
  it('reads membership made by another instance within SHARE_CACHE_MS', async () => {
    let now = 1_000_000;
    const shares = new GroupShares(server.db, () => now);
    const outsiderId = outsider.user!.u_id;
    expect([...(await shares.of(outsiderId))]).toEqual([]);
    // Another instance adds the outsider to a wk group (straight into the shared database).
    const [g] = (await list(manager)).body.data.list;
    await server.db.insertInto('com_group_users').values({ group_id: g!.id, u_id: outsiderId }).execute();
    const inserted = Date.now();
    now += SHARE_CACHE_MS - 1;
    expect([...(await shares.of(outsiderId))]).toEqual([]);
    now += 1;
    expect([...(await shares.of(outsiderId))]).toEqual(g!.device_ids);
    // And this instance's own handlers (their cache entries are older than the insert) see it on the next call
    // once SHARE_CACHE_MS passed on the clock their cache reads.
    await clockPast(inserted, SHARE_CACHE_MS);
    expect((await deviceSns(outsider)).map((d) => d.sn_id).sort()).toEqual(['GR-GZ', ...g!.device_ids].sort());
  });
});
