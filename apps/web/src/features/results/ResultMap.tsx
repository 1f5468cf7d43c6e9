import { useEffect, useRef, type ReactNode } from 'react';
import { Marker, type GeoJSONSource, type Map as MapLibreMap, type MapGeoJSONFeature } from 'maplibre-gl';
import type { Point } from 'geojson';
import type { ResultItem, Theme } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { BasemapNotice } from '../../shared/map/BasemapNotice';
import { BasemapSwitch } from '../../shared/map/BasemapSwitch';
import { toMap, type BasemapId } from '../../shared/map/basemaps';
import { fitCoords } from '../../shared/map/consoleMap';
import { useConsoleMap, useSavedBasemap } from '../../shared/map/useConsoleMap';
import { useNoFlyZones } from '../../shared/map/noFly';
import { ZoneLegend, useZoneOverlay } from '../../shared/map/zoneOverlay';
import { useZones } from '../../shared/map/zones';
import { spreadPositions } from './mapPoints';

const SOURCE = 'results';
const PROBE = 'results-probe';
/** Zoom from which every result stands alone (spread positions a few metres apart need a close view). */
const CLUSTER_MAX_ZOOM = 18;

export interface ResultMapProps {
  items: readonly ResultItem[];
  theme: Theme;
  onOpen: (index: number) => void;
}

function geoJson(items: readonly ResultItem[], basemap: BasemapId): GeoJSON.FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: spreadPositions(items).map((p) => ({
      type: 'Feature',
      properties: { index: p.index, id: items[p.index]!.id, type: items[p.index]!.type },
      geometry: { type: 'Point', coordinates: toMap(basemap, p) },
    })),
  };
}

function pointElement(r: ResultItem): HTMLElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = `result-marker result-marker-t${r.type}`;
  el.dataset.testid = 'result-marker';
  el.dataset.id = String(r.id);
  el.title = r.file_name;
  // MapLibre positions the element by its transform: the hover zoom belongs to an inner face.
  const face = document.createElement('span');
  face.className = 'result-marker-face';
  if (r.thumb_url) {
    const img = document.createElement('img');
    img.src = r.thumb_url;
    img.alt = '';
    img.loading = 'lazy';
    face.appendChild(img);
  }
  el.appendChild(face);
  return el;
}

function clusterElement(count: number): HTMLElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = 'result-cluster';
  el.dataset.testid = 'result-cluster';
  const size = Math.round(30 + Math.min(26, Math.log2(count) * 5));
  el.style.width = `${size}px`;
  el.style.height = `${size}px`;
  el.textContent = String(count);
  return el;
}

/**
 * Results on the map by where they were taken: thumbnails as markers, clustered into count bubbles when
 * zoomed out (a click zooms in, or opens the first of a group that cannot split further).
 */
export default function ResultMap({ items, theme, onOpen }: ResultMapProps): ReactNode {
  const { t, lang } = useI18n();
  const [basemap, setBasemap] = useSavedBasemap();
  const zones = useZones();
  const noFly = useNoFlyZones();
  const markers = useRef(new Map<string, Marker>());
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  const basemapRef = useRef(basemap);
  basemapRef.current = basemap;

  const clearMarkers = () => {
    for (const m of markers.current.values()) m.remove();
    markers.current.clear();
  };

  const { container, mapRef, ready, failed } = useConsoleMap({
    basemap,
    theme,
    onStyle: (map) => {
      if (!map.getSource(SOURCE)) {
        map.addSource(SOURCE, { type: 'geojson', data: geoJson(itemsRef.current, basemapRef.current), cluster: true, clusterMaxZoom: CLUSTER_MAX_ZOOM, clusterRadius: 56, maxzoom: 22 });
        map.addLayer({ id: PROBE, type: 'circle', source: SOURCE, paint: { 'circle-radius': 0, 'circle-opacity': 0, 'circle-stroke-width': 0 } });
      }
    },
    onCreate: (map) => {
      map.on('render', () => sync(map));
      return clearMarkers;
    },
  });

  function sync(map: MapLibreMap): void {
    if (!map.getSource(SOURCE) || !map.isSourceLoaded(SOURCE)) return;
    const seen = new Set<string>();
    for (const f of map.querySourceFeatures(SOURCE) as MapGeoJSONFeature[]) {
      const coords = (f.geometry as Point).coordinates as [number, number];
      const p = f.properties as Record<string, unknown>;
      const key = p.cluster ? `c-${String(p.cluster_id)}-${String(p.point_count)}` : `r-${String(p.id)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const existing = markers.current.get(key);
      if (existing) {
        existing.setLngLat(coords);
        continue;
      }
      let el: HTMLElement;
      if (p.cluster) {
        el = clusterElement(Number(p.point_count));
        el.addEventListener('click', (ev) => {
          ev.stopPropagation();
          const source = map.getSource<GeoJSONSource>(SOURCE);
          if (!source) return;
          const id = Number(p.cluster_id);
          void source.getClusterExpansionZoom(id).then((zoom) => {
            if (zoom <= map.getMaxZoom() && zoom > map.getZoom()) map.easeTo({ center: coords, zoom });
            else void source.getClusterLeaves(id, 1, 0).then((leaves) => onOpenRef.current(Number(leaves[0]?.properties?.index ?? 0)));
          });
        });
      } else {
        const item = itemsRef.current[Number(p.index)];
        if (!item) continue;
        el = pointElement(item);
        el.addEventListener('click', (ev) => {
          ev.stopPropagation();
          onOpenRef.current(Number(p.index));
        });
      }
      markers.current.set(key, new Marker({ element: el }).setLngLat(coords).addTo(map));
    }
    for (const [key, m] of markers.current) {
      if (!seen.has(key)) {
        m.remove();
        markers.current.delete(key);
      }
    }
  }

  // New data: replace the source's features, drop every marker (indexes changed) and frame them.
  useEffect(() => {
    const map = mapRef.current;
    const source = map?.getSource<GeoJSONSource>(SOURCE);
    if (!map || !source || !ready) return;
    const data = geoJson(items, basemap);
    void source.setData(data);
    clearMarkers();
    fitCoords(map, data.features.map((f) => f.geometry.coordinates as [number, number]), { padding: 80, maxZoom: 17, duration: 0 });
    map.triggerRepaint();
  }, [items, ready, basemap, mapRef]);

  // A swapped style starts without markers (they come back with its source).
  // The public and company no-fly zones where the results were taken, under the results' markers.
  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, PROBE, 'fixed', noFly);

  useEffect(() => {
    for (const m of markers.current.values()) m.remove();
    markers.current.clear();
  }, [basemap, theme]);

  return (
    <div className="result-map" data-testid="result-map">
      <div ref={container} className="result-map-canvas" />
      {failed && <div className="results-state">{t('map.unavailable')}</div>}
      <BasemapSwitch className="result-map-basemap" value={basemap} onChange={setBasemap} />
      <BasemapNotice map={ready ? mapRef.current : null} basemap={basemap} onUseOffline={() => setBasemap('offline')} />
      <ZoneLegend zones={zones} noFly={noFly} />
    </div>
  );
}
