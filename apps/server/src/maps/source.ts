import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GeoJSONVT, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { feature, mesh } from 'topojson-client';
import { loadPlaces, PLACE_MIN_ZOOMS } from './places.js';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * The offline basemap's source data and tile cutting. Everything comes from npm-packaged open data:
 * world-atlas (Natural Earth 1:10m land and admin-0 countries, public domain, as TopoJSON), GeoNames
 * populated places with their Chinese and English names (cities1000, CC BY; see places.ts) and a
 * graticule generated here. geojson-vt (MapLibre's fork) slices it into tiles, vt-pbf encodes them as
 * Mapbox Vector Tile v2 PBF.
 *
 * Layers of every tile (see style.ts):
 *   land       polygons (the coastline is their outline)
 *   boundary   country borders (lines shared by two countries; coastlines excluded)
 *   graticule  meridians and parallels, property `step` 10 (every 10°) or 1 (every degree, shown from z6)
 *   place      populated places (points): `name_zh`, `name_en` (either may be missing), `rank` 1 (largest)
 *              to 6, `pop`; a place is in the tiles from its `min_zoom` on (3 to 10, by population)
 */

export const BASEMAP_MIN_ZOOM = 0;
export const BASEMAP_MAX_ZOOM = 10;
export const TILE_EXTENT = 4096;
export const LAYERS = ['land', 'boundary', 'graticule', 'place'] as const;
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

/** The layers as GeoJSON (about 0.9 s: parsing the 10m TopoJSON files and the place list). */
export function loadSourceLayers(): Record<LayerName, GeoJSON.GeoJSON> {
  const land = readTopology('land-10m.json');
  const countries = readTopology('countries-10m.json');
  const landObject = land.objects.land as GeometryCollection;
  const countriesObject = countries.objects.countries as GeometryCollection;
  return {
    land: feature(land, landObject),
    boundary: { type: 'Feature', properties: {}, geometry: mesh(countries, countriesObject, (a, b) => a !== b) },
    graticule: graticule(),
    place: loadPlaces(),
  };
}

type VtTile = GeoJSONVTTile;

/**
 * Cuts tiles of the basemap: one geojson-vt index per layer, tiles encoded on request. Places have one
 * index per minimum zoom (geojson-vt keeps every point at every zoom): a tile of zoom z takes the points of
 * the indexes up to z, so a world tile holds the few largest cities instead of all 25k places.
 */
export class BasemapCutter {
  private readonly indexes: Record<Exclude<LayerName, 'place'>, GeoJSONVT>;
  private readonly places: { minZoom: number; index: GeoJSONVT }[];

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
    const placeFeatures = (layers.place as GeoJSON.FeatureCollection).features;
    // Points need no simplification; a small buffer keeps labels near an edge in both tiles.
    this.places = PLACE_MIN_ZOOMS.map((minZoom) => ({
      minZoom,
      index: new GeoJSONVT(
        { type: 'FeatureCollection', features: placeFeatures.filter((f) => f.properties?.min_zoom === minZoom) },
        { ...options, indexMaxZoom: 0, tolerance: 0 },
      ),
    }));
  }

  private placeTile(z: number, x: number, y: number): VtTile | null {
    let merged: VtTile | null = null;
    for (const { minZoom, index } of this.places) {
      if (minZoom > z) continue;
      const tile = index.getTile(z, x, y);
      if (!tile || tile.features.length === 0) continue;
      // Copied before adding: the index's own tiles are kept and must not grow.
      if (merged) merged.features.push(...tile.features);
      else merged = { ...(tile as GeoJSONVTTile), features: [...tile.features] };
    }
    return merged;
  }

  /** The uncompressed PBF of one tile, or null when no layer has anything in it. */
  tile(z: number, x: number, y: number): Uint8Array | null {
    const layers: Record<string, VtTile> = {};
    for (const name of LAYERS) {
      const tile = name === 'place' ? this.placeTile(z, x, y) : this.indexes[name].getTile(z, x, y);
      if (tile && tile.features.length > 0) layers[name] = tile;
    }
    if (Object.keys(layers).length === 0) return null;
    return fromGeojsonVt(layers, { version: 2, extent: TILE_EXTENT });
  }
}
