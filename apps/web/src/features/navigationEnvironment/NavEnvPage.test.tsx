import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { NavEnv } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
vi.mock('../../shared/session', () => ({ useUser: () => ({ fun_list: ['device_navEnv'] }) }));

const { default: NavEnvPage, NAV_ENV_POLL_MS } = await import('./NavEnvPage');

const device: NavEnv = {
  sn_id: 'SN-1',
  name: 'Nest One',
  type: 'stable',
  online: true,
  at: 1_700_000_000_000,
  gnss: { lat: 22.5, lng: 114, alt: 80, satellites: 30, rtk_status: 4, rtk_satellites: 25, ntrip_state: 7, fix: 'fixed', accuracy_m: 0.02, flight_state: 2, home_distance: 120 },
  home: { lat: 22.49, lng: 114, source: 'nest' },
  alternate: null,
};

let visibility: DocumentVisibilityState = 'visible';
const setVisibility = (v: DocumentVisibilityState) => {
  visibility = v;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
};

describe('navigation environment screen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    call.mockReset();
    call.mockResolvedValue({ list: [device] });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('polls /device/navEnv while visible, pauses while hidden and reads at once when shown again', async () => {
    render(<NavEnvPage />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]![0]).toBe('deviceNavEnv');
    expect(screen.getByText('Nest One')).toBeTruthy();
    // RtkStatus 4 and NtripState 7 with their labels, the derived fix.
    expect(screen.getAllByText(/^4 · /)).toHaveLength(1);
    expect(screen.getAllByText(/^7 · /)).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(NAV_ENV_POLL_MS * 2);
    });
    expect(call).toHaveBeenCalledTimes(3);

    setVisibility('hidden');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(NAV_ENV_POLL_MS * 4);
    });
    expect(call).toHaveBeenCalledTimes(3);
    expect(screen.getByTestId('nav-env-polling').textContent).toMatch(/暂停|paused/);

    setVisibility('visible');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(call).toHaveBeenCalledTimes(4);
  });

  it('shows the error state when the call fails', async () => {
    call.mockRejectedValue(new Error('down'));
    render(<NavEnvPage />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText(/导航环境读取失败|could not be read/)).toBeTruthy();
  });
});
