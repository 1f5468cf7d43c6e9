import { Suspense, lazy, useCallback, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Spin } from 'antd';
import { useI18n } from '../../shared/i18n';
import { useTheme } from '../../shared/theme';
import { DevicePanel } from '../device/DevicePanel';
import { DeviceList } from './DeviceList';
import { filterDevices, type FleetFilter } from './fleet';
import { useFleet } from './useFleet';
import './home.css';

const FleetMap = lazy(() => import('../../shared/map/FleetMap'));

/**
 * The data screen (/home): device list on the left, the fleet map in the centre, the selected device's
 * live panel on the right. The selected device is kept in the url (?sn=) so a link opens it.
 */
export default function HomePage(): ReactNode {
  const { t } = useI18n();
  const theme = useTheme();
  const { devices, loading } = useFleet();
  const [filter, setFilter] = useState<FleetFilter>({ search: '', kind: 0 });
  const [params, setParams] = useSearchParams();
  const selectedSn = params.get('sn');
  const selected = devices.find((d) => d.sn === selectedSn) ?? null;
  const shown = useMemo(() => filterDevices(devices, filter), [devices, filter]);

  const select = useCallback(
    (sn: string | null) => {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (sn) next.set('sn', sn);
          else next.delete('sn');
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  return (
    <div className="home-screen" data-testid="home-screen">
      <aside className="home-side home-left">
        <DeviceList devices={devices} loading={loading} filter={filter} onFilter={setFilter} selectedSn={selectedSn} onSelect={select} />
      </aside>
      <section className="home-center">
        <Suspense fallback={<div className="home-map-loading"><Spin /></div>}>
          <FleetMap devices={shown} selectedSn={selectedSn} onSelect={select} theme={theme} loaded={!loading} />
        </Suspense>
      </section>
      <aside className="home-side home-right">
        {selected ? (
          <DevicePanel key={selected.sn} device={selected} onClose={() => select(null)} />
        ) : (
          <section className="home-panel home-hint" data-testid="device-panel-empty">
            <svg viewBox="0 0 48 48" aria-hidden="true">
              <circle cx="24" cy="24" r="20" fill="none" stroke="currentColor" strokeWidth="1.5" strokeDasharray="4 4" />
              <path d="M24 14v20M14 24h20" stroke="currentColor" strokeWidth="1.5" />
            </svg>
            <p>{selectedSn && !loading ? t('fleet.notFound', { sn: selectedSn }) : t('fleet.pickDevice')}</p>
          </section>
        )}
      </aside>
    </div>
  );
}
