import { GLYPH_FONTSTACK, GLYPHS_URL_TEMPLATE } from './glyphs.js';
import { PLACE_ATTRIBUTION } from './places.js';
import { BASEMAP_MAX_ZOOM, BASEMAP_MIN_ZOOM } from './source.js';

export type StyleTheme = 'dark' | 'light';
/** The language of the labels: its name field first, the other language's when a place has none. */
export type StyleLang = 'zh' | 'en';

interface Palette {
  water: string;
  land: string;
  coast: string;
  boundary: string;
  graticule: string;
  graticuleMinor: string;
  placeText: string;
  placeTextMinor: string;
  placeHalo: string;
  placeDot: string;
}

const PALETTES: Readonly<Record<StyleTheme, Palette>> = {
  dark: {
    water: '#081a30',
    land: '#13294a',
    coast: '#2b5d8c',
    boundary: '#4f7fb0',
    graticule: 'rgba(24, 183, 240, 0.16)',
    graticuleMinor: 'rgba(24, 183, 240, 0.08)',
    placeText: '#e6f1ff',
    placeTextMinor: '#c2d6ee',
    placeHalo: 'rgba(8, 26, 48, 0.9)',
    placeDot: '#7fb3e6',
  },
  light: {
    water: '#cfe3f5',
    land: '#f4f1ea',
    coast: '#9fbcd6',
    boundary: '#b48eaa',
    graticule: 'rgba(60, 90, 130, 0.18)',
    graticuleMinor: 'rgba(60, 90, 130, 0.09)',
    placeText: '#1f2d3d',
    placeTextMinor: '#4a5a6e',
    placeHalo: 'rgba(255, 255, 255, 0.92)',
    placeDot: '#5b6b80',
  },
};

/** The label of a place in `lang`, else in the other language. */
export function placeName(lang: StyleLang): unknown[] {
  const [first, second] = lang === 'zh' ? ['name_zh', 'name_en'] : ['name_en', 'name_zh'];
  return ['coalesce', ['get', first], ['get', second]];
}

/**
 * The MapLibre style of the offline basemap: land, coastline, borders, graticule and the names of
 * populated places (glyphs from the server's glyph endpoint, glyphs.ts); no sprite. The console draws its
 * own markers on top. `tilesUrl` is the tile template, e.g. `/api/zone/tiles/basemap/{z}/{x}/{y}.pbf`.
 * Places: larger ones (lower `rank`) first when labels collide, a dot and a bigger label for the largest.
 */
export function basemapStyle(tilesUrl: string, theme: StyleTheme, lang: StyleLang = 'zh'): Record<string, unknown> {
  const p = PALETTES[theme];
  return {
    version: 8,
    name: `nest-offline-${theme}`,
    metadata: { 'nest:offline': true, 'nest:lang': lang },
    glyphs: GLYPHS_URL_TEMPLATE,
    sources: {
      basemap: {
        type: 'vector',
        tiles: [tilesUrl],
        minzoom: BASEMAP_MIN_ZOOM,
        maxzoom: BASEMAP_MAX_ZOOM,
        attribution: `Natural Earth, ${PLACE_ATTRIBUTION}`,
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
      {
        id: 'place-dot',
        type: 'circle',
        source: 'basemap',
        'source-layer': 'place',
        filter: ['<=', ['get', 'rank'], 3],
        // Only at small scales, where a dot finds the city; closer in the label alone marks it.
        maxzoom: 9,
        paint: {
          'circle-color': p.placeDot,
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 3, 1.5, 10, 3],
          'circle-stroke-color': p.placeHalo,
          'circle-stroke-width': 1,
        },
      },
      {
        id: 'place-label',
        type: 'symbol',
        source: 'basemap',
        'source-layer': 'place',
        layout: {
          'text-field': placeName(lang),
          'text-font': [GLYPH_FONTSTACK],
          'text-size': ['interpolate', ['linear'], ['zoom'], 3, ['match', ['get', 'rank'], 1, 13, 2, 11, 10], 10, ['match', ['get', 'rank'], 1, 18, 2, 16, 3, 15, 4, 14, 13], 14, ['match', ['get', 'rank'], 1, 22, 2, 20, 3, 18, 16]],
          'text-anchor': ['step', ['zoom'], 'top', 11, 'center'],
          'text-offset': ['step', ['zoom'], ['literal', [0, 0.45]], 11, ['literal', [0, 0]]],
          'text-max-width': 8,
          'text-padding': 4,
          'symbol-sort-key': ['-', ['get', 'rank'], ['/', ['get', 'pop'], 1e8]],
        },
        paint: {
          'text-color': ['case', ['<=', ['get', 'rank'], 3], p.placeText, p.placeTextMinor],
          'text-halo-color': p.placeHalo,
          'text-halo-width': 1.4,
          'text-halo-blur': 0.4,
        },
      },
    ],
  };
}
