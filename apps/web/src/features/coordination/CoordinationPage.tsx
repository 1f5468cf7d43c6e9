import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Alert, Badge, Select, Tag, Tooltip, type TableColumnsType } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import { Company, RecordState, SUPER_ADMINISTRATOR, type CollaborationGroup } from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, RowAction, TwoLines, recordStateColumn, useCan, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { useFleet } from '../../shared/fleet';
import { GroupDialog } from './GroupDialog';
import { GroupDrawer } from './GroupDrawer';
import { groupEditFields, onlineCount, type GroupState } from './groups';
import './coordination.css';

const PAGE_SIZE = 10;
const MEMBERS_SHOWN = 3;

/**
 * coordination: the company's collaboration groups with search and paging; online devices follow the live
 * fleet (push 310 / 301 through useFleet); add, edit, delete (confirmed), a details drawer.
 */
export default function CoordinationPage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const can = useCan();
  const [search, setSearch] = useState('');
  // Normal groups by default; deleted ones can be looked up, not changed.
  const [state, setState] = useState<GroupState>(RecordState.NORMAL);
  const list = usePagedList('comGetList', { ...(search ? { search } : {}), state }, PAGE_SIZE);
  const fleet = useFleet();
  const editor = useEditDialog<CollaborationGroup | null>(list.reload);
  const rowChange = useRowChange(list.reload);
  const [opened, setOpened] = useState<string | null>(null);

  const canEdit = can('comEdit');
  const canOne = can('comGetOne');
  const canListUsers = can('userList');
  const isSuper = user?.fun_list.includes(SUPER_ADMINISTRATOR) ?? false;

  const liveBySn = useMemo(() => new Map(fleet.devices.map((d) => [d.sn, d.state])), [fleet.devices]);
  const liveState = useCallback((sn: string) => liveBySn.get(sn), [liveBySn]);
  // Devices that may join a group: the caller's own (shared ones belong to another company).
  const ownDevices = useMemo(() => fleet.devices.map((d) => d.item).filter((d) => !d.shared), [fleet.devices]);
  const closeDrawer = useCallback(() => setOpened(null), []);
  const companyLabel = (c: string) => (Company.has(c) ? Company.label(c, lang) : c);

  const askDelete = (g: CollaborationGroup) =>
    rowChange.askDelete(g.name, () =>
      call('comEdit', groupEditFields({ name: g.name, device_ids: g.device_ids, user_ids: g.user_ids, notes: g.notes }, g.id, false, RecordState.DELETED)),
    );

  const columns: TableColumnsType<CollaborationGroup> = [
    {
      title: t('coordination.col.name'),
      key: 'name',
      render: (_, g) => <TwoLines main={g.name} note={g.notes} />,
    },
    ...(isSuper ? [{ title: t('coordination.col.company'), key: 'company', render: (_: unknown, g: CollaborationGroup) => companyLabel(g.company) }] : []),
    { title: t('coordination.col.devices'), key: 'devices', align: 'right' as const, render: (_, g) => g.device_count },
    {
      title: t('coordination.col.online'),
      key: 'online',
      render: (_, g) => {
        const n = onlineCount(g, liveState);
        return <Badge className="group-online" status={n > 0 ? 'success' : 'default'} text={`${n} / ${g.device_count}`} data-testid={`group-online-${g.id}`} />;
      },
    },
    {
      title: t('coordination.col.members'),
      key: 'members',
      render: (_, g) =>
        g.users.length === 0 ? (
          <span className="group-muted">{t('coordination.noMembers')}</span>
        ) : (
          <Tooltip title={g.users.length > MEMBERS_SHOWN ? g.users.map((u) => u.nick).join(', ') : undefined}>
            <div className="group-members">
              {g.users.slice(0, MEMBERS_SHOWN).map((u) => (
                <Tag key={u.u_id}>{u.company !== g.company ? `${u.nick} · ${companyLabel(u.company)}` : u.nick}</Tag>
              ))}
              {g.users.length > MEMBERS_SHOWN && <Tag>+{g.users.length - MEMBERS_SHOWN}</Tag>}
            </div>
          </Tooltip>
        ),
    },
    recordStateColumn(),
    {
      title: t('admin.createTime'),
      key: 'created',
      render: (_, g) => <TwoLines main={<span className="admin-nowrap">{formatSeconds(g.create_time)}</span>} note={g.creator} />,
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      render: (_, g) => (
        <EditDeleteActions
          wrap
          leading={
            canOne &&
            g.state === RecordState.NORMAL && (
              <RowAction icon={<EyeOutlined />} onClick={() => setOpened(g.id)} testId={`group-open-${g.id}`}>
                {t('coordination.details')}
              </RowAction>
            )
          }
          onEdit={canEdit && g.state === RecordState.NORMAL && (() => editor.show(g))}
          onDelete={canEdit && g.state === RecordState.NORMAL && (() => askDelete(g))}
          editTestId={`group-edit-${g.id}`}
          deleteTestId={`group-delete-${g.id}`}
        />
      ),
    },
  ];

  return (
    <AdminPage
      testId="coordination"
      title={t('coordination.title')}
      search={{ placeholder: t('coordination.searchPlaceholder'), onSearch: setSearch, width: 320, testId: 'group-search' }}
      filters={<Select value={state} onChange={setState} options={RecordState.options(lang)} style={{ width: 120 }} data-testid="group-filter-state" />}
      onRefresh={() => {
        void list.reload();
        fleet.reload();
      }}
      add={can('comAdd') && { onClick: () => editor.show(null), testId: 'group-add' }}
    >
      {rowChange.holder}
      <Alert className="group-about" type="info" showIcon message={t('coordination.about')} />
      <AdminTable<CollaborationGroup> list={list} columns={columns} empty={t('coordination.empty')} testId="group-table" />
      <GroupDialog
        open={editor.open !== null}
        group={editor.open?.of ?? null}
        devices={ownDevices}
        liveState={liveState}
        canListUsers={canListUsers}
        showCompany={isSuper}
        {...editor.dialog}
      />
      <GroupDrawer groupId={opened} liveState={liveState} onClose={closeDrawer} />
    </AdminPage>
  );
}
