import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { PushMsgId, SocketState } from '@nest/contracts';

const handlers = new Map<number, Set<(data: unknown) => void>>();
vi.mock('../../shared/push', () => ({
  onPush: (id: number, h: (data: unknown) => void) => {
    if (!handlers.has(id)) handlers.set(id, new Set());
    handlers.get(id)!.add(h);
    return () => handlers.get(id)!.delete(h);
  },
  usePushState: () => SocketState.OPEN,
}));
const call = vi.fn(async (name: string) => {
  if (name === 'alarmStats') return { total: 3, pending: 1, by_level: [{ level: 30, total: 1, pending: 1 }], by_kind: [] };
  if (name === 'taskList') return { list: [], total: 0 };
  throw new Error(`unexpected ${name}`);
});
vi.mock('../../shared/request', () => ({ call: (name: string) => call(name) }));
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: ['super_administrator'] }) }));
vi.mock('../../shared/cookie', () => ({ getToken: () => 'tok' }));

const record = {
  devices: { total: 2, online: 1, offline: 1, connected: 0, flying: 0 },
  inspection: {
    sorties_total: 5, sorties_today: 1, flight_seconds_total: 60, distance_total: 1500, results_total: 9, results_today: 2,
    results_by_type: { '10': 9, '15': 0, '20': 0 }, alarms_pending: 1,
  },
  records: [],
  generated_at: 1,
};
const fetched: string[] = [];
const fetchMock = vi.fn(async (url: string) => {
  const path = url.split('?')[0]!;
  fetched.push(path);
  const body = path.endsWith('equipment-record.json')
    ? record
    : path.endsWith('inspection-leaderboard.json')
      ? { type: 10, list: [] }
      : path.endsWith('checking-type.json')
        ? [{ value: 10, label: { zh: '出勤', en: 'Attendance' } }]
        : [];
  return new Response(JSON.stringify(body), { status: 200 });
});

const { useDashboard } = await import('./useDashboard');
const emit = (id: number, data: unknown) => act(() => handlers.get(id)?.forEach((h) => h(data)));
const count = (suffix: string) => fetched.filter((p) => p.endsWith(suffix)).length;

describe('data screen live refetch', () => {
  beforeEach(() => {
    handlers.clear();
    fetched.length = 0;
    call.mockClear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads every panel once, then only the panels a burst of 380s names, once per gap', async () => {
    const { result, unmount } = renderHook(() => useDashboard());
    await waitFor(() => expect(result.current.record?.inspection.results_total).toBe(9));
    await waitFor(() => expect(result.current.tasks).toEqual([]));
    expect(count('equipment-record.json')).toBe(1);
    expect(call.mock.calls.filter(([n]) => n === 'taskList')).toHaveLength(1);

    // A burst of task changes right after the first load: gathered into one read after the gap.
    for (let i = 0; i < 5; i++) emit(PushMsgId.DATA_CHANGED, { topics: ['tasks'] });
    emit(PushMsgId.DATA_CHANGED, { topics: ['bogus'] });
    emit(PushMsgId.DATA_CHANGED, 'not an object');
    expect(call.mock.calls.filter(([n]) => n === 'taskList')).toHaveLength(1);
    await waitFor(() => expect(call.mock.calls.filter(([n]) => n === 'taskList')).toHaveLength(2), { timeout: 5000 });
    // Tasks only: the record, ranking and messages were not read again.
    expect(count('equipment-record.json')).toBe(1);
    expect(count('realtime-message.json')).toBe(1);

    // An alarm (370) reads the alarm statistics and the messages again, not the tasks.
    const statsBefore = call.mock.calls.filter(([n]) => n === 'alarmStats').length;
    emit(PushMsgId.ALARM, { event: 'raised' });
    await waitFor(() => expect(call.mock.calls.filter(([n]) => n === 'alarmStats').length).toBe(statsBefore + 1), { timeout: 5000 });
    await waitFor(() => expect(count('realtime-message.json')).toBe(2));
    expect(call.mock.calls.filter(([n]) => n === 'taskList')).toHaveLength(2);
    unmount();
  }, 15_000);
});
