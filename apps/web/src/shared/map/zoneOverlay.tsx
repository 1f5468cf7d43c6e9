import { useEffect, type ReactNode } from 'react';
import { Marker, type GeoJSONSource, type MapLayerMouseEvent, type Map as MapLibreMap } from 'maplibre-gl';
import type { Feature, FeatureCollection } from 'geojson';
import { ZoneType, type Lang, type Zone } from '@nest/contracts';
import { ringLabelPoint } from '@nest/geo';
import { useI18n } from '../i18n';
import { toMap, type BasemapId } from './basemaps';
import './zones.css';

/**
 * The map zones on a console map (lazy chunk, with the maps): each zone filled and outlined in its own
 * colours, its kind and name in the operator's language, and the legend of the zone kinds. The name is an
 * HTML label that lets clicks through to the map: written inside the zone (at geo's ringLabelPoint) on the
 * fleet map, or shown over the zone under the pointer on the planning map, where a fixed label would hide
 * the waypoints and vertices being edited. WGS84 outside, converted at this boundary like the maps' other
 * overlays.
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

const colorsOf = (z: Pick<Zone, 'type' | 'stroke_color' | 'solid_color'>) => {
  const d = KIND_COLORS[z.type] ?? OTHER;
  return { stroke: z.stroke_color || d.stroke, fill: z.solid_color || d.fill };
};

/** The zones as GeoJSON polygons in the basemap's coordinates, with their colours and line width. */
export function zonesToGeoJson(basemap: BasemapId, zones: readonly Zone[]): FeatureCollection {
  const features: Feature[] = zones.map((z) => {
    const ring = z.paths.map((p) => toMap(basemap, p));
    const { stroke, fill } = colorsOf(z);
    return {
      type: 'Feature',
      properties: { id: z.id, type: z.type, stroke, fill, width: z.stroke_width || 1 },
      geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] },
    };
  });
  return { type: 'FeatureCollection', features };
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

/** The label of a zone: its kind, then its name, in the zone's colour. */
export function zoneLabelElement(z: Zone, lang: Lang): HTMLElement {
  const el = document.createElement('div');
  el.className = 'zone-label';
  el.setAttribute('data-testid', 'zone-label');
  el.setAttribute('data-zone', z.id);
  el.style.setProperty('--zone-color', colorsOf(z).stroke);
  const kind = document.createElement('span');
  kind.className = 'zone-label-kind';
  kind.textContent = ZoneType.label(z.type, lang);
  const name = document.createElement('span');
  name.textContent = z.name[lang];
  el.append(kind, name);
  return el;
}

/**
 * Draws the zones on `map` (null while its style loads: the layers are added again after every style
 * change), below `beforeLayer` when the map has it, and their labels in `lang`.
 */
export function useZoneOverlay(
  map: MapLibreMap | null,
  zones: readonly Zone[],
  basemap: BasemapId,
  lang: Lang,
  beforeLayer?: string,
  labels: ZoneLabels = 'fixed',
): void {
  useEffect(() => {
    if (!map) return;
    const data = zonesToGeoJson(basemap, zones);
    const source = map.getSource<GeoJSONSource>(SOURCE);
    if (source) {
      void source.setData(data);
      return;
    }
    map.addSource(SOURCE, { type: 'geojson', data });
    const before = beforeLayer && map.getLayer(beforeLayer) ? beforeLayer : undefined;
    map.addLayer({ id: FILL, type: 'fill', source: SOURCE, paint: { 'fill-color': ['get', 'fill'] } }, before);
    map.addLayer({ id: LINE, type: 'line', source: SOURCE, paint: { 'line-color': ['get', 'stroke'], 'line-width': ['get', 'width'] } }, before);
  }, [map, zones, basemap, beforeLayer]);

  useEffect(() => {
    if (!map || labels !== 'fixed') return;
    const placed = zones.flatMap((z) => {
      const at = ringLabelPoint(z.paths);
      if (!at) return [];
      const corners = z.paths.map((p) => toMap(basemap, p));
      const marker = new Marker({ element: zoneLabelElement(z, lang) }).setLngLat(toMap(basemap, at)).addTo(map);
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
  }, [map, zones, basemap, lang, labels]);

  useEffect(() => {
    if (!map || labels !== 'hover') return;
    const byId = new Map(zones.map((z) => [z.id, z]));
    let shown: { id: string; marker: Marker } | null = null;
    const hide = () => {
      shown?.marker.remove();
      shown = null;
    };
    const move = (e: MapLayerMouseEvent) => {
      const z = byId.get(String(e.features?.[0]?.properties?.id ?? ''));
      if (!z) return hide();
      if (shown?.id !== z.id) {
        hide();
        const marker = new Marker({ element: zoneLabelElement(z, lang), anchor: 'bottom', offset: [0, -14] });
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
  }, [map, zones, lang, labels]);
}

/**
 * The legend of the zone kinds (colour and name of no-fly, restricted and work zones), shown while the
 * map has zones, and the zones themselves as a list for tests and assistive tech.
 */
export function ZoneLegend({ zones }: { zones: readonly Zone[] }): ReactNode {
  const { t, lang } = useI18n();
  if (zones.length === 0) return null;
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
      </div>
      <ul className="fleet-map-list" data-testid="map-zones" aria-label={t('map.zoneLegend')}>
        {zones.map((z) => (
          <li key={z.id} data-zone={z.id} data-type={z.type}>
            {ZoneType.label(z.type, lang)} {z.name[lang]}
          </li>
        ))}
      </ul>
    </>
  );
}
