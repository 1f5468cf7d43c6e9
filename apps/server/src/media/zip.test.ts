import { rm } from 'node:fs/promises';
import path from 'node:path';
import { RESULT_ZIP_MAX_BYTES, RESULT_ZIP_PATH, RESULT_ZIP_TTL_S, ResultCode, callFunId } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../test/helpers.js';
import { registerDevice } from '../../test/live.js';
import { nowSeconds } from '../db/index.js';
import { addResult, addSortie, iso } from '../stats/test-fixtures.js';
import { localDay, localStamp, makeToken, prepareZip } from './zip.js';

let server: TestServer;
let wk: TestClient;
let gz: TestClient;
let nobody: TestClient;
const funs = ['/result/zip', '/result/list'].map(callFunId);
const T0 = iso('2026-04-01T08:00:00Z');
let sortId = '';
let gzSortId = '';
const files: Record<string, { id: string; body: Buffer }> = {};

interface Entry {
  name: string;
  method: number;
  body: Buffer;
}
function unzip(buf: Buffer): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out: Entry[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2 ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.push({ name: e.fileName, method: e.compressionMethod, body: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const zipOf = async (client: TestClient, fields: Record<string, string>) => {
  const res = await client.call<{ url: string; count: number; bytes: number; expires_at: number }>('resultZip', fields);
  expect(res.body.code).toBe(ResultCode.OK);
  return res.body.data;
};
const download = (url: string, app = server.app) => app.inject({ method: 'GET', url });

beforeAll(async () => {
  server = await startTestServer();
  await registerDevice(server, { sn_id: 'ZIP-A' });
  await registerDevice(server, { sn_id: 'ZIP-G', company_id: 'gzGh' });
  const db = server.db;
  const dataDir = server.dataDir;
  sortId = await addSortie(db, { sn: 'ZIP-A', start: T0, mission: 'North/Loop' });
  gzSortId = await addSortie(db, { sn: 'ZIP-G', company: 'gzGh', start: T0 });
  files.p1 = await addResult(db, { sn: 'ZIP-A', sortId, takenAt: T0 + 10, fileName: 'DJI_0001.JPG', dataDir, bytes: 3000 });
  files.p2 = await addResult(db, { sn: 'ZIP-A', sortId, takenAt: T0 + 20, fileName: 'DJI_0001.JPG', dataDir, bytes: 2000 });
  files.v = await addResult(db, { sn: 'ZIP-A', type: 20, takenAt: iso('2026-04-02T03:00:00Z'), fileName: 'clip.mp4', dataDir, bytes: 5000 });
  files.g = await addResult(db, { sn: 'ZIP-G', company: 'gzGh', sortId: gzSortId, takenAt: T0, dataDir });
  wk = await userClient(server, { funList: funs });
  gz = await userClient(server, { funList: funs, companyId: 'gzGh' });
  nobody = await userClient(server, { funList: [callFunId('/result/list')] });
});
afterAll(async () => server?.close());

describe('/result/zip', () => {
  it('zips chosen results: files stored as they are under <sortie or day>/<file name>, names made unique', async () => {
    const z = await zipOf(wk, { ids: [files.p1!.id, files.p2!.id, files.v!.id].join(',') });
    expect(z).toMatchObject({ count: 3, bytes: 10_000 });
    expect(z.url.startsWith(`${RESULT_ZIP_PATH}/`)).toBe(true);
    expect(z.expires_at - nowSeconds()).toBeGreaterThan(RESULT_ZIP_TTL_S - 5);
    const res = await download(z.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="results-\d{4}-\d{2}-\d{2}\.zip"/);
    expect(res.headers['cache-control']).toBe('no-store');
    const entries = await unzip(res.rawPayload);
    // Folders in the server's time zone: the sortie (route name, start) or the day taken.
    const folder = `North_Loop ${localStamp(T0 * 1000)}`;
    expect(entries.map((e) => e.name)).toEqual([`${folder}/DJI_0001.JPG`, `${folder}/DJI_0001 (2).JPG`, `${localDay(iso('2026-04-02T03:00:00Z') * 1000)}/clip.mp4`]);
    // Stored (method 0), byte for byte.
    expect(entries.map((e) => e.method)).toEqual([0, 0, 0]);
    expect(entries[0]!.body.equals(files.p1!.body)).toBe(true);
    expect(entries[1]!.body.equals(files.p2!.body)).toBe(true);
    expect(entries[2]!.body.equals(files.v!.body)).toBe(true);
  });

  it('zips every result of a sortie; the link works on any instance (secret in the database)', async () => {
    const z = await zipOf(wk, { sort_id: sortId });
    expect(z).toMatchObject({ count: 2, bytes: 5000 });
    const other = await server.rebuild();
    const res = await download(z.url, other);
    expect(res.statusCode).toBe(200);
    expect((await unzip(res.rawPayload)).map((e) => e.name)).toHaveLength(2);
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''results-North%2FLoop-");
  });

  it('leaves out results deleted after the link was made', async () => {
    const extra = await addResult(server.db, { sn: 'ZIP-A', takenAt: T0 + 30, fileName: 'late.jpg', dataDir: server.dataDir });
    const z = await zipOf(wk, { ids: [files.p1!.id, extra.id].join(',') });
    await server.db.updateTable('results').set({ state: 20 }).where('id', '=', extra.id).execute();
    const entries = await unzip((await download(z.url)).rawPayload);
    expect(entries.map((e) => e.name)).toEqual([`North_Loop ${localStamp(T0 * 1000)}/DJI_0001.JPG`]);
    // A file gone from storage is left out; nothing left at all is a 404.
    const gone = await addResult(server.db, { sn: 'ZIP-A', takenAt: T0 + 31, fileName: 'gone.jpg', dataDir: server.dataDir });
    const z2 = await zipOf(wk, { ids: [files.p2!.id, gone.id].join(',') });
    await rm(path.join(server.dataDir, gone.url.slice(1)));
    expect((await unzip((await download(z2.url)).rawPayload)).map((e) => e.name)).toEqual([`North_Loop ${localStamp(T0 * 1000)}/DJI_0001.JPG`]);
    const z3 = await zipOf(wk, { ids: gone.id });
    expect((await download(z3.url)).statusCode).toBe(404);
  });

  it("keeps to the company: another company's results or sortie read as missing", async () => {
    expect((await gz.call('resultZip', { ids: files.p1!.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('resultZip', { ids: [files.p1!.id, files.g!.id].join(',') })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('resultZip', { sort_id: gzSortId })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await wk.call('resultZip', { ids: 'no-such-id' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    const own = await zipOf(gz, { sort_id: gzSortId });
    expect(own.count).toBe(1);
  });

  it('refuses bad input and callers without the function', async () => {
    expect((await wk.call('resultZip', {})).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await wk.call('resultZip', { ids: files.p1!.id, sort_id: sortId })).body.code).toBe(ResultCode.BAD_REQUEST);
    expect((await nobody.call('resultZip', { ids: files.p1!.id })).body.code).toBe(ResultCode.NO_PERMISSION);
    // A sortie without results: nothing to zip.
    const empty = await addSortie(server.db, { sn: 'ZIP-A', start: T0 + 9000 });
    const res = await wk.call('resultZip', { sort_id: empty }, { lang: 'en' });
    expect(res.body).toMatchObject({ code: ResultCode.BAD_REQUEST, msg: 'There are no results to put in an archive' });
  });

  it('refuses more files or bytes than the limits, with a clear text', async () => {
    const big = await addResult(server.db, { sn: 'ZIP-A', takenAt: T0 + 40, size: RESULT_ZIP_MAX_BYTES + 1 });
    const res = await wk.call('resultZip', { ids: big.id }, { lang: 'en' });
    expect(res.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(res.body.msg).toBe('The selected results are 4.00 GB: at most 4.00 GB per archive');
    const zh = await wk.call('resultZip', { ids: big.id }, { lang: 'zh' });
    expect(zh.body.msg).toContain('一次最多打包');
    const scope = { companyId: 'wk', all: false };
    await expect(prepareZip(server.app.nest.deps, scope, { sort_id: sortId }, { files: 1, bytes: 1e9 })).rejects.toMatchObject({ code: ResultCode.BAD_REQUEST });
    await expect(prepareZip(server.app.nest.deps, scope, { ids: [files.p1!.id, files.p2!.id] }, { files: 1, bytes: 1e9 })).rejects.toMatchObject({
      code: ResultCode.BAD_REQUEST,
    });
    await expect(prepareZip(server.app.nest.deps, scope, { sort_id: sortId }, { files: 10, bytes: 4999 })).rejects.toMatchObject({ code: ResultCode.BAD_REQUEST });
    await expect(prepareZip(server.app.nest.deps, scope, { sort_id: sortId }, { files: 2, bytes: 5000 })).resolves.toMatchObject({ count: 2 });
  });

  it('answers 404 for a forged, altered or expired link', async () => {
    const z = await zipOf(wk, { sort_id: sortId });
    const token = z.url.slice(RESULT_ZIP_PATH.length + 1);
    const [body, sig] = token.split('.') as [string, string];
    const flipped = `${body}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    // Another sortie under the same signature.
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${Buffer.from(JSON.stringify({ ...payload, s: gzSortId, c: '*' })).toString('base64url')}.${sig}`;
    const expired = await makeToken(server.app.nest.deps.db, { s: sortId, c: 'wk', e: nowSeconds() - 1 });
    for (const t of [flipped, altered, expired, 'garbage', `${body}.`]) {
      const res = await download(`${RESULT_ZIP_PATH}/${t}`);
      expect(res.statusCode).toBe(404);
    }
    expect((await download(`${RESULT_ZIP_PATH}/${token}`)).statusCode).toBe(200);
  });
});
