import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Spin } from 'antd';
import { Marker, type Map as MapLibreMap, type MapSourceDataEvent } from 'maplibre-gl';
import { MAP_DEFAULT_ZOOM } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { basemapStyle, toMap, type BasemapId } from '../../shared/map/basemaps';
import { createConsoleMap } from '../../shared/map/consoleMap';
import { deviceElement, updateDeviceElement } from '../../shared/map/markerElements';
import { markerColor, isFlying, type MarkerProps } from '../../shared/map/markers';
import { useTheme } from '../../shared/theme';
import { useFleet, type FleetDevice } from '../../shared/fleet';
import { tileHealth, type TileHealth } from './tileHealth';
import './googleMap.css';

/** The raster source of basemapStyle's online basemaps. */
const RASTER_SOURCE = 'raster';

const propsOf = (d: FleetDevice): MarkerProps => ({
  sn: d.sn,
  name: d.name,
  state: d.state,
  mine: d.state === 3 && !!d.mine,
  color: markerColor(d.state, d.mine),
  heading: d.heading,
  flying: isFlying(d.flightState),
  drone: d.drone,
});

/**
 * The Google satellite basemap (menu googleMap), full screen, with the fleet on it (the data screen's
 * useFleet: /device/list and pushes 310/301/300). Google imagery is WGS84, like every position in the app.
 * consoleMap reports nothing about tiles, so this screen watches the raster source itself: when Google's
 * tiles cannot be reached (this deployment usually has no internet), it says so and offers the server's
 * offline basemap instead (tileHealth.ts).
 */
export default function GoogleMapPage(): ReactNode {
  const { t } = useI18n();
  const theme = useTheme();
  const { devices } = useFleet();
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const markers = useRef(new Map<string, Marker>());
  const [basemap, setBasemap] = useState<BasemapId>('google');
  const [failed, setFailed] = useState(false);
  const [health, setHealth] = useState<TileHealth>('loading');
  const [attempt, setAttempt] = useState(0);
  const counts = useRef({ loaded: 0, failed: 0, since: Date.now() });
  const fitted = useRef(false);

  useEffect(() => {
    if (!container.current) return;
    let map: MapLibreMap;
    try {
      map = createConsoleMap(container.current, 'google', theme);
    } catch {
      setFailed(true);
      return;
    }
    mapRef.current = map;
    const judge = () => setHealth(tileHealth({ loaded: counts.current.loaded, failed: counts.current.failed, elapsedMs: Date.now() - counts.current.since }));
    map.on('sourcedata', (e: MapSourceDataEvent) => {
      if (e.sourceId === RASTER_SOURCE && e.tile) {
        counts.current.loaded++;
        judge();
      }
    });
    map.on('error', (e) => {
      // Tile failures of the raster basemap (DNS, connection refused, HTTP errors); other errors are not ours to judge.
      const tileError = e as unknown as { sourceId?: string; tile?: unknown };
      if (tileError.sourceId === RASTER_SOURCE || tileError.tile) {
        counts.current.failed++;
        judge();
      }
    });
    const timer = setInterval(judge, 1000);
    const current = markers.current;
    return () => {
      clearInterval(timer);
      for (const m of current.values()) m.remove();
      current.clear();
      map.remove();
      mapRef.current = null;
    };
    // Created once; the basemap and theme are swapped below.
  }, []);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    counts.current = { loaded: 0, failed: 0, since: Date.now() };
    setHealth(basemap === 'google' ? 'loading' : 'ok');
    map.setStyle(basemapStyle(basemap, theme), { diff: false });
  }, [basemap, theme, attempt]);

  // Markers: one per positioned device, kept while it stays.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const seen = new Set<string>();
    for (const d of devices) {
      if (!d.position) continue;
      seen.add(d.sn);
      const at = toMap(basemap, d.position);
      let m = markers.current.get(d.sn);
      if (!m) {
        m = new Marker({ element: deviceElement(propsOf(d)) }).setLngLat(at).addTo(map);
        markers.current.set(d.sn, m);
      } else m.setLngLat(at);
      updateDeviceElement(m.getElement(), propsOf(d), false);
    }
    for (const [sn, m] of markers.current) {
      if (!seen.has(sn)) {
        m.remove();
        markers.current.delete(sn);
      }
    }
    const points = devices.filter((d) => d.position).map((d) => toMap(basemap, d.position!));
    if (!fitted.current && points.length > 0) {
      fitted.current = true;
      const lngs = points.map((p) => p[0]);
      const lats = points.map((p) => p[1]);
      map.fitBounds([[Math.min(...lngs), Math.min(...lats)], [Math.max(...lngs), Math.max(...lats)]], { padding: 80, maxZoom: MAP_DEFAULT_ZOOM, duration: 0 });
    }
  }, [devices, basemap]);

  const online = devices.filter((d) => d.state !== 2).length;
  const positioned = devices.filter((d) => d.position).length;

  return (
    <div className="google-map-screen" data-testid="google-map" data-basemap={basemap} data-health={health}>
      <div ref={container} className="google-map-canvas" />
      {failed && (
        <div className="google-map-failed" role="status">
          {t('map.unavailable')}
        </div>
      )}
      <div className="google-map-bar">
        <strong>{t('googleMap.title')}</strong>
        <span>{t('googleMap.devices', { online, total: devices.length })}</span>
        {positioned === 0 && <span className="google-map-muted">{t('googleMap.noDevices')}</span>}
        {basemap === 'google' && health === 'loading' && (
          <span className="google-map-muted">
            <Spin size="small" /> {t('googleMap.loading')}
          </span>
        )}
        {basemap === 'google' && health === 'ok' && <span className="google-map-muted">{t('googleMap.wgs84')}</span>}
        {basemap === 'offline' && (
          <>
            <span className="google-map-muted">{t('googleMap.showingOffline')}</span>
            <Button size="small" onClick={() => setBasemap('google')} data-testid="google-back">
              {t('googleMap.backToGoogle')}
            </Button>
          </>
        )}
      </div>
      {basemap === 'google' && health === 'unreachable' && (
        <div className="google-map-unreachable" role="alert" data-testid="google-unreachable">
          <Alert
            type="warning"
            showIcon
            title={t('googleMap.unreachable')}
            description={t('googleMap.unreachableHint')}
            action={
              <div className="google-map-actions">
                <Button type="primary" size="small" onClick={() => setBasemap('offline')} data-testid="google-use-offline">
                  {t('googleMap.useOffline')}
                </Button>
                <Button size="small" onClick={() => setAttempt((n) => n + 1)}>
                  {t('googleMap.retry')}
                </Button>
              </div>
            }
          />
        </div>
      )}
    </div>
  );
}
