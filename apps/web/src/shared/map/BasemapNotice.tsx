import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { CloseOutlined, DisconnectOutlined } from '@ant-design/icons';
import type { ErrorEvent as MapErrorEvent, Map as MapLibreMap, MapSourceDataEvent } from 'maplibre-gl';
import type { MapPackage } from '@nest/contracts';
import { useI18n } from '../i18n';
import { isPackageBasemap, packageIdOf, type BasemapId, type BuiltinBasemapId } from './basemaps';
import { useMapPackages } from './packages';

/** The source id of the online raster basemaps in basemapStyle. */
const ONLINE_SOURCE = 'raster';
/** Tiles that must fail, with none loaded, before the basemap is called unreachable. */
export const ONLINE_TILE_FAILURES = 3;

/**
 * Whether the online basemap shown on `map` cannot be loaded: ONLINE_TILE_FAILURES tile errors and not one
 * tile loaded since the style was set (no internet, a blocked tile server). One loaded tile clears it.
 */
export function useOnlineTilesFailed(map: MapLibreMap | null, basemap: BasemapId): boolean {
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    setFailed(false);
    if (!map || basemap === 'offline' || isPackageBasemap(basemap)) return;
    let errors = 0;
    let loaded = 0;
    const onError = (e: MapErrorEvent & { sourceId?: string; tile?: unknown }) => {
      if (e.sourceId !== ONLINE_SOURCE && !(e.sourceId === undefined && e.tile)) return;
      errors++;
      if (loaded === 0 && errors >= ONLINE_TILE_FAILURES) setFailed(true);
    };
    const onData = (e: MapSourceDataEvent) => {
      if (e.sourceId !== ONLINE_SOURCE || !e.tile) return;
      loaded++;
      setFailed(false);
    };
    const onStyle = () => {
      errors = 0;
      loaded = 0;
    };
    map.on('error', onError);
    map.on('sourcedata', onData);
    map.on('style.load', onStyle);
    return () => {
      map.off('error', onError);
      map.off('sourcedata', onData);
      map.off('style.load', onStyle);
    };
  }, [map, basemap]);
  return failed;
}

/** Whether the map's current view lies wholly outside a package's bounds (WGS84 as drawn). */
export function viewOutside(map: Pick<MapLibreMap, 'getBounds'>, p: Pick<MapPackage, 'min_lat' | 'min_lng' | 'max_lat' | 'max_lng'>): boolean {
  const b = map.getBounds();
  return b.getEast() < p.min_lng || b.getWest() > p.max_lng || b.getNorth() < p.min_lat || b.getSouth() > p.max_lat;
}

/**
 * A package chosen as the basemap: once the package list is known, a package that no longer exists
 * (deleted, or its style refused) switches the map to the offline basemap and says so; one that exists
 * brings the view to its bounds when the view is outside them, and to its lowest zoom when the view is
 * below it (once per choice).
 */
function usePackageBasemap(map: MapLibreMap | null, basemap: BasemapId, onUseOffline: () => void): [boolean, () => void] {
  const { list, loaded, gone } = useMapPackages();
  const [goneNotice, setGoneNotice] = useState(false);
  const fitted = useRef<string | null>(null);
  const fallback = useRef(onUseOffline);
  fallback.current = onUseOffline;

  useEffect(() => {
    if (!isPackageBasemap(basemap)) {
      fitted.current = null;
      return;
    }
    const id = packageIdOf(basemap);
    const pkg = list.find((p) => p.id === id);
    if (gone.has(id) || (loaded && !pkg)) {
      setGoneNotice(true);
      fallback.current();
      return;
    }
    setGoneNotice(false);
    if (!map || !pkg || fitted.current === basemap) return;
    fitted.current = basemap;
    if (viewOutside(map, pkg)) {
      map.fitBounds(
        [
          [pkg.min_lng, pkg.min_lat],
          [pkg.max_lng, pkg.max_lat],
        ],
        { padding: 40, maxZoom: Math.max(pkg.max_zoom, pkg.min_zoom + 1), duration: 0 },
      );
    }
    // Below its lowest zoom a package has nothing to draw (tiles are enlarged beyond the highest, never shrunk).
    if (map.getZoom() < pkg.min_zoom) map.jumpTo({ zoom: pkg.min_zoom });
  }, [map, basemap, list, loaded, gone]);

  return [goneNotice, () => setGoneNotice(false)];
}

/**
 * Said on the map when its online basemap cannot be loaded, with the way out: the offline basemap, which
 * the server always has; and when the offline map package chosen as the basemap no longer exists (the map
 * has then switched to the offline basemap itself).
 */
export function BasemapNotice({ map, basemap, onUseOffline }: { map: MapLibreMap | null; basemap: BasemapId; onUseOffline: () => void }): ReactNode {
  const { t } = useI18n();
  const failed = useOnlineTilesFailed(map, basemap);
  const [packageGone, dismiss] = usePackageBasemap(map, basemap, onUseOffline);
  if (packageGone) {
    return (
      <div className="basemap-notice" role="status" data-testid="basemap-package-gone">
        <DisconnectOutlined />
        <span>{t('map.packageGone')}</span>
        <Button size="small" type="text" icon={<CloseOutlined />} onClick={dismiss} aria-label={t('map.dismiss')} />
      </div>
    );
  }
  if (!failed) return null;
  return (
    <div className="basemap-notice" role="status" data-testid="basemap-notice">
      <DisconnectOutlined />
      <span>{t('map.onlineFailed', { name: t(`map.basemap.${basemap as BuiltinBasemapId}`) })}</span>
      <Button size="small" type="primary" onClick={onUseOffline} data-testid="basemap-use-offline">
        {t('map.useOffline')}
      </Button>
    </div>
  );
}
