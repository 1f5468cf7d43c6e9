import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ResultCode, type DjiPilotLogin } from '@nest/contracts';
import { installMatchMedia, installResizeObserver, makeUser } from '../../test/dom';
import { applyLang } from '../../shared/i18n';
import { clearSession, setUser } from '../../shared/session';
import { KEYS, storage } from '../../shared/storage';
import { fakeBridge, ok } from './testing';
import type * as RequestModule from '../../shared/request';

installMatchMedia();
installResizeObserver();

const call = vi.fn();
vi.mock('../../shared/request', async (original) => ({
  ...(await original<typeof RequestModule>()),
  call: (...args: unknown[]) => call(...args) as unknown,
  sealWithPasswordKey: (password: string) => Promise.resolve(`sealed:${password}`),
}));
const { RequestError } = await import('../../shared/request');
const { default: PilotPage } = await import('./PilotPage');

const LOGIN: DjiPilotLogin = {
  mqtt_url: 'tcp://10.0.0.5:1883',
  username: 'RC-1',
  password: 'pw-1',
  app_id: '123456',
  app_key: 'key-1',
  app_license: 'licence-1',
  workspace_id: 'wk',
  workspace_name: 'WK',
  platform_name: 'Drone Management Platform',
  device_name: 'RC Plus 1',
};

const scope = globalThis as unknown as Record<string, unknown>;
let language: ReturnType<typeof vi.spyOn> | null = null;

function inPilot(answers: Parameters<typeof fakeBridge>[0] = {}, lang = 'en-US') {
  const fake = fakeBridge(answers);
  scope.djiBridge = fake.bridge;
  language = vi.spyOn(navigator, 'language', 'get').mockReturnValue(lang);
  return fake;
}

/** The connect callback the page named in the thing component's parameters. */
const connectCallbackOf = (calls: [string, ...string[]][]): ((arg: unknown) => void) => {
  const load = calls.find((c) => c[0] === 'platformLoadComponent')!;
  const name = (JSON.parse(load[2]!) as { connectCallback: string }).connectCallback;
  return scope[name] as (arg: unknown) => void;
};

describe('the Pilot 2 page', () => {
  beforeEach(() => {
    call.mockReset();
    clearSession();
  });
  afterEach(() => {
    cleanup();
    delete scope.djiBridge;
    language?.mockRestore();
    language = null;
    act(() => applyLang('zh'));
  });

  for (const lang of ['zh', 'en'] as const) {
    it(`outside Pilot 2 says so and how to open it, in the console language (${lang})`, () => {
      act(() => applyLang(lang));
      render(<PilotPage />);
      const notice = screen.getByTestId('pilot-no-bridge');
      expect(notice.textContent).toContain(lang === 'zh' ? '请在 DJI Pilot 2 中打开本页' : 'Open this page in DJI Pilot 2');
      expect(notice.textContent).toContain(lang === 'zh' ? '开放平台' : 'Open Platform');
      expect(notice.textContent).toContain(window.location.href);
      expect(call).not.toHaveBeenCalled();
    });
  }

  it("signs in, then hands Pilot 2 the server's login for its controller and shows the connect state", async () => {
    const { calls } = inPilot();
    call.mockImplementation((name: string) => Promise.resolve(name === 'login' ? makeUser([]) : LOGIN));
    render(<PilotPage />);
    // Pilot 2 runs in English: the page follows it.
    expect(screen.getByText('Sign in with your console account')).toBeTruthy();
    fireEvent.change(screen.getByTestId('pilot-account'), { target: { value: ' op@example.com ' } });
    fireEvent.change(screen.getByTestId('pilot-password'), { target: { value: 'secret-1' } });
    fireEvent.click(screen.getByTestId('pilot-sign-in'));
    await screen.findByTestId('pilot-connected');
    expect(call).toHaveBeenNthCalledWith(1, 'login', { account: 'op@example.com', password: 'sealed:secret-1' }, expect.objectContaining({ quiet: true }));
    expect(call).toHaveBeenNthCalledWith(2, 'deviceDjiPilot', { rc_sn: 'RC-1' }, { quiet: true });
    expect(calls.map((c) => c[0])).toEqual([
      'platformGetRemoteControllerSN',
      'platformVerifyLicense',
      'platformSetWorkspaceId',
      'platformSetInformation',
      'platformLoadComponent',
      'thingGetConnectState',
    ]);
    expect(calls[1]).toEqual(['platformVerifyLicense', '123456', 'key-1', 'licence-1']);
    expect(calls[3]).toEqual(['platformSetInformation', 'Drone Management Platform', 'WK', 'RC Plus 1']);
    expect(JSON.parse(calls[4]![2]!)).toMatchObject({ host: 'tcp://10.0.0.5:1883', username: 'RC-1', password: 'pw-1' });
    expect(screen.getByText('Remote controller SN: RC-1')).toBeTruthy();
    // Pilot 2 reports the connection dropping, then coming back.
    act(() => connectCallbackOf(calls)(false));
    expect(screen.getByTestId('pilot-disconnected').textContent).toBe('Not connected');
    act(() => connectCallbackOf(calls)('true'));
    expect(screen.getByTestId('pilot-connected').textContent).toBe('Connected');
  });

  it('shows the failing step with the bridge message in Chinese when Pilot 2 runs in Chinese, and connects again on retry', async () => {
    setUser(makeUser([]), false);
    const { calls } = inPilot({ platformVerifyLicense: JSON.stringify({ code: 4001, message: 'license invalid' }) }, 'zh-CN');
    call.mockResolvedValue(LOGIN);
    render(<PilotPage />);
    expect((await screen.findByTestId('pilot-error')).textContent).toBe('license invalid');
    const steps = screen.getByTestId('pilot-steps');
    expect(within(steps).getByText('验证开发者许可')).toBeTruthy();
    expect(calls.filter((c) => c[0] === 'platformLoadComponent')).toHaveLength(0);
    expect(screen.queryByTestId('pilot-connected')).toBeNull();
    fireEvent.click(screen.getByTestId('pilot-retry'));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    await screen.findByTestId('pilot-error');
  });

  it("shows the server's refusal (an unregistered controller) at its step", async () => {
    setUser(makeUser([]), false);
    const { calls } = inPilot({ platformGetRemoteControllerSN: ok('RC-UNKNOWN') });
    call.mockRejectedValue(new RequestError('code', 'This remote controller is not registered in your company', ResultCode.NOT_FOUND_OBJECT));
    render(<PilotPage />);
    expect((await screen.findByTestId('pilot-error')).textContent).toBe('This remote controller is not registered in your company');
    expect(call).toHaveBeenCalledWith('deviceDjiPilot', { rc_sn: 'RC-UNKNOWN' }, { quiet: true });
    expect(calls.map((c) => c[0])).toEqual(['platformGetRemoteControllerSN']);
  });

  it("asks for a dock's login when a dock is being set up from the controller", async () => {
    setUser(makeUser([]), false);
    const { calls } = inPilot();
    call.mockResolvedValue(LOGIN);
    render(<PilotPage />);
    await screen.findByTestId('pilot-connected');
    call.mockResolvedValue({ ...LOGIN, username: 'DOCK-9', device_name: 'Dock 9' });
    fireEvent.change(screen.getByTestId('pilot-dock-sn'), { target: { value: ' DOCK-9 ' } });
    fireEvent.click(screen.getByTestId('pilot-dock-apply'));
    await waitFor(() => expect(call).toHaveBeenLastCalledWith('deviceDjiPilot', { rc_sn: 'RC-1', dock_sn: 'DOCK-9' }, { quiet: true }));
    await screen.findByTestId('pilot-connected');
    const loads = calls.filter((c) => c[0] === 'platformLoadComponent');
    expect(loads).toHaveLength(2);
    expect(JSON.parse(loads[1]![2]!)).toMatchObject({ username: 'DOCK-9' });
    expect(screen.getByText('Device being connected: DOCK-9')).toBeTruthy();
  });

  it('uses the user saved by an earlier sign-in on this controller', async () => {
    storage.setJson(KEYS.userInfo, makeUser([], { token: '' }));
    inPilot();
    call.mockResolvedValue(LOGIN);
    render(<PilotPage />);
    await screen.findByTestId('pilot-connected');
    expect(call).toHaveBeenCalledTimes(1);
    expect(call).toHaveBeenCalledWith('deviceDjiPilot', { rc_sn: 'RC-1' }, { quiet: true });
  });

  it('asks for a sign-in again when the session has expired', async () => {
    setUser(makeUser([]), false);
    inPilot();
    call.mockRejectedValue(new RequestError('expired', 'expired'));
    render(<PilotPage />);
    await screen.findByTestId('pilot-sign-in');
  });
});
