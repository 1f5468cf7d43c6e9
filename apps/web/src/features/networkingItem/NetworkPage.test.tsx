import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { LinkStats } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
let funList = ['link_stats'];
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: funList }) }));

const { default: NetworkPage, NETWORK_REFRESH_MS } = await import('./NetworkPage');

const AT = 1_700_000_000_000;
const stats: LinkStats = {
  broker: { kind: 'embedded', address: '127.0.0.1:1883', connected: true, client_id: 'nest-server-1' },
  totals: { devices: 2, online: 1, messages_per_min: 61.5, accepted: 1234, dropped: 3, unattributed_dropped: { unknown_device: 2 }, superseded: 12345 },
  devices: [
    {
      sn_id: 'SN-1', name: 'Nest One', link_type: 1, online: true, state: 1, heard_at: AT - 2000, since: AT - 60_000, rate_hz: 1, telemetry_hz: 0.98,
      messages_per_min: 61.5, accepted: 1234, dropped: { bad_data: 3 }, rtt: { count: 4, last_ms: 12, avg_ms: 15.5, max_ms: 30 }, command_timeouts: 1, firmware: 'fw-1',
    },
    {
      sn_id: 'SN-2', name: 'Hangar Two', link_type: 2, online: false, state: 2, heard_at: null, since: null, rate_hz: null, telemetry_hz: 0,
      messages_per_min: 0, accepted: 0, dropped: {}, rtt: null, command_timeouts: 0, firmware: null,
    },
  ],
  at: AT,
};

describe('networking screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    call.mockReset();
    call.mockResolvedValue(stats);
    funList = ['link_stats'];
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows the broker, totals and each device link, and refreshes every few seconds', async () => {
    render(<NetworkPage />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(call).toHaveBeenCalledWith('linkStats', {}, { quiet: false });
    expect(screen.getByTestId('network-broker').textContent).toContain('127.0.0.1:1883');
    expect(screen.getByTestId('network-online').textContent).toContain('1 / 2');
    expect(screen.getByText('Nest One')).toBeTruthy();
    expect(screen.getByText(/bad_data|数据校验失败|Invalid data/)).toBeTruthy();
    expect(screen.getByText(/15\.5/)).toBeTruthy();
    expect(screen.getByTestId('network-superseded').textContent).toMatch(/12,345/);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NETWORK_REFRESH_MS * 2);
    });
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('filters by name and online', async () => {
    render(<NetworkPage />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText('Hangar Two')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch'));
    expect(screen.queryByText('Hangar Two')).toBeNull();
    expect(screen.getByText('Nest One')).toBeTruthy();
  });

  it('does not call without the function', async () => {
    funList = [];
    render(<NetworkPage />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NETWORK_REFRESH_MS);
    });
    expect(call).not.toHaveBeenCalled();
  });
});
