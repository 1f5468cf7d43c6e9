import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { FilterSpecification, GeoJSONSource, MapLayerMouseEvent } from 'maplibre-gl';
import type { Feature, FeatureCollection } from 'geojson';
import type { NoFlyZone, Theme, Zone } from '@nest/contracts';
import { useI18n } from '../i18n';
import { fromMap, readBasemap, toMap, type BasemapId, type LatLng } from './basemaps';
import { fitCoords } from './consoleMap';
import { useConsoleMap } from './useConsoleMap';
import { ZoneLegend, useZoneOverlay } from './zoneOverlay';
import './planMap.css';


/**
 * The planning map (lazy chunk): fences, routes, survey areas and transects, zones, and one editable point
 * list (a ring or a path) with drag, insert-at-midpoint, remove and add-by-click, drawn with MapLibre
 * sources/layers and pointer events. Everything is WGS84 outside; converted at this boundary (toMap /
 * fromMap) when the basemap is GCJ-02, like FleetMap.
 */
export interface PlanShape {
  id: string;
  kind: 'fence' | 'fence-other' | 'area' | 'route' | 'transect' | 'zone';
  points: readonly LatLng[];
  /** Colour override (zones). */
  color?: string;
}

export interface PlanEdit {
  points: readonly LatLng[];
  closed: boolean;
  /** Red points / edges (edge i runs from point i to i + 1). */
  badPoints?: ReadonlySet<number>;
  badEdges?: ReadonlySet<number>;
  selected?: number | null;
  /** No insert handles on the edges (a circle's centre and radius handle are not a path). */
  noInsert?: boolean;
  onAdd?: (p: LatLng) => void;
  onMove: (index: number, p: LatLng) => void;
  /** Insert a point before `index`. */
  onInsert: (index: number, p: LatLng) => void;
  onRemove: (index: number) => void;
  onSelect: (index: number | null) => void;
}

export interface PlanMapProps {
  theme: Theme;
  shapes: readonly PlanShape[];
  edit: PlanEdit | null;
  /** Points to show at first (fitted once they exist); `fitKey` changes refit. */
  fit?: readonly LatLng[];
  fitKey?: string;
  /** Red markers (issues without an item). */
  marks?: readonly LatLng[];
  /** Map zones, drawn below the shapes (the name of the zone under the pointer) with the legend of their kinds. */
  zones?: readonly Zone[];
  /** The company's no-fly zones, drawn with the map zones (inactive ones dashed) and in the legend. */
  noFly?: readonly NoFlyZone[];
}

const SHAPES = 'plan-shapes';
const EDIT = 'plan-edit';
const COLORS = { fence: '#2f7cf6', 'fence-other': '#8a94a6', area: '#f5a524', route: '#22c55e', transect: '#22c55e', zone: '#ef4444', bad: '#ef4444' };

type Props = Record<string, string | number | boolean>;
const feature = (geometry: Feature['geometry'], properties: Props): Feature => ({ type: 'Feature', geometry, properties });

export function shapesToGeoJson(basemap: BasemapId, shapes: readonly PlanShape[]): FeatureCollection {
  const features: Feature[] = [];
  for (const s of shapes) {
    const coords = s.points.map((p) => toMap(basemap, p));
    const color = s.color ?? COLORS[s.kind];
    const closed = s.kind === 'fence' || s.kind === 'fence-other' || s.kind === 'area' || s.kind === 'zone';
    if (closed && coords.length >= 3) features.push(feature({ type: 'Polygon', coordinates: [[...coords, coords[0]!]] }, { kind: s.kind, color, id: s.id }));
    else if (coords.length >= 2) features.push(feature({ type: 'LineString', coordinates: coords }, { kind: s.kind, color, id: s.id }));
  }
  return { type: 'FeatureCollection', features };
}

/** The editable list as features: edges (bad ones flagged), midpoints (insert handles) and vertices. */
export function editToGeoJson(basemap: BasemapId, edit: PlanEdit | null, marks: readonly LatLng[] = []): FeatureCollection {
  const features: Feature[] = [];
  for (const m of marks) features.push(feature({ type: 'Point', coordinates: toMap(basemap, m) }, { role: 'mark' }));
  if (!edit) return { type: 'FeatureCollection', features };
  const pts = edit.points.map((p) => toMap(basemap, p));
  const n = pts.length;
  const edges = edit.closed && n >= 3 ? n : n - 1;
  for (let i = 0; i < edges; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    const bad = edit.badEdges?.has(i) ?? false;
    features.push(feature({ type: 'LineString', coordinates: [a, b] }, { role: 'edge', i, bad }));
    if (!edit.noInsert)
      features.push(feature({ type: 'Point', coordinates: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] }, { role: 'mid', i: (i + 1) % n === 0 ? n : i + 1 }));
  }
  pts.forEach((c, i) =>
    features.push(feature({ type: 'Point', coordinates: c }, { role: 'vertex', i, label: String(i + 1), bad: edit.badPoints?.has(i) ?? false, selected: edit.selected === i })),
  );
  return { type: 'FeatureCollection', features };
}

const NO_ZONES: readonly Zone[] = [];
const NO_NO_FLY: readonly NoFlyZone[] = [];

export default function PlanMap({ theme, shapes, edit, fit, fitKey, marks, zones = NO_ZONES, noFly = NO_NO_FLY }: PlanMapProps): ReactNode {
  const { t, lang } = useI18n();
  const [basemap] = useState<BasemapId>(readBasemap);
  const editRef = useRef(edit);
  editRef.current = edit;
  const dataRef = useRef({ shapes: shapesToGeoJson(basemap, shapes), edit: editToGeoJson(basemap, edit, marks) });
  dataRef.current = { shapes: shapesToGeoJson(basemap, shapes), edit: editToGeoJson(basemap, edit, marks) };
  const fitted = useRef<string | null>(null);
  // The key of the last fit, on the element: tests wait for the map to be fitted before clicking on it.
  const [fittedKey, setFittedKey] = useState<string | null>(null);

  const { container, mapRef, ready, failed, cursor } = useConsoleMap({
    basemap,
    theme,
    // Double clicks belong to editing (adding points), not to zooming.
    options: { doubleClickZoom: false },
    trackCursor: true,
    onStyle: (map) => {
      if (!map.getSource(SHAPES)) {
        map.addSource(SHAPES, { type: 'geojson', data: dataRef.current.shapes });
        map.addSource(EDIT, { type: 'geojson', data: dataRef.current.edit });
        const poly: FilterSpecification = ['==', ['geometry-type'], 'Polygon'];
        map.addLayer({ id: 'shape-fill', type: 'fill', source: SHAPES, filter: poly, paint: { 'fill-color': ['get', 'color'], 'fill-opacity': ['match', ['get', 'kind'], 'zone', 0.22, 'fence-other', 0.06, 0.12] } });
        map.addLayer({ id: 'shape-line', type: 'line', source: SHAPES, paint: { 'line-color': ['get', 'color'], 'line-width': ['match', ['get', 'kind'], 'transect', 1.5, 'route', 3, 2], 'line-dasharray': ['match', ['get', 'kind'], 'fence-other', ['literal', [2, 2]], ['literal', [1, 0]]] } });
        map.addLayer({ id: 'edit-edge', type: 'line', source: EDIT, filter: ['==', ['get', 'role'], 'edge'], paint: { 'line-color': ['case', ['get', 'bad'], COLORS.bad, '#ffffff'], 'line-width': ['case', ['get', 'bad'], 4, 2], 'line-opacity': 0.9 } });
        map.addLayer({ id: 'edit-mid', type: 'circle', source: EDIT, filter: ['==', ['get', 'role'], 'mid'], paint: { 'circle-radius': 4, 'circle-color': '#ffffff', 'circle-opacity': 0.7, 'circle-stroke-color': '#2f7cf6', 'circle-stroke-width': 1 } });
        map.addLayer({ id: 'edit-mark', type: 'circle', source: EDIT, filter: ['==', ['get', 'role'], 'mark'], paint: { 'circle-radius': 9, 'circle-color': COLORS.bad, 'circle-opacity': 0.35, 'circle-stroke-color': COLORS.bad, 'circle-stroke-width': 2 } });
        map.addLayer({ id: 'edit-vertex', type: 'circle', source: EDIT, filter: ['==', ['get', 'role'], 'vertex'], paint: { 'circle-radius': ['case', ['get', 'selected'], 9, 7], 'circle-color': ['case', ['get', 'bad'], COLORS.bad, '#2f7cf6'], 'circle-stroke-color': ['case', ['get', 'selected'], '#facc15', '#ffffff'], 'circle-stroke-width': 2 } });
      }
    },
    onCreate: (map) => {
      // ------------------------------------------------------------ pointer editing
      let drag: { role: 'vertex' | 'mid'; i: number; moved: boolean } | null = null;
      const hit = (e: MapLayerMouseEvent | { point: { x: number; y: number } }) => {
        if (!map.getLayer('edit-vertex')) return null;
        const f = map.queryRenderedFeatures([[e.point.x - 6, e.point.y - 6], [e.point.x + 6, e.point.y + 6]], { layers: ['edit-vertex', 'edit-mid'] })[0];
        if (!f) return null;
        const p = f.properties as { role: 'vertex' | 'mid'; i: number };
        return { role: p.role, i: Number(p.i) };
      };
      map.on('mousedown', (e) => {
        if (e.originalEvent.button !== 0 || !editRef.current) return;
        const h = hit(e);
        if (!h) return;
        e.preventDefault();
        drag = { ...h, moved: false };
        map.dragPan.disable();
        map.getCanvas().style.cursor = 'grabbing';
      });
      map.on('mousemove', (e) => {
        if (!drag) {
          map.getCanvas().style.cursor = editRef.current ? (hit(e) ? 'grab' : 'crosshair') : '';
          return;
        }
        drag.moved = true;
        // Live feedback: move the handle in the drawn data only; the store changes once, on release.
        const src = map.getSource<GeoJSONSource>(EDIT);
        const d = dataRef.current.edit;
        const f = d.features.find((x) => x.properties?.role === drag!.role && x.properties?.i === drag!.i);
        if (src && f && f.geometry.type === 'Point') {
          f.geometry.coordinates = [e.lngLat.lng, e.lngLat.lat];
          void src.setData(d);
        }
      });
      map.on('mouseup', (e) => {
        if (!drag) return;
        const d = drag;
        drag = null;
        map.dragPan.enable();
        const ed = editRef.current;
        if (!ed) return;
        const p = fromMap(basemap, e.lngLat.lng, e.lngLat.lat);
        if (d.moved) {
          if (d.role === 'vertex') ed.onMove(d.i, p);
          else ed.onInsert(d.i, p);
        } else if (d.role === 'vertex') ed.onSelect(d.i);
        else ed.onInsert(d.i, p);
        // A click follows mouseup: swallow it so it does not add a point.
        swallowClick = true;
      });
      let swallowClick = false;
      map.on('click', (e) => {
        if (swallowClick) {
          swallowClick = false;
          return;
        }
        const ed = editRef.current;
        if (!ed) return;
        if (hit(e)) return;
        if (ed.onAdd) ed.onAdd(fromMap(basemap, e.lngLat.lng, e.lngLat.lat));
        else ed.onSelect(null);
      });
      map.on('contextmenu', (e) => {
        const ed = editRef.current;
        const h = hit(e);
        if (ed && h?.role === 'vertex') ed.onRemove(h.i);
      });
    },
  });

  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, 'shape-fill', 'hover', noFly);

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready) return;
    void map.getSource<GeoJSONSource>(SHAPES)?.setData(dataRef.current.shapes);
    void map.getSource<GeoJSONSource>(EDIT)?.setData(dataRef.current.edit);
  });

  useEffect(() => {
    const map = mapRef.current;
    if (!map || !ready || !fit || fit.length === 0) return;
    const key = fitKey ?? 'once';
    if (fitted.current === key) return;
    fitted.current = key;
    fitCoords(map, fit.map((p) => toMap(basemap, p)), { padding: 80, maxZoom: 17, duration: 0 });
    setFittedKey(key);
  }, [ready, fit, fitKey, basemap, mapRef]);

  return (
    <div className="fleet-map plan-map" data-testid="plan-map" data-ready={ready ? '1' : '0'} data-basemap={basemap} data-fitted={fittedKey ?? ''}>
      <div ref={container} className="fleet-map-canvas" data-testid="plan-map-canvas" />
      {failed && (
        <div className="fleet-map-failed" role="status">
          {t('map.unavailable')}
        </div>
      )}
      <ZoneLegend zones={zones} noFly={noFly} />
      {cursor && (
        <div className="fleet-map-cursor" data-testid="map-cursor">
          {cursor.lat.toFixed(6)}, {cursor.lng.toFixed(6)}
        </div>
      )}
      {/* What is being edited, for tests and assistive tech. */}
      <ol data-testid="plan-points" className="fleet-map-list">
        {edit?.points.map((p, i) => (
          <li key={i} data-lat={p.lat} data-lng={p.lng} data-bad={edit.badPoints?.has(i) ? '1' : '0'}>
            {i + 1}
          </li>
        ))}
      </ol>
    </div>
  );
}
