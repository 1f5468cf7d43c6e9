import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { PushMsgId, SocketState, type Alarm, type User } from '@nest/contracts';

const handlers = new Map<number, Set<(data: unknown) => void>>();
vi.mock('../../shared/push', () => ({
  onPush: (id: number, h: (data: unknown) => void) => {
    if (!handlers.has(id)) handlers.set(id, new Set());
    handlers.get(id)!.add(h);
    return () => handlers.get(id)!.delete(h);
  },
  usePushState: () => SocketState.OPEN,
}));
const call = vi.fn(async (_name: string, _fields: unknown) => ({ list: [], total: 3, pending: 3 }));
vi.mock('../../shared/request', () => ({ call: (name: string, fields: unknown) => call(name, fields) }));

const { useAlarmNews } = await import('./useAlarmNews');
const { getNews, resetNews } = await import('./alarms');

const alarm = (id: string, level: number): Alarm => ({
  id, sn_id: 'SN', device_name: 'Nest', kind: 'nest_part_fault', level, state: 10, value: null, detail: 'hatch', flight_id: null,
  lat: null, lng: null, raised_at: 1, cleared_at: null, processed_at: null, processed_by: '', note: '',
});
const user = (funs: string[]) => ({ u_id: 'u1', fun_list: funs }) as unknown as User;
const emit = (data: unknown) => act(() => handlers.get(PushMsgId.ALARM)?.forEach((h) => h(data)));

describe('header news from sign-in and push 370', () => {
  afterEach(() => {
    handlers.clear();
    call.mockClear();
    resetNews();
  });

  it('seeds the pending count from /alarm/list (page 0), follows 370 and announces high alarms', async () => {
    const high = vi.fn();
    renderHook(() => useAlarmNews(user(['alarm_list']), high));
    await waitFor(() => expect(getNews().pending).toBe(3));
    expect(call).toHaveBeenCalledWith('alarmList', { page: 0, size: 6 });
    emit({ event: 'raised', alarm: alarm('a1', 20), pending: 4 });
    expect(getNews().pending).toBe(4);
    expect(high).not.toHaveBeenCalled();
    emit({ event: 'raised', alarm: alarm('a2', 30), pending: 5 });
    expect(getNews().pending).toBe(5);
    expect(high).toHaveBeenCalledWith(expect.objectContaining({ id: 'a2' }));
    emit({ event: 'processed', alarm: { ...alarm('a2', 30), state: 20 }, pending: 4 });
    expect(getNews().pending).toBe(4);
    expect(high).toHaveBeenCalledTimes(1);
  });

  it('does nothing for users without alarm_list', async () => {
    const { result } = renderHook(() => useAlarmNews(user(['menu_home']), vi.fn()));
    expect(result.current).toBe(false);
    expect(call).not.toHaveBeenCalled();
    expect(handlers.get(PushMsgId.ALARM)?.size ?? 0).toBe(0);
    expect(getNews().pending).toBeNull();
  });
});
