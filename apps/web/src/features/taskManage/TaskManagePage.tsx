import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Select, Tag, type TableColumnsType } from 'antd';
import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { PushMsgId, TIMED_TASK_MIN_INTERVAL_MIN, TimedTaskDataState, TimedTaskState, type TimedTaskRow } from '@nest/contracts';
import { AdminPage, AdminTable, DeviceSelect, EditDeleteActions, RowAction, TwoLines, actionsColumn, useCan, useDeviceList, useEditDialog, usePagedList, useRowChange } from '../../shared/admin';
import { formatSeconds } from '../../shared/format';
import { useI18n } from '../../shared/i18n';
import { onPush } from '../../shared/push';
import { call } from '../../shared/request';
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
  const can = useCan();
  const [search, setSearch] = useState('');
  const [sn, setSn] = useState<string | null>(null);
  const [state, setState] = useState<number | undefined>(undefined);
  const query = useMemo(() => ({ ...(search ? { search } : {}), ...(sn ? { sn_id: sn } : {}), ...(state ? { task_state: state } : {}) }), [search, sn, state]);
  const list = usePagedList('taskList', query, PAGE_SIZE);
  const deviceList = useDeviceList();
  // Devices shared through a collaboration group are another company's: no tasks on them.
  const devices = useMemo(() => deviceList.filter((d) => !d.shared), [deviceList]);
  const { reload } = list;
  const editor = useEditDialog<TimedTaskRow | null>(reload);
  const rowChange = useRowChange(reload);

  // A task that fired, or one changed elsewhere (push 380 'tasks'), shows its new state without a reload.
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

  const askDelete = (task: TimedTaskRow) => rowChange.askDelete(task.m_title, () => call('taskEdit', { id: task.id, state: TimedTaskDataState.DELETED }));
  const askPause = (task: TimedTaskRow, pause: boolean) =>
    rowChange.ask({
      title: pause ? t('taskManage.action.pause') : t('taskManage.action.resume'),
      content: t(pause ? 'taskManage.action.confirmPause' : 'taskManage.action.confirmResume', { name: task.m_title }),
      safe: !pause,
      send: () => call('taskEdit', { id: task.id, task_state: pause ? TimedTaskState.PAUSED : TimedTaskState.WAITING }),
      done: t(pause ? 'taskManage.action.paused' : 'taskManage.action.resumed'),
    });

  const columns: TableColumnsType<TimedTaskRow> = [
    {
      title: t('taskManage.col.route'),
      key: 'route',
      render: (_, x) => <TwoLines main={x.m_title} note={x.f_title} />,
    },
    {
      title: t('taskManage.col.device'),
      key: 'device',
      render: (_, x) => <TwoLines main={deviceName(x.sn_id)} note={x.sn_id} />,
    },
    {
      title: t('taskManage.col.nextRun'),
      key: 'next',
      render: (_, x) => <span className="admin-nowrap">{x.next_run === null ? t('taskManage.noNextRun') : formatSeconds(x.next_run)}</span>,
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
          <TwoLines main={<span className="admin-nowrap">{formatSeconds(x.last_run)}</span>} note={x.outcome_text} noteTitle={x.outcome_text} noteTestId={`task-outcome-${x.id}`} />
        ),
    },
    {
      title: t('admin.createTime'),
      key: 'created',
      render: (_, x) => <TwoLines main={<span className="admin-nowrap">{formatSeconds(x.create_time)}</span>} note={x.user_name} />,
    },
    ...actionsColumn(can('taskEdit'), (x: TimedTaskRow) => {
      const acts = rowActions(x);
      return (
        <EditDeleteActions wrap onEdit={() => editor.show(x)} onDelete={() => askDelete(x)} editTestId={`task-edit-${x.id}`} deleteTestId={`task-delete-${x.id}`}>
          {acts.pause && (
            <RowAction icon={<PauseCircleOutlined />} onClick={() => askPause(x, true)} testId={`task-pause-${x.id}`}>
              {t('taskManage.action.pause')}
            </RowAction>
          )}
          {acts.resume && (
            <RowAction icon={<PlayCircleOutlined />} onClick={() => askPause(x, false)} testId={`task-resume-${x.id}`}>
              {t('taskManage.action.resume')}
            </RowAction>
          )}
        </EditDeleteActions>
      );
    }),
  ];

  return (
    <AdminPage
      testId="task-manage"
      title={t('taskManage.title')}
      search={{ placeholder: t('taskManage.searchPlaceholder'), onSearch: setSearch, width: 300, testId: 'task-search' }}
      filters={
        <>
          <DeviceSelect devices={devices} value={sn} onChange={setSn} placeholder={t('taskManage.allDevices')} width={220} testId="task-filter-device" />
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
      add={can('taskAdd') && { onClick: () => editor.show(null), testId: 'task-add' }}
    >
      {rowChange.holder}
      <Alert
        className="task-policy"
        type="info"
        showIcon
        message={t('taskManage.policy', { min: TIMED_TASK_MIN_INTERVAL_MIN, grace: MISSED_GRACE_MIN })}
        data-testid="task-policy"
      />
      <AdminTable<TimedTaskRow> list={list} columns={columns} empty={t('taskManage.empty')} testId="task-table" />
      <TaskDialog open={editor.open !== null} task={editor.open?.of ?? null} devices={devices} {...editor.dialog} />
    </AdminPage>
  );
}
