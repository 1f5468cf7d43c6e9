import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Marker } from 'maplibre-gl';
import type { LatLng, Theme } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { fromMap, readBasemap, toMap, type BasemapId } from '../../shared/map/basemaps';
import { fitCoords } from '../../shared/map/consoleMap';
import { useConsoleMap } from '../../shared/map/useConsoleMap';
import { useNoFlyZones } from '../../shared/map/noFly';
import { ZoneLegend, useZoneOverlay } from '../../shared/map/zoneOverlay';
import { useZones } from '../../shared/map/zones';
import type { PointTarget } from './form';

export type PickedPoints = Partial<Record<PointTarget, LatLng | null>>;

/** Other devices drawn for orientation (not editable). */
export interface ReferencePoint {
  sn: string;
  name: string;
  position: LatLng;
}

const COLORS: Record<PointTarget, string> = { airport_point: '#2f7cf6', altn_point: '#f5a524', beacon: '#22c55e' };
const LABEL_KEYS = { airport_point: 'equipment.point.airport', altn_point: 'equipment.point.altn', beacon: 'equipment.point.beacon' } as const;

/** A dot with a label beside it: `<div class={block}><span class={block}-dot/><span class={block}-label>label</span></div>`. */
function labelledDot(block: string, label: string): HTMLElement {
  const el = document.createElement('div');
  el.className = block;
  const dot = document.createElement('span');
  dot.className = `${block}-dot`;
  const text = document.createElement('span');
  text.className = `${block}-label`;
  text.textContent = label;
  el.append(dot, text);
  return el;
}

function markerElement(color: string, label: string, target: PointTarget, labelAbove: boolean): HTMLElement {
  const el = labelledDot('equipment-pin', label);
  if (labelAbove) el.classList.add('is-up');
  el.dataset.testid = `pin-${target}`;
  el.style.setProperty('--pin-color', color);
  return el;
}

const referenceElement = (name: string): HTMLElement => labelledDot('equipment-ref', name);

/**
 * The map of the device form: the airport coordinate, the alternate landing point and the beacon as
 * draggable pins; a click places the `active` one. Points are WGS84 outside; on a GCJ-02 basemap (AMap)
 * they are converted at this boundary (toMap / fromMap), so what is stored is WGS84 whatever the basemap.
 */
export default function PointPicker({
  theme,
  points,
  reference = [],
  active,
  onPick,
}: {
  theme: Theme;
  points: PickedPoints;
  reference?: readonly ReferencePoint[];
  /** The point a click places; null: clicks do nothing. */
  active: PointTarget | null;
  onPick: (target: PointTarget, p: LatLng) => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const markers = useRef(new Map<PointTarget, Marker>());
  const [basemap] = useState<BasemapId>(readBasemap);
  const zones = useZones();
  const noFly = useNoFlyZones();
  const activeRef = useRef(active);
  activeRef.current = active;
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  // The first points known when the map opens decide where it looks.
  const initial = useRef(points);
  const initialReference = useRef(reference);

  const { container, mapRef, ready, failed } = useConsoleMap({
    basemap,
    theme,
    onCreate: (map) => {
      const picked = Object.values(initial.current).filter((p): p is LatLng => !!p);
      // A new device: look at the company's other devices, where the new one most likely goes.
      const known = picked.length > 0 ? picked : initialReference.current.map((r) => r.position);
      fitCoords(map, known.map((p) => toMap(basemap, p)), { padding: 60, maxZoom: 16, duration: 0 });
      map.on('click', (e) => {
        const target = activeRef.current;
        if (target) pickRef.current(target, fromMap(basemap, e.lngLat.lng, e.lngLat.lat));
      });
      for (const r of initialReference.current) {
        new Marker({ element: referenceElement(r.name), anchor: 'top', offset: [0, -5] }).setLngLat(toMap(basemap, r.position)).addTo(map);
      }
      const owned = markers.current;
      return () => owned.clear();
    },
  });

  // The public and company no-fly zones around the points being placed (an airport or alternate point inside
  // one would keep its drones grounded); their names show under the pointer, clear of the points' labels.
  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, undefined, 'hover', noFly);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    for (const target of Object.keys(COLORS) as PointTarget[]) {
      const p = points[target] ?? null;
      let marker = markers.current.get(target);
      if (!p) {
        marker?.remove();
        markers.current.delete(target);
        continue;
      }
      if (!marker) {
        // The airport's label sits above its dot, the others' below: the beacon is often on the airport itself.
        const up = target === 'airport_point';
        marker = new Marker({
          element: markerElement(COLORS[target], t(LABEL_KEYS[target]), target, up),
          draggable: true,
          anchor: up ? 'bottom' : 'top',
          offset: [0, up ? 10 : -10],
        });
        marker.on('dragend', () => {
          const at = marker!.getLngLat();
          pickRef.current(target, fromMap(basemap, at.lng, at.lat));
        });
        marker.setLngLat(toMap(basemap, p)).addTo(map);
        markers.current.set(target, marker);
      } else {
        marker.setLngLat(toMap(basemap, p));
      }
    }
  }, [points, basemap, t, mapRef]);

  return (
    <div className={`fleet-map equipment-map${active ? ' is-picking' : ''}`} data-testid="equipment-map" data-ready={ready ? '1' : '0'} data-basemap={basemap}>
      <div ref={container} className="fleet-map-canvas" />
      {failed && (
        <div className="fleet-map-failed" role="status">
          {t('map.unavailable')}
        </div>
      )}
      <ZoneLegend zones={zones} noFly={noFly} />
    </div>
  );
}
