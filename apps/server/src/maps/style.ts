import { BASEMAP_MAX_ZOOM, BASEMAP_MIN_ZOOM } from './source.js';

export type StyleTheme = 'dark' | 'light';

interface Palette {
  water: string;
  land: string;
  coast: string;
  boundary: string;
  graticule: string;
  graticuleMinor: string;
}

const PALETTES: Readonly<Record<StyleTheme, Palette>> = {
  dark: {
    water: '#081a30',
    land: '#13294a',
    coast: '#2b5d8c',
    boundary: '#4f7fb0',
    graticule: 'rgba(24, 183, 240, 0.16)',
    graticuleMinor: 'rgba(24, 183, 240, 0.08)',
  },
  light: {
    water: '#cfe3f5',
    land: '#f4f1ea',
    coast: '#9fbcd6',
    boundary: '#b48eaa',
    graticule: 'rgba(60, 90, 130, 0.18)',
    graticuleMinor: 'rgba(60, 90, 130, 0.09)',
  },
};

/**
 * The MapLibre style of the offline basemap. It has no text (labels would need glyph PBFs, which no npm
 * package ships for CJK) and no sprite: land, coastline, borders and graticule only; the console draws
 * its own markers on top. `tilesUrl` is the tile template, e.g. `/api/zone/tiles/basemap/{z}/{x}/{y}.pbf`.
 */
export function basemapStyle(tilesUrl: string, theme: StyleTheme): Record<string, unknown> {
  const p = PALETTES[theme];
  return {
    version: 8,
    name: `nest-offline-${theme}`,
    metadata: { 'nest:offline': true },
    sources: {
      basemap: {
        type: 'vector',
        tiles: [tilesUrl],
        minzoom: BASEMAP_MIN_ZOOM,
        maxzoom: BASEMAP_MAX_ZOOM,
        attribution: 'Natural Earth',
      },
    },
    layers: [
      { id: 'water', type: 'background', paint: { 'background-color': p.water } },
      { id: 'land', type: 'fill', source: 'basemap', 'source-layer': 'land', paint: { 'fill-color': p.land, 'fill-antialias': true } },
      {
        id: 'graticule-minor',
        type: 'line',
        source: 'basemap',
        'source-layer': 'graticule',
        minzoom: 6,
        filter: ['==', ['get', 'step'], 1],
        paint: { 'line-color': p.graticuleMinor, 'line-width': 1 },
      },
      {
        id: 'graticule',
        type: 'line',
        source: 'basemap',
        'source-layer': 'graticule',
        filter: ['==', ['get', 'step'], 10],
        paint: { 'line-color': p.graticule, 'line-width': 1 },
      },
      {
        id: 'coastline',
        type: 'line',
        source: 'basemap',
        'source-layer': 'land',
        paint: { 'line-color': p.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 8, 1.2, 14, 2] },
      },
      {
        id: 'boundary',
        type: 'line',
        source: 'basemap',
        'source-layer': 'boundary',
        paint: {
          'line-color': p.boundary,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 8, 1.4, 14, 2.2],
          'line-dasharray': [3, 2],
        },
      },
    ],
  };
}
