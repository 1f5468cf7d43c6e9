import { useState, type ReactNode } from 'react';
import { Button, Empty, Modal, Select, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { DeviceKind, DeviceTypeState, VideoStream, calls, holds, type DeviceType } from '@nest/contracts';
import { AdminPage, SearchFilter, tablePagination, usePagedList } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { DeviceTypeDialog, deviceTypeFields } from './DeviceTypeDialog';

const PAGE_SIZE = 10;

/** deviceType: the device-type catalogue (global) with kind / state filters and search; add, edit, enable/disable, delete. */
export default function DeviceTypePage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<number | undefined>(undefined);
  const [state, setState] = useState<number | undefined>(undefined);
  const list = usePagedList<'deviceTypeAdminList', DeviceType>('deviceTypeAdminList', { search, cla_type: kind, state }, PAGE_SIZE);
  const [editing, setEditing] = useState<{ type: DeviceType | null } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const canAdd = holds(user?.fun_list, calls.deviceTypeAdd.access);
  const canEdit = holds(user?.fun_list, calls.deviceTypeEdit.access);

  /** The edit call with the row's fields and another state. */
  const setRowState = async (d: DeviceType, next: number) => {
    setBusy(d.id);
    try {
      await call('deviceTypeEdit', {
        id: d.id,
        ...deviceTypeFields({ cla_type: d.cla_type, cla_name: d.cla_name, value: d.value, stream: d.stream, enabled: true, notes: d.notes }),
        state: next,
      });
      await list.reload();
      return true;
    } catch {
      return false;
    } finally {
      setBusy(null);
    }
  };

  const confirmState = (d: DeviceType, enable: boolean) =>
    modal.confirm({
      title: enable ? t('deviceType.enabledDone') : t('deviceType.disabledDone'),
      content: enable ? t('deviceType.confirmEnable', { name: d.cla_name }) : t('deviceType.confirmDisable', { name: d.cla_name }),
      okButtonProps: { danger: !enable, 'data-testid': 'confirm-ok' } as never,
      onOk: async () => {
        if (await setRowState(d, enable ? 10 : 20)) notify().success(enable ? t('deviceType.enabledDone') : t('deviceType.disabledDone'));
      },
    });

  const confirmDelete = (d: DeviceType) =>
    modal.confirm({
      title: t('admin.delete'),
      content: t('admin.confirmDelete', { name: d.cla_name }),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as never,
      onOk: async () => {
        if (await setRowState(d, 30)) notify().success(t('admin.deleted'));
      },
    });

  const columns: TableColumnsType<DeviceType> = [
    { title: t('deviceType.col.claType'), key: 'kind', render: (_, d) => DeviceKind.label(d.cla_type, lang) },
    { title: t('deviceType.col.claName'), key: 'name', dataIndex: 'cla_name' },
    { title: t('deviceType.col.value'), key: 'value', render: (_, d) => <Typography.Text code>{d.value}</Typography.Text> },
    { title: t('deviceType.col.stream'), key: 'stream', render: (_, d) => VideoStream.label(d.stream, lang) },
    {
      title: t('admin.state'),
      key: 'state',
      render: (_, d) => (
        <Space size={6}>
          <Switch
            size="small"
            checked={d.state === 10}
            loading={busy === d.id}
            disabled={!canEdit}
            onChange={(on) => confirmState(d, on)}
            data-testid={`device-type-state-${d.value}`}
          />
          <span>{DeviceTypeState.label(d.state, lang)}</span>
        </Space>
      ),
    },
    { title: t('admin.notes'), key: 'notes', ellipsis: true, render: (_, d) => d.notes || '--' },
    { title: t('admin.modifiedTime'), key: 'modified', render: (_, d) => <span style={{ whiteSpace: 'nowrap' }}>{formatSeconds(d.modified_time)}</span> },
    ...(canEdit
      ? [
          {
            title: t('admin.actions'),
            key: 'actions',
            render: (_: unknown, d: DeviceType) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ type: d })} data-testid={`device-type-edit-${d.value}`}>
                  {t('admin.edit')}
                </Button>
                <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmDelete(d)} data-testid={`device-type-delete-${d.value}`}>
                  {t('admin.delete')}
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <AdminPage
      testId="device-type"
      title={t('deviceType.title')}
      filters={
        <>
          <SearchFilter placeholder={t('deviceType.searchPlaceholder')} onSearch={setSearch} width={300} testId="device-type-search" />
          <Select
            value={kind ?? 0}
            onChange={(v) => setKind(v === 0 ? undefined : v)}
            options={[{ value: 0, label: t('deviceType.allKinds') }, ...DeviceKind.options(lang)]}
            style={{ width: 150 }}
            data-testid="device-type-kind"
          />
          <Select
            value={state ?? 0}
            onChange={(v) => setState(v === 0 ? undefined : v)}
            options={[{ value: 0, label: t('deviceType.allStates') }, ...DeviceTypeState.options(lang).filter((o) => o.value !== 30)]}
            style={{ width: 130 }}
            data-testid="device-type-state"
          />
        </>
      }
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void list.reload()}>
            {t('admin.refresh')}
          </Button>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ type: null })} data-testid="device-type-add">
              {t('admin.add')}
            </Button>
          )}
        </>
      }
    >
      {modalHolder}
      <Typography.Text type="secondary">{t('deviceType.globalHint')}</Typography.Text>
      <Table<DeviceType>
        rowKey="id"
        size="middle"
        loading={list.loading}
        columns={columns}
        dataSource={list.rows}
        pagination={tablePagination(list, (total) => t('admin.total', { total }))}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('deviceType.empty')} /> }}
        data-testid="device-type-table"
      />
      {editing && (
        <DeviceTypeDialog
          type={editing.type}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void list.reload();
          }}
        />
      )}
    </AdminPage>
  );
}
