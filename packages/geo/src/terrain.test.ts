import { describe, expect, it } from 'vitest';
import { haversineDistance } from './coords.js';
import {
  DEFAULT_TILE_SIZE,
  FLAT_TERRAIN_NOTE,
  TerrainUnavailableError,
  bilinear,
  decodeTerrainRgb,
  decodeTerrarium,
  encodeTerrainRgb,
  flatTerrain,
  rgbaElevation,
  sampleBilinear,
  terrainFollowingHeights,
  tileForPoint,
  tileOrigin,
  tilesTerrain,
  worldPixel,
  type TerrainProvider,
} from './terrain.js';
import { metres, toMetres } from './test-fixtures.js';

describe('elevation decoding', () => {
  it('decodes Mapbox Terrain-RGB', () => {
    expect(decodeTerrainRgb(0, 0, 0)).toBe(-10000);
    expect(decodeTerrainRgb(1, 134, 160)).toBeCloseTo(0, 9); // 100000 * 0.1 - 10000
    expect(decodeTerrainRgb(1, 146, 204)).toBeCloseTo(311.6, 6); // (65536 + 37376 + 204) * 0.1 - 10000
    for (const h of [-432.1, 0, 44.5, 8848.8]) expect(decodeTerrainRgb(...encodeTerrainRgb(h))).toBeCloseTo(h, 6);
  });

  it('decodes Terrarium', () => {
    expect(decodeTerrarium(128, 0, 0)).toBe(0);
    expect(decodeTerrarium(128, 100, 128)).toBeCloseTo(100.5, 9);
    expect(decodeTerrarium(127, 255, 0)).toBe(-1);
  });
});

describe('tile math', () => {
  it('places points in XYZ tiles', () => {
    expect(tileForPoint(0, 0, 0)).toEqual({ z: 0, x: 0, y: 0, px: 128, py: 128 });
    expect(tileForPoint(0, 0, 1)).toEqual({ z: 1, x: 1, y: 1, px: 0, py: 0 });
    const nw = tileForPoint(85, -179.9, 3);
    expect([nw.x, nw.y]).toEqual([0, 0]);
    // Beijing at zoom 10: tile 843/388 (the usual OSM numbering).
    const bj = tileForPoint(39.9087, 116.3975, 10);
    expect([bj.x, bj.y]).toEqual([843, 388]);
    expect(bj.px).toBeGreaterThanOrEqual(0);
    expect(bj.px).toBeLessThan(DEFAULT_TILE_SIZE);
  });

  it('tileOrigin is the inverse at the north-west corner', () => {
    for (const [z, x, y] of [
      [10, 843, 388],
      [14, 13489, 6208],
      [3, 0, 7],
    ] as const) {
      const o = tileOrigin(z, x, y);
      const t = tileForPoint(o.lat - 1e-9, o.lng + 1e-9, z);
      expect([t.x, t.y]).toEqual([x, y]);
      expect(t.px).toBeLessThan(1e-3);
      expect(t.py).toBeLessThan(1e-3);
    }
  });

  it('wraps longitude and clamps latitude', () => {
    expect(worldPixel(0, 180, 0).x).toBeCloseTo(0, 9);
    expect(worldPixel(89.9, 0, 0).y).toBeCloseTo(0, 3);
    expect(worldPixel(-89.9, 0, 0).y).toBeCloseTo(256, 3);
  });

  it('interpolates bilinearly', () => {
    expect(bilinear(0, 10, 20, 30, 0, 0)).toBe(0);
    expect(bilinear(0, 10, 20, 30, 1, 1)).toBe(30);
    expect(bilinear(0, 10, 20, 30, 0.5, 0.5)).toBe(15);
    // Pixel centres at i + 0.5: a linear field is reproduced exactly inside, held at the edges.
    const field = (i: number, j: number) => 3 * i + 7 * j;
    expect(sampleBilinear(10.5, 20.5, 256, 256, field)).toBeCloseTo(3 * 10 + 7 * 20, 9);
    expect(sampleBilinear(10.75, 20.25, 256, 256, field)).toBeCloseTo(3 * 10.25 + 7 * 19.75, 9);
    expect(sampleBilinear(0.1, 0.1, 256, 256, field)).toBeCloseTo(0, 9);
    expect(sampleBilinear(255.9, 0.5, 256, 256, field)).toBeCloseTo(3 * 255, 9);
  });

  it('reads RGBA pixels', () => {
    const rgba = new Uint8Array(2 * 2 * 4);
    rgba.set([...encodeTerrainRgb(123.4), 255], (1 * 2 + 1) * 4);
    expect(rgbaElevation(rgba, 2, 1, 1)).toBeCloseTo(123.4, 6);
    expect(rgbaElevation(rgba, 2, 0, 0)).toBe(-10000);
  });
});

describe('tiles provider', () => {
  // Synthetic tiles at zoom 14 holding a plane: elevation = 100 + 0.5 * global pixel x - 0.25 * global pixel y.
  const z = 14;
  const size = 256;
  const plane = (gx: number, gy: number) => 100 + 0.5 * gx - 0.25 * gy - (0.5 * 13489 * 256 - 0.25 * 6208 * 256);
  const loads: string[] = [];
  const provider = tilesTerrain({
    zoom: z,
    loadTile: (tz, x, y) => {
      loads.push(`${tz}/${x}/${y}`);
      if (Math.abs(x - 13489) > 2 || Math.abs(y - 6208) > 2) return Promise.resolve(null);
      const rgba = new Uint8Array(size * size * 4);
      for (let j = 0; j < size; j++)
        for (let i = 0; i < size; i++) rgba.set([...encodeTerrainRgb(plane(x * size + i + 0.5, y * size + j + 0.5)), 255], (j * size + i) * 4);
      return Promise.resolve({ rgba });
    },
  });

  it('samples across tile edges and caches tiles within a call', async () => {
    const o = tileOrigin(z, 13490, 6209); // a corner shared by four tiles
    const pts = [o, { lat: o.lat + 0.001, lng: o.lng - 0.001 }, { lat: o.lat - 0.002, lng: o.lng + 0.003 }];
    loads.length = 0;
    const got = await provider.elevations(pts);
    pts.forEach((p, i) => {
      const w = worldPixel(p.lat, p.lng, z);
      expect(got[i]!).toBeCloseTo(plane(w.x, w.y), 0);
      expect(Math.abs(got[i]! - plane(w.x, w.y))).toBeLessThan(0.06);
    });
    expect(new Set(loads).size).toBe(loads.length);
    expect(provider.kind).toBe('tiles');
  });

  it('refuses to guess where a tile is missing', async () => {
    await expect(provider.elevations([{ lat: 0, lng: 0 }])).rejects.toBeInstanceOf(TerrainUnavailableError);
  });
});

describe('terrain-following heights', () => {
  const ramp: TerrainProvider = { kind: 'tiles', elevations: (pts) => Promise.resolve(pts.map((p) => 200 + toMetres(p).x / 10)) };
  const pts = [metres(0, 0), metres(500, 0), metres(1000, 0)];

  it('keeps the height above ground relative to the take-off point (HeightType 0)', async () => {
    const own = await terrainFollowingHeights(pts, 60, ramp, 0);
    [60, 110, 160].forEach((v, i) => expect(own[i]).toBeCloseTo(v, 6));
    const h = await terrainFollowingHeights(pts, 60, ramp, 0, metres(-200, 0));
    [80, 130, 180].forEach((v, i) => expect(h[i]).toBeCloseTo(v, 9));
  });

  it('adds the ground elevation for altitudes (HeightType 1)', async () => {
    const h = await terrainFollowingHeights(pts, 60, ramp, 1);
    [260, 310, 360].forEach((v, i) => expect(h[i]).toBeCloseTo(v, 6));
  });

  it('flat terrain keeps the height and says there is no terrain data', async () => {
    const flat = flatTerrain();
    expect(flat.kind).toBe('flat');
    expect(flat.note).toEqual(FLAT_TERRAIN_NOTE);
    expect(flat.note!.zh).toContain('没有可用的地形数据');
    expect(await terrainFollowingHeights(pts, 60, flat, 0)).toEqual([60, 60, 60]);
    expect(await terrainFollowingHeights(pts, 60, flatTerrain(35), 1)).toEqual([95, 95, 95]);
    expect(await terrainFollowingHeights([], 60, flat, 0)).toEqual([]);
  });

  it('rejects when the provider answers no number', async () => {
    const broken: TerrainProvider = { kind: 'tiles', elevations: (p) => Promise.resolve(p.map(() => NaN)) };
    await expect(terrainFollowingHeights(pts, 60, broken, 0)).rejects.toBeInstanceOf(TerrainUnavailableError);
    expect(haversineDistance(pts[0]!, pts[2]!)).toBeCloseTo(1000, 0);
  });
});
