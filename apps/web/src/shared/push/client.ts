import {
  APP_CODE,
  APP_IDS,
  EQUIPMENT_VERIFY_SOR,
  EQUIPMENT_VERIFY_VST,
  PUSH_HEARTBEAT_MS,
  PUSH_TEXT,
  PushMsgId,
  ResultCode,
  SocketState,
  codeText,
  commandReasonText,
  processControlFailedText,
  signPmd,
  type Lang,
  type PushEnvelope,
  type PushReply,
} from '@nest/contracts';

/** A reply or server-initiated message as handed to handlers. */
export type PushMessage = Pick<PushReply, 'msg_id' | 'data'> & { code?: number; msg?: string };
export type PushHandler = (data: unknown, message: PushMessage) => void;
export type FailureHandler = (message: PushMessage) => void;

export class PushError extends Error {
  constructor(
    readonly reason: 'notSupported' | 'closed',
    lang: Lang,
  ) {
    super(PUSH_TEXT[reason][lang]);
    this.name = 'PushError';
  }
}

export interface Backoff {
  /** First delay. */
  baseMs: number;
  /** Ceiling of the doubling. */
  maxMs: number;
}
export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 30_000 };

/** Delay before reconnect attempt `attempt` (0-based): base doubling to max, with "equal jitter". */
export function backoffDelay(attempt: number, random: () => number = Math.random, b: Backoff = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(b.maxMs, b.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * The text of a failed (2002) control reply, SPEC 8. The server's msg comes first: it is in the socket's
 * language (message 100) and names the precise reason (CommandReason, the device's refusal, a failed
 * pre-flight item). A 473 text always names the process command that failed ("Pause failed: ..."). Without
 * a server msg: 401 navigation (cmd_type 8) with a non-zero reason is looked up by reason (CommandReason),
 * a 473 by its control_cmd, anything else is the code's text.
 */
export function pushFailureText(msgId: number, data: unknown, serverMsg: string, lang: Lang): string {
  const d = (data ?? {}) as { control_cmd?: unknown; cmd_type?: unknown; reason?: unknown };
  const msg = serverMsg.trim();
  if (msgId === PushMsgId.PROCESS_CONTROL) {
    const head = processControlFailedText(d.control_cmd, lang);
    if (!head) return msg || codeText(ResultCode.PUSH_FAILED, lang);
    if (!msg || msg === head) return head;
    return msg.startsWith(head) ? msg : `${head}${lang === 'zh' ? '：' : ': '}${msg}`;
  }
  if (msg) return msg;
  if (msgId === PushMsgId.CONTROL && Number(d.cmd_type) === 8 && typeof d.reason === 'number' && d.reason !== 0) {
    return commandReasonText(d.reason, lang);
  }
  return codeText(ResultCode.PUSH_FAILED, lang);
}

type WebSocketCtor = new (url: string) => WebSocket;

/** The close reason of a socket whose session the server ended (it sends 46010 just before). */
export const SESSION_ENDED_REASON = 'session ended';

export interface PushClientOptions {
  url: string;
  token: () => string;
  lang: () => Lang;
  /** The encrypted licence of message 100 for a token. */
  licence: (token: string) => Promise<string>;
  onState?: (state: SocketState) => void;
  /** The caller's failure handler (SPEC: "the failure handler is called"). */
  onFailure?: FailureHandler;
  /** How failures are shown to the user. */
  showError?: (text: string) => void;
  /**
   * The server ended the session (46010, a close with SESSION_ENDED_REASON, or 40263 to user verification):
   * the client has closed for good. `serverMsg` is the server's text in the user's language, or ''.
   */
  onSessionEnded?: (serverMsg: string) => void;
  /** User verification was refused for good (40100: no push function): the client has closed. */
  onRefused?: (message: PushMessage) => void;
  heartbeatMs?: number;
  backoff?: Backoff;
  random?: () => number;
  /** Defaults to the global WebSocket. */
  WebSocketImpl?: WebSocketCtor | undefined;
}

const isSuccess = (code: number | undefined): boolean => code === undefined || code === ResultCode.OK || code === ResultCode.OK_CREATED;

/**
 * The push connection (SPEC sections 4, 7, 8): user verification (100) on open, heartbeat (101) at once
 * and then every PUSH_HEARTBEAT_MS, replies dispatched by msg_id, failures shown and broadcast, reconnect
 * with backoff after an unexpected close for as long as it is alive.
 *
 * The server answers every frame but 100 and 101 with LOGIN_EXPIRED until 100 succeeds, so nothing else
 * goes out before the 2000 to 100: the subscriptions (200 of the watched devices, 210 of the fleet) are
 * kept here and sent once each connection is verified, and any other frame sent meanwhile waits for it.
 * The heartbeat follows 100 at once: the server handles a socket's frames in order.
 *
 * A session that ended (46010, or 40263 to 100) and a user without the push function (40100 to 100) stop
 * the client instead of reconnecting: a new socket would be refused the same way.
 */
export class PushClient {
  /** Created on demand and alive until closed (manually, by the end of the session, or refused). */
  alive = false;
  private ws: WebSocket | null = null;
  /** The current socket passed user verification (100 answered 2000). */
  private verified = false;
  /** Frames sent on the current socket before it was verified, in order. */
  private waiting: { msgId: number; data: Record<string, unknown> }[] = [];
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Reconnect attempts since the last verified connection (a socket that opens but is refused counts). */
  private attempt = 0;
  private readonly handlers = new Map<number, Set<PushHandler>>();
  private readonly failureHandlers = new Set<FailureHandler>();
  /** Devices watched (200); verified again on every verified connection. */
  private readonly equipment = new Set<string>();
  /** Fleet updates asked for (210 on); asked for again on every verified connection. */
  private fleet = false;
  private lastState: SocketState = SocketState.CLOSED;

  constructor(private readonly opts: PushClientOptions) {}

  get state(): SocketState {
    return this.lastState;
  }

  /** The current socket passed user verification: frames go out at once. */
  get isVerified(): boolean {
    return this.verified;
  }

  /** Opens the connection. Throws a PushError when the browser has no WebSocket. */
  connect(): void {
    const Impl = this.opts.WebSocketImpl ?? (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
    if (!Impl) throw new PushError('notSupported', this.opts.lang());
    this.alive = true;
    this.open(Impl);
  }

  private report(state: SocketState): void {
    this.lastState = state;
    this.opts.onState?.(state);
  }

  private open(Impl: WebSocketCtor): void {
    this.clearReconnect();
    this.verified = false;
    this.waiting = [];
    const ws = new Impl(this.opts.url);
    this.ws = ws;
    this.report(SocketState.CONNECTING);
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.report(SocketState.OPEN);
      void this.afterOpen(ws);
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws === ws) this.receive(ev.data);
    };
    ws.onerror = () => {
      /* a close event follows */
    };
    ws.onclose = (ev: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.verified = false;
      this.waiting = [];
      this.stopHeartbeat();
      this.report(SocketState.CLOSED);
      if (!this.alive) return;
      // The 46010 before such a close may have been lost; the close alone says the same.
      if (ev?.reason === SESSION_ENDED_REASON) this.sessionEnded('');
      else this.scheduleReconnect(Impl);
    };
  }

  private async afterOpen(ws: WebSocket): Promise<void> {
    const token = this.opts.token();
    let licence: string;
    try {
      licence = await this.opts.licence(token);
    } catch {
      // Cannot verify (keys unavailable): drop this socket; the reconnect loop tries again later.
      if (this.ws === ws) ws.close();
      return;
    }
    if (this.ws !== ws || ws.readyState !== SocketState.OPEN) return;
    this.write(ws, PushMsgId.USER_VERIFY, {
      token,
      app_ids: APP_IDS,
      app_code: APP_CODE,
      licence,
      os_language: this.opts.lang(),
    });
    this.startHeartbeat();
  }

  /** 100 answered 2000: the subscriptions, then the frames that waited, in the order they were sent. */
  private onVerified(ws: WebSocket): void {
    this.verified = true;
    this.attempt = 0;
    for (const sn of this.equipment) this.sendEquipment(sn);
    if (this.fleet) this.write(ws, PushMsgId.FLEET_SUBSCRIBE, { on: true });
    for (const frame of this.waiting.splice(0)) this.write(ws, frame.msgId, frame.data);
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    const beat = () => {
      const ws = this.ws;
      if (ws?.readyState === SocketState.OPEN) this.write(ws, PushMsgId.HEARTBEAT, {});
    };
    beat();
    this.heartbeat = setInterval(beat, this.opts.heartbeatMs ?? PUSH_HEARTBEAT_MS);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private scheduleReconnect(Impl: WebSocketCtor): void {
    const delay = backoffDelay(this.attempt, this.opts.random, this.opts.backoff);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.alive) this.open(Impl);
    }, delay);
  }

  private clearReconnect(): void {
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private write(ws: WebSocket, msgId: number, data: Record<string, unknown>): void {
    const envelope: PushEnvelope = { msg_id: msgId, tms: Date.now(), version: 0, data };
    ws.send(JSON.stringify(envelope));
  }

  /**
   * Sends one envelope; throws "the connection has been closed" when not open. Before the socket is
   * verified the frame waits and goes out right after the 2000 to 100 (a 210 is only remembered: the
   * fleet subscription is sent then anyway).
   */
  send(msgId: number, data: Record<string, unknown>): void {
    // The fleet subscription outlives the socket: whatever the screen last asked for is asked again.
    if (msgId === PushMsgId.FLEET_SUBSCRIBE) this.fleet = data.on === true;
    const ws = this.ws;
    if (!ws || ws.readyState !== SocketState.OPEN) throw new PushError('closed', this.opts.lang());
    if (this.verified || msgId === PushMsgId.USER_VERIFY || msgId === PushMsgId.HEARTBEAT) this.write(ws, msgId, data);
    else if (msgId !== PushMsgId.FLEET_SUBSCRIBE) this.waiting.push({ msgId, data });
  }

  /** Fleet updates (210) on or off, on this connection and on every later one; never throws. */
  subscribeFleet(on: boolean): void {
    this.fleet = on;
    const ws = this.ws;
    if (this.verified && ws?.readyState === SocketState.OPEN) this.write(ws, PushMsgId.FLEET_SUBSCRIBE, { on });
  }

  /**
   * Equipment verification (200) for one device: sent now when the socket is verified, else once it is;
   * repeated on every later verified connection. Throws "the connection has been closed" when not open.
   */
  verifyEquipment(snId: string): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== SocketState.OPEN) throw new PushError('closed', this.opts.lang());
    this.equipment.add(snId);
    if (this.verified) this.sendEquipment(snId);
  }

  private sendEquipment(snId: string): void {
    const ws = this.ws;
    if (!ws) return;
    const token = this.opts.token();
    this.write(ws, PushMsgId.EQUIPMENT_VERIFY, {
      token,
      sn_id: snId,
      pmd: signPmd({ token, pmdValue: snId }),
      vst: EQUIPMENT_VERIFY_VST,
      sor: EQUIPMENT_VERIFY_SOR,
      os_language: this.opts.lang(),
    });
  }

  /** Registers a handler for successful messages of one msg_id; answers the unsubscribe function. */
  on(msgId: number, handler: PushHandler): () => void {
    let set = this.handlers.get(msgId);
    if (!set) this.handlers.set(msgId, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Registers a receiver of failure broadcasts. */
  onFailure(handler: FailureHandler): () => void {
    this.failureHandlers.add(handler);
    return () => this.failureHandlers.delete(handler);
  }

  private receive(raw: unknown): void {
    let msg: PushMessage;
    try {
      const parsed: unknown = JSON.parse(typeof raw === 'string' ? raw : String(raw));
      if (typeof parsed !== 'object' || parsed === null || typeof (parsed as PushMessage).msg_id !== 'number') return;
      msg = parsed as PushMessage;
    } catch {
      return;
    }
    const code = msg.code;
    const ws = this.ws;
    if (msg.msg_id === PushMsgId.USER_VERIFY && ws) {
      if (isSuccess(code)) {
        this.onVerified(ws);
      } else if (code === ResultCode.LOGIN_EXPIRED) {
        return this.sessionEnded(msg.msg ?? '');
      } else if (code === ResultCode.NO_PERMISSION) {
        return this.refused(msg);
      } else {
        // Anything else may pass (a database outage, keys being replaced): a new socket, after the backoff.
        this.fail(msg);
        if (this.ws === ws) ws.close();
        return;
      }
    }
    // Server-initiated envelopes carry no code: they are data like a successful reply.
    if (isSuccess(code)) {
      this.handlers.get(msg.msg_id)?.forEach((h) => h(msg.data, msg));
      return;
    }
    if (code === ResultCode.PUSH_NOT_ALIVE) return this.sessionEnded(msg.msg ?? '');
    // Other heartbeat failures (an answer before verification) say nothing the next heartbeat would not.
    if (msg.msg_id === PushMsgId.HEARTBEAT) return;
    this.fail(msg);
  }

  /** Shows a failure (44020 quietly), calls the failure handler and broadcasts it. */
  private fail(msg: PushMessage): void {
    const code = msg.code ?? ResultCode.SERVER_ERROR;
    const lang = this.opts.lang();
    if (code === ResultCode.PUSH_FAILED && (msg.msg_id === PushMsgId.PROCESS_CONTROL || msg.msg_id === PushMsgId.CONTROL)) {
      this.showError(pushFailureText(msg.msg_id, msg.data, msg.msg || '', lang));
    } else if (code !== ResultCode.OK_QUIET) {
      this.showError(msg.msg || codeText(code, lang));
    }
    this.opts.onFailure?.(msg);
    this.failureHandlers.forEach((h) => h(msg));
  }

  /** The session is over: closed for good, then the caller is told (it signs the user out). */
  private sessionEnded(serverMsg: string): void {
    if (!this.alive) return;
    this.close();
    this.opts.onSessionEnded?.(serverMsg);
  }

  /** This user may not have a push connection: closed for good, the refusal shown once. */
  private refused(msg: PushMessage): void {
    if (!this.alive) return;
    this.close();
    this.showError(msg.msg || codeText(msg.code ?? ResultCode.NO_PERMISSION, this.opts.lang()));
    this.opts.onRefused?.(msg);
  }

  private showError(text: string): void {
    this.opts.showError?.(text);
  }

  /** Closes on purpose: not alive, no reconnect, timers, handlers and subscriptions cleared. */
  close(): void {
    this.alive = false;
    this.clearReconnect();
    this.stopHeartbeat();
    const ws = this.ws;
    this.ws = null;
    this.verified = false;
    this.waiting = [];
    this.handlers.clear();
    this.failureHandlers.clear();
    this.equipment.clear();
    this.fleet = false;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onerror = ws.onclose = null;
      if (ws.readyState === SocketState.CONNECTING || ws.readyState === SocketState.OPEN) {
        this.report(SocketState.CLOSING);
        ws.close(1000);
      }
    }
    if (this.lastState !== SocketState.CLOSED) this.report(SocketState.CLOSED);
  }
}
