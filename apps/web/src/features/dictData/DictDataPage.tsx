import { useState, type ReactNode } from 'react';
import { Alert, Button, Modal, Tag, Typography, type TableColumnsType } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { RecordState, SUPER_ADMINISTRATOR, calls, holds, type FunctionItem } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, RowAction, confirmChange, useClientPage } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { invalidateCall, useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { FunctionDialog, functionFields } from './FunctionDialog';
import './dictData.css';

const PAGE_SIZE = 20;

/** dictData: the function (permission) list with search and a state filter; add, edit, delete (state 20) and restore. */
export default function DictDataPage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<number | undefined>(undefined);
  const [editing, setEditing] = useState<{ item: FunctionItem | null } | null>(null);
  const canAdd = holds(user?.fun_list, calls.funAdd.access);
  const canEdit = holds(user?.fun_list, calls.funEdit.access);
  // The rows of the last answer stay on screen while other filters are read, and when a read fails.
  const functions = useCall('funList', { ...(search ? { search } : {}), ...(state ? { state: String(state) } : {}) }, { keepPrevious: true });
  const rows = functions.data?.list ?? [];
  const failed = functions.isError;
  const page = useClientPage([search, state]);
  const load = () => invalidateCall('funList');

  const nameOf = (f: FunctionItem) => (lang === 'en' ? f.name_en : f.name) || f.fun_id;

  const setRowState = (f: FunctionItem, next: typeof RecordState.NORMAL | typeof RecordState.DELETED) =>
    confirmChange(modal.confirm, {
      title: next === RecordState.DELETED ? t('dictData.deleteTitle', { name: nameOf(f) }) : t('dictData.restoreTitle', { name: nameOf(f) }),
      content: next === RecordState.DELETED ? t('dictData.deleteBody') : t('dictData.restoreBody'),
      safe: next !== RecordState.DELETED,
      onOk: async () => {
        try {
          await call('funEdit', functionFields({ ...f, state: next }));
          notify().success(next === RecordState.DELETED ? t('admin.deleted') : t('dictData.restored'));
          await load();
        } catch {
          // Shown by the request layer.
        }
      },
    });

  const columns: TableColumnsType<FunctionItem> = [
    { title: t('dictData.col.name'), key: 'name', dataIndex: 'name', width: 180, ellipsis: true },
    { title: t('dictData.col.nameEn'), key: 'name_en', dataIndex: 'name_en', width: 200, ellipsis: true },
    { title: t('dictData.col.funId'), key: 'fun_id', width: 220, render: (_, f) => <Typography.Text code>{f.fun_id}</Typography.Text> },
    { title: t('dictData.col.description'), key: 'description', dataIndex: 'description', ellipsis: true },
    {
      title: t('admin.state'),
      key: 'state',
      width: 100,
      render: (_, f) => <Tag color={f.state === RecordState.NORMAL ? 'green' : 'default'}>{RecordState.label(f.state, lang)}</Tag>,
    },
    { title: t('admin.notes'), key: 'notes', width: 160, ellipsis: true, render: (_, f) => f.notes || '--' },
    ...(canEdit
      ? [
          {
            title: t('admin.actions'),
            key: 'actions',
            width: 190,
            render: (_: unknown, f: FunctionItem) => (
              <EditDeleteActions
                onEdit={() => setEditing({ item: f })}
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
          },
        ]
      : []),
  ];

  return (
    <AdminPage
      testId="dict-data"
      title={t('dictData.title')}
      search={{ placeholder: t('dictData.searchPlaceholder'), onSearch: setSearch, width: 320, testId: 'function-search' }}
      filters={<OptionFilter value={state} onChange={setState} options={RecordState.options(lang)} allLabel={t('dictData.allStates')} width={130} testId="function-state-filter" />}
      onRefresh={load}
      add={canAdd && { onClick: () => setEditing({ item: null }), testId: 'function-add' }}
    >
      {modalHolder}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('dictData.hint')}
      </Typography.Paragraph>
      {failed && rows.length === 0 ? (
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
      {editing && (
        <FunctionDialog
          item={editing.item}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
    </AdminPage>
  );
}
