import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Input, Tag, Tooltip } from 'antd';
import { formatTime, NtripState, RtkStatus, calls, formatDistanceText, holds, type NavEnv } from '@nest/contracts';
import { AdminPage, RefreshStatus, StatusNotes, StatusTable, deviceColumn, usePolledCall } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { useUser } from '../../shared/session';
import { FIX_COLORS, formatAccuracy, formatLatLng, summarise } from './format';
import './navEnv.css';

/** How often /device/navEnv is read while the page is visible. */
export const NAV_ENV_POLL_MS = 2_500;

/** A position cell: the coordinates, and under them a note (the distance home, where the home point came from). */
const placeCell = (at: Parameters<typeof formatLatLng>[0], note: string): ReactNode => (
  <div>
    <div className="nav-env-num">{formatLatLng(at)}</div>
    <div className="admin-muted">{note}</div>
  </div>
);

const isVisible = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';

/**
 * Navigation environment (menu navigationEnvironment): per device the satellites in view, the fix, the RTK
 * status (RtkStatus 0-4) and Ntrip state (NtripState 0-11), the typical accuracy of the fix, the position,
 * the home and alternate landing points, from /device/navEnv.
 *
 * This screen polls its call instead of listening to push: SPEC section 2 says the push connection is NOT
 * recreated when the tab becomes visible again on this route (the route guard's NO_PUSH_REFRESH), so after
 * the tab was hidden the socket may be gone or stale here. Polling every NAV_ENV_POLL_MS while the page is
 * visible (paused while hidden, read at once when it shows again) keeps the figures fresh either way.
 */
export default function NavEnvPage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const allowed = holds(user?.fun_list, calls.deviceNavEnv.access);
  const [visible, setVisible] = useState(isVisible);
  const [search, setSearch] = useState('');
  const navEnv = usePolledCall('deviceNavEnv', {}, { every: NAV_ENV_POLL_MS, allowed, running: visible, quietFirst: true });
  const { at, loading, failed, read: load } = navEnv;
  const list = useMemo(() => navEnv.data?.list ?? [], [navEnv.data]);

  useEffect(() => {
    const onVisibility = () => setVisible(isVisible());
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  const rows = useMemo(() => {
    const q = search.trim().toLowerCase();
    return q ? list.filter((d) => d.name.toLowerCase().includes(q) || d.sn_id.toLowerCase().includes(q)) : list;
  }, [list, search]);
  const summary = useMemo(() => summarise(list), [list]);
  const clock = (ms: number) => formatTime(ms, lang);

  const columns = [
    deviceColumn<NavEnv>(t('navigationEnvironment.field.device')),
    { title: t('navigationEnvironment.field.online'), key: 'online', width: 80, render: (_: unknown, d: NavEnv) => <Tag color={d.online ? 'green' : undefined}>{t(d.online ? 'navigationEnvironment.online' : 'navigationEnvironment.offline')}</Tag> },
    {
      title: t('navigationEnvironment.field.satellites'),
      key: 'sats',
      width: 120,
      render: (_: unknown, d: NavEnv) => (d.gnss ? `${d.gnss.satellites} / ${d.gnss.rtk_satellites}` : <span className="admin-muted">{t('navigationEnvironment.noTelemetry')}</span>),
    },
    { title: t('navigationEnvironment.field.fix'), key: 'fix', width: 120, render: (_: unknown, d: NavEnv) => (d.gnss ? <Tag color={FIX_COLORS[d.gnss.fix]}>{t(`navigationEnvironment.fix.${d.gnss.fix}`)}</Tag> : t('navigationEnvironment.none')) },
    { title: t('navigationEnvironment.field.rtk'), key: 'rtk', width: 150, render: (_: unknown, d: NavEnv) => (d.gnss ? `${d.gnss.rtk_status} · ${RtkStatus.label(d.gnss.rtk_status, lang)}` : t('navigationEnvironment.none')) },
    { title: t('navigationEnvironment.field.ntrip'), key: 'ntrip', width: 170, render: (_: unknown, d: NavEnv) => (d.gnss ? `${d.gnss.ntrip_state} · ${NtripState.label(d.gnss.ntrip_state, lang)}` : t('navigationEnvironment.none')) },
    {
      title: <Tooltip title={t('navigationEnvironment.accuracyNote')}>{t('navigationEnvironment.field.accuracy')}</Tooltip>,
      key: 'accuracy',
      width: 110,
      render: (_: unknown, d: NavEnv) => {
        const v = formatAccuracy(d.gnss?.accuracy_m ?? null);
        return v ? t('navigationEnvironment.accuracyValue', { v }) : t('navigationEnvironment.none');
      },
    },
    {
      title: t('navigationEnvironment.field.position'),
      key: 'position',
      width: 200,
      render: (_: unknown, d: NavEnv) =>
        d.gnss ? placeCell(d.gnss, t('navigationEnvironment.distance', { d: formatDistanceText(d.gnss.home_distance) })) : t('navigationEnvironment.none'),
    },
    {
      title: t('navigationEnvironment.field.home'),
      key: 'home',
      width: 200,
      render: (_: unknown, d: NavEnv) =>
        d.home ? placeCell(d.home, t(`navigationEnvironment.homeSource.${d.home.source}`)) : t('navigationEnvironment.none'),
    },
    { title: t('navigationEnvironment.field.alternate'), key: 'alternate', width: 180, render: (_: unknown, d: NavEnv) => (d.alternate ? <span className="nav-env-num">{formatLatLng(d.alternate)}</span> : t('navigationEnvironment.none')) },
    { title: t('navigationEnvironment.field.updated'), key: 'at', width: 100, render: (_: unknown, d: NavEnv) => (d.at ? clock(d.at) : t('navigationEnvironment.none')) },
  ];

  return (
    <AdminPage
      title={t('navigationEnvironment.title')}
      testId="nav-env"
      filters={<Input.Search allowClear placeholder={t('navigationEnvironment.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 240 }} />}
      actions={
        <RefreshStatus
          testId="nav-env-polling"
          status={
            <>
              {visible ? t('navigationEnvironment.polling', { s: NAV_ENV_POLL_MS / 1000 }) : t('navigationEnvironment.paused')}
              {at !== null && ` · ${t('navigationEnvironment.updatedAt', { time: clock(at) })}`}
            </>
          }
          onRefresh={() => void load(false)}
          label={t('navigationEnvironment.refresh')}
        />
      }
    >
      <StatusNotes subtitle={t('navigationEnvironment.subtitle')} allowed={allowed} failed={failed ? t('navigationEnvironment.loadFailed') : null} />
      <div className="nav-env-tiles" data-testid="nav-env-summary">
        {(['devices', 'fixed', 'weak', 'noData'] as const).map((k) => (
          <div key={k} className={`admin-tile nav-env-tile${k === 'weak' && summary.weak > 0 ? ' is-warn' : ''}`}>
            <span>{t(`navigationEnvironment.summary.${k}`)}</span>
            <strong>{summary[k]}</strong>
          </div>
        ))}
      </div>
      <StatusTable<NavEnv>
        rows={rows}
        loading={loading}
        fitColumns
        columns={columns}
        noDevices={list.length === 0}
        empty={t('navigationEnvironment.empty')}
        noMatch={t('navigationEnvironment.noMatch')}
        testId="nav-env-table"
      />
    </AdminPage>
  );
}
