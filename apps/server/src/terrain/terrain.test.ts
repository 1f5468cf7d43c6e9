import { FLAT_TERRAIN_NOTE, decodeTerrainRgb, tileForPoint } from '@nest/geo';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../../test/helpers.js';
import { sampleTiles } from './make-sample.js';
import { SAMPLE_HILLS, SAMPLE_ZOOM, sampleHeight } from './sample.js';
import { TERRAIN_PREFIX } from './routes.js';
import { groundFor, parseTileCoord, tileTerrain } from './tiles.js';

describe('terrain provider over the bundled sample', () => {
  it('covers every hill of the generator', () => {
    const tiles = new Set(sampleTiles().map((t) => `${t.x}/${t.y}`));
    for (const h of SAMPLE_HILLS) {
      const t = tileForPoint(h.lat, h.lng, SAMPLE_ZOOM);
      expect(tiles.has(`${t.x}/${t.y}`)).toBe(true);
    }
  });

  it('answers the generator height at each hill top within 1 m', async () => {
    const provider = tileTerrain(await tempDir());
    const tops = SAMPLE_HILLS.map((h) => ({ lat: h.lat, lng: h.lng }));
    const got = await provider.elevations(tops);
    tops.forEach((p, i) => expect(Math.abs(got[i]! - sampleHeight(p.lat, p.lng))).toBeLessThan(1));
    expect(Math.max(...got)).toBeGreaterThan(350);
  });

  it('falls back to flat ground, with the note, outside the sample', async () => {
    const provider = tileTerrain(await tempDir());
    const inside = await groundFor(provider, [{ lat: 22.56, lng: 114.09 }]);
    expect(inside.note).toBeUndefined();
    expect(inside.provider.kind).toBe('tiles');
    const outside = await groundFor(provider, [{ lat: 22.56, lng: 114.09 }, { lat: 30, lng: 104 }]);
    expect(outside.provider.kind).toBe('flat');
    expect(outside.note).toEqual(FLAT_TERRAIN_NOTE);
    expect(outside.elevations).toEqual([0, 0]);
  });

  it('parses tile coordinates strictly', () => {
    expect(parseTileCoord('12', '3345', '1784')).toEqual({ z: 12, x: 3345, y: 1784 });
    for (const [z, x, y] of [
      ['012', '1', '1'],
      ['12', '-1', '1'],
      ['12', '4096', '1'],
      ['16', '1', '1'],
      ['1', '1.0', '1'],
      ['1', '1', ' 1'],
    ] as const)
      expect(parseTileCoord(z, x, y)).toBeNull();
  });
});

describe('GET /api/zone/terrain/{z}/{x}/{y}.png and /api/static/zones.json', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { simulator: false } });
  });
  afterAll(async () => server?.close());

  it('serves a sample tile as a Terrain-RGB PNG', async () => {
    const t = sampleTiles()[0]!;
    const res = await server.app.inject({ method: 'GET', url: `${TERRAIN_PREFIX}/${t.z}/${t.x}/${t.y}.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const png = PNG.sync.read(res.rawPayload);
    expect(png.width).toBe(256);
    const h = decodeTerrainRgb(png.data[0]!, png.data[1]!, png.data[2]!);
    expect(h).toBeGreaterThan(0);
    expect(h).toBeLessThan(400);
  });

  it('answers 400 for a malformed coordinate and 404 for a missing tile', async () => {
    for (const url of ['12/3345/01784.png', '12/3345/1784.jpg', '12/-1/1784.png', '99/1/1.png', '12/3345/..%2F1784.png']) {
      const res = await server.app.inject({ method: 'GET', url: `${TERRAIN_PREFIX}/${url}` });
      expect(res.statusCode, url).toBe(400);
    }
    const missing = await server.app.inject({ method: 'GET', url: `${TERRAIN_PREFIX}/12/1/1.png` });
    expect(missing.statusCode).toBe(404);
  });

  it('serves the public demo zones', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/static/zones.json' });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ types: { value: number }[]; list: { type: number; paths: unknown[] }[] }>();
    expect(body.types.map((t) => t.value)).toEqual([1, 2, 3]);
    expect(body.list.some((z) => z.type === 1)).toBe(true);
    for (const z of body.list) expect(z.paths.length).toBeGreaterThanOrEqual(3);
  });
});
