import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Select, Space, Switch, Typography, type TableColumnsType } from 'antd';
import { DragOutlined, SubnodeOutlined, UndoOutlined } from '@ant-design/icons';
import { Company, RecordState, SUPER_ADMINISTRATOR, type DepartmentNode } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, RowAction, SearchFilter, notesColumn, recordStateColumn, timeColumn, useCan, useEditDialog, useRowChange } from '../../shared/admin';
import { useI18n } from '../../shared/i18n';
import { invalidateCall, useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { TeamDialog, teamEditFields, type TeamDialogMode } from './TeamDialog';
import { expandableKeys, flattenTree, liveChildren, tableRows, visibleTree } from '../../shared/admin/tree';
import './teamManage.css';

/** teamManage: the department tree of a company with member counts; add (top or below), edit, move, delete, restore. */
export default function TeamManagePage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const isSuper = !!user?.fun_list.includes(SUPER_ADMINISTRATOR);
  const can = useCan();
  const [companyId, setCompanyId] = useState(user?.in_com.id ?? '');
  const [search, setSearch] = useState('');
  const [showDeleted, setShowDeleted] = useState(false);
  // Branches the user closed; every other branch is open (new ones too).
  const [collapsed, setCollapsed] = useState<string[]>([]);
  const canAdd = can('teamAdd');
  const canEdit = can('teamEdit');

  // The tree of the last answer stays on screen while another company's is read, and when a read fails.
  const teams = useCall('teamList', isSuper && companyId ? { in_com_id: companyId } : {}, { keepPrevious: true });
  const tree = useMemo(() => teams.data?.list ?? [], [teams.data]);
  const failed = teams.isError;
  const load = () => invalidateCall('teamList');
  const editor = useEditDialog<TeamDialogMode>(load);
  const rowChange = useRowChange(load);

  const shown = useMemo(() => visibleTree(tree, search, showDeleted), [tree, search, showDeleted]);
  const rows = useMemo(() => tableRows(shown), [shown]);
  const byId = useMemo(() => new Map(flattenTree(tree).map((n) => [n.id, n])), [tree]);
  // A search opens every branch that leads to a match.
  const expandedKeys = search.trim() ? expandableKeys(shown) : expandableKeys(shown).filter((k) => !collapsed.includes(k));
  const total = flattenTree(tree).filter((n) => showDeleted || n.state === RecordState.NORMAL).length;

  const remove = (row: DepartmentNode) => {
    const node = byId.get(row.id) ?? row;
    const children = liveChildren(node);
    if (node.member_count > 0 || children > 0) {
      // Explain before asking the server, which would refuse with the same numbers.
      rowChange.modal.warning({
        title: t('teamManage.cannotDeleteTitle', { name: node.name }),
        content: t('teamManage.cannotDeleteBody', { users: node.member_count, children }),
      });
      return;
    }
    // A refusal names how many users and sub-departments remain.
    rowChange.ask({
      title: t('teamManage.deleteTitle', { name: node.name }),
      content: t('teamManage.deleteBody'),
      send: () => call('teamDelete', { id: node.id }),
      done: t('admin.deleted'),
    });
  };

  // A refusal (the parent is deleted, say) is shown by the request layer.
  const restore = (node: DepartmentNode) =>
    rowChange.ask({
      title: t('teamManage.restoreTitle', { name: node.name }),
      safe: true,
      send: () => call('teamEdit', { ...teamEditFields(node), state: RecordState.NORMAL }),
      done: t('teamManage.restored'),
    });

  const columns: TableColumnsType<DepartmentNode> = [
    {
      title: t('teamManage.col.name'),
      key: 'name',
      width: 280,
      render: (_, n) => (
        <span data-testid={`team-row-${n.name}`} className={n.state === RecordState.NORMAL ? undefined : 'team-deleted'}>
          {n.name}
        </span>
      ),
    },
    { title: t('teamManage.col.description'), key: 'description', ellipsis: true, render: (_, n) => n.description || '--' },
    { title: t('teamManage.col.members'), key: 'members', width: 100, align: 'right', render: (_, n) => n.member_count },
    { title: t('teamManage.col.sort'), key: 'sort', width: 80, align: 'right', render: (_, n) => n.sort },
    recordStateColumn(100),
    notesColumn(160),
    timeColumn(t('admin.createTime'), 'created', (n) => n.create_time, 170),
    {
      title: t('admin.actions'),
      key: 'actions',
      width: 420,
      render: (_, n) =>
        n.state === RecordState.NORMAL ? (
          <EditDeleteActions
            wrap
            leading={
              canAdd && (
                <RowAction icon={<SubnodeOutlined />} onClick={() => editor.show({ kind: 'add', parent: byId.get(n.id) ?? n })} testId="team-add-child">
                  {t('teamManage.addChild')}
                </RowAction>
              )
            }
            onEdit={canEdit && (() => editor.show({ kind: 'edit', node: byId.get(n.id) ?? n }))}
            onDelete={can('teamDelete') && (() => remove(n))}
            editTestId="team-edit"
            deleteTestId="team-delete"
          >
            {canEdit && (
              <RowAction icon={<DragOutlined />} onClick={() => editor.show({ kind: 'move', node: byId.get(n.id) ?? n })} testId="team-move">
                {t('teamManage.move')}
              </RowAction>
            )}
          </EditDeleteActions>
        ) : (
          canEdit && (
            <RowAction icon={<UndoOutlined />} onClick={() => restore(n)} testId="team-restore">
              {t('teamManage.restore')}
            </RowAction>
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
      onRefresh={load}
      add={canAdd && { onClick: () => editor.show({ kind: 'add', parent: null }), testId: 'team-add', label: t('teamManage.addRoot') }}
    >
      {rowChange.holder}
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('teamManage.hint')}
      </Typography.Paragraph>
      {failed && tree.length === 0 ? (
        <Alert type="warning" showIcon message={t('teamManage.loadFailed')} action={<Button size="small" onClick={() => void load()}>{t('admin.refresh')}</Button>} />
      ) : (
        <AdminTable<DepartmentNode>
          rows={rows}
          loading={teams.isFetching}
          fitColumns
          columns={columns}
          empty={t('teamManage.empty')}
          testId="team-table"
          expandable={{
            expandedRowKeys: expandedKeys,
            onExpandedRowsChange: (keys) => {
              const open = new Set(keys.map(String));
              setCollapsed(expandableKeys(shown).filter((k) => !open.has(k)));
            },
            childrenColumnName: 'children',
          }}
          footer={() => t('admin.total', { total })}
        />
      )}
      {editor.open && <TeamDialog mode={editor.open.of} tree={tree} companyId={companyId} {...editor.dialog} />}
    </AdminPage>
  );
}
