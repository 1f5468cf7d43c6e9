import { useMemo, useState, type ReactNode } from 'react';
import { Input, Switch, Tag, Tooltip } from 'antd';
import { formatTime, localeOf, LinkType, calls, holds, type LinkDeviceStats } from '@nest/contracts';
import { AdminPage, RefreshStatus, StatusNotes, StatusTable, deviceColumn, usePolledCall } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { useUser } from '../../shared/session';
import { ago, dropEntries, droppedTotal, filterDevices, formatRate, reasonKey } from './format';
import './network.css';

/** The statistics are read again this often while the screen is open. */
export const NETWORK_REFRESH_MS = 3_000;

/**
 * Networking (menu networkingItem): the fleet's device network. The console talks to devices through one
 * MQTT broker (embedded in the server, or external); this screen shows that broker and, per device, how its
 * link is doing (/link/stats): link type, online, last heard, telemetry rate, messages per minute, dropped
 * messages by reason and command round trips. Read every NETWORK_REFRESH_MS; search and paging in the page.
 */
export default function NetworkPage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const allowed = holds(user?.fun_list, calls.linkStats.access);
  const [search, setSearch] = useState('');
  const [onlyOnline, setOnlyOnline] = useState(false);
  const { data: stats, loading, failed, read: load } = usePolledCall('linkStats', {}, { every: NETWORK_REFRESH_MS, allowed });

  const rows = useMemo(() => filterDevices(stats?.devices ?? [], search, onlyOnline), [stats, search, onlyOnline]);
  const now = stats?.at ?? Date.now();
  const agoText = (at: number) => {
    const a = ago(at, now);
    return t(a.unit === 's' ? 'network.agoSeconds' : a.unit === 'min' ? 'network.agoMinutes' : 'network.agoHours', { n: a.n });
  };
  const time = stats ? formatTime(stats.at, lang) : '';

  const columns = [
    deviceColumn<LinkDeviceStats>(t('network.field.device')),
    { title: t('network.field.linkType'), key: 'link', width: 150, render: (_: unknown, d: LinkDeviceStats) => LinkType.label(d.link_type, lang) },
    {
      title: t('network.field.online'),
      key: 'online',
      width: 120,
      render: (_: unknown, d: LinkDeviceStats) =>
        d.state === 3 ? <Tag color="orange">{t('network.held')}</Tag> : d.online ? <Tag color="green">{t('network.online')}</Tag> : <Tag>{t('network.offline')}</Tag>,
    },
    { title: t('network.field.heard'), key: 'heard', width: 120, render: (_: unknown, d: LinkDeviceStats) => (d.heard_at ? agoText(d.heard_at) : <span className="admin-muted">{t('network.never')}</span>) },
    {
      title: t('network.field.rate'),
      key: 'rate',
      width: 190,
      render: (_: unknown, d: LinkDeviceStats) =>
        d.rate_hz === null ? '—' : t('network.rateValue', { measured: formatRate(d.telemetry_hz), announced: formatRate(d.rate_hz) }),
    },
    { title: t('network.field.messages'), dataIndex: 'messages_per_min', key: 'messages', width: 110, render: (v: number) => formatRate(v) },
    {
      title: t('network.field.dropped'),
      key: 'dropped',
      render: (_: unknown, d: LinkDeviceStats) => {
        const entries = dropEntries(d.dropped);
        if (entries.length === 0) return <span className="admin-muted">{t('network.none')}</span>;
        return entries.map(([reason, n]) => (
          <Tag key={reason} color="red">
            {t(`network.reason.${reasonKey(reason)}`)} × {n}
          </Tag>
        ));
      },
    },
    {
      title: t('network.field.rtt'),
      key: 'rtt',
      width: 220,
      render: (_: unknown, d: LinkDeviceStats) => (
        <div>
          {d.rtt ? t('network.rttValue', { avg: d.rtt.avg_ms, last: d.rtt.last_ms, max: d.rtt.max_ms, count: d.rtt.count }) : <span className="admin-muted">{t('network.noRtt')}</span>}
          {d.command_timeouts > 0 && <div className="network-warn">{t('network.timeouts', { n: d.command_timeouts })}</div>}
        </div>
      ),
    },
    { title: t('network.field.firmware'), dataIndex: 'firmware', key: 'firmware', width: 110, render: (v: string | null) => v ?? '—' },
  ];

  const broker = stats?.broker;
  const totals = stats?.totals;
  const unattributed = totals ? dropEntries(totals.unattributed_dropped) : [];

  return (
    <AdminPage
      title={t('network.title')}
      testId="network"
      filters={
        <>
          <Input.Search allowClear placeholder={t('network.search')} value={search} onChange={(e) => setSearch(e.target.value)} style={{ width: 240 }} />
          <span className="network-switch">
            <Switch size="small" checked={onlyOnline} onChange={setOnlyOnline} /> {t('network.onlyOnline')}
          </span>
        </>
      }
      actions={
        <RefreshStatus
          status={
            <>
              {t('network.autoRefresh', { s: NETWORK_REFRESH_MS / 1000 })}
              {time && ` · ${t('network.updatedAt', { time })}`}
            </>
          }
          onRefresh={() => void load(false)}
          label={t('network.refresh')}
        />
      }
    >
      <StatusNotes subtitle={t('network.subtitle')} allowed={allowed} failed={failed ? t('network.loadFailed') : null} />
      {stats && broker && totals && (
        <div className="network-tiles" data-testid="network-tiles">
          <div className="admin-tile network-tile" data-testid="network-broker">
            <span className="network-tile-label">{t('network.broker.title')}</span>
            <strong>{t(broker.kind === 'embedded' ? 'network.broker.embedded' : 'network.broker.external')}</strong>
            <span>
              <Tag color={broker.connected ? 'green' : 'red'}>{t(broker.connected ? 'network.broker.connected' : 'network.broker.disconnected')}</Tag>
            </span>
            <Tooltip title={broker.client_id}>
              <span className="admin-muted">
                {t('network.broker.address')}: {broker.address || '—'}
              </span>
            </Tooltip>
          </div>
          <div className="admin-tile network-tile">
            <span className="network-tile-label">{t('network.tiles.online')}</span>
            <strong data-testid="network-online">
              {totals.online} / {totals.devices}
            </strong>
          </div>
          <div className="admin-tile network-tile">
            <span className="network-tile-label">{t('network.tiles.messages')}</span>
            <strong>{formatRate(totals.messages_per_min)}</strong>
          </div>
          <div className="admin-tile network-tile">
            <span className="network-tile-label">{t('network.tiles.accepted')}</span>
            <strong>{totals.accepted.toLocaleString(localeOf(lang))}</strong>
            {!!totals.superseded && (
              <span className="admin-muted" data-testid="network-superseded">
                {t('network.tiles.superseded', { n: totals.superseded.toLocaleString(localeOf(lang)) })}
              </span>
            )}
          </div>
          <div className={`network-tile${totals.dropped > 0 ? ' is-warn' : ''}`}>
            <span className="network-tile-label">{t('network.tiles.dropped')}</span>
            <strong>{totals.dropped.toLocaleString(localeOf(lang))}</strong>
            {unattributed.length > 0 && (
              <span className="admin-muted">{t('network.tiles.unattributed', { list: unattributed.map(([r, n]) => `${t(`network.reason.${reasonKey(r)}`)} × ${n}`).join(', ') })}</span>
            )}
          </div>
        </div>
      )}
      <StatusTable<LinkDeviceStats>
        rows={rows}
        loading={loading}
        columns={columns}
        rowClassName={(d) => (droppedTotal(d) > 0 ? 'network-row-dropped' : '')}
        noDevices={(stats?.devices.length ?? 0) === 0}
        empty={t('network.empty')}
        noMatch={t('network.noMatch')}
        testId="network-table"
      />
    </AdminPage>
  );
}
