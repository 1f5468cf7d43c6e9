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
 * The text of a failed (2002) control reply, SPEC 8: 473 names the process command that failed; 401
 * navigation (cmd_type 8) with a non-zero reason is looked up by reason (CommandReason); else the server msg.
 */
export function pushFailureText(msgId: number, data: unknown, serverMsg: string, lang: Lang): string {
  const d = (data ?? {}) as { control_cmd?: unknown; cmd_type?: unknown; reason?: unknown };
  if (msgId === PushMsgId.PROCESS_CONTROL) return processControlFailedText(d.control_cmd, lang) ?? serverMsg;
  if (msgId === PushMsgId.CONTROL && Number(d.cmd_type) === 8 && typeof d.reason === 'number' && d.reason !== 0) {
    return commandReasonText(d.reason, lang);
  }
  return serverMsg;
}

type WebSocketCtor = new (url: string) => WebSocket;

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
  heartbeatMs?: number;
  backoff?: Backoff;
  random?: () => number;
  /** Defaults to the global WebSocket. */
  WebSocketImpl?: WebSocketCtor | undefined;
}

/**
 * The push connection (SPEC sections 4, 7, 8): user verification (100) on open, heartbeat (101) at once
 * and then every PUSH_HEARTBEAT_MS, equipment verification (200), replies dispatched by msg_id, failures
 * shown and broadcast, reconnect with backoff after an unexpected close for as long as it is alive.
 */
export class PushClient {
  /** Created on demand and alive until closed (manually, or by a 46010 reply to the heartbeat). */
  alive = false;
  private ws: WebSocket | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private readonly handlers = new Map<number, Set<PushHandler>>();
  private readonly failureHandlers = new Set<FailureHandler>();
  /** Devices verified on this connection; verified again after a reconnect. */
  private readonly equipment = new Set<string>();
  private lastState: SocketState = SocketState.CLOSED;

  constructor(private readonly opts: PushClientOptions) {}

  get state(): SocketState {
    return this.lastState;
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
    const ws = new Impl(this.opts.url);
    this.ws = ws;
    this.report(SocketState.CONNECTING);
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.report(SocketState.OPEN);
      void this.afterOpen(ws);
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws === ws) this.receive(ev.data);
    };
    ws.onerror = () => {
      /* a close event follows */
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      this.report(SocketState.CLOSED);
      if (this.alive) this.scheduleReconnect(Impl);
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
    this.send(PushMsgId.USER_VERIFY, {
      token,
      app_ids: APP_IDS,
      app_code: APP_CODE,
      licence,
      os_language: this.opts.lang(),
    });
    for (const sn of this.equipment) this.sendEquipment(sn);
    this.startHeartbeat();
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    const beat = () => {
      if (this.ws?.readyState === SocketState.OPEN) this.send(PushMsgId.HEARTBEAT, {});
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

  /** Sends one envelope; throws "the connection has been closed" when not open. */
  send(msgId: number, data: Record<string, unknown>): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== SocketState.OPEN) throw new PushError('closed', this.opts.lang());
    const envelope: PushEnvelope = { msg_id: msgId, tms: Date.now(), version: 0, data };
    ws.send(JSON.stringify(envelope));
  }

  /** Equipment verification (200) for one device; repeated automatically after a reconnect. */
  verifyEquipment(snId: string): void {
    this.sendEquipment(snId);
    this.equipment.add(snId);
  }

  private sendEquipment(snId: string): void {
    const token = this.opts.token();
    this.send(PushMsgId.EQUIPMENT_VERIFY, {
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
    // Server-initiated envelopes carry no code: they are data like a successful reply.
    if (code === undefined || code === ResultCode.OK || code === ResultCode.OK_CREATED) {
      this.handlers.get(msg.msg_id)?.forEach((h) => h(msg.data, msg));
      return;
    }
    if (msg.msg_id === PushMsgId.HEARTBEAT) {
      if (code === ResultCode.PUSH_NOT_ALIVE) this.close();
      return;
    }
    const lang = this.opts.lang();
    if (code === ResultCode.PUSH_FAILED && (msg.msg_id === PushMsgId.PROCESS_CONTROL || msg.msg_id === PushMsgId.CONTROL)) {
      this.showError(pushFailureText(msg.msg_id, msg.data, msg.msg || codeText(code, lang), lang));
    } else if (code !== ResultCode.OK_QUIET) {
      this.showError(msg.msg || codeText(code, lang));
    }
    this.opts.onFailure?.(msg);
    this.failureHandlers.forEach((h) => h(msg));
  }

  private showError(text: string): void {
    this.opts.showError?.(text);
  }

  /** Closes on purpose: not alive, no reconnect, timers, handlers and verified devices cleared. */
  close(): void {
    this.alive = false;
    this.clearReconnect();
    this.stopHeartbeat();
    const ws = this.ws;
    this.ws = null;
    this.handlers.clear();
    this.failureHandlers.clear();
    this.equipment.clear();
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
