import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FLAT_TERRAIN_NOTE,
  TerrainUnavailableError,
  flatTerrain,
  tilesTerrain,
  type ElevationTile,
  type LatLng,
  type TerrainProvider,
} from '@nest/geo';
import type { Text } from '@nest/contracts';
import { PNG } from 'pngjs';
import { SAMPLE_ZOOM } from './sample.js';

/** The sample tile set that ships with the server (apps/server/terrain-sample). */
export const SAMPLE_TILES_DIR = fileURLToPath(new URL('../../terrain-sample', import.meta.url));
/** Zoom of the elevation tiles the server reads (DATA_DIR/terrain and the sample). */
export const TERRAIN_ZOOM = SAMPLE_ZOOM;
/** Largest tile zoom served (real Terrain-RGB sets go to about z15). */
export const TERRAIN_MAX_ZOOM = 15;

/** A tile coordinate: a plain decimal without sign or leading zeros. */
const COORD = /^(0|[1-9][0-9]{0,5})$/;

/** Parses z, x, y path parts strictly; null when malformed or outside the 2^z grid. */
export function parseTileCoord(z: string, x: string, y: string): { z: number; x: number; y: number } | null {
  if (!COORD.test(z) || !COORD.test(x) || !COORD.test(y)) return null;
  const zn = Number(z);
  const xn = Number(x);
  const yn = Number(y);
  if (zn > TERRAIN_MAX_ZOOM) return null;
  const n = 2 ** zn;
  if (xn >= n || yn >= n) return null;
  return { z: zn, x: xn, y: yn };
}

/** Directories searched for {z}/{x}/{y}.png, in order: DATA_DIR/terrain, then the bundled sample. */
export const terrainDirs = (dataDir: string): string[] => [path.join(dataDir, 'terrain'), SAMPLE_TILES_DIR];

/** The PNG bytes of a tile, or null when no directory holds it. */
export async function readTileFile(dirs: readonly string[], z: number, x: number, y: number): Promise<Buffer | null> {
  for (const dir of dirs) {
    try {
      return await readFile(path.join(dir, String(z), String(x), `${y}.png`));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return null;
}

/** Decodes a Terrain-RGB PNG to RGBA bytes. */
export function decodeTilePng(bytes: Buffer): ElevationTile {
  const png = PNG.sync.read(bytes);
  if (png.width !== png.height) throw new Error('elevation tile is not square');
  return { rgba: png.data };
}

/**
 * The server's terrain: Terrain-RGB tiles of zoom TERRAIN_ZOOM read from DATA_DIR/terrain (a real set
 * for the site) or the bundled sample. Decoded tiles are kept (a small LRU) across calls.
 */
export function tileTerrain(dataDir: string, opts: { zoom?: number; cacheSize?: number } = {}): TerrainProvider {
  const dirs = terrainDirs(dataDir);
  const cache = new Map<string, ElevationTile | null>();
  const max = opts.cacheSize ?? 64;
  return tilesTerrain({
    zoom: opts.zoom ?? TERRAIN_ZOOM,
    loadTile: async (z, x, y) => {
      const key = `${z}/${x}/${y}`;
      if (cache.has(key)) {
        const hit = cache.get(key)!;
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const bytes = await readTileFile(dirs, z, x, y);
      const tile = bytes ? decodeTilePng(bytes) : null;
      cache.set(key, tile);
      if (cache.size > max) cache.delete(cache.keys().next().value!);
      return tile;
    },
  });
}

/** Elevations with the flat fallback: where no tile covers the points, flatTerrain and its note. */
export interface GroundAnswer {
  provider: TerrainProvider;
  elevations: number[];
  /** Set when the flat fallback was used (no terrain data for the area). */
  note?: Text;
}

/**
 * The provider to use for these points: the tiles when every point is covered, else flatTerrain(0)
 * (whose note says there is no terrain data). Elevations are awaited here, so a caller saving heights
 * has them before it saves.
 */
export async function groundFor(tiles: TerrainProvider, points: LatLng[]): Promise<GroundAnswer> {
  try {
    return { provider: tiles, elevations: await tiles.elevations(points) };
  } catch (err) {
    if (!(err instanceof TerrainUnavailableError)) throw err;
    const flat = flatTerrain(0);
    return { provider: flat, elevations: await flat.elevations(points), note: flat.note ?? FLAT_TERRAIN_NOTE };
  }
}
