import type { Text } from '@nest/contracts';
import { toRad, type LatLng } from './coords.js';

/**
 * Terrain: where the ground is, for terrain-following heights (REFERENCE section 6). A provider answers
 * ground elevations in metres above sea level for points; `flatTerrain` stands in when there is no
 * terrain data and says so in its note. The tile math below lets the server serve a 'tiles' provider from
 * locally stored elevation PNG tiles (Web Mercator XYZ, Mapbox Terrain-RGB or Terrarium encoding) for
 * offline deployments: it decodes pixels itself and hands `tilesTerrain` a tile loader.
 */
export interface TerrainProvider {
  readonly kind: 'tiles' | 'flat';
  /** What the user should know about these elevations (e.g. that none are available). */
  readonly note?: Text;
  /** Ground elevation (m above sea level) of each point, in order. */
  elevations(points: LatLng[]): Promise<number[]>;
}

export const FLAT_TERRAIN_NOTE: Text = {
  zh: '没有可用的地形数据：高度按平坦地面计算（相对于起飞点）',
  en: 'No terrain data is available: heights are relative to a flat ground (the take-off point)',
};

/** Ground at one elevation everywhere (default 0 m): heights then do not follow any terrain. */
export function flatTerrain(elevation = 0): TerrainProvider {
  return {
    kind: 'flat',
    note: FLAT_TERRAIN_NOTE,
    elevations: (points) => Promise.resolve(points.map(() => elevation)),
  };
}

/** HeightType values: 0 relative to the take-off point, 1 altitude above sea level. */
export type HeightTypeValue = 0 | 1;

/**
 * Heights that keep `heightAboveGround` metres above the ground at every point:
 * - HeightType 0 (relative to take-off): ground(p) - ground(takeoff) + h; take-off defaults to the first
 *   point (pass the nest's position when known);
 * - HeightType 1 (altitude): ground(p) + h.
 */
export async function terrainFollowingHeights(
  points: readonly LatLng[],
  heightAboveGround: number,
  provider: TerrainProvider,
  heightType: HeightTypeValue | number,
  takeoff?: LatLng,
): Promise<number[]> {
  if (points.length === 0) return [];
  const query = takeoff ? [takeoff, ...points] : [...points];
  const ground = await provider.elevations(query);
  if (ground.length !== query.length || !ground.every(Number.isFinite))
    throw new TerrainUnavailableError('terrain provider answered no elevation for some points');
  const base = heightType === 1 ? 0 : ground[0]!;
  const own = takeoff ? ground.slice(1) : ground;
  return own.map((g) => g - base + heightAboveGround);
}

/** Elevations could not be had (tile missing, provider failure): heights are unknown, do not save. */
export class TerrainUnavailableError extends Error {
  readonly text: Text = {
    zh: '地形高程计算未完成，暂不能保存',
    en: 'Terrain elevations are not available yet: the route cannot be saved',
  };
  constructor(message: string) {
    super(message);
    this.name = 'TerrainUnavailableError';
  }
}

/* ------------------------------------------------------------------------------------------------ */
/* Elevation tiles                                                                                    */

/** Mapbox Terrain-RGB: height = -10000 + (R * 256 * 256 + G * 256 + B) * 0.1 metres. */
export const decodeTerrainRgb = (r: number, g: number, b: number): number => -10000 + (r * 65536 + g * 256 + b) * 0.1;

/** Terrarium (AWS / Mapzen terrain tiles): height = R * 256 + G + B / 256 - 32768 metres. */
export const decodeTerrarium = (r: number, g: number, b: number): number => r * 256 + g + b / 256 - 32768;

/** Inverse of decodeTerrainRgb (to 0.1 m), for tests and for writing tiles. */
export function encodeTerrainRgb(height: number): [number, number, number] {
  const v = Math.max(0, Math.min(0xffffff, Math.round((height + 10000) * 10)));
  return [(v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff];
}

/** Web Mercator latitude limit of XYZ tiles. */
export const MERCATOR_MAX_LAT = 85.05112878;
export const DEFAULT_TILE_SIZE = 256;

/**
 * Pixel position of a point in the whole-world image of zoom z (tileSize * 2^z pixels square, pixel
 * (0, 0) at the north-west corner, pixel i covering [i, i + 1)). Latitudes are clamped to the Mercator
 * limit; longitude 180 wraps to -180.
 */
export function worldPixel(lat: number, lng: number, z: number, tileSize = DEFAULT_TILE_SIZE): { x: number; y: number } {
  const size = tileSize * 2 ** z;
  const clampedLat = Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, lat));
  const wrappedLng = ((((lng + 180) % 360) + 360) % 360) - 180;
  const x = ((wrappedLng + 180) / 360) * size;
  const s = Math.sin(toRad(clampedLat));
  const y = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * size;
  return { x, y: Math.max(0, Math.min(size - 1e-9, y)) };
}

/** The XYZ tile holding a point, and the point's pixel position (fractional) inside that tile. */
export interface TilePosition {
  z: number;
  x: number;
  y: number;
  /** Pixel column / row inside the tile, 0 <= px, py < tileSize. */
  px: number;
  py: number;
}

export function tileForPoint(lat: number, lng: number, z: number, tileSize = DEFAULT_TILE_SIZE): TilePosition {
  const w = worldPixel(lat, lng, z, tileSize);
  const x = Math.floor(w.x / tileSize);
  const y = Math.floor(w.y / tileSize);
  return { z, x, y, px: w.x - x * tileSize, py: w.y - y * tileSize };
}

/** North-west corner of tile (z, x, y) in degrees (the inverse of tileForPoint at px = py = 0). */
export function tileOrigin(z: number, x: number, y: number): LatLng {
  const n = 2 ** z;
  const lng = (x / n) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / n))) * 180) / Math.PI;
  return { lat, lng };
}

/** Bilinear interpolation between four corner values, fx / fy in [0, 1] from v00 toward v10 / v01. */
export const bilinear = (v00: number, v10: number, v01: number, v11: number, fx: number, fy: number): number =>
  v00 * (1 - fx) * (1 - fy) + v10 * fx * (1 - fy) + v01 * (1 - fx) * fy + v11 * fx * fy;

/**
 * Bilinear sample at pixel position (x, y) of a grid whose pixel (i, j) holds the value at its centre
 * (i + 0.5, j + 0.5). `valueAt` is asked for the four neighbouring pixels, indices clamped to
 * [0, width - 1] x [0, height - 1] (so edges hold their value).
 */
export function sampleBilinear(x: number, y: number, width: number, height: number, valueAt: (i: number, j: number) => number): number {
  const gx = x - 0.5;
  const gy = y - 0.5;
  const i0 = Math.floor(gx);
  const j0 = Math.floor(gy);
  const fx = gx - i0;
  const fy = gy - j0;
  const ci = (i: number) => Math.max(0, Math.min(width - 1, i));
  const cj = (j: number) => Math.max(0, Math.min(height - 1, j));
  return bilinear(
    valueAt(ci(i0), cj(j0)),
    valueAt(ci(i0 + 1), cj(j0)),
    valueAt(ci(i0), cj(j0 + 1)),
    valueAt(ci(i0 + 1), cj(j0 + 1)),
    fx,
    fy,
  );
}

/** Decoded elevation of pixel (i, j) of an RGBA tile (e.g. a decoded PNG's data, 4 bytes a pixel). */
export function rgbaElevation(
  rgba: ArrayLike<number>,
  tileSize: number,
  i: number,
  j: number,
  decode: (r: number, g: number, b: number) => number = decodeTerrainRgb,
): number {
  const k = (j * tileSize + i) * 4;
  return decode(rgba[k]!, rgba[k + 1]!, rgba[k + 2]!);
}

/** A decoded elevation tile: RGBA bytes, tileSize x tileSize pixels. */
export interface ElevationTile {
  rgba: ArrayLike<number>;
}

export interface TilesTerrainOptions {
  /** Zoom of the stored tiles (e.g. 12: about 38 m a pixel at the equator for 256 px tiles). */
  zoom: number;
  tileSize?: number;
  encoding?: 'terrain-rgb' | 'terrarium';
  /** Loads tile (z, x, y); null when it is not stored. The provider caches tiles during one call. */
  loadTile(z: number, x: number, y: number): Promise<ElevationTile | null>;
  note?: Text;
}

/**
 * A 'tiles' provider over any tile store: bilinear sampling in the whole-world pixel grid, so points near
 * a tile edge read the neighbouring tile. A missing tile rejects with TerrainUnavailableError (heights
 * must not be guessed).
 */
export function tilesTerrain(opts: TilesTerrainOptions): TerrainProvider {
  const size = opts.tileSize ?? DEFAULT_TILE_SIZE;
  const decode = opts.encoding === 'terrarium' ? decodeTerrarium : decodeTerrainRgb;
  const z = opts.zoom;
  const worldSize = size * 2 ** z;
  return {
    kind: 'tiles',
    ...(opts.note ? { note: opts.note } : {}),
    async elevations(points) {
      const cache = new Map<string, Promise<ElevationTile | null>>();
      const tile = (x: number, y: number) => {
        const key = `${x}/${y}`;
        let t = cache.get(key);
        if (!t) cache.set(key, (t = opts.loadTile(z, x, y)));
        return t;
      };
      const wanted = points.map((p) => worldPixel(p.lat, p.lng, z, size));
      // Load every tile the samples touch first, then sample synchronously.
      const needed = new Set<string>();
      for (const w of wanted) {
        for (const dx of [-0.5, 0.5])
          for (const dy of [-0.5, 0.5]) {
            const gx = Math.max(0, Math.min(worldSize - 1, Math.floor(w.x + dx)));
            const gy = Math.max(0, Math.min(worldSize - 1, Math.floor(w.y + dy)));
            needed.add(`${Math.floor(gx / size)}/${Math.floor(gy / size)}`);
          }
      }
      const loaded = new Map<string, ElevationTile>();
      await Promise.all(
        [...needed].map(async (key) => {
          const [x, y] = key.split('/').map(Number) as [number, number];
          const t = await tile(x, y);
          if (!t) throw new TerrainUnavailableError(`elevation tile ${z}/${x}/${y} is not available`);
          loaded.set(key, t);
        }),
      );
      const valueAt = (gi: number, gj: number): number => {
        const tx = Math.floor(gi / size);
        const ty = Math.floor(gj / size);
        const t = loaded.get(`${tx}/${ty}`)!;
        return rgbaElevation(t.rgba, size, gi - tx * size, gj - ty * size, decode);
      };
      return wanted.map((w) => sampleBilinear(w.x, w.y, worldSize, worldSize, valueAt));
    },
  };
}
