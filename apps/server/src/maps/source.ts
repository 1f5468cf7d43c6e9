import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The offline basemap's source data and tile cutting. Everything comes from npm-packaged open data:
 * world-atlas (Natural Earth 1:10m land and admin-0 countries, public domain, as TopoJSON) and a
 * graticule generated here. geojson-vt (MapLibre's fork) slices it into tiles, vt-pbf encodes them as
 * Mapbox Vector Tile v2 PBF.
 *
 * Layers of every tile (see style.ts):
 *   land       polygons (the coastline is their outline)
 *   boundary   country borders (lines shared by two countries; coastlines excluded)
 *   graticule  meridians and parallels, property `step` 10 (every 10°) or 1 (every degree, shown from z6)
 */

export const BASEMAP_MIN_ZOOM = 0;
export const BASEMAP_MAX_ZOOM = 10;
export const TILE_EXTENT = 4096;
export const LAYERS = ['land', 'boundary', 'graticule'] as const;
export type LayerName = (typeof LAYERS)[number];

/** Latitude span covered by the graticule (Web Mercator stops at about ±85°). */
const GRATICULE_LAT = 80;

/** Meridians and parallels every `step` degrees (parallels of the 10° grid not repeated in the 1° one). */
export function graticule(): GeoJSON.FeatureCollection<GeoJSON.LineString> {
  const features: GeoJSON.Feature<GeoJSON.LineString>[] = [];
  const line = (coordinates: [number, number][], step: number): void => {
    features.push({ type: 'Feature', properties: { step }, geometry: { type: 'LineString', coordinates } });
  };
  for (let lng = -180; lng < 180; lng += 1) {
    const step = lng % 10 === 0 ? 10 : 1;
    line([[lng, -GRATICULE_LAT], [lng, GRATICULE_LAT]], step);
  }
  for (let lat = -GRATICULE_LAT; lat <= GRATICULE_LAT; lat += 1) {
    const step = lat % 10 === 0 ? 10 : 1;
    // Parallels are split so that no segment spans more than 180° (geojson-vt would wrap it the short way).
    line([[-180, lat], [0, lat]], step);
    line([[0, lat], [180, lat]], step);
  }
  return { type: 'FeatureCollection', features };
}

function readTopology(file: string): Topology {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve(`world-atlas/${file}`), 'utf8')) as Topology;
}

/** The three layers as GeoJSON (about 0.6 s: parsing the 10m TopoJSON files). */
export function loadSourceLayers(): Record<LayerName, GeoJSON.GeoJSON> {
  const land = readTopology('land-10m.json');
  const countries = readTopology('countries-10m.json');
  const landObject = land.objects.land as GeometryCollection;
  const countriesObject = countries.objects.countries as GeometryCollection;
  return {
    land: feature(land, landObject),
    boundary: { type: 'Feature', properties: {}, geometry: mesh(countries, countriesObject, (a, b) => a !== b) },
    graticule: graticule(),
  };
}

/** Cuts tiles of the basemap: one geojson-vt index per layer, tiles encoded on request. */
export class BasemapCutter {
  private readonly indexes: Record<LayerName, GeoJSONVT>;

  constructor(layers: Record<LayerName, GeoJSON.GeoJSON> = loadSourceLayers()) {
    const options = {
      maxZoom: BASEMAP_MAX_ZOOM,
      indexMaxZoom: 5,
      indexMaxPoints: 100_000,
      tolerance: 3,
      extent: TILE_EXTENT,
      buffer: 64,
    };
    this.indexes = {
      land: new GeoJSONVT(layers.land, options),
      boundary: new GeoJSONVT(layers.boundary, options),
      graticule: new GeoJSONVT(layers.graticule, options),
    };
  }

  /** The uncompressed PBF of one tile, or null when no layer has anything in it. */
  tile(z: number, x: number, y: number): Uint8Array | null {
    const layers: Record<string, NonNullable<ReturnType<GeoJSONVT['getTile']>>> = {};
    for (const name of LAYERS) {
      const tile = this.indexes[name].getTile(z, x, y);
      if (tile && tile.features.length > 0) layers[name] = tile;
    }
    if (Object.keys(layers).length === 0) return null;
    return fromGeojsonVt(layers, { version: 2, extent: TILE_EXTENT });
  }
}
