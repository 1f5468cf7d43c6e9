import type { Duplex } from 'node:stream';
import { PushMsgId, ResultCode, codeText, showTexts, type DeviceTelemetryPush, type Lang, type PushReply } from '@nest/contracts';
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

const CLOSE_BRACE = Buffer.from('}');

/** ws.send options of a frame handed over as bytes: still a text frame (ws would send a Buffer as binary). */
const AS_TEXT = { binary: false } as const;

/** A frame's text in one language, and its UTF-8 bytes once a second socket of that language gets it. */
interface Shown {
  /** Null for a frame made from bytes until someone asks for its text. */
  text: string | null;
  /** The text went to a socket already. */
  given: boolean;
  bytes: Buffer | null;
}

/**
 * One push frame for many sockets: serialised once per language (the envelope's `msg`, and names in the
 * data when the frame carries any) and the same text handed to every socket of that language. The text is
 * that of JSON.stringify of the `{code, msg, msg_id, data}` reply. The first socket of a language gets the
 * string (ws writes it into the socket's buffer without a Buffer of its own, the cheapest when a frame has
 * one watcher, as most 300 frames do); from the second on, the text is encoded to UTF-8 once and every
 * further socket gets those same bytes instead of encoding the text again (a 310 batch is hundreds of KB).
 */
export class SharedFrame {
  private zh: Shown | undefined;
  private en: Shown | undefined;
  /** The data's JSON when it is the same in every language. */
  private plain: string | undefined;
  /** The data's JSON as UTF-8 bytes (a frame made by `fromBytes`). */
  private dataBytes: Buffer | undefined;

  /** `dataJson`: the data already serialised. */
  constructor(
    readonly code: number,
    readonly msgId: number,
    private readonly data: unknown = null,
    dataJson?: string,
  ) {
    this.plain = dataJson;
  }

  /**
   * A frame whose data is given as UTF-8 JSON bytes (fleet batches, assembled from each device's cached
   * entry bytes): every socket gets bytes, the envelope of its language around the data, copied once per
   * language, so a batch of the whole fleet is never a string to join, scan and encode.
   */
  static fromBytes(code: number, msgId: number, dataBytes: Buffer): SharedFrame {
    const frame = new SharedFrame(code, msgId);
    frame.dataBytes = dataBytes;
    return frame;
  }

  private head(lang: Lang): string {
    return `{"code":${this.code},"msg":${JSON.stringify(codeText(this.code, lang))},"msg_id":${this.msgId},"data":`;
  }

  private shown(lang: Lang): Shown {
    const done = lang === 'zh' ? this.zh : this.en;
    if (done !== undefined) return done;
    let out: Shown;
    if (this.dataBytes !== undefined) {
      const bytes = Buffer.concat([Buffer.from(this.head(lang)), this.dataBytes, CLOSE_BRACE]);
      out = { text: null, given: true, bytes };
    } else {
      let json: string;
      if (this.plain !== undefined) json = this.plain;
      else if (WITHOUT_NAMES.has(this.msgId)) json = this.plain = JSON.stringify(this.data ?? null);
      else json = JSON.stringify(showTexts(this.data, lang) ?? null);
      out = { text: `${this.head(lang)}${json}}`, given: false, bytes: null };
    }
    if (lang === 'zh') this.zh = out;
    else this.en = out;
    return out;
  }

  /** The frame's text as shown in `lang`. */
  of(lang: Lang): string {
    const shown = this.shown(lang);
    return (shown.text ??= shown.bytes?.toString('utf8') ?? '');
  }

  /** What a socket of `lang` is sent: the text for the first one, then the text's bytes, encoded once. */
  payload(lang: Lang): string | Buffer {
    const shown = this.shown(lang);
    if (!shown.given && shown.text !== null) {
      shown.given = true;
      return shown.text;
    }
    return (shown.bytes ??= Buffer.from(shown.text ?? '', 'utf8'));
  }
}

/**
 * The 300 frame of a device's telemetry. `json` is the device's own JSON text of `data.telemetry` when it
 * reads back exactly as that value after JSON.stringify (the link's `telemetry` event, link/member-json.ts):
 * the frame's data is then that text between the other members, serialised in the order JSON.stringify of
 * `data` writes them, so a browser parses the same frame as from the serialised one, without the telemetry
 * being serialised again (the largest cost per device message). Without it, the data is serialised.
 */
export function telemetryFrame(data: DeviceTelemetryPush, json: string | null): SharedFrame {
  const text = json === null ? undefined : `{"sn_id":${JSON.stringify(data.sn_id)},"state":${JSON.stringify(data.state)},"telemetry":${json},"at":${JSON.stringify(data.at)}}`;
  return new SharedFrame(ResultCode.OK, PushMsgId.DEVICE_TELEMETRY, data, text);
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
 * corked bytes count in the socket's bufferedAmount, so backpressure still sees them. A fleet batch of the
 * turn is written last, just before the uncork (PushClient.sendBulkShared): the turn's small frames go
 * ahead of it, so a browser reads its 300 frames before it parses a batch of the whole fleet.
 */
const corked: PushClient[] = [];
let uncorkScheduled = false;

function uncorkAll(): void {
  uncorkScheduled = false;
  for (const client of corked.splice(0)) client.endTurn();
}

/** ws keeps the network socket of a WebSocket as `_socket` (absent on test doubles). */
const rawSocket = (ws: WebSocket): Duplex | undefined => (ws as unknown as { _socket?: Duplex })._socket;

/** Fleet updates of one socket: where its batches stand. */
export interface FleetSubscription {
  /** The hub's change counter up to which this socket has every change of its visible devices (-1: none yet). */
  sentSeq: number;
  /** The scope its last batch was built for; another scope (shares changed) starts again with a complete batch. */
  scopeKey: string | null;
  /** ms: when its last batch went out (the first periodic one waits most of a period after it). */
  sentAt: number;
  /** The phase of the fleet period in which this socket's periodic batches go out (hub.ts, FLEET_PHASES). */
  phase: number;
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
  /** Corked for the current turn of the event loop (its uncork is scheduled). */
  private corkedTurn = false;
  /** Fleet batches written at the end of this turn, after the turn's other frames. */
  private readonly bulk: (string | Buffer)[] = [];

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

  /** Corks the socket until the end of this turn (once per turn; test doubles have no socket to cork). */
  private corkForTurn(): boolean {
    const socket = this.socket;
    if (!socket || socket.destroyed) return false;
    if (this.corkedTurn) return true;
    socket.cork();
    this.corkedTurn = true;
    corked.push(this);
    if (!uncorkScheduled) {
      uncorkScheduled = true;
      setImmediate(uncorkAll);
    }
    return true;
  }

  /** The end of the turn: the waiting fleet batch goes out after the turn's other frames, then all in one write. */
  endTurn(): void {
    this.corkedTurn = false;
    if (this.bulk.length > 0) {
      if (this.ws.readyState === WebSocket.OPEN) for (const frame of this.bulk) this.ws.send(frame, AS_TEXT);
      this.bulk.length = 0;
    }
    this.socket?.uncork();
  }

  send(code: number, msgId: number, data: unknown = null, msg?: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const shown = WITHOUT_NAMES.has(msgId) ? data : showTexts(data, this.lang);
    const reply: PushReply = { code, msg: msg ?? codeText(code, this.lang), msg_id: msgId, data: shown };
    this.corkForTurn();
    this.ws.send(JSON.stringify(reply));
  }

  /** A frame serialised once for many sockets. */
  sendShared(frame: SharedFrame): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.corkForTurn();
    this.ws.send(frame.payload(this.lang), AS_TEXT);
  }

  /** A live frame: dropped (answers false) while the socket's send buffer is over PUSH_BUFFER_LIMIT. */
  sendLive(msgId: number, data: unknown): boolean {
    return this.sendLiveShared(new SharedFrame(ResultCode.OK, msgId, data));
  }

  /** Whether live frames go out now (the socket is open and keeps up); counts a drop when not. */
  private keepsUp(): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > PUSH_BUFFER_LIMIT) {
      this.dropped++;
      return false;
    }
    return true;
  }

  /** A live frame serialised once for many sockets: dropped (answers false) like sendLive. */
  sendLiveShared(frame: SharedFrame): boolean {
    if (!this.keepsUp()) return false;
    this.sendShared(frame);
    return true;
  }

  /**
   * A fleet batch (310), dropped like a live frame. It is written at the end of the turn, after the small
   * frames the socket gets in the same turn (batches among themselves in the order given).
   */
  sendBulkShared(frame: SharedFrame): boolean {
    if (!this.keepsUp()) return false;
    if (!this.corkForTurn()) {
      this.ws.send(frame.payload(this.lang), AS_TEXT);
      return true;
    }
    this.bulk.push(frame.payload(this.lang));
    return true;
  }

  /** Forgets a fleet batch still waiting for the end of the turn (fleet updates turned off). */
  dropBulk(): void {
    this.bulk.length = 0;
  }

  fail(code: number, msgId: number, key?: TextKey, params?: Record<string, string | number>): void {
    this.send(code, msgId, null, key ? say(key, this.lang, params) : undefined);
  }
}
