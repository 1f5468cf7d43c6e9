import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { PushMsgId, type DeviceListItem, type DeviceOp, type MaintenanceLive } from '@nest/contracts';
import { applyLang } from '../../../shared/i18n';
import { installMatchMedia, installResizeObserver } from '../../../test/dom';

installMatchMedia();
installResizeObserver();

const handlers = new Map<number, Set<(data: unknown) => void>>();
vi.mock('../../../shared/push', () => ({
  onPush: (id: number, h: (data: unknown) => void) => {
    if (!handlers.has(id)) handlers.set(id, new Set());
    handlers.get(id)!.add(h);
    return () => handlers.get(id)!.delete(h);
  },
}));
const call = vi.fn();
vi.mock('../../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
vi.mock('../../../shared/cookie', () => ({ getToken: () => 'tok en' }));
const ALL = ['device_upgrade', 'device_calibrate', 'device_beacon', 'device_azimuth', 'device_rtk', 'device_log', 'device_ops', 'rom_list'];
let funList = ALL;
vi.mock('../../../shared/session', () => ({ useUser: () => ({ u_id: 'me', fun_list: funList }) }));
const success = vi.fn();
vi.mock('../../../shared/notify', () => ({ notify: () => ({ success, error: vi.fn(), warning: vi.fn(), info: vi.fn() }) }));

const { default: MaintenanceDrawer } = await import('./MaintenanceDrawer');
const { mergeOp, latestOf } = await import('./useMaintenance');

const device = (over: Partial<DeviceListItem> = {}): DeviceListItem =>
  ({
    id: 'd1', type: 'stable', link_type: 3, airport_name: 'Nest A', uav_name: 'UAV', sn_id: 'SN1', uav_sn: 'SN1-UAV', address: '', uav_model: '',
    description: '', azimuth: -1, altn_point: null, airport_point: null, beacon: null, company: 'wk', state: 1, enabled: true, create_time: 1,
    name: 'Nest A', is_push_on: true, connected_by: null, position: null, stream_uav_list: [], ...over,
  }) as DeviceListItem;

const op = (over: Partial<DeviceOp> = {}): DeviceOp => ({
  id: 'o1', sn_id: 'SN1', kind: 'upgrade', state: 'running', progress: 0, params: {}, outcome: { stage: 'sent' }, reason: 0, user_name: 'Me',
  create_time: 1_700_000_000, modified_time: 1_700_000_000, finish_time: null, file: null, ...over,
});

const LIVE: MaintenanceLive = { online: true, firmware: 'sim-1.0.0', rtk_status: 4, ntrip_state: 7, azimuth: -1, beacon: null };

function answer(list: DeviceOp[] = [], live: MaintenanceLive = LIVE, started: (name: string, fields: Record<string, unknown>) => DeviceOp = () => op()) {
  call.mockImplementation(async (name: string, fields: Record<string, unknown>) => {
    if (name === 'deviceOps') return { list: fields.kind ? list.filter((o) => o.kind === fields.kind) : list, total: list.length, live };
    if (name === 'romList') return { list: [{ id: 'r1', type: 17, version_code: 200, version_name: 'sim-2.0.0', state: 10 }], total: 1 };
    return started(name, fields);
  });
}

const emit = (data: unknown) => act(() => handlers.get(PushMsgId.DEVICE_OP)?.forEach((h) => h(data)));
const tab = (name: RegExp) => fireEvent.click(screen.getByRole('tab', { name }));
const type = (testId: string, value: string) => {
  const el = screen.getByTestId(testId);
  const input = (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};

describe('maintenance drawer', () => {
  beforeEach(() => {
    call.mockReset();
    success.mockReset();
    funList = ALL;
    applyLang('en');
  });
  afterEach(() => {
    cleanup();
    applyLang('zh');
  });

  it('shows the firmware and follows an upgrade live through push 390 to its end', async () => {
    answer([op({ progress: 10, outcome: { stage: 'download' } })]);
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('firmware-now').textContent).toBe('sim-1.0.0'));
    expect(screen.getByTestId('status-upgrade').dataset.progress).toBe('10');
    emit({ sn_id: 'SN1', op: op({ progress: 62, outcome: { stage: 'verify' } }) });
    expect(screen.getByTestId('status-upgrade').dataset.progress).toBe('62');
    // Another device's operation is not this drawer's.
    emit({ sn_id: 'SN2', op: op({ id: 'x', sn_id: 'SN2', progress: 99 }) });
    expect(screen.getByTestId('status-upgrade').dataset.progress).toBe('62');
    emit({ sn_id: 'SN1', op: op({ state: 'ok', progress: 100, outcome: { stage: 'done', firmware: 'sim-2.0.0' } }) });
    expect(screen.getByTestId('status-upgrade').dataset.state).toBe('ok');
    expect(screen.getByTestId('status-upgrade').textContent).toContain('sim-2.0.0');
    // The end reads the live facts again.
    await waitFor(() => expect(call.mock.calls.filter(([n]) => n === 'deviceOps').length).toBeGreaterThan(1));
  });

  it('starts an upgrade with the chosen package after confirmation', async () => {
    answer([]);
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    await waitFor(() => expect(call).toHaveBeenCalledWith('romList', expect.objectContaining({ type: 17, state: 10 }), { quiet: true }));
    fireEvent.mouseDown(screen.getByTestId('firmware-select').querySelector('.ant-select-content, .ant-select-selector, input') ?? screen.getByTestId('firmware-select'));
    fireEvent.click(await screen.findByText('sim-2.0.0 (code 200)', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByTestId('firmware-upgrade'));
    fireEvent.click(await screen.findByRole('button', { name: /ok|确定/i }));
    await waitFor(() => expect(call).toHaveBeenCalledWith('deviceUpgrade', { sn_id: 'SN1', rom_id: 'r1' }));
    await waitFor(() => expect(screen.getByTestId('status-upgrade').dataset.state).toBe('running'));
    expect(success).toHaveBeenCalled();
  });

  it('shows calibration results per item, normal or abnormal', async () => {
    answer([op({ kind: 'calibrate', state: 'failed', progress: 100, reason: 25, outcome: { stage: 'done', results: { gyroscope: 1, compass: 0, acceleration: 0 } } })]);
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    tab(/Calibration/);
    await waitFor(() => expect(screen.getByTestId('result-gyroscope').dataset.result).toBe('1'));
    expect(screen.getByTestId('result-compass').dataset.result).toBe('0');
    expect(screen.getByTestId('op-reason').textContent).toBe('The calibration failed');
    fireEvent.click(screen.getByTestId('calibrate-start'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('deviceCalibrate', { sn_id: 'SN1', items: '["gyroscope","compass","acceleration"]' }));
  });

  it('validates the RTK form (url and port required) and shows the live RTK and Ntrip states', async () => {
    answer([], LIVE, () => op({ kind: 'rtk' }));
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    tab(/RTK/);
    await waitFor(() => expect(screen.getByTestId('rtk-status').textContent).toBe('Fixed solution'));
    expect(screen.getByTestId('rtk-ntrip').textContent).toBe('Receiving corrections');
    fireEvent.click(screen.getByTestId('rtk-save'));
    await screen.findByText('Enter the caster address');
    expect(screen.getByText('Enter a port from 1 to 65535')).toBeTruthy();
    expect(call).not.toHaveBeenCalledWith('deviceRtk', expect.anything());
    type('rtk-url', 'rtk.example.com');
    type('rtk-port', '2101');
    type('rtk-password', 'pw');
    fireEvent.click(screen.getByTestId('rtk-save'));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith('deviceRtk', { sn_id: 'SN1', url: 'rtk.example.com', port: 2101, mount_point: '', user: '', password: 'pw' }),
    );
  });

  it('sets the azimuth within -1 or 0-360 and the beacon with its three values', async () => {
    answer([], LIVE, (name) => op({ kind: name === 'deviceAzimuth' ? 'azimuth' : 'beacon', state: 'ok', progress: 100 }));
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('firmware-now').textContent).toBe('sim-1.0.0'));
    tab(/Azimuth/);
    await waitFor(() => expect(screen.getByTestId('azimuth-now').textContent).toBe('Not set'));
    type('azimuth-value', '-0.5');
    fireEvent.click(screen.getByTestId('azimuth-save'));
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe('The azimuth is 0 to 360, or -1 for not set'));
    expect(call).not.toHaveBeenCalledWith('deviceAzimuth', expect.anything());
    type('azimuth-value', '135');
    fireEvent.click(screen.getByTestId('azimuth-save'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('deviceAzimuth', { sn_id: 'SN1', azimuth: 135 }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Set'));
    tab(/Beacon/);
    fireEvent.click(screen.getByTestId('beacon-save'));
    // Counted in the beacon's pane: the azimuth's earlier error may still be leaving (antd animates it out).
    await waitFor(() => expect(screen.getByTestId('beacon-save').closest('form')!.querySelectorAll('.ant-form-item-explain-error').length).toBe(3));
    expect(call).not.toHaveBeenCalledWith('deviceBeacon', expect.anything());
    type('beacon-lat', '22.5');
    type('beacon-lng', '114.1');
    type('beacon-height', '30');
    fireEvent.click(screen.getByTestId('beacon-save'));
    await waitFor(() => expect(call).toHaveBeenCalledWith('deviceBeacon', { sn_id: 'SN1', beacon: '{"lat":22.5,"lng":114.1,"height":30}' }));
  });

  it('lists uploaded logs with their signed download link', async () => {
    answer([op({ kind: 'log', state: 'ok', progress: 100, file: { name: 'SN1-1.log', size: 2048, url: '/api/device/log/file/o1?e=9&s=sig' } })]);
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    tab(/Nest log/);
    const link = await screen.findByTestId('log-download');
    expect(link.getAttribute('href')).toBe('/api/device/log/file/o1?e=9&s=sig');
    expect(link.textContent).toContain('SN1-1.log');
  });

  it('hides the actions without the functions, and blocks a disabled or held device', async () => {
    funList = ['device_ops'];
    answer([]);
    const { unmount } = render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    await waitFor(() => expect(screen.getAllByText('You do not have permission for this operation').length).toBeGreaterThan(0));
    expect(screen.queryByTestId('firmware-upgrade')).toBeNull();
    unmount();
    funList = ALL;
    render(<MaintenanceDrawer device={device({ enabled: false })} onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('maint-blocked').textContent).toContain('disabled'));
    tab(/Calibration/);
    expect((screen.getByTestId('calibrate-start') as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    render(<MaintenanceDrawer device={device({ connected_by: { u_id: 'other', nick: 'Ann' } })} onClose={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('maint-blocked').textContent).toContain('Ann'));
  });

  it('shows the history with outcome texts and an error state with retry', async () => {
    answer([op({ kind: 'azimuth', state: 'timeout', progress: 0 })]);
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    tab(/History/);
    await waitFor(() => expect(screen.getByTestId('history-table').textContent).toContain('Setting the azimuth timed out'));
    cleanup();
    call.mockRejectedValue(new Error('down'));
    render(<MaintenanceDrawer device={device()} onClose={() => {}} />);
    tab(/History/);
    await screen.findByText('The maintenance history could not be read');
  });
});

describe('merging pushed operations', () => {
  it('replaces by id, never revives a finished row nor goes back in progress, adds new ones on the first page', () => {
    const a = op({ id: 'a', progress: 50 });
    expect(mergeOp([a], op({ id: 'a', progress: 40 }), true)[0]!.progress).toBe(50);
    expect(mergeOp([a], op({ id: 'a', progress: 60 }), true)[0]!.progress).toBe(60);
    const done = op({ id: 'a', state: 'ok', progress: 100 });
    expect(mergeOp([done], op({ id: 'a', progress: 70 }), true)[0]!.state).toBe('ok');
    expect(mergeOp([a], op({ id: 'b' }), true).map((o) => o.id)).toEqual(['b', 'a']);
    expect(mergeOp([a], op({ id: 'b' }), false).map((o) => o.id)).toEqual(['a']);
    expect(latestOf([op({ id: 'x', kind: 'rtk', create_time: 1 }), op({ id: 'y', kind: 'rtk', create_time: 2 })], 'rtk')!.id).toBe('y');
    expect(latestOf([], 'log')).toBeNull();
  });
});
