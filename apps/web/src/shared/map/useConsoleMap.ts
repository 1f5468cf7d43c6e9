import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { Map as MapLibreMap, MapOptions } from 'maplibre-gl';
import type { Theme } from '@nest/contracts';
import { useI18n } from '../i18n';
import { basemapStyle, fromMap, readBasemap, saveBasemap, type BasemapId, type LatLng } from './basemaps';
import { createConsoleMap } from './consoleMap';

export interface ConsoleMapSetup {
  /** The basemap shown; a change swaps the style (the screen's sources are added again by `onStyle`). */
  basemap: BasemapId;
  theme: Theme;
  /** MapLibre options of the new map (read once). */
  options?: Partial<MapOptions>;
  /** Adds the screen's sources and layers to a freshly loaded style: after creation and after every swap. */
  onStyle?: (map: MapLibreMap) => void;
  /** Wires the screen's map events once, after creation; what it returns runs before the map is removed. */
  onCreate?: (map: MapLibreMap) => (() => void) | void;
  /** Report the WGS84 position under the pointer (`cursor`). */
  trackCursor?: boolean;
}

export interface ConsoleMap {
  /** The element the map draws into. */
  container: RefObject<HTMLDivElement | null>;
  /** The map while mounted (null before, after, and when it could not be created). */
  mapRef: RefObject<MapLibreMap | null>;
  /** The style is loaded and `onStyle` has run; false again while a swapped style loads. */
  ready: boolean;
  /** The browser cannot draw the map (no WebGL2): the screen works without it. */
  failed: boolean;
  /** The WGS84 position under the pointer, with `trackCursor`. */
  cursor: LatLng | null;
  /** Loads the current style again (a retry after tiles failed). */
  reloadStyle: () => void;
}

/**
 * The lifecycle of a console map: created once per mount into `container` (createConsoleMap: basemap,
 * controls, zoom range), the screen's layers added on every style load, the style swapped when the basemap,
 * the theme or the page language changes, and removed on unmount. MapLibre follows its container's size
 * itself (trackResize). A browser without WebGL2 gets `failed` instead of a map.
 */
export function useConsoleMap({ basemap, theme, options, onStyle, onCreate, trackCursor = false }: ConsoleMapSetup): ConsoleMap {
  const { lang } = useI18n();
  const container = useRef<HTMLDivElement | null>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [cursor, setCursor] = useState<LatLng | null>(null);
  // What the map was made with and what the style shows now; the callbacks are the latest ones.
  const setup = useRef({ basemap, theme, options, onStyle, onCreate, trackCursor });
  setup.current = { basemap, theme, options, onStyle, onCreate, trackCursor };
  const shown = useRef({ basemap, theme, lang });

  useEffect(() => {
    if (!container.current) return;
    const first = setup.current;
    let map: MapLibreMap;
    try {
      map = createConsoleMap(container.current, first.basemap, first.theme, first.options);
    } catch {
      // No WebGL2 (old browser, disabled GPU): the rest of the screen works without the map.
      setFailed(true);
      return;
    }
    mapRef.current = map;
    map.on('style.load', () => {
      setup.current.onStyle?.(map);
      setReady(true);
    });
    if (first.trackCursor) {
      map.on('mousemove', (e) => setCursor(fromMap(setup.current.basemap, e.lngLat.lng, e.lngLat.lat)));
      map.on('mouseout', () => setCursor(null));
    }
    const undo = first.onCreate?.(map);
    return () => {
      undo?.();
      map.remove();
      mapRef.current = null;
    };
    // One map per mount; what changes later flows through the style swap below and the screen's sources.
  }, []);

  const swapStyle = useCallback(() => {
    const map = mapRef.current;
    if (!map) return;
    setReady(false);
    // After the screen's own effects of this render: they still see `ready` and may still add to the style
    // being replaced (adding to a style that is loading throws).
    queueMicrotask(() => {
      if (mapRef.current === map) map.setStyle(basemapStyle(shown.current.basemap, shown.current.theme), { diff: false });
    });
  }, []);

  useEffect(() => {
    const now = shown.current;
    if (now.basemap === basemap && now.theme === theme && now.lang === lang) return;
    shown.current = { basemap, theme, lang };
    swapStyle();
  }, [basemap, theme, lang, swapStyle]);

  return { container, mapRef, ready, failed, cursor, reloadStyle: swapStyle };
}

/** The basemap chosen on the maps that offer a choice: the saved one at first, saved again when changed. */
export function useSavedBasemap(): [BasemapId, (id: BasemapId) => void] {
  const [basemap, setBasemap] = useState<BasemapId>(readBasemap);
  const choose = useCallback((id: BasemapId) => {
    saveBasemap(id);
    setBasemap(id);
  }, []);
  return [basemap, choose];
}
