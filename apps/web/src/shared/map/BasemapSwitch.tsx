import type { ReactNode } from 'react';
import { Segmented } from 'antd';
import { useI18n } from '../i18n';
import { BASEMAPS, type BasemapId } from './basemaps';

/** The basemap choice every console map offers (offline, OSM, AMap, Google), with testids `basemap-<id>`. */
export function BasemapSwitch({ value, onChange, className }: { value: BasemapId; onChange: (id: BasemapId) => void; className?: string }): ReactNode {
  const { t } = useI18n();
  return (
    <Segmented
      size="small"
      className={className}
      value={value}
      onChange={(v) => onChange(v as BasemapId)}
      options={BASEMAPS.map((id) => ({ value: id, label: <span data-testid={`basemap-${id}`}>{t(`map.basemap.${id}`)}</span> }))}
    />
  );
}
