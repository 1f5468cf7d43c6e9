import type { StyleSpecification } from 'maplibre-gl';
import { gcj02ToWgs84, wgs84ToGcj02 } from '@nest/geo';
import { ONLINE_BASEMAP_TILES, type Lang, type LatLng } from '@nest/contracts';
import { getLang } from '../i18n';
import { serviceBases } from '../request';
import { storage } from '../storage';

/**
 * Basemaps the operator can choose from. Data everywhere is WGS84; a basemap drawn in GCJ-02 (AMap) gets
 * every overlay coordinate converted at the map boundary (toMap) and every click converted back (fromMap).
 * - offline: the server's own vector tiles (default; no internet needed);
 * - osm: OpenStreetMap raster (WGS84);
 * - amap: AMap (Gaode) raster (GCJ-02);
 * - google: Google satellite raster (WGS84 imagery);
 * - package:<id>: an offline map package of the user's company (raster or vector, served by the server),
 *   taken as WGS84 like the tiles packages are cut as (Web Mercator).
 */
export const BASEMAPS = ['offline', 'osm', 'amap', 'google'] as const;
export type BuiltinBasemapId = (typeof BASEMAPS)[number];
export type PackageBasemapId = `package:${string}`;
export type BasemapId = BuiltinBasemapId | PackageBasemapId;

const PACKAGE_PREFIX = 'package:';
/** A package id as the server makes them (uuid), kept in the stored choice. */
const PACKAGE_ID = /^[A-Za-z0-9-]{1,64}$/;
/** The scheme of package style URLs, fetched by packageProtocol.ts through an authenticated call. */
export const PACKAGE_PROTOCOL = 'nestpkg';

export const isPackageBasemap = (id: string): id is PackageBasemapId => id.startsWith(PACKAGE_PREFIX) && PACKAGE_ID.test(id.slice(PACKAGE_PREFIX.length));
export const packageBasemap = (packageId: string): PackageBasemapId => `${PACKAGE_PREFIX}${packageId}`;
export const packageIdOf = (id: PackageBasemapId): string => id.slice(PACKAGE_PREFIX.length);
export type Crs = 'wgs84' | 'gcj02';

export const BASEMAP_STORAGE_KEY = 'nest.map.basemap';
export const DEFAULT_BASEMAP: BasemapId = 'offline';

export const BASEMAP_CRS: Readonly<Record<BuiltinBasemapId, Crs>> = { offline: 'wgs84', osm: 'wgs84', amap: 'gcj02', google: 'wgs84' };

/** The coordinate system a basemap is drawn in (packages: WGS84). */
export const crsOf = (id: BasemapId): Crs => (isPackageBasemap(id) ? 'wgs84' : BASEMAP_CRS[id]);

export function readBasemap(): BasemapId {
  const saved = storage.get(BASEMAP_STORAGE_KEY) ?? '';
  return (BASEMAPS as readonly string[]).includes(saved) || isPackageBasemap(saved) ? (saved as BasemapId) : DEFAULT_BASEMAP;
}

export function saveBasemap(id: BasemapId): void {
  storage.set(BASEMAP_STORAGE_KEY, id);
}

export type { LatLng };

/** A WGS84 position as drawn on the basemap: [lng, lat] in the basemap's coordinate system. */
export function toMap(basemap: BasemapId, p: LatLng): [number, number] {
  const q = crsOf(basemap) === 'gcj02' ? wgs84ToGcj02(p) : p;
  return [q.lng, q.lat];
}

/** A position picked on the basemap (lng, lat in its system) back to WGS84. */
export function fromMap(basemap: BasemapId, lng: number, lat: number): LatLng {
  return crsOf(basemap) === 'gcj02' ? gcj02ToWgs84({ lat, lng }) : { lat, lng };
}

/**
 * Style URL of the offline basemap for a console theme (dark for 'default', light for 'concise'), its
 * place names in the page language (a language change reloads the page, and with it the style).
 */
export function offlineStyleUrl(theme: 'default' | 'concise', lang: Lang = getLang()): string {
  const base = serviceBases().zone.replace(/\/$/, '');
  return `${base}/tiles/basemap/style.json?theme=${theme === 'concise' ? 'light' : 'dark'}&lang=${lang}`;
}

interface RasterDef {
  tiles: string[];
  maxzoom: number;
  attribution: string;
}

const RASTERS: Readonly<Record<Exclude<BuiltinBasemapId, 'offline'>, RasterDef>> = {
  osm: {
    tiles: [...ONLINE_BASEMAP_TILES.osm],
    maxzoom: 19,
    attribution: '© OpenStreetMap contributors',
  },
  amap: {
    tiles: [...ONLINE_BASEMAP_TILES.amap],
    maxzoom: 18,
    attribution: '© AutoNavi',
  },
  google: {
    tiles: [...ONLINE_BASEMAP_TILES.google],
    maxzoom: 20,
    attribution: '© Google',
  },
};

/**
 * The MapLibre style of a basemap: a URL for the offline one, an inline raster style for the online ones,
 * a `nestpkg://` URL for a package (its style is read through an authenticated call: packageProtocol.ts).
 */
export function basemapStyle(id: BasemapId, theme: 'default' | 'concise'): string | StyleSpecification {
  if (isPackageBasemap(id)) return `${PACKAGE_PROTOCOL}://${packageIdOf(id)}?theme=${theme === 'concise' ? 'light' : 'dark'}`;
  if (id === 'offline') return offlineStyleUrl(theme);
  const r = RASTERS[id];
  return {
    version: 8,
    name: id,
    sources: { raster: { type: 'raster', tiles: r.tiles, tileSize: 256, maxzoom: r.maxzoom, attribution: r.attribution } },
    layers: [
      { id: 'bg', type: 'background', paint: { 'background-color': theme === 'concise' ? '#eef2f8' : '#071224' } },
      { id: 'raster', type: 'raster', source: 'raster' },
    ],
  };
}

/** Makes a path-absolute URL (as the offline style names its tiles) absolute for MapLibre's fetches. */
export function absoluteUrl(url: string, origin: string = globalThis.location?.origin ?? ''): string {
  return url.startsWith('/') && !url.startsWith('//') ? origin + url : url;
}
