import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Device, LatLng } from '@nest/contracts';
import { installMatchMedia, installResizeObserver } from '../../test/dom';
import { applyLang } from '../../shared/i18n';
import { callFieldsOf, emptyForm, formIssues } from './form';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', () => ({ call: (...args: unknown[]) => call(...args) }));
vi.mock('../../shared/session', () => ({ useUser: () => ({ u_id: 'u1', fun_list: ['/device/add', '/device/edit'], in_com: { id: 'wk' } }) }));
// The map is not what is tested: a click on it places the point being picked.
vi.mock('./PointPicker', () => ({
  default: ({ active, onPick }: { active: string | null; onPick: (t: string, p: LatLng) => void }) => (
    <button type="button" data-testid="map" onClick={() => active && onPick(active, { lat: 30.5, lng: 114.3 })} />
  ),
}));

const { DeviceFormDialog } = await import('./DeviceFormDialog');
const { CredentialsDialog } = await import('./CredentialsDialog');

const CREDENTIALS = { mqtt_url: 'tcp://10.0.0.5:1883', username: 'DOCK-7', password: 'pw-Secret-123' };

const DJI_DEVICE: Device = {
  id: 'd7',
  type: 'stable',
  link_type: 1,
  protocol: 2,
  airport_name: 'Dock 7',
  uav_name: 'M3D 7',
  sn_id: 'DOCK-7',
  uav_sn: 'DRONE-7',
  address: '',
  uav_model: 'M3D',
  description: '',
  azimuth: -1,
  airport_point: { lat: 30.5, lng: 114.3 },
  altn_point: null,
  beacon: null,
  company: 'wk',
  enabled: true,
  create_time: 1_700_000_000,
} as unknown as Device;

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('registering a DJI dock', () => {
  beforeEach(() => call.mockReset());
  afterEach(() => {
    cleanup();
    act(() => applyLang('zh'));
  });

  it('requires the docked drone SN of a DJI device and sends the protocol only when adding', () => {
    const dji = { ...emptyForm(), protocol: 2 as const, sn_id: 'DOCK-7', uav_name: 'M3D', airport_name: 'Dock', airport_point: { lat: 1, lng: 2 } };
    expect(formIssues(dji).uav_sn).toBe('required');
    expect(formIssues({ ...dji, protocol: 1 }).uav_sn).toBeUndefined();
    expect(formIssues({ ...dji, uav_sn: 'DRONE-7' })).toEqual({});
    expect(callFieldsOf({ ...dji, uav_sn: 'DRONE-7' }).protocol).toBe(2);
    expect('protocol' in callFieldsOf({ ...dji, uav_sn: 'DRONE-7' }, 'd7')).toBe(false);
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`adds a DJI device: protocol chosen, drone SN required, the answer's credentials handed on (${lang})`, async () => {
      act(() => applyLang(lang));
      const onSaved = vi.fn();
      call.mockResolvedValue({ ...DJI_DEVICE, dji: CREDENTIALS });
      render(<DeviceFormDialog open device={null} reference={[]} onClose={() => undefined} onSaved={onSaved} />);
      const protocol = screen.getByTestId('field-protocol');
      fireEvent.mouseDown(protocol.querySelector('.ant-select-selector') ?? protocol);
      fireEvent.click(await screen.findByText(lang === 'zh' ? '大疆上云 API' : 'DJI Cloud API', { selector: '.ant-select-item-option-content' }));
      await screen.findByText(lang === 'zh' ? '机场内无人机的 SN' : "Docked drone's SN");
      type('field-sn', 'DOCK-7');
      type('field-airport-name', 'Dock 7');
      type('field-uav-name', 'M3D 7');
      fireEvent.click(await screen.findByTestId('map'));
      fireEvent.click(screen.getByTestId('device-save'));
      expect(call).not.toHaveBeenCalled();
      await waitFor(() => expect(screen.getAllByText(lang === 'zh' ? '必填' : 'Required').length).toBe(1));
      type('field-uav-sn', 'DRONE-7');
      fireEvent.click(screen.getByTestId('device-save'));
      await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
      expect(call).toHaveBeenCalledWith('deviceAdd', expect.objectContaining({ protocol: 2, sn_id: 'DOCK-7', uav_sn: 'DRONE-7' }));
      expect((onSaved.mock.calls[0] as [{ dji: unknown }])[0].dji).toEqual(CREDENTIALS);
    });
  }

  it('shows the protocol read-only when editing and sends none', async () => {
    act(() => applyLang('en'));
    call.mockResolvedValue(DJI_DEVICE);
    render(<DeviceFormDialog open device={DJI_DEVICE} reference={[]} onClose={() => undefined} onSaved={() => undefined} />);
    const protocol = screen.getByTestId('field-protocol');
    expect(protocol.className).toContain('ant-select-disabled');
    expect(within(protocol).getByText('DJI Cloud API')).toBeTruthy();
    fireEvent.click(screen.getByTestId('device-save'));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(1));
    expect(call.mock.calls[0]?.[0]).toBe('deviceEdit');
    expect(call.mock.calls[0]?.[1]).not.toHaveProperty('protocol');
  });

  for (const [lang, warning] of [
    ['zh', '密码只显示这一次'],
    ['en', 'The password is shown only this once'],
  ] as const) {
    it(`shows the credentials with what goes where and that the password is not shown again (${lang})`, () => {
      act(() => applyLang(lang));
      const onClose = vi.fn();
      render(<CredentialsDialog credentials={CREDENTIALS} name="Dock 7" onClose={onClose} />);
      expect(screen.getByTestId('dji-mqtt-url').textContent).toContain(CREDENTIALS.mqtt_url);
      expect(screen.getByTestId('dji-username').textContent).toContain(CREDENTIALS.username);
      expect(screen.getByTestId('dji-password').textContent).toContain(CREDENTIALS.password);
      expect(screen.getByTestId('dji-credentials-once').textContent).toContain(warning);
      expect(screen.getByTestId('dji-credentials').textContent).toContain('docs/dji.md');
      fireEvent.click(screen.getByTestId('dji-credentials-close'));
      expect(onClose).toHaveBeenCalledTimes(1);
    });
  }
});
