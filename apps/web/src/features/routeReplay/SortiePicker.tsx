import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, Empty, Select, Table } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { formatDateTime, formatDistanceText, formatHms, type Sortie } from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { useCall } from '../../shared/query';
import { call } from '../../shared/request';

/** Recent sorties shown by the picker. */
const PICKER_SIZE = 50;

/** Sortie row as /sorties/list answers it. */
type SortieRow = Sortie;

export interface SortiePickerProps {
  /** Device to start with (the current sortie's, when switching). */
  sn?: string;
  onPick: (sortId: string) => void;
}

/** Picks a sortie to replay: a device, then one of its recent sorties (newest first). */
export function SortiePicker({ sn, onPick }: SortiePickerProps): ReactNode {
  const { t, lang } = useI18n();
  const [device, setDevice] = useState<string | undefined>(sn);
  const [rows, setRows] = useState<SortieRow[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [nonce, setNonce] = useState(0);

  const deviceList = useCall('deviceList', { type: 0, page: 0, size: 1000 }, { quiet: true });
  const devices = useMemo(() => (deviceList.data?.list ?? []).map((x) => ({ sn: x.sn_id, name: x.name || x.sn_id })), [deviceList.data]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    call('sortiesList', { sn_id: device, page: 0, size: PICKER_SIZE }, { quiet: true })
      .then((d) => live && setRows(d.list))
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [device, nonce]);

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
        <Button icon={<ReloadOutlined />} onClick={() => setNonce((n) => n + 1)}>
          {t('routeReplay.picker.refresh')}
        </Button>
      </div>
      {error && <div className="replay-picker-error" role="alert">{error}</div>}
      <Table<SortieRow>
        size="small"
        rowKey="sort_id"
        loading={loading}
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
