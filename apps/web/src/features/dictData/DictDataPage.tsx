import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Modal, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined, UndoOutlined } from '@ant-design/icons';
import { RecordState, SUPER_ADMINISTRATOR, calls, holds, type FunctionItem, type Page } from '@nest/contracts';
import { AdminPage, SearchFilter, columnsWidth } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
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
  const [state, setState] = useState<number>(0);
  const [rows, setRows] = useState<FunctionItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ item: FunctionItem | null } | null>(null);
  const seq = useRef(0);
  const canAdd = holds(user?.fun_list, calls.funAdd.access);
  const canEdit = holds(user?.fun_list, calls.funEdit.access);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const data = await call<'funList', Page<FunctionItem>>('funList', { ...(search ? { search } : {}), ...(state ? { state: String(state) } : {}) });
      if (mine !== seq.current) return;
      setRows(data?.list ?? []);
      setFailed(false);
    } catch {
      if (mine === seq.current) setFailed(true);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [search, state]);

  useEffect(() => {
    setPage(1);
    void load();
  }, [load]);

  const nameOf = (f: FunctionItem) => (lang === 'en' ? f.name_en : f.name) || f.fun_id;

  const setRowState = (f: FunctionItem, next: 10 | 20) =>
    modal.confirm({
      title: next === 20 ? t('dictData.deleteTitle', { name: nameOf(f) }) : t('dictData.restoreTitle', { name: nameOf(f) }),
      content: next === 20 ? t('dictData.deleteBody') : t('dictData.restoreBody'),
      okButtonProps: { danger: next === 20, 'data-testid': 'confirm-ok' } as never,
      onOk: async () => {
        try {
          await call('funEdit', functionFields({ ...f, state: next }));
          notify().success(next === 20 ? t('admin.deleted') : t('dictData.restored'));
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
      render: (_, f) => <Tag color={f.state === 10 ? 'green' : 'default'}>{RecordState.label(f.state as 10 | 20, lang)}</Tag>,
    },
    { title: t('admin.notes'), key: 'notes', width: 160, ellipsis: true, render: (_, f) => f.notes || '--' },
    ...(canEdit
      ? [
          {
            title: t('admin.actions'),
            key: 'actions',
            width: 190,
            render: (_: unknown, f: FunctionItem) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ item: f })} data-testid={`function-edit-${f.fun_id}`}>
                  {t('admin.edit')}
                </Button>
                {f.state === 10 ? (
                  f.fun_id !== SUPER_ADMINISTRATOR && (
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => setRowState(f, 20)} data-testid={`function-delete-${f.fun_id}`}>
                      {t('admin.delete')}
                    </Button>
                  )
                ) : (
                  <Button type="link" size="small" icon={<UndoOutlined />} onClick={() => setRowState(f, 10)} data-testid={`function-restore-${f.fun_id}`}>
                    {t('dictData.restore')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <AdminPage
      testId="dict-data"
      title={t('dictData.title')}
      filters={
        <>
          <SearchFilter placeholder={t('dictData.searchPlaceholder')} onSearch={setSearch} width={320} testId="function-search" />
          <Select
            value={state}
            onChange={setState}
            options={[{ value: 0, label: t('dictData.allStates') }, ...RecordState.options(lang)]}
            style={{ width: 130 }}
            data-testid="function-state-filter"
          />
        </>
      }
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void load()}>
            {t('admin.refresh')}
          </Button>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })} data-testid="function-add">
              {t('admin.add')}
            </Button>
          )}
        </>
      }
    >
      {modalHolder}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('dictData.hint')}
      </Typography.Paragraph>
      {failed && rows.length === 0 ? (
        <Alert type="warning" showIcon message={t('dictData.loadFailed')} action={<Button size="small" onClick={() => void load()}>{t('admin.refresh')}</Button>} />
      ) : (
        <Table<FunctionItem>
          rowKey="fun_id"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          scroll={{ x: columnsWidth(columns) }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: rows.length, showSizeChanger: false, size: 'small', onChange: setPage, showTotal: (total) => t('admin.total', { total }) }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dictData.empty')} /> }}
          data-testid="function-table"
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
