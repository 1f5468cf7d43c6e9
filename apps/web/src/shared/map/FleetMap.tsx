import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Marker, prewarm, type GeoJSONSource, type LayerSpecification, type Map as MapLibreMap, type MapGeoJSONFeature } from 'maplibre-gl';
import type { FeatureCollection, Point } from 'geojson';
import { Input, Tooltip } from 'antd';
import { AimOutlined } from '@ant-design/icons';
import { MAP_DEFAULT_ZOOM, MARKER_CLUSTER_GRID_SIZE, MARKER_CLUSTER_MAX_ZOOM } from '@nest/contracts';
import { useI18n } from '../i18n';
import { notify } from '../notify';
import type { NoFlyZone, Theme, Zone } from '@nest/contracts';
import { BasemapNotice } from './BasemapNotice';
import { BasemapSwitch } from './BasemapSwitch';
import { toMap, type BasemapId, type LatLng } from './basemaps';
import { searchCity, type City } from './cities';
import { boundsOf, fitCoords } from './consoleMap';
import { LocateError, locate } from './geolocate';
import { useFlightOverlay, type FlightOverlay } from './flightOverlay';
import { devicesToGeoJson, isFlying, markerColor, type MapDevice, type MarkerProps } from './markers';
import { clusterElement, deviceElement, updateClusterElement, updateDeviceElement } from './markerElements';
import { useConsoleMap, useSavedBasemap } from './useConsoleMap';
import { ZoneLegend, useZoneOverlay } from './zoneOverlay';


export interface FleetMapProps {
  devices: readonly MapDevice[];
  selectedSn: string | null;
  onSelect: (sn: string) => void;
  theme: Theme;
  /** The device list has been read (an empty fleet then centres the map where the operator is). */
  loaded?: boolean;
  /** Map zones, drawn below the flight overlay with their names and the legend of their kinds. */
  zones?: readonly Zone[];
  /** The company's no-fly zones, drawn with the map zones (inactive ones dashed) and in the legend. */
  noFly?: readonly NoFlyZone[];
}

const NO_ZONES: readonly Zone[] = [];
const NO_NO_FLY: readonly NoFlyZone[] = [];
/** The devices' source until the map's first idle (below, `fed`). */
const NO_DEVICES: FeatureCollection<Point, MarkerProps> = { type: 'FeatureCollection', features: [] };

const SOURCE = 'devices';
/** The selected device's flight (route, flown track, position): drawn above the basemap, below the markers. */
const FLIGHT_SOURCE = 'flight-overlay';
/** Route in amber dashes with numbered-less waypoint dots, the flown track in solid cyan: unlike any other layer. */
/** A layer added later under its source: each layer kind keeps its own paint, layout and filter types. */
type SourcelessLayer = LayerSpecification extends infer L ? (L extends { source: string } ? Omit<L, 'source'> : never) : never;
const FLIGHT_LAYERS: SourcelessLayer[] = [
  { id: 'flight-route', type: 'line', filter: ['==', ['get', 'kind'], 'route'], paint: { 'line-color': '#ffb020', 'line-width': 2.5, 'line-dasharray': [2, 1.5] } },
  { id: 'flight-track', type: 'line', filter: ['==', ['get', 'kind'], 'track'], paint: { 'line-color': '#22e3ff', 'line-width': 3.5, 'line-opacity': 0.95 } },
  { id: 'flight-waypoints', type: 'circle', filter: ['==', ['get', 'kind'], 'waypoint'], paint: { 'circle-radius': 4.5, 'circle-color': '#1a1200', 'circle-stroke-color': '#ffb020', 'circle-stroke-width': 2 } },
  { id: 'flight-position', type: 'circle', filter: ['==', ['get', 'kind'], 'position'], paint: { 'circle-radius': 7, 'circle-color': '#22e3ff', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 } },
];

/** The overlay as GeoJSON in the basemap's coordinates. */
function overlayGeoJson(o: FlightOverlay, basemap: BasemapId): GeoJSON.FeatureCollection {
  const c = (p: LatLng) => toMap(basemap, p);
  const features: GeoJSON.Feature[] = [];
  if (o.route.length > 1) features.push({ type: 'Feature', properties: { kind: 'route' }, geometry: { type: 'LineString', coordinates: o.route.map(c) } });
  o.route.forEach((p, i) => features.push({ type: 'Feature', properties: { kind: 'waypoint', index: i + 1 }, geometry: { type: 'Point', coordinates: c(p) } }));
  if (o.track.length > 1) features.push({ type: 'Feature', properties: { kind: 'track' }, geometry: { type: 'LineString', coordinates: o.track.map(c) } });
  if (o.position) features.push({ type: 'Feature', properties: { kind: 'position' }, geometry: { type: 'Point', coordinates: c(o.position) } });
  return { type: 'FeatureCollection', features };
}
/** True when two collections draw the same markers at the same places. */
function sameFeatures(a: FeatureCollection<Point, MarkerProps>, b: FeatureCollection<Point, MarkerProps>): boolean {
  if (a.features.length !== b.features.length) return false;
  return a.features.every((f, i) => {
    const g = b.features[i]!;
    const [p, q] = [f.properties, g.properties];
    return (
      f.geometry.coordinates[0] === g.geometry.coordinates[0] &&
      f.geometry.coordinates[1] === g.geometry.coordinates[1] &&
      p.sn === q.sn &&
      p.name === q.name &&
      p.state === q.state &&
      p.mine === q.mine &&
      p.flying === q.flying &&
      // The heading turns a flying drone only.
      (!p.flying || p.heading === q.heading) &&
      p.drone === q.drone
    );
  });
}

/** Moves a marker only when its place changed (setLngLat re-positions its element even when it did not). */
function moveTo(marker: Marker, [lng, lat]: [number, number]): void {
  const at = marker.getLngLat();
  if (at.lng !== lng || at.lat !== lat) marker.setLngLat([lng, lat]);
}

interface ItemProps {
  device: MapDevice;
  basemap: BasemapId;
}

/** What an item of the list shows: a battery or heading change leaves it alone. */
const sameItem = ({ device: a, basemap: ab }: ItemProps, { device: b, basemap: bb }: ItemProps): boolean =>
  ab === bb &&
  (a === b ||
    (a.sn === b.sn &&
      a.name === b.name &&
      a.state === b.state &&
      isFlying(a.flightState) === isFlying(b.flightState) &&
      a.position?.lat === b.position?.lat &&
      a.position?.lng === b.position?.lng));

/** One device of the list of what the map draws (for tests and assistive tech), re-rendered when it changes. */
const MapDeviceItem = memo(function MapDeviceItem({ device: d, basemap }: ItemProps): ReactNode {
  const drawn = d.position ? toMap(basemap, d.position) : null;
  return (
    <li data-sn={d.sn} data-state={d.state} data-flying={isFlying(d.flightState) ? '1' : '0'}
      data-lat={d.position?.lat} data-lng={d.position?.lng} data-map-lng={drawn?.[0]} data-map-lat={drawn?.[1]}>
      {d.name}
    </li>
  );
}, sameItem);

// The map's worker starts when this module is in (it is fetched ahead of the data screen), not when the
// map is created. Where there are no workers (tests in a simulated DOM) there is nothing to start.
if (typeof Worker !== 'undefined') prewarm();

/**
 * A layer that draws nothing: MapLibre only loads (and clusters) a source some visible layer uses. Its
 * filter takes no feature, so nothing is drawn and no shader is built for it (the markers are HTML, read
 * with querySourceFeatures, which reads the source's tiles, not the layer).
 */
const PROBE_LAYER = 'devices-probe';

/** Cluster sums by online status, for the cluster bubble's colour ring. */
const CLUSTER_PROPERTIES = {
  online: ['+', ['case', ['==', ['get', 'state'], 1], 1, 0]],
  offline: ['+', ['case', ['==', ['get', 'state'], 2], 1, 0]],
  busy: ['+', ['case', ['all', ['==', ['get', 'state'], 3], ['!', ['get', 'mine']]], 1, 0]],
  mine: ['+', ['case', ['all', ['==', ['get', 'state'], 3], ['get', 'mine']], 1, 0]],
};

/**
 * The fleet map (lazy chunk): MapLibre with a choice of basemaps, the devices as HTML markers coloured by
 * online status, clustered by a GeoJSON source (MARKER_CLUSTER_*). Coordinates are WGS84 everywhere in
 * the app and converted at this boundary when the basemap is GCJ-02 (basemaps.ts).
 */
export default function FleetMap({ devices, selectedSn, onSelect, theme, loaded = true, zones = NO_ZONES, noFly = NO_NO_FLY }: FleetMapProps): ReactNode {
  const { t, lang } = useI18n();
  const [basemap, setBasemap] = useSavedBasemap();
  // The basemap has been drawn once (its first `idle`): data-drawn, which the data-screen bench waits for.
  const [drawn, setDrawn] = useState(false);
  // The devices' source has its data: from the map's first idle on. Until then it is empty, so the
  // screen's rows and the map's style, tiles and first frames are not held behind clustering the fleet in
  // the worker and building its markers; these follow at once.
  const fed = useRef(false);
  const [foundCity, setFoundCity] = useState<City | null>(null);
  const markers = useRef(new Map<string, Marker>());
  const basemapRef = useRef(basemap);
  basemapRef.current = basemap;
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const selectedRef = useRef(selectedSn);
  selectedRef.current = selectedSn;
  const fitted = useRef(false);

  // The previous collection while no marker changed (a battery figure is not on the map): the source is
  // given new data, re-clustered in its worker and the map redrawn only when something it draws changed.
  const lastData = useRef<ReturnType<typeof devicesToGeoJson> | null>(null);
  const data = useMemo(() => {
    const next = devicesToGeoJson(devices, basemap);
    return lastData.current && sameFeatures(lastData.current, next) ? lastData.current : next;
  }, [devices, basemap]);
  lastData.current = data;
  // A device's current marker properties by sn: the source's features lag behind until it has re-indexed.
  const propsBySn = useMemo(() => new Map(data.features.map((f) => [f.properties.sn, f.properties])), [data]);
  const propsRef = useRef(propsBySn);
  propsRef.current = propsBySn;
  const overlay = useFlightOverlay();
  const shownOverlay = overlay.sn && overlay.sn === selectedSn ? overlay : null;
  const overlayData = useMemo(() => overlayGeoJson(shownOverlay ?? { sn: null, route: [], track: [], position: null }, basemap), [shownOverlay, basemap]);
  const overlayRef = useRef(overlayData);
  overlayRef.current = overlayData;
  const dataRef = useRef(data);
  dataRef.current = data;

  // ---------------------------------------------------------------- the map itself
  // The first view: every positioned device when the list is in (tiles are then loaded once, for it),
  // else the default place until the list comes (the effect below). Labels appear without a fade: a map
  // that takes a fleet batch every second would otherwise draw fade frames after each.
  const firstBounds = useRef(boundsOf(data.features.map((f) => f.geometry.coordinates as [number, number])));
  if (firstBounds.current) fitted.current = true;
  const { container, mapRef, ready, failed, cursor } = useConsoleMap({
    basemap,
    theme,
    options: {
      fadeDuration: 0,
      ...(firstBounds.current ? { bounds: firstBounds.current, fitBoundsOptions: { padding: 80, maxZoom: MAP_DEFAULT_ZOOM } } : {}),
    },
    trackCursor: true,
    onStyle: (map) => {
      if (!map.getSource(SOURCE)) {
        map.addSource(SOURCE, {
          type: 'geojson',
          data: fed.current ? dataRef.current : NO_DEVICES,
          cluster: true,
          // Above clusterMaxZoom, so that every device stands alone from MARKER_CLUSTER_MAX_ZOOM + 1 on.
          maxzoom: 22,
          clusterMaxZoom: MARKER_CLUSTER_MAX_ZOOM,
          clusterRadius: MARKER_CLUSTER_GRID_SIZE,
          clusterProperties: CLUSTER_PROPERTIES,
        });
        map.addLayer({ id: PROBE_LAYER, type: 'circle', source: SOURCE, filter: ['boolean', false], paint: { 'circle-radius': 0, 'circle-opacity': 0, 'circle-stroke-width': 0 } });
      }
      if (!map.getSource(FLIGHT_SOURCE)) {
        map.addSource(FLIGHT_SOURCE, { type: 'geojson', data: overlayRef.current });
        for (const l of FLIGHT_LAYERS) map.addLayer({ ...l, source: FLIGHT_SOURCE } as LayerSpecification);
      }
    },
    onCreate: (map) => {
      map.once('idle', () => setDrawn(true));
      map.on('render', () => syncMarkers(map));
      const current = markers.current;
      return () => {
        for (const m of current.values()) m.remove();
        current.clear();
      };
    },
  });

  // ---------------------------------------------------------------- HTML markers from the clustered source
  function syncMarkers(map: MapLibreMap): void {
    if (!map.getSource(SOURCE) || !map.isSourceLoaded(SOURCE)) return;
    const seen = new Set<string>();
    const features = map.querySourceFeatures(SOURCE) as MapGeoJSONFeature[];
    for (const f of features) {
      const coords = (f.geometry as Point).coordinates as [number, number];
      const p = f.properties as Record<string, unknown>;
      const key = p.cluster ? `cluster-${String(p.cluster_id)}` : `device-${String(p.sn)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let marker = markers.current.get(key);
      if (p.cluster) {
        const count = Number(p.point_count);
        const counts = { online: Number(p.online), offline: Number(p.offline), busy: Number(p.busy), mine: Number(p.mine ?? 0) };
        // A cluster's id stays while the fleet keeps its order; its count and shares follow the data.
        if (!marker) {
          const el = clusterElement(count, counts);
          el.addEventListener('click', (ev) => {
            ev.stopPropagation();
            const source = map.getSource<GeoJSONSource>(SOURCE);
            const at = marker!.getLngLat();
            void source?.getClusterExpansionZoom(Number(el.dataset.clusterId)).then((zoom) => map.easeTo({ center: at, zoom }));
          });
          el.dataset.clusterId = String(p.cluster_id);
          marker = new Marker({ element: el }).setLngLat(coords).addTo(map);
          markers.current.set(key, marker);
        } else {
          moveTo(marker, coords);
          updateClusterElement(marker.getElement(), count, counts);
        }
      } else {
        const props = f.properties as MarkerProps;
        const fresh = propsRef.current.get(props.sn) ?? props;
        if (!marker) {
          const el = deviceElement(fresh);
          el.addEventListener('click', (ev) => {
            ev.stopPropagation();
            onSelectRef.current(fresh.sn);
          });
          marker = new Marker({ element: el }).setLngLat(coords).addTo(map);
          markers.current.set(key, marker);
        } else moveTo(marker, coords);
        updateDeviceElement(marker.getElement(), fresh, selectedRef.current === fresh.sn);
      }
    }
    for (const [key, marker] of markers.current) {
      if (!seen.has(key)) {
        marker.remove();
        markers.current.delete(key);
      }
    }
  }

  // ---------------------------------------------------------------- data, basemap, theme, selection
  useEffect(() => {
    const map = mapRef.current;
    const source = map?.getSource<GeoJSONSource>(SOURCE);
    if (!map || !source || !drawn) return;
    fed.current = true;
    // The markers follow on the render after the source has taken the data (syncMarkers): the source's
    // tiles, re-clustered in the worker, ask for that render themselves. Asking now would draw a frame
    // before the new data is in (a whole frame in software WebGL, for each change of the fleet).
    void source.setData(data);
  }, [data, ready, drawn, mapRef]);

  useEffect(() => {
    void mapRef.current?.getSource<GeoJSONSource>(FLIGHT_SOURCE)?.setData(overlayData);
  }, [overlayData, ready, mapRef]);

  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, FLIGHT_LAYERS[0]!.id, 'fixed', noFly);

  // A newly drawn route is brought into view once (the operator may pan away afterwards).
  const fittedRoute = useRef('');
  const route = shownOverlay?.route;
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !route || route.length < 2) return;
    const key = `${shownOverlay?.sn}:${route.length}:${route[0]!.lat}:${route[0]!.lng}`;
    if (fittedRoute.current === key) return;
    fittedRoute.current = key;
    fitCoords(map, route.map((p) => toMap(basemapRef.current, p)), { padding: 120, maxZoom: 18, duration: 600 });
  }, [route, ready, shownOverlay?.sn, mapRef]);

  // First view: every positioned device, else where the operator is.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || fitted.current) return;
    const points = data.features.map((f) => f.geometry.coordinates as [number, number]);
    if (points.length > 0) {
      fitted.current = true;
      fitCoords(map, points, { padding: 80, maxZoom: MAP_DEFAULT_ZOOM, duration: 0 });
    } else if (loaded) {
      // No device to show: where the operator is (browser position, then city search); else stay put.
      fitted.current = true;
      locate()
        .then((p) => map.jumpTo({ center: toMap(basemapRef.current, p), zoom: MAP_DEFAULT_ZOOM }))
        .catch(() => undefined);
    }
  }, [data, ready, loaded, mapRef]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !selectedSn) return;
    const f = dataRef.current.features.find((x) => x.properties.sn === selectedSn);
    if (f) map.easeTo({ center: f.geometry.coordinates as [number, number], zoom: Math.max(map.getZoom(), MAP_DEFAULT_ZOOM) });
    map.triggerRepaint();
  }, [selectedSn, mapRef]);

  const flyTo = (p: LatLng) => mapRef.current?.flyTo({ center: toMap(basemap, p), zoom: MAP_DEFAULT_ZOOM });

  const locateMe = () => {
    locate()
      .then((p) => {
        flyTo(p);
        if (p.source === 'city') notify().info(t('map.locatedByCity', { city: searchCity(p.city ?? '')?.[lang] ?? p.city ?? '' }));
      })
      .catch((err: unknown) => notify().warning(err instanceof LocateError ? t('map.locateFailed') : String(err)));
  };

  const onCitySearch = (text: string) => {
    if (!text.trim()) return;
    const city = searchCity(text);
    if (city) {
      setFoundCity(city);
      flyTo(city);
    } else notify().warning(t('map.cityNotFound', { name: text.trim() }));
  };

  // The city found by the search is marked (a map without detail at that zoom would otherwise show nothing).
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !foundCity) return;
    const el = document.createElement('div');
    el.className = 'city-marker';
    el.setAttribute('data-testid', 'city-marker');
    el.textContent = foundCity[lang];
    const marker = new Marker({ element: el, anchor: 'bottom' }).setLngLat(toMap(basemap, foundCity)).addTo(map);
    return () => {
      marker.remove();
    };
  }, [foundCity, basemap, lang, mapRef]);

  return (
    <div className="fleet-map" data-testid="fleet-map" data-basemap={basemap} data-drawn={drawn ? '1' : '0'}>
      <div ref={container} className="fleet-map-canvas" />
      {failed && (
        <div className="fleet-map-failed" role="status">
          {t('map.unavailable')}
        </div>
      )}
      <BasemapNotice map={ready ? mapRef.current : null} basemap={basemap} onUseOffline={() => setBasemap('offline')} />
      <div className="fleet-map-tools">
        <BasemapSwitch value={basemap} onChange={setBasemap} />
        <Input.Search size="small" allowClear placeholder={t('map.searchCity')} onSearch={onCitySearch} className="fleet-map-search" />
        <Tooltip title={t('map.locate')}>
          <button type="button" className="fleet-map-locate" onClick={locateMe} aria-label={t('map.locate')}>
            <AimOutlined />
          </button>
        </Tooltip>
      </div>
      <div className="fleet-map-legend">
        {([1, 2, 3] as const).map((s) => (
          <span key={s}>
            <i style={{ background: markerColor(s) }} />
            {t(`map.legend.s${s}`)}
          </span>
        ))}
        <span data-testid="legend-mine">
          <i style={{ background: markerColor(3, true) }} />
          {t('fleet.status.mine')}
        </span>
      </div>
      <ZoneLegend zones={zones} noFly={noFly} />
      {cursor && (
        <div className="fleet-map-cursor" data-testid="map-cursor">
          {cursor.lat.toFixed(6)}, {cursor.lng.toFixed(6)}
        </div>
      )}
      {shownOverlay && (
        <div className="fleet-map-flight" data-testid="map-flight" data-sn={shownOverlay.sn} data-route={shownOverlay.route.length} data-track={shownOverlay.track.length}
          data-lat={shownOverlay.position?.lat} data-lng={shownOverlay.position?.lng}>
          <span><i className="legend-route" />{t('map.flight.route')}</span>
          <span><i className="legend-track" />{t('map.flight.track')}</span>
        </div>
      )}
      {/* What the map draws, for tests and assistive tech: every device with its online status. */}
      <ul data-testid="map-devices" className="fleet-map-list" aria-label={t('map.devices')}>
        {devices.map((d) => (
          <MapDeviceItem key={d.sn} device={d} basemap={basemap} />
        ))}
      </ul>
    </div>
  );
}
