import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { AIRBORNE_FLIGHT_STATES } from '@nest/contracts';
import { useSearchParams } from 'react-router-dom';
import { Spin } from 'antd';
import { preloadable, whenIdle, whenSettled } from '../../shared/lazy';
import { useI18n } from '../../shared/i18n';
import { useTheme } from '../../shared/theme';
import { useZones } from '../../shared/map/zones';
import { useNoFlyZones } from '../../shared/map/noFly';
import { canListAlarms, useNews } from '../alarms';
import { loadDevicePanel } from '../device';
import { useUser } from '../../shared/session';
import { DeviceList } from './DeviceList';
import { kpisOf } from './dashboard';
import { filterDevices, fleetCounts, useFleet, type FleetFilter } from '../../shared/fleet';
import { AlarmStatsPanel, InspectionRecords, KpiStrip, MessageFeed, RankingPanel, TaskPanel } from './Panels';
import { useDashboard } from './useDashboard';
import './home.css';

/**
 * MapLibre (about 1 MB of script): fetched when the page is next idle after this module is in. When the
 * login page fetched this screen ahead, that is while the user types and the sign-in call runs, so the map
 * starts with its code (and its worker) in; otherwise the render below asks for it once the lists have
 * painted at the latest.
 */
const fleetMap = preloadable(() => import('../../shared/map/FleetMap'));
const FleetMap = fleetMap.Component;
whenIdle(() => void fleetMap.preload().catch(() => undefined));
/** The selected device's live panel: fetched when a device is first selected, or ahead when the page is idle. */
const devicePanel = preloadable(() => loadDevicePanel().then((m) => ({ default: m.DevicePanel })));
const DevicePanel = devicePanel.Component;

/**
 * True from the task after the first frame painted with `ready` (the device list answered and its rows
 * rendered): what waits for it never holds up the first paint of the lists.
 */
function usePaintedOnce(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const after = () => {
      timer = setTimeout(() => setPainted(true), 0);
    };
    if (typeof requestAnimationFrame !== 'function') {
      after();
      return () => clearTimeout(timer);
    }
    const frame = requestAnimationFrame(after);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}

/** Drone flight states that count as in the air. */
const IN_AIR = new Set(AIRBORNE_FLIGHT_STATES);

/**
 * The data screen (/home), a control-room wall: the KPI strip on top; the device list and the latest
 * inspection records on the left; the fleet map and the real-time messages in the centre; on the right the
 * ranking, alarm statistics and timed tasks, or the selected device's live panel. The selected device is
 * kept in the url (?sn=) so a link opens it.
 */
export default function HomePage(): ReactNode {
  const { t } = useI18n();
  const theme = useTheme();
  const { devices, loading } = useFleet();
  const zones = useZones();
  const noFly = useNoFlyZones();
  const dash = useDashboard();
  const news = useNews();
  const alarmsLink = canListAlarms(useUser()?.fun_list);
  const [filter, setFilter] = useState<FleetFilter>({ search: '', kind: 0 });
  const [params, setParams] = useSearchParams();
  const selectedSn = params.get('sn');
  const selected = devices.find((d) => d.sn === selectedSn) ?? null;
  const shown = useMemo(() => filterDevices(devices, filter), [devices, filter]);

  // The fleet push moves devices online, offline and into the air: the record's figures follow.
  const counts = fleetCounts(devices);
  const flying = devices.filter((d) => IN_AIR.has(d.flightState ?? -1)).length;
  const signature = `${counts.online}/${counts.total}/${flying}`;
  const lastSignature = useRef<string | null>(null);
  const { refresh } = dash;
  useEffect(() => {
    if (loading) return;
    if (lastSignature.current !== null && lastSignature.current !== signature) refresh(['record']);
    lastSignature.current = signature;
  }, [signature, loading, refresh]);

  // The map's code is fetched once the lists have painted, and the map rendered when it is in (rendering
  // it before would suspend, and React holds back a suspended part's reveal); on a later visit, with the
  // code in, the map still starts after the lists. The device panel's code is fetched a while later, when
  // the page is idle. A failed fetch renders the map anyway: its error then shows.
  const listsPainted = usePaintedOnce(!loading);
  const [mapCode, setMapCode] = useState(fleetMap.loaded);
  useEffect(() => {
    if (!listsPainted || mapCode) return;
    let live = true;
    const show = () => live && setMapCode(true);
    fleetMap.preload().then(show, show);
    return () => {
      live = false;
    };
  }, [listsPainted, mapCode]);
  useEffect(() => {
    if (!mapCode) return;
    return whenSettled(() => {
      devicePanel.preload().catch(() => undefined);
    });
  }, [mapCode]);

  const kpis = dash.record ? kpisOf(dash.record, news.pending) : null;
  const deviceName = useCallback((sn: string) => devices.find((d) => d.sn === sn)?.name ?? sn, [devices]);

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
      <KpiStrip kpis={kpis} loading={dash.record === undefined} failed={dash.record === null} alarmsLink={alarmsLink} />
      <aside className="home-side home-left">
        <DeviceList devices={devices} loading={loading} filter={filter} onFilter={setFilter} selectedSn={selectedSn} onSelect={select} />
        <InspectionRecords record={dash.record} />
      </aside>
      <section className="home-middle">
        <div className="home-center">
          {listsPainted && mapCode ? (
            <Suspense fallback={<div className="home-map-loading"><Spin /></div>}>
              <FleetMap devices={shown} selectedSn={selectedSn} onSelect={select} theme={theme} loaded={!loading} zones={zones} noFly={noFly} />
            </Suspense>
          ) : (
            <div className="home-map-loading"><Spin /></div>
          )}
        </div>
        <MessageFeed messages={dash.messages} />
      </section>
      <aside className="home-side home-right">
        {selected ? (
          <Suspense fallback={<div className="home-panel-state"><Spin /></div>}>
            <DevicePanel key={selected.sn} device={selected} onClose={() => select(null)} />
          </Suspense>
        ) : (
          <>
            {selectedSn && !loading && (
              <section className="home-panel home-hint is-compact" data-testid="device-panel-empty">
                <p>{t('home.list.notFound', { sn: selectedSn })}</p>
              </section>
            )}
            {!selectedSn && (
              <div className="home-hint-line" data-testid="device-panel-empty">
                {t('home.list.pickDevice')}
              </div>
            )}
            <RankingPanel ranking={dash.ranking} checkingTypes={dash.checkingTypes} type={dash.rankingType} onType={dash.setRankingType} />
            <AlarmStatsPanel stats={dash.alarmStats} denied={!dash.can.alarms} />
            <TaskPanel tasks={dash.tasks} denied={!dash.can.tasks} deviceName={deviceName} />
          </>
        )}
      </aside>
    </div>
  );
}
