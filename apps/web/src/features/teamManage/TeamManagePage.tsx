import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Modal, Select, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, DragOutlined, EditOutlined, PlusOutlined, ReloadOutlined, SubnodeOutlined, UndoOutlined } from '@ant-design/icons';
import { Company, RecordState, SUPER_ADMINISTRATOR, calls, holds, type DepartmentNode } from '@nest/contracts';
import { AdminPage, SearchFilter, columnsWidth } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { TeamDialog, teamEditFields, type TeamDialogMode } from './TeamDialog';
import { expandableKeys, flattenTree, liveChildren, tableRows, visibleTree } from './tree';
import './teamManage.css';

/** teamManage: the department tree of a company with member counts; add (top or below), edit, move, delete, restore. */
export default function TeamManagePage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const isSuper = !!user?.fun_list.includes(SUPER_ADMINISTRATOR);
  const [modal, modalHolder] = Modal.useModal();
  const [companyId, setCompanyId] = useState(user?.in_com.id ?? '');
  const [search, setSearch] = useState('');
  const [showDeleted, setShowDeleted] = useState(false);
  const [tree, setTree] = useState<DepartmentNode[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  // Branches the user closed; every other branch is open (new ones too).
  const [collapsed, setCollapsed] = useState<string[]>([]);
  const [dialog, setDialog] = useState<TeamDialogMode | null>(null);
  const seq = useRef(0);
  const canAdd = holds(user?.fun_list, calls.teamAdd.access);
  const canEdit = holds(user?.fun_list, calls.teamEdit.access);
  const canDelete = holds(user?.fun_list, calls.teamDelete.access);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const data = await call('teamList', isSuper && companyId ? { in_com_id: companyId } : {});
      if (mine !== seq.current) return;
      const list = data?.list ?? [];
      setTree(list);
      setFailed(false);
    } catch {
      if (mine === seq.current) setFailed(true);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [companyId, isSuper]);

  useEffect(() => {
    void load();
  }, [load]);

  const shown = useMemo(() => visibleTree(tree, search, showDeleted), [tree, search, showDeleted]);
  const rows = useMemo(() => tableRows(shown), [shown]);
  const byId = useMemo(() => new Map(flattenTree(tree).map((n) => [n.id, n])), [tree]);
  // A search opens every branch that leads to a match.
  const expandedKeys = search.trim() ? expandableKeys(shown) : expandableKeys(shown).filter((k) => !collapsed.includes(k));
  const total = flattenTree(tree).filter((n) => showDeleted || n.state === 10).length;

  const remove = (row: DepartmentNode) => {
    const node = byId.get(row.id) ?? row;
    const children = liveChildren(node);
    if (node.member_count > 0 || children > 0) {
      // Explain before asking the server, which would refuse with the same numbers.
      modal.warning({
        title: t('teamManage.cannotDeleteTitle', { name: node.name }),
        content: t('teamManage.cannotDeleteBody', { users: node.member_count, children }),
      });
      return;
    }
    modal.confirm({
      title: t('teamManage.deleteTitle', { name: node.name }),
      content: t('teamManage.deleteBody'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' },
      onOk: async () => {
        try {
          await call('teamDelete', { id: node.id });
          notify().success(t('admin.deleted'));
          await load();
        } catch {
          // The server's refusal (it names how many users and sub-departments remain) was shown.
        }
      },
    });
  };

  const restore = (node: DepartmentNode) =>
    modal.confirm({
      title: t('teamManage.restoreTitle', { name: node.name }),
      okButtonProps: { 'data-testid': 'confirm-ok' },
      onOk: async () => {
        try {
          await call('teamEdit', { ...teamEditFields(node), state: 10 });
          notify().success(t('teamManage.restored'));
          await load();
        } catch {
          // Shown by the request layer (e.g. the parent is deleted).
        }
      },
    });

  const columns: TableColumnsType<DepartmentNode> = [
    {
      title: t('teamManage.col.name'),
      key: 'name',
      width: 280,
      render: (_, n) => (
        <span data-testid={`team-row-${n.name}`} className={n.state === 10 ? undefined : 'team-deleted'}>
          {n.name}
        </span>
      ),
    },
    { title: t('teamManage.col.description'), key: 'description', ellipsis: true, render: (_, n) => n.description || '--' },
    { title: t('teamManage.col.members'), key: 'members', width: 100, align: 'right', render: (_, n) => n.member_count },
    { title: t('teamManage.col.sort'), key: 'sort', width: 80, align: 'right', render: (_, n) => n.sort },
    {
      title: t('admin.state'),
      key: 'state',
      width: 100,
      render: (_, n) => <Tag color={n.state === 10 ? 'green' : 'default'}>{RecordState.label(n.state, lang)}</Tag>,
    },
    { title: t('admin.notes'), key: 'notes', width: 160, ellipsis: true, render: (_, n) => n.notes || '--' },
    { title: t('admin.createTime'), key: 'created', width: 170, render: (_, n) => formatSeconds(n.create_time) },
    {
      title: t('admin.actions'),
      key: 'actions',
      width: 420,
      render: (_, n) =>
        n.state === 10 ? (
          <Space size={0} wrap>
            {canAdd && (
              <Button type="link" size="small" icon={<SubnodeOutlined />} onClick={() => setDialog({ kind: 'add', parent: byId.get(n.id) ?? n })} data-testid="team-add-child">
                {t('teamManage.addChild')}
              </Button>
            )}
            {canEdit && (
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ kind: 'edit', node: byId.get(n.id) ?? n })} data-testid="team-edit">
                {t('admin.edit')}
              </Button>
            )}
            {canEdit && (
              <Button type="link" size="small" icon={<DragOutlined />} onClick={() => setDialog({ kind: 'move', node: byId.get(n.id) ?? n })} data-testid="team-move">
                {t('teamManage.move')}
              </Button>
            )}
            {canDelete && (
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(n)} data-testid="team-delete">
                {t('admin.delete')}
              </Button>
            )}
          </Space>
        ) : (
          canEdit && (
            <Button type="link" size="small" icon={<UndoOutlined />} onClick={() => restore(n)} data-testid="team-restore">
              {t('teamManage.restore')}
            </Button>
          )
        ),
    },
  ];

  return (
    <AdminPage
      testId="team-manage"
      title={t('teamManage.title')}
      filters={
        <>
          {isSuper && (
            <Select
              value={companyId}
              onChange={(v: string) => {
                setCollapsed([]);
                setCompanyId(v);
              }}
              options={Company.options(lang)}
              style={{ width: 160 }}
              aria-label={t('teamManage.company')}
              data-testid="team-company"
            />
          )}
          <SearchFilter placeholder={t('teamManage.searchPlaceholder')} onSearch={setSearch} width={260} testId="team-search" />
          <Space size={6}>
            <Switch size="small" checked={showDeleted} onChange={setShowDeleted} data-testid="team-show-deleted" />
            <span>{t('teamManage.showDeleted')}</span>
          </Space>
        </>
      }
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void load()}>
            {t('admin.refresh')}
          </Button>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'add', parent: null })} data-testid="team-add">
              {t('teamManage.addRoot')}
            </Button>
          )}
        </>
      }
    >
      {modalHolder}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('teamManage.hint')}
      </Typography.Paragraph>
      {failed && tree.length === 0 ? (
        <Alert type="warning" showIcon message={t('teamManage.loadFailed')} action={<Button size="small" onClick={() => void load()}>{t('admin.refresh')}</Button>} />
      ) : (
        <Table<DepartmentNode>
          rowKey="id"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          scroll={{ x: columnsWidth(columns) }}
          expandable={{
            expandedRowKeys: expandedKeys,
            onExpandedRowsChange: (keys) => {
              const open = new Set(keys.map(String));
              setCollapsed(expandableKeys(shown).filter((k) => !open.has(k)));
            },
            childrenColumnName: 'children',
          }}
          pagination={false}
          footer={() => t('admin.total', { total })}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('teamManage.empty')} /> }}
          data-testid="team-table"
        />
      )}
      {dialog && (
        <TeamDialog
          mode={dialog}
          tree={tree}
          companyId={companyId}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            void load();
          }}
        />
      )}
    </AdminPage>
  );
}
