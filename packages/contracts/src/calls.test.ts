import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CALL_LIST, COMMON_FIELDS, DEFAULT_SERVICE_BASES, MISSION_LIMITS, calls, callUrl, missionLimitText, serviceOf, type CallDef } from './calls.js';
import { TIMED_TASK_MIN_INTERVAL_MIN } from './constants.js';

/** Every path of SPEC section 7, by service. */
const SPEC_PATHS: Record<string, string[]> = {
  user: ['/user/login', '/user/list', '/user/add', '/user/psw', '/user/edit', '/user/info', '/fun/add', '/fun/edit', '/fun/list'],
  device: [
    '/device/list', '/device/uav/type', '/device/add', '/device/edit', '/ins/ranking', '/result/list',
    '/result/delete/one', '/result/delete/ids', '/result/delete/sort', '/sorties/delete', '/fence/list',
    '/fence/add', '/fence/edit', '/fence/one', '/mission/type', '/mission/list', '/mission/add', '/mission/edit',
    '/mission/info', '/mission/clearBreak', '/device/connect', '/sorties/list', '/rom/list', '/rom/add',
    '/rom/edit', '/task/add', '/task/edit', '/task/list', '/deviceType/adminList', '/deviceType/add',
    '/deviceType/edit', '/deviceType/list', '/com/getList', '/com/getOne', '/com/add', '/com/edit',
  ],
  zone: ['/map/down'],
  video: ['/video/user/list', '/deviceType/list'],
};

const shapeOf = (def: CallDef): Record<string, unknown> => {
  expect(def.fields, def.name).toBeInstanceOf(z.ZodObject);
  return (def.fields as unknown as z.ZodObject).shape;
};

describe('call registry', () => {
  it.each(Object.entries(SPEC_PATHS).flatMap(([service, paths]) => paths.map((p) => [service, p] as const)))(
    '%s %s is declared exactly once',
    (service, path) => {
      expect(CALL_LIST.filter((c) => c.service === service && c.path === path)).toHaveLength(1);
    },
  );

  it('has unique names matching their keys and unique (service, path) pairs', () => {
    for (const [key, def] of Object.entries(calls)) expect(def.name).toBe(key);
    const names = CALL_LIST.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const routes = CALL_LIST.map((c) => `${c.service} ${c.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    // and no two calls share a URL under the default bases
    const urls = CALL_LIST.map((c) => callUrl(c));
    expect(new Set(urls).size).toBe(urls.length);
  });

  it.each(CALL_LIST.map((c) => [c.name, c] as const))('%s: pmd, encrypted fields and flags are consistent', (_n, def) => {
    const shape = shapeOf(def);
    for (const f of def.pmd) expect(Object.keys(shape), `pmd field ${f}`).toContain(f);
    expect(new Set(def.pmd).size).toBe(def.pmd.length);
    for (const f of def.encrypted) expect(Object.keys(shape), `encrypted field ${f}`).toContain(f);
    expect(def.publicKey === null).toBe(def.encrypted.length === 0);
    for (const common of COMMON_FIELDS) expect(Object.keys(shape)).not.toContain(common);
    if (def.separateUrl) expect(def.timestamp).toBe(true);
    expect(def.path.startsWith('/')).toBe(true);
    expect(def.access).not.toBe('');
  });

  it('declares the SPEC flags of the named calls', () => {
    expect(calls.userInfo.pmd).toEqual([]);
    expect(calls.deviceList.pmd).toEqual(['page', 'type']);
    expect(calls.userEdit.timestamp).toBe(true);
    expect(calls.userPsw.joint).toBe(true);
    expect(calls.userPsw.pmd).toEqual(['account', 'password', 'new_psw']);
    expect(calls.userPsw.encrypted).toEqual(['password', 'new_psw']);
  });

  it('sends multipart and separate-URL calls as declared', () => {
    const multipart = CALL_LIST.filter((c) => c.multipart).map((c) => c.name);
    expect(multipart).toContain('romAdd');
    expect(serviceOf(calls.romAdd)).toBe('mt');
    expect(callUrl(calls.romAdd)).toBe(`${DEFAULT_SERVICE_BASES.mt}/rom/add`);
    expect(callUrl(calls.deviceList, { ...DEFAULT_SERVICE_BASES, device: 'https://x/dev/' })).toBe('https://x/dev/device/list');
  });

  it('gives every SPEC call with a payload a field schema', () => {
    const noPayload = new Set(['userInfo', 'logout', 'userGetDeviceType', 'missionType', 'videoDeviceTypeList']);
    for (const def of CALL_LIST) {
      if (noPayload.has(def.name)) continue;
      expect(Object.keys(shapeOf(def)).length, def.name).toBeGreaterThan(0);
    }
  });
});

describe('call field validation (SPEC sections 5 and 9)', () => {
  const ok = (def: CallDef, v: unknown) => def.fields.safeParse(v).success;
  const paths = (def: CallDef, v: unknown) => def.fields.safeParse(v).error?.issues.map((i) => i.path.join('.')) ?? [];

  const route = (waypoints: unknown[], extra: Record<string, unknown> = {}) => ({
    name: 'Route A',
    fence_id: 'f1',
    mission_type: '1',
    auto_speed: '8',
    max_speed: '12',
    default_height: '100',
    return_height: '120',
    waypoints: JSON.stringify(waypoints),
    ...extra,
  });
  const wp = (extra: Record<string, unknown> = {}) => ({ lat: 23.1, lng: 113.3, height: 80, ...extra });

  it('accepts a well-formed route and applies defaults', () => {
    const r = calls.missionAdd.fields.parse(route([wp({ uav_yaw: 360, hover: 255, takephoto: 1, gimbal_ctrl: { pitch: -90, yaw: 180 } })]));
    expect(r).toMatchObject({ mission_type: 1, height_type: 0, finish_action: 20, exec_type: 0, elevation: false });
    expect(r.waypoints[0]).toMatchObject({ uav_yaw: 360, hover: 255, takephoto: 1 });
  });

  it('limits waypoint yaw, gimbal, hover, photo action, height and speed', () => {
    expect(paths(calls.missionAdd, route([wp({ uav_yaw: 360.1 })]))).toEqual(['waypoints.0.uav_yaw']);
    expect(paths(calls.missionAdd, route([wp({ uav_yaw: -1 })]))).toEqual(['waypoints.0.uav_yaw']);
    expect(paths(calls.missionAdd, route([wp({ gimbal_ctrl: { pitch: -180.5, yaw: 0 } })]))).toEqual(['waypoints.0.gimbal_ctrl.pitch']);
    expect(paths(calls.missionAdd, route([wp({ gimbal_ctrl: { pitch: 0, yaw: 181 } })]))).toEqual(['waypoints.0.gimbal_ctrl.yaw']);
    expect(paths(calls.missionAdd, route([wp({ hover: 256 })]))).toEqual(['waypoints.0.hover']);
    expect(paths(calls.missionAdd, route([wp({ takephoto: 3 })]))).toEqual(['waypoints.0.takephoto']);
    expect(paths(calls.missionAdd, route([wp({ height: 0 })]))).toEqual(['waypoints.0.height']);
    expect(paths(calls.missionAdd, route([wp({ speed: 0 })]))).toEqual(['waypoints.0.speed']);
  });

  it('refuses zero heights and speeds, a cruise speed above max speed and an empty waypoint route', () => {
    expect(paths(calls.missionAdd, route([wp()], { default_height: '0' }))).toEqual(['default_height']);
    expect(paths(calls.missionAdd, route([wp()], { auto_speed: '0' }))).toEqual(['auto_speed']);
    expect(paths(calls.missionAdd, route([wp()], { auto_speed: '13' }))).toEqual(['auto_speed']);
    expect(paths(calls.missionAdd, route([]))).toEqual(['waypoints']);
    expect(paths(calls.missionAdd, { ...route([wp()]), waypoints: 'not json' })).toEqual(['waypoints']);
  });

  it('refuses route speeds and heights outside MISSION_LIMITS with the range as the issue text (never clamped)', () => {
    for (const [field, low, high] of [
      ['auto_speed', '0.1', '15.5'],
      ['max_speed', '0.5', '16'],
      ['default_height', '1', '10001'],
      ['return_height', '19', '1501'],
    ] as const) {
      for (const v of [low, high]) {
        const r = calls.missionAdd.fields.safeParse(route([wp()], { auto_speed: '1', [field]: v }));
        expect(r.success).toBe(false);
        const issue = r.error!.issues.find((i) => i.path[0] === field)!;
        expect(issue).toMatchObject({ code: 'custom', params: { text: missionLimitText(field) } });
      }
      const edge = calls.missionAdd.fields.safeParse(route([wp()], { auto_speed: '1', [field]: String(MISSION_LIMITS[field].min) }));
      expect(edge.success).toBe(true);
      expect((edge.data as Record<string, unknown>)[field]).toBe(MISSION_LIMITS[field].min);
    }
    expect(missionLimitText('return_height')).toEqual({ zh: '返航高度须在 20 到 1500 米之间', en: 'Return height must be 20 to 1500 m' });
  });

  it('needs the custom camera parameters for a survey route', () => {
    const survey = route([], { mission_type: '2', camera_type: 'custom' });
    expect(paths(calls.missionAdd, survey).sort()).toEqual(
      ['focal_length', 'image_height', 'image_width', 'sensor_height', 'sensor_width'].sort(),
    );
    expect(ok(calls.missionAdd, { ...survey, camera_type: '6k' })).toBe(true);
    expect(
      ok(calls.missionAdd, {
        ...survey,
        sensor_width: '17.3', sensor_height: '13', image_width: '5280', image_height: '3956', focal_length: '12.29',
        course_overlap: '80', lateral_overlap: '70',
      }),
    ).toBe(true);
    expect(ok(calls.missionEdit, { ...survey, camera_type: '6k' })).toBe(false); // needs id
    expect(ok(calls.missionEdit, { ...survey, camera_type: '6k', id: 'm1' })).toBe(true);
  });

  it('keeps timed-task intervals at 0 (once) or at least 30 minutes', () => {
    const task = { mission_id: 'm1', sn_id: 'SN1', task_tms: '1700000000' };
    expect(ok(calls.taskAdd, task)).toBe(true);
    expect(ok(calls.taskAdd, { ...task, interval: String(TIMED_TASK_MIN_INTERVAL_MIN - 1) })).toBe(false);
    expect(ok(calls.taskAdd, { ...task, interval: String(TIMED_TASK_MIN_INTERVAL_MIN) })).toBe(true);
    expect(ok(calls.taskEdit, { id: 't1', task_state: '3' })).toBe(true);
    expect(ok(calls.taskEdit, { id: 't1', task_state: '10' })).toBe(false);
    expect(ok(calls.taskEdit, { id: 't1', state: '10' })).toBe(true);
  });

  it('keeps device-type streams within 0 to 3', () => {
    const t = { cla_type: '10', cla_name: 'Fixed', value: 'stable' };
    for (const s of ['0', '3']) expect(ok(calls.deviceTypeAdd, { ...t, stream: s })).toBe(true);
    for (const s of ['-1', '4', 'x']) expect(ok(calls.deviceTypeAdd, { ...t, stream: s })).toBe(false);
    expect(ok(calls.deviceTypeAdd, { ...t, cla_type: '11' })).toBe(false);
    expect(ok(calls.deviceTypeEdit, { ...t, id: 'd1', state: '30' })).toBe(true);
  });

  it('needs a name and at least one device for a collaboration group', () => {
    expect(calls.comAdd.fields.parse({ name: 'G', device_ids: 'a,b' }).device_ids).toEqual(['a', 'b']);
    expect(calls.comAdd.fields.parse({ name: 'G', device_ids: '["a"]' }).device_ids).toEqual(['a']);
    expect(ok(calls.comAdd, { name: 'G', device_ids: '' })).toBe(false);
    expect(ok(calls.comAdd, { name: 'G', device_ids: '[]' })).toBe(false);
    expect(ok(calls.comAdd, { name: ' ', device_ids: 'a' })).toBe(false);
  });

  it('validates fences', () => {
    const fence = { name: 'F', max_height: '120', sn_id: 'SN1' };
    const ring = [{ lat: 23.1, lng: 113.3 }, { lat: 23.2, lng: 113.3 }, { lat: 23.2, lng: 113.4 }];
    expect(ok(calls.fenceAdd, { ...fence, boundary: JSON.stringify(ring) })).toBe(true);
    expect(ok(calls.fenceAdd, { ...fence, boundary: JSON.stringify(ring.slice(0, 2)) })).toBe(false);
    expect(ok(calls.fenceAdd, { ...fence, max_height: '0', boundary: JSON.stringify(ring) })).toBe(false);
    expect(ok(calls.fenceAdd, { ...fence, boundary: JSON.stringify([{ lat: 91, lng: 0 }, ...ring]) })).toBe(false);
  });

  it('validates devices: category, azimuth -1 or 0..360, points as JSON', () => {
    const dev = { type: 'stable', uav_name: 'M30T', sn_id: 'SN1' };
    expect(calls.deviceAdd.fields.parse(dev)).toMatchObject({ azimuth: -1, link_type: 3 });
    expect(ok(calls.deviceAdd, { ...dev, azimuth: '360' })).toBe(true);
    expect(ok(calls.deviceAdd, { ...dev, azimuth: '-0.5' })).toBe(false);
    expect(ok(calls.deviceAdd, { ...dev, type: 'big' })).toBe(false);
    expect(calls.deviceAdd.fields.parse({ ...dev, altn_point: '{"lat":23.1,"lng":113.3}' }).altn_point).toEqual({ lat: 23.1, lng: 113.3 });
    expect(ok(calls.deviceAdd, { ...dev, altn_point: '{"lat":23.1}' })).toBe(false);
    // protocol: absent or empty stays absent (the server defaults it on add, keeps it on edit).
    expect(calls.deviceAdd.fields.parse(dev).protocol).toBeUndefined();
    expect(calls.deviceAdd.fields.parse({ ...dev, protocol: '' }).protocol).toBeUndefined();
    expect(calls.deviceAdd.fields.parse({ ...dev, protocol: '2' }).protocol).toBe(2);
    expect(ok(calls.deviceAdd, { ...dev, protocol: '3' })).toBe(false);
  });

  it('validates firmware upload fields and list time ranges', () => {
    const rom = { version_code: '12', version_name: '1.2.0', description: '修复', description_en: 'Fixes' };
    expect(calls.romAdd.fields.parse(rom).type).toBe(17);
    expect(ok(calls.romAdd, { ...rom, type: '18' })).toBe(false);
    expect(ok(calls.romAdd, { ...rom, description_en: '' })).toBe(false);
    expect(ok(calls.sortiesList, { start_time: '5', end_time: '10' })).toBe(true);
    expect(ok(calls.sortiesList, { start_time: '10', end_time: '5' })).toBe(false);
    expect(calls.resultList.fields.parse({})).toMatchObject({ page: 0, size: 20 });
  });
});
