import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CODE_TEXT, CmdType, PUSH_TEXT, PushMsgId, Reason, commandReasonText, type Lang } from '@nest/contracts';
import { saveToken } from '../../../shared/cookie';
import { applyLang } from '../../../shared/i18n';
import { setNotifier } from '../../../shared/notify';
import { closePush, ensurePush, getPush } from '../../../shared/push';
import { TestPushServer, TestWebSocket, eventually, type Frame } from '../../../test/push-server';
import { resetPublicKeys } from '../../../shared/request/keys';
import { clearSession, setUser } from '../../../shared/session';
import { installMatchMedia, installResizeObserver, makeUser } from '../../../test/dom';
import { FlightControls } from './FlightControls';
import { useDeviceCommand } from './useDeviceCommand';

/**
 * The control panel's commands over a real socket to a push server in the test: a command the server
 * refuses shows the server's reason in the panel, in the page's language, whether the refusal carries the
 * command's reply (2002) or no reply data at all (40018, 40100, 40263).
 */
const SN = 'SIM-STABLE-01';

function Panel(): React.ReactNode {
  const cmd = useDeviceCommand(SN);
  return <FlightControls sn={SN} drone={undefined} flow={null} mission={null} blocked={null} cmd={cmd} />;
}

let server: TestPushServer;
/** How the server answers a 401 of each cmd_type (lang: the socket's language, from its 100). */
let answers: Map<number, (frame: Frame, lang: Lang) => { code: number; msg: string; data: unknown } | null>;

beforeEach(async () => {
  installMatchMedia();
  installResizeObserver();
  server = new TestPushServer();
  answers = new Map();
  server.onFrame = (frame, socket) => {
    if (frame.msg_id !== PushMsgId.CONTROL && frame.msg_id !== PushMsgId.PROCESS_CONTROL) return false;
    const verify = server.connections[server.sockets.indexOf(socket)]?.find((f) => f.msg_id === PushMsgId.USER_VERIFY);
    const lang: Lang = verify?.data.os_language === 'en' ? 'en' : 'zh';
    const key = frame.msg_id === PushMsgId.CONTROL ? Number(frame.data.cmd_type) : -Number(frame.data.control_cmd);
    const answer = answers.get(key)?.(frame, lang);
    if (answer) socket.send(JSON.stringify({ ...answer, msg_id: frame.msg_id }));
    return true;
  };
  await server.start();
  window.__NEST_PUSH_URL__ = server.url;
  vi.stubGlobal('WebSocket', TestWebSocket);
  const pair = await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt']);
  const spki = btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey))));
  resetPublicKeys({ password: spki, licence: spki });
  // The toasts of the push client are not what is checked here: the panel is.
  setNotifier({ error: () => {}, warning: () => {}, success: () => {}, info: () => {}, alert: () => {}, confirm: () => {} });
  await saveToken('tok-flight');
  setUser(makeUser(['device_10']));
});

afterEach(async () => {
  cleanup();
  closePush(true);
  setNotifier(null);
  resetPublicKeys();
  clearSession();
  applyLang('zh');
  delete window.__NEST_PUSH_URL__;
  vi.unstubAllGlobals();
  await server.stop();
});

async function openPanel(lang: Lang): Promise<void> {
  applyLang(lang);
  render(<Panel />);
  await act(async () => {
    ensurePush(makeUser(['device_10']));
    await eventually('the socket verified', () => getPush()?.isVerified === true);
  });
}

const refusal = () => screen.queryByTestId('flight-refusal');

async function click(testId: string): Promise<void> {
  await act(async () => {
    fireEvent.click(screen.getByTestId(testId));
  });
}

/** Clicks a button that asks first (return home), then the confirmation's OK. */
async function clickConfirmed(testId: string): Promise<void> {
  await click(testId);
  const ok = await waitFor(() => {
    const button = document.querySelector<HTMLElement>('.ant-popconfirm .ant-btn-primary');
    if (!button) throw new Error('no confirmation yet');
    return button;
  });
  await act(async () => {
    fireEvent.click(ok);
  });
}

/** The panel's refusal line, once rendered (act-aware: a wait inside act would not see React's updates). */
const refusalShown = (what: string): Promise<HTMLElement> =>
  waitFor(
    () => {
      const shown = refusal();
      if (!shown) throw new Error(`waiting for ${what}`);
      return shown;
    },
    { timeout: 30_000 },
  );

const button = (testId: string): HTMLElement => screen.getByTestId(testId).closest('button') ?? screen.getByTestId(testId);
/** antd takes the loading look off in an effect after the render: waited for, like the refusal. */
const notLoading = (testId: string): Promise<void> =>
  waitFor(
    () => {
      if (button(testId).classList.contains('ant-btn-loading')) throw new Error(`${testId} still loading`);
    },
    { timeout: 30_000 },
  );

describe.each(['en', 'zh'] as const)('refused commands in the panel (%s)', (lang) => {
  it("a 2002 refusal shows the server's reason (a new one: take control first)", async () => {
    answers.set(CmdType.LAND, (frame, socketLang) => ({
      code: 2002,
      msg: commandReasonText(Reason.NOT_HOLDING, socketLang),
      data: { sn_id: SN, cmd_id: frame.data.cmd_id, cmd_type: CmdType.LAND, outcome: 'refused', reason: Reason.NOT_HOLDING },
    }));
    await openPanel(lang);
    await click('act-land');
    const shown = await refusalShown('the refusal in the panel');
    expect(shown.textContent).toContain(commandReasonText(Reason.NOT_HOLDING, lang));
    expect(shown.dataset.key).toBe('land');
    await notLoading('act-land');
    // Sent again and carried out: the refusal goes.
    answers.set(CmdType.LAND, (frame) => ({
      code: 2000,
      msg: '',
      data: { sn_id: SN, cmd_id: frame.data.cmd_id, cmd_type: CmdType.LAND, outcome: 'ok', reason: 0 },
    }));
    await click('act-land');
    await waitFor(() => expect(refusal()).toBeNull(), { timeout: 30_000 });
    await notLoading('act-land');
  });

  it.each([
    [40018, 'NOT_FOUND_OBJECT'],
    [40100, 'NO_PERMISSION'],
    [40263, 'LOGIN_EXPIRED'],
  ] as const)('a %i answer without reply data (%s) ends the command as refused instead of "sending"', async (code, _name) => {
    answers.set(CmdType.RETURN, () => ({ code, msg: '', data: null }));
    await openPanel(lang);
    await clickConfirmed('act-return');
    const shown = await refusalShown('the refusal in the panel');
    expect(shown.textContent).toContain(CODE_TEXT[code]![lang]);
    expect(shown.dataset.key).toBe('return');
    await notLoading('act-return');
  });

  it('return home asks first: the click alone sends nothing, the confirmation sends it', async () => {
    const sent = () => server.connections.flat().filter((f) => f.msg_id === PushMsgId.CONTROL && Number(f.data.cmd_type) === CmdType.RETURN).length;
    answers.set(CmdType.RETURN, (frame) => ({ code: 2000, msg: '', data: { sn_id: SN, cmd_id: frame.data.cmd_id, cmd_type: CmdType.RETURN, outcome: 'ok', reason: 0 } }));
    await openPanel(lang);
    await click('act-return');
    await waitFor(() => {
      if (!document.querySelector('.ant-popconfirm')) throw new Error('no confirmation yet');
    });
    expect(document.querySelector('.ant-popconfirm')?.textContent).toContain(lang === 'zh' ? '确定立即返航' : 'Return home now?');
    expect(sent()).toBe(0);
    await act(async () => {
      fireEvent.click(document.querySelector<HTMLElement>('.ant-popconfirm .ant-btn-primary')!);
    });
    await eventually('the return command at the server', () => sent() === 1);
  });

  it("a 473 refusal names the process command and the server's reason", async () => {
    answers.set(-3, (frame, socketLang) => ({
      code: 2002,
      msg: `${socketLang === 'zh' ? '流程终止失败：' : 'Process termination failed: '}${commandReasonText(Reason.SHARED_ONLY, socketLang)}`,
      data: { sn_id: SN, cmd_id: frame.data.cmd_id, control_cmd: 3, outcome: 'refused', reason: Reason.SHARED_ONLY },
    }));
    await openPanel(lang);
    // The interrupt button asks for a confirmation and is enabled only while a process runs: send directly.
    const cmd = { current: null as ReturnType<typeof useDeviceCommand> | null };
    function Probe(): React.ReactNode {
      cmd.current = useDeviceCommand(SN);
      return cmd.current.refusal ? <div data-testid="probe-refusal">{cmd.current.refusal.text}</div> : null;
    }
    render(<Probe />);
    await act(async () => {
      cmd.current!.process(3);
    });
    const shown = await screen.findByTestId('probe-refusal', {}, { timeout: 30_000 });
    expect(shown.textContent).toBe(
      `${lang === 'zh' ? '流程终止失败：' : 'Process termination failed: '}${commandReasonText(Reason.SHARED_ONLY, lang)}`,
    );
  });

  it('a command whose socket closes before its answer ends as failed instead of "sending"', async () => {
    answers.set(CmdType.LAND, () => null);
    await openPanel(lang);
    await click('act-land');
    await act(async () => {
      await server.until('the 401 at the server', () => server.ids(0).includes(PushMsgId.CONTROL));
    });
    await waitFor(() => expect(button('act-land').classList.contains('ant-btn-loading')).toBe(true), { timeout: 30_000 });
    await act(async () => {
      await server.stop();
    });
    const shown = await refusalShown('the command failed with the socket');
    expect(shown.textContent).toContain(PUSH_TEXT.closed[lang]);
    await notLoading('act-land');
  });
});
