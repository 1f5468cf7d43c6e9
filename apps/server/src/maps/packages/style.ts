import type { Lang, MapPackageKind, MapStyle, VectorLayer } from '@nest/contracts';
import { GLYPH_FONTSTACK } from '../glyphs.js';

/**
 * MapLibre styles of offline map packages. Raster: the tiles as one raster layer. Vector: a generic style
 * made from the package's `vector_layers`, since a package brings no style of its own: polygons filled,
 * lines drawn, points as circles with a text label, each layer in a colour of its own. Labels read the
 * name in the console's language first (`name:zh` / `name_zh` or `name:en` / `name_en`), then `name`,
 * then the other language; glyphs come from the server's glyph endpoint.
 */

/** dark for the console's default theme, light for its concise one. */
export type StyleTheme = 'dark' | 'light';

/** The style's only source (not `raster`, which the console watches for online basemaps that fail). */
export const PACKAGE_SOURCE = 'package';

export interface PackageStyleInput {
  name: string;
  kind: MapPackageKind;
  min_zoom: number;
  max_zoom: number;
  bounds: [number, number, number, number];
  attribution: string;
  vector_layers: readonly VectorLayer[];
}

export interface PackageStyleUrls {
  /** Tile URL template ({z}/{x}/{y}), signed. */
  tiles: string;
  /** Glyph URL template ({fontstack}/{range}). */
  glyphs: string;
}

const PALETTE = ['#4cc3ff', '#7bd88f', '#ffb454', '#f07178', '#c792ea', '#82aaff', '#ffd866', '#89ddff', '#a3be8c', '#f78c6c'];

const THEMES = {
  dark: { background: '#071224', text: '#e6f1ff', halo: '#071224', fillOpacity: 0.35 },
  light: { background: '#eef2f8', text: '#1d2a3a', halo: '#ffffff', fillOpacity: 0.45 },
} as const;

/** The name fields a label tries, in order, for the console language. */
export function labelFields(lang: Lang): string[] {
  const zh = ['name:zh', 'name_zh'];
  const en = ['name:en', 'name_en'];
  return lang === 'zh' ? [...zh, 'name', ...en] : [...en, 'name', ...zh];
}

const labelExpression = (lang: Lang): unknown[] => ['coalesce', ...labelFields(lang).map((f) => ['get', f])];

/* eslint-disable @typescript-eslint/no-explicit-any -- a style is plain JSON for the browser */
function vectorLayers(input: PackageStyleInput, theme: StyleTheme, lang: Lang): any[] {
  const t = THEMES[theme];
  const out: any[] = [];
  input.vector_layers.forEach((layer, i) => {
    const color = PALETTE[i % PALETTE.length]!;
    const base = {
      source: PACKAGE_SOURCE,
      'source-layer': layer.id,
      ...(layer.minzoom !== undefined ? { minzoom: layer.minzoom } : {}),
      ...(layer.maxzoom !== undefined ? { maxzoom: Math.max(layer.maxzoom, input.max_zoom) + 1 } : {}),
    };
    const has = (g: NonNullable<VectorLayer['geometry']>) => layer.geometry === undefined || layer.geometry === g;
    const id = (suffix: string) => `pkg-${i}-${suffix}`;
    if (has('polygon')) {
      out.push({ ...base, id: id('fill'), type: 'fill', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': color, 'fill-opacity': t.fillOpacity } });
      out.push({ ...base, id: id('outline'), type: 'line', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'line-color': color, 'line-width': 0.8 } });
    }
    if (has('line')) {
      out.push({ ...base, id: id('line'), type: 'line', filter: ['==', ['geometry-type'], 'LineString'], paint: { 'line-color': color, 'line-width': 1.5 } });
    }
    if (has('point')) {
      out.push({
        ...base,
        id: id('circle'),
        type: 'circle',
        filter: ['==', ['geometry-type'], 'Point'],
        paint: { 'circle-color': color, 'circle-radius': 4, 'circle-stroke-color': t.halo, 'circle-stroke-width': 1 },
      });
      out.push({
        ...base,
        id: id('label'),
        type: 'symbol',
        filter: ['==', ['geometry-type'], 'Point'],
        layout: {
          'text-field': labelExpression(lang),
          'text-font': [GLYPH_FONTSTACK],
          'text-size': 12,
          'text-offset': [0, 0.9],
          'text-anchor': 'top',
          'text-optional': true,
        },
        paint: { 'text-color': t.text, 'text-halo-color': t.halo, 'text-halo-width': 1.2 },
      });
    }
  });
  return out;
}

/** The style of one package: its source (signed tiles) and the layers drawing it. */
export function packageStyle(input: PackageStyleInput, urls: PackageStyleUrls, theme: StyleTheme, lang: Lang): MapStyle {
  const t = THEMES[theme];
  const source = {
    type: input.kind === 'vector' ? 'vector' : 'raster',
    tiles: [urls.tiles],
    minzoom: input.min_zoom,
    maxzoom: input.max_zoom,
    bounds: input.bounds,
    ...(input.kind === 'raster' ? { tileSize: 256 } : {}),
    ...(input.attribution ? { attribution: input.attribution } : {}),
  };
  const layers =
    input.kind === 'vector'
      ? vectorLayers(input, theme, lang)
      : [{ id: 'pkg-raster', type: 'raster', source: PACKAGE_SOURCE }];
  return {
    version: 8,
    name: input.name,
    ...(input.kind === 'vector' ? { glyphs: urls.glyphs } : {}),
    sources: { [PACKAGE_SOURCE]: source },
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': t.background } }, ...layers],
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
