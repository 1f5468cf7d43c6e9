import { useState, type ReactNode } from 'react';
import { Select, Tag, Tooltip, TreeSelect, type TableColumnsType } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { Company, RecordState, SUPER_ADMINISTRATOR, calls, holds, type UserListItem } from '@nest/contracts';
import { departmentOptions } from '../../shared/admin/tree';
import { AdminPage, AdminTable, EditDeleteActions, OptionFilter, RowAction, actionsColumn, notesColumn, recordStateColumn, timeColumn, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { formatAccountEnd } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { useCall } from '../../shared/query';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { USER_EDIT_FUNCTION } from './functionTree';
import { UserDialog } from './UserDialog';
import './userManage.css';

const PAGE_SIZE = 10;

/** userManage: users of the company (every company for a super administrator) with search, state and company filters; add, edit, delete, recover. */
export default function UserManagePage(): ReactNode {
  const { t, lang } = useI18n();
  const me = useUser();
  const funs = me?.fun_list ?? [];
  const isSuper = funs.includes(SUPER_ADMINISTRATOR);
  const [search, setSearch] = useState('');
  const [state, setState] = useState<number | undefined>(undefined);
  const [company, setCompany] = useState('');
  // Departments belong to one company: the filter is offered once the company is known, and a department
  // chosen belongs to the company it was chosen in.
  const teamCompany = isSuper ? company : (me?.in_com.id ?? '');
  const [chosenTeam, setChosenTeam] = useState<{ company: string; team: string } | undefined>(undefined);
  const team = chosenTeam?.company === teamCompany ? chosenTeam.team : undefined;
  const canListTeams = holds(funs, calls.teamList.access);
  const teamList = useCall('teamList', canListTeams && teamCompany ? (isSuper ? { in_com_id: teamCompany } : {}) : null, { quiet: true });
  const teams = teamList.isError ? [] : (teamList.data?.list ?? []);
  const list = usePagedList(
    'userList',
    { ...(search ? { search } : {}), ...(state ? { state: String(state) } : {}), ...(company ? { in_com_id: company } : {}), ...(team ? { team } : {}) },
    PAGE_SIZE,
  );
  const editor = useEditDialog<UserListItem | null>(list.reload);
  const rowChange = useRowChange(list.reload);
  const canAdd = holds(funs, calls.userAdd.access);
  const canEdit = holds(funs, USER_EDIT_FUNCTION);
  const canDelete = holds(funs, calls.userDelete.access);
  const canRecover = holds(funs, calls.userRecover.access);
  // Only a super administrator manages super administrators (the server enforces it too).
  const manageable = (u: UserListItem) => isSuper || !u.fun_list.includes(SUPER_ADMINISTRATOR);

  // A refusal (oneself, the last super administrator...) is shown with the server's reason.
  const act = (u: UserListItem, kind: 'delete' | 'recover') =>
    rowChange.ask({
      title: kind === 'delete' ? t('userManage.deleteTitle', { name: u.nick }) : t('userManage.recoverTitle', { name: u.nick }),
      content: kind === 'delete' ? t('userManage.deleteBody') : t('userManage.recoverBody'),
      safe: kind !== 'delete',
      send: () => call(kind === 'delete' ? 'userDelete' : 'userRecover', { u_id: u.u_id }),
      done: kind === 'delete' ? t('admin.deleted') : t('userManage.recovered'),
    });

  // 1,550 px with the company column: the whole row fits a 1,600 px window without scrolling.
  const columns: TableColumnsType<UserListItem> = [
    {
      title: t('userManage.col.nick'),
      key: 'nick',
      width: 180,
      render: (_, u) => (
        <span data-testid={`user-row-${u.phone}`}>
          {u.nick}
          <span className="user-manage__tags">
            {u.u_id === me?.u_id && <Tag color="blue">{t('userManage.self')}</Tag>}
            {u.fun_list.includes(SUPER_ADMINISTRATOR) && <Tag color="gold">{t('userManage.superAdmin')}</Tag>}
          </span>
        </span>
      ),
    },
    { title: t('userManage.col.account'), key: 'phone', dataIndex: 'phone', width: 170, ellipsis: true },
    { title: t('userManage.col.email'), key: 'email', width: 160, ellipsis: true, render: (_, u) => u.email || '--' },
    ...(isSuper ? [{ title: t('userManage.col.company'), key: 'company', width: 110, render: (_: unknown, u: UserListItem) => u.in_com.name || u.company }] : []),
    { title: t('userManage.col.team'), key: 'team', width: 120, ellipsis: true, render: (_, u) => u.team_name || '--' },
    {
      title: t('userManage.col.functions'),
      key: 'functions',
      width: 120,
      render: (_, u) =>
        u.fun_list.length === 0 ? (
          <span>{t('userManage.noFunctions')}</span>
        ) : (
          <Tooltip title={u.fun_list.join(', ')}>
            <Tag>{t('userManage.functionCount', { count: u.fun_list.length })}</Tag>
          </Tooltip>
        ),
    },
    {
      title: t('userManage.col.validity'),
      key: 'validity',
      width: 160,
      render: (_, u) => <span className="admin-nowrap">{formatAccountEnd(u.end_time)}</span>,
    },
    recordStateColumn(90),
    notesColumn(100),
    timeColumn(t('admin.createTime'), 'created', (u) => u.create_time, 170),
    ...actionsColumn(
      true,
      (u: UserListItem) => (
        <EditDeleteActions
          onEdit={canEdit && manageable(u) && (() => editor.show(u))}
          onDelete={u.state === RecordState.NORMAL && canDelete && manageable(u) && u.u_id !== me?.u_id && (() => act(u, 'delete'))}
          editTestId="user-edit"
          deleteTestId="user-delete"
        >
          {u.state !== RecordState.NORMAL && canRecover && manageable(u) && (
            <RowAction icon={<UndoOutlined />} onClick={() => act(u, 'recover')} testId="user-recover">
              {t('admin.recover')}
            </RowAction>
          )}
        </EditDeleteActions>
      ),
      { width: 170, fixed: 'right' },
    ),
  ];

  return (
    <AdminPage
      testId="user-manage"
      title={t('userManage.title')}
      search={{ placeholder: t('userManage.searchPlaceholder'), onSearch: setSearch, width: 300, testId: 'user-search' }}
      filters={
        <>
          <OptionFilter value={state} onChange={setState} options={RecordState.options(lang)} allLabel={t('userManage.allStates')} width={130} testId="user-state-filter" />
          {isSuper && (
            <Select
              value={company}
              onChange={setCompany}
              options={[{ value: '', label: t('userManage.allCompanies') }, ...Company.options(lang)]}
              style={{ width: 150 }}
              data-testid="user-company-filter"
            />
          )}
          {teamCompany && canListTeams && (
            <TreeSelect
              allowClear
              showSearch
              treeNodeFilterProp="title"
              treeDefaultExpandAll
              value={team}
              onChange={(v?: string) => setChosenTeam(v === undefined ? undefined : { company: teamCompany, team: v })}
              treeData={departmentOptions(teams)}
              placeholder={t('userManage.allTeams')}
              style={{ width: 180 }}
              data-testid="user-team-filter"
            />
          )}
        </>
      }
      onRefresh={list.reload}
      add={canAdd && { onClick: () => editor.show(null), testId: 'user-add' }}
    >
      {rowChange.holder}
      <AdminTable<UserListItem> list={list} rowKey="u_id" fitColumns columns={columns} empty={t('userManage.empty')} testId="user-table" />
      {editor.open && <UserDialog user={editor.open.of} {...editor.dialog} />}
    </AdminPage>
  );
}
