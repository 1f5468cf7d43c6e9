import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  AIRBORNE_FLIGHT_STATES,
  DJI_OFFLINE_AFTER_MS,
  DJI_TERMINAL_STATUSES,
  DJI_OSD_HZ,
  DJI_SERVER_SUBSCRIPTIONS,
  DJI_SERVICE_MAX_RESENDS,
  DJI_SERVICE_TIMEOUT_MS,
  DeviceProtocol,
  DjiMethod,
  DjiResult,
  FlightMethod,
  LINK_MAX_MESSAGE_BYTES,
  LINK_VERSION,
  LinkMethod,
  MediaMethod,
  MaintenanceMethod,
  ONE_KEY_TAKEOFF_HEIGHT,
  SERVER_CLIENT_ID_PREFIX,
  djiBindStatusRequest,
  djiData,
  djiFlighttaskProgress,
  djiHms,
  djiMessage,
  djiModel,
  djiResourceGet,
  djiResultText,
  djiServiceReply,
  djiTopic,
  djiUpdateTopo,
  isEventRefusal,
  missionStartCommandData,
  parseDjiTopic,
  processCommandData,
  stateData,
  takeoffCommandData,
  topoModelKey,
  type CommandReplyData,
  type DjiDockOsd,
  type DjiDroneOsd,
  type DjiEnvelope,
  type DjiFlighttaskProgress,
  type LinkEnvelope,
  type MissionPlan,
} from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import type { CommandOptions, CommandOutcome, DeviceLink, DeviceLookup, DropReason, LinkEvents, LinkLogger, LiveDevice } from '../adapter.js';
import { LinkCounters } from '../stats.js';
import { MassSilence } from '../mass-silence.js';
import { linkClient, subscribeEachSession, type InProcessBroker } from '../session.js';
import { flightEndOf, flightStateOf, healthOf, mergeOsd, metresBetween, progressOf, telemetryOf, type FlightPlanInfo } from './translate.js';
import type { WaylineFile } from './waylines.js';
import { DjiLive, type LiveIngest } from './live.js';
import { debugProgressOf, runDebug } from './debug.js';
import { otaProgressOf, runOta } from './ota.js';
import { eventResult, mediaStoredOf, storageConfigOutput, type DjiMediaOptions } from './media.js';

/** What the adapter needs to hand out route packages (waylines.ts). */
export interface WaylineStore {
  put(flightId: string, plan: MissionPlan, droneModel: string | null): Promise<WaylineFile | null>;
  resource(flightId: string): Promise<WaylineFile | null>;
  /** The HTTP base docks reach the server at (firmware file_url of ota_create, ota.ts). */
  base?(): string;
}

/** The `config` request's flat answer (empty strings when not configured). */
export interface DjiProductConfig {
  ntp_server_host: string;
  app_id: string;
  app_key: string;
  app_license: string;
}

export interface DjiLinkOptions {
  url: string;
  /** The broker embedded in this process, reached in memory instead of at `url` when given. */
  inProcess?: InProcessBroker;
  username: string;
  password: string;
  devices: DeviceLookup;
  log: LinkLogger;
  clientId?: string;
  /** Whether this instance handles a device's events (the nest adapter's cluster membership). */
  owns?: (sn: string) => boolean;
  /** Other server instances share the broker: a reply to another instance's command is theirs, not a fault. */
  clustered?: boolean;
  waylines: WaylineStore | null;
  /** The organisation a device is bound to: its company (id and name). */
  organization?: (sn: string) => Promise<{ id: string; name: string } | null>;
  productConfig?: DjiProductConfig;
  /** Clock in Unix ms (tests): receive times and presence deadlines. */
  now?: () => number;
  /** The RTMP ingest docks publish live video to (live.ts); without it video.start is refused. */
  liveIngest?: LiveIngest | null;
  /** The S3 upload ingest docks put results into (media.ts); without it storage_config_get is refused. */
  media?: DjiMediaOptions | null;
}

interface Pending {
  gw: string;
  bid: string;
  resolve: (reply: { result: number; output?: unknown }) => void;
}

interface Flight extends FlightPlanInfo {
  /** Followed from its progress only (adopt()): the waypoint count grows with what the dock reports. */
  adopted?: boolean;
  started: boolean;
  ended: boolean;
  startedAt: number;
  distance: number;
  last: { lat: number; lng: number } | null;
  photos: number;
}

interface Gateway {
  live: LiveDevice;
  dock?: DjiDockOsd;
  drone?: DjiDroneOsd;
  droneSn: string;
  droneModel: string | null;
  droneInTopo: boolean;
  /** When the last OSD (dock or drone) arrived (clock ms). */
  osdAt: number;
  /** The pending telemetry emission of the current OSD burst. */
  emitTimer: NodeJS.Timeout | null;
  flight: Flight | null;
}

const EVENT_MEMORY = 200;
const LOG_EVERY_MS = 10_000;
const SWEEP_MS = 1000;
/** How long the partial OSD messages of one period are gathered before the telemetry is emitted. */
const COALESCE_MS = 100;
/** A reason of an adapter refusal that no DJI code names: the device cannot do this command. */
export const DJI_UNSUPPORTED = DjiResult.UNSUPPORTED;

/**
 * The DJI Cloud API adapter (docs/dji.md): DJI docks and Pilot 2 gateways presented as contracts devices.
 * One console device per gateway (`sn_id` = dock sn, `uav_sn` = its drone), served only when registered,
 * enabled and of protocol DJI.
 *
 * - Presence: `update_topo` (always answered) brings a gateway online; `sub_devices: []` powers its drone
 *   off; DJI_OFFLINE_AFTER_MS without OSD takes it offline, judged only once a probe through the broker
 *   came back (a server that was behind reads what queued up first, as the nest adapter does).
 * - Telemetry: partial OSD messages merged per sn into contracts telemetry of the gateway (0.5 Hz).
 * - State: `firmware_version` and the running mission (`state.mission`).
 * - Events: acknowledged (need_reply 1) once every listener's store resolved, repeats (tid+bid) reported
 *   once; `flighttask_progress` becomes flight.start / mission.progress / flight.end, `hms` becomes health.
 * - Commands: contracts flight methods become DJI services (new tid per attempt, same bid, replies matched
 *   on tid+bid); a console command id is tied to its first outcome, so a repeat never flies twice.
 */
export class DjiLink extends EventEmitter<LinkEvents> implements DeviceLink {
  readonly clientId: string;
  private client: MqttClient | null = null;
  private readonly gateways = new Map<string, Gateway>();
  /** drone sn -> gateway sn (from the registry and update_topo). */
  private readonly droneOf = new Map<string, string>();
  private readonly pending = new Map<string, Pending>();
  /** Console command ids -> their outcome (a repeat of the same id is answered, not executed again). */
  private readonly consoleCommands = new Map<string, Promise<CommandOutcome>>();
  /** Events by tid+bid -> the result they are answered with once stored (false: not stored, not answered). */
  private readonly seenEvents = new Map<string, Promise<number | false>>();
  private readonly lastLog = new Map<string, number>();
  private readonly now: () => number;
  private readonly probeTopic: string;
  private readonly probes = new Map<string, number>();
  private readonly live: DjiLive;
  private sessionAt = 0;
  private sweepTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private markReady!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => (this.markReady = resolve));
  readonly stats = { received: 0, accepted: 0, dropped: {} as Partial<Record<DropReason, number>>, othersEvents: 0 };
  readonly counters = new LinkCounters();
  readonly cluster = null;

  constructor(private readonly opts: DjiLinkOptions) {
    super();
    this.clientId = opts.clientId ?? `${SERVER_CLIENT_ID_PREFIX}dji-${randomBytes(6).toString('hex')}`;
    this.now = opts.now ?? Date.now;
    this.probeTopic = `nest-server/v1/probe/${this.clientId}`;
    this.live = new DjiLive(opts.liveIngest ?? null);
  }

  start(): void {
    const client = linkClient(this.opts.inProcess ?? this.opts.url, { clientId: this.clientId, username: this.opts.username, password: this.opts.password });
    this.client = client;
    subscribeEachSession(client, {
      topics: () => {
        const topics: Record<string, { qos: 0 | 1 }> = { [this.probeTopic]: { qos: 0 } };
        for (const t of DJI_SERVER_SUBSCRIPTIONS) topics[t] = { qos: 1 };
        return topics;
      },
      began: () => {
        this.sessionAt = 0;
        this.probes.clear();
      },
      refused: (err, granted) => this.opts.log.warn({ err, granted }, 'dji link: subscription refused by the broker'),
      subscribed: () => {
        this.sessionAt = this.now();
        this.opts.log.info({ clientId: this.clientId }, 'dji link: connected and subscribed');
        this.markReady();
        this.emit('connected');
      },
    });
    client.on('error', (err) => this.logOnce('client-error', { err: err.message }, 'dji link: broker connection error'));
    client.on('message', (topic, payload) => {
      try {
        this.onMessage(topic, payload);
      } catch (err) {
        this.drop('error', topic, String(err));
      }
    });
    this.sweepTimer = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
  }

  ready(): Promise<void> {
    return this.readyPromise;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const g of this.gateways.values()) if (g.emitTimer) clearTimeout(g.emitTimer);
    for (const [tid, p] of this.pending) {
      this.pending.delete(tid);
      p.resolve({ result: -1 });
    }
    const client = this.client;
    this.client = null;
    if (client) await new Promise<void>((resolve) => client.end(true, {}, () => resolve()));
  }

  owns(sn: string): boolean {
    return this.opts.owns?.(sn) ?? true;
  }

  device(sn: string): LiveDevice | undefined {
    return this.gateways.get(sn)?.live;
  }

  isOnline(sn: string): boolean {
    return this.gateways.get(sn)?.live.online ?? false;
  }

  forget(sn: string): void {
    const g = this.gateways.get(sn);
    if (g?.live.online) this.setOnline(g, false);
    if (g?.emitTimer) clearTimeout(g.emitTimer);
    this.gateways.delete(sn);
    for (const [drone, gw] of this.droneOf) if (gw === sn) this.droneOf.delete(drone);
  }

  /** Access is the nest adapter's (one broker): the composite link forwards disconnects there. */
  disconnect(): Promise<void> {
    return Promise.resolve();
  }

  publishInternal(topic: string, payload: string): void {
    this.client?.publish(topic, payload, { qos: 1 });
  }

  /** DJI has no reply-less command the console sends today (sticks go through DRC, not supported yet). */
  publishCommand(): boolean {
    return false;
  }

  // ------------------------------------------------------------------------------------------ commands

  command(sn: string, method: string, data: unknown, opts: CommandOptions = {}): Promise<CommandOutcome> {
    const tid = opts.tid ?? randomUUID();
    const key = `${sn}:${tid}`;
    const known = opts.tid ? this.consoleCommands.get(key) : undefined;
    if (known) return known;
    const run = this.run(sn, method, data, tid, opts);
    if (opts.tid) {
      this.consoleCommands.set(key, run);
      if (this.consoleCommands.size > EVENT_MEMORY) this.consoleCommands.delete(this.consoleCommands.keys().next().value!);
    }
    return run;
  }

  private async run(sn: string, method: string, data: unknown, tid: string, opts: CommandOptions): Promise<CommandOutcome> {
    const g = this.gateways.get(sn);
    if (!g || !g.live.online || !this.connected) {
      if (opts.abortOffline || !g) return { status: 'offline', tid, attempts: 0 };
    }
    const refuse = (code: number, message: string): CommandOutcome => ({ status: 'failed', tid, attempts: 0, reply: this.refusal(code, message) });
    switch (method) {
      case FlightMethod.TAKEOFF:
      case FlightMethod.MISSION_START: {
        const parsed = method === FlightMethod.TAKEOFF ? takeoffCommandData.safeParse(data) : missionStartCommandData.safeParse(data);
        if (!parsed.success) return refuse(DjiResult.BAD_PARAMETER, 'invalid command data');
        const { flight_id: flightId, mission } = parsed.data;
        if (!mission) return this.takeoffToPoint(sn, tid, flightId, 'height' in parsed.data ? parsed.data.height : ONE_KEY_TAKEOFF_HEIGHT, opts);
        return this.flyRoute(sn, tid, flightId, mission, opts);
      }
      case FlightMethod.PROCESS: {
        const parsed = processCommandData.safeParse(data);
        if (!parsed.success) return refuse(DjiResult.BAD_PARAMETER, 'invalid command data');
        const service = parsed.data.control_cmd === 1 ? DjiMethod.FLIGHTTASK_PAUSE : parsed.data.control_cmd === 2 ? DjiMethod.FLIGHTTASK_RECOVERY : DjiMethod.RETURN_HOME;
        return this.outcome(tid, await this.service(sn, service, {}, g?.flight?.flightId ?? randomUUID(), opts));
      }
      case FlightMethod.LAND:
      case FlightMethod.RETURN:
        return this.outcome(tid, await this.service(sn, DjiMethod.RETURN_HOME, {}, g?.flight?.flightId ?? randomUUID(), opts));
      case LinkMethod.VIDEO_START:
      case LinkMethod.VIDEO_STOP: {
        if (!g) return { status: 'offline', tid, attempts: 0 };
        const capacity = (g.live.state?.dji_dock as { live_capacity?: unknown } | undefined)?.live_capacity;
        const r = await this.live.command(method, sn, g.droneSn, capacity, (m, d) => this.service(sn, m, d, randomUUID(), opts));
        if (r.status === 'timeout') return { status: 'timeout', tid, attempts: DJI_SERVICE_MAX_RESENDS + 1 };
        if (r.status === 'failed') return { status: 'failed', tid, attempts: 1, reply: this.refusal(r.code, r.message) };
        return { status: 'ok', tid, attempts: 1, reply: { result: 0, output: r.output } };
      }
      case MaintenanceMethod.UPGRADE: {
        const r = await runOta(data, { sn, httpBase: this.opts.waylines?.base?.() ?? null }, (m, d, bid) => this.service(sn, m, d, bid ?? randomUUID(), opts));
        if (r.status === 'timeout') return { status: 'timeout', tid, attempts: DJI_SERVICE_MAX_RESENDS + 1 };
        if (r.status === 'failed') return { status: 'failed', tid, attempts: r.attempts, reply: this.refusal(r.code, r.message) };
        return { status: 'ok', tid, attempts: r.attempts, reply: { result: 0, output: r.output } };
      }
      case MaintenanceMethod.DEBUG: {
        const r = await runDebug(data, (m, d, bid) => this.service(sn, m, d, bid ?? randomUUID(), opts));
        if (r.status === 'timeout') return { status: 'timeout', tid, attempts: DJI_SERVICE_MAX_RESENDS + 1 };
        if (r.status === 'failed') return { status: 'failed', tid, attempts: r.attempts, reply: this.refusal(r.code, r.message) };
        return { status: 'ok', tid, attempts: r.attempts, reply: { result: 0, output: r.output } };
      }
      default:
        return refuse(DJI_UNSUPPORTED, `${method} is not supported by DJI devices yet`);
    }
  }

  private refusal(code: number, message: string): CommandReplyData {
    return { result: code, message: `${message}: ${djiResultText(code, 'en')}`, output: { reason: code } };
  }

  private outcome(tid: string, r: { result: number; output?: unknown; attempts: number } | null): CommandOutcome {
    if (!r) return { status: 'timeout', tid, attempts: DJI_SERVICE_MAX_RESENDS + 1 };
    if (r.result === 0) return { status: 'ok', tid, attempts: r.attempts, reply: { result: 0, output: r.output } };
    return { status: 'failed', tid, attempts: r.attempts, reply: this.refusal(r.result, 'refused by the device') };
  }

  /** Route: package, flighttask_prepare (bid = flight_id), then flighttask_execute; ok once execute is accepted. */
  private async flyRoute(sn: string, tid: string, flightId: string, plan: MissionPlan, opts: CommandOptions): Promise<CommandOutcome> {
    const g = this.gateways.get(sn);
    if (!this.opts.waylines || !g) return { status: 'failed', tid, attempts: 0, reply: this.refusal(DjiResult.KMZ_UNOBTAINABLE, 'no route store') };
    const file = await this.opts.waylines.put(flightId, plan, g.droneModel);
    if (!file) return { status: 'failed', tid, attempts: 0, reply: this.refusal(DjiResult.BAD_FORMAT, 'route package not written') };
    const resume = plan.start_index > 0;
    const prepare = {
      flight_id: flightId,
      execute_time: Date.now(),
      task_type: 0,
      wayline_type: 0,
      file,
      rth_altitude: Math.round(Math.min(1500, Math.max(20, plan.return_height))),
      out_of_control_action: 0,
      exit_wayline_when_rc_lost: 1,
      rth_mode: 1,
      ...(resume ? { break_point: { index: plan.start_index, state: 1, progress: 0, wayline_id: 0 } } : {}),
    };
    g.flight = {
      flightId,
      missionId: plan.mission_id,
      missionName: plan.name,
      waypointCount: plan.waypoints.length,
      startIndex: 0,
      started: false,
      ended: false,
      startedAt: 0,
      distance: 0,
      last: null,
      photos: 0,
    };
    const prepared = await this.service(sn, DjiMethod.FLIGHTTASK_PREPARE, prepare, flightId, opts);
    if (!prepared || prepared.result !== 0) return this.outcome(tid, prepared);
    return this.outcome(tid, await this.service(sn, DjiMethod.FLIGHTTASK_EXECUTE, { flight_id: flightId }, flightId, opts));
  }

  /** One-key takeoff without a route: climb above the dock and hover there. */
  private async takeoffToPoint(sn: string, tid: string, flightId: string, height: number, opts: CommandOptions): Promise<CommandOutcome> {
    const g = this.gateways.get(sn);
    const dock = g?.dock;
    if (!g || dock?.latitude === undefined || dock.longitude === undefined) {
      return { status: 'failed', tid, attempts: 0, reply: this.refusal(DjiResult.NOT_IDLE, 'dock position unknown') };
    }
    g.flight = { flightId, missionId: null, missionName: null, waypointCount: 0, startIndex: 0, started: false, ended: false, startedAt: 0, distance: 0, last: null, photos: 0 };
    const data = {
      flight_id: flightId,
      target_latitude: dock.latitude,
      target_longitude: dock.longitude,
      target_height: (dock.height ?? 0) + height,
      security_takeoff_height: Math.max(20, Math.min(1500, height)),
      rth_altitude: Math.max(20, Math.min(1500, height)),
      rc_lost_action: 2,
      exit_wayline_when_rc_lost: 1,
      max_speed: 12,
      rth_mode: 1,
      commander_mode_lost_action: 1,
      commander_flight_mode: 1,
      commander_flight_height: Math.max(2, Math.min(3000, height)),
    };
    return this.outcome(tid, await this.service(sn, DjiMethod.TAKEOFF_TO_POINT, data, flightId, opts));
  }

  /**
   * Sends a service and waits for its reply: each attempt with a new tid and the same bid (DJI's rule),
   * the reply matched on both. Null after the last attempt timed out.
   */
  private service(gw: string, method: string, data: unknown, bid: string, opts: CommandOptions): Promise<{ result: number; output?: unknown; attempts: number } | null> {
    const timeoutMs = opts.timeoutMs ?? DJI_SERVICE_TIMEOUT_MS;
    const resends = opts.resends ?? DJI_SERVICE_MAX_RESENDS;
    return new Promise((resolve) => {
      let attempts = 0;
      let current = '';
      let timer: NodeJS.Timeout | null = null;
      const send = () => {
        if (current) this.pending.delete(current);
        attempts++;
        const tid = randomUUID();
        current = tid;
        const sentAt = Date.now();
        this.pending.set(tid, {
          gw,
          bid,
          resolve: (reply) => {
            if (timer) clearTimeout(timer);
            this.pending.delete(tid);
            if (!this.stopped) this.counters.roundTrip(gw, Date.now() - sentAt);
            resolve({ ...reply, attempts });
          },
        });
        this.client?.publish(djiTopic.thing(gw, 'services'), JSON.stringify(djiMessage(method, data, { tid, bid })), { qos: 0 });
        timer = setTimeout(() => {
          if (this.stopped || attempts > resends) {
            this.pending.delete(tid);
            if (!this.stopped) this.counters.timeout(gw);
            resolve(null);
            return;
          }
          send();
        }, timeoutMs);
      };
      send();
    });
  }

  // ------------------------------------------------------------------------------------------ messages

  private onMessage(topic: string, payload: Buffer, again = false): void {
    if (topic === this.probeTopic) return this.judge(payload.toString('utf8'));
    if (!again) this.stats.received++;
    if (payload.byteLength > LINK_MAX_MESSAGE_BYTES) return this.drop('too_large', topic);
    const t = parseDjiTopic(topic);
    if (!t) return this.drop('bad_topic', topic);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return this.drop('bad_envelope', topic, 'not JSON');
    }
    const env = djiData.envelope(json);
    if (!env.success) return this.drop('bad_envelope', topic, env.error.issues[0]?.message);
    const m = env.data;
    // A drone's own osd/state topic: served through its gateway.
    const gwSn = t.channel === 'osd' || t.channel === 'state' ? (this.droneOf.get(t.sn) ?? (m.gateway && m.gateway !== t.sn ? m.gateway : t.sn)) : t.sn;
    const row = this.opts.devices.get(gwSn);
    if (!row) {
      // A gateway the broker let in is registered, perhaps since the directory last loaded (the CLI, another
      // instance): its message is read once more after the reload rather than lost (a first update_topo).
      const reload = again ? null : this.opts.devices.miss(gwSn);
      if (reload) {
        reload.then(
          () => this.onMessage(topic, payload, true),
          () => this.drop('unknown_device', topic),
        );
        return;
      }
      return this.drop('unknown_device', topic);
    }
    if (Number(row.enabled) !== 1) return this.drop('disabled_device', topic);
    if (Number(row.protocol ?? DeviceProtocol.NEST) !== DeviceProtocol.DJI) return this.drop('unknown_device', topic, 'not a DJI device');
    const droneTopic = t.sn !== gwSn;
    if (droneTopic && row.uav_sn && row.uav_sn !== t.sn && this.droneOf.get(t.sn) !== gwSn) return this.drop('unknown_device', topic, 'not the registered drone');
    const g = this.gateway(gwSn, row);
    switch (t.channel) {
      case 'status':
        return this.onStatus(g, m, topic);
      case 'osd':
        return this.onOsd(g, m, topic, droneTopic);
      case 'state':
        return this.onState(g, m, topic, droneTopic);
      case 'events':
        return this.onEvent(g, m, topic);
      case 'requests':
        return this.onRequest(g, m, topic);
      case 'services_reply':
        return this.onReply(g, m, topic);
      default:
        this.accept(gwSn);
        return;
    }
  }

  private gateway(sn: string, row: { uav_sn?: string; uav_model?: string }): Gateway {
    let g = this.gateways.get(sn);
    if (!g) {
      const now = this.now();
      g = {
        live: { sn, online: false, rateHz: DJI_OSD_HZ, firmware: null, heardAt: 0, telemetry: null, telemetryAt: null, telemetryTs: null, state: null, since: now },
        droneSn: row.uav_sn ?? '',
        droneModel: row.uav_model ?? null,
        droneInTopo: true,
        osdAt: 0,
        emitTimer: null,
        flight: null,
      };
      this.gateways.set(sn, g);
    }
    if (row.uav_sn && !g.droneSn) g.droneSn = row.uav_sn;
    if (g.droneSn) this.droneOf.set(g.droneSn, sn);
    return g;
  }

  private onStatus(g: Gateway, m: DjiEnvelope, topic: string): void {
    if (m.method !== DjiMethod.UPDATE_TOPO) return this.drop('bad_method', topic, m.method);
    const topo = djiUpdateTopo.safeParse(m.data ?? {});
    if (!topo.success) return this.drop('bad_data', topic, topo.error.issues[0]?.message);
    this.client?.publish(djiTopic.statusReply(g.live.sn), JSON.stringify(djiMessage(m.method, { result: 0 }, { tid: m.tid, bid: m.bid })), { qos: 1 });
    this.accept(g.live.sn);
    const drone = topo.data.sub_devices[0];
    g.droneInTopo = drone !== undefined;
    if (drone?.sn) {
      g.droneSn = drone.sn;
      this.droneOf.set(drone.sn, g.live.sn);
    }
    const key = drone ? topoModelKey(drone) : null;
    if (key && djiModel(key)) g.droneModel = key;
    this.heard(g);
    this.emitTelemetry(g, true);
  }

  private onOsd(g: Gateway, m: DjiEnvelope, topic: string, droneTopic: boolean): void {
    const now = this.now();
    if (droneTopic) {
      const osd = djiData.droneOsd(m.data ?? {});
      if (!osd.success) return this.drop('bad_data', topic, osd.error.issues[0]?.message);
      g.drone = mergeOsd(g.drone, osd.data);
      const f = g.flight;
      if (f?.started && !f.ended && g.drone.latitude !== undefined && g.drone.longitude !== undefined) {
        const here = { lat: g.drone.latitude, lng: g.drone.longitude };
        if (f.last) f.distance += metresBetween(f.last, here);
        f.last = here;
      }
      if (f && f.missionId === null) this.oneKeyFlight(g, f, osd.data.mode_code);
    } else {
      const osd = djiData.dockOsd(m.data ?? {});
      if (!osd.success) return this.drop('bad_data', topic, osd.error.issues[0]?.message);
      const network = osd.data.network_state;
      if (network && JSON.stringify(network) !== JSON.stringify(g.dock?.network_state)) {
        // The dock's uplink (1 4G / 2 ethernet, quality 0-5, rate KB/s) with the slow facts: on change only.
        this.setState(g, { ...(g.live.state ?? {}), dji_network: network });
      }
      g.dock = mergeOsd(g.dock, osd.data);
      const sub = g.dock.sub_device;
      if (sub?.device_model_key && djiModel(sub.device_model_key)) g.droneModel = sub.device_model_key;
    }
    g.osdAt = now;
    this.accept(g.live.sn, true);
    this.heard(g);
    this.emitTelemetry(g, false);
  }

  /**
   * A one-key takeoff (takeoff_to_point) has no mission progress: its flight starts when the drone's mode
   * says it is airborne and ends when it is back on the ground (standby), as the sortie needs.
   */
  private oneKeyFlight(g: Gateway, f: Flight, mode: number | undefined): void {
    if (mode === undefined || f.ended || !this.owns(g.live.sn)) return;
    const airborne = AIRBORNE_FLIGHT_STATES.includes(flightStateOf(mode));
    const now = this.now();
    const report = (method: string, data: unknown) => {
      const m: LinkEnvelope = { v: LINK_VERSION, tid: `${f.flightId.slice(0, 56)}:${method === FlightMethod.FLIGHT_START ? 's' : 'e'}`, bid: f.flightId, ts: now, method, data };
      this.emit('event', g.live.sn, m, (stored) => void stored.catch((err: unknown) => this.logOnce(`unstored:${g.live.sn}`, { err: String(err) }, 'dji link: flight event not stored')));
    };
    if (!f.started && airborne) {
      f.started = true;
      f.startedAt = now;
      report(FlightMethod.FLIGHT_START, { flight_id: f.flightId, uav_sn: g.droneSn, mission_id: null, mission_name: null, started_at: now });
    } else if (f.started && mode === 0) {
      f.ended = true;
      report(FlightMethod.FLIGHT_END, flightEndOf(f, now, f.distance, f.photos));
    }
  }

  /**
   * Telemetry once per burst: the partial messages of one OSD period (dock and drone) arrive together, so
   * the merged picture is emitted COALESCE_MS after the first of them, then again with the next period.
   * The live record is current at once; `force` (topology changes) emits now.
   */
  private emitTelemetry(g: Gateway, force: boolean): void {
    const now = this.now();
    const f = g.flight;
    const telemetry = telemetryOf({
      dock: g.dock,
      drone: g.drone,
      droneSn: g.droneSn,
      droneInTopo: g.droneInTopo,
      flightTime: f?.started && !f.ended ? (now - f.startedAt) / 1000 : 0,
    });
    if (!telemetry) return;
    g.live.telemetry = telemetry;
    g.live.telemetryAt = now;
    g.live.telemetryTs = now;
    if (force) {
      if (g.emitTimer) clearTimeout(g.emitTimer);
      g.emitTimer = null;
      this.emit('telemetry', g.live.sn, g.live);
      return;
    }
    if (g.emitTimer) return;
    g.emitTimer = setTimeout(() => {
      g.emitTimer = null;
      if (!this.stopped && this.gateways.get(g.live.sn) === g) this.emit('telemetry', g.live.sn, g.live);
    }, COALESCE_MS);
    g.emitTimer.unref();
  }

  private onState(g: Gateway, m: DjiEnvelope, topic: string, droneTopic: boolean): void {
    const data = m.data;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return this.drop('bad_data', topic);
    if (m.need_reply === 1) {
      this.client?.publish(djiTopic.thing(g.live.sn, 'state_reply'), JSON.stringify(djiMessage(undefined, { result: 0 }, { tid: m.tid, bid: m.bid })), { qos: 1 });
    }
    const facts = data as Record<string, unknown>;
    const firmware = typeof facts.firmware_version === 'string' ? facts.firmware_version.slice(0, 64) : undefined;
    // The console's firmware is the dock's; the drone's is kept beside it.
    const next = { ...(g.live.state ?? {}), ...(droneTopic ? { dji_drone: { ...(g.live.state?.dji_drone as object), ...facts } } : { dji_dock: { ...(g.live.state?.dji_dock as object), ...facts } }) };
    if (firmware && !droneTopic) {
      next.firmware = firmware;
      g.live.firmware = firmware;
    }
    this.setState(g, next);
    this.accept(g.live.sn);
  }

  private setState(g: Gateway, next: Record<string, unknown>): void {
    const parsed = stateData.safeParse(next);
    if (!parsed.success) return;
    g.live.state = parsed.data;
    this.emit('state', g.live.sn, g.live);
  }

  // ------------------------------------------------------------------------------------------ events

  private onEvent(g: Gateway, m: DjiEnvelope, topic: string): void {
    if (!m.method) return this.drop('bad_method', topic);
    this.heard(g);
    const sn = g.live.sn;
    if (!this.owns(sn)) {
      this.stats.othersEvents++;
      return;
    }
    this.accept(sn);
    const key = `${sn}:${m.tid}:${m.bid}`;
    let stored = this.seenEvents.get(key);
    if (!stored) {
      const work: Promise<unknown>[] = [];
      const settle = (p: Promise<unknown>) => work.push(p);
      this.translateEvent(g, m, settle);
      stored = Promise.all(work).then(
        (settled) => eventResult(settled),
        (err: unknown) => {
          this.seenEvents.delete(key);
          this.logOnce(`unstored:${sn}`, { sn, tid: m.tid, err: String(err) }, 'dji link: event not stored, not acknowledged (the device re-sends it)');
          return false;
        },
      );
      this.seenEvents.set(key, stored);
      if (this.seenEvents.size > EVENT_MEMORY) this.seenEvents.delete(this.seenEvents.keys().next().value!);
    }
    if (m.need_reply !== 1) return;
    const method = m.method;
    void stored.then((result) => {
      if (result === false) return;
      this.client?.publish(djiTopic.thing(sn, 'events_reply'), JSON.stringify(djiMessage(method, { result }, { tid: m.tid, bid: m.bid })), { qos: 1 });
    });
  }

  /** Reports a DJI event as the contracts events it means. */
  private translateEvent(g: Gateway, m: DjiEnvelope, settle: (p: Promise<unknown>) => void): void {
    const sn = g.live.sn;
    const emit = (method: string, data: unknown, suffix: string) => {
      const envelope: LinkEnvelope = { v: LINK_VERSION, tid: `${m.tid.slice(0, 56)}${suffix}`, bid: m.bid, ts: m.timestamp ?? this.now(), method, data };
      this.emit('event', sn, envelope, settle);
    };
    if (m.method === DjiMethod.HMS) {
      const hms = djiHms.safeParse(m.data ?? {});
      const health = hms.success ? healthOf(hms.data) : null;
      if (health) emit(health.method, health.data, '');
      return;
    }
    if (m.method === DjiMethod.FLIGHTTASK_PROGRESS) {
      const p = djiFlighttaskProgress.safeParse(m.data ?? {});
      if (!p.success) return;
      const flightId = p.data.output.ext?.flight_id ?? m.bid;
      const now = this.now();
      const f = g.flight?.flightId === flightId ? g.flight : this.adopt(g, flightId, p.data, now);
      if (!f || f.ended) return;
      if (f.adopted) f.waypointCount = Math.max(f.waypointCount, Math.round(p.data.output.ext?.current_waypoint_index ?? 0) + 1);
      const view = progressOf(p.data, f, { distance: f.distance, time: f.started ? (now - f.startedAt) / 1000 : 0 });
      if (!view) return;
      f.photos = view.mission.photos;
      if (view.airborne && !f.started) {
        f.started = true;
        f.startedAt = now;
        emit(FlightMethod.FLIGHT_START, { flight_id: f.flightId, uav_sn: g.droneSn, mission_id: f.missionId, mission_name: f.missionName, started_at: now }, ':s');
      }
      emit(FlightMethod.MISSION_PROGRESS, view.mission, ':p');
      this.setState(g, { ...(g.live.state ?? {}), mission: view.mission });
      if (view.terminal) {
        f.ended = true;
        if (view.result !== 0) this.opts.log.info({ sn, flight_id: f.flightId, result: view.result, status: view.status }, 'dji link: mission ended with a device result');
        if (f.started) emit(FlightMethod.FLIGHT_END, flightEndOf(f, now, f.distance, f.photos), ':e');
      }
      return;
    }
    if (m.method === DjiMethod.FILE_UPLOAD_CALLBACK) {
      // A result file the dock put into the upload ingest (media.ts); refused at once when it cannot be one.
      const stored = mediaStoredOf(sn, g.droneSn, m.data, m.timestamp ?? this.now());
      if (isEventRefusal(stored)) {
        this.opts.log.warn({ sn, tid: m.tid, refused: stored.refused }, 'dji link: file_upload_callback refused');
        settle(Promise.resolve(stored));
      } else emit(MediaMethod.STORED, stored, '');
      return;
    }
    // A remote-debug action's progress (bid = the operation id, debug.ts).
    const debug = debugProgressOf(m.method ?? '', m.bid ?? '', m.data);
    if (debug) return emit(MaintenanceMethod.PROGRESS, debug, '');
    // A firmware update's progress (bid = the operation id, ota.ts).
    const ota = otaProgressOf(m.method ?? '', m.bid ?? '', m.data);
    if (ota) return emit(MaintenanceMethod.PROGRESS, ota, '');
    // Other events are reported under their DJI method (no feature reads them yet).
    emit(`dji.${m.method}`, m.data ?? null, '');
  }

  /**
   * Progress of a flight this instance did not start (the server restarted mid-flight, or another instance
   * sent it): followed from here on, its route unknown (waypoint count from what the dock reports). A flight
   * already in the air counts as started, without a second flight.start. Nothing for a flight already over.
   */
  private adopt(g: Gateway, flightId: string, p: DjiFlighttaskProgress, now: number): Flight | null {
    if (DJI_TERMINAL_STATUSES.includes(p.output.status) || !/^[A-Za-z0-9-]{1,64}$/.test(flightId)) return null;
    const step = p.output.progress?.current_step ?? 0;
    const index = Math.max(0, Math.round(p.output.ext?.current_waypoint_index ?? 0));
    const airborne = step >= 20 && step < 24;
    g.flight = {
      flightId,
      missionId: null,
      missionName: null,
      waypointCount: index + 1,
      startIndex: 0,
      adopted: true,
      started: airborne,
      ended: false,
      startedAt: now,
      distance: 0,
      last: null,
      photos: 0,
    };
    return g.flight;
  }

  // ------------------------------------------------------------------------------------------ requests

  private onRequest(g: Gateway, m: DjiEnvelope, topic: string): void {
    if (!m.method) return this.drop('bad_method', topic);
    this.heard(g);
    if (!this.owns(g.live.sn)) return;
    this.accept(g.live.sn);
    const method = m.method;
    void this.answer(g, method, m.data).then(
      (data) => {
        this.client?.publish(djiTopic.thing(g.live.sn, 'requests_reply'), JSON.stringify(djiMessage(method, data, { tid: m.tid, bid: m.bid })), { qos: 1 });
      },
      (err: unknown) => this.logOnce(`request:${g.live.sn}`, { sn: g.live.sn, method, err: String(err) }, 'dji link: request not answered'),
    );
  }

  private async answer(g: Gateway, method: string, data: unknown): Promise<unknown> {
    const sn = g.live.sn;
    switch (method) {
      case DjiMethod.CONFIG:
        return this.opts.productConfig ?? { ntp_server_host: '', app_id: '', app_key: '', app_license: '' };
      case DjiMethod.FLIGHTTASK_RESOURCE_GET: {
        const req = djiResourceGet.safeParse(data ?? {});
        const file = req.success && this.opts.waylines ? await this.opts.waylines.resource(req.data.flight_id) : null;
        return file ? { result: 0, output: { file } } : { result: DjiResult.UNKNOWN_TASK, output: {} };
      }
      case DjiMethod.STORAGE_CONFIG_GET:
        if (this.opts.media) return { result: 0, output: storageConfigOutput(sn, this.opts.media) };
        this.logOnce(`storage:${sn}`, { sn }, 'dji link: storage_config_get refused: result upload from DJI devices is not available yet');
        return { result: DJI_UNSUPPORTED, output: {} };
      case DjiMethod.AIRPORT_BIND_STATUS: {
        const req = djiBindStatusRequest.safeParse(data ?? {});
        const org = await this.opts.organization?.(sn);
        const devices = req.success ? req.data.devices : [];
        return {
          result: 0,
          output: {
            bind_status: devices.map((d) => ({
              sn: d.sn,
              is_device_bind_organization: org !== null && org !== undefined,
              organization_id: org?.id ?? '',
              organization_name: org?.name ?? '',
              device_callsign: d.sn,
            })),
          },
        };
      }
      case DjiMethod.AIRPORT_ORGANIZATION_GET: {
        const org = await this.opts.organization?.(sn);
        return org ? { result: 0, output: { organization_name: org.name } } : { result: DjiResult.BAD_PARAMETER, output: {} };
      }
      case DjiMethod.AIRPORT_ORGANIZATION_BIND: {
        // Devices are bound to their company when registered in the console: binding here changes nothing.
        return { result: 0, output: { err_infos: [] } };
      }
      default:
        return { result: DJI_UNSUPPORTED, output: {} };
    }
  }

  private onReply(g: Gateway, m: DjiEnvelope, topic: string): void {
    const reply = djiServiceReply.safeParse(m.data ?? {});
    if (!reply.success) return this.drop('bad_data', topic);
    this.heard(g);
    const p = this.pending.get(m.tid);
    if (!p && this.opts.clustered) return;
    if (!p || p.gw !== g.live.sn || p.bid !== m.bid) return this.drop('unmatched_reply', topic, m.tid);
    this.accept(g.live.sn);
    p.resolve(reply.data);
  }

  // ------------------------------------------------------------------------------------------ presence

  private heard(g: Gateway): void {
    const now = this.now();
    g.live.heardAt = now;
    if (!g.live.online) this.setOnline(g, true);
  }

  private setOnline(g: Gateway, online: boolean): void {
    g.live.online = online;
    g.live.since = this.now();
    if (online) g.osdAt = Math.max(g.osdAt, this.now());
    this.emit('online', g.live.sn, online, g.live);
  }

  /** When a gateway's silence ends its online period: DJI_OFFLINE_AFTER_MS after its last OSD or this session. */
  private deadline(g: Gateway): number {
    return Math.max(g.osdAt, this.sessionAt) + DJI_OFFLINE_AFTER_MS;
  }

  /**
   * Sends a probe through the broker when a gateway is past its deadline; the judgement waits for it to
   * come back, so everything the broker had queued is read first (link/nest/service.ts, sweep()).
   */
  sweep(): void {
    if (this.sessionAt === 0 || !this.connected) return;
    const now = this.now();
    if (![...this.gateways.values()].some((g) => g.live.online && this.deadline(g) < now)) return;
    setImmediate(() => {
      if (this.stopped || !this.connected) return;
      const id = randomBytes(8).toString('hex');
      this.probes.set(id, this.now());
      if (this.probes.size > 8) this.probes.delete(this.probes.keys().next().value!);
      this.client!.publish(this.probeTopic, id, { qos: 0 });
    });
  }

  private judge(id: string): void {
    const sentAt = this.probes.get(id);
    if (sentAt === undefined) return;
    for (const [k, at] of this.probes) if (at <= sentAt) this.probes.delete(k);
    const silent: Gateway[] = [];
    let online = 0;
    for (const g of this.gateways.values()) {
      if (!g.live.online) continue;
      online++;
      if (this.deadline(g) < sentAt) silent.push(g);
    }
    // Many gateways silent at once: the path is failing, not the docks (link/mass-silence.ts).
    if (this.massSilence.hold(silent.length, online, this.now())) {
      this.logOnce('mass-silence', { silent: silent.length, online, since: this.massSilence.began }, 'dji link: many gateways silent at once, their connections open: presence held (the server or the broker is behind)');
      return;
    }
    for (const g of silent) this.setOnline(g, false);
  }

  private readonly massSilence = new MassSilence();

  // ------------------------------------------------------------------------------------------ logs

  private accept(sn: string, telemetry = false): void {
    this.stats.accepted++;
    this.counters.accepted(sn, telemetry);
  }

  private drop(reason: DropReason, topic: string, detail?: string): void {
    this.stats.dropped[reason] = (this.stats.dropped[reason] ?? 0) + 1;
    // Per device only when the sender is a registered device (as the nest adapter counts).
    const sn = parseDjiTopic(topic)?.sn;
    if (sn && reason !== 'unknown_device' && reason !== 'bad_topic' && this.opts.devices.get(sn)) this.counters.dropped(sn, reason);
    this.logOnce(`${reason}:${topic}`, { topic, reason, detail, dropped: this.stats.dropped[reason] }, 'dji link: message dropped');
  }

  private logOnce(key: string, obj: object, msg: string): void {
    const now = Date.now();
    if (now - (this.lastLog.get(key) ?? 0) < LOG_EVERY_MS) return;
    if (this.lastLog.size > 10_000) this.lastLog.clear();
    this.lastLog.set(key, now);
    this.opts.log.warn(obj, msg);
  }
}
