import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PushMsgId, type TimedTaskRow } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
let funList = ['task_list', 'task_add', 'task_edit'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));
const handlers = new Map<number, (data: unknown) => void>();
vi.mock('../../shared/push', () => ({
  onPush: (id: number, h: (data: unknown) => void) => {
    handlers.set(id, h);
    return () => handlers.delete(id);
  },
}));

const { default: TaskManagePage } = await import('./TaskManagePage');

const TASK: TimedTaskRow = {
  id: 't1',
  f_title: 'Fence A',
  m_title: 'Patrol A',
  mission_id: 'm1',
  fence_id: 'f1',
  sn_id: 'NEST-1',
  task_tms: 1_900_000_000,
  interval: 120,
  task_state: 1,
  state: 0,
  create_time: 1_800_000_000,
  u_id: 'u1',
  user_name: 'Planner',
  last_run: null,
  last_outcome: '',
  outcome_text: '',
  next_run: 1_900_000_000,
  modified_time: 1_800_000_000,
};

let rows: TimedTaskRow[];

describe('timed task screen', () => {
  beforeEach(() => {
    call.mockReset();
    rows = [TASK];
    call.mockImplementation((name: string) =>
      Promise.resolve(
        name === 'taskList'
          ? { list: rows, total: rows.length }
          : name === 'deviceList'
            ? { list: [{ sn_id: 'NEST-1', name: 'Harbour nest', airport_name: 'Harbour nest', uav_name: '', state: 1 }], total: 1 }
            : TASK,
      ),
    );
    funList = ['task_list', 'task_add', 'task_edit'];
  });
  afterEach(() => cleanup());

  it('lists tasks with schedule, state tag and device name; follows push 380 of tasks', async () => {
    render(<TaskManagePage />);
    await waitFor(() => expect(screen.getByText('Patrol A')).toBeTruthy());
    expect(screen.getByText('每 2 小时')).toBeTruthy();
    expect(screen.getByTestId('task-state-t1').textContent).toBe('等待执行');
    await waitFor(() => expect(screen.getByText('Harbour nest')).toBeTruthy());
    const lists = () => call.mock.calls.filter(([n]) => n === 'taskList').length;
    const before = lists();
    // Another topic: nothing to read.
    act(() => handlers.get(PushMsgId.DATA_CHANGED)?.({ topics: ['alarms'] }));
    expect(lists()).toBe(before);
    // The task fired: the row shows its new state and outcome without a reload.
    rows = [{ ...TASK, task_state: 10, last_run: 1_900_000_000, last_outcome: 'sent', outcome_text: '已下发' }];
    act(() => handlers.get(PushMsgId.DATA_CHANGED)?.({ topics: ['alarms', 'tasks'] }));
    await waitFor(() => expect(screen.getByTestId('task-state-t1').textContent).toBe('下发成功'));
    expect(screen.getByTestId('task-outcome-t1').textContent).toBe('已下发');
  });

  it('pauses and deletes only after a confirmation', async () => {
    render(<TaskManagePage />);
    await waitFor(() => expect(screen.getByText('Patrol A')).toBeTruthy());
    fireEvent.click(screen.getByTestId('task-pause-t1'));
    expect(call).not.toHaveBeenCalledWith('taskEdit', expect.anything());
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('taskEdit', { id: 't1', task_state: 3 }));
    cleanup();
    render(<TaskManagePage />);
    await waitFor(() => expect(screen.getByText('Patrol A')).toBeTruthy());
    fireEvent.click(screen.getByTestId('task-delete-t1'));
    const oks = await screen.findAllByTestId('confirm-ok');
    fireEvent.click(oks[oks.length - 1]!);
    await waitFor(() => expect(call).toHaveBeenCalledWith('taskEdit', { id: 't1', state: 10 }));
  });

  it('offers resume for a paused task, nothing to change without the functions', async () => {
    rows = [{ ...TASK, task_state: 3, next_run: null }];
    render(<TaskManagePage />);
    await waitFor(() => expect(screen.getByTestId('task-resume-t1')).toBeTruthy());
    expect(screen.queryByTestId('task-pause-t1')).toBeNull();
    cleanup();
    funList = ['task_list'];
    render(<TaskManagePage />);
    await waitFor(() => expect(screen.getByText('Patrol A')).toBeTruthy());
    expect(screen.queryByTestId('task-add')).toBeNull();
    expect(screen.queryByTestId('task-edit-t1')).toBeNull();
    expect(screen.queryByTestId('task-delete-t1')).toBeNull();
  });
});
