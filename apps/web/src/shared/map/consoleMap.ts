import { Map as MapLibreMap, NavigationControl, ScaleControl, setWorkerUrl, type FitBoundsOptions, type MapOptions } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { MAP_DEFAULT_ZOOM, MAP_MAX_ZOOM, MAP_MIN_ZOOM, type Theme } from '@nest/contracts';
import { t } from '../i18n';
import { absoluteUrl, basemapStyle, toMap, type BasemapId } from './basemaps';
import { CITIES } from './cities';
// Package basemaps' styles (nestpkg://) are read through the authenticated call it registers.
import './packageProtocol';
import './map.css';

setWorkerUrl(workerUrl);

/**
 * A MapLibre map as every console screen uses it: the chosen basemap, the SPEC's default zoom and zoom
 * range, no rotation or pitch, localised controls, zoom buttons bottom right and a metric scale bottom
 * left. Throws when the browser cannot draw WebGL2 (callers show the screen without the map).
 */
export function createConsoleMap(
  container: HTMLElement,
  basemap: BasemapId,
  theme: Theme,
  options: Partial<MapOptions> = {},
): MapLibreMap {
  const map = new MapLibreMap({
    container,
    style: basemapStyle(basemap, theme),
    center: toMap(basemap, CITIES[0]!),
    zoom: MAP_DEFAULT_ZOOM,
    minZoom: MAP_MIN_ZOOM,
    maxZoom: MAP_MAX_ZOOM,
    attributionControl: { compact: true },
    transformRequest: (url) => ({ url: absoluteUrl(url) }),
    // Chinese labels come from the server's glyphs (as Latin ones do), not from a local system font: the
    // same look on every machine, and none needed.
    localIdeographFontFamily: false,
    dragRotate: false,
    pitchWithRotate: false,
    locale: {
      'NavigationControl.ZoomIn': t('map.zoomIn'),
      'NavigationControl.ZoomOut': t('map.zoomOut'),
      'AttributionControl.ToggleAttribution': t('map.attribution'),
    },
    ...options,
  });
  map.addControl(new NavigationControl({ showCompass: false }), 'bottom-right');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  return map;
}

/** The bounds of map coordinates ([lng, lat]), null when there are none. */
export function boundsOf(coords: readonly (readonly [number, number])[]): [[number, number], [number, number]] | null {
  if (coords.length === 0) return null;
  const lngs = coords.map((c) => c[0]);
  const lats = coords.map((c) => c[1]);
  return [[Math.min(...lngs), Math.min(...lats)], [Math.max(...lngs), Math.max(...lats)]];
}

/** Brings map coordinates into view (nothing when there are none). */
export function fitCoords(map: MapLibreMap, coords: readonly (readonly [number, number])[], options: FitBoundsOptions): void {
  const bounds = boundsOf(coords);
  if (bounds) map.fitBounds(bounds, options);
}
