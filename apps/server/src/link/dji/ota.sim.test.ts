/**
 * Firmware updates of a DJI dock from the console's firmware catalogue (ota_create, ota_progress) against the
 * simulator's emulated Dock 2: the dock downloads the package on its signed link, checks MD5 and size, and
 * reports the new firmware_version; a package whose recorded MD5 is wrong is refused with the DJI code's text.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DjiResult, ResultCode, callFunId, djiResultText, opReasonText, type DeviceOp } from '@nest/contracts';
import { buildWkimg } from '@nest/formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDjiTestServer, startEmulatedDock } from './testing.js';
import { userClient, type TestClient, type TestServer } from '../../../test/helpers.js';
import { listen, live, until } from '../../../test/live.js';
import { FIRMWARE_SUBDIR } from '../../maintenance/routes.js';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const md5 = (b: Uint8Array): string => createHash('md5').update(b).digest('hex');

let server: TestServer;
let op: TestClient;

/** A catalogue package as the firmware screen stores it; `wrongMd5` records the MD5 of other bytes. */
async function addFirmware(version: string, code: number, opts: { wrongMd5?: boolean } = {}): Promise<string> {
  const pkg = Buffer.from(buildWkimg({ type: 17, version_code: code, version_name: version, model: '' }, Buffer.from(`image ${version} `.repeat(2000)), sha));
  const key = `${randomUUID()}.wkimg`;
  await mkdir(path.join(server.dataDir, FIRMWARE_SUBDIR), { recursive: true });
  await writeFile(path.join(server.dataDir, FIRMWARE_SUBDIR, key), pkg);
  const id = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  await server.db
    .insertInto('firmware')
    .values({
      id, type: 17, version_code: code, version_name: version, description: 'test', description_en: 'test', file_key: key, file_name: `${version}.wkimg`,
      size: pkg.length, md5: opts.wrongMd5 ? md5(Buffer.from('other bytes')) : md5(pkg), sha256: sha(pkg), create_time: now, modified_time: now,
    })
    .execute();
  return id;
}

/** The operation as /device/ops lists it, once it ended. */
async function ended(sn: string, id: string): Promise<DeviceOp> {
  let found: DeviceOp | undefined;
  await until(async () => {
    const res = await op.call<{ list: DeviceOp[] }>('deviceOps', { sn_id: sn, kind: 'upgrade' });
    found = res.body.data.list.find((o) => o.id === id && o.state !== 'running');
    return found !== undefined;
  }, `the end of the upgrade ${id}`);
  return found!;
}

beforeAll(async () => {
  server = await startDjiTestServer();
  // The dock downloads the package over HTTP from the listening server.
  await listen(server);
  op = await userClient(server, { nick: 'Updater', funList: ['/device/upgrade', '/device/ops'].map(callFunId) });
});
afterAll(async () => {
  await server?.close();
});

describe('DJI firmware update from the catalogue', () => {
  it('runs ota_create to the end: the dock reports progress and then its new firmware version', async () => {
    const gw = 'DJI-OTA1';
    const emulator = await startEmulatedDock(server, gw, { seed: 5, firmware: { dock: '10.01.1612' } });
    try {
      const link = live(server).link;
      await until(() => link.device(gw)?.firmware === '10.01.1612', 'the dock firmware known');
      const romId = await addFirmware('10.02.0001', 1);
      const res = await op.call<DeviceOp>('deviceUpgrade', { sn_id: gw, rom_id: romId });
      expect(res.body).toMatchObject({ code: ResultCode.OK, data: { kind: 'upgrade', state: 'running' } });
      const done = await ended(gw, res.body.data.id);
      expect(done).toMatchObject({ state: 'ok', progress: 100, outcome: { stage: 'done' } });
      await until(() => link.device(gw)?.firmware === '10.02.0001', 'the new firmware version in the dock state');
      // One ota_create for the dock, its bid the operation id, the package on a signed link of the server.
      const created = emulator.commands.filter((c) => c.method === 'ota_create');
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ bid: res.body.data.id, data: { devices: [{ sn: gw, product_version: '10.02.0001', firmware_upgrade_type: 2, file_name: '10.02.0001.wkimg' }] } });
      expect((created[0]!.data as { devices: { file_url: string }[] }).devices[0]!.file_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+\/rom\/download\/.+\?e=\d+&s=/);
    } finally {
      await emulator.stop();
    }
  });

  it('a package whose MD5 does not match is refused by the dock with its code, the version unchanged', async () => {
    const gw = 'DJI-OTA2';
    const emulator = await startEmulatedDock(server, gw, { seed: 6, firmware: { dock: '10.01.1612' } });
    try {
      const link = live(server).link;
      await until(() => link.device(gw)?.firmware === '10.01.1612', 'the dock firmware known');
      const romId = await addFirmware('10.03.0001', 2, { wrongMd5: true });
      const res = await op.call<DeviceOp>('deviceUpgrade', { sn_id: gw, rom_id: romId });
      expect(res.body.code).toBe(ResultCode.OK);
      const failed = await ended(gw, res.body.data.id);
      expect(failed).toMatchObject({ state: 'failed', reason: DjiResult.OTA_VERIFY_FAILED });
      expect(opReasonText(failed, 'en')).toBe(djiResultText(DjiResult.OTA_VERIFY_FAILED, 'en'));
      expect(opReasonText(failed, 'zh')).toBe('固件校验失败（MD5 或大小不符）');
      expect(link.device(gw)?.firmware).toBe('10.01.1612');
    } finally {
      await emulator.stop();
    }
  });
});
