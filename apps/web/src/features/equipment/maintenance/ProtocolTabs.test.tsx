import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { DeviceProtocol, type DeviceListItem, type DeviceOp, type MaintenanceLive } from '@nest/contracts';
import { applyLang } from '../../../shared/i18n';
import { installMatchMedia, installResizeObserver } from '../../../test/dom';

installMatchMedia();
installResizeObserver();

vi.mock('../../../shared/push', () => ({ onPush: () => () => {} }));
const call = vi.fn();
vi.mock('../../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
vi.mock('../../../shared/cookie', () => ({ getToken: () => 'token' }));
vi.mock('../../../shared/session', () => ({ useUser: () => ({ u_id: 'me', fun_list: ['device_upgrade', 'device_calibrate', 'device_debug', 'device_ops', 'rom_list'] }) }));
vi.mock('../../../shared/notify', () => ({ notify: () => ({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { default: MaintenanceDrawer } = await import('./MaintenanceDrawer');

const device = (protocol: number): DeviceListItem =>
  ({
    id: 'd1', type: 'stable_mini', link_type: 3, airport_name: 'Dock', uav_name: 'M3D', sn_id: 'SN1', uav_sn: 'SN1-UAV', address: '', uav_model: 'M3D',
    description: '', azimuth: -1, altn_point: null, airport_point: null, beacon: null, company: 'wk', state: 1, enabled: true, create_time: 1,
    name: 'Dock', is_push_on: true, connected_by: null, position: null, stream_uav_list: [], protocol,
  }) as DeviceListItem;

const LIVE: MaintenanceLive = { online: true, firmware: '10.01.1612', rtk_status: 0, ntrip_state: 0, azimuth: -1, beacon: null };

/** Each tab by its visible name: whether it is there and whether it can be chosen. */
function tabs(): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const el of screen.getAllByRole('tab')) out[(el.textContent ?? '').trim()] = el.getAttribute('aria-disabled') !== 'true';
  return out;
}

describe('maintenance tabs per device protocol', () => {
  beforeEach(() => {
    call.mockReset();
    call.mockImplementation((name: string) =>
      Promise.resolve(name === 'deviceOps' ? { list: [] as DeviceOp[], total: 0, live: LIVE } : { list: [], total: 0 }),
    );
  });
  afterEach(() => {
    cleanup();
    applyLang('zh');
  });

  it.each([
    ['en', { upgrade: 'Firmware', native: ['Calibration', 'Beacon', 'Azimuth', 'RTK', 'Nest log'], debug: 'Remote debug', history: 'History' }],
    ['zh', { upgrade: '固件升级', native: ['传感器校准', '信标', '方位角', 'RTK', '机场日志'], debug: '远程调试', history: '操作记录' }],
  ] as const)('a DJI dock: upgrade and remote debug offered, the native-only tabs disabled with the reason (%s)', async (lang, names) => {
    applyLang(lang);
    render(<MaintenanceDrawer device={device(DeviceProtocol.DJI)} onClose={() => {}} />);
    await screen.findByRole('tab', { name: new RegExp(names.debug) });
    const t = tabs();
    expect(t[names.upgrade]).toBe(true);
    expect(t[names.debug]).toBe(true);
    for (const key of ['calibrate', 'beacon', 'azimuth', 'rtk', 'log']) {
      const label = screen.getByTestId(`maint-tab-unsupported-${key}`);
      expect(label.closest('[role="tab"]')?.getAttribute('aria-disabled')).toBe('true');
      expect(label.getAttribute('aria-label')).toContain(lang === 'en' ? 'Not available on DJI docks' : 'DJI 机场不支持此项');
    }
    expect(Object.keys(t)).toHaveLength(8);
  });

  it('a native nest: every native tab offered, no remote debug, nothing disabled', async () => {
    applyLang('en');
    render(<MaintenanceDrawer device={device(DeviceProtocol.NEST)} onClose={() => {}} />);
    await screen.findByRole('tab', { name: /history/i });
    const t = tabs();
    expect(Object.values(t).every(Boolean)).toBe(true);
    expect(Object.keys(t)).toHaveLength(7);
    expect(screen.queryByRole('tab', { name: /remote debug/i })).toBeNull();
    expect(screen.queryByTestId('maint-tab-unsupported-calibrate')).toBeNull();
  });
});
