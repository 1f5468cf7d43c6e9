import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Spin } from 'antd';
import { Marker, type MapSourceDataEvent } from 'maplibre-gl';
import { MAP_DEFAULT_ZOOM, OnlineStatus } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { toMap, type BasemapId } from '../../shared/map/basemaps';
import { fitCoords } from '../../shared/map/consoleMap';
import { useConsoleMap } from '../../shared/map/useConsoleMap';
import { useNoFlyZones } from '../../shared/map/noFly';
import { ZoneLegend, useZoneOverlay } from '../../shared/map/zoneOverlay';
import { useZones } from '../../shared/map/zones';
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
  mine: d.state === OnlineStatus.CONNECTED_BY_OTHER && !!d.mine,
  color: markerColor(d.state, d.mine),
  heading: d.heading,
  flying: isFlying(d.flightState),
  drone: d.drone,
});

/**
 * The Google satellite basemap (menu googleMap), full screen, with the fleet on it (shared/fleet's
 * useFleet: /device/list and pushes 310/301/300). Google imagery is WGS84, like every position in the app.
 * consoleMap reports nothing about tiles, so this screen watches the raster source itself: when Google's
 * tiles cannot be reached (this deployment usually has no internet), it says so and offers the server's
 * offline basemap instead (tileHealth.ts).
 */
export default function GoogleMapPage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const { devices } = useFleet();
  const zones = useZones();
  const noFly = useNoFlyZones();
  const markers = useRef(new Map<string, Marker>());
  const [basemap, setBasemap] = useState<BasemapId>('google');
  const [health, setHealth] = useState<TileHealth>('loading');
  const counts = useRef({ loaded: 0, failed: 0, since: Date.now() });
  const fitted = useRef(false);

  const { container, mapRef, ready, failed, reloadStyle } = useConsoleMap({
    basemap,
    theme,
    onCreate: (map) => {
      const judge = () => setHealth(tileHealth({ loaded: counts.current.loaded, failed: counts.current.failed, elapsedMs: Date.now() - counts.current.since }));
      map.on('sourcedata', (e: MapSourceDataEvent) => {
        if (e.sourceId === RASTER_SOURCE && e.tile) {
          counts.current.loaded++;
          judge();
        }
      });
      map.on('error', (e) => {
        // Tile failures of the raster basemap (DNS, connection refused, HTTP errors); other errors are not ours to judge.
        if (('sourceId' in e && e.sourceId === RASTER_SOURCE) || ('tile' in e && e.tile)) {
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
      };
    },
  });

  // Tiles are counted afresh for every style: a new basemap, a new theme, a retry.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    counts.current = { loaded: 0, failed: 0, since: Date.now() };
    setHealth(basemap === 'google' ? 'loading' : 'ok');
  }, [basemap, theme, attempt]);
  const retry = () => {
    setAttempt((n) => n + 1);
    reloadStyle();
  };

  // The public and company no-fly zones under the devices' markers.
  useZoneOverlay(ready ? mapRef.current : null, zones, basemap, lang, undefined, 'fixed', noFly);

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
      fitCoords(map, points, { padding: 80, maxZoom: MAP_DEFAULT_ZOOM, duration: 0 });
    }
  }, [devices, basemap, mapRef]);

  const online = devices.filter((d) => d.state !== OnlineStatus.OFFLINE).length;
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
      <ZoneLegend zones={zones} noFly={noFly} />
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
                <Button size="small" onClick={retry}>
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
