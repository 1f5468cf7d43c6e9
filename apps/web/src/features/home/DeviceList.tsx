import { memo, useMemo, useState, type ReactNode } from 'react';
import { Empty, Input, Select, Spin } from 'antd';
import { DeviceCategory, DeviceKind } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { useCall } from '../../shared/query';
import { useUser } from '../../shared/session';
import { StatusBadge, fleetCounts, filterDevices, holderOf, typeOptions, type FleetDevice, type FleetFilter } from '../../shared/fleet';

interface RowProps {
  device: FleetDevice;
  selected: boolean;
  meId: string | undefined;
  onSelect: (sn: string) => void;
}

/** What a row shows of its device: a fleet batch that moves a device or changes its battery leaves its row alone. */
const sameRow = (a: RowProps, b: RowProps): boolean =>
  a.selected === b.selected &&
  a.meId === b.meId &&
  a.onSelect === b.onSelect &&
  (a.device === b.device ||
    (a.device.sn === b.device.sn &&
      a.device.name === b.device.name &&
      a.device.state === b.device.state &&
      a.device.item.type === b.device.item.type &&
      a.device.connectedBy?.u_id === b.device.connectedBy?.u_id &&
      a.device.connectedBy?.nick === b.device.connectedBy?.nick));

/** One row: re-rendered only when what it shows, the selection or the signed-in user changes. */
const DeviceRow = memo(function DeviceRow({
  device: d,
  selected,
  meId,
  onSelect,
}: RowProps): ReactNode {
  const { lang } = useI18n();
  return (
    <li className="device-row">
      <button
        type="button"
        className={`device-item${selected ? ' is-selected' : ''}`}
        onClick={() => onSelect(d.sn)}
        data-testid={`device-item-${d.sn}`}
        data-state={d.state}
      >
        <span className="device-item-main">
          <span className="device-item-name">{d.name}</span>
          <span className="device-item-meta">
            {DeviceCategory.label(d.item.type, lang)} · {d.sn}
          </span>
        </span>
        <StatusBadge state={d.state} holder={holderOf(d, meId)} />
      </button>
    </li>
  );
}, sameRow);

/**
 * The left panel: counts, search, type filter, and the devices with their online status. A city's fleet
 * is a thousand rows: each row is memoised (a fleet batch re-renders the rows whose device changed), and
 * rows out of view are neither laid out nor painted (`content-visibility` in home.css).
 */
export function DeviceList({
  devices,
  loading,
  filter,
  onFilter,
  selectedSn,
  onSelect,
}: {
  devices: readonly FleetDevice[];
  loading: boolean;
  filter: FleetFilter;
  onFilter: (f: FleetFilter) => void;
  selectedSn: string | null;
  onSelect: (sn: string) => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const meId = useUser()?.u_id;
  // The server's device types are read when the filter is first opened (until then the built-in kinds
  // stand in): the screen's first paint does not wait on a list nobody has looked at.
  const [typesWanted, setTypesWanted] = useState(false);
  const typesRead = useCall('userGetDeviceType', typesWanted ? {} : null, { quiet: true });
  const types = typeOptions(typesRead.data);
  const kindOptions = types.length > 0 ? types : DeviceKind.options(lang);
  const shown = useMemo(() => filterDevices(devices, filter), [devices, filter]);
  const counts = useMemo(() => fleetCounts(devices), [devices]);

  return (
    <section className="home-panel device-list" data-testid="device-list">
      <header className="home-panel-head">
        <h2>{t('home.list.title')}</h2>
        <div className="device-counts" data-testid="device-counts">
          <span>
            <b className="is-online" data-testid="count-online">{counts.online}</b> {t('home.list.online')}
          </span>
          <span className="sep">/</span>
          <span>
            <b data-testid="count-total">{counts.total}</b> {t('home.list.total')}
          </span>
        </div>
      </header>
      <div className="device-filters">
        <Input.Search
          allowClear
          size="small"
          placeholder={t('home.list.search')}
          value={filter.search}
          onChange={(e) => onFilter({ ...filter, search: e.target.value })}
          data-testid="device-search"
        />
        <Select
          size="small"
          value={filter.kind}
          onChange={(kind: number) => onFilter({ ...filter, kind })}
          options={[{ value: 0, label: t('home.list.allTypes') }, ...kindOptions]}
          data-testid="device-type-filter"
          popupMatchSelectWidth={false}
          onOpenChange={(open) => open && setTypesWanted(true)}
        />
      </div>
      <div className="device-items">
        {loading && devices.length === 0 ? (
          <div className="home-panel-state"><Spin size="small" /></div>
        ) : shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={devices.length === 0 ? t('home.list.noDevices') : t('home.list.noMatch')} />
        ) : (
          <ul className="plain-stack">
            {shown.map((d) => (
              <DeviceRow key={d.sn} device={d} selected={d.sn === selectedSn} meId={meId} onSelect={onSelect} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
