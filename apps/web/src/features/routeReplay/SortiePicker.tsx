import { useMemo, useState, type ReactNode } from 'react';
import { Button, Empty, Select, Table } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { formatDateTime, formatDistanceText, formatHms, type Sortie } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { useCall } from '../../shared/query';

/** Recent sorties shown by the picker. */
const PICKER_SIZE = 50;

/** Sortie row as /sorties/list answers it. */
type SortieRow = Sortie;
/** The same empty list while nothing is read. */
const NO_ROWS: SortieRow[] = [];

export interface SortiePickerProps {
  /** Device to start with (the current sortie's, when switching). */
  sn?: string;
  onPick: (sortId: string) => void;
}

/** Picks a sortie to replay: a device, then one of its recent sorties (newest first). */
export function SortiePicker({ sn, onPick }: SortiePickerProps): ReactNode {
  const { t, lang } = useI18n();
  const [device, setDevice] = useState<string | undefined>(sn);

  const deviceList = useCall('deviceList', { type: 0, page: 0, size: 1000 }, { quiet: true });
  const devices = useMemo(() => (deviceList.data?.list ?? []).map((x) => ({ sn: x.sn_id, name: x.name || x.sn_id })), [deviceList.data]);

  // The rows of the previous device stay on screen while another device's sorties are read; the picker says
  // a failure itself (the read is quiet), until the next read starts.
  const sorties = useCall('sortiesList', { sn_id: device, page: 0, size: PICKER_SIZE }, { quiet: true, keepPrevious: true });
  const rows: SortieRow[] = sorties.data?.list ?? NO_ROWS;
  const error = sorties.isFetching ? null : (sorties.error?.message ?? null);

  return (
    <div className="replay-picker" data-testid="replay-picker">
      <div className="replay-picker-bar">
        <span>{t('routeReplay.picker.device')}</span>
        <Select
          data-testid="replay-picker-device"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 240 }}
          placeholder={t('routeReplay.picker.allDevices')}
          value={device}
          onChange={(v?: string) => setDevice(v || undefined)}
          options={devices.map((d) => ({ value: d.sn, label: d.name === d.sn ? d.sn : `${d.name} (${d.sn})` }))}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void sorties.refetch()}>
          {t('routeReplay.picker.refresh')}
        </Button>
      </div>
      {error && <div className="replay-picker-error" role="alert">{error}</div>}
      <Table<SortieRow>
        size="small"
        rowKey="sort_id"
        loading={sorties.isFetching}
        dataSource={rows}
        pagination={false}
        scroll={{ y: 420 }}
        locale={{ emptyText: <Empty description={t('routeReplay.picker.empty')} /> }}
        onRow={(r) => ({ onDoubleClick: () => onPick(r.sort_id), 'data-testid': 'replay-picker-row', 'data-id': r.sort_id } as React.HTMLAttributes<HTMLElement>)}
        columns={[
          { key: 'route', title: t('routeReplay.picker.route'), dataIndex: 'mission_name', ellipsis: true, render: (v: string) => v || t('results.sortie.oneKey') },
          { key: 'device', title: t('routeReplay.picker.device'), dataIndex: 'device_name', ellipsis: true, render: (v: string, r) => v || r.sn_id },
          { key: 'start', title: t('routeReplay.picker.start'), dataIndex: 'start_time', width: 175, render: (v: number) => formatDateTime(v * 1000, lang) },
          {
            key: 'duration',
            title: t('routeReplay.picker.duration'),
            width: 90,
            render: (_: unknown, r) => (r.end_time ? formatHms(r.end_time - r.start_time) : t('routeReplay.meta.flying')),
          },
          { key: 'distance', title: t('routeReplay.picker.distance'), dataIndex: 'distance', width: 90, render: (v: number) => formatDistanceText(v) },
          { key: 'count', title: t('routeReplay.picker.count'), dataIndex: 'count', width: 64 },
          {
            key: 'go',
            title: '',
            width: 84,
            render: (_: unknown, r) => (
              <Button size="small" type="primary" onClick={() => onPick(r.sort_id)} data-testid="replay-pick">
                {t('routeReplay.picker.replay')}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
