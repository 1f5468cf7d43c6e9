import type { StyleSpecification } from 'maplibre-gl';
import { gcj02ToWgs84, wgs84ToGcj02 } from '@nest/geo';
import { ONLINE_BASEMAP_TILES, type Lang } from '@nest/contracts';
import { getLang } from '../i18n';
import { serviceBases } from '../request';
import { storage } from '../storage';

/**
 * Basemaps the operator can choose from. Data everywhere is WGS84; a basemap drawn in GCJ-02 (AMap) gets
 * every overlay coordinate converted at the map boundary (toMap) and every click converted back (fromMap).
 * - offline: the server's own vector tiles (default; no internet needed);
 * - osm: OpenStreetMap raster (WGS84);
 * - amap: AMap (Gaode) raster (GCJ-02);
 * - google: Google satellite raster (WGS84 imagery).
 */
export const BASEMAPS = ['offline', 'osm', 'amap', 'google'] as const;
export type BasemapId = (typeof BASEMAPS)[number];
export type Crs = 'wgs84' | 'gcj02';

export const BASEMAP_STORAGE_KEY = 'nest.map.basemap';
export const DEFAULT_BASEMAP: BasemapId = 'offline';

export const BASEMAP_CRS: Readonly<Record<BasemapId, Crs>> = { offline: 'wgs84', osm: 'wgs84', amap: 'gcj02', google: 'wgs84' };

export function readBasemap(): BasemapId {
  const saved = storage.get(BASEMAP_STORAGE_KEY);
  return (BASEMAPS as readonly string[]).includes(saved ?? '') ? (saved as BasemapId) : DEFAULT_BASEMAP;
}

export function saveBasemap(id: BasemapId): void {
  storage.set(BASEMAP_STORAGE_KEY, id);
}

export interface LatLng {
  lat: number;
  lng: number;
}

/** A WGS84 position as drawn on the basemap: [lng, lat] in the basemap's coordinate system. */
export function toMap(basemap: BasemapId, p: LatLng): [number, number] {
  const q = BASEMAP_CRS[basemap] === 'gcj02' ? wgs84ToGcj02(p) : p;
  return [q.lng, q.lat];
}

/** A position picked on the basemap (lng, lat in its system) back to WGS84. */
export function fromMap(basemap: BasemapId, lng: number, lat: number): LatLng {
  return BASEMAP_CRS[basemap] === 'gcj02' ? gcj02ToWgs84({ lat, lng }) : { lat, lng };
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

const RASTERS: Readonly<Record<Exclude<BasemapId, 'offline'>, RasterDef>> = {
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

/** The MapLibre style of a basemap: a URL for the offline one, an inline raster style for the others. */
export function basemapStyle(id: BasemapId, theme: 'default' | 'concise'): string | StyleSpecification {
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
