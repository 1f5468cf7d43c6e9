import { useMemo, useState, type ReactNode } from 'react';
import { Badge, Empty, Select, Space, Switch, Tag, Tooltip, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, ToolOutlined } from '@ant-design/icons';
import {
  Company,
  DeviceCategory,
  DeviceProtocol,
  LinkType,
  OnlineStatus,
  SUPER_ADMINISTRATOR,
  calls,
  holds,
  type CallName,
  type Device,
  type DeviceAdded,
  type DeviceListItem,
  type DjiCredentials,
} from '@nest/contracts';
import { AdminPage, AdminTable, RowAction, timeColumn, useCan, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { displayName, useFleet } from '../../shared/fleet';
import MaintenanceDrawer from './maintenance/MaintenanceDrawer';
import { CredentialsDialog } from './CredentialsDialog';
import { DeviceFormDialog } from './DeviceFormDialog';
import { kindFilterOptions } from './form';
import { blockOf, liveOf, type Block } from './rows';
import './equipment.css';

const PAGE_SIZE = 10;
/** The calls behind the maintenance drawer: any one of them shows its action. */
const MAINTENANCE_CALLS: readonly CallName[] = ['deviceUpgrade', 'deviceCalibrate', 'deviceBeacon', 'deviceAzimuth', 'deviceRtk', 'deviceLog', 'deviceOps', 'deviceDebug'];

const STATUS_BADGE = { [OnlineStatus.ONLINE]: 'success', [OnlineStatus.OFFLINE]: 'default', [OnlineStatus.CONNECTED_BY_OTHER]: 'warning' } as const;

/**
 * equipment: the devices of the company with search, type filter and paging; add, edit, delete, enable,
 * maintenance. Without the device list function the screen says so and makes no calls.
 */
export default function EquipmentPage(): ReactNode {
  const { t } = useI18n();
  const user = useUser();
  if (!holds(user?.fun_list, calls.deviceList.access)) {
    return (
      <AdminPage testId="equipment" title={t('equipment.title')}>
        <Empty description={t('admin.noPermission')} data-testid="equipment-no-permission" />
      </AdminPage>
    );
  }
  return <EquipmentScreen />;
}

function EquipmentScreen(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const can = useCan();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState(0);
  const list = usePagedList('deviceList', { type: kind, search }, PAGE_SIZE);
  const fleet = useFleet();
  const [maintained, setMaintained] = useState<DeviceListItem | null>(null);
  /** A DJI device's credentials just added or issued: shown once. */
  const [issued, setIssued] = useState<{ credentials: DjiCredentials; name: string } | null>(null);

  const canEdit = can('deviceEdit');
  const canDelete = can('deviceDelete');
  const canEnable = can('deviceEnable');
  const canMaintain = MAINTENANCE_CALLS.some((n) => can(n));
  const isSuper = user?.fun_list.includes(SUPER_ADMINISTRATOR) ?? false;

  const liveBySn = useMemo(() => new Map(fleet.devices.map((d) => [d.sn, d])), [fleet.devices]);
  const reference = useMemo(
    () => fleet.devices.flatMap((d) => (d.position ? [{ sn: d.sn, name: d.name, position: d.position }] : [])),
    [fleet.devices],
  );
  const refresh = async () => {
    await list.reload();
    fleet.reload();
  };
  const editor = useEditDialog<Device | null>(refresh);
  const rowChange = useRowChange(refresh);

  const blockText = (b: Block): string =>
    b.kind === 'held' ? t('equipment.hint.held', { nick: b.nick }) : b.kind === 'disabled' ? t('equipment.hint.disabled') : t('equipment.hint.shared');

  const saved = (d: DeviceAdded) => {
    editor.dialog.onSaved();
    if (d.dji) setIssued({ credentials: d.dji, name: d.airport_name || d.uav_name || d.sn_id });
  };

  const askCredentials = (d: DeviceListItem) =>
    rowChange.ask({
      title: t('equipment.action.credentials'),
      content: t('equipment.confirmCredentials', { name: displayName(d) }),
      send: async () => {
        const credentials = await call('deviceDjiCredentials', { id: d.id });
        setIssued({ credentials, name: displayName(d) });
      },
      done: t('equipment.dji.issued'),
      busyKey: d.id,
    });

  const askDelete = (d: DeviceListItem) => rowChange.askDelete(displayName(d), () => call('deviceDelete', { id: d.id }));

  const confirmEnable = (d: DeviceListItem, enabled: boolean) =>
    rowChange.ask({
      title: enabled ? t('equipment.enabledDone') : t('equipment.disabledDone'),
      content: enabled ? t('equipment.confirmEnable', { name: displayName(d) }) : t('equipment.confirmDisable', { name: displayName(d) }),
      safe: enabled,
      send: () => call('deviceEnable', { id: d.id, enabled: enabled ? 1 : 0 }),
      done: enabled ? t('equipment.enabledDone') : t('equipment.disabledDone'),
      busyKey: d.id,
    });

  /** An action button: hidden without the function, disabled with the reason when blocked. */
  const action = (key: string, show: boolean, blocked: Block | null, icon: ReactNode, label: string, onClick: () => void, danger = false) =>
    show ? (
      <Tooltip key={key} title={blocked ? blockText(blocked) : undefined}>
        <RowAction danger={danger} icon={icon} disabled={blocked !== null} onClick={onClick} testId={`device-${key}`}>
          {label}
        </RowAction>
      </Tooltip>
    ) : null;

  const columns: TableColumnsType<DeviceListItem> = [
    {
      title: t('equipment.col.name'),
      key: 'name',
      render: (_, d) => (
        <Space size={4}>
          <span className="equipment-name">{displayName(d)}</span>
          {d.shared && <Tag>{t('equipment.hint.shared')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('equipment.col.sn'),
      key: 'sn',
      render: (_, d) => (
        <div className="equipment-sn">
          <span>{d.sn_id}</span>
          {d.uav_sn && d.uav_sn !== d.sn_id && <small>{d.uav_sn}</small>}
        </div>
      ),
    },
    { title: t('equipment.col.type'), key: 'type', render: (_, d) => DeviceCategory.label(d.type, lang) },
    { title: t('equipment.col.linkType'), key: 'link', render: (_, d) => LinkType.label(d.link_type, lang) },
    {
      title: t('equipment.col.protocol'),
      key: 'protocol',
      render: (_, d) => (
        <span className={d.protocol === DeviceProtocol.DJI ? 'equipment-protocol-dji' : undefined} data-testid={`protocol-${d.sn_id}`}>
          {DeviceProtocol.label(d.protocol, lang)}
        </span>
      ),
    },
    { title: t('equipment.col.address'), key: 'address', ellipsis: true, width: 180, render: (_, d) => d.address || '--' },
    {
      title: t('equipment.col.status'),
      key: 'status',
      render: (_, d) => {
        const live = liveOf(d, liveBySn.get(d.sn_id));
        // Held by the signed-in user reads "Controlled by you" (blue), as on the data screen.
        const mine = live.state === OnlineStatus.CONNECTED_BY_OTHER && !!live.connectedBy && live.connectedBy.u_id === user?.u_id;
        const text = mine
          ? t('fleet.status.mine')
          : live.state === OnlineStatus.CONNECTED_BY_OTHER && live.connectedBy
            ? t('equipment.heldBy', { nick: live.connectedBy.nick })
            : OnlineStatus.label(live.state, lang);
        return <Badge status={mine ? 'processing' : STATUS_BADGE[live.state]} text={text} data-testid={`status-${d.sn_id}`} data-holder={live.state === OnlineStatus.CONNECTED_BY_OTHER ? (mine ? 'me' : 'other') : undefined} />;
      },
    },
    ...(isSuper ? [{ title: t('equipment.col.company'), key: 'company', render: (_: unknown, d: DeviceListItem) => Company.label(d.company, lang) }] : []),
    {
      title: t('equipment.col.enabled'),
      key: 'enabled',
      render: (_, d) => {
        const blocked = blockOf(d, liveOf(d, liveBySn.get(d.sn_id)), user?.u_id, 'enable');
        return (
          <Tooltip title={blocked ? blockText(blocked) : undefined}>
            <Switch
              size="small"
              checked={d.enabled}
              loading={rowChange.busy === d.id}
              disabled={!canEnable || blocked !== null}
              onChange={(on) => confirmEnable(d, on)}
              data-testid={`enable-${d.sn_id}`}
            />
          </Tooltip>
        );
      },
    },
    timeColumn(t('admin.createTime'), 'created', (d) => d.create_time, 170),
    {
      title: t('admin.actions'),
      key: 'actions',
      width: lang === 'en' ? 390 : 300,
      render: (_, d) => {
        const live = liveOf(d, liveBySn.get(d.sn_id));
        const block = (what: 'edit' | 'delete' | 'maintain') => blockOf(d, live, user?.u_id, what);
        return (
          <Space size={0}>
            {action(`edit-${d.sn_id}`, canEdit, block('edit'), <EditOutlined />, t('admin.edit'), () => editor.show(d))}
            {d.protocol === DeviceProtocol.DJI &&
              action(`credentials-${d.sn_id}`, canEdit, block('edit'), <KeyOutlined />, t('equipment.action.credentialsShort'), () => askCredentials(d))}
            {action(`maintain-${d.sn_id}`, canMaintain, block('maintain'), <ToolOutlined />, t('equipment.action.maintenance'), () => setMaintained(d))}
            {action(`delete-${d.sn_id}`, canDelete, block('delete'), <DeleteOutlined />, t('admin.delete'), () => askDelete(d), true)}
          </Space>
        );
      },
    },
  ];

  return (
    <AdminPage
      testId="equipment"
      title={t('equipment.title')}
      search={{ placeholder: t('equipment.searchPlaceholder'), onSearch: setSearch, width: 320, testId: 'equipment-search' }}
      filters={<Select value={kind} options={kindFilterOptions(lang, t('equipment.allTypes'))} onChange={setKind} style={{ width: 160 }} data-testid="equipment-kind" />}
      onRefresh={refresh}
      add={can('deviceAdd') && { onClick: () => editor.show(null), testId: 'device-add' }}
    >
      {rowChange.holder}
      <AdminTable<DeviceListItem>
        list={list}
        columns={columns}
        empty={t('equipment.empty')}
        rowClassName={(d) => (d.enabled ? '' : 'equipment-row-disabled')}
        testId="equipment-table"
      />
      <DeviceFormDialog
        open={editor.open !== null}
        device={editor.open?.of ?? null}
        reference={reference}
        onClose={editor.dialog.onClose}
        onSaved={saved}
      />
      <CredentialsDialog credentials={issued?.credentials ?? null} name={issued?.name ?? ''} onClose={() => setIssued(null)} />
      <MaintenanceDrawer device={maintained} onClose={() => setMaintained(null)} />
    </AdminPage>
  );
}
