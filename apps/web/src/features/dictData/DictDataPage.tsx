import { useState, type ReactNode } from 'react';
import { Alert, Button, Typography, type TableColumnsType } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { RecordState, SUPER_ADMINISTRATOR, type FunctionItem } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, RowAction, actionsColumn, notesColumn, recordStateColumn, useCan, useClientPage, useEditDialog, useRowChange } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { invalidateCall, useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { FunctionDialog, functionFields } from './FunctionDialog';
import './dictData.css';

const PAGE_SIZE = 20;

/** dictData: the function (permission) list with search and a state filter; add, edit, delete (state 20) and restore. */
export default function DictDataPage(): ReactNode {
  const { t, lang } = useI18n();
  const can = useCan();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<number | undefined>(undefined);
  // The rows of the last answer stay on screen while other filters are read, and when a read fails.
  const functions = useCall('funList', { ...(search ? { search } : {}), ...(state ? { state: String(state) } : {}) }, { keepPrevious: true });
  const rows = functions.data?.list ?? [];
  const page = useClientPage([search, state]);
  const load = () => invalidateCall('funList');
  const editor = useEditDialog<FunctionItem | null>(load);
  const rowChange = useRowChange(load);

  const nameOf = (f: FunctionItem) => (lang === 'en' ? f.name_en : f.name) || f.fun_id;

  const setRowState = (f: FunctionItem, next: typeof RecordState.NORMAL | typeof RecordState.DELETED) =>
    rowChange.ask({
      title: next === RecordState.DELETED ? t('dictData.deleteTitle', { name: nameOf(f) }) : t('dictData.restoreTitle', { name: nameOf(f) }),
      content: next === RecordState.DELETED ? t('dictData.deleteBody') : t('dictData.restoreBody'),
      safe: next !== RecordState.DELETED,
      send: () => call('funEdit', functionFields({ ...f, state: next })),
      done: next === RecordState.DELETED ? t('admin.deleted') : t('dictData.restored'),
    });

  const columns: TableColumnsType<FunctionItem> = [
    { title: t('dictData.col.name'), key: 'name', dataIndex: 'name', width: 180, ellipsis: true },
    { title: t('dictData.col.nameEn'), key: 'name_en', dataIndex: 'name_en', width: 200, ellipsis: true },
    { title: t('dictData.col.funId'), key: 'fun_id', width: 220, render: (_, f) => <Typography.Text code>{f.fun_id}</Typography.Text> },
    { title: t('dictData.col.description'), key: 'description', dataIndex: 'description', ellipsis: true },
    recordStateColumn(100),
    notesColumn(160),
    ...actionsColumn(
      can('funEdit'),
      (f: FunctionItem) => (
        <EditDeleteActions
          onEdit={() => editor.show(f)}
          onDelete={f.state === RecordState.NORMAL && f.fun_id !== SUPER_ADMINISTRATOR && (() => setRowState(f, RecordState.DELETED))}
          editTestId={`function-edit-${f.fun_id}`}
          deleteTestId={`function-delete-${f.fun_id}`}
        >
          {f.state !== RecordState.NORMAL && (
            <RowAction icon={<UndoOutlined />} onClick={() => setRowState(f, RecordState.NORMAL)} testId={`function-restore-${f.fun_id}`}>
              {t('dictData.restore')}
            </RowAction>
          )}
        </EditDeleteActions>
      ),
      { width: 190 },
    ),
  ];

  return (
    <AdminPage
      testId="dict-data"
      title={t('dictData.title')}
      search={{ placeholder: t('dictData.searchPlaceholder'), onSearch: setSearch, width: 320, testId: 'function-search' }}
      filters={<OptionFilter value={state} onChange={setState} options={RecordState.options(lang)} allLabel={t('dictData.allStates')} width={130} testId="function-state-filter" />}
      onRefresh={load}
      add={can('funAdd') && { onClick: () => editor.show(null), testId: 'function-add' }}
    >
      {rowChange.holder}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('dictData.hint')}
      </Typography.Paragraph>
      {functions.isError && rows.length === 0 ? (
        <Alert type="warning" showIcon message={t('dictData.loadFailed')} action={<Button size="small" onClick={() => void load()}>{t('admin.refresh')}</Button>} />
      ) : (
        <AdminTable<FunctionItem>
          rows={rows}
          loading={functions.isFetching}
          pageSize={PAGE_SIZE}
          page={page}
          rowKey="fun_id"
          fitColumns
          columns={columns}
          empty={t('dictData.empty')}
          testId="function-table"
        />
      )}
      {editor.open && <FunctionDialog item={editor.open.of} {...editor.dialog} />}
    </AdminPage>
  );
}
