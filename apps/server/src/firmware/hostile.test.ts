import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { FIRMWARE_FILE_FIELD, ResultCode, isSuccess } from '@nest/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, type TestClient, type TestServer } from '../../test/helpers.js';
import { samplePackage } from './sample.js';
import { sendMultipart } from './testing.js';

/**
 * The server's own file import: hostile .wkimg packages through the real /rom/add call. Each
 * is refused with a localised message, and leaves no firmware row, no stored file and no upload behind.
 * Cases are drawn with a fixed fast-check seed, so a failure names a reproducible input.
 */

let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  admin = await adminClient(server);
});
afterAll(async () => server?.close());

const listDir = async (dir: string) => (existsSync(dir) ? (await readdir(dir)).filter((n) => n !== 'uploads') : []);
const utf8 = (s: string) => new TextEncoder().encode(s);
const FORM = { type: 17, version_code: 7, version_name: '1.0.7', description: '测试', description_en: 'test' };

/** A package whose header is the given JSON text (the payload, if any, follows). */
function withHeader(json: string, payload = new Uint8Array(0)): Uint8Array {
  const body = utf8(json);
  const out = new Uint8Array(12 + body.length + payload.length);
  out.set(utf8('WKIMG01\n'));
  new DataView(out.buffer).setUint32(8, body.length, false);
  out.set(body, 12);
  out.set(payload, 12 + body.length);
  return out;
}

describe('hostile firmware packages through /rom/add', () => {
  it('garbage, mutated and forged packages are refused clearly and store nothing', async () => {
    const valid = samplePackage({ versionCode: 7, payloadBytes: 256 });
    const digest = 'a'.repeat(64);
    const forged: Uint8Array[] = [
      new Uint8Array(0),
      utf8('WKIMG01\n'),
      withHeader('{"__proto__":{"polluted":1},"type":17,"version_code":1,"version_name":"x","payload_size":1,"payload_sha256":"' + digest + '"}', new Uint8Array(1)),
      withHeader(`{"type":17,"version_code":1,"version_name":"x","payload_size":1e308,"payload_sha256":"${digest}"}`),
      withHeader(`{"type":"17","version_code":"NaN","version_name":[],"payload_size":-1,"payload_sha256":null}`),
      withHeader(`{"type":17,"version_code":1,"version_name":"x","payload_size":4,"payload_sha256":"${digest}"}`, new Uint8Array(4)),
      withHeader(`${'['.repeat(2000)}${']'.repeat(2000)}`),
      withHeader('x'.repeat(5000)),
    ];
    const mutated = fc.sample(
      fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }).map((edits) => {
        const b = valid.slice();
        for (const [at, v] of edits) b[at] = b[at] === v ? (v + 1) % 256 : v;
        return b;
      }),
      { numRuns: 12, seed: 8 },
    );
    const random = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 300 }), { numRuns: 6, seed: 9 });
    // The same form takes the untouched package: the refusals below are the bytes' doing. (A mutation that
    // leaves a valid package, e.g. another version name, is then refused as a second version 7.)
    const ok = await sendMultipart(admin, 'romAdd', FORM, [{ field: FIRMWARE_FILE_FIELD, name: 'ok.wkimg', bytes: valid }]);
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ code: ResultCode.OK });
    const before = { rows: await server.db.selectFrom('firmware').selectAll().execute(), files: await listDir(path.join(server.dataDir, 'firmware')) };
    expect(before.rows).toHaveLength(1);

    for (const [i, bytes] of [...forged, ...mutated, ...random].entries()) {
      const lang = i % 2 ? 'zh' : 'en';
      const res = await sendMultipart(admin, 'romAdd', { ...FORM, os_language: lang }, [{ field: FIRMWARE_FILE_FIELD, name: `f${i}.wkimg`, bytes }]);
      expect(isSuccess(res.body.code), `case ${i}: ${JSON.stringify(res.body)}`).toBe(false);
      // Refused for the file, not for the form: the form is the one the valid package passes with below.
      expect(res.body.msg, `case ${i}`).not.toMatch(/^Field |^字段 /);
      expect(res.body.code).not.toBe(ResultCode.SERVER_ERROR);
      expect(res.body.msg.length).toBeGreaterThan(0);
      expect(/[\u4e00-\u9fff]/.test(res.body.msg), res.body.msg).toBe(lang === 'zh');
    }
    expect(await server.db.selectFrom('firmware').selectAll().execute()).toEqual(before.rows);
    expect(await listDir(path.join(server.dataDir, 'firmware'))).toEqual(before.files);
    expect(await listDir(path.join(server.dataDir, 'tmp'))).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

  });
});
