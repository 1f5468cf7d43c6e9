import type { ReactNode } from 'react';
import { Space, Switch, Typography, type TableColumnsType } from 'antd';
import { DeviceKind, DeviceTypeState, VideoStream, type DeviceType } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, actionsColumn, useFilters, notesColumn, timeColumn, useCan, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { DeviceTypeDialog, deviceTypeFields } from './DeviceTypeDialog';

const PAGE_SIZE = 10;

/** deviceType: the device-type catalogue (global) with kind / state filters and search; add, edit, enable/disable, delete. */
export default function DeviceTypePage(): ReactNode {
  const { t, lang } = useI18n();
  const can = useCan();
  const [filters, setFilters] = useFilters<{ search: string; cla_type?: number; state?: number }>({ search: '' });
  const list = usePagedList('deviceTypeAdminList', filters, PAGE_SIZE);
  const editor = useEditDialog<DeviceType | null>(list.reload);
  const rowChange = useRowChange(list.reload);
  const canEdit = can('deviceTypeEdit');

  /** The edit call with the row's fields and another state. */
  const sendState = (d: DeviceType, next: number) => () =>
    call('deviceTypeEdit', {
      id: d.id,
      ...deviceTypeFields({ cla_type: d.cla_type, cla_name: d.cla_name, value: d.value, stream: d.stream, enabled: true, notes: d.notes }),
      state: next,
    });

  const confirmState = (d: DeviceType, enable: boolean) =>
    rowChange.ask({
      title: enable ? t('deviceType.enabledDone') : t('deviceType.disabledDone'),
      content: enable ? t('deviceType.confirmEnable', { name: d.cla_name }) : t('deviceType.confirmDisable', { name: d.cla_name }),
      safe: enable,
      send: sendState(d, enable ? DeviceTypeState.ENABLED : DeviceTypeState.DISABLED),
      done: enable ? t('deviceType.enabledDone') : t('deviceType.disabledDone'),
      busyKey: d.id,
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
            loading={rowChange.busy === d.id}
            disabled={!canEdit}
            onChange={(on) => confirmState(d, on)}
            data-testid={`device-type-state-${d.value}`}
          />
          <span>{DeviceTypeState.label(d.state, lang)}</span>
        </Space>
      ),
    },
    notesColumn(),
    timeColumn(t('admin.modifiedTime'), 'modified', (d) => d.modified_time),
    ...actionsColumn(canEdit, (d: DeviceType) => (
      <EditDeleteActions
        onEdit={() => editor.show(d)}
        onDelete={() => rowChange.askDelete(d.cla_name, sendState(d, DeviceTypeState.DELETED))}
        editTestId={`device-type-edit-${d.value}`}
        deleteTestId={`device-type-delete-${d.value}`}
      />
    )),
  ];

  return (
    <AdminPage
      testId="device-type"
      title={t('deviceType.title')}
      search={{ placeholder: t('deviceType.searchPlaceholder'), onSearch: (search) => setFilters({ search }), width: 300, testId: 'device-type-search' }}
      filters={
        <>
          <OptionFilter value={filters.cla_type} onChange={(cla_type) => setFilters({ cla_type })} options={DeviceKind.options(lang)} allLabel={t('deviceType.allKinds')} width={150} testId="device-type-kind" />
          <OptionFilter
            value={filters.state}
            onChange={(state) => setFilters({ state })}
            options={DeviceTypeState.options(lang).filter((o) => o.value !== DeviceTypeState.DELETED)}
            allLabel={t('deviceType.allStates')}
            width={130}
            testId="device-type-state"
          />
        </>
      }
      onRefresh={list.reload}
      add={can('deviceTypeAdd') && { onClick: () => editor.show(null), testId: 'device-type-add' }}
    >
      {rowChange.holder}
      <Typography.Text type="secondary">{t('deviceType.globalHint')}</Typography.Text>
      <AdminTable<DeviceType> list={list} columns={columns} empty={t('deviceType.empty')} testId="device-type-table" />
      {editor.open && <DeviceTypeDialog type={editor.open.of} {...editor.dialog} />}
    </AdminPage>
  );
}
