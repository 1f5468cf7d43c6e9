import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();
const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: ['alarm_list', 'alarm_process'] }) }));
let handler: ((d: unknown) => void) | null = null;
vi.mock('../../shared/push', () => ({ onPush: (_id: number, h: (d: unknown) => void) => { handler = h; return () => undefined; } }));
const { AlarmCenter } = await import('./AlarmCenter');
const { openAlarmCenter } = await import('./alarms');
const alarm = (id: string) => ({ id, sn_id: 'S1', device_name: 'Nest', kind: 'battery_low', level: 30, state: 10, value: 10, detail: '', flight_id: null, lat: null, lng: null, raised_at: 1_700_000_000, cleared_at: null, processed_at: null, processed_by: '', note: '' });

describe('alarm center', () => {
  afterEach(() => cleanup());
  it('lists the page read through the query cache and adds a pushed alarm without reading again', async () => {
    call.mockImplementation((name: string) => {
      if (name === 'alarmList') return Promise.resolve({ list: [alarm('a1')], total: 1, pending: 1 });
      return Promise.resolve({ list: [], total: 0 });
    });
    openAlarmCenter();
    render(<AlarmCenter />);
    await waitFor(() => expect(screen.getAllByTestId('alarm-row')).toHaveLength(1));
    act(() => handler!({ event: 'raised', alarm: alarm('a2'), pending: 2 }));
    await waitFor(() => expect(screen.getAllByTestId('alarm-row')).toHaveLength(2));
    expect(call).toHaveBeenCalledTimes(2);
  });
});
