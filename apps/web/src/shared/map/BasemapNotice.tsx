import { useEffect, useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { DisconnectOutlined } from '@ant-design/icons';
import type { ErrorEvent as MapErrorEvent, Map as MapLibreMap, MapSourceDataEvent } from 'maplibre-gl';
import { useI18n } from '../i18n';
import type { BasemapId } from './basemaps';

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
    if (!map || basemap === 'offline') return;
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

/**
 * Said on the map when its online basemap cannot be loaded, with the way out: the offline basemap, which
 * the server always has.
 */
export function BasemapNotice({ map, basemap, onUseOffline }: { map: MapLibreMap | null; basemap: BasemapId; onUseOffline: () => void }): ReactNode {
  const { t } = useI18n();
  const failed = useOnlineTilesFailed(map, basemap);
  if (!failed) return null;
  return (
    <div className="basemap-notice" role="status" data-testid="basemap-notice">
      <DisconnectOutlined />
      <span>{t('map.onlineFailed', { name: t(`map.basemap.${basemap}`) })}</span>
      <Button size="small" type="primary" onClick={onUseOffline} data-testid="basemap-use-offline">
        {t('map.useOffline')}
      </Button>
    </div>
  );
}
