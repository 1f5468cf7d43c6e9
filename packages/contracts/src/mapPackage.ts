import { z } from 'zod';
import type { Text } from './i18n.js';

/**
 * Offline map packages (menu outLineMap, /map/packageAdd, /map/packageList, /map/packageDelete,
 * /map/packageStyle): an operator uploads an MBTiles or PMTiles file (raster or vector tiles, as map vendors
 * and field teams hand them out); the server checks it, keeps it for the operator's company and serves it as
 * a basemap every console map can choose. Coordinates are taken as WGS84 (Web Mercator tiles).
 */

/** The multipart part holding the file of /map/packageAdd. */
export const MAP_PACKAGE_FILE_FIELD = 'file';
/** Accepted file extensions, by kind of container. */
export const MAP_PACKAGE_EXTS = ['.mbtiles', '.pmtiles'] as const;
export type MapPackageContainer = 'mbtiles' | 'pmtiles';
/** Largest package /map/packageAdd accepts by default (the server's MAP_PACKAGE_MAX_MB moves it). */
export const MAP_PACKAGE_MAX_BYTES = 1024 * 1024 * 1024;
/** Longest package name; names are shown only, never used as file names. */
export const MAP_PACKAGE_NAME_MAX = 64;
/** Characters a package name may not hold: path separators and what file systems refuse, and control characters. */
// eslint-disable-next-line no-control-regex
export const MAP_PACKAGE_NAME_FORBIDDEN = /[/\\:*?"<>|\u0000-\u001f\u007f]|\.\./;

/** The container a file name says, or null for any other name. */
export function mapPackageContainer(fileName: string): MapPackageContainer | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.mbtiles')) return 'mbtiles';
  if (lower.endsWith('.pmtiles')) return 'pmtiles';
  return null;
}

/** raster: images drawn as they are; vector: Mapbox Vector Tiles styled by the server's generic style. */
export const MAP_PACKAGE_KINDS = ['raster', 'vector'] as const;
export type MapPackageKind = (typeof MAP_PACKAGE_KINDS)[number];
/** Tile formats a package may hold (MBTiles `format` metadata; PMTiles tile type). */
export const MAP_PACKAGE_FORMATS = ['pbf', 'png', 'jpg', 'webp'] as const;
export type MapPackageFormat = (typeof MAP_PACKAGE_FORMATS)[number];
export const kindOfFormat = (format: MapPackageFormat): MapPackageKind => (format === 'pbf' ? 'vector' : 'raster');

/** A vector layer as the package's metadata declares it (TileJSON `vector_layers`). */
export const vectorLayerSchema = z.object({
  id: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  minzoom: z.number().optional(),
  maxzoom: z.number().optional(),
  /** Geometry kind when the metadata says it (tippecanoe `tilestats`): drives the generated style. */
  geometry: z.enum(['polygon', 'line', 'point']).optional(),
});
export type VectorLayer = z.infer<typeof vectorLayerSchema>;

/** A package as /map/packageList answers it. Times in seconds, size in bytes, bounds WGS84. */
export const mapPackageSchema = z.object({
  id: z.string(),
  company_id: z.string(),
  name: z.string(),
  container: z.enum(['mbtiles', 'pmtiles']),
  kind: z.enum(MAP_PACKAGE_KINDS),
  format: z.enum(MAP_PACKAGE_FORMATS),
  min_lat: z.number(),
  min_lng: z.number(),
  max_lat: z.number(),
  max_lng: z.number(),
  min_zoom: z.number().int(),
  max_zoom: z.number().int(),
  size: z.number(),
  attribution: z.string(),
  u_id: z.string(),
  /** The uploader's name, for the list (empty once the user is gone). */
  u_name: z.string(),
  create_time: z.number().int(),
});
export type MapPackage = z.infer<typeof mapPackageSchema>;

/** Why a package file is refused; each has its text below (the server's refusal, the browser's own checks). */
export const MAP_PACKAGE_PROBLEMS = [
  'noFile',
  'extension',
  'name',
  'tooLarge',
  'notSqlite',
  'notMbtiles',
  'format',
  'noTiles',
  'notPmtiles',
  'pmtilesVersion',
  'truncated',
  'compression',
  'bounds',
  'zooms',
] as const;
export type MapPackageProblem = (typeof MAP_PACKAGE_PROBLEMS)[number];

export const MAP_PACKAGE_TEXTS: Readonly<Record<MapPackageProblem, Text>> = {
  noFile: { zh: '请选择一个离线地图包（.mbtiles 或 .pmtiles）', en: 'Choose one offline map package (.mbtiles or .pmtiles)' },
  extension: { zh: '离线地图包必须是 .mbtiles 或 .pmtiles 文件', en: 'The offline map package must be a .mbtiles or .pmtiles file' },
  name: {
    zh: '名称不能包含 / \\ : * ? " < > | 、".." 或控制字符',
    en: 'The name may not contain / \\ : * ? " < > |, ".." or control characters',
  },
  tooLarge: { zh: '离线地图包超过大小上限', en: 'The offline map package is larger than the size limit' },
  notSqlite: { zh: '不是 MBTiles 文件（不是 SQLite 数据库或文件已损坏）', en: 'Not an MBTiles file (not an SQLite database, or damaged)' },
  notMbtiles: {
    zh: '不是 MBTiles 文件：缺少 metadata 或 tiles 表（或其列不符）',
    en: 'Not an MBTiles file: the metadata or tiles table is missing (or has the wrong columns)',
  },
  format: {
    zh: '不支持的瓦片格式：仅支持 pbf（矢量）、png、jpg、webp（栅格）',
    en: 'Unsupported tile format: only pbf (vector), png, jpg and webp (raster)',
  },
  noTiles: { zh: '离线地图包中没有瓦片', en: 'The offline map package holds no tiles' },
  notPmtiles: { zh: '不是 PMTiles 文件（文件头不符）', en: 'Not a PMTiles file (wrong file start)' },
  pmtilesVersion: { zh: '仅支持 PMTiles 第 3 版', en: 'Only PMTiles version 3 is supported' },
  truncated: { zh: 'PMTiles 文件不完整（目录或瓦片数据超出文件末尾）', en: 'The PMTiles file is incomplete (directories or tile data reach past its end)' },
  compression: {
    zh: '不支持的压缩方式：仅支持未压缩或 gzip',
    en: 'Unsupported compression: only uncompressed or gzip',
  },
  bounds: { zh: '离线地图包的范围无效', en: 'The offline map package has invalid bounds' },
  zooms: { zh: '离线地图包的层级范围无效（应在 0 - 30 之间）', en: 'The offline map package has an invalid zoom range (must be within 0 - 30)' },
};

/** Highest zoom a package may declare (MapLibre's own limit is 24 for sources; 30 leaves room for overzoom metadata). */
export const MAP_PACKAGE_MAX_ZOOM = 30;
