import { gzipSync } from 'node:zlib';
import { GeoJSONVT, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import type { Feature } from 'geojson';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import Database from 'better-sqlite3';
import { PNG } from 'pngjs';
import { Compression, zxyToTileId, type TileType } from 'pmtiles';

/**
 * Small offline map packages made on the spot, for tests, the e2e run and manual checks: solid-colour PNG
 * tiles, a gzip'd Mapbox Vector Tile with a polygon, a line and a named point, an MBTiles writer and a
 * PMTiles v3 writer (no npm package writes PMTiles in Node).
 */

export interface FixtureTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

/** A 256 x 256 PNG of one colour. */
export function pngTile(rgb: readonly [number, number, number]): Buffer {
  const png = new PNG({ width: 256, height: 256 });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = rgb[0];
    png.data[i + 1] = rgb[1];
    png.data[i + 2] = rgb[2];
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

const lngOf = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
const latOf = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;

/**
 * A gzip'd MVT of tile z/x/y with layers `water` (a polygon over the tile's middle), `roads` (a line across
 * it) and `places` (a point at its centre named in both languages).
 */
export function mvtTile(z: number, x: number, y: number, place = { name: 'Test town', zh: '测试镇', en: 'Test town' }): Buffer {
  const [w, e, n, s] = [lngOf(x, z), lngOf(x + 1, z), latOf(y, z), latOf(y + 1, z)];
  const at = (fx: number, fy: number): [number, number] => [w + (e - w) * fx, n + (s - n) * fy];
  const layer = (features: Feature[]) => new GeoJSONVT({ type: 'FeatureCollection', features }, { maxZoom: z, indexMaxZoom: z, extent: 4096 }).getTile(z, x, y);
  const tiles = {
    water: layer([{ type: 'Feature', properties: { kind: 'lake' }, geometry: { type: 'Polygon', coordinates: [[at(0.2, 0.2), at(0.8, 0.2), at(0.8, 0.8), at(0.2, 0.8), at(0.2, 0.2)]] } }]),
    roads: layer([{ type: 'Feature', properties: { kind: 'main' }, geometry: { type: 'LineString', coordinates: [at(0.05, 0.5), at(0.95, 0.5)] } }]),
    places: layer([
      { type: 'Feature', properties: { name: place.name, 'name:zh': place.zh, 'name:en': place.en }, geometry: { type: 'Point', coordinates: at(0.5, 0.5) } },
    ]),
  };
  const present: Record<string, GeoJSONVTTile> = Object.fromEntries(Object.entries(tiles).flatMap(([k, t]) => (t ? [[k, t]] : [])));
  return gzipSync(fromGeojsonVt(present, { version: 2, extent: 4096 }));
}

/** The vector layers of mvtTile, as TileJSON metadata declares them. */
export const MVT_VECTOR_LAYERS = [
  { id: 'water', fields: { kind: 'String' } },
  { id: 'roads', fields: { kind: 'String' } },
  { id: 'places', fields: { name: 'String', 'name:zh': 'String', 'name:en': 'String' } },
];

/** Writes an MBTiles 1.3 file: `metadata` rows as given, `tiles` in TMS rows. */
export function writeMbtiles(file: string, metadata: Readonly<Record<string, string>>, tiles: readonly FixtureTile[]): void {
  const db = new Database(file);
  try {
    db.exec(`
      CREATE TABLE metadata (name TEXT, value TEXT);
      CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
      CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
    `);
    const meta = db.prepare('INSERT INTO metadata (name, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries(metadata)) meta.run(k, v);
    const put = db.prepare('INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)');
    for (const t of tiles) put.run(t.z, t.x, 2 ** t.z - 1 - t.y, Buffer.from(t.data));
  } finally {
    db.close();
  }
}

/** Every tile of zooms min..max inside a box, as FixtureTiles made by `make`. */
export function tilesOver(box: { west: number; south: number; east: number; north: number }, minZoom: number, maxZoom: number, make: (z: number, x: number, y: number) => Uint8Array): FixtureTile[] {
  const out: FixtureTile[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const n = 2 ** z;
    const tx = (lng: number) => Math.min(n - 1, Math.max(0, Math.floor(((lng + 180) / 360) * n)));
    const ty = (lat: number) => {
      const r = (lat * Math.PI) / 180;
      return Math.min(n - 1, Math.max(0, Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)));
    };
    for (let x = tx(box.west); x <= tx(box.east); x++) for (let y = ty(box.north); y <= ty(box.south); y++) out.push({ z, x, y, data: make(z, x, y) });
  }
  return out;
}

export interface PmtilesInput {
  tileType: TileType;
  /** How the tile bytes given are compressed (they are written as they are). */
  tileCompression?: Compression;
  tiles: readonly FixtureTile[];
  metadata?: Record<string, unknown>;
  minZoom: number;
  maxZoom: number;
  bounds: { west: number; south: number; east: number; north: number };
}

function varint(out: number[], v: number): void {
  let n = v;
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

/**
 * A PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md), as small as the
 * spec allows: the 127-byte header, then an uncompressed root directory holding every tile (no leaf
 * directories, run length 1 each), the JSON metadata (uncompressed), then the tile data in tile-id order.
 * Directory entries are varints: count, tile-id deltas, run lengths, lengths, offsets (offset + 1, or 0
 * when a tile directly follows the one before).
 */
export function writePmtiles(input: PmtilesInput): Buffer {
  const tiles = input.tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), data: Buffer.from(t.data) })).sort((a, b) => a.id - b.id);
  const dir: number[] = [];
  varint(dir, tiles.length);
  let last = 0;
  for (const t of tiles) {
    varint(dir, t.id - last);
    last = t.id;
  }
  for (let i = 0; i < tiles.length; i++) varint(dir, 1);
  for (const t of tiles) varint(dir, t.data.length);
  tiles.forEach((t, i) => varint(dir, i === 0 ? 1 : 0));
  const root = Buffer.from(dir);
  const meta = Buffer.from(JSON.stringify(input.metadata ?? {}));
  const data = Buffer.concat(tiles.map((t) => t.data));

  const h = Buffer.alloc(127);
  h.write('PMTiles', 0, 'latin1');
  h.writeUInt8(3, 7);
  const u64 = (at: number, v: number) => h.writeBigUInt64LE(BigInt(v), at);
  const rootAt = 127;
  const metaAt = rootAt + root.length;
  const dataAt = metaAt + meta.length;
  u64(8, rootAt);
  u64(16, root.length);
  u64(24, metaAt);
  u64(32, meta.length);
  u64(40, dataAt);
  u64(48, 0);
  u64(56, dataAt);
  u64(64, data.length);
  u64(72, tiles.length);
  u64(80, tiles.length);
  u64(88, tiles.length);
  h.writeUInt8(1, 96);
  h.writeUInt8(Compression.None, 97);
  h.writeUInt8(input.tileCompression ?? Compression.None, 98);
  h.writeUInt8(input.tileType, 99);
  h.writeUInt8(input.minZoom, 100);
  h.writeUInt8(input.maxZoom, 101);
  const e7 = (v: number) => Math.round(v * 1e7);
  h.writeInt32LE(e7(input.bounds.west), 102);
  h.writeInt32LE(e7(input.bounds.south), 106);
  h.writeInt32LE(e7(input.bounds.east), 110);
  h.writeInt32LE(e7(input.bounds.north), 114);
  h.writeUInt8(input.minZoom, 118);
  h.writeInt32LE(e7((input.bounds.west + input.bounds.east) / 2), 119);
  h.writeInt32LE(e7((input.bounds.south + input.bounds.north) / 2), 123);
  return Buffer.concat([h, root, meta, data]);
}
