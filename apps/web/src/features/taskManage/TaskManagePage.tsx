import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Modal, Select, Tag, type TableColumnsType } from 'antd';
import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import {
  DEVICE_LIST_DEFAULT_SIZE,
  PushMsgId,
  TIMED_TASK_MIN_INTERVAL_MIN,
  TimedTaskDataState,
  TimedTaskState,
  calls,
  holds,
  type CallName,
  type TimedTaskRow,
} from '@nest/contracts';
import { AdminPage, AdminTable, EditDeleteActions, RowAction, confirmChange, usePagedList } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { onPush } from '../../shared/push';
import { useCall } from '../../shared/query';
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
const STATE_COLOR: Record<number, string> = {
  [TimedTaskState.WAITING]: 'processing',
  [TimedTaskState.PAUSED]: 'default',
  [TimedTaskState.SENT]: 'success',
  [TimedTaskState.FAILED_TIMEOUT]: 'error',
  [TimedTaskState.FAILED_OFFLINE]: 'warning',
};

/** taskManage: timed tasks of the company with filters and paging; add, edit, pause / resume, delete; live by push 380. */
export default function TaskManagePage(): ReactNode {
  const { t, lang } = useI18n();
  const user = useUser();
  const [modal, modalHolder] = Modal.useModal();
  const [search, setSearch] = useState('');
  const [sn, setSn] = useState<string | undefined>(undefined);
  const [state, setState] = useState<number | undefined>(undefined);
  const query = useMemo(() => ({ ...(search ? { search } : {}), ...(sn ? { sn_id: sn } : {}), ...(state ? { task_state: state } : {}) }), [search, sn, state]);
  const list = usePagedList('taskList', query, PAGE_SIZE);
  const deviceList = useCall('deviceList', { type: 0, page: 0, size: DEVICE_LIST_DEFAULT_SIZE }, { quiet: true });
  // Devices shared through a collaboration group are another company's: no tasks on them.
  const devices = useMemo(() => (deviceList.isError ? [] : (deviceList.data?.list ?? []).filter((d) => !d.shared)), [deviceList.isError, deviceList.data]);
  const [editing, setEditing] = useState<{ task: TimedTaskRow | null } | null>(null);

  const can = (name: CallName) => holds(user?.fun_list, calls[name].access);
  const canAdd = can('taskAdd');
  const canEdit = can('taskEdit');

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
    confirmChange(modal.confirm, {
      title: kind === 'delete' ? t('admin.delete') : kind === 'pause' ? t('taskManage.action.pause') : t('taskManage.action.resume'),
      content:
        kind === 'delete'
          ? t('admin.confirmDelete', { name: task.m_title })
          : t(kind === 'pause' ? 'taskManage.action.confirmPause' : 'taskManage.action.confirmResume', { name: task.m_title }),
      safe: kind === 'resume',
      onOk: async () => {
        if (kind === 'delete') await call('taskEdit', { id: task.id, state: TimedTaskDataState.DELETED });
        else await call('taskEdit', { id: task.id, task_state: kind === 'pause' ? TimedTaskState.PAUSED : TimedTaskState.WAITING });
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
                <EditDeleteActions
                  wrap
                  onEdit={() => setEditing({ task: x })}
                  onDelete={() => confirm(x, 'delete')}
                  editTestId={`task-edit-${x.id}`}
                  deleteTestId={`task-delete-${x.id}`}
                >
                  {acts.pause && (
                    <RowAction icon={<PauseCircleOutlined />} onClick={() => confirm(x, 'pause')} testId={`task-pause-${x.id}`}>
                      {t('taskManage.action.pause')}
                    </RowAction>
                  )}
                  {acts.resume && (
                    <RowAction icon={<PlayCircleOutlined />} onClick={() => confirm(x, 'resume')} testId={`task-resume-${x.id}`}>
                      {t('taskManage.action.resume')}
                    </RowAction>
                  )}
                </EditDeleteActions>
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
      search={{ placeholder: t('taskManage.searchPlaceholder'), onSearch: setSearch, width: 300, testId: 'task-search' }}
      filters={
        <>
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
      onRefresh={reload}
      add={canAdd && { onClick: () => setEditing({ task: null }), testId: 'task-add' }}
    >
      {modalHolder}
      <Alert
        className="task-policy"
        type="info"
        showIcon
        message={t('taskManage.policy', { min: TIMED_TASK_MIN_INTERVAL_MIN, grace: MISSED_GRACE_MIN })}
        data-testid="task-policy"
      />
      <AdminTable<TimedTaskRow> list={list} columns={columns} empty={t('taskManage.empty')} testId="task-table" />
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
