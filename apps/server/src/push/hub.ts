import {
  DEVICE_PUSH_FUNCTION,
  FLEET_UPDATE_PERIOD_MS,
  PUSH_MAX_FRAME_BYTES,
  PushMsgId,
  ResultCode,
  FlightMethod,
  equipmentVerifyData,
  flowProgressSchema,
  missionProgressSchema,
  fleetSubscribeData,
  holds,
  licencePlain,
  md5Hex,
  pushEnvelope,
  sameHex,
  signPmd,
  toLang,
  userVerifyData,
  type AlarmPush,
  type DataTopic,
  type FleetEntry,
  type FlowProgress,
  type MissionProgress,
  type Lang,
  ALARM_PUSH_FUNCTION,
} from '@nest/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import type { DeviceRow } from '../db/schema.js';
import { sees, type Scope } from '../db/scope.js';
import { DATABASE_UNAVAILABLE_TEXT, isDatabaseUnavailable } from '../db/unavailable.js';
import type { AppDeps } from '../deps.js';
import type { LiveDevice } from '../link/adapter.js';
import { CLOSE_POLICY, PushClient, SharedFrame, Watchers, telemetryFrame, type Verified } from './client.js';
import type { PushHandler, PushHandlers, PushRequest } from './handlers.js';
import { PushSessions, SESSION_SWEEP_MS, type SessionStore } from './sessions.js';
import { DataChangedThrottle, floods, telemetryBucket } from './throttle.js';

export { CLOSE_NORMAL, CLOSE_POLICY, PUSH_BUFFER_LIMIT, PushClient, SharedFrame, Watchers, telemetryFrame } from './client.js';
export { COMMAND_RECHECK_MS, SESSION_SWEEP_MS, type SessionAccess, type SessionStore } from './sessions.js';
export { PUSH_FLOOD_FRAMES_PER_SECOND, TELEMETRY_BURST } from './throttle.js';
export type { PushHandler, PushHandlers, PushRequest } from './handlers.js';
export { ALARM_PUSH_FUNCTION } from '@nest/contracts';

/** What the hub asks of the features, given by the composition root (boot/push.ts). */
export interface PushPorts {
  /** Sessions (auth) and the user's group shares (groups). */
  sessions: SessionStore;
  /** The plain text of a licence sealed with the server's licence key, or null when it does not open. */
  openLicence(sealed: string): string | null;
  /** A device's 310 entry (devices), or null without a known position. */
  fleetEntry(row: DeviceRow, live: LiveDevice | undefined, status: number): FleetEntry | null;
}

/** Largest number of devices one socket may watch. */
export const PUSH_MAX_WATCHES = 2000;

/** The database-unavailable text when that is why a frame failed, else undefined (the generic server error). */
export const unavailableText = (err: unknown, lang: Lang): string | undefined => (isDatabaseUnavailable(err) ? DATABASE_UNAVAILABLE_TEXT[lang] : undefined);

const frameSize = (data: RawData): number =>
  Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as ArrayBuffer | Buffer).byteLength;

const frameText = (data: RawData): string =>
  Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');

/** A socket's first periodic fleet batch waits at least this part of a period after its first (complete) one. */
const FLEET_FIRST_GAP = 0.75;

/**
 * The fleet period is served in this many phases, a hub clock step each: a subscribing socket joins the
 * phase with the fewest sockets, and its periodic batches go out in that phase. So the batches of many map
 * sockets (each holding the whole fleet's moves) leave spread over the period rather than all in one turn,
 * which held everything behind them, on the server and in every browser's event loop. The sockets of one
 * phase that see the same devices and stand at the same change counter still share one batch.
 */
export const FLEET_PHASES = 8;
const FLEET_STEP_MS = FLEET_UPDATE_PERIOD_MS / FLEET_PHASES;

/** The 310 data around its entries, and what separates them. */
const DEVICES_HEAD = '{"devices":[';
const DEVICES_TAIL = ']}';
const COMMA = 0x2c;

/** The name of a view scope: sockets with equal names see the same devices (company or all, plus shares). */
const shareNames = new WeakMap<ReadonlySet<string>, string>();
function scopeKey(scope: Scope): string {
  if (scope.all) return '*';
  const shared = scope.shared;
  if (!shared || shared.size === 0) return scope.companyId;
  let names = shareNames.get(shared);
  if (names === undefined) shareNames.set(shared, (names = [...shared].sort().join(',')));
  return `${scope.companyId}+${names}`;
}

/** One 310 batch built for every socket of a scope that stood at the same change counter. */
interface FleetBatch {
  /** The change counter the batch brings its sockets to. */
  seq: number;
  /** Null when nothing changed. */
  frame: SharedFrame | null;
}

/**
 * The push (WebSocket) hub at contracts PUSH_PATH. Frames are contracts pushEnvelope JSON; replies are
 * `{code, msg, msg_id, data}` in the language given by message 100.
 *
 * Who may send and get what is contracts push-access.ts (PUSH_ACCESS, CONTROL_REQUIREMENTS).
 *
 * Sessions (push/sessions.ts, PushSessions). Every frame in and out is bound to the live session that
 * verified the socket:
 * - the session (and the user's functions, validity, state and collaboration groups) is read at 100, at
 *   every heartbeat and 200, before a flight command when last read over COMMAND_RECHECK_MS ago, and at
 *   once on an `access` notice of the cluster bus (sign-out, user deleted / disabled / edited, password
 *   changed, group membership or function catalogue changed: sent by the call that made the change, applied
 *   by every instance);
 * - between reads, nothing goes out or is carried out past the session's clock limit (`liveUntil`: absolute
 *   and idle limits, end of the user's validity); a sweep every SESSION_SWEEP_MS re-reads those past it;
 * - a session no longer live, or without device_10, ends the socket: 46010 (PUSH_NOT_ALIVE, msg_id 101)
 *   and close 1000 'session ended'; a narrower scope unwatches what the user may no longer see;
 * - a socket that has not verified within PUSH_VERIFY_LIMIT_MS of opening is closed (1008).
 *
 * Pacing (push/throttle.ts): the flood window per socket, the 300 token bucket per watched device, the 380
 * period per company.
 *
 * - 100 user verification: live session token + licence (RSA-OAEP of md5(token + app_ids + app_code) with
 *   the licence key) + function device_10 or super_administrator. Until it succeeds every other message
 *   answers LOGIN_EXPIRED.
 * - 101 heartbeat: 2000 while the session is live and its user still holds device_10 (or
 *   super_administrator); otherwise 46010 (PUSH_NOT_ALIVE) and the socket closes.
 * - 200 equipment verification: pmd = md5(token + sn_id); the socket then watches that device.
 *   The device must be registered and visible to the user (its company; super_administrator: all; or
 *   shared with the user through a collaboration group), else NOT_FOUND_OBJECT. After the reply the socket gets a 301 DEVICE_STATUS snapshot, then 300
 *   DEVICE_TELEMETRY on every telemetry (at most the device's announced rate) and 301 on every status
 *   change; the device is asked to start its video (video on demand) while someone watches it.
 * - 210 FLEET_SUBSCRIBE `{on}`: with on, 310 FLEET_UPDATE batches every FLEET_UPDATE_PERIOD_MS with every
 *   visible device that changed since the last batch (one entry per device); the first batch, sent at
 *   once, holds every visible device with a known position. Periodic batches go out on one hub clock in
 *   FLEET_PHASES phases of the period, each socket in its own phase (the first one at least FLEET_FIRST_GAP
 *   of a period after the first batch), so that the map sockets' batches are spread over the period; the
 *   sockets of one phase and scope (company or all, plus shares) that stand at the same change counter get
 *   one batch, built and serialised once; a socket whose scope changed gets a complete batch again.
 * - 300 and every other frame sent to several sockets is serialised once per language (SharedFrame, encoded
 *   once from its second socket on), and a socket's frames of one event-loop turn leave in one write, its
 *   fleet batch last (client.ts).
 * - Every other msg_id goes to the handler its feature registered (register(), PushHandlers): the hub's
 *   pipeline first answers LOGIN_EXPIRED to an unverified socket and, when the handler asks for a fresh
 *   session, reads it again when stale (ended: 46010 and closed; unreadable: SERVER_ERROR); the handler
 *   gets the user's scope and functions and a visibility check for devices. 401 CONTROL / 473
 *   PROCESS_CONTROL belong to flight (flight/push.ts).
 * - 370 ALARM (alarms/monitor.ts, alarms/handlers.ts through broadcastAlarm): to every verified socket
 *   whose user belongs to the alarm's company (super_administrator: every company) and holds alarm_list
 *   (functions as read at verification and refreshed by each heartbeat).
 * - 380 DATA_CHANGED `{topics}` from deps.changes notices: per company at most one per
 *   DATA_CHANGED_PERIOD_MS (the first at once, later ones at the end of the period, naming every topic
 *   noticed since the previous one), to every verified socket of that company (super_administrator: all).
 * - Device events flow.progress -> 320 FLOW_PROGRESS `{sn_id, flow}`, mission.progress -> 330
 *   MISSION_PROGRESS `{sn_id, mission, mission_name}` to sockets watching the device; a 200 is followed by
 *   the current 320 and 330 from the retained state, so a panel opened mid-flight shows the timeline.
 * Anything else: BAD_REQUEST.
 * Frames are handled one at a time per socket, in order. Oversized or malformed frames answer BAD_REQUEST;
 * a flood closes the socket. A socket that cannot keep up (send buffer over PUSH_BUFFER_LIMIT) misses
 * live frames instead of queueing them without bound; fleet batches then catch up with the latest state.
 */
/** A device's place in the fleet batches (PushHub.fleetStates). */
interface FleetState {
  version: number;
  /** The version `entry` was built at (-1: none yet). */
  built: number;
  entry: FleetEntry | null;
  /** `entry` as JSON, made by the first batch that sends it (null while not made, or for no entry). */
  json: Buffer | null;
}

/**
 * Two 310 entries say the same: every field equal. Entries are flat (numbers, strings, null) and built by
 * one function, so walking one's keys covers both, and a field added to FleetEntry is compared too.
 */
function sameFleetEntry(a: FleetEntry, b: FleetEntry): boolean {
  for (const key of Object.keys(a) as (keyof FleetEntry)[]) if (a[key] !== b[key]) return false;
  return true;
}

export class PushHub {
  private readonly clients = new Set<PushClient>();
  /** Sockets by watched device. */
  private readonly watchers = new Watchers();
  /** Changes to any device so far: a device's version is this counter at its last change (fleet batches). */
  private seq = 0;
  /**
   * Per device: the counter at its last change (position, status, row), and its 310 entry (null without a
   * position) and that entry as UTF-8 JSON, as built at counter `built` (one record, so a fleet phase
   * walking the devices looks each up once).
   */
  private readonly fleetStates = new Map<string, FleetState>();
  /**
   * The devices each view scope sees (by scopeKey), for the directory's rows of `visibleOf`: every phase of
   * a fleet period walks them, and they change only when the directory is read again.
   */
  private readonly visibleRows = new Map<string, readonly DeviceRow[]>();
  private visibleOf = -1;
  /** Sockets with fleet updates on, by the phase of the period in which their periodic batches go out. */
  private readonly fleetPhases: Set<PushClient>[] = Array.from({ length: FLEET_PHASES }, () => new Set());
  private fleetClients = 0;
  /** The hub's fleet clock: one step per phase; the phase of its last step and when that was (ms). */
  private fleetTimer: NodeJS.Timeout | null = null;
  private fleetPhase = 0;
  private fleetPhaseAt = 0;
  /** Handlers by msg_id of the verified messages: the hub's own (101, 200, 210) and the features'. */
  private readonly handlers = new Map<number, PushHandler>();
  /** Binding of sockets to live sessions. */
  private readonly sessions: PushSessions;
  /** 380 pacing, per company. */
  private readonly dataChanged = new DataChangedThrottle((companyId, topics) => this.sendDataChanged(companyId, topics));
  private readonly onDataChanged = (companyId: string, topic: DataTopic) => this.dataChanged.note(companyId, topic);
  private readonly offBus: (() => void)[] = [];
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly deps: AppDeps,
    private readonly ports: PushPorts,
    private readonly log: FastifyBaseLogger,
  ) {
    const { link, status, directory } = deps.live;
    this.sessions = new PushSessions(this.clients, ports.sessions, deps.live, log, (client) => this.unwatchAll(client));
    deps.changes.on('changed', this.onDataChanged);
    link.on('telemetry', (sn, live, json) => {
      this.noteTelemetry(sn, live);
      this.fanOutTelemetry(sn, live, json);
    });
    // Every instance sees presence and holds itself: status pushes stay local. Pushes caused by a call or
    // by a device event (which one instance handles) go through the cluster bus to every instance.
    status.on('status', (sn, snapshot) => {
      this.bump(sn);
      this.publishLocal(sn, PushMsgId.DEVICE_STATUS, snapshot);
    });
    const { bus } = deps.live;
    this.offBus.push(
      bus.on('device', ({ sn, msgId, data }) => this.publishLocal(sn, msgId, data)),
      bus.on('user', ({ userId, msgId, data }) => this.broadcastToUserLocal(userId, msgId, data)),
      bus.on('alarm', ({ companyId, data }) => this.broadcastAlarmLocal(companyId, data)),
      bus.on('access', (notice) => this.sessions.accessChanged(notice)),
    );
    directory.onChange((changed) => {
      for (const sn of changed) {
        this.bump(sn);
        if (!directory.get(sn)) this.fleetStates.delete(sn);
      }
      this.unwatchUnseen(changed);
    });
    this.register({
      [PushMsgId.HEARTBEAT]: { handle: ({ client }) => this.heartbeat(client) },
      [PushMsgId.EQUIPMENT_VERIFY]: { handle: ({ client, user, body }) => this.verifyEquipment(client, user, body) },
      [PushMsgId.FLEET_SUBSCRIBE]: { handle: ({ client, body }) => this.fleetSubscribe(client, body) },
    });
    this.sweepTimer = setInterval(() => this.sessions.sweep(), SESSION_SWEEP_MS);
    this.sweepTimer.unref();
    link.on('event', (sn, m) => {
      if (m.method === FlightMethod.FLOW_PROGRESS) {
        const flow = flowProgressSchema.safeParse(m.data);
        if (flow.success) this.publish(sn, PushMsgId.FLOW_PROGRESS, { sn_id: sn, flow: flow.data });
      } else if (m.method === FlightMethod.MISSION_PROGRESS) {
        const mission = missionProgressSchema.safeParse(m.data);
        if (mission.success) void this.missionFrame(sn, mission.data).then((data) => this.publish(sn, PushMsgId.MISSION_PROGRESS, data));
      }
    });
  }

  /** Route names by id (a route's name is shown with its progress; names rarely change). */
  private readonly missionNames = new Map<string, string>();

  private async missionFrame(sn: string, mission: MissionProgress | null): Promise<{ sn_id: string; mission: MissionProgress | null; mission_name?: string }> {
    const id = mission?.mission_id;
    if (!id) return { sn_id: sn, mission };
    let name = this.missionNames.get(id);
    if (name === undefined) {
      const row = await this.deps.db.selectFrom('missions').select('name').where('id', '=', id).executeTakeFirst().catch(() => undefined);
      name = row?.name ?? '';
      if (this.missionNames.size > 5000) this.missionNames.clear();
      this.missionNames.set(id, name);
    }
    return { sn_id: sn, mission, mission_name: name };
  }

  /** Adds handlers by msg_id (a feature's push messages); a msg_id has one owner. */
  register(handlers: PushHandlers): void {
    for (const [key, handler] of Object.entries(handlers)) {
      const msgId = Number(key);
      if (msgId === PushMsgId.USER_VERIFY || this.handlers.has(msgId)) throw new Error(`push msg_id ${msgId} has a handler already`);
      this.handlers.set(msgId, handler);
    }
  }

  private bump(sn: string): void {
    const state = this.fleetStates.get(sn);
    if (state) state.version = ++this.seq;
    else this.fleetStates.set(sn, { version: ++this.seq, built: -1, entry: null, json: null });
  }

  /**
   * Moves the device's counter when a telemetry message changes its 310 entry. A device on the ground sends
   * the same position, heading, battery and height second after second; a batch carries only the devices
   * whose entry changed, so such a device stays out of it (and out of every map socket's frame) until
   * something moves. Compared with the entry built at the current version; the new entry built for that
   * comparison is kept at the new version, so the batch that sends it does not build it again (it only
   * serialises it). While no entry is built at the current version (a status change or an unsent change
   * made since) there is nothing to compare with, and the counter moves again.
   */
  private noteTelemetry(sn: string, live: LiveDevice): void {
    const state = this.fleetStates.get(sn);
    const row = state && state.built === state.version && state.entry ? this.deps.live.directory.get(sn) : undefined;
    if (!state || !row) return this.bump(sn);
    const next = this.ports.fleetEntry(row, live, this.deps.live.status.status(sn));
    if (next !== null && sameFleetEntry(next, state.entry!)) return;
    this.bump(sn);
    state.entry = next;
    state.json = null;
    state.built = state.version;
  }

  /**
   * 300 to the device's watchers: one frame whatever the number of watchers, around the device's own JSON
   * of the telemetry when the link has it (telemetryFrame), else serialised once.
   */
  private fanOutTelemetry(sn: string, live: LiveDevice, json?: () => string | null): void {
    const watchers = this.watchers.of(sn);
    if (!watchers) return;
    const now = Date.now();
    let frame: SharedFrame | null = null;
    for (const c of watchers) {
      if (!this.sessions.deliverable(c, now)) continue;
      // At most the device's announced rate per socket (push/throttle.ts).
      const bucket = telemetryBucket(c, sn, live.rateHz, now);
      if (bucket.tokens < 1) continue;
      frame ??= telemetryFrame(
        { sn_id: sn, state: this.deps.live.status.status(sn, now), telemetry: live.telemetry, at: live.telemetryAt ?? now },
        json?.() ?? null,
      );
      if (c.sendLiveShared(frame)) bucket.tokens -= 1;
    }
  }

  private unwatchAll(client: PushClient): void {
    for (const sn of [...client.watching]) {
      client.unwatch(sn);
      this.deps.live.video.unwatch(sn, client);
    }
    client.telemetrySentAt.clear();
    this.setFleet(client, false);
  }

  /**
   * The 310 batch of one subscribed socket: every device it sees that changed since its last batch (all of
   * them when it had none, or when its scope changed since). Sockets of one scope that stand at the same
   * change counter share one batch, built once per period: `built` holds this period's batches.
   */
  private fleetBatch(c: PushClient, now: number, built: Map<string, FleetBatch>): void {
    const verified = c.verified;
    const sub = c.fleet;
    if (!sub || !verified || !this.sessions.deliverable(c, now)) return;
    // Shares read now apply from the next batch (this one stays synchronous).
    void this.sessions.refreshShares(c).catch((err: unknown) => this.log.debug({ err }, 'group shares refresh failed'));
    const key = scopeKey(verified.scope);
    const since = sub.scopeKey === key ? sub.sentSeq : -1;
    const id = `${since} ${key}`;
    let batch = built.get(id);
    if (!batch) built.set(id, (batch = this.buildFleetBatch(verified.scope, key, since)));
    // Nothing to send, or sent: the socket stands at the batch's counter. Dropped (slow socket): its next
    // batch catches up from where it stood.
    if (batch.frame && !c.sendBulkShared(batch.frame)) return;
    sub.sentSeq = batch.seq;
    sub.scopeKey = key;
    if (batch.frame) sub.sentAt = now;
  }

  /** The batch of every device the scope sees that changed after counter `since`. */
  private buildFleetBatch(scope: Scope, key: string, since: number): FleetBatch {
    const { link, status } = this.deps.live;
    const parts: Buffer[] = [];
    let size = 0;
    for (const row of this.visible(scope, key)) {
      const sn = row.sn_id;
      let state = this.fleetStates.get(sn);
      // A device never changed since the hub started has version 0 (only a complete batch holds it).
      if ((state?.version ?? 0) <= since) continue;
      state ??= { version: 0, built: -1, entry: null, json: null };
      // A status change bumps the device's version (the board's `status` event, a hold's end included), so
      // an entry built at this version still holds the device's state: the phases of a period reuse it.
      if (state.built !== state.version) {
        state.entry = this.ports.fleetEntry(row, link.device(sn), status.status(sn));
        state.json = null;
        state.built = state.version;
        this.fleetStates.set(sn, state);
      }
      if (state.entry && !state.json) state.json = Buffer.from(JSON.stringify(state.entry));
      if (state.json) {
        parts.push(state.json);
        size += state.json.length;
      }
    }
    if (parts.length === 0) return { seq: this.seq, frame: null };
    // `{"devices":[` entries joined by commas `]}`, copied once into one buffer.
    const data = Buffer.allocUnsafe(DEVICES_HEAD.length + size + parts.length - 1 + DEVICES_TAIL.length);
    let at = data.write(DEVICES_HEAD, 0, 'latin1');
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) data[at++] = COMMA;
      at += parts[i]!.copy(data, at);
    }
    data.write(DEVICES_TAIL, at, 'latin1');
    return { seq: this.seq, frame: SharedFrame.fromBytes(ResultCode.OK, PushMsgId.FLEET_UPDATE, data) };
  }

  /** The directory's devices a scope sees (`key`: its scopeKey), kept until the directory is read again. */
  private visible(scope: Scope, key: string): readonly DeviceRow[] {
    const { directory } = this.deps.live;
    const generation = directory.generation;
    if (generation !== this.visibleOf) {
      this.visibleRows.clear();
      this.visibleOf = generation;
    }
    let rows = this.visibleRows.get(key);
    if (!rows) this.visibleRows.set(key, (rows = directory.visible(scope)));
    return rows;
  }

  /** The batches of one phase's sockets (sockets whose first batch is too recent wait for the next period). */
  private fleetServe(sockets: ReadonlySet<PushClient>, now: number, built: Map<string, FleetBatch>): void {
    for (const c of sockets) {
      if (c.fleet && now - c.fleet.sentAt < FLEET_UPDATE_PERIOD_MS * FLEET_FIRST_GAP) continue;
      this.fleetBatch(c, now, built);
    }
  }

  /** One step of the hub's fleet clock: the next phase's sockets get their batches (`now` injectable for tests). */
  fleetStep(now = Date.now()): void {
    this.fleetPhase = (this.fleetPhase + 1) % FLEET_PHASES;
    this.fleetPhaseAt = now;
    this.fleetServe(this.fleetPhases[this.fleetPhase]!, now, new Map());
  }

  /**
   * One whole fleet period at once: every phase's sockets get their batches, sockets of one scope at one
   * change counter sharing one batch whatever their phase. The hub's clock serves one phase per step; this
   * is for tests and benches (`now` injectable, so they need not wait).
   */
  fleetTick(now = Date.now()): void {
    const built = new Map<string, FleetBatch>();
    for (const sockets of this.fleetPhases) this.fleetServe(sockets, now, built);
  }

  /**
   * The phase a socket subscribing now joins: one with the fewest sockets, and of those the one whose next
   * step comes first once the first gap has passed (so its first periodic batch comes most of a period
   * after the complete one, not nearly two).
   */
  private fleetPhaseFor(now: number): number {
    let best = 0;
    let bestLoad = Infinity;
    let bestWait = Infinity;
    // Half a step of margin: a step that runs a little early still finds the gap passed.
    const gap = FLEET_UPDATE_PERIOD_MS * FLEET_FIRST_GAP + FLEET_STEP_MS / 2;
    for (let p = 0; p < FLEET_PHASES; p++) {
      const load = this.fleetPhases[p]!.size;
      let wait = (((p - this.fleetPhase - 1 + FLEET_PHASES) % FLEET_PHASES) + 1) * FLEET_STEP_MS - (now - this.fleetPhaseAt);
      while (wait < gap) wait += FLEET_UPDATE_PERIOD_MS;
      if (load < bestLoad || (load === bestLoad && wait < bestWait)) {
        best = p;
        bestLoad = load;
        bestWait = wait;
      }
    }
    return best;
  }

  /**
   * Fleet updates on (a complete first batch at once, then one per period in the socket's phase of the
   * hub's clock) or off.
   */
  private setFleet(c: PushClient, on: boolean): void {
    if (c.fleet) {
      this.fleetPhases[c.fleet.phase]!.delete(c);
      this.fleetClients--;
      c.fleet = null;
      c.dropBulk();
    }
    if (!on) {
      if (this.fleetClients === 0 && this.fleetTimer) {
        clearInterval(this.fleetTimer);
        this.fleetTimer = null;
      }
      return;
    }
    const now = Date.now();
    if (!this.fleetTimer) {
      this.fleetPhase = 0;
      this.fleetPhaseAt = now;
      this.fleetTimer = setInterval(() => this.fleetStep(), FLEET_STEP_MS);
      this.fleetTimer.unref();
    }
    const phase = this.fleetPhaseFor(now);
    c.fleet = { sentSeq: -1, scopeKey: null, sentAt: 0, phase };
    this.fleetPhases[phase]!.add(c);
    this.fleetClients++;
    this.fleetBatch(c, now, new Map());
    // The first batch counts as sent even when empty: the first periodic one keeps its distance.
    c.fleet.sentAt = now;
  }

  get size(): number {
    return this.clients.size;
  }

  attach(ws: WebSocket): void {
    const client = new PushClient(ws, this.watchers);
    this.clients.add(client);
    ws.on('close', () => {
      this.clients.delete(client);
      this.unwatchAll(client);
    });
    ws.on('error', (err) => this.log.debug({ err }, 'push socket error'));
    ws.on('message', (data, isBinary) => {
      if (floods(client, Date.now())) {
        if (ws.readyState === WebSocket.OPEN) ws.close(CLOSE_POLICY, 'too many messages');
        return;
      }
      client.queue = client.queue
        .then(() => this.handle(client, data, isBinary))
        .catch((err: unknown) => {
          this.log.error({ err }, 'push message failed');
          client.send(ResultCode.SERVER_ERROR, 0, null, unavailableText(err, client.lang));
        });
    });
  }

  /** Sends a message to every verified socket watching a device, on every instance; answers how many here got it. */
  publish(snId: string, msgId: number, data: unknown): number {
    this.deps.live.bus.share('device', { sn: snId, msgId, data });
    return this.publishLocal(snId, msgId, data);
  }

  /** Sends a message to every verified socket of a user, on every instance; answers how many here got it. */
  broadcastToUser(userId: string, msgId: number, data: unknown): number {
    this.deps.live.bus.share('user', { userId, msgId, data });
    return this.broadcastToUserLocal(userId, msgId, data);
  }

  /** 370: an alarm change to its company's sockets whose user holds alarm_list, on every instance; answers how many here got it. */
  broadcastAlarm(companyId: string, data: AlarmPush): number {
    this.deps.live.bus.share('alarm', { companyId, data });
    return this.broadcastAlarmLocal(companyId, data);
  }

  /** Sends a message to this instance's verified sockets watching a device; answers how many got it. */
  private publishLocal(snId: string, msgId: number, data: unknown): number {
    const watchers = this.watchers.of(snId);
    if (!watchers) return 0;
    let n = 0;
    const now = Date.now();
    const frame = new SharedFrame(ResultCode.OK, msgId, data);
    for (const c of watchers) {
      if (this.sessions.deliverable(c, now)) {
        c.sendShared(frame);
        n++;
      }
    }
    return n;
  }

  private broadcastToUserLocal(userId: string, msgId: number, data: unknown): number {
    let n = 0;
    const now = Date.now();
    const frame = new SharedFrame(ResultCode.OK, msgId, data);
    for (const c of this.clients) {
      if (c.verified?.userId === userId && this.sessions.deliverable(c, now)) {
        c.sendShared(frame);
        n++;
      }
    }
    return n;
  }

  private broadcastAlarmLocal(companyId: string, data: AlarmPush): number {
    let n = 0;
    const now = Date.now();
    const frame = new SharedFrame(ResultCode.OK, PushMsgId.ALARM, data);
    for (const c of this.clients) {
      const v = c.verified;
      if (!v || !this.sessions.deliverable(c, now) || !(v.scope.all || v.scope.companyId === companyId) || !holds(v.funList, ALARM_PUSH_FUNCTION)) continue;
      c.sendShared(frame);
      n++;
    }
    return n;
  }

  /** 380 to every verified socket of a company (super_administrator: all). */
  private sendDataChanged(companyId: string, topics: DataTopic[]): void {
    const now = Date.now();
    const frame = new SharedFrame(ResultCode.OK, PushMsgId.DATA_CHANGED, { topics });
    for (const c of this.clients) {
      const v = c.verified;
      if (v && this.sessions.deliverable(c, now) && (v.scope.all || v.scope.companyId === companyId)) c.sendShared(frame);
    }
  }

  close(): void {
    clearInterval(this.sweepTimer);
    if (this.fleetTimer) clearInterval(this.fleetTimer);
    this.fleetTimer = null;
    this.deps.changes.off('changed', this.onDataChanged);
    for (const off of this.offBus) off();
    this.dataChanged.close();
    for (const c of this.clients) {
      this.unwatchAll(c);
      c.ws.terminate();
    }
    this.clients.clear();
  }

  private async handle(client: PushClient, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary) return client.fail(ResultCode.BAD_REQUEST, 0, 'push.frame.malformed');
    if (frameSize(data) > PUSH_MAX_FRAME_BYTES) {
      // Not parsed: only a msg_id near the start of the frame is looked for, to address the reply.
      const head = /"msg_id"\s*:\s*(\d{1,9})\b/.exec(frameText(data).slice(0, 256));
      return client.fail(ResultCode.BAD_REQUEST, head ? Number(head[1]) : 0, 'push.frame.tooLarge');
    }
    let json: unknown;
    try {
      json = JSON.parse(frameText(data));
    } catch {
      return client.fail(ResultCode.BAD_REQUEST, 0, 'push.frame.malformed');
    }
    const knownId =
      json !== null && typeof json === 'object' && Number.isInteger((json as { msg_id?: unknown }).msg_id)
        ? ((json as { msg_id: number }).msg_id)
        : 0;
    const parsed = pushEnvelope.safeParse(json);
    if (!parsed.success) return client.fail(ResultCode.BAD_REQUEST, knownId, 'push.frame.malformed');
    const { msg_id: msgId, data: body } = parsed.data;

    if (msgId === PushMsgId.USER_VERIFY) return this.verifyUser(client, body);
    if (!client.verified) return client.fail(ResultCode.LOGIN_EXPIRED, msgId);
    const handler = this.handlers.get(msgId);
    if (!handler) return client.fail(ResultCode.BAD_REQUEST, msgId, 'push.msg.unknown', { msg_id: msgId });
    let user: Verified | null = client.verified;
    if (handler.freshSession !== undefined) {
      try {
        user = await this.sessions.current(client, handler.freshSession);
      } catch (err) {
        // The session could not be read: nothing is carried out, the message is answered.
        return client.send(ResultCode.SERVER_ERROR, msgId, null, unavailableText(err, client.lang));
      }
      // Ended: the socket was answered 46010 and closed.
      if (!user) return;
    }
    const seen = user;
    const request: PushRequest = {
      msgId,
      body,
      client,
      user: seen,
      visibleDevice: (sn) => {
        const device = this.deps.live.directory.get(sn);
        return device && sees(seen.scope, device) ? device : undefined;
      },
    };
    return handler.handle(request);
  }

  private async verifyUser(client: PushClient, body: Record<string, unknown>): Promise<void> {
    const id = PushMsgId.USER_VERIFY;
    if (typeof body.os_language === 'string') client.lang = toLang(body.os_language);
    const parsed = userVerifyData.safeParse(body);
    if (!parsed.success) return client.fail(ResultCode.BAD_REQUEST, id, 'push.frame.malformed');
    const { token, app_ids: appIds, app_code: appCode, licence, os_language: lang } = parsed.data;
    client.lang = toLang(lang);
    const caller = await this.sessions.find(token);
    if (!caller) return client.fail(ResultCode.LOGIN_EXPIRED, id);
    const plain = this.ports.openLicence(licence);
    if (plain === null || !sameHex(plain.trim().toLowerCase(), md5Hex(licencePlain(token, appIds, appCode)))) {
      return client.fail(ResultCode.BAD_SIGNATURE, id, 'push.licence.invalid');
    }
    if (!holds(caller.funList, DEVICE_PUSH_FUNCTION)) return client.fail(ResultCode.NO_PERMISSION, id);
    if (!(await this.sessions.bind(client, caller, token))) return client.fail(ResultCode.LOGIN_EXPIRED, id);
    client.send(ResultCode.OK, id, { u_id: caller.user.u_id });
  }

  /**
   * Reads the socket's session again (push/sessions.ts): ended -> 46010 and closed; answers whether the
   * socket still speaks for a live session.
   */
  recheck(client: PushClient): Promise<boolean> {
    return this.sessions.recheck(client);
  }

  /**
   * Closes sockets that never verified within PUSH_VERIFY_LIMIT_MS and re-reads sessions past their clock
   * limit (`now` is injectable so tests need not wait).
   */
  sweep(now = Date.now()): void {
    this.sessions.sweep(now);
  }

  /** Devices whose row changed (moved to another company, deleted): watchers who may no longer see them stop. */
  private unwatchUnseen(changed: Iterable<string>): void {
    const { directory, video } = this.deps.live;
    for (const sn of changed) {
      const row = directory.get(sn);
      const watchers = this.watchers.of(sn);
      if (!watchers) continue;
      for (const c of [...watchers]) {
        if (c.verified && row && sees(c.verified.scope, row)) continue;
        c.unwatch(sn);
        video.unwatch(sn, c);
      }
    }
  }

  private async heartbeat(client: PushClient): Promise<void> {
    // A session that ended was answered 46010 and closed by the re-read.
    if (await this.sessions.recheck(client)) client.send(ResultCode.OK, PushMsgId.HEARTBEAT, null);
  }

  private async verifyEquipment(client: PushClient, verified: Verified, body: Record<string, unknown>): Promise<void> {
    const id = PushMsgId.EQUIPMENT_VERIFY;
    const parsed = equipmentVerifyData.safeParse(body);
    if (!parsed.success) return client.fail(ResultCode.BAD_REQUEST, id, 'push.frame.malformed');
    const { token, sn_id: snId, pmd } = parsed.data;
    if (this.ports.sessions.tokenHash(token) !== verified.tokenHash) return client.fail(ResultCode.LOGIN_EXPIRED, id);
    if (!(await this.sessions.recheck(client))) return;
    if (!sameHex(signPmd({ token, pmdValue: snId }), pmd.toLowerCase())) return client.fail(ResultCode.BAD_SIGNATURE, id);
    if (!client.watching.has(snId) && client.watching.size >= PUSH_MAX_WATCHES) {
      return client.fail(ResultCode.BAD_REQUEST, id, 'push.frame.tooLarge');
    }
    const device = this.deps.live.directory.get(snId);
    if (!device || !sees(verified.scope, device)) return client.fail(ResultCode.NOT_FOUND_OBJECT, id);
    const fresh = client.watch(snId);
    client.send(ResultCode.OK, id, { sn_id: snId });
    client.send(ResultCode.OK, PushMsgId.DEVICE_STATUS, this.deps.live.status.snapshot(snId));
    if (fresh) this.deps.live.video.watch(snId, client);
    await this.progressSnapshot(client, snId);
  }

  /** The current flow and mission of a device, from its retained state (a panel opened mid-flight). */
  private async progressSnapshot(client: PushClient, sn: string): Promise<void> {
    const state = this.deps.live.link.device(sn)?.state;
    const flow: FlowProgress | null = state?.flow ?? null;
    client.send(ResultCode.OK, PushMsgId.FLOW_PROGRESS, { sn_id: sn, flow });
    client.send(ResultCode.OK, PushMsgId.MISSION_PROGRESS, await this.missionFrame(sn, state?.mission ?? null));
  }

  private fleetSubscribe(client: PushClient, body: Record<string, unknown>): void {
    const id = PushMsgId.FLEET_SUBSCRIBE;
    const parsed = fleetSubscribeData.safeParse(body);
    if (!parsed.success) return client.fail(ResultCode.BAD_REQUEST, id, 'push.frame.malformed');
    client.send(ResultCode.OK, id, { on: parsed.data.on });
    // The first batch (complete: nothing was sent yet) goes out at once.
    this.setFleet(client, parsed.data.on);
  }
}
