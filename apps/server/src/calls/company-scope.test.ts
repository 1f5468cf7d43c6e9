import { randomUUID } from 'node:crypto';
import { MapDownloadState, PERMANENT_END_TIME, ResultCode, calls, type CallName } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '../db/index.js';
import { findUserById } from '../users/store.js';
import { addAlarm, addResult, addSortie } from '../stats/test-fixtures.js';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';

/**
 * The "other company" column of the authorization matrix (access-matrix.test.ts has the others). For
 * every call of the registry this table says whether it names an object of a company and, if so, how to
 * address one of company A (wk) from the fixtures below. A user of company B (zrhk) holding exactly the
 * call's function sends it, and
 * - the answer has the declared code: NOT_FOUND_OBJECT by default; NO_PERMISSION where the call names a
 *   company itself; OK for a list filtered by a device of A (`filtered`: the list is simply empty);
 * - the answer is exactly the one for an object that does not exist (a ghost world of made-up ids): B
 *   learns nothing, not even that A's object exists, and no fixture marker appears in it;
 * - nothing changes (every company table is compared before and after).
 * `Record<CallName, ...>` makes a call added to the registry without an entry a type error, and the first
 * test fails on it at run time too.
 */
type Scope =
  /**
   * Names no object of a company (own account, global catalogues, lists scoped to the caller's company).
   * `probe`: fields of a harmless read whose answer must hold nothing of company A.
   */
  | { none: string; probe?: Fields }
  /** Names an object of company A: fields to send, and the expected code (default NOT_FOUND_OBJECT). */
  | { fields: (a: World) => Fields; code?: number; filtered?: true };

/** Company A's objects; names carry MARK so a leak shows in any answer. */
interface World {
  sn: string;
  deviceId: string;
  userId: string;
  deptId: string;
  fenceId: string;
  missionId: string;
  taskId: string;
  groupId: string;
  sortieId: string;
  resultId: string;
  alarmId: string;
  mapJobId: string;
  packageId: string;
  noFlyId: string;
}
const MARK = 'zzA';
/** Ids that exist nowhere: what B gets for A's objects must not differ from what it gets for these. */
const GHOST: World = {
  sn: 'ZGHOST-1', deviceId: 'ghost-device', userId: 'ghost-user', deptId: 'ghost-dept', fenceId: 'ghost-fence', missionId: 'ghost-mission',
  taskId: 'ghost-task', groupId: 'ghost-group', sortieId: 'ghost-sortie', resultId: 'ghost-result', alarmId: 'ghost-alarm', mapJobId: 'ghost-job',
  packageId: '00000000-0000-4000-8000-000000000000', noFlyId: 'ghost-nofly',
};
const NOT_FOUND = ResultCode.NOT_FOUND_OBJECT;

const SCOPES: Record<CallName, Scope> = {
  login: { none: 'public sign-in' },
  logout: { none: 'own session' },
  userInfo: { none: 'own account' },
  userPsw: { none: 'own account (another account is NO_PERMISSION, users tests)' },
  userList: { fields: () => ({ in_com_id: 'wk' }), code: ResultCode.NO_PERMISSION },
  userAdd: {
    fields: () => ({ nick: `${MARK} new`, phone: 'zz-a-new@nest.local', password: 'x', start_time: 0, end_time: PERMANENT_END_TIME, in_com_id: 'wk', fun_json: '[]' }),
    code: ResultCode.NO_PERMISSION,
  },
  userEdit: { fields: (a) => ({ u_id: a.userId, nick: 'B was here', phone: 'zz-b-edit@nest.local', state: 10, start_time: 0, end_time: PERMANENT_END_TIME, fun_json: '[]' }) },
  userDelete: { fields: (a) => ({ u_id: a.userId }) },
  userRecover: { fields: (a) => ({ u_id: a.userId }) },
  funAdd: { none: 'functions are one global list (super administrator business)' },
  funEdit: { none: 'functions are one global list' },
  funList: { none: 'functions are one global list' },
  teamList: { fields: () => ({ in_com_id: 'wk' }), code: ResultCode.NO_PERMISSION },
  // The parent is checked within the caller's company: the same refusal as for an unknown parent.
  teamAdd: { fields: (a) => ({ name: 'B dept', parent_id: a.deptId }), code: ResultCode.BAD_REQUEST },
  teamEdit: { fields: (a) => ({ id: a.deptId, name: 'B renamed', state: 10 }) },
  teamDelete: { fields: (a) => ({ id: a.deptId }) },
  auditList: { none: "the caller's company only", probe: { size: 200 } },
  deviceList: { none: "the caller's company's devices only", probe: {} },
  userGetDeviceType: { none: 'global catalogue' },
  deviceAdd: { fields: () => ({ type: 'alone', uav_name: 'B drone', sn_id: 'ZB-NEW', company: 'wk' }), code: ResultCode.NO_PERMISSION },
  deviceEdit: { fields: (a) => ({ id: a.deviceId, type: 'alone', uav_name: 'B renamed', sn_id: a.sn }) },
  deviceDelete: { fields: (a) => ({ id: a.deviceId }) },
  deviceEnable: { fields: (a) => ({ id: a.deviceId, enabled: 0 }) },
  deviceDjiCredentials: { fields: (a) => ({ id: a.deviceId }) },
  deviceDjiPilot: { fields: (a) => ({ rc_sn: a.sn }) },
  deviceConnect: { fields: (a) => ({ sn_id: a.sn, action: 'connect' }) },
  deviceUpgrade: { fields: (a) => ({ sn_id: a.sn, rom_id: 'none' }) },
  deviceCalibrate: { fields: (a) => ({ sn_id: a.sn, items: '["compass"]' }) },
  deviceBeacon: { fields: (a) => ({ sn_id: a.sn, beacon: JSON.stringify({ lat: 22.5, lng: 114, height: 10 }) }) },
  deviceAzimuth: { fields: (a) => ({ sn_id: a.sn, azimuth: 90 }) },
  deviceRtk: { fields: (a) => ({ sn_id: a.sn, url: 'rtk.example.com', port: 2101, mount_point: 'M', user: 'u', password: 'p' }) },
  deviceLog: { fields: (a) => ({ sn_id: a.sn }) },
  deviceDebug: { fields: (a) => ({ sn_id: a.sn, action: 'cover_open' }) },
  deviceOps: { fields: (a) => ({ sn_id: a.sn }) },
  insRanking: { none: "the caller's company's figures only", probe: {} },
  resultList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  resultZip: { fields: (a) => ({ ids: a.resultId }) },
  resultDeleteOne: { fields: (a) => ({ id: a.resultId }) },
  resultDeleteIds: { fields: (a) => ({ ids: a.resultId }) },
  resultDeleteSort: { fields: (a) => ({ sort_id: a.sortieId }) },
  sortiesList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  sortiesDelete: { fields: (a) => ({ ids: a.sortieId }) },
  sortiesTrack: { fields: (a) => ({ id: a.sortieId }) },
  alternateList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  alarmList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  alarmProcess: { fields: (a) => ({ ids: a.alarmId, note: 'B' }) },
  alarmStats: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  dataAnalyse: { fields: (a) => ({ sn_ids: a.sn, start_time: nowSeconds() - 86_400, end_time: nowSeconds() }) },
  commandLog: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  // Pre-flight checks answer 'not ready' (the device check fails) rather than an error.
  flightCheck: { fields: (a) => ({ sn_id: a.sn, mission_id: a.missionId }), code: ResultCode.OK, filtered: true },
  fenceList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  fenceAdd: { fields: (a) => ({ name: 'B fence', max_height: 100, boundary: square(0.02), sn_id: a.sn }) },
  fenceEdit: { fields: (a) => ({ id: a.fenceId, name: 'B fence', max_height: 100, boundary: square(0.02), sn_id: a.sn }) },
  fenceOne: { fields: (a) => ({ id: a.fenceId }) },
  fenceDelete: { fields: (a) => ({ id: a.fenceId }) },
  noFlyList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  // The device is looked up in the caller's company.
  noFlyAdd: { fields: (a) => ({ name: 'B zone', shape: 1, boundary: square(0.001), sn_id: a.sn }) },
  noFlyEdit: { fields: (a) => ({ id: a.noFlyId, name: 'B zone', shape: 2, center: JSON.stringify({ lat: 22.54, lng: 114.05 }), radius: 100 }) },
  noFlyDelete: { fields: (a) => ({ id: a.noFlyId }) },
  missionType: { none: 'enumeration' },
  missionList: { fields: (a) => ({ fence_id: a.fenceId }), code: ResultCode.OK, filtered: true },
  // The fence is looked up in the caller's company: the route has no fence (as for an unknown one).
  missionAdd: { fields: (a) => missionFields(a.fenceId, 'B route'), code: ResultCode.BAD_REQUEST },
  missionEdit: { fields: (a) => ({ id: a.missionId, ...missionFields(a.fenceId, 'B route'), state: 10 }) },
  missionInfo: { fields: (a) => ({ id: a.missionId }) },
  missionClearBreak: { fields: (a) => ({ id: a.missionId }) },
  romList: { none: 'firmware packages are global' },
  romAdd: { none: 'firmware packages are global' },
  romEdit: { none: 'firmware packages are global' },
  taskAdd: { fields: (a) => ({ mission_id: a.missionId, fence_id: a.fenceId, f_title: 'f', m_title: 'm', sn_id: a.sn, task_tms: nowSeconds() + 7200, interval: 0 }) },
  taskEdit: { fields: (a) => ({ id: a.taskId, mission_id: a.missionId, sn_id: a.sn, task_tms: nowSeconds() + 7200, interval: 0, state: 10 }) },
  taskList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  deviceTypeAdminList: { none: 'global catalogue' },
  deviceTypeAdd: { none: 'global catalogue' },
  deviceTypeEdit: { none: 'global catalogue' },
  deviceTypeList: { none: 'global catalogue' },
  comGetList: { none: "the caller's company's groups only", probe: {} },
  comGetOne: { fields: (a) => ({ id: a.groupId }) },
  // Devices are checked within the caller's company: "does not exist or is not your company's".
  comAdd: { fields: (a) => ({ name: 'B group', device_ids: a.sn, user_ids: '[]' }), code: ResultCode.BAD_REQUEST },
  comEdit: { fields: (a) => ({ id: a.groupId, name: 'B group', device_ids: a.sn, user_ids: '[]', state: 10 }) },
  linkStats: { fields: (a) => ({ sn_id: a.sn }) },
  deviceNavEnv: { fields: (a) => ({ sn_id: a.sn }) },
  mapDown: { none: "creates a job in the caller's company" },
  mapDownList: { none: "the caller's company's jobs only", probe: {} },
  mapDownCancel: { fields: (a) => ({ id: a.mapJobId }) },
  mapPackageAdd: { none: "keeps a package in the caller's company" },
  mapPackageList: { none: "the caller's company's packages only", probe: {} },
  mapPackageDelete: { fields: (a) => ({ id: a.packageId }) },
  mapPackageStyle: { fields: (a) => ({ id: a.packageId }) },
  videoUserList: { fields: (a) => ({ sn_id: a.sn }), code: ResultCode.OK, filtered: true },
  videoDeviceTypeList: { none: 'global catalogue' },
  teachList: { none: 'teaching videos are global' },
  teachAdd: { none: 'teaching videos are global' },
  teachEdit: { none: 'teaching videos are global' },
};

const square = (d: number, lat = 22.54, lng = 114.05) =>
  JSON.stringify([
    { lat: lat - d, lng: lng - d },
    { lat: lat - d, lng: lng + d },
    { lat: lat + d, lng: lng + d },
    { lat: lat + d, lng: lng - d },
  ]);
const missionFields = (fenceId: string, name: string): Fields => ({
  name,
  fence_id: fenceId,
  mission_type: 1,
  auto_speed: 8,
  max_speed: 12,
  default_height: 50,
  return_height: 60,
  waypoints: JSON.stringify([0, 1, 2].map((i) => ({ lat: 22.538 + i * 0.001, lng: 114.048 + i * 0.001, height: 50 }))),
});

/** Tables holding company data: none may change when B addresses A's objects. */
const TABLES = [
  'users', 'departments', 'devices', 'device_control', 'fences', 'missions', 'timed_tasks', 'results', 'sorties', 'alarms',
  'com_groups', 'com_group_devices', 'com_group_users', 'map_downloads', 'map_packages', 'device_ops', 'command_log', 'no_fly_zones',
] as const;

let server: TestServer;
let world: World;
let superAdmin: TestClient;
const holders = new Map<string, TestClient>();

async function snapshot(): Promise<string> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) out[t] = await server.db.selectFrom(t).selectAll().execute();
  // Row order is not part of the state.
  return JSON.stringify(Object.fromEntries(Object.entries(out).map(([t, rows]) => [t, rows.map((r) => JSON.stringify(r)).sort()])));
}

async function must<D>(c: TestClient, name: CallName, fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

beforeAll(async () => {
  server = await startTestServer();
  const admin = await adminClient(server);
  superAdmin = admin;
  const now = nowSeconds();
  const device = await must<{ id: string; sn_id: string }>(admin, 'deviceAdd', { type: 'alone', uav_name: `${MARK} drone`, sn_id: 'ZA-1', uav_sn: 'ZA-1' });
  const dept = await must<{ id: string }>(admin, 'teamAdd', { name: `${MARK} dept`, in_com_id: 'wk' });
  const user = await must<{ u_id: string }>(admin, 'userAdd', {
    nick: `${MARK} user`, phone: 'zz-a@nest.local', password: await admin.seal('zz-a-pass-1'), start_time: 0, end_time: PERMANENT_END_TIME, fun_json: '[]',
  });
  const fence = await must<{ id: string }>(admin, 'fenceAdd', { name: `${MARK} fence`, max_height: 120, boundary: square(0.01), sn_id: device.sn_id });
  const mission = await must<{ id: string }>(admin, 'missionAdd', missionFields(fence.id, `${MARK} route`));
  const task = await must<{ id: string }>(admin, 'taskAdd', {
    mission_id: mission.id, fence_id: fence.id, f_title: `${MARK} fence`, m_title: `${MARK} route`, sn_id: device.sn_id, task_tms: now + 3600, interval: 0,
  });
  const noFly = await must<{ id: string }>(admin, 'noFlyAdd', { name: `${MARK} zone`, reason: MARK, shape: 1, boundary: square(0.001, 22.6, 114.2), sn_id: device.sn_id });
  const group = await must<{ id: string }>(admin, 'comAdd', { name: `${MARK} group`, device_ids: device.sn_id, user_ids: '[]' });
  const sortieId = await addSortie(server.db, { sn: device.sn_id, start: now - 3600, mission: `${MARK} route` });
  const result = await addResult(server.db, { sn: device.sn_id, sortId: sortieId, takenAt: now - 3000, fileName: `${MARK}.jpg` });
  const alarmId = await addAlarm(server.db, { sn: device.sn_id, level: 2, raisedAt: now - 2000, detail: MARK });
  const mapJobId = `${MARK}-job`;
  await server.db
    .insertInto('map_downloads')
    .values({
      id: mapJobId, company_id: 'wk', name: `${MARK} area`, min_lat: 22.5, min_lng: 114, max_lat: 22.51, max_lng: 114.01, min_zoom: 1, max_zoom: 2,
      total: 10, done: 0, state: MapDownloadState.WAITING, error: '', claimed_by: 'reserved', claimed_at: now + 50_000, u_id: '', create_time: now, modified_time: now,
    })
    .execute();
  const packageId = randomUUID();
  await server.db
    .insertInto('map_packages')
    .values({
      id: packageId, company_id: 'wk', name: `${MARK} package`, container: 'mbtiles', kind: 'raster', format: 'png', min_lat: 22.5, min_lng: 114,
      max_lat: 22.6, max_lng: 114.1, min_zoom: 0, max_zoom: 2, size: 1024, u_id: '', create_time: now,
    })
    .execute();
  world = {
    sn: device.sn_id, deviceId: device.id, userId: user.u_id, deptId: dept.id, fenceId: fence.id, missionId: mission.id, taskId: task.id,
    groupId: group.id, sortieId, resultId: result.id, alarmId, mapJobId, packageId, noFlyId: noFly.id,
  };
  expect((await findUserById(server.db, user.u_id))?.company_id).toBe('wk');
  // One user of company B per function (userEdit, a 'session' call, needs user_edit to touch others).
  for (const def of Object.values(calls)) {
    const fun = def.access === 'session' ? 'user_edit' : def.access;
    if (def.access !== 'public' && !holders.has(fun)) holders.set(fun, await userClient(server, { funList: [fun], companyId: 'zrhk' }));
  }
});
afterAll(async () => server?.close());

const NAMES = Object.keys(calls) as CallName[];
const OBJECT_CALLS = NAMES.filter((n) => SCOPES[n] && 'fields' in SCOPES[n]);

const PROBES = NAMES.filter((n) => SCOPES[n] && 'probe' in SCOPES[n] && SCOPES[n].probe);

describe('authorization matrix: a user of another company', () => {
  it.each(PROBES)('%s: lists nothing of company A', async (name) => {
    const scope = SCOPES[name] as Extract<Scope, { none: string }>;
    const res = await holders.get(calls[name].access)!.call(name, scope.probe!);
    expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.OK);
    expect(JSON.stringify(res.body)).not.toContain(MARK);
    // The same read by a super administrator does show A's objects, so the probe can see a leak.
    expect(JSON.stringify((await superAdmin.call(name, scope.probe!)).body)).toContain(MARK);
  });

  it('has an entry for every registry call (a new call must say whether it names a company object)', () => {
    expect(NAMES.filter((n) => !(n in SCOPES))).toEqual([]);
    expect(Object.keys(SCOPES).filter((n) => !(n in calls))).toEqual([]);
    expect(OBJECT_CALLS.length).toBeGreaterThanOrEqual(50);
  });

  it.each(OBJECT_CALLS)('%s: answers as for a missing object, nothing of company A, changes nothing', async (name) => {
    const scope = SCOPES[name] as Extract<Scope, { fields: unknown }>;
    const access = calls[name].access;
    const client = holders.get(access === 'session' ? 'user_edit' : access)!;
    const before = await snapshot();
    const res = await client.call(name, scope.fields(world));
    expect(res.body.code, JSON.stringify(res.body)).toBe(scope.code ?? NOT_FOUND);
    expect(JSON.stringify(res.body)).not.toContain(MARK);
    // A refusal names a rule, never a malformed field: the fixture fields themselves are valid.
    expect(res.body.msg).not.toMatch(/^Field /);
    if (scope.filtered) expect(JSON.stringify(res.body.data)).not.toMatch(/"list":\[[^\]]/);
    // Messages may echo the id the caller sent: compare with the ghost ids put back to A's.
    let ghost = JSON.stringify((await client.call(name, scope.fields(GHOST))).body);
    for (const k of Object.keys(GHOST) as (keyof World)[]) ghost = ghost.split(GHOST[k]).join(world[k]);
    expect(JSON.stringify(res.body)).toBe(ghost);
    expect(await snapshot()).toBe(before);
  });
});
