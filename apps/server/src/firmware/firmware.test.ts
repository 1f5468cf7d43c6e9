import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { FIRMWARE_FILE_FIELD, ResultCode, SUPER_ADMINISTRATOR, type Firmware, type Page } from '@nest/contracts';
import { buildWkimg } from '@nest/formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { samplePackage, sha256Hex } from './sample.js';
import { sendMultipart } from './testing.js';

let server: TestServer;
let admin: TestClient;
let manager: TestClient;
let reader: TestClient;

const form = (code: number, extra: Fields = {}): Fields => ({
  type: 17,
  version_code: code,
  version_name: `1.0.${code}`,
  description: '修复若干问题',
  description_en: 'Fixes',
  ...extra,
});
const upload = (c: TestClient, fields: Fields, bytes: Uint8Array, name = 'nest.wkimg', field = FIRMWARE_FILE_FIELD) =>
  sendMultipart<Firmware>(c, 'romAdd', fields, [{ field, name, bytes }]);

const stored = async () => {
  const dir = path.join(server.dataDir, 'firmware');
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
};
const rows = () => server.db.selectFrom('firmware').selectAll().orderBy('id').execute();
const tmpFiles = async () => {
  const dir = path.join(server.dataDir, 'tmp');
  return existsSync(dir) ? (await readdir(dir)).filter((n) => n !== 'uploads') : [];
};

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
  // The firmware catalogue is system-wide: only a super administrator changes it.
  manager = await userClient(server, { funList: [SUPER_ADMINISTRATOR] });
  reader = await userClient(server, { funList: ['rom_list'] });
});
afterAll(async () => server?.close());

describe('firmware packages', () => {
  it('stores a checked .wkimg with its digests, lists it and serves the administrators a signed download with Range', async () => {
    const bytes = samplePackage({ versionCode: 100, payloadBytes: 5000 });
    const res = await upload(manager, form(100), bytes, '固件 v100.wkimg');
    expect(res.body.code).toBe(ResultCode.OK);
    const rom = res.body.data;
    expect(rom).toMatchObject({
      type: 17,
      version_code: 100,
      version_name: '1.0.100',
      state: 10,
      description: '修复若干问题',
      description_en: 'Fixes',
      file_name: '固件 v100.wkimg',
      md5: createHash('md5').update(bytes).digest('hex'),
      sha256: sha256Hex(bytes),
    });
    expect(rom.size_kb).toBeCloseTo(bytes.length / 1024, 1);
    const row = (await rows()).find((r) => r.id === rom.id)!;
    expect(Number(row.size)).toBe(bytes.length);
    const file = path.join(server.dataDir, 'firmware', row.file_key);
    expect(await readFile(file)).toEqual(Buffer.from(bytes));
    expect(await tmpFiles()).toEqual([]);

    const list = (await reader.call<Page<Firmware>>('romList', { page: 0 })).body.data;
    expect(list.total).toBe(1);
    expect(list.list[0]!.url).toMatch(/^\/api\/device\/rom\/download\/[0-9a-f-]+\?e=\d+&s=/);

    const whole = await server.app.inject({ method: 'GET', url: list.list[0]!.url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload).toEqual(Buffer.from(bytes));
    expect(whole.headers['x-firmware-sha256']).toBe(rom.sha256);
    expect(whole.headers['content-disposition']).toContain("filename*=UTF-8''%E5%9B%BA%E4%BB%B6%20v100.wkimg");
    const part = await server.app.inject({ method: 'GET', url: list.list[0]!.url, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('WKIMG01\n');
    // A forged or missing signature is refused.
    const forged = list.list[0]!.url.replace(/s=.*/, `s=${'A'.repeat(43)}`);
    expect((await server.app.inject({ method: 'GET', url: forged })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: `/api/device/rom/download/${rom.id}` })).statusCode).toBe(401);
  });

  it('refuses wrong and forged files and keeps nothing', async () => {
    const before = { rows: await rows(), files: await stored() };
    const good = samplePackage({ versionCode: 200 });
    const tampered = Uint8Array.from(good);
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 0xff;
    const forgedHeader = buildWkimg({ type: 17, version_code: 200, version_name: 'x', model: '' }, new Uint8Array(100), () => 'f'.repeat(64));
    const cases: { name: string; bytes: Uint8Array; file?: string; fields?: Fields; text: RegExp }[] = [
      { name: 'not a package', bytes: new TextEncoder().encode('MZ this is an exe'), text: /Not a \.wkimg/ },
      { name: 'wrong extension', bytes: good, file: 'nest.bin', text: /must be a \.wkimg/ },
      { name: 'payload changed', bytes: tampered, text: /SHA-256/ },
      { name: 'header digest forged', bytes: forgedHeader, text: /SHA-256/ },
      { name: 'truncated', bytes: good.subarray(0, good.length - 10), text: /length/ },
      { name: 'trailing bytes', bytes: Uint8Array.from([...good, 0]), text: /length/ },
      { name: 'broken header', bytes: Uint8Array.from([...good.subarray(0, 12), 0x7b, 0x7b, ...good.subarray(14)]), text: /header/ },
      { name: 'other version in the file', bytes: good, fields: form(201), text: /version code 200, not the entered 201/ },
      { name: 'other type in the file', bytes: samplePackage({ type: 18, versionCode: 200 }), text: /firmware type 18/ },
    ];
    for (const c of cases) {
      const res = await upload(manager, c.fields ?? form(200), c.bytes, c.file);
      expect(res.body.code, c.name).toBe(ResultCode.BAD_REQUEST);
      expect(res.body.msg, c.name).toMatch(c.text);
    }
    // No file, two files, the file in another part.
    expect((await sendMultipart(manager, 'romAdd', form(200), [])).body.code).toBe(ResultCode.BAD_REQUEST);
    const two = await sendMultipart(manager, 'romAdd', form(200), [
      { field: FIRMWARE_FILE_FIELD, name: 'a.wkimg', bytes: good },
      { field: FIRMWARE_FILE_FIELD, name: 'b.wkimg', bytes: good },
    ]);
    expect(two.body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await upload(manager, form(200), good, 'a.wkimg', 'other')).body.code).toBe(ResultCode.BAD_REQUEST);
    // Form rules: texts in both languages, a type the registry knows.
    expect((await upload(manager, form(200, { description_en: '' }), good)).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await upload(manager, form(200, { type: 18 }), good)).body.code).toBe(ResultCode.BAD_REQUEST);
    expect(await rows()).toEqual(before.rows);
    expect(await stored()).toEqual(before.files);
    expect(await tmpFiles()).toEqual([]);
    // The same package is fine once the form matches it.
    expect((await upload(manager, form(200), good)).body.code).toBe(ResultCode.OK);
  });

  it('keeps one live package per type and version code; a deleted one frees the code and loses its file', async () => {
    const first = (await upload(manager, form(300), samplePackage({ versionCode: 300 }))).body.data;
    const before = { rows: await rows(), files: await stored() };
    const dup = await upload(manager, form(300), samplePackage({ versionCode: 300 }), 'again.wkimg');
    expect(dup.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(dup.body.msg).toBe('Type 17 already has a package with version code 300');
    expect(await rows()).toEqual(before.rows);
    expect(await stored()).toEqual(before.files);

    const key = (await rows()).find((r) => r.id === first.id)!.file_key;
    const url = (await reader.call<Page<Firmware>>('romList', { page: 0, search: '1.0.300' })).body.data.list[0]!.url;
    const del = await manager.call<Firmware>('romEdit', { id: first.id, version_name: '1.0.300', description: 'd', description_en: 'd', state: 20 });
    expect(del.body.code).toBe(ResultCode.OK);
    expect(del.body.data).toMatchObject({ state: 20, url: '' });
    expect(existsSync(path.join(server.dataDir, 'firmware', key))).toBe(false);
    expect((await server.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await reader.call<Page<Firmware>>('romList', { page: 0, search: '1.0.300' })).body.data.total).toBe(0);
    expect((await reader.call<Page<Firmware>>('romList', { page: 0, state: 20 })).body.data.list.map((r) => r.id)).toEqual([first.id]);
    // Deleted packages cannot be edited; the version code can be uploaded again.
    const late = await manager.call('romEdit', { id: first.id, version_name: 'x', description: 'd', description_en: 'd' });
    expect(late.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await upload(manager, form(300), samplePackage({ versionCode: 300 }))).body.code).toBe(ResultCode.OK);
  });

  it('edits the texts only', async () => {
    const rom = (await upload(manager, form(400), samplePackage({ versionCode: 400 }))).body.data;
    const res = await manager.call<Firmware>('romEdit', { id: rom.id, version_name: '4.0 beta', description: '新说明', description_en: 'New notes', version_code: 9 });
    expect(res.body.data).toMatchObject({ version_name: '4.0 beta', description: '新说明', description_en: 'New notes', version_code: 400, state: 10 });
    const before = await rows();
    expect((await manager.call('romEdit', { id: rom.id, version_name: '', description: 'x', description_en: 'x' })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await manager.call('romEdit', { id: 'nope', version_name: 'x', description: 'x', description_en: 'x' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect(await rows()).toEqual(before);
  });

  it('lists with type, search and paging, newest first', async () => {
    const all = (await reader.call<Page<Firmware>>('romList', { page: 0, size: 2 })).body.data;
    const total = all.total;
    expect(total).toBeGreaterThanOrEqual(4);
    expect(all.list).toHaveLength(2);
    expect(all.list[0]!.create_time).toBeGreaterThanOrEqual(all.list[1]!.create_time);
    expect((await reader.call<Page<Firmware>>('romList', { page: 0, type: 17 })).body.data.total).toBe(total);
    expect((await reader.call<Page<Firmware>>('romList', { page: 0, search: 'beta' })).body.data.list.map((r) => r.version_code)).toEqual([400]);
    expect((await reader.call('romList', { page: 0, type: 3 })).body.code).toBe(ResultCode.BAD_REQUEST);
  });

  it('refuses a file over the firmware limit (PAYLOAD_TOO_LARGE) and keeps nothing', async () => {
    const small = await server.rebuild({ firmwareMaxBytes: 4096 });
    const before = { rows: await rows(), files: await stored() };
    const big = await sendMultipart(manager, 'romAdd', form(500), [{ field: FIRMWARE_FILE_FIELD, name: 'big.wkimg', bytes: samplePackage({ versionCode: 500, payloadBytes: 8000 }) }], small);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe(ResultCode.PAYLOAD_TOO_LARGE);
    const fits = await sendMultipart(manager, 'romAdd', form(501), [{ field: FIRMWARE_FILE_FIELD, name: 'ok.wkimg', bytes: samplePackage({ versionCode: 501, payloadBytes: 1000 }) }], small);
    expect(fits.body.code).toBe(ResultCode.OK);
    await server.db.deleteFrom('firmware').where('version_code', '=', 501).execute();
    expect(await rows()).toEqual(before.rows);
    expect(await tmpFiles()).toEqual([]);
  });

  it('needs the functions', async () => {
    const before = await rows();
    const id = before[0]!.id;
    expect((await upload(reader, form(600), samplePackage({ versionCode: 600 }))).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await reader.call('romEdit', { id, version_name: 'x', description: 'x', description_en: 'x', state: 20 })).body.code).toBe(ResultCode.NO_PERMISSION);
    const nobody = await userClient(server, { funList: ['menu_firmware'] });
    expect((await nobody.call('romList', { page: 0 })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect(await rows()).toEqual(before);
    expect((await admin.call<Page<Firmware>>('romList', { page: 0 })).body.code).toBe(ResultCode.OK);
  });
});
