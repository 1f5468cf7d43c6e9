import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Marker, type GeoJSONSource, type LayerSpecification } from 'maplibre-gl';
import type { PlannedPoint, Theme } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { BasemapNotice } from '../../shared/map/BasemapNotice';
import { BasemapSwitch } from '../../shared/map/BasemapSwitch';
import { toMap } from '../../shared/map/basemaps';
import { useConsoleMap, useSavedBasemap } from '../../shared/map/useConsoleMap';
import { useNoFlyZones } from '../../shared/map/noFly';
import { ZoneLegend, useZoneOverlay } from '../../shared/map/zoneOverlay';
import { useZones } from '../../shared/map/zones';
import { boundsOf, screenRotation, type ReplaySample, type TrackPoint } from './replay';

/** A result placed on the map (WGS84) with where it sits on the timeline. */
export interface MapPhoto {
  id: string;
  type: number;
  lat: number;
  lng: number;
  thumb: string;
  name: string;
  /** Absolute ms on the track's clock. */
  time: number;
}

export interface ReplayMapProps {
  points: readonly TrackPoint[];
  planned: readonly PlannedPoint[];
  photos: readonly MapPhoto[];
  sample: ReplaySample | null;
  theme: Theme;
  onPhoto: (photo: MapPhoto) => void;
}

const SOURCE = 'replay';
/**
 * Planned route in amber dashes, the whole flown track dim and the part already played bright cyan over a
 * dark casing, so the three read apart on the dark, light and satellite basemaps.
 */
/** A layer added later under its source: each layer kind keeps its own paint, layout and filter types. */
type SourcelessLayer = LayerSpecification extends infer L ? (L extends { source: string } ? Omit<L, 'source'> : never) : never;
const LAYERS: SourcelessLayer[] = [
  { id: 'replay-planned', type: 'line', filter: ['==', ['get', 'kind'], 'planned'], layout: { 'line-join': 'round' }, paint: { 'line-color': '#ffb020', 'line-width': 2.5, 'line-dasharray': [2, 1.6], 'line-opacity': 0.9 } },
  { id: 'replay-planned-vertex', type: 'circle', filter: ['==', ['get', 'kind'], 'vertex'], paint: { 'circle-radius': 4, 'circle-color': '#1a1200', 'circle-stroke-color': '#ffb020', 'circle-stroke-width': 2 } },
  { id: 'replay-track', type: 'line', filter: ['==', ['get', 'kind'], 'track'], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#5b8cff', 'line-width': 3, 'line-opacity': 0.55 } },
  { id: 'replay-played-casing', type: 'line', filter: ['==', ['get', 'kind'], 'played'], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#031326', 'line-width': 7, 'line-opacity': 0.55 } },
  { id: 'replay-played', type: 'line', filter: ['==', ['get', 'kind'], 'played'], layout: { 'line-join': 'round', 'line-cap': 'round' }, paint: { 'line-color': '#22e3ff', 'line-width': 4 } },
];

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Quadcopter from above, nose up: rotated by heading minus map bearing. */
const AIRCRAFT_PATH =
  'M12 2l2.6 5.2h-1.5v3.3l6 3.4v2l-6-2v3.8l2 1.6v1.5L12 19.7l-3.1 1.1v-1.5l2-1.6v-3.8l-6 2v-2l6-3.4V7.2H9.4z';

function aircraftElement(label: string): HTMLElement {
  const el = document.createElement('div');
  el.className = 'replay-aircraft';
  el.setAttribute('data-testid', 'replay-aircraft');
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', label);
  const icon = document.createElement('div');
  icon.className = 'replay-aircraft-icon';
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(SVG_NS, 'path');
  p.setAttribute('d', AIRCRAFT_PATH);
  svg.appendChild(p);
  icon.appendChild(svg);
  el.appendChild(icon);
  return el;
}

function pinElement(kind: 'start' | 'end', label: string): HTMLElement {
  const el = document.createElement('div');
  el.className = `replay-pin replay-pin-${kind}`;
  el.setAttribute('data-testid', `replay-${kind}`);
  el.title = label;
  el.textContent = label;
  return el;
}

function waypointElement(n: number, label: string): HTMLElement {
  const el = document.createElement('div');
  el.className = 'replay-waypoint';
  el.setAttribute('data-testid', 'replay-waypoint');
  el.title = label;
  el.textContent = String(n);
  return el;
}

/** Letters of the result types on their markers (image, panorama, video). */
const TYPE_CLASS: Readonly<Record<number, string>> = { 10: 'image', 15: 'panorama', 20: 'video' };

function photoElement(photo: MapPhoto, onClick: () => void): HTMLElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.className = `replay-photo replay-photo-${TYPE_CLASS[photo.type] ?? 'image'}`;
  el.setAttribute('data-testid', 'replay-photo');
  el.dataset.id = photo.id;
  el.dataset.type = String(photo.type);
  el.dataset.lat = String(photo.lat);
  el.dataset.lng = String(photo.lng);
  el.title = photo.name;
  el.setAttribute('aria-label', photo.name);
  if (photo.thumb) {
    const img = document.createElement('img');
    img.src = photo.thumb;
    img.alt = '';
    img.loading = 'lazy';
    img.draggable = false;
    el.appendChild(img);
  }
  el.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onClick();
  });
  return el;
}

/**
 * The replay map (lazy chunk): the console map with a basemap choice, the planned route, the flown track
 * (played part bright), start and end pins, results where they were taken and the aircraft at the cursor.
 * Positions are WGS84 and go through toMap, so GCJ-02 basemaps (AMap) line up.
 */
export default function ReplayMap({ points, planned, photos, sample, theme, onPhoto }: ReplayMapProps): ReactNode {
  const { t, lang } = useI18n();
  const [basemap, setBasemap] = useSavedBasemap();
  const zones = useZones();
  const noFly = useNoFlyZones();
  const [bearing, setBearing] = useState(0);
  const basemapRef = useRef(basemap);
  basemapRef.current = basemap;
  const onPhotoRef = useRef(onPhoto);
  onPhotoRef.current = onPhoto;

  const trackCoords = useMemo(() => points.map((p) => toMap(basemap, p)), [points, basemap]);
  const plannedCoords = useMemo(() => planned.map((p) => toMap(basemap, p)), [planned, basemap]);
  const here = sample ? toMap(basemap, sample) : null;
  const playedIndex = sample?.index ?? -1;

  const staticData = useMemo<GeoJSON.FeatureCollection>(() => {
    const features: GeoJSON.Feature[] = [];
    if (plannedCoords.length > 1) features.push({ type: 'Feature', properties: { kind: 'planned' }, geometry: { type: 'LineString', coordinates: plannedCoords } });
    for (const c of plannedCoords) features.push({ type: 'Feature', properties: { kind: 'vertex' }, geometry: { type: 'Point', coordinates: c } });
    if (trackCoords.length > 1) features.push({ type: 'Feature', properties: { kind: 'track' }, geometry: { type: 'LineString', coordinates: trackCoords } });
    return { type: 'FeatureCollection', features };
  }, [plannedCoords, trackCoords]);

  // `here` is a new array every frame; its coordinates are what matter.
  const [hereLng, hereLat] = here ?? [];
  const played = useMemo<GeoJSON.FeatureCollection>(() => {
    if (playedIndex < 0 || hereLng === undefined || hereLat === undefined) return { type: 'FeatureCollection', features: [] };
    const coords = [...trackCoords.slice(0, playedIndex + 1), [hereLng, hereLat]];
    return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { kind: 'played' }, geometry: { type: 'LineString', coordinates: coords } }] };
  }, [trackCoords, playedIndex, hereLng, hereLat]);

  const dataRef = useRef({ staticData, played });
  dataRef.current = { staticData, played };

  // ---------------------------------------------------------------- the map itself
  const { container, mapRef, ready, failed } = useConsoleMap({
    basemap,
    theme,
    onStyle: (map) => {
      if (!map.getSource(SOURCE)) {
        map.addSource(SOURCE, { type: 'geojson', data: dataRef.current.staticData });
        map.addSource(`${SOURCE}-played`, { type: 'geojson', data: dataRef.current.played });
        for (const l of LAYERS) {
          const source = l.id.startsWith('replay-played') ? `${SOURCE}-played` : SOURCE;
          map.addLayer({ ...l, source } as LayerSpecification);
        }
      }
    },
    onCreate: (map) => {
      map.on('rotate', () => setBearing(map.getBearing()));
    },
  });

  // The public and company no-fly zones under the planned route and the track, which stay readable over them.
  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, LAYERS[0]!.id, 'fixed', noFly);

  useEffect(() => {
    void mapRef.current?.getSource<GeoJSONSource>(SOURCE)?.setData(staticData);
  }, [staticData, ready, mapRef]);

  useEffect(() => {
    void mapRef.current?.getSource<GeoJSONSource>(`${SOURCE}-played`)?.setData(played);
  }, [played, ready, mapRef]);

  // Fit the whole flight (track, plan and results) once, when the map first has a style.
  const fitted = useRef(false);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || fitted.current) return;
    const b = boundsOf([...trackCoords, ...plannedCoords, ...photos.map((p) => toMap(basemap, p))]);
    if (!b) return;
    fitted.current = true;
    map.fitBounds(b, { padding: { top: 70, bottom: 50, left: 60, right: 60 }, maxZoom: 18, duration: 0 });
  }, [ready, trackCoords, plannedCoords, photos, basemap, mapRef]);

  // ---------------------------------------------------------------- DOM markers
  const pins = useRef<Marker[]>([]);
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const made: Marker[] = [];
    // Waypoint numbers sit beside their vertex (a photo taken there takes the vertex itself); start and end
    // pins lean apart, since a patrol usually ends where it started.
    plannedCoords.forEach((c, i) =>
      made.push(new Marker({ element: waypointElement(i + 1, t('routeReplay.map.waypoint', { n: i + 1 })), anchor: 'top-left', offset: [5, 5] }).setLngLat(c).addTo(map)),
    );
    if (trackCoords.length > 0) {
      made.push(new Marker({ element: pinElement('start', t('routeReplay.map.start')), anchor: 'bottom-left' }).setLngLat(trackCoords[0]!).addTo(map));
      if (trackCoords.length > 1) made.push(new Marker({ element: pinElement('end', t('routeReplay.map.end')), anchor: 'bottom-right' }).setLngLat(trackCoords.at(-1)!).addTo(map));
    }
    pins.current = made;
    return () => made.forEach((m) => m.remove());
  }, [trackCoords, plannedCoords, t, mapRef]);

  const photoMarkers = useRef(new Map<string, Marker>());
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const made = new Map<string, Marker>();
    for (const p of photos) {
      made.set(p.id, new Marker({ element: photoElement(p, () => onPhotoRef.current(p)) }).setLngLat(toMap(basemap, p)).addTo(map));
    }
    photoMarkers.current = made;
    return () => made.forEach((m) => m.remove());
  }, [photos, basemap, mapRef]);

  // Results already passed by the cursor are lit.
  const now = sample?.t ?? -Infinity;
  useEffect(() => {
    for (const p of photos) photoMarkers.current.get(p.id)?.getElement().classList.toggle('is-passed', p.time <= now);
  }, [photos, now]);

  const aircraft = useRef<Marker | null>(null);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !sample || !here) {
      aircraft.current?.remove();
      aircraft.current = null;
      return;
    }
    if (!aircraft.current) aircraft.current = new Marker({ element: aircraftElement(t('routeReplay.map.aircraft')) }).setLngLat(here).addTo(map);
    else aircraft.current.setLngLat(here);
    const el = aircraft.current.getElement();
    el.dataset.lat = sample.lat.toFixed(7);
    el.dataset.lng = sample.lng.toFixed(7);
    el.dataset.heading = sample.heading.toFixed(1);
    el.querySelector<HTMLElement>('.replay-aircraft-icon')!.style.transform = `rotate(${screenRotation(sample.heading, bearing).toFixed(1)}deg)`;
  });
  useEffect(
    () => () => {
      aircraft.current?.remove();
      aircraft.current = null;
    },
    [],
  );

  const follow = () => {
    if (here) mapRef.current?.easeTo({ center: here, duration: 400 });
  };

  return (
    <div className="replay-map" data-testid="replay-map" data-basemap={basemap}>
      <div ref={container} className="replay-map-canvas" />
      {failed && (
        <div className="replay-map-failed" role="status">
          {t('map.unavailable')}
        </div>
      )}
      <BasemapNotice map={ready ? mapRef.current : null} basemap={basemap} onUseOffline={() => setBasemap('offline')} />
      <div className="replay-map-tools">
        <BasemapSwitch value={basemap} onChange={setBasemap} />
        <button type="button" className="replay-map-button" onClick={follow} disabled={!here} data-testid="replay-center">
          {t('routeReplay.map.center')}
        </button>
      </div>
      <div className="replay-map-legends">
        <div className="replay-map-legend">
          <span><i className="legend-planned" />{t('routeReplay.map.planned')}</span>
          <span><i className="legend-track" />{t('routeReplay.map.track')}</span>
          <span><i className="legend-played" />{t('routeReplay.map.played')}</span>
        </div>
        <ZoneLegend zones={zones} noFly={noFly} />
      </div>
    </div>
  );
}
