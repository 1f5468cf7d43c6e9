// Database: SQLite only: tile files (MBTiles) and routes, no database.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../../test/live.js';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { BASEMAP_VERSION, Basemap, basemapFile, isTileInRange } from './basemap.js';
import { GLYPH_FONTSTACK, GLYPHS_URL_TEMPLATE } from './glyphs.js';
import { MbTiles } from './mbtiles.js';
import { BASEMAP_PREFIX, BASEMAP_TILE_TEMPLATE, registerMaps } from './routes.js';
import { chineseName } from './places.js';
import { graticule } from './source.js';

/** Layer names of a PBF tile: the tile's field 3 are layers, a layer's field 1 its name. */
function layerNames(pbf: Uint8Array): string[] {
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = pbf[i++]!;
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
      shift += 7;
    }
  };
  /** Fields of the message in [from, to): answers (field, start, end) of length-delimited ones. */
  const fields = (from: number, to: number) => {
    const out: [number, number, number][] = [];
    i = from;
    while (i < to) {
      const key = varint();
      if ((key & 7) === 0) varint();
      else if ((key & 7) === 2) {
        const len = varint();
        out.push([key >> 3, i, i + len]);
        i += len;
      } else throw new Error(`unexpected wire type ${key & 7}`);
    }
    return out;
  };
  const layers = fields(0, pbf.length).filter(([f]) => f === 3);
  return layers.map(([, s, e]) => {
    const name = fields(s, e).find(([f]) => f === 1)!;
    return Buffer.from(pbf.subarray(name[1], name[2])).toString();
  });
}

// Shenzhen at z10 and z8, in the open South China Sea (no land), and the whole world.
const SHENZHEN_Z10 = { z: 10, x: 836, y: 446 };
const OCEAN_Z10 = { z: 10, x: 968, y: 481 }; // 160.3-160.7°E, 10.5-10.8°N: open Pacific

let dataDir: string;
let app: FastifyInstance;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'nest-maps-'));
  app = Fastify({ logger: false });
  registerMaps(app, { dataDir }, { prebuildZoom: 2 });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const tileUrl = (z: number | string, x: number | string, y: number | string) => `${BASEMAP_PREFIX}/${z}/${x}/${y}.pbf`;

describe('basemap tile route', () => {
  it('answers a land tile as gzip PBF with caching headers', async () => {
    const { z, x, y } = SHENZHEN_Z10;
    const res = await app.inject({ method: 'GET', url: tileUrl(z, x, y), headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toMatch(/^"basemap-/);
    const pbf = gunzipSync(res.rawPayload);
    expect(layerNames(pbf)).toContain('land');
    // Without gzip support the same tile comes uncompressed.
    const plain = await app.inject({ method: 'GET', url: tileUrl(z, x, y) });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(plain.rawPayload, pbf)).toBe(0);
    // Revalidation.
    const again = await app.inject({ method: 'GET', url: tileUrl(z, x, y), headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('world tile holds land, borders and graticule', async () => {
    const res = await app.inject({ method: 'GET', url: tileUrl(0, 0, 0) });
    expect(res.statusCode).toBe(200);
    expect(layerNames(res.rawPayload).sort()).toEqual(['boundary', 'graticule', 'land']);
    // Places start at zoom 3 (the largest cities and the capitals).
    const z3 = await app.inject({ method: 'GET', url: tileUrl(3, 6, 3) });
    expect(layerNames(z3.rawPayload)).toContain('place');
  });

  it('answers 204 for an empty tile', async () => {
    const { z, x, y } = OCEAN_Z10;
    const res = await app.inject({ method: 'GET', url: tileUrl(z, x, y) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['cache-control']).toMatch(/max-age/);
  });

  it('answers 404 outside the pyramid', async () => {
    for (const [z, x, y] of [[11, 0, 0], [31, 0, 0], [0, 1, 0], [0, 0, 1], [3, 8, 0], [10, 1024, 0], [10, 0, 1024]]) {
      const res = await app.inject({ method: 'GET', url: tileUrl(z!, x!, y!) });
      expect(res.statusCode, `${z}/${x}/${y}`).toBe(404);
      expect(res.json().code).toBe(40400);
    }
  });

  it('answers 400 for malformed coordinates', async () => {
    for (const url of [tileUrl('a', 0, 0), tileUrl(1, '-1', 0), tileUrl(1, 0, '1e0'), tileUrl('01', 0, 0), tileUrl(1, '0x1', 0),
      tileUrl(1, 0, '0.5'), `${BASEMAP_PREFIX}/1/0/0.png`, `${BASEMAP_PREFIX}/1/0/0`, tileUrl(1, 0, '99999')]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
    }
    expect((await app.inject({ method: 'GET', url: `${BASEMAP_PREFIX}/1/0/0/0.pbf` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: tileUrl(0, 0, 0) })).statusCode).toBe(404);
  });

  it('serves a MapLibre style with the server\'s glyphs and no remote sources', async () => {
    for (const theme of ['dark', 'light']) {
      const res = await app.inject({ method: 'GET', url: `${BASEMAP_PREFIX}/style.json?theme=${theme}` });
      expect(res.statusCode).toBe(200);
      const style = res.json();
      expect(style.version).toBe(8);
      expect(style.glyphs).toBe(GLYPHS_URL_TEMPLATE);
      expect(style.sources.basemap.tiles).toEqual([BASEMAP_TILE_TEMPLATE]);
      expect(style.sources.basemap.maxzoom).toBe(10);
      expect(style.sources.basemap.attribution).toMatch(/Natural Earth.*GeoNames/);
      expect(JSON.stringify(style)).not.toMatch(/https?:/);
      const labels = style.layers.find((l: { id: string }) => l.id === 'place-label');
      expect(labels.layout['text-font']).toEqual([GLYPH_FONTSTACK]);
    }
  });

  it('labels places in the language asked for, falling back to the other one', async () => {
    const textField = async (query: string) => {
      const res = await app.inject({ method: 'GET', url: `${BASEMAP_PREFIX}/style.json${query}` });
      return res.json().layers.find((l: { id: string }) => l.id === 'place-label').layout['text-field'];
    };
    expect(await textField('?theme=light&lang=zh')).toEqual(['coalesce', ['get', 'name_zh'], ['get', 'name_en']]);
    expect(await textField('?lang=en')).toEqual(['coalesce', ['get', 'name_en'], ['get', 'name_zh']]);
    // Chinese by default (the console's default language), also for an unknown value.
    expect(await textField('')).toEqual(['coalesce', ['get', 'name_zh'], ['get', 'name_en']]);
    expect(await textField('?lang=fr')).toEqual(['coalesce', ['get', 'name_zh'], ['get', 'name_en']]);
  });

  it('Shenzhen at zoom 10 has its places with Chinese and English names', async () => {
    const { z, x, y } = SHENZHEN_Z10;
    const res = await app.inject({ method: 'GET', url: tileUrl(z, x, y) });
    const layer = new VectorTile(new PbfReader(res.rawPayload)).layers.place!;
    const places = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties);
    expect(places).toContainEqual(expect.objectContaining({ name_en: 'Shenzhen', name_zh: '深圳', rank: 2 }));
    // Its neighbours at zoom 10 (the tile spans 113.9-114.3°E, 22.4-22.8°N, plus the label buffer).
    const names = new Set(places.map((p) => p.name_en));
    expect(names.size).toBeGreaterThan(3);
    const dongguan = await app.inject({ method: 'GET', url: tileUrl(9, 417, 222) });
    const dl = new VectorTile(new PbfReader(dongguan.rawPayload)).layers.place!;
    const dPlaces = Array.from({ length: dl.length }, (_, i) => dl.feature(i).properties);
    expect(dPlaces).toContainEqual(expect.objectContaining({ name_en: 'Dongguan', name_zh: '东莞' }));
    const hk = await app.inject({ method: 'GET', url: tileUrl(10, 836, 446) });
    const hl = new VectorTile(new PbfReader(hk.rawPayload)).layers.place!;
    expect(Array.from({ length: hl.length }, (_, i) => hl.feature(i).properties)).toContainEqual(
      expect.objectContaining({ name_en: 'Hong Kong', name_zh: '香港', rank: 1 }),
    );
  });
});

describe('basemap file', () => {
  it('is an MBTiles file with metadata, TMS rows and the prebuilt levels', async () => {
    const file = basemapFile(dataDir);
    await until(() => new MbTilesProbe(file).complete() >= 2, 'the background build of z0-z2');
    const db = new SQLite(file, { readonly: true });
    try {
      const meta = Object.fromEntries((db.prepare('SELECT name, value FROM metadata').all() as { name: string; value: string }[]).map((r) => [r.name, r.value]));
      expect(meta.format).toBe('pbf');
      expect(meta.maxzoom).toBe('10');
      expect(JSON.parse(meta.json!).vector_layers.map((l: { id: string }) => l.id)).toEqual(['land', 'boundary', 'graticule', 'place']);
      expect(meta.nest_version).toBe(BASEMAP_VERSION);
      expect(Number(meta.nest_complete_zoom)).toBeGreaterThanOrEqual(2);
      const z0 = db.prepare('SELECT tile_data FROM tiles WHERE zoom_level = 0').all() as { tile_data: Buffer }[];
      expect(z0).toHaveLength(1);
      expect(z0[0]!.tile_data[0]).toBe(0x1f); // gzip magic
      // The Shenzhen tile cut on request is stored with its TMS row.
      const { z, x, y } = SHENZHEN_Z10;
      expect(db.prepare('SELECT 1 FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?').get(z, x, MbTiles.tmsRow(z, y))).toBeTruthy();
    } finally {
      db.close();
    }
  });

  it('range and graticule helpers', () => {
    expect(isTileInRange(0, 0, 0)).toBe(true);
    expect(isTileInRange(10, 1023, 1023)).toBe(true);
    expect(isTileInRange(10, 1024, 0)).toBe(false);
    expect(isTileInRange(-1, 0, 0)).toBe(false);
    expect(isTileInRange(1.5, 0, 0)).toBe(false);
    const g = graticule();
    expect(g.features.filter((f) => f.properties?.step === 10).length).toBeGreaterThan(40);
    expect(MbTiles.tmsRow(1, 0)).toBe(1);
  });

  it('a file of another version is emptied and refilled', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nest-maps-old-'));
    try {
      const file = basemapFile(dir);
      const old = new Basemap(file);
      await old.tile(0, 0, 0);
      old.store.setMeta({ nest_version: 'old', nest_complete_zoom: '0' });
      await old.close();
      const db = new SQLite(file);
      db.prepare('UPDATE tiles SET tile_data = ? WHERE zoom_level = 0').run(Buffer.from('stale'));
      db.close();

      const again = new Basemap(file);
      try {
        expect(again.store.getMeta('nest_version')).toBe(BASEMAP_VERSION);
        expect(again.completeZoom).toBe(-1);
        expect(await again.tile(0, 0, 0, { cutMissing: false })).toBeNull();
        const world = (await again.tile(0, 0, 0))!;
        expect(layerNames(gunzipSync(world))).toContain('land');
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('cuts in a thread that ends after its idle time and starts again for a tile not stored yet', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nest-maps-idle-'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const map = new Basemap(basemapFile(dir), 60_000);
    try {
      await map.build(0);
      expect(map.completeZoom).toBe(0);
      // The build's thread stays for its idle time (the console usually asks for deeper tiles next).
      expect(map.indexed).toBe(true);
      vi.advanceTimersByTime(60_000);
      expect(map.indexed).toBe(false);
      // Two requests at once share the thread; each gets its tile.
      const [shenzhen, deeper] = await Promise.all([map.tile(4, 13, 7), map.tile(5, 26, 14)]);
      expect(layerNames(gunzipSync(shenzhen!))).toContain('land');
      expect(deeper).not.toBeNull();
      expect(map.indexed).toBe(true);
      vi.advanceTimersByTime(59_000);
      // A cut starts the idle time again.
      expect(await map.tile(6, 52, 28)).not.toBeNull();
      vi.advanceTimersByTime(59_000);
      expect(map.indexed).toBe(true);
      vi.advanceTimersByTime(1_000);
      expect(map.indexed).toBe(false);
      // A stored tile needs no index.
      expect(await map.tile(4, 13, 7)).toEqual(shenzhen);
      expect(map.indexed).toBe(false);
    } finally {
      vi.useRealTimers();
      await map.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the main thread free while the index is built and a tile is cut', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nest-maps-thread-'));
    const map = new Basemap(basemapFile(dir));
    try {
      // Timers keep firing on this thread while the cutting thread builds its index (1-2 s of CPU).
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      const data = await map.tile(3, 6, 3);
      const ticksMeanwhile = ticks;
      clearInterval(ticker);
      expect(ticksMeanwhile).toBeGreaterThanOrEqual(3);
      expect(layerNames(gunzipSync(data!))).toContain('land');
    } finally {
      await map.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a second basemap on the same file reuses the stored tiles', async () => {
    const other = new Basemap(basemapFile(dataDir));
    try {
      expect(await other.tile(0, 0, 0, { cutMissing: false })).not.toBeNull();
    } finally {
      await other.close();
    }
  });
});

class MbTilesProbe {
  constructor(private readonly file: string) {}
  complete(): number {
    const db = new SQLite(this.file, { readonly: true });
    try {
      const row = db.prepare("SELECT value FROM metadata WHERE name = 'nest_complete_zoom'").get() as { value: string } | undefined;
      return Number(row?.value ?? -1);
    } finally {
      db.close();
    }
  }
}

describe('place names', () => {
  it('takes the simplified Chinese name of a place, else its traditional one', () => {
    // GeoNames alternate names as they are for Huizhou, Macau, Shenzhen and Tsuen Wan.
    expect(chineseName('Huizhou,恵州,恵州市,惠州,惠州市')).toBe('惠州');
    expect(chineseName('Macao,澳門,澳门,Makau')).toBe('澳门');
    expect(chineseName('深圳市,深圳,Shenzhen')).toBe('深圳');
    expect(chineseName('Tsuen Wan,荃灣')).toBe('荃灣');
    expect(chineseName('Kowloon,Cửu Long')).toBeUndefined();
  });
});
