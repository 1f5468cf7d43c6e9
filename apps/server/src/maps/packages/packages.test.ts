import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { MAP_PACKAGE_FILE_FIELD, MAP_PACKAGE_TEXTS, ResultCode, type MapPackage, type Page } from '@nest/contracts';
import { Compression, TileType } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, userClient, type TestClient, type TestServer } from '../../../test/helpers.js';
import { sendMultipart } from '../../firmware/testing.js';
import { MVT_VECTOR_LAYERS, mvtTile, pngTile, tilesOver, writeMbtiles, writePmtiles } from './fixtures.js';
import { packagesDir } from './store.js';

/**
 * Offline map packages on this database: accepted MBTiles (raster and vector) and PMTiles, every kind of
 * hostile file refused with its text and nothing kept, list and delete, company scope, and the tiles served
 * through the signed URLs of the style.
 */
let server: TestServer;
let ops: TestClient;
let other: TestClient;
let reader: TestClient;
let work: string;

const FUNS = ['map_packageAdd', 'map_packageList', 'map_packageDelete'];
const BOX = { west: 113.9, south: 22.45, east: 114.2, north: 22.65 };
const RED: [number, number, number] = [220, 30, 30];

const upload = (c: TestClient, name: string, fileName: string, bytes: Uint8Array) =>
  sendMultipart<MapPackage>(c, 'mapPackageAdd', { name }, [{ field: MAP_PACKAGE_FILE_FIELD, name: fileName, bytes }]);

async function mbtilesBytes(metadata: Record<string, string>, tiles: Parameters<typeof writeMbtiles>[2]): Promise<Buffer> {
  const { readFile, rm } = await import('node:fs/promises');
  const file = path.join(work, `f-${Math.random().toString(36).slice(2)}.mbtiles`);
  writeMbtiles(file, metadata, tiles);
  const bytes = await readFile(file);
  await rm(file);
  return bytes;
}

const rasterMbtiles = () =>
  mbtilesBytes(
    { name: 'raster', format: 'png', minzoom: '8', maxzoom: '10', bounds: `${BOX.west},${BOX.south},${BOX.east},${BOX.north}`, attribution: '<a href="javascript:alert(1)">Survey</a> team' },
    tilesOver(BOX, 8, 10, () => pngTile(RED)),
  );
const vectorMbtiles = () =>
  mbtilesBytes(
    { name: 'vector', format: 'pbf', minzoom: '9', maxzoom: '10', json: JSON.stringify({ vector_layers: MVT_VECTOR_LAYERS }) },
    tilesOver(BOX, 9, 10, (z, x, y) => mvtTile(z, x, y)),
  );
const pmtiles = (over: Partial<Parameters<typeof writePmtiles>[0]> = {}) =>
  writePmtiles({
    tileType: TileType.Mvt,
    tileCompression: Compression.Gzip,
    tiles: tilesOver(BOX, 9, 10, (z, x, y) => mvtTile(z, x, y)),
    metadata: { vector_layers: MVT_VECTOR_LAYERS, attribution: 'PM team' },
    minZoom: 9,
    maxZoom: 10,
    bounds: BOX,
    ...over,
  });

const stored = async () => (existsSync(packagesDir(server.dataDir)) ? (await readdir(packagesDir(server.dataDir))).sort() : []);
const rows = () => server.db.selectFrom('map_packages').selectAll().orderBy('id').execute();
const tmpFiles = async () => {
  const dir = path.join(server.dataDir, 'tmp');
  return existsSync(dir) ? (await readdir(dir)).filter((n) => n !== 'uploads') : [];
};

/** The style of a package through the call, and its tile URL template. */
async function styleOf(c: TestClient, id: string, lang: 'zh' | 'en' = 'en') {
  const res = await c.call<{ sources: { package: { tiles: string[]; type: string; bounds: number[] } }; layers: { id: string; type: string; layout?: Record<string, unknown> }[]; glyphs?: string }>(
    'mapPackageStyle',
    { id, theme: 'dark' },
    { lang },
  );
  expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.OK);
  return res.body.data;
}
const tileUrl = (template: string, z: number, x: number, y: number) => template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));
const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: 'GET', url, headers });

/** A tile inside BOX at zoom z. */
const inside = (z: number) => tilesOver(BOX, z, z, () => new Uint8Array())[0]!;

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  work = path.join(server.dataDir, 'fixtures');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(work, { recursive: true });
  ops = await userClient(server, { funList: FUNS, companyId: 'wk' });
  other = await userClient(server, { funList: FUNS, companyId: 'zrhk' });
  reader = await userClient(server, { funList: ['map_packageList'], companyId: 'wk' });
});
afterAll(async () => server?.close());

describe('offline map packages', () => {
  it('keeps a raster MBTiles with what it read, lists it, and serves its PNG tiles through the signed style', async () => {
    const res = await upload(ops, 'Survey 2026', 'survey.MBTiles', await rasterMbtiles());
    expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.OK);
    const pkg = res.body.data;
    expect(pkg).toMatchObject({ name: 'Survey 2026', container: 'mbtiles', kind: 'raster', format: 'png', min_zoom: 8, max_zoom: 10, company_id: 'wk' });
    expect(pkg.min_lng).toBeCloseTo(BOX.west);
    expect(pkg.max_lat).toBeCloseTo(BOX.north);
    // Attribution is drawn as HTML by MapLibre: only its text is kept.
    expect(pkg.attribution).toBe('Survey team');
    expect(await stored()).toEqual([`${pkg.id}.mbtiles`]);
    expect(await tmpFiles()).toEqual([]);

    const list = await reader.call<Page<MapPackage>>('mapPackageList', {});
    expect(list.body.data.list.map((p) => p.id)).toEqual([pkg.id]);
    expect(list.body.data.list[0]!.u_name).toBe('Tester');

    const style = await styleOf(reader, pkg.id);
    expect(style.sources.package.type).toBe('raster');
    expect(style.layers.map((l) => l.type)).toEqual(['background', 'raster']);
    const t = inside(9);
    const url = tileUrl(style.sources.package.tiles[0]!, t.z, t.x, t.y);
    expect(url).toMatch(new RegExp(`^/api/zone/tiles/packages/${pkg.id}/\\d+\\.[A-Za-z0-9_-]{43}/9/\\d+/\\d+\\.png$`));
    const tile = await get(url);
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/png');
    expect(tile.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // ETag and 304.
    expect((await get(url, { 'if-none-match': String(tile.headers.etag) })).statusCode).toBe(304);
    // A tile the package does not hold.
    expect((await get(tileUrl(style.sources.package.tiles[0]!, 9, 0, 0))).statusCode).toBe(204);
    // Outside the grid; a format that is not the package's; a forged or missing signature.
    expect((await get(tileUrl(style.sources.package.tiles[0]!, 2, 9, 0))).statusCode).toBe(404);
    expect((await get(url.replace(/\.png$/, '.jpg'))).statusCode).toBe(400);
    expect((await get(url.replace(/\/(\d+)\.[A-Za-z0-9_-]{43}\//, '/$1.' + 'A'.repeat(43) + '/'))).statusCode).toBe(401);
    expect((await get(url.replace(/\/(\d+)\.([A-Za-z0-9_-]{43})\//, (_, e, s) => `/${Number(e) + 3600}.${s}/`))).statusCode).toBe(401);
  });

  it('keeps a vector MBTiles and serves gzip\'d PBF with content-encoding, styled from its vector layers with labels in the UI language', async () => {
    const res = await upload(ops, 'Vector roads', 'roads.mbtiles', await vectorMbtiles());
    expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.OK);
    const pkg = res.body.data;
    expect(pkg).toMatchObject({ kind: 'vector', format: 'pbf', min_zoom: 9, max_zoom: 10 });
    // Bounds from the tiles when the metadata has none: they cover the box.
    expect(pkg.min_lng).toBeLessThanOrEqual(BOX.west);
    expect(pkg.max_lat).toBeGreaterThanOrEqual(BOX.north);

    const zh = await styleOf(ops, pkg.id, 'zh');
    expect(zh.glyphs).toBe('/api/zone/tiles/glyphs/{fontstack}/{range}.pbf?set=all');
    expect(zh.layers.map((l) => l.type)).toEqual(['background', ...Array(3).fill(['fill', 'line', 'line', 'circle', 'symbol']).flat()]);
    const label = zh.layers.find((l) => l.type === 'symbol')!;
    expect(label.layout!['text-font']).toEqual(['Noto Sans Regular']);
    expect(label.layout!['text-field']).toEqual(['coalesce', ['get', 'name:zh'], ['get', 'name_zh'], ['get', 'name'], ['get', 'name:en'], ['get', 'name_en']]);
    const en = await styleOf(ops, pkg.id, 'en');
    expect((en.layers.find((l) => l.type === 'symbol')!.layout!['text-field'] as unknown[])[1]).toEqual(['get', 'name:en']);

    const t = inside(10);
    const url = tileUrl(en.sources.package.tiles[0]!, t.z, t.x, t.y);
    const gz = await get(url, { 'accept-encoding': 'gzip' });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-type']).toBe('application/x-protobuf');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).length).toBeGreaterThan(10);
    const plain = await get(url, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(gunzipSync(gz.rawPayload))).toBe(true);
  });

  it('keeps a PMTiles v3 archive (header, metadata and tiles read through a file-backed Source)', async () => {
    const res = await upload(ops, 'PM vector', 'area.pmtiles', pmtiles());
    expect(res.body.code, JSON.stringify(res.body)).toBe(ResultCode.OK);
    const pkg = res.body.data;
    expect(pkg).toMatchObject({ container: 'pmtiles', kind: 'vector', format: 'pbf', min_zoom: 9, max_zoom: 10, attribution: 'PM team' });
    expect(pkg.min_lat).toBeCloseTo(BOX.south, 5);
    const style = await styleOf(ops, pkg.id);
    const t = inside(9);
    const tile = await get(tileUrl(style.sources.package.tiles[0]!, t.z, t.x, t.y), { 'accept-encoding': 'gzip, br' });
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-encoding']).toBe('gzip');
    expect((await get(tileUrl(style.sources.package.tiles[0]!, 9, 0, 0))).statusCode).toBe(204);

    const raster = await upload(ops, 'PM raster', 'photo.pmtiles', pmtiles({ tileType: TileType.Png, tileCompression: Compression.None, tiles: tilesOver(BOX, 9, 9, () => pngTile([10, 200, 10])), minZoom: 9, maxZoom: 9, metadata: {} }));
    expect(raster.body.data).toMatchObject({ kind: 'raster', format: 'png' });
    const rs = await styleOf(ops, raster.body.data.id);
    const png = await get(tileUrl(rs.sources.package.tiles[0]!, t.z, t.x, t.y));
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
  });

  it('refuses hostile files with their text, and keeps nothing of them', async () => {
    const before = { files: await stored(), rows: await rows() };
    const notSqlite = Buffer.from('SQLite format 3\u0000' + 'x'.repeat(200));
    const wrongTables = await (async () => {
      const { readFile, rm } = await import('node:fs/promises');
      const file = path.join(work, 'wrong.mbtiles');
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(file);
      db.exec('CREATE TABLE images (id TEXT, data BLOB); INSERT INTO images VALUES (1, x\'00\');');
      db.close();
      const b = await readFile(file);
      await rm(file);
      return b;
    })();
    const good = pmtiles();
    const cases: { name?: string; file: string; bytes: Uint8Array; problem: keyof typeof MAP_PACKAGE_TEXTS }[] = [
      { file: 'a.zip', bytes: await rasterMbtiles(), problem: 'extension' },
      { name: '../../etc/passwd', file: 'a.mbtiles', bytes: await rasterMbtiles(), problem: 'name' },
      { name: 'C:\\maps', file: 'a.mbtiles', bytes: await rasterMbtiles(), problem: 'name' },
      { file: 'a.mbtiles', bytes: Buffer.from('just some text, not a database'), problem: 'notSqlite' },
      { file: 'a.mbtiles', bytes: notSqlite, problem: 'notSqlite' },
      { file: 'a.mbtiles', bytes: wrongTables, problem: 'notMbtiles' },
      { file: 'a.mbtiles', bytes: await mbtilesBytes({ format: 'png' }, []), problem: 'noTiles' },
      { file: 'a.mbtiles', bytes: await mbtilesBytes({ format: 'tiff' }, [{ z: 0, x: 0, y: 0, data: pngTile(RED) }]), problem: 'format' },
      { file: 'a.mbtiles', bytes: await mbtilesBytes({ format: 'png', bounds: '10,10,5,5' }, [{ z: 0, x: 0, y: 0, data: pngTile(RED) }]), problem: 'bounds' },
      { file: 'a.pmtiles', bytes: good.subarray(0, good.length - 40), problem: 'truncated' },
      { file: 'a.pmtiles', bytes: good.subarray(0, 60), problem: 'truncated' },
      { file: 'a.pmtiles', bytes: Buffer.from('PMTiles\u0002' + 'x'.repeat(200)), problem: 'pmtilesVersion' },
      { file: 'a.pmtiles', bytes: Buffer.from('not a pmtiles archive at all'), problem: 'notPmtiles' },
      { file: 'a.pmtiles', bytes: pmtiles({ tiles: [] }), problem: 'noTiles' },
      { file: 'a.pmtiles', bytes: pmtiles({ tileCompression: Compression.Brotli }), problem: 'compression' },
      { file: 'a.pmtiles', bytes: pmtiles({ tileType: TileType.Avif }), problem: 'format' },
    ];
    for (const c of cases) {
      const res = await upload(ops, c.name ?? 'hostile', c.file, c.bytes);
      expect(res.body.code, `${c.problem}: ${JSON.stringify(res.body)}`).toBe(ResultCode.BAD_REQUEST);
      expect(res.body.msg).toBe(MAP_PACKAGE_TEXTS[c.problem].en);
    }
    // No file part at all.
    const none = await sendMultipart(ops, 'mapPackageAdd', { name: 'x' }, []);
    expect(none.body.msg).toBe(MAP_PACKAGE_TEXTS.noFile.en);
    // In Chinese too.
    const zh = await sendMultipart(ops, 'mapPackageAdd', { name: 'x', os_language: 'zh' }, [{ field: MAP_PACKAGE_FILE_FIELD, name: 'a.pmtiles', bytes: Buffer.from('nope') }]);
    expect(zh.body.msg).toBe(MAP_PACKAGE_TEXTS.notPmtiles.zh);
    expect({ files: await stored(), rows: await rows() }).toEqual(before);
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses a package over the size limit (413) without keeping anything', async () => {
    const small = await server.rebuild({ mapPackageMaxBytes: 4096 });
    const before = { files: await stored(), rows: await rows() };
    const res = await sendMultipart(ops, 'mapPackageAdd', { name: 'big' }, [{ field: MAP_PACKAGE_FILE_FIELD, name: 'big.mbtiles', bytes: await rasterMbtiles() }], small);
    expect(res.body.code).toBe(ResultCode.PAYLOAD_TOO_LARGE);
    expect(res.status).toBe(413);
    expect({ files: await stored(), rows: await rows() }).toEqual(before);
  });

  it('keeps each company to its own packages: another company neither lists, styles, reads nor deletes them', async () => {
    const mine = (await upload(ops, 'Company A map', 'a.mbtiles', await rasterMbtiles())).body.data;
    const style = await styleOf(ops, mine.id);
    const t = inside(9);
    const url = tileUrl(style.sources.package.tiles[0]!, t.z, t.x, t.y);

    const list = await other.call<Page<MapPackage>>('mapPackageList', {});
    expect(list.body.data.list.map((p) => p.company_id)).not.toContain('wk');
    expect((await other.call('mapPackageStyle', { id: mine.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await other.call('mapPackageDelete', { id: mine.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // B's own signed links do not open A's package.
    const theirs = (await upload(other, 'Company B map', 'b.mbtiles', await rasterMbtiles())).body.data;
    const theirStyle = await styleOf(other, theirs.id);
    const token = /\/(\d+\.[A-Za-z0-9_-]{43})\//.exec(theirStyle.sources.package.tiles[0]!)![1]!;
    expect((await get(url.replace(/\/\d+\.[A-Za-z0-9_-]{43}\//, `/${token}/`))).statusCode).toBe(401);
    expect((await get(url)).statusCode).toBe(200);
    expect(await stored()).toContain(`${mine.id}.mbtiles`);
  });

  it('deletes a package: row and file gone, its tiles 404, a second delete not found', async () => {
    const pkg = (await upload(ops, 'To delete', 'd.mbtiles', await rasterMbtiles())).body.data;
    const style = await styleOf(ops, pkg.id);
    const t = inside(9);
    const url = tileUrl(style.sources.package.tiles[0]!, t.z, t.x, t.y);
    expect((await get(url)).statusCode).toBe(200);
    expect((await reader.call('mapPackageDelete', { id: pkg.id })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await ops.call('mapPackageDelete', { id: pkg.id })).body.code).toBe(ResultCode.OK);
    expect(await stored()).not.toContain(`${pkg.id}.mbtiles`);
    expect(await server.db.selectFrom('map_packages').select('id').where('id', '=', pkg.id).executeTakeFirst()).toBeUndefined();
    expect((await get(url)).statusCode).toBe(404);
    expect((await ops.call('mapPackageDelete', { id: pkg.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect((await ops.call('mapPackageStyle', { id: pkg.id })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });
});
