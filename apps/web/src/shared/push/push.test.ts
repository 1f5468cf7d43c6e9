import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APP_CODE,
  APP_IDS,
  CODE_TEXT,
  EQUIPMENT_VERIFY_SOR,
  EQUIPMENT_VERIFY_VST,
  PUSH_HEARTBEAT_MS,
  PUSH_TEXT,
  PROCESS_CONTROL_FAILED_TEXT,
  PushMsgId,
  SocketState,
  signPmd,
  type PushEnvelope,
} from '@nest/contracts';
import { PushClient, PushError, SESSION_ENDED_REASON, backoffDelay, type PushClientOptions } from './client';
import { closePush, ensurePush, getPush, getPushState, pushAllowed, recreatePush } from './index';
import { getToken, saveToken } from '../cookie';
import { applyLang, catalogOf } from '../i18n';
import { setNotifier } from '../notify';
import { resetPublicKeys } from '../request/keys';
import { clearSession, getUser, setLoginNavigator, setUser } from '../session';
import { makeUser } from '../../test/dom';
import { TestPushServer, TestWebSocket, eventually } from '../../test/push-server';

/** A scriptable stand-in for the browser WebSocket. */
class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState: number = SocketState.CONNECTING;
  sent: PushEnvelope[] = [];
  closedWith: number | undefined;
  onopen: ((ev: Event) => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  onclose: ((ev: CloseEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as PushEnvelope);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = SocketState.CLOSED;
  }
  // --- test controls
  serverOpen() {
    this.readyState = SocketState.OPEN;
    this.onopen?.(new Event('open'));
  }
  serverSend(msg: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(msg) }));
  }
  serverClose() {
    this.readyState = SocketState.CLOSED;
    this.onclose?.(new CloseEvent('close'));
  }
  ids() {
    return this.sent.map((m) => m.msg_id);
  }
}

const last = () => FakeWebSocket.instances[FakeWebSocket.instances.length - 1]!;
/** The server's answer to user verification (100). */
const verified = (ws: FakeWebSocket = last()) => ws.serverSend({ code: 2000, msg: '', msg_id: PushMsgId.USER_VERIFY, data: { u_id: 'u1' } });
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

function makeClient(extra: Partial<PushClientOptions> = {}) {
  const states: number[] = [];
  const errors: string[] = [];
  const failures: unknown[] = [];
  const client = new PushClient({
    url: 'ws://test/api/push',
    token: () => 'tok',
    lang: () => 'en',
    licence: async (token) => `licence-of-${token}`,
    onState: (s) => states.push(s),
    onFailure: (m) => failures.push(m),
    showError: (t) => errors.push(t),
    random: () => 1,
    WebSocketImpl: FakeWebSocket as unknown as new (url: string) => WebSocket,
    ...extra,
  });
  return { client, states, errors, failures };
}

describe('push client', () => {
  beforeEach(() => {
    FakeWebSocket.instances = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports socket states 0, 1 and, on close, 2 and 3', async () => {
    const { client, states } = makeClient();
    client.connect();
    expect(client.alive).toBe(true);
    expect(states).toEqual([SocketState.CONNECTING]);
    last().serverOpen();
    expect(states).toEqual([SocketState.CONNECTING, SocketState.OPEN]);
    await flush();
    client.close();
    expect(states).toEqual([SocketState.CONNECTING, SocketState.OPEN, SocketState.CLOSING, SocketState.CLOSED]);
    expect(client.alive).toBe(false);
    expect(last().closedWith).toBe(1000);
  });

  it('sends user verification (100) on open, then heartbeat (101) at once and every PUSH_HEARTBEAT_MS', async () => {
    const { client } = makeClient();
    client.connect();
    const ws = last();
    ws.serverOpen();
    await flush();
    expect(ws.ids()).toEqual([PushMsgId.USER_VERIFY, PushMsgId.HEARTBEAT]);
    const verify = ws.sent[0]!;
    expect(verify.version).toBe(0);
    expect(typeof verify.tms).toBe('number');
    expect(verify.data).toEqual({ token: 'tok', app_ids: APP_IDS, app_code: APP_CODE, licence: 'licence-of-tok', os_language: 'en' });
    vi.advanceTimersByTime(PUSH_HEARTBEAT_MS - 1);
    expect(ws.ids()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(ws.ids()).toEqual([100, 101, 101]);
    vi.advanceTimersByTime(PUSH_HEARTBEAT_MS * 2);
    expect(ws.ids().filter((id) => id === 101)).toHaveLength(4);
    client.close();
    vi.advanceTimersByTime(PUSH_HEARTBEAT_MS * 3);
    expect(ws.ids().filter((id) => id === 101)).toHaveLength(4);
  });

  it('sends equipment verification (200) with a pmd over the sn', async () => {
    const { client } = makeClient();
    client.connect();
    last().serverOpen();
    await flush();
    verified();
    client.verifyEquipment('SN001');
    const msg = last().sent.find((m) => m.msg_id === PushMsgId.EQUIPMENT_VERIFY)!;
    expect(msg.data).toEqual({
      token: 'tok',
      sn_id: 'SN001',
      pmd: signPmd({ token: 'tok', pmdValue: 'SN001' }),
      vst: EQUIPMENT_VERIFY_VST,
      sor: EQUIPMENT_VERIFY_SOR,
      os_language: 'en',
    });
  });

  it('throws "the connection has been closed" when sending while not open', () => {
    const { client } = makeClient();
    expect(() => client.send(101, {})).toThrow(PUSH_TEXT.closed.en);
    client.connect(); // connecting, not open yet
    expect(() => client.send(101, {})).toThrow(PushError);
    expect(() => client.verifyEquipment('SN')).toThrow(PUSH_TEXT.closed.en);
  });

  it('reports "not supported" without a WebSocket', () => {
    const { client } = makeClient({ WebSocketImpl: undefined });
    const saved = globalThis.WebSocket;
    // @ts-expect-error simulate a browser without WebSocket
    delete globalThis.WebSocket;
    try {
      expect(() => client.connect()).toThrow(PUSH_TEXT.notSupported.en);
      expect(client.alive).toBe(false);
    } finally {
      globalThis.WebSocket = saved;
    }
  });

  it('passes 2000 and 2201 replies to the handlers of their msg_id', async () => {
    const { client, errors, failures } = makeClient();
    const got: unknown[] = [];
    client.on(300, (data) => got.push(data));
    client.connect();
    last().serverOpen();
    last().serverSend({ code: 2000, msg: '', msg_id: 300, data: { a: 1 } });
    last().serverSend({ code: 2201, msg: '', msg_id: 300, data: { a: 2 } });
    last().serverSend({ code: 2000, msg: '', msg_id: 301, data: { a: 3 } });
    expect(got).toEqual([{ a: 1 }, { a: 2 }]);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('closes and stays closed on 46010 to the heartbeat', async () => {
    const { client, states, errors } = makeClient();
    client.connect();
    last().serverOpen();
    await flush();
    last().serverSend({ code: 46010, msg: 'gone', msg_id: PushMsgId.HEARTBEAT, data: null });
    expect(client.alive).toBe(false);
    expect(states[states.length - 1]).toBe(SocketState.CLOSED);
    expect(errors).toEqual([]);
    vi.advanceTimersByTime(120_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('ignores other failures of msg_id 101', async () => {
    const { client, errors, failures } = makeClient();
    client.connect();
    last().serverOpen();
    last().serverSend({ code: 40001, msg: 'bad', msg_id: PushMsgId.HEARTBEAT, data: null });
    expect(client.alive).toBe(true);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('shows 2002 on 473 naming the process command that failed, with the server reason', () => {
    const { client, errors, failures } = makeClient();
    client.connect();
    last().serverOpen();
    for (const cmd of [1, 2, 3]) last().serverSend({ code: 2002, msg: '', msg_id: 473, data: { control_cmd: cmd } });
    expect(errors).toEqual([PROCESS_CONTROL_FAILED_TEXT[1].en, PROCESS_CONTROL_FAILED_TEXT[2].en, PROCESS_CONTROL_FAILED_TEXT[3].en]);
    // The server's msg already names the command ("Pause failed: ..."), or is the reason alone.
    const pause = PROCESS_CONTROL_FAILED_TEXT[1].en;
    last().serverSend({ code: 2002, msg: `${pause}: Take control of this device first`, msg_id: 473, data: { control_cmd: 1 } });
    last().serverSend({ code: 2002, msg: 'Take control of this device first', msg_id: 473, data: { control_cmd: 1 } });
    expect(errors.slice(3)).toEqual([`${pause}: Take control of this device first`, `${pause}: Take control of this device first`]);
    expect(failures).toHaveLength(5);
  });

  it('shows other failures (not 44020), calls the failure handler and broadcasts', () => {
    const { client, errors, failures } = makeClient();
    const broadcast: unknown[] = [];
    client.onFailure((m) => broadcast.push(m.msg_id));
    client.connect();
    last().serverOpen();
    last().serverSend({ code: 2002, msg: 'takeoff refused', msg_id: 401, data: {} });
    last().serverSend({ code: 44020, msg: 'quiet', msg_id: 402, data: {} });
    expect(errors).toEqual(['takeoff refused']);
    expect(failures).toHaveLength(2);
    expect(broadcast).toEqual([401, 402]);
  });

  it('reconnects after an unexpected close with backoff doubling to 30 s, forever', async () => {
    const { client, states } = makeClient();
    client.connect();
    last().serverOpen();
    await flush();
    const expected = [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000, 30000, 30000];
    for (const delay of expected) {
      const before = FakeWebSocket.instances.length;
      last().serverClose();
      expect(states[states.length - 1]).toBe(SocketState.CLOSED);
      vi.advanceTimersByTime(delay - 1);
      expect(FakeWebSocket.instances.length).toBe(before);
      vi.advanceTimersByTime(1);
      expect(FakeWebSocket.instances.length).toBe(before + 1);
      expect(states[states.length - 1]).toBe(SocketState.CONNECTING);
    }
    expect(client.alive).toBe(true);
    // A verified connection resets the backoff.
    last().serverOpen();
    await flush();
    expect(last().ids()).toEqual([100, 101]);
    verified();
    last().serverClose();
    vi.advanceTimersByTime(1000);
    expect(last().readyState).toBe(SocketState.CONNECTING);
  });

  it('verifies devices again after a reconnect', async () => {
    const { client } = makeClient();
    client.connect();
    last().serverOpen();
    await flush();
    verified();
    client.verifyEquipment('SN9');
    last().serverClose();
    vi.advanceTimersByTime(1000);
    last().serverOpen();
    await flush();
    expect(last().ids()).toEqual([100, 101]);
    verified();
    expect(last().ids()).toEqual([100, 101, 200]);
  });

  it('does not reconnect after close(), and close() clears handlers', async () => {
    const { client } = makeClient();
    const got: unknown[] = [];
    client.on(300, (d) => got.push(d));
    client.connect();
    const ws = last();
    ws.serverOpen();
    client.close();
    ws.serverSend({ code: 2000, msg: '', msg_id: 300, data: 1 });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(got).toEqual([]);
  });

  it('holds every frame but 100 and 101 until the 2000 to 100, then subscriptions first and the rest in order', async () => {
    const { client } = makeClient();
    client.connect();
    const ws = last();
    ws.serverOpen();
    // The screens act as soon as the socket is open, before the licence is even sealed.
    client.verifyEquipment('SN1');
    client.send(PushMsgId.FLEET_SUBSCRIBE, { on: true });
    client.send(PushMsgId.CONTROL, { sn_id: 'SN1', cmd_id: 'c1', cmd_type: 2 });
    await flush();
    expect(ws.ids()).toEqual([100, 101]);
    expect(client.isVerified).toBe(false);
    verified(ws);
    expect(client.isVerified).toBe(true);
    expect(ws.ids()).toEqual([100, 101, 200, 210, 401]);
    expect(ws.sent[3]!.data).toEqual({ on: true });
    // Once verified, frames go out at once.
    client.send(PushMsgId.CONTROL, { sn_id: 'SN1', cmd_id: 'c2', cmd_type: 3 });
    expect(ws.ids()).toEqual([100, 101, 200, 210, 401, 401]);
  });

  it('re-sends the fleet subscription after a reconnect only while it is on', async () => {
    const { client } = makeClient();
    client.connect();
    last().serverOpen();
    await flush();
    verified();
    client.subscribeFleet(true);
    expect(last().ids()).toEqual([100, 101, 210]);
    last().serverClose();
    vi.advanceTimersByTime(1000);
    last().serverOpen();
    await flush();
    verified();
    expect(last().ids()).toEqual([100, 101, 210]);
    // Leaving the screen while the socket is down: not asked for on the next connection.
    last().serverClose();
    expect(() => client.send(PushMsgId.FLEET_SUBSCRIBE, { on: false })).toThrow(PushError);
    vi.advanceTimersByTime(1000);
    last().serverOpen();
    await flush();
    verified();
    expect(last().ids()).toEqual([100, 101]);
  });

  it('a verification refused for a passing reason closes the socket and backs off until one is verified', async () => {
    const { client, errors } = makeClient();
    client.connect();
    for (const delay of [1000, 2000, 4000]) {
      last().serverOpen();
      await flush();
      const before = FakeWebSocket.instances.length;
      last().serverSend({ code: 50000, msg: 'database unavailable', msg_id: PushMsgId.USER_VERIFY, data: null });
      expect(last().closedWith).toBeUndefined();
      expect(last().readyState).toBe(SocketState.CLOSED);
      last().serverClose();
      vi.advanceTimersByTime(delay - 1);
      expect(FakeWebSocket.instances.length).toBe(before);
      vi.advanceTimersByTime(1);
      expect(FakeWebSocket.instances.length).toBe(before + 1);
    }
    expect(errors).toEqual(['database unavailable', 'database unavailable', 'database unavailable']);
    expect(client.alive).toBe(true);
  });

  it('46010 to any message ends the session: closed for good, the server msg handed on, nothing shown', async () => {
    const ended: string[] = [];
    const { client, errors, states } = makeClient({ onSessionEnded: (m) => ended.push(m) });
    client.connect();
    last().serverOpen();
    await flush();
    verified();
    last().serverSend({ code: 46010, msg: 'You signed out on another device', msg_id: PushMsgId.HEARTBEAT, data: null });
    expect(ended).toEqual(['You signed out on another device']);
    expect(client.alive).toBe(false);
    expect(states[states.length - 1]).toBe(SocketState.CLOSED);
    expect(errors).toEqual([]);
    vi.advanceTimersByTime(120_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('a close for "session ended" without its 46010 ends the session too', async () => {
    const ended: string[] = [];
    const { client } = makeClient({ onSessionEnded: (m) => ended.push(m) });
    client.connect();
    last().serverOpen();
    await flush();
    verified();
    const ws = last();
    ws.readyState = SocketState.CLOSED;
    ws.onclose?.(new CloseEvent('close', { code: 1000, reason: SESSION_ENDED_REASON }));
    expect(ended).toEqual(['']);
    expect(client.alive).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('40263 to user verification ends the session instead of reconnecting', async () => {
    const ended: string[] = [];
    const { client, errors } = makeClient({ onSessionEnded: (m) => ended.push(m) });
    client.connect();
    last().serverOpen();
    await flush();
    last().serverSend({ code: 40263, msg: '', msg_id: PushMsgId.USER_VERIFY, data: null });
    expect(ended).toEqual(['']);
    expect(client.alive).toBe(false);
    expect(errors).toEqual([]);
    vi.advanceTimersByTime(120_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('40100 to user verification: the refusal is shown once and the client stops', async () => {
    const refused: unknown[] = [];
    const ended: string[] = [];
    const { client, errors } = makeClient({ onRefused: (m) => refused.push(m.code), onSessionEnded: (m) => ended.push(m) });
    client.connect();
    last().serverOpen();
    await flush();
    last().serverSend({ code: 40100, msg: '', msg_id: PushMsgId.USER_VERIFY, data: null });
    expect(refused).toEqual([40100]);
    expect(ended).toEqual([]);
    expect(errors).toEqual([CODE_TEXT[40100]!.en]);
    expect(client.alive).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('backoff jitter stays within half to full of the ceiling', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 0.5)).toBe(6000);
    expect(backoffDelay(50, () => 1)).toBe(30000);
    expect(backoffDelay(1000, () => 0)).toBe(15000);
  });
});

describe('pushAllowed', () => {
  it('allows super_administrator and device_10 holders only', () => {
    expect(pushAllowed({ fun_list: ['super_administrator'] })).toBe(true);
    expect(pushAllowed({ fun_list: ['device_10'] })).toBe(true);
    expect(pushAllowed({ fun_list: ['menu_home'] })).toBe(false);
    expect(pushAllowed(null)).toBe(false);
  });
});

// ------------------------------------------------------------------ against a real WebSocket server

describe('push client against a WebSocket server', () => {
  let server: TestPushServer;
  const clients: PushClient[] = [];
  beforeEach(async () => {
    server = new TestPushServer();
    await server.start();
  });
  afterEach(async () => {
    clients.splice(0).forEach((c) => c.close());
    await server.stop();
  });

  function realClient(extra: Partial<PushClientOptions> = {}) {
    const states: number[] = [];
    const errors: string[] = [];
    const ended: string[] = [];
    const client = new PushClient({
      url: server.url,
      token: () => 'tok',
      lang: () => 'en',
      licence: async (token) => `licence-of-${token}`,
      onState: (s) => states.push(s),
      showError: (t) => errors.push(t),
      onSessionEnded: (m) => ended.push(m),
      // Reconnects at once: the test restarts the server itself and waits for the events that follow.
      backoff: { baseMs: 1, maxMs: 1 },
      WebSocketImpl: TestWebSocket,
      ...extra,
    });
    clients.push(client);
    return { client, states, errors, ended };
  }

  it('after a server restart verifies first and re-subscribes only after the 2000 to 100; fleet updates resume', async () => {
    const { client, states, errors } = realClient();
    const batches: unknown[] = [];
    client.on(310, (data) => batches.push(data));
    const subscribeOnOpen = () => {
      // What a screen does when the socket opens (useFleet, useDeviceLive): before 100 is answered.
      if (states[states.length - 1] === SocketState.OPEN) {
        client.send(PushMsgId.FLEET_SUBSCRIBE, { on: true });
        client.verifyEquipment('SN1');
      }
    };
    server.hold100 = true;
    client.connect();
    await eventually('the socket open', () => states.includes(SocketState.OPEN));
    subscribeOnOpen();
    // The heartbeat follows 100 on the same socket: had 200 or 210 gone out early, they would be before it.
    await server.until('100 and the heartbeat', () => server.ids(0).length >= 2);
    expect(server.ids(0)).toEqual([100, 101]);
    server.release100();
    await eventually('the first fleet batch', () => batches.length === 1);
    expect(server.ids(0)).toEqual([100, 101, 200, 210]);

    // The server process goes away and comes back on the same port.
    await server.stop();
    await eventually('the socket closed', () => states[states.length - 1] !== SocketState.OPEN);
    await server.start();
    await eventually('the socket open again', () => client.state === SocketState.OPEN && server.connections.length >= 2);
    // The screens react to the state change again while 100 is still unanswered.
    subscribeOnOpen();
    const again = server.connections.length - 1;
    await server.until('100 and the heartbeat on the new socket', () => server.ids(again).length >= 2);
    expect(server.ids(again)).toEqual([100, 101]);
    server.release100();
    await eventually('fleet updates on the new socket', () => batches.length === 2);
    expect(batches[1]).toEqual({ devices: [{ sn_id: 'SN1', at: again + 1 }] });
    // Each subscription once, after verification; nothing was refused with LOGIN_EXPIRED.
    expect(server.ids(again)).toEqual([100, 101, 200, 210]);
    expect(errors).toEqual([]);
    expect(client.alive).toBe(true);
  });

  it('re-subscribes after a restart without any screen asking again', async () => {
    const { client } = realClient();
    const batches: unknown[] = [];
    client.on(310, (data) => batches.push(data));
    client.connect();
    await eventually('verified', () => client.isVerified);
    client.subscribeFleet(true);
    await eventually('the first fleet batch', () => batches.length === 1);
    await server.stop();
    await server.start();
    await eventually('fleet updates after the restart', () => batches.length === 2);
    expect(server.ids(server.connections.length - 1)).toEqual([100, 101, 210]);
  });

  it('ends the session on 46010 and the close that follows, and does not reconnect', async () => {
    const { client, ended, errors } = realClient();
    server.onFrame = (frame, socket) => {
      if (frame.msg_id !== 101) return false;
      socket.send(JSON.stringify({ code: 46010, msg: 'Your account was disabled', msg_id: 101, data: null }));
      socket.close(1000, SESSION_ENDED_REASON);
      return true;
    };
    client.connect();
    await eventually('the session ended', () => ended.length > 0);
    expect(ended).toEqual(['Your account was disabled']);
    expect(errors).toEqual([]);
    expect(client.alive).toBe(false);
    expect(client.state).toBe(SocketState.CLOSED);
    // Barrier: a new connection of a probe client is the second one the server sees; the ended client made none.
    server.onFrame = null;
    const probe = realClient();
    probe.client.connect();
    await eventually('the probe verified', () => probe.client.isVerified);
    expect(server.connections).toHaveLength(2);
  });

  it('a close for "session ended" alone (its 46010 lost) also ends the session', async () => {
    const { client, ended } = realClient();
    server.onFrame = (frame, socket) => {
      if (frame.msg_id !== 101) return false;
      socket.close(1000, SESSION_ENDED_REASON);
      return true;
    };
    client.connect();
    await eventually('the session ended', () => ended.length > 0);
    expect(ended).toEqual(['']);
    expect(client.alive).toBe(false);
  });

  it('40263 to 100 ends the session; 40100 stops the client: neither loops reconnecting', async () => {
    let answer = 40263;
    server.onFrame = (frame, socket) => {
      if (frame.msg_id !== 100) return false;
      socket.send(JSON.stringify({ code: answer, msg: answer === 40100 ? 'No push function' : '', msg_id: 100, data: null }));
      return true;
    };
    const expired = realClient();
    expired.client.connect();
    await eventually('the session ended', () => expired.ended.length > 0);
    expect(expired.client.alive).toBe(false);

    answer = 40100;
    const refused: number[] = [];
    const denied = realClient({ onRefused: (m) => refused.push(m.code ?? 0) });
    denied.client.connect();
    await eventually('the refusal', () => refused.length > 0);
    expect(denied.errors).toEqual(['No push function']);
    expect(denied.ended).toEqual([]);
    expect(denied.client.alive).toBe(false);
    // Barrier as above: a probe's connection is the third the server sees.
    server.onFrame = null;
    const probe = realClient();
    probe.client.connect();
    await eventually('the probe verified', () => probe.client.isVerified);
    expect(server.connections).toHaveLength(3);
  });
});

describe('the console push connection (ensurePush) when the session ends', () => {
  let server: TestPushServer;
  let alerts: { kind: string; content: unknown }[];
  let errors: string[];
  let toLogin: number;
  beforeEach(async () => {
    server = new TestPushServer();
    await server.start();
    window.__NEST_PUSH_URL__ = server.url;
    // The browser's WebSocket is the ws client here (see realClient); the licence key a fresh RSA key.
    vi.stubGlobal('WebSocket', TestWebSocket);
    const pair = await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt']);
    const spki = btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey))));
    resetPublicKeys({ password: spki, licence: spki });
    await saveToken('tok-1');
    alerts = [];
    errors = [];
    toLogin = 0;
    setNotifier({
      error: (t) => errors.push(t),
      warning: () => {},
      success: () => {},
      info: () => {},
      alert: (kind, opts) => alerts.push({ kind, content: opts.content }),
      confirm: () => {},
    });
    setLoginNavigator(() => (toLogin += 1));
    setUser(makeUser(['device_10']));
  });
  afterEach(async () => {
    closePush(true);
    setNotifier(null);
    setLoginNavigator(null);
    resetPublicKeys();
    clearSession();
    applyLang('zh');
    delete window.__NEST_PUSH_URL__;
    vi.unstubAllGlobals();
    await server.stop();
  });

  const endOnHeartbeat = (msg: string) => {
    server.onFrame = (frame, socket) => {
      if (frame.msg_id !== 101) return false;
      socket.send(JSON.stringify({ code: 46010, msg, msg_id: 101, data: null }));
      socket.close(1000, SESSION_ENDED_REASON);
      return true;
    };
  };

  it("tells the user in the server's words and goes to sign-in, with the session cleared", async () => {
    endOnHeartbeat('您已在其他地方退出登录');
    expect(ensurePush(getUser())).not.toBeNull();
    await eventually('sign-in', () => toLogin > 0);
    expect(alerts).toEqual([{ kind: 'warning', content: '您已在其他地方退出登录' }]);
    expect(getToken()).toBe('');
    expect(getUser()).toBeNull();
    expect(getPush()).toBeNull();
    expect(getPushState()).toBe(SocketState.CLOSED);
    expect(errors).toEqual([]);
  });

  it('falls back to its own text in the language of the page when the server gave none', async () => {
    endOnHeartbeat('');
    ensurePush(getUser());
    await eventually('sign-in', () => toLogin > 0);
    expect(alerts).toEqual([{ kind: 'warning', content: catalogOf('zh').push.sessionEnded }]);

    await saveToken('tok-2');
    setUser(makeUser(['device_10']));
    applyLang('en');
    ensurePush(getUser());
    await eventually('sign-in again', () => toLogin > 1);
    expect(alerts[1]).toEqual({ kind: 'warning', content: catalogOf('en').push.sessionEnded });
  });

  it('a user refused the push function (40100) is not connected again with the same token', async () => {
    server.onFrame = (frame, socket) => {
      if (frame.msg_id !== 100) return false;
      socket.send(JSON.stringify({ code: 40100, msg: '没有权限访问', msg_id: 100, data: null }));
      return true;
    };
    ensurePush(getUser());
    await eventually('the refusal shown', () => errors.length > 0);
    expect(errors).toEqual(['没有权限访问']);
    expect(getPush()).toBeNull();
    // Navigation asks for the connection again: no new socket for this token, none shown again.
    expect(ensurePush(getUser())).toBeNull();
    expect(recreatePush(getUser())).toBeNull();
    expect(server.connections).toHaveLength(1);
    expect(toLogin).toBe(0);
    // A new session (sign-in clears the refusal) connects again.
    closePush(true);
    server.onFrame = null;
    await saveToken('tok-3');
    expect(ensurePush(getUser())).not.toBeNull();
    await eventually('verified', () => getPush()?.isVerified === true);
    expect(server.connections).toHaveLength(2);
  });
});
