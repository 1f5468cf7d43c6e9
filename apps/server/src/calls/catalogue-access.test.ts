import { FIRMWARE_FILE_FIELD, ResultCode, callFunId, calls, type DeviceType, type Firmware, type FunctionItem } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePackage } from '../firmware/sample.js';
import { sendMultipart } from '../firmware/testing.js';
import { SUPER_ADMINISTRATOR, adminClient, startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';

/**
 * The system-wide catalogues (functions, device types, firmware packages, teaching videos) serve every
 * company, so only a super administrator writes them: a company's administrator, even one holding the
 * function ids those calls used to need, is refused and changes nothing, for the other companies least of
 * all (a function switched off for everybody, another company's firmware renamed).
 */
let server: TestServer;
let superAdmin: TestClient;
/** An administrator of the second company holding every catalogue function a company could be given. */
let otherAdmin: TestClient;
/** A user of the first company who lists devices. */
let operator: TestClient;
let firmware: Firmware;

const WRITES = ['funAdd', 'funEdit', 'deviceTypeAdd', 'deviceTypeEdit', 'romAdd', 'romEdit', 'teachAdd', 'teachEdit'] as const;

const snapshot = async () => ({
  functions: await server.db.selectFrom('functions').selectAll().orderBy('fun_id').execute(),
  deviceTypes: await server.db.selectFrom('device_types').selectAll().orderBy('id').execute(),
  firmware: await server.db.selectFrom('firmware').selectAll().orderBy('id').execute(),
  videos: await server.db.selectFrom('teaching_videos').selectAll().orderBy('id').execute(),
});

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  superAdmin = await adminClient(server);
  const formerWriteFunctions = WRITES.map((n) => callFunId(calls[n].path));
  otherAdmin = await userClient(server, {
    companyId: 'gzGh',
    funList: [...formerWriteFunctions, 'fun_list', 'deviceType_adminList', 'rom_list', 'menu_teachingVideos', 'user_add', 'user_edit'],
  });
  operator = await userClient(server, { companyId: 'wk', funList: ['device_list'] });
  const upload = await sendMultipart<Firmware>(superAdmin, 'romAdd', { type: 17, version_code: 7, version_name: '1.0.7', description: '首版', description_en: 'First' }, [
    { field: FIRMWARE_FILE_FIELD, name: 'nest.wkimg', bytes: samplePackage({ versionCode: 7, payloadBytes: 2000 }) },
  ]);
  expect(upload.body.code).toBe(ResultCode.OK);
  firmware = upload.body.data;
});
afterAll(async () => server?.close());

describe('system-wide catalogues', () => {
  it('are written by super administrators only, in the registry', () => {
    for (const name of WRITES) expect(calls[name].access, name).toBe(SUPER_ADMINISTRATOR);
  });

  it("another company's administrator cannot switch off device_list for everybody, rename the firmware or change a device type", async () => {
    const before = await snapshot();
    const deviceList = before.functions.find((f) => f.fun_id === 'device_list')!;
    const fun: FunctionItem = { fun_id: 'device_list', name: deviceList.name, name_en: deviceList.name_en, description: deviceList.description, notes: '', state: 20 };
    const type = before.deviceTypes[0]! as unknown as DeviceType;
    const attempts = [
      otherAdmin.call('funEdit', { ...fun }),
      otherAdmin.call('funAdd', { ...fun, fun_id: 'sneaky_function', state: 10 }),
      otherAdmin.call('romEdit', { id: firmware.id, version_name: 'renamed', description: 'x', description_en: 'x', state: 10 }),
      otherAdmin.call('romEdit', { id: firmware.id, version_name: '1.0.7', description: 'x', description_en: 'x', state: 20 }),
      otherAdmin.call('deviceTypeEdit', { id: type.id, cla_type: 10, cla_name: 'renamed', value: type.value, stream: 1, state: 20 }),
      otherAdmin.call('deviceTypeAdd', { cla_type: 10, cla_name: 'extra', value: 'extra_type', stream: 1 }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(ResultCode.NO_PERMISSION);
    }
    expect(await snapshot()).toEqual(before);
    // The first company's users still list their devices.
    expect((await operator.call('deviceList', { type: 0, page: 0 })).body.code).toBe(ResultCode.OK);
    // The other administrator still reads the catalogues.
    expect((await otherAdmin.call('funList')).body.code).toBe(ResultCode.OK);
    expect((await otherAdmin.call('romList', { page: 0 })).body.code).toBe(ResultCode.OK);
  });

  it('a super administrator of any company writes them', async () => {
    const otherSuper = await userClient(server, { companyId: 'gzGh', funList: [SUPER_ADMINISTRATOR] });
    const res = await otherSuper.call<Firmware>('romEdit', { id: firmware.id, version_name: '1.0.7a', description: '说明', description_en: 'Notes', state: 10 });
    expect(res.body.code).toBe(ResultCode.OK);
    expect(res.body.data.version_name).toBe('1.0.7a');
  });
});
