import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { DeviceProtocol, type DeviceListItem, type DeviceOp, type MaintenanceLive } from '@nest/contracts';
import { applyLang } from '../../../shared/i18n';
import { installMatchMedia, installResizeObserver } from '../../../test/dom';

installMatchMedia();
installResizeObserver();

vi.mock('../../../shared/push', () => ({ onPush: () => () => {} }));
const call = vi.fn();
vi.mock('../../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
vi.mock('../../../shared/cookie', () => ({ getToken: () => 'token' }));
let funList = ['device_debug', 'device_ops'];
vi.mock('../../../shared/session', () => ({ useUser: () => ({ u_id: 'me', fun_list: funList }) }));
vi.mock('../../../shared/notify', () => ({ notify: () => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { default: MaintenanceDrawer } = await import('./MaintenanceDrawer');

const device = (over: Partial<DeviceListItem> = {}): DeviceListItem =>
  ({
    id: 'd1', type: 'stable_mini', link_type: 3, airport_name: 'DJI Dock', uav_name: 'M3D', sn_id: 'DJI1', uav_sn: 'DJI1-UAV', address: '', uav_model: 'M3D',
    description: '', azimuth: -1, altn_point: null, airport_point: null, beacon: null, company: 'wk', state: 1, enabled: true, create_time: 1,
    name: 'DJI Dock', is_push_on: true, connected_by: null, position: null, stream_uav_list: [], protocol: DeviceProtocol.DJI, ...over,
  }) as DeviceListItem;

const LIVE: MaintenanceLive = { online: true, firmware: '10.01', rtk_status: 0, ntrip_state: 0, azimuth: -1, beacon: null };
const done = (action: string): DeviceOp => ({
  id: 'o1', sn_id: 'DJI1', kind: 'debug', state: 'ok', progress: 100, params: { action }, outcome: { stage: 'done' }, reason: 0, user_name: 'Me',
  create_time: 1_700_000_000, modified_time: 1_700_000_000, finish_time: 1_700_000_001, file: null,
});

describe('remote debug in the maintenance drawer', () => {
  beforeEach(() => {
    call.mockReset();
    funList = ['device_debug', 'device_ops'];
    call.mockImplementation((name: string, fields: Record<string, unknown>) =>
      Promise.resolve(name === 'deviceOps' ? { list: [], total: 0, live: LIVE } : done(String(fields.action))),
    );
  });
  afterEach(() => {
    cleanup();
    applyLang('zh');
  });

  it.each([
    ['en', /remote debug/i, 'Open the cover'],
    ['zh', /远程调试/, '打开舱盖'],
  ] as const)('offers the DJI actions and runs one (%s)', async (lang, tabName, label) => {
    applyLang(lang);
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('tab', { name: tabName }));
    const button = await screen.findByTestId('debug-cover_open');
    expect(button.textContent?.replace(/\s/g, '')).toBe(label.replace(/\s/g, ''));
    fireEvent.click(button);
    await waitFor(() => expect(call).toHaveBeenCalledWith('deviceDebug', { sn_id: 'DJI1', action: 'cover_open' }));
  });

  it('offers no remote debug for a nest', async () => {
    applyLang('en');
    render(<MaintenanceDrawer device={device({ protocol: DeviceProtocol.NEST })} onClose={() => {}} />);
    await screen.findByRole('tab', { name: /history/i });
    expect(screen.queryByRole('tab', { name: /remote debug/i })).toBeNull();
  });

  it.each([
    ['en', /remote debug/i, 'Too much rain to operate the cover'],
    ['zh', /远程调试/, '雨量过大，无法操作舱盖'],
  ] as const)('shows a running action with its progress (buttons held), and a failed one with the DJI text (%s)', async (lang, tabName, rain) => {
    applyLang(lang);
    const running: DeviceOp = { ...done('cover_open'), state: 'running', progress: 33, outcome: {}, finish_time: null };
    call.mockImplementation((name: string) => Promise.resolve(name === 'deviceOps' ? { list: [running], total: 1, live: LIVE } : running));
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('tab', { name: tabName }));
    const status = await screen.findByTestId('status-debug');
    expect(status.getAttribute('data-state')).toBe('running');
    expect(status.getAttribute('data-progress')).toBe('33');
    expect(screen.getByTestId('debug-cover_close').hasAttribute('disabled')).toBe(true);
    cleanup();

    const failed: DeviceOp = { ...done('cover_open'), state: 'failed', progress: 33, reason: 514134, outcome: { failure: 514134 } };
    call.mockImplementation((name: string) => Promise.resolve(name === 'deviceOps' ? { list: [failed], total: 1, live: LIVE } : failed));
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('tab', { name: tabName }));
    await waitFor(() => expect(screen.getByTestId('status-debug').getAttribute('data-state')).toBe('failed'));
    expect(screen.getByTestId('status-debug').textContent).toContain(rain);
    expect(screen.getByTestId('debug-cover_close').hasAttribute('disabled')).toBe(false);
  });
});
