import type { ReactNode } from 'react';
import { Segmented, Select } from 'antd';
import { useI18n } from '../i18n';
import { BASEMAPS, isPackageBasemap, packageBasemap, type BasemapId, type BuiltinBasemapId } from './basemaps';
import { useMapPackages } from './packages';

/**
 * The basemap choice every console map offers: offline, OSM, AMap, Google (testids `basemap-<id>`), then the
 * company's offline map packages in a list (testid `basemap-packages`, options `basemap-package-<id>`).
 */
export function BasemapSwitch({ value, onChange, className }: { value: BasemapId; onChange: (id: BasemapId) => void; className?: string }): ReactNode {
  const { t } = useI18n();
  const { list } = useMapPackages();
  const chosenPackage = isPackageBasemap(value) ? value : undefined;
  return (
    <span className={`basemap-switch${className ? ` ${className}` : ''}`}>
      <Segmented
        size="small"
        value={chosenPackage ? '' : value}
        onChange={(v) => onChange(v as BuiltinBasemapId)}
        options={BASEMAPS.map((id) => ({ value: id, label: <span data-testid={`basemap-${id}`}>{t(`map.basemap.${id}`)}</span> }))}
      />
      {list.length > 0 && (
        <Select
          size="small"
          className="basemap-packages"
          popupMatchSelectWidth={false}
          placeholder={t('map.packages')}
          title={t('map.packagesHint')}
          aria-label={t('map.packagesHint')}
          value={chosenPackage}
          onChange={(v: BasemapId) => onChange(v)}
          options={list.map((p) => ({ value: packageBasemap(p.id), label: <span data-testid={`basemap-package-${p.id}`}>{p.name}</span>, title: p.name }))}
          data-testid="basemap-packages"
        />
      )}
    </span>
  );
}
