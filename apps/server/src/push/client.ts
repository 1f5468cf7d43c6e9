import type { Duplex } from 'node:stream';
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

/**
 * One push frame for many sockets: serialised once per language (the envelope's `msg`, and names in the
 * data when the frame carries any) and the same text handed to every socket of that language. The text is
 * that of JSON.stringify of the `{code, msg, msg_id, data}` reply. It stays a string: ws writes a string
 * into the socket's buffer without a Buffer of its own, which costs less than one Buffer per frame when most
 * frames have one watcher.
 */
export class SharedFrame {
  private zh: string | undefined;
  private en: string | undefined;
  /** The data's JSON when it is the same in every language. */
  private plain: string | undefined;

  /** `dataJson`: the data already serialised (fleet batches are assembled from cached entries). */
  constructor(
    readonly code: number,
    readonly msgId: number,
    private readonly data: unknown = null,
    dataJson?: string,
  ) {
    this.plain = dataJson;
  }

  /** The frame's text as shown in `lang`. */
  of(lang: Lang): string {
    const done = lang === 'zh' ? this.zh : this.en;
    if (done !== undefined) return done;
    let json: string;
    if (this.plain !== undefined) json = this.plain;
    else if (WITHOUT_NAMES.has(this.msgId)) json = this.plain = JSON.stringify(this.data ?? null);
    else json = JSON.stringify(showTexts(this.data, lang) ?? null);
    const out = `{"code":${this.code},"msg":${JSON.stringify(codeText(this.code, lang))},"msg_id":${this.msgId},"data":${json}}`;
    if (lang === 'zh') this.zh = out;
    else this.en = out;
    return out;
  }
}

/** Sockets by watched device: a device's frames go to its watchers without a walk over every socket. */
export class Watchers {
  private readonly bySn = new Map<string, Set<PushClient>>();

  of(sn: string): ReadonlySet<PushClient> | undefined {
    return this.bySn.get(sn);
  }

  add(sn: string, client: PushClient): void {
    let set = this.bySn.get(sn);
    if (!set) this.bySn.set(sn, (set = new Set()));
    set.add(client);
  }

  delete(sn: string, client: PushClient): void {
    const set = this.bySn.get(sn);
    if (!set) return;
    set.delete(client);
    if (set.size === 0) this.bySn.delete(sn);
  }
}

/**
 * Frames written to a socket within one turn of the event loop leave in one write: the socket is corked on
 * its first frame of the turn and uncorked once the turn's I/O is handled (setImmediate), so a burst of
 * telemetry costs one system call per socket rather than one per frame. Order is kept (one stream) and the
 * corked bytes count in the socket's bufferedAmount, so backpressure still sees them.
 */
const corked: Duplex[] = [];
let uncorkScheduled = false;

function uncorkAll(): void {
  uncorkScheduled = false;
  for (const socket of corked.splice(0)) socket.uncork();
}

function corkForTurn(socket: Duplex | undefined): void {
  // A socket corked this turn has a pending uncork already (writableCorked counts ws' own nested corks too,
  // which are undone before ws returns).
  if (!socket || socket.writableCorked > 0 || socket.destroyed) return;
  socket.cork();
  corked.push(socket);
  if (!uncorkScheduled) {
    uncorkScheduled = true;
    setImmediate(uncorkAll);
  }
}

/** ws keeps the network socket of a WebSocket as `_socket` (absent on test doubles). */
const rawSocket = (ws: WebSocket): Duplex | undefined => (ws as unknown as { _socket?: Duplex })._socket;

/** Fleet updates of one socket: where its batches stand. */
export interface FleetSubscription {
  /** The hub's change counter up to which this socket has every change of its visible devices (-1: none yet). */
  sentSeq: number;
  /** The scope its last batch was built for; another scope (shares changed) starts again with a complete batch. */
  scopeKey: string | null;
  /** ms: when its last batch went out (the first periodic one waits at least half a period after it). */
  sentAt: number;
}

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
  private readonly watched = new Set<string>();
  /** Token bucket per watched device for 300 frames: tokens left and when they were counted (ms). */
  readonly telemetrySentAt = new Map<string, TokenBucket>();
  /** Fleet updates on: where its batches stand; null: off. */
  fleet: FleetSubscription | null = null;
  /** Live frames dropped because the socket could not keep up. */
  dropped = 0;
  windowStart = 0;
  frames = 0;
  queue: Promise<void> = Promise.resolve();
  private readonly socket: Duplex | undefined;

  /** `watchers`: the hub's index of sockets by device, kept in step with what this socket watches. */
  constructor(
    readonly ws: WebSocket,
    private readonly watchers: Watchers = new Watchers(),
  ) {
    this.socket = rawSocket(ws);
  }

  /** The devices this socket watches (200). */
  get watching(): ReadonlySet<string> {
    return this.watched;
  }

  /** Starts watching a device; answers whether it was not watched yet. */
  watch(sn: string): boolean {
    if (this.watched.has(sn)) return false;
    this.watched.add(sn);
    this.watchers.add(sn, this);
    return true;
  }

  /** Stops watching a device (and forgets its 300 pacing); answers whether it was watched. */
  unwatch(sn: string): boolean {
    this.telemetrySentAt.delete(sn);
    if (!this.watched.delete(sn)) return false;
    this.watchers.delete(sn, this);
    return true;
  }

  /** Open, verified, and its session not past its clock limit: frames about the user's data may go out. */
  deliverable(now: number): boolean {
    return this.verified !== null && now < this.verified.liveUntil && this.ws.readyState === WebSocket.OPEN;
  }

  send(code: number, msgId: number, data: unknown = null, msg?: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const shown = WITHOUT_NAMES.has(msgId) ? data : showTexts(data, this.lang);
    const reply: PushReply = { code, msg: msg ?? codeText(code, this.lang), msg_id: msgId, data: shown };
    corkForTurn(this.socket);
    this.ws.send(JSON.stringify(reply));
  }

  /** A frame serialised once for many sockets. */
  sendShared(frame: SharedFrame): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    corkForTurn(this.socket);
    this.ws.send(frame.of(this.lang));
  }

  /** A live frame: dropped (answers false) while the socket's send buffer is over PUSH_BUFFER_LIMIT. */
  sendLive(msgId: number, data: unknown): boolean {
    return this.sendLiveShared(new SharedFrame(ResultCode.OK, msgId, data));
  }

  /** A live frame serialised once for many sockets: dropped (answers false) like sendLive. */
  sendLiveShared(frame: SharedFrame): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > PUSH_BUFFER_LIMIT) {
      this.dropped++;
      return false;
    }
    this.sendShared(frame);
    return true;
  }

  fail(code: number, msgId: number, key?: TextKey, params?: Record<string, string | number>): void {
    this.send(code, msgId, null, key ? say(key, this.lang, params) : undefined);
  }
}
