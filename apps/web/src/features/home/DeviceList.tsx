import { useEffect, useState, type ReactNode } from 'react';
import { Empty, Input, Select, Spin } from 'antd';
import { DeviceCategory, DeviceKind, OnlineStatus } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { markerColor } from '../../shared/map/markers';
import { fleetCounts, filterDevices, holderOf, typeOptions, type FleetDevice, type FleetFilter, type Holder } from './fleet';

/**
 * The online status of a device. A held device (state 3) reads "Controlled by you" in a colour of its
 * own when the signed-in user holds it, else "Connected by <nick>" (or the plain status when nobody is
 * named).
 */
export function StatusBadge({ state, holder }: { state: number; holder: Holder | null }): ReactNode {
  const { t, lang } = useI18n();
  const mine = state === 3 && holder?.mine === true;
  const nick = state === 3 && holder && !holder.mine ? holder.nick : null;
  const text = mine ? t('dashboard.status.mine') : nick ? t('dashboard.status.heldBy', { nick }) : OnlineStatus.label(state, lang);
  return (
    <span
      className={`status-badge status-${state}${mine ? ' status-mine' : ''}`}
      data-testid="status-badge"
      data-state={state}
      data-holder={state === 3 ? (mine ? 'me' : 'other') : undefined}
      title={text}
      style={{ ['--badge-color' as string]: markerColor(state, mine) }}
    >
      <i />
      {text}
    </span>
  );
}

/** The left panel: counts, search, type filter, and the devices with their online status. */
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
  const [types, setTypes] = useState<{ value: number; label: string }[]>([]);
  // The server's device types are read when the filter is first opened (until then the built-in kinds
  // stand in): the screen's first paint does not wait on a list nobody has looked at.
  const [typesWanted, setTypesWanted] = useState(false);
  useEffect(() => {
    if (!typesWanted) return;
    let live = true;
    call('userGetDeviceType', {}, { quiet: true })
      .then((data) => live && setTypes(typeOptions(data)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [typesWanted]);
  const kindOptions = types.length > 0 ? types : DeviceKind.options(lang);
  const shown = filterDevices(devices, filter);
  const counts = fleetCounts(devices);

  return (
    <section className="home-panel device-list" data-testid="device-list">
      <header className="home-panel-head">
        <h2>{t('fleet.title')}</h2>
        <div className="device-counts" data-testid="device-counts">
          <span>
            <b className="is-online" data-testid="count-online">{counts.online}</b> {t('fleet.online')}
          </span>
          <span className="sep">/</span>
          <span>
            <b data-testid="count-total">{counts.total}</b> {t('fleet.total')}
          </span>
        </div>
      </header>
      <div className="device-filters">
        <Input.Search
          allowClear
          size="small"
          placeholder={t('fleet.search')}
          value={filter.search}
          onChange={(e) => onFilter({ ...filter, search: e.target.value })}
          data-testid="device-search"
        />
        <Select
          size="small"
          value={filter.kind}
          onChange={(kind: number) => onFilter({ ...filter, kind })}
          options={[{ value: 0, label: t('fleet.allTypes') }, ...kindOptions]}
          data-testid="device-type-filter"
          popupMatchSelectWidth={false}
          onOpenChange={(open) => open && setTypesWanted(true)}
        />
      </div>
      <div className="device-items">
        {loading && devices.length === 0 ? (
          <div className="home-panel-state"><Spin size="small" /></div>
        ) : shown.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={devices.length === 0 ? t('fleet.noDevices') : t('fleet.noMatch')} />
        ) : (
          <ul>
            {shown.map((d) => (
              <li key={d.sn}>
                <button
                  type="button"
                  className={`device-item${d.sn === selectedSn ? ' is-selected' : ''}`}
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
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
