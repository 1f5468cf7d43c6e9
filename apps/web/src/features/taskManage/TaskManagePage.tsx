import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Button, Empty, Modal, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  DEVICE_LIST_DEFAULT_SIZE,
  PushMsgId,
  TIMED_TASK_MIN_INTERVAL_MIN,
  TimedTaskState,
  calls,
  holds,
  type CallName,
  type DeviceListItem,
  type Page,
  type TimedTaskRow,
} from '@nest/contracts';
import { AdminPage, SearchFilter, tablePagination, usePagedList } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { onPush } from '../../shared/push';
import { call } from '../../shared/request';
import { useUser } from '../../shared/session';
import { displayName } from '../../shared/fleet';
import { TaskDialog } from './TaskDialog';
import { rowActions, scheduleText, type ScheduleWords } from './schedule';
import './taskManage.css';

const PAGE_SIZE = 10;
/** The server's missed-run grace (tasks/schedule.ts MISSED_AFTER_S), for the policy note. */
const MISSED_GRACE_MIN = 10;
/** Tag colours of TimedTaskState. */
const STATE_COLOR: Record<number, string> = { 1: 'processing', 3: 'default', 10: 'success', 40: 'error', 41: 'warning' };

/** taskManage: timed tasks of the company with filters and paging; add, edit, pause / resume, delete; live by push 380. */
export default function TaskManagePage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useState('');
  const [sn, setSn] = useState<string | undefined>(undefined);
  const [state, setState] = useState<number | undefined>(undefined);
  const query = useMemo(() => ({ ...(search ? { search } : {}), ...(sn ? { sn_id: sn } : {}), ...(state ? { task_state: state } : {}) }), [search, sn, state]);
  const list = usePagedList<'taskList', TimedTaskRow>('taskList', query, PAGE_SIZE);
  const [devices, setDevices] = useState<DeviceListItem[]>([]);
  const [editing, setEditing] = useState<{ task: TimedTaskRow | null } | null>(null);

  const can = (name: CallName) => holds(user?.fun_list, calls[name].access);
  const canAdd = can('taskAdd');
  const canEdit = can('taskEdit');

  useEffect(() => {
    call<'deviceList', Page<DeviceListItem>>('deviceList', { type: 0, page: 0, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet: true })
      // Devices shared through a collaboration group are another company's: no tasks on them.
      .then((p) => setDevices((p?.list ?? []).filter((d) => !d.shared)))
      .catch(() => setDevices([]));
  }, []);

  // A task that fired, or one changed elsewhere (push 380 'tasks'), shows its new state without a reload.
  const { reload } = list;
  useEffect(
    () =>
      onPush(PushMsgId.DATA_CHANGED, (data) => {
        const topics = (data as { topics?: unknown } | null)?.topics;
        if (Array.isArray(topics) && topics.includes('tasks')) void reload();
      }),
    [reload],
  );

  const words: ScheduleWords = {
    once: t('taskManage.schedule.once'),
    everyMinutes: (n) => t('taskManage.schedule.everyMinutes', { n }),
    everyHours: (n) => (n === 1 ? t('taskManage.schedule.everyHour') : t('taskManage.schedule.everyHours', { n })),
    everyDays: (n) => (n === 1 ? t('taskManage.schedule.everyDay') : t('taskManage.schedule.everyDays', { n })),
  };
  const deviceName = (id: string) => {
    const d = devices.find((x) => x.sn_id === id);
    return d ? displayName(d) : id;
  };

  const confirm = (task: TimedTaskRow, kind: 'pause' | 'resume' | 'delete') =>
    modal.confirm({
      title: kind === 'delete' ? t('admin.delete') : kind === 'pause' ? t('taskManage.action.pause') : t('taskManage.action.resume'),
      content:
        kind === 'delete'
          ? t('admin.confirmDelete', { name: task.m_title })
          : t(kind === 'pause' ? 'taskManage.action.confirmPause' : 'taskManage.action.confirmResume', { name: task.m_title }),
      okButtonProps: { danger: kind !== 'resume', 'data-testid': 'confirm-ok' } as never,
      onOk: async () => {
        if (kind === 'delete') await call('taskEdit', { id: task.id, state: 10 });
        else await call('taskEdit', { id: task.id, task_state: kind === 'pause' ? 3 : 1 });
        notify().success(kind === 'delete' ? t('admin.deleted') : t(kind === 'pause' ? 'taskManage.action.paused' : 'taskManage.action.resumed'));
        await reload();
      },
    });

  const columns: TableColumnsType<TimedTaskRow> = [
    {
      title: t('taskManage.col.route'),
      key: 'route',
      render: (_, x) => (
        <div className="task-two-lines">
          <span>{x.m_title}</span>
          <small>{x.f_title}</small>
        </div>
      ),
    },
    {
      title: t('taskManage.col.device'),
      key: 'device',
      render: (_, x) => (
        <div className="task-two-lines">
          <span>{deviceName(x.sn_id)}</span>
          <small>{x.sn_id}</small>
        </div>
      ),
    },
    {
      title: t('taskManage.col.nextRun'),
      key: 'next',
      render: (_, x) => <span className="task-nowrap">{x.next_run === null ? t('taskManage.noNextRun') : formatSeconds(x.next_run)}</span>,
    },
    { title: t('taskManage.col.schedule'), key: 'schedule', render: (_, x) => scheduleText(x.interval, words) },
    {
      title: t('taskManage.col.state'),
      key: 'state',
      render: (_, x) => (
        <Tag color={STATE_COLOR[x.task_state]} data-testid={`task-state-${x.id}`}>
          {TimedTaskState.label(x.task_state, lang)}
        </Tag>
      ),
    },
    {
      title: t('taskManage.col.lastRun'),
      key: 'last',
      width: 260,
      render: (_, x) =>
        x.last_run === null ? (
          <span className="task-muted">{t('taskManage.neverRun')}</span>
        ) : (
          <div className="task-two-lines">
            <span className="task-nowrap">{formatSeconds(x.last_run)}</span>
            <small title={x.outcome_text} data-testid={`task-outcome-${x.id}`}>
              {x.outcome_text}
            </small>
          </div>
        ),
    },
    {
      title: t('admin.createTime'),
      key: 'created',
      render: (_, x) => (
        <div className="task-two-lines">
          <span className="task-nowrap">{formatSeconds(x.create_time)}</span>
          <small>{x.user_name}</small>
        </div>
      ),
    },
    ...(canEdit
      ? [
          {
            title: t('admin.actions'),
            key: 'actions',
            render: (_: unknown, x: TimedTaskRow) => {
              const acts = rowActions(x);
              return (
                <Space size={0} wrap>
                  <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ task: x })} data-testid={`task-edit-${x.id}`}>
                    {t('admin.edit')}
                  </Button>
                  {acts.pause && (
                    <Button type="link" size="small" icon={<PauseCircleOutlined />} onClick={() => confirm(x, 'pause')} data-testid={`task-pause-${x.id}`}>
                      {t('taskManage.action.pause')}
                    </Button>
                  )}
                  {acts.resume && (
                    <Button type="link" size="small" icon={<PlayCircleOutlined />} onClick={() => confirm(x, 'resume')} data-testid={`task-resume-${x.id}`}>
                      {t('taskManage.action.resume')}
                    </Button>
                  )}
                  <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirm(x, 'delete')} data-testid={`task-delete-${x.id}`}>
                    {t('admin.delete')}
                  </Button>
                </Space>
              );
            },
          },
        ]
      : []),
  ];

  return (
    <AdminPage
      testId="task-manage"
      title={t('taskManage.title')}
      filters={
        <>
          <SearchFilter placeholder={t('taskManage.searchPlaceholder')} onSearch={setSearch} width={300} testId="task-search" />
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t('taskManage.allDevices')}
            value={sn}
            onChange={(v?: string) => setSn(v)}
            options={devices.map((d) => ({ value: d.sn_id, label: `${displayName(d)} (${d.sn_id})` }))}
            style={{ width: 220 }}
            data-testid="task-filter-device"
          />
          <Select
            allowClear
            placeholder={t('taskManage.allStates')}
            value={state}
            onChange={(v?: number) => setState(v)}
            options={TimedTaskState.options(lang)}
            style={{ width: 200 }}
            data-testid="task-filter-state"
          />
        </>
      }
      actions={
        <>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
            {t('admin.refresh')}
          </Button>
          {canAdd && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ task: null })} data-testid="task-add">
              {t('admin.add')}
            </Button>
          )}
        </>
      }
    >
      {modalHolder}
      <Alert
        className="task-policy"
        type="info"
        showIcon
        message={t('taskManage.policy', { min: TIMED_TASK_MIN_INTERVAL_MIN, grace: MISSED_GRACE_MIN })}
        data-testid="task-policy"
      />
      <Table<TimedTaskRow>
        rowKey="id"
        size="middle"
        loading={list.loading}
        columns={columns}
        dataSource={list.rows}
        pagination={tablePagination(list, (total) => t('admin.total', { total }))}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('taskManage.empty')} /> }}
        data-testid="task-table"
      />
      <TaskDialog
        open={editing !== null}
        task={editing?.task ?? null}
        devices={devices}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void reload();
        }}
      />
    </AdminPage>
  );
}
