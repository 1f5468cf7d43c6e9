import { open } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { Compression, TileType, bytesToHeader, type Header } from 'pmtiles';
import {
  MAP_PACKAGE_FORMATS,
  MAP_PACKAGE_MAX_ZOOM,
  MERCATOR_MAX_LAT,
  kindOfFormat,
  vectorLayerSchema,
  type MapPackageContainer,
  type MapPackageFormat,
  type MapPackageKind,
  type MapPackageProblem,
  type VectorLayer,
} from '@nest/contracts';
import { openPmtiles } from './files.js';

/** What the upload check read from a package file; stored in its row. */
export interface PackageInfo {
  kind: MapPackageKind;
  format: MapPackageFormat;
  min_lat: number;
  min_lng: number;
  max_lat: number;
  max_lng: number;
  min_zoom: number;
  max_zoom: number;
  size: number;
  vector_layers: VectorLayer[];
  attribution: string;
}

export type Inspection = { ok: true; info: PackageInfo } | { ok: false; problem: MapPackageProblem };

const refuse = (problem: MapPackageProblem): Inspection => ({ ok: false, problem });

/** Longest attribution kept (it is drawn in the map's corner). */
const ATTRIBUTION_MAX = 300;
/** Vector layers kept for the generated style (a style with thousands of layers would stall the map). */
const VECTOR_LAYERS_MAX = 200;

/**
 * Attribution as plain text: MapLibre draws a source's attribution as HTML, and a package's metadata is the
 * uploader's text, so tags and angle brackets are removed (links become their text).
 */
export function plainAttribution(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/[<>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, ATTRIBUTION_MAX);
}

type Geometry = NonNullable<VectorLayer['geometry']>;
const GEOMETRIES: Readonly<Record<string, Geometry>> = { polygon: 'polygon', linestring: 'line', line: 'line', point: 'point' };

/**
 * `vector_layers` of TileJSON metadata, with each layer's geometry when tippecanoe's `tilestats` says it;
 * malformed entries are skipped, ids kept to what a style layer id may hold.
 */
export function vectorLayersOf(meta: unknown): VectorLayer[] {
  if (!meta || typeof meta !== 'object') return [];
  const m = meta as { vector_layers?: unknown; tilestats?: { layers?: unknown } };
  const geometry = new Map<string, Geometry>();
  if (Array.isArray(m.tilestats?.layers)) {
    for (const l of m.tilestats.layers as { layer?: unknown; geometry?: unknown }[]) {
      const g = typeof l?.geometry === 'string' ? GEOMETRIES[l.geometry.toLowerCase()] : undefined;
      if (typeof l?.layer === 'string' && g) geometry.set(l.layer, g);
    }
  }
  if (!Array.isArray(m.vector_layers)) return [];
  const out: VectorLayer[] = [];
  for (const raw of m.vector_layers as unknown[]) {
    const parsed = vectorLayerSchema.omit({ geometry: true }).safeParse(raw);
    if (!parsed.success || !parsed.data.id || parsed.data.id.length > 100) continue;
    const { id, minzoom, maxzoom } = parsed.data;
    const g = geometry.get(id);
    out.push({ id, ...(minzoom !== undefined ? { minzoom } : {}), ...(maxzoom !== undefined ? { maxzoom } : {}), ...(g ? { geometry: g } : {}) });
    if (out.length >= VECTOR_LAYERS_MAX) break;
  }
  return out;
}

/** The format a tile's first bytes show (for MBTiles without a `format`). */
export function sniffFormat(data: Uint8Array): MapPackageFormat | null {
  const b = data;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b.length >= 12 && Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP') return 'webp';
  // gzip'd (as MBTiles keep vector tiles) or a plain protobuf message starting with a layer (field 3).
  if (b.length >= 2 && ((b[0] === 0x1f && b[1] === 0x8b) || b[0] === 0x1a)) return 'pbf';
  return null;
}

const formatOf = (value: string): MapPackageFormat | null => {
  const v = value.trim().toLowerCase();
  const f = v === 'jpeg' ? 'jpg' : v === 'mvt' ? 'pbf' : v;
  return (MAP_PACKAGE_FORMATS as readonly string[]).includes(f) ? (f as MapPackageFormat) : null;
};

const validZooms = (min: number, max: number) =>
  Number.isInteger(min) && Number.isInteger(max) && min >= 0 && max <= MAP_PACKAGE_MAX_ZOOM && min <= max;

interface Bounds {
  min_lat: number;
  min_lng: number;
  max_lat: number;
  max_lng: number;
}

/** WGS84 bounds with latitudes clamped to Web Mercator's; null when not a box on the globe. */
function boundsOf(west: number, south: number, east: number, north: number): Bounds | null {
  if (![west, south, east, north].every(Number.isFinite)) return null;
  if (west < -180 || east > 180 || south < -90 || north > 90 || west >= east || south >= north) return null;
  const clampLat = (v: number) => Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, v));
  return { min_lng: west, min_lat: clampLat(south), max_lng: east, max_lat: clampLat(north) };
}

const tileLng = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
const tileLat = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const TILES_COLUMNS = ['zoom_level', 'tile_column', 'tile_row', 'tile_data'];
const METADATA_COLUMNS = ['name', 'value'];

async function readHead(file: string, length: number): Promise<{ head: Buffer; size: number }> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const head = Buffer.alloc(Math.min(size, length));
    await fh.read(head, 0, head.length, 0);
    return { head, size };
  } finally {
    await fh.close();
  }
}

/**
 * An MBTiles file (1.3): an SQLite database, opened read-only, with `metadata` (name, value) and `tiles`
 * (zoom_level, tile_column, tile_row, tile_data) as tables or plain views, at least one tile, and a tile
 * format the console draws. Bounds, zooms, vector layers and attribution come from the metadata, else from
 * the tiles themselves.
 */
export async function inspectMbtiles(file: string): Promise<Inspection> {
  const { head, size } = await readHead(file, 100);
  if (head.length < 100 || head.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) return refuse('notSqlite');
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return refuse('notSqlite');
  }
  try {
    // The schema is the uploader's: nothing in it (views, triggers) is trusted to call functions.
    db.pragma('trusted_schema = OFF');
    const objects = db.prepare<[], { name: string; type: string; sql: string | null }>("SELECT name, type, sql FROM sqlite_master WHERE name IN ('metadata', 'tiles')").all();
    for (const name of ['metadata', 'tiles']) {
      const o = objects.find((x) => x.name === name);
      // A recursive view could run for ever on the server's one thread: plain tables and views only.
      if (!o || (o.type !== 'table' && o.type !== 'view') || /\brecursive\b/i.test(o.sql ?? '')) return refuse('notMbtiles');
      const columns = db.prepare<[], { name: string }>(`PRAGMA table_info(${name})`).all().map((c) => c.name.toLowerCase());
      if (!(name === 'tiles' ? TILES_COLUMNS : METADATA_COLUMNS).every((c) => columns.includes(c))) return refuse('notMbtiles');
    }
    const meta = new Map<string, string>();
    for (const row of db.prepare<[], { name: unknown; value: unknown }>('SELECT name, value FROM metadata LIMIT 1000').all()) {
      if (typeof row.name === 'string' && (typeof row.value === 'string' || typeof row.value === 'number')) meta.set(row.name.toLowerCase(), String(row.value));
    }
    const first = db.prepare<[], { tile_data: unknown }>('SELECT tile_data FROM tiles LIMIT 1').get();
    if (!first) return refuse('noTiles');
    const declared = meta.get('format');
    const format = declared !== undefined ? formatOf(declared) : Buffer.isBuffer(first.tile_data) ? sniffFormat(first.tile_data) : null;
    if (!format) return refuse('format');

    let minZoom = Number(meta.get('minzoom'));
    let maxZoom = Number(meta.get('maxzoom'));
    if (!meta.has('minzoom') || !meta.has('maxzoom') || !validZooms(minZoom, maxZoom)) {
      const z = db.prepare<[], { lo: number | null; hi: number | null }>('SELECT min(zoom_level) AS lo, max(zoom_level) AS hi FROM tiles').get();
      minZoom = Number(z?.lo);
      maxZoom = Number(z?.hi);
    }
    if (!validZooms(minZoom, maxZoom)) return refuse('zooms');

    let bounds: Bounds | null = null;
    const declaredBounds = meta.get('bounds');
    if (declaredBounds !== undefined) {
      const parts = declaredBounds.split(',').map((v) => Number(v.trim()));
      if (parts.length !== 4) return refuse('bounds');
      bounds = boundsOf(parts[0]!, parts[1]!, parts[2]!, parts[3]!);
      if (!bounds) return refuse('bounds');
    } else {
      // The tiles' extent at the highest zoom (TMS rows: row 0 at the south).
      const r = db
        .prepare<[number], { x0: number; x1: number; y0: number; y1: number }>(
          'SELECT min(tile_column) AS x0, max(tile_column) AS x1, min(tile_row) AS y0, max(tile_row) AS y1 FROM tiles WHERE zoom_level = ?',
        )
        .get(maxZoom);
      const n = 2 ** maxZoom;
      if (r && [r.x0, r.x1, r.y0, r.y1].every((v) => Number.isInteger(v) && v >= 0 && v < n)) {
        bounds = boundsOf(tileLng(r.x0, maxZoom), tileLat(n - r.y0, maxZoom), tileLng(r.x1 + 1, maxZoom), tileLat(n - 1 - r.y1, maxZoom));
      }
      if (!bounds) return refuse('bounds');
    }

    let layers: VectorLayer[] = [];
    const json = meta.get('json');
    if (format === 'pbf' && json) {
      try {
        layers = vectorLayersOf(JSON.parse(json));
      } catch {
        layers = [];
      }
    }
    return {
      ok: true,
      info: { kind: kindOfFormat(format), format, ...bounds, min_zoom: minZoom, max_zoom: maxZoom, size, vector_layers: layers, attribution: plainAttribution(meta.get('attribution')) },
    };
  } catch {
    // SQLite refused to read it: a damaged database or not one at all.
    return refuse('notSqlite');
  } finally {
    db.close();
  }
}

const PMTILES_MAGIC = 'PMTiles';
const PMTILES_HEADER_BYTES = 127;
const PMTILES_FORMATS: Partial<Record<TileType, MapPackageFormat>> = {
  [TileType.Mvt]: 'pbf',
  [TileType.Png]: 'png',
  [TileType.Jpeg]: 'jpg',
  [TileType.Webp]: 'webp',
};
const READABLE_COMPRESSION: readonly Compression[] = [Compression.Unknown, Compression.None, Compression.Gzip];

/** Every section the header names lies inside the file. */
function sectionsInside(h: Header, size: number): boolean {
  const within = (offset: number, length: number | undefined) => Number.isSafeInteger(offset) && Number.isSafeInteger(length ?? 0) && offset + (length ?? 0) <= size;
  return (
    h.rootDirectoryOffset >= PMTILES_HEADER_BYTES &&
    within(h.rootDirectoryOffset, h.rootDirectoryLength) &&
    within(h.jsonMetadataOffset, h.jsonMetadataLength) &&
    within(h.leafDirectoryOffset, h.leafDirectoryLength) &&
    within(h.tileDataOffset, h.tileDataLength)
  );
}

/**
 * A PMTiles v3 archive, read with the `pmtiles` package through a file-backed Source: magic and version,
 * every section inside the file (a cut-off archive is refused), directories and tiles uncompressed or gzip,
 * a tile type the console draws, a root directory with at least one tile, and zooms and bounds from the
 * header; vector layers and attribution from the JSON metadata.
 */
export async function inspectPmtiles(file: string): Promise<Inspection> {
  const { head, size } = await readHead(file, PMTILES_HEADER_BYTES);
  if (head.length < 8 || head.subarray(0, 7).toString('latin1') !== PMTILES_MAGIC) return refuse('notPmtiles');
  if (head[7] !== 3) return refuse('pmtilesVersion');
  if (head.length < PMTILES_HEADER_BYTES) return refuse('truncated');
  const header = bytesToHeader(head.buffer.slice(head.byteOffset, head.byteOffset + PMTILES_HEADER_BYTES) as ArrayBuffer);
  if (!sectionsInside(header, size)) return refuse('truncated');
  if (!READABLE_COMPRESSION.includes(header.internalCompression) || !READABLE_COMPRESSION.includes(header.tileCompression)) return refuse('compression');
  const format = PMTILES_FORMATS[header.tileType];
  if (!format) return refuse('format');
  if (!validZooms(header.minZoom, header.maxZoom)) return refuse('zooms');
  const bounds = boundsOf(header.minLon, header.minLat, header.maxLon, header.maxLat);
  if (!bounds) return refuse('bounds');

  const { pm, source } = openPmtiles(file);
  try {
    let root;
    try {
      const h = await pm.getHeader();
      root = await pm.cache.getDirectory(source, h.rootDirectoryOffset, h.rootDirectoryLength, h);
    } catch {
      return refuse('notPmtiles');
    }
    if (root.length === 0 || !root.some((e) => e.length > 0)) return refuse('noTiles');
    let meta: unknown = {};
    if (header.jsonMetadataLength > 0) {
      try {
        meta = await pm.getMetadata();
      } catch {
        return refuse('notPmtiles');
      }
    }
    const m = (meta && typeof meta === 'object' ? meta : {}) as { attribution?: unknown };
    return {
      ok: true,
      info: {
        kind: kindOfFormat(format),
        format,
        ...bounds,
        min_zoom: header.minZoom,
        max_zoom: header.maxZoom,
        size,
        vector_layers: format === 'pbf' ? vectorLayersOf(meta) : [],
        attribution: plainAttribution(m.attribution),
      },
    };
  } finally {
    await source.close();
  }
}

export const inspectPackage = (file: string, container: MapPackageContainer): Promise<Inspection> =>
  container === 'mbtiles' ? inspectMbtiles(file) : inspectPmtiles(file);
