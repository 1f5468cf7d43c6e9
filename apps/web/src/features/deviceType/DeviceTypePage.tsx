import { useState, type ReactNode } from 'react';
import { Modal, Space, Switch, Typography, type TableColumnsType } from 'antd';
import { DeviceKind, DeviceTypeState, VideoStream, calls, holds, type DeviceType } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, confirmChange, confirmDelete, usePagedList } from '../../shared/admin';
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
  const list = usePagedList('deviceTypeAdminList', { search, cla_type: kind, state }, PAGE_SIZE);
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
    confirmChange(modal.confirm, {
      title: enable ? t('deviceType.enabledDone') : t('deviceType.disabledDone'),
      content: enable ? t('deviceType.confirmEnable', { name: d.cla_name }) : t('deviceType.confirmDisable', { name: d.cla_name }),
      safe: enable,
      onOk: async () => {
        if (await setRowState(d, enable ? DeviceTypeState.ENABLED : DeviceTypeState.DISABLED))
          notify().success(enable ? t('deviceType.enabledDone') : t('deviceType.disabledDone'));
      },
    });

  const askDelete = (d: DeviceType) =>
    confirmDelete(modal.confirm, d.cla_name, async () => {
      if (await setRowState(d, DeviceTypeState.DELETED)) notify().success(t('admin.deleted'));
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
            checked={d.state === DeviceTypeState.ENABLED}
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
              <EditDeleteActions
                onEdit={() => setEditing({ type: d })}
                onDelete={() => askDelete(d)}
                editTestId={`device-type-edit-${d.value}`}
                deleteTestId={`device-type-delete-${d.value}`}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <AdminPage
      testId="device-type"
      title={t('deviceType.title')}
      search={{ placeholder: t('deviceType.searchPlaceholder'), onSearch: setSearch, width: 300, testId: 'device-type-search' }}
      filters={
        <>
          <OptionFilter value={kind} onChange={setKind} options={DeviceKind.options(lang)} allLabel={t('deviceType.allKinds')} width={150} testId="device-type-kind" />
          <OptionFilter
            value={state}
            onChange={setState}
            options={DeviceTypeState.options(lang).filter((o) => o.value !== DeviceTypeState.DELETED)}
            allLabel={t('deviceType.allStates')}
            width={130}
            testId="device-type-state"
          />
        </>
      }
      onRefresh={list.reload}
      add={canAdd && { onClick: () => setEditing({ type: null }), testId: 'device-type-add' }}
    >
      {modalHolder}
      <Typography.Text type="secondary">{t('deviceType.globalHint')}</Typography.Text>
      <AdminTable<DeviceType> list={list} columns={columns} empty={t('deviceType.empty')} testId="device-type-table" />
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
