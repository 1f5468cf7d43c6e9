import { PushMsgId, ResultCode, codeText, showTexts, type Lang, type PushReply } from '@nest/contracts';
import { WebSocket } from 'ws';
import type { Scope } from '../db/scope.js';
import type { TokenBucket } from '../link/bucket.js';
import { say, type TextKey } from '../texts.js';

/** Above this many bytes waiting in a socket's send buffer, live frames (300, 310) are dropped for it. */
export const PUSH_BUFFER_LIMIT = 1024 * 1024;
/** Close code for a socket that broke the rules (flood, never verified). */
export const CLOSE_POLICY = 1008;
/** Close code for a socket whose session ended. */
export const CLOSE_NORMAL = 1000;

/** Frames that carry no names (telemetry, fleet positions), sent as they are; the rest shows names in the socket's language. */
const WITHOUT_NAMES: ReadonlySet<number> = new Set([PushMsgId.DEVICE_TELEMETRY, PushMsgId.FLEET_UPDATE]);

/** Who a socket speaks for once message 100 succeeded, as last read from the database. */
export interface Verified {
  sessionId: string;
  userId: string;
  tokenHash: string;
  /** Shown in the command audit log. */
  nick: string;
  /**
   * Which devices this user may see (`shared`: through collaboration groups) and control (the company
   * part only). Re-read with the session (push/sessions.ts).
   */
  scope: Scope;
  /** The user's functions as last read: who gets 370, who may fly. */
  funList: readonly string[];
  /**
   * ms: when the session stops being live by the clock alone (absolute or idle limit, end of the user's
   * validity). No frame goes out or is carried out past it before the session is read again.
   */
  liveUntil: number;
  /** ms: when the session was last read from the database. */
  checkedAt: number;
}

/** One push socket: its language, verified session, watched devices, fleet subscription and flood window. */
export class PushClient {
  lang: Lang = 'zh';
  verified: Verified | null = null;
  /** ms: when the socket opened (a socket that never verifies is closed after PUSH_VERIFY_LIMIT_MS). */
  readonly openedAt = Date.now();
  /** The session re-read in flight, so concurrent triggers share one read. */
  rechecking: Promise<boolean> | null = null;
  readonly watching = new Set<string>();
  /** Token bucket per watched device for 300 frames: tokens left and when they were counted (ms). */
  readonly telemetrySentAt = new Map<string, TokenBucket>();
  /** Fleet updates on: the version of each device last sent. */
  fleet: Map<string, number> | null = null;
  fleetTimer: NodeJS.Timeout | null = null;
  /** Live frames dropped because the socket could not keep up. */
  dropped = 0;
  windowStart = 0;
  frames = 0;
  queue: Promise<void> = Promise.resolve();
  constructor(readonly ws: WebSocket) {}

  /** Open, verified, and its session not past its clock limit: frames about the user's data may go out. */
  deliverable(now: number): boolean {
    return this.verified !== null && now < this.verified.liveUntil && this.ws.readyState === WebSocket.OPEN;
  }

  send(code: number, msgId: number, data: unknown = null, msg?: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const shown = WITHOUT_NAMES.has(msgId) ? data : showTexts(data, this.lang);
    const reply: PushReply = { code, msg: msg ?? codeText(code, this.lang), msg_id: msgId, data: shown };
    this.ws.send(JSON.stringify(reply));
  }

  /** A live frame: dropped (answers false) while the socket's send buffer is over PUSH_BUFFER_LIMIT. */
  sendLive(msgId: number, data: unknown): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > PUSH_BUFFER_LIMIT) {
      this.dropped++;
      return false;
    }
    this.send(ResultCode.OK, msgId, data);
    return true;
  }

  fail(code: number, msgId: number, key?: TextKey, params?: Record<string, string | number>): void {
    this.send(code, msgId, null, key ? say(key, this.lang, params) : undefined);
  }
}
