import type { ReactNode } from 'react';
import { Select } from 'antd';
import { DEVICE_LIST_DEFAULT_SIZE, type DeviceListItem } from '@nest/contracts';
import { displayName } from '../fleet';
import { useCall } from '../query';

const NO_DEVICES: DeviceListItem[] = [];

/** The company's devices for a device filter, read once per screen (quietly: without the function there are none). */
export function useDeviceList(): DeviceListItem[] {
  const { data } = useCall('deviceList', { type: 0, page: 0, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet: true });
  return data?.list ?? NO_DEVICES;
}

/** A filter by device: searchable by name, cleared for every device (`onChange(null)`). */
export function DeviceSelect({
  devices,
  value,
  onChange,
  placeholder,
  width,
  testId,
  ariaLabel,
  showSn = true,
}: {
  devices: readonly DeviceListItem[];
  value: string | null | undefined;
  onChange: (sn: string | null) => void;
  placeholder: string;
  width: number;
  testId: string;
  ariaLabel?: string;
  /** The serial number after the name, "name (sn)". */
  showSn?: boolean;
}): ReactNode {
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={placeholder}
      value={value ?? undefined}
      onChange={(sn?: string) => onChange(sn ?? null)}
      options={devices.map((d) => ({ value: d.sn_id, label: showSn ? `${displayName(d)} (${d.sn_id})` : displayName(d) }))}
      style={{ width }}
      aria-label={ariaLabel}
      data-testid={testId}
    />
  );
}
