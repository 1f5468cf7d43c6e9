import { useEffect, useMemo, type ReactNode } from 'react';
import { Marker, type GeoJSONSource, type MapLayerMouseEvent, type Map as MapLibreMap } from 'maplibre-gl';
import type { Feature, FeatureCollection } from 'geojson';
import { ZoneType, type Lang, type LatLng, type NoFlyZone, type Zone } from '@nest/contracts';
import { noFlyRing, ringLabelPoint } from '@nest/geo';
import { t as text, useI18n } from '../i18n';
import { toMap, type BasemapId } from './basemaps';
import { NO_FLY_COLORS, noFlyStatus } from './noFly';
import './zones.css';

/**
 * The map zones on a console map (lazy chunk, with the maps): the public zones, each filled and outlined in
 * its own colours, and the company's no-fly zones in the colour of their own (a circle drawn as a circle,
 * geo's noFlyRing; a zone outside its validity period dashed and paler, labelled as such), each with its
 * kind and name in the operator's language, and the legend. The name is an HTML label that lets clicks
 * through to the map: written inside the zone (at geo's ringLabelPoint) on the fleet map, or shown over the
 * zone under the pointer on the planning map, where a fixed label would hide the waypoints and vertices
 * being edited. WGS84 outside, converted at this boundary like the maps' other overlays.
 */

/** How a zone's name is shown: written inside it, or over the zone under the pointer. */
export type ZoneLabels = 'fixed' | 'hover';

const SOURCE = 'map-zones';
const FILL = 'zone-fill';
const LINE = 'zone-line';

/** Colours of a kind when no zone of that kind gives its own (the zones resource's demo style). */
const KIND_COLORS: Readonly<Record<number, { stroke: string; fill: string }>> = {
  1: { stroke: '#e5484d', fill: 'rgba(229,72,77,0.25)' },
  2: { stroke: '#f5a623', fill: 'rgba(245,166,35,0.2)' },
  3: { stroke: '#30a46c', fill: 'rgba(48,164,108,0.15)' },
};
const OTHER = { stroke: '#8a94a6', fill: 'rgba(138,148,166,0.15)' };
/** Dash of an inactive no-fly zone's outline (line widths). */
const DASH = [2, 2];

const colorsOf = (z: Pick<Zone, 'type' | 'stroke_color' | 'solid_color'>) => {
  const d = KIND_COLORS[z.type] ?? OTHER;
  return { stroke: z.stroke_color || d.stroke, fill: z.solid_color || d.fill };
};

/** The id of a no-fly zone's feature and label (public zone ids are the resource's own). */
export const noFlyFeatureId = (id: string): string => `nofly:${id}`;

/** One drawn zone, public or the company's: its ring, colours, outline and label. */
interface DrawnZone {
  id: string;
  ring: readonly LatLng[];
  stroke: string;
  fill: string;
  width: number;
  dashed: boolean;
  kind: string;
  name: string;
  /** Said after the name (a no-fly zone's status while it does not restrict). */
  note?: string;
}

const drawnPublic = (z: Zone, lang: Lang): DrawnZone => {
  const { stroke, fill } = colorsOf(z);
  return { id: z.id, ring: z.paths, stroke, fill, width: z.stroke_width || 1, dashed: false, kind: ZoneType.label(z.type, lang), name: z.name[lang] };
};

const drawnNoFly = (z: NoFlyZone, nowS: number, lang: Lang): DrawnZone => {
  const status = noFlyStatus(z, nowS);
  const active = status === 'active';
  return {
    id: noFlyFeatureId(z.id),
    ring: noFlyRing(z),
    stroke: NO_FLY_COLORS.stroke,
    fill: active ? NO_FLY_COLORS.fill : NO_FLY_COLORS.inactiveFill,
    width: 2,
    dashed: !active,
    kind: text('map.noFly.kind', undefined, lang),
    name: z.name,
    ...(active ? {} : { note: text(`map.noFly.status.${status}`, undefined, lang) }),
  };
};

/** The drawn polygons in the basemap's coordinates, with their colours, line width and dash. */
function drawnToGeoJson(basemap: BasemapId, drawn: readonly DrawnZone[]): FeatureCollection {
  const features: Feature[] = drawn
    .filter((z) => z.ring.length >= 3)
    .map((z) => {
      const ring = z.ring.map((p) => toMap(basemap, p));
      return {
        type: 'Feature',
        properties: { id: z.id, stroke: z.stroke, fill: z.fill, width: z.width, dashed: z.dashed },
        geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] },
      };
    });
  return { type: 'FeatureCollection', features };
}

/** The zones as GeoJSON polygons in the basemap's coordinates, with their colours and line width. */
export function zonesToGeoJson(basemap: BasemapId, zones: readonly Zone[]): FeatureCollection {
  const features = drawnToGeoJson(basemap, zones.map((z) => drawnPublic(z, 'zh'))).features;
  features.forEach((f, i) => Object.assign(f.properties!, { type: zones[i]!.type }));
  return { type: 'FeatureCollection', features };
}

/** The company's no-fly zones as GeoJSON polygons (a circle as its ring), an inactive one `dashed`. */
export function noFlyToGeoJson(basemap: BasemapId, zones: readonly NoFlyZone[], nowS: number): FeatureCollection {
  return drawnToGeoJson(basemap, zones.map((z) => drawnNoFly(z, nowS, 'zh')));
}

/** Smallest on-screen extent (px) of a zone whose fixed label is written. */
export const ZONE_LABEL_MIN_PX = 120;

/** Whether a zone drawn at these screen points (px) is large enough to hold its label. */
export function zoneLabelFits(points: readonly { x: number; y: number }[]): boolean {
  if (points.length === 0) return false;
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) >= ZONE_LABEL_MIN_PX;
}

/** A label: the kind, then the name (and a note), in the zone's colour. */
function labelElement(z: Pick<DrawnZone, 'id' | 'stroke' | 'kind' | 'name' | 'note'>): HTMLElement {
  const el = document.createElement('div');
  el.className = 'zone-label';
  el.setAttribute('data-testid', 'zone-label');
  el.setAttribute('data-zone', z.id);
  el.style.setProperty('--zone-color', z.stroke);
  const kind = document.createElement('span');
  kind.className = 'zone-label-kind';
  kind.textContent = z.kind;
  const name = document.createElement('span');
  name.textContent = z.name;
  el.append(kind, name);
  if (z.note) {
    const note = document.createElement('span');
    note.className = 'zone-label-note';
    note.textContent = z.note;
    el.append(note);
  }
  return el;
}

/** The label of a zone: its kind, then its name, in the zone's colour. */
export const zoneLabelElement = (z: Zone, lang: Lang): HTMLElement => labelElement(drawnPublic(z, lang));

/** The label of a company no-fly zone: its kind, its name, and its status while it does not restrict. */
export const noFlyLabelElement = (z: NoFlyZone, lang: Lang, nowS: number): HTMLElement => labelElement(drawnNoFly(z, nowS, lang));

/**
 * Draws the zones and the company's no-fly zones (`noFly`) on `map` (null while its style loads: the layers
 * are added again after every style change), below `beforeLayer` when the map has it, and their labels in
 * `lang`.
 */
export function useZoneOverlay(
  map: MapLibreMap | null,
  zones: readonly Zone[],
  basemap: BasemapId,
  lang: Lang,
  beforeLayer?: string,
  labels: ZoneLabels = 'fixed',
  noFly: readonly NoFlyZone[] = NO_NO_FLY,
): void {
  // Public zones first: a company zone over a public one stays visible. Statuses as of this render.
  const drawn = useMemo(() => {
    const nowS = Date.now() / 1000;
    return [...zones.map((z) => drawnPublic(z, lang)), ...noFly.map((z) => drawnNoFly(z, nowS, lang))];
  }, [zones, noFly, lang]);

  useEffect(() => {
    if (!map) return;
    const data = drawnToGeoJson(basemap, drawn);
    const source = map.getSource<GeoJSONSource>(SOURCE);
    if (source) {
      void source.setData(data);
      return;
    }
    map.addSource(SOURCE, { type: 'geojson', data });
    const before = beforeLayer && map.getLayer(beforeLayer) ? beforeLayer : undefined;
    map.addLayer({ id: FILL, type: 'fill', source: SOURCE, paint: { 'fill-color': ['get', 'fill'] } }, before);
    map.addLayer(
      {
        id: LINE,
        type: 'line',
        source: SOURCE,
        paint: {
          'line-color': ['get', 'stroke'],
          'line-width': ['get', 'width'],
          'line-dasharray': ['case', ['get', 'dashed'], ['literal', DASH], ['literal', [1, 0]]],
        },
      },
      before,
    );
  }, [map, drawn, basemap, beforeLayer]);

  useEffect(() => {
    if (!map || labels !== 'fixed') return;
    const placed = drawn.flatMap((z) => {
      const at = ringLabelPoint(z.ring);
      if (!at) return [];
      const corners = z.ring.map((p) => toMap(basemap, p));
      const marker = new Marker({ element: labelElement(z) }).setLngLat(toMap(basemap, at)).addTo(map);
      return [{ marker, corners }];
    });
    // A label is written only while its zone is drawn large enough to hold it: zoomed out, the labels of
    // neighbouring zones would pile up over each other and over the devices (the legend still names the kinds).
    const fit = () => {
      for (const { marker, corners } of placed) {
        marker.getElement().classList.toggle('is-hidden', !zoneLabelFits(corners.map((c) => map.project(c))));
      }
    };
    fit();
    map.on('zoom', fit);
    return () => {
      map.off('zoom', fit);
      placed.forEach(({ marker }) => marker.remove());
    };
  }, [map, drawn, basemap, labels]);

  useEffect(() => {
    if (!map || labels !== 'hover') return;
    const byId = new Map(drawn.map((z) => [z.id, z]));
    let shown: { id: string; marker: Marker } | null = null;
    const hide = () => {
      shown?.marker.remove();
      shown = null;
    };
    const move = (e: MapLayerMouseEvent) => {
      // The topmost zone under the pointer (MapLibre lists it first): a company zone over a public one.
      const z = byId.get(String(e.features?.[0]?.properties?.id ?? ''));
      if (!z) return hide();
      if (shown?.id !== z.id) {
        hide();
        const marker = new Marker({ element: labelElement(z), anchor: 'bottom', offset: [0, -14] });
        shown = { id: z.id, marker: marker.setLngLat(e.lngLat).addTo(map) };
      } else shown.marker.setLngLat(e.lngLat);
    };
    map.on('mousemove', FILL, move);
    map.on('mouseleave', FILL, hide);
    return () => {
      map.off('mousemove', FILL, move);
      map.off('mouseleave', FILL, hide);
      hide();
    };
  }, [map, drawn, labels]);
}

const NO_NO_FLY: readonly NoFlyZone[] = [];

/**
 * The legend of the zone kinds (colour and name of no-fly, restricted and work zones, and of the company's
 * no-fly zones, with the dashed outline of one outside its validity period when there is such a zone), shown
 * while the map has zones, and the zones themselves as a list for tests and assistive tech.
 */
export function ZoneLegend({ zones, noFly = NO_NO_FLY }: { zones: readonly Zone[]; noFly?: readonly NoFlyZone[] }): ReactNode {
  const { t, lang } = useI18n();
  if (zones.length === 0 && noFly.length === 0) return null;
  const nowS = Date.now() / 1000;
  const inactive = noFly.some((z) => !z.active);
  return (
    <>
      <div className="map-zone-legend" data-testid="zone-legend" role="group" aria-label={t('map.zoneLegend')}>
        {ZoneType.entries.map(({ value, label }) => {
          const c = colorsOf(zones.find((z) => z.type === value) ?? { type: value, stroke_color: '', solid_color: '' });
          return (
            <span key={value} data-kind={value}>
              <i style={{ background: c.fill, borderColor: c.stroke }} />
              {label[lang]}
            </span>
          );
        })}
        {noFly.length > 0 && (
          <span data-kind="nofly">
            <i style={{ background: NO_FLY_COLORS.fill, borderColor: NO_FLY_COLORS.stroke }} />
            {t('map.noFly.legend')}
          </span>
        )}
        {inactive && (
          <span data-kind="nofly-inactive">
            <i className="is-dashed" style={{ background: NO_FLY_COLORS.inactiveFill, borderColor: NO_FLY_COLORS.stroke }} />
            {t('map.noFly.inactive')}
          </span>
        )}
      </div>
      <ul className="fleet-map-list" data-testid="map-zones" aria-label={t('map.zoneLegend')}>
        {zones.map((z) => (
          <li key={z.id} data-zone={z.id} data-type={z.type}>
            {ZoneType.label(z.type, lang)} {z.name[lang]}
          </li>
        ))}
        {noFly.map((z) => (
          <li key={noFlyFeatureId(z.id)} data-nofly={z.id} data-status={noFlyStatus(z, nowS)}>
            {t('map.noFly.kind')} {z.name}
          </li>
        ))}
      </ul>
    </>
  );
}
