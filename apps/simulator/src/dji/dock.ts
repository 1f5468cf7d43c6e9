import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { bearing, haversineDistance, offsetMetres } from '@nest/geo';
import { createRng, hashString } from '../rng.js';
import type { Rng } from '../rng.js';
import { KmzError, readWaylineKmz } from './kmz.js';
import { DjiLivePublisher, type LivePublisherOptions } from './live.js';
import { DebugBench } from './debug.js';
import { OtaBench } from './ota.js';
import { DjiMediaUploader, type MediaUploaded } from './media.js';
import type { Wayline } from './kmz.js';
import {
  Cover,
  DOCK2,
  DjiCode,
  DockMode,
  DroneMode,
  ExecStep,
  M30,
  M3D,
  M3D_DRONE_INFO,
  RC_PLUS,
  TERMINAL_STATUSES,
  TaskStep,
  WaylineState,
  djiTopic,
} from './protocol.js';
import type { HmsLevel, HmsModule, ProgressStatus } from './protocol.js';

/**
 * An emulated DJI Dock 2 with its M3D, speaking the DJI Cloud API over MQTT (DJI-CLOUD-API.md): topology,
 * partial OSD at 0.5 Hz, wayline missions from a downloaded `.kmz` with progress events acknowledged by the
 * cloud, pause / recovery / return home / undo, HMS health messages. Simulated time runs `timeScale` times
 * faster than the wall clock; weather and battery follow a seeded random walk, so a run is reproducible.
 */

export interface DjiDockOptions {
  /**
   * What the gateway is: a Dock 2 with an M3D (default), or DJI Pilot 2 on an RC Plus with an M30 (`rc`):
   * then `dockSn` is the RC's sn, there is no dock OSD but the RC's, and wayline services are refused (the
   * Cloud API leaves RC gateways out of them).
   */
  gateway?: 'dock' | 'rc';
  /** Broker URL as the server's CLI prints it (`mqtt_url`). */
  mqttUrl: string;
  username: string;
  password: string;
  dockSn: string;
  droneSn: string;
  /** Dock position; `height` is ellipsoid metres. */
  position: { lat: number; lng: number; height: number; heading?: number };
  seed?: number;
  /**
   * Fair weather only: it never starts raining (wind and temperature still wander). Tests that fly the
   * dock use it, since a shower refuses the takeoff and its start, drawn per simulated second, depends on
   * how fast the machine runs the wall clock.
   */
  calm?: boolean;
  /** Simulated seconds per wall-clock second (default 1; tests 50-200). */
  timeScale?: number;
  /**
   * Send OSD every 2 wall-clock seconds, as a real dock does, however fast simulated time runs (the demo
   * fleet); default: every 2 simulated seconds (tests, which speed time up to wait less).
   */
  osdWallClock?: boolean;
  log?: (line: string) => void;
  /** Any client id works; default `<dockSn>`. */
  clientId?: string;
  /** Wall-clock ms between reconnect attempts (default 1000). */
  reconnectMs?: number;
  /** Start with the drone powered (default true). */
  dronePowered?: boolean;
  firmware?: { dock?: string; drone?: string };
  /** Publish a test picture to the RTMP URL of an accepted live_start_push (live.ts); default off (the push is only answered). */
  liveVideo?: LivePublisherOptions;
}

/** A cloud→dock message as received, in arrival order. */
export interface ReceivedCommand {
  topic: string;
  method: string;
  tid: string;
  bid: string;
  data: unknown;
}

export interface HmsOptions {
  /** 0 inform, 1 notice, 2 alarm (default 1). */
  level?: HmsLevel;
  /** 0 mission, 1 device, 2 media, 3 hms (default 3). */
  module?: HmsModule;
  /** Whose message: the dock (`3-2-0`, default) or the drone (`0-91-0`). */
  device?: 'dock' | 'drone';
  imminent?: 0 | 1;
  args?: { component_index?: number; sensor_index?: number; alarm_id?: number };
}

export interface HmsItem {
  level: HmsLevel;
  module: HmsModule;
  in_the_sky: 0 | 1;
  code: string;
  device_type: string;
  imminent: 0 | 1;
  args: { component_index: number; sensor_index: number; alarm_id?: number };
}

export interface ProgressSent {
  flight_id: string;
  tid: string;
  result: number;
  status: ProgressStatus;
  percent: number;
  current_step: number;
  current_waypoint_index: number;
  wayline_mission_state: number;
  media_count: number;
  break_point?: BreakPoint;
}

export interface DjiDockEvents {
  /** Connected to the broker (again). */
  connect: [];
  /** The link dropped. */
  offline: [];
  /** status_reply to our update_topo arrived. */
  topoAcknowledged: [{ tid: string; subDevices: number }];
  /** The flat reply to our `config` request. */
  config: [Record<string, unknown>];
  /** A command (services / property set) arrived. */
  command: [ReceivedCommand];
  /** We answered a service on services_reply. */
  reply: [{ method: string; tid: string; bid: string; result: number; output?: unknown }];
  /** A wayline kmz was downloaded and accepted. */
  prepared: [{ flight_id: string; waypoints: number; photos: number }];
  /** A flighttask_progress went out (first send). */
  progress: [ProgressSent];
  /** The cloud acknowledged a flighttask_progress on events_reply. */
  progressAcknowledged: [ProgressSent];
  /** An hms event went out. */
  hms: [HmsItem[]];
  /** A live_start_push arrived and was accepted. */
  liveStart: [{ url: string; url_type: number; video_id: string; video_quality: number }];
  liveStop: [{ video_id: string }];
  /** A mission ended (terminal progress sent). */
  missionEnded: [{ flight_id: string; status: ProgressStatus; result: number; media_count: number }];
  /** A photo was uploaded and its file_upload_callback answered (media.ts). */
  mediaUploaded: [MediaUploaded];
}

export interface DjiDock extends EventEmitter<DjiDockEvents> {
  readonly dockSn: string;
  readonly droneSn: string;
  readonly online: boolean;
  /** Every cloud→dock message received, oldest first. */
  readonly commands: readonly ReceivedCommand[];
  /** Flight ids prepared and not yet executed or undone. */
  prepared(): string[];
  /** Simulated drone position and state (for assertions). */
  drone(): { lat: number; lng: number; elevation: number; height: number; mode_code: number; battery: number; inDock: boolean };
  dockState(): { mode_code: number; cover_state: number; flighttask_step_code: number };
  /** Powers the drone on or off inside the dock: update_topo with / without it. Throws while it flies. */
  setDronePower(on: boolean): void;
  raiseHms(code: string, opts?: HmsOptions): void;
  clearHms(code: string): void;
  /** Stops OSD, state and periodic HMS without disconnecting (the cloud should declare the dock offline). */
  goSilent(): void;
  /** Resumes OSD after goSilent. */
  speak(): void;
  /** Sends a file_upload_callback with `file` (and the given tid/bid) and resolves with the cloud's result, null unanswered. */
  mediaCallback(file: Record<string, unknown>, ids?: { tid?: string; bid?: string }): Promise<number | null>;
  /** Photos on the dock not yet uploaded and accepted. */
  mediaPending(): number;
  stop(): Promise<void>;
}

interface PreparedTask {
  flightId: string;
  wayline: Wayline;
  rthAltitude: number;
  /** First waypoint to fly to: 0, or where a broken-off flight resumes (`break_point`). */
  startIndex: number;
  /** Result of the first prepare of this flight id, answered again to a repeat. */
  result: number;
}

type Phase = 'openCover' | 'takeoff' | 'wayline' | 'return' | 'landing' | 'closeCover' | 'exitWork';

interface Mission {
  task: PreparedTask;
  phase: Phase;
  /** Simulated seconds left in a timed phase. */
  phaseLeft: number;
  target: number;
  paused: boolean;
  recovering: number;
  mediaCount: number;
  trackId: string;
  travelled: number;
  total: number;
  status: ProgressStatus;
  result: number;
  /** Simulated seconds since the last progress event. */
  sinceProgress: number;
  lastKey: string;
  /** Where the wayline was broken off, reported as ext.break_point while paused and after an early return. */
  breakAt: BreakPoint | null;
}

export interface BreakPoint {
  index: number;
  state: 0 | 1;
  progress: number;
  wayline_id: number;
  break_reason: number;
  latitude: number;
  longitude: number;
  height: number;
  attitude_head: number;
}

interface PendingEvent {
  topic: string;
  payload: string;
  progress: ProgressSent;
  /** Simulated seconds until it is sent again. */
  resendIn: number;
}

/** The dock camera's payload index (type-subtype-position, position 7). */
const DOCK_CAMERA = '165-0-7';
const OSD_PERIOD_S = 2;
const HMS_PERIOD_S = 10;
const PROGRESS_PERIOD_S = 2;
/** Simulated seconds before an unanswered event or request goes out again (see resendS). */
const EVENT_RESEND_S = 5;
const REQUEST_RESEND_S = 5;
/** Answers travel at wall-clock speed whatever the time scale: resends never come faster than this. */
const RESEND_MIN_REAL_MS = 1_000;
const REQUEST_TRIES = 3;
const COVER_SECONDS = 8;
const TAKEOFF_PREP_SECONDS = 4;
const EXIT_WORK_SECONDS = 3;
const CLIMB_MPS = 5;
const DESCENT_MPS = 3;
const MAX_REPLY_MEMORY = 2_000;
const MAX_PENDING_EVENTS = 500;
const KMZ_MAX_BYTES = 64 * 1024 * 1024;
const FLIGHT_ID_FORBIDDEN = /[<>:"/\\|?*._]/;

/** ms since epoch as the wire wants it. */
const now = (): number => Date.now();

class DockEmulator extends EventEmitter<DjiDockEvents> implements DjiDock {
  readonly dockSn: string;
  readonly droneSn: string;
  readonly commands: ReceivedCommand[] = [];
  private client: MqttClient | null = null;
  private readonly rng: Rng;
  private readonly timeScale: number;
  private readonly rc: boolean;
  private readonly gwModel: typeof DOCK2 | typeof RC_PLUS;
  private readonly droneModel: typeof M3D | typeof M30;
  private readonly log: (line: string) => void;
  private timer: NodeJS.Timeout | null = null;
  private silent = false;
  private stopped = false;
  private lastTick = performance.now();

  // Periodic work in simulated seconds.
  private osdIn = 0;
  private hmsIn = HMS_PERIOD_S;
  private topoPending: { tid: string; resendIn: number } | null = null;
  private configPending: { tid: string; bid: string; resendIn: number } | null = null;

  // Dock.
  private modeCode: number = DockMode.idle;
  private cover: number = Cover.closed;
  private putter = 0;
  private stepCode: number = TaskStep.idle;
  private jobNumber = 0;
  private accTime = 0;
  private readonly activationTime = Math.floor(Date.UTC(2024, 0, 1) / 1000);

  // Weather.
  private temperature: number;
  private humidity: number;
  private wind: number;
  private rainfall = 0;

  // Drone.
  private powered: boolean;
  private lat: number;
  private lng: number;
  private elevation = 0;
  private head = 0;
  private hSpeed = 0;
  private vSpeed = 0;
  private battery: number;
  private rcBattery: number;
  private inDock = true;
  private droneMode: number = DroneMode.standby;
  private sorties = 0;
  private flightSeconds = 0;
  private flightDistance = 0;
  private mediaUsedKb = 12_000_000;

  // Work.
  private readonly preparedTasks = new Map<string, PreparedTask>();
  /** Prepares whose kmz is being fetched, by flight id. */
  private readonly preparing = new Map<string, Promise<number>>();
  private readonly finished = new Map<string, ProgressStatus>();
  private mission: Mission | null = null;
  private readonly replies = new Map<string, Promise<{ result: number; output?: unknown }>>();
  private readonly pendingEvents = new Map<string, PendingEvent>();
  private readonly hmsItems = new Map<string, { opts: HmsOptions; code: string }>();
  private readonly live = new Map<string, number>();
  private livePublisher: DjiLivePublisher | null = null;
  /** The photos' uploads (media.ts). */
  private readonly media: DjiMediaUploader;
  /** Charging may be switched off in remote debug (charge_close). */
  private chargeEnabled = true;
  /** Remote debug (debug.ts): debug mode, cover, drone power, charging and reboot commands. */
  private readonly debug = new DebugBench({
    mode: () => this.modeCode,
    setMode: (mode) => {
      this.modeCode = mode;
    },
    busy: () => this.mission !== null,
    setCover: (state) => {
      this.cover = state;
    },
    setDronePower: (on) => this.setDronePower(on),
    setCharging: (on) => {
      this.chargeEnabled = on;
    },
    reboot: () => this.client?.stream.destroy(),
    progress: (method, bid, status, percent, stepKey) =>
      this.publish(djiTopic.events(this.dockSn), { tid: randomUUID(), bid, timestamp: now(), gateway: this.dockSn, method, need_reply: 0, data: { result: 0, output: { status, progress: { percent, step_key: stepKey } } } }, 1),
    wait: (simSeconds) => new Promise((resolve) => setTimeout(resolve, (simSeconds * 1000) / this.timeScale)),
    weather: () => ({}),
  });
  /** Firmware versions installed by ota_create (ota.ts), over the configured ones. */
  private readonly installed: { dock?: string; drone?: string } = {};
  /** Firmware updates (ota.ts): ota_create, ota_progress, mode_code 3 while upgrading. */
  private readonly ota = new OtaBench({
    sns: () => ({ dock: this.dockSn, drone: this.droneSn }),
    mode: () => this.modeCode,
    setMode: (mode) => {
      this.modeCode = mode;
    },
    busy: () => this.mission !== null,
    setFirmware: (device, version) => {
      this.installed[device] = version;
      this.sendState();
    },
    progress: (bid, result, status, percent, step) =>
      this.publish(
        djiTopic.events(this.dockSn),
        { tid: randomUUID(), bid, timestamp: now(), gateway: this.dockSn, method: 'ota_progress', need_reply: 1, data: { result, output: { status, progress: { percent, current_step: step }, ext: { rate: 0 } } } },
        1,
      ),
    wait: (simSeconds) => new Promise((resolve) => setTimeout(resolve, (simSeconds * 1000) / this.timeScale)),
    log: (line) => this.log(line),
  });
  private readonly pendingRequests = new Map<
    string,
    { bid: string; payload: string; sends: number; resendIn: number; resolve: (reply: { result: number; output?: unknown } | null) => void }
  >();

  constructor(private readonly opts: DjiDockOptions) {
    super();
    this.dockSn = opts.dockSn;
    this.droneSn = opts.droneSn;
    this.timeScale = opts.timeScale ?? 1;
    this.rc = opts.gateway === 'rc';
    this.gwModel = this.rc ? RC_PLUS : DOCK2;
    this.droneModel = this.rc ? M30 : M3D;
    this.log = opts.log ?? (() => {});
    this.media = new DjiMediaUploader({
      dockSn: this.dockSn,
      droneModelKey: this.droneModel.key,
      payloadModelKey: `1-${this.droneModel.payloadIndex.split('-').slice(0, 2).join('-')}`,
      timeScale: this.timeScale,
      request: (method, data) => this.request(method, data),
      publishEvent: (body) => this.publish(djiTopic.events(this.dockSn), body, 1),
      uploaded: (u) => this.emit('mediaUploaded', u),
      log: (line) => this.log(line),
    });
    if (opts.liveVideo) {
      const publisher = (this.livePublisher = new DjiLivePublisher({ log: this.log, ...opts.liveVideo }));
      this.on('liveStart', (s) => publisher.start(s.video_id, s.url, s.video_quality));
      this.on('liveStop', (s) => void publisher.stop(s.video_id));
    }
    this.rng = createRng((hashString(opts.dockSn) ^ (opts.seed ?? 1)) >>> 0);
    this.temperature = this.rng.range(12, 26);
    this.humidity = this.rng.range(40, 70);
    this.wind = this.rng.range(1, 5);
    this.battery = this.rng.range(70, 95);
    this.rcBattery = this.rng.range(60, 90);
    this.powered = opts.dronePowered ?? true;
    this.lat = opts.position.lat;
    this.lng = opts.position.lng;
  }

  get online(): boolean {
    return this.client?.connected ?? false;
  }

  async start(): Promise<void> {
    const client = mqtt.connect(this.opts.mqttUrl, {
      clientId: this.opts.clientId ?? this.dockSn,
      username: this.opts.username,
      password: this.opts.password,
      clean: true,
      keepalive: 30,
      reconnectPeriod: this.opts.reconnectMs ?? 1_000,
      connectTimeout: 10_000,
    });
    this.client = client;
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    client.on('connect', () => {
      this.log(`dji ${this.dockSn}: connected`);
      const gw = this.dockSn;
      const topics = [
        djiTopic.statusReply(gw),
        djiTopic.services(gw),
        djiTopic.eventsReply(gw),
        djiTopic.requestsReply(gw),
        djiTopic.stateReply(gw),
        djiTopic.propertySet(gw),
      ];
      client.subscribe(topics, { qos: 1 }, (err) => {
        if (err) {
          this.log(`dji ${this.dockSn}: subscribe failed: ${err.message}`);
          return;
        }
        this.sendTopo();
        this.sendState();
        this.sendConfigRequest();
        this.emit('connect');
      });
    });
    client.on('close', () => {
      if (!this.stopped) this.emit('offline');
    });
    client.on('error', (err) => this.log(`dji ${this.dockSn}: ${err.message}`));
    await new Promise<void>((resolve, reject) => {
      const onConnect = (): void => {
        client.off('error', onError);
        resolve();
      };
      const onError = (err: Error): void => {
        // A refused login does not get better by retrying: fail the start.
        if ('code' in err && (err.code === 4 || err.code === 5)) {
          client.off('connect', onConnect);
          client.end(true);
          reject(err);
        }
      };
      client.once('connect', onConnect);
      client.on('error', onError);
    });
    this.lastTick = performance.now();
    this.scheduleTick();
  }

  // ---------------------------------------------------------------------------------------------
  // Clock

  /** A resend interval in simulated seconds, never under RESEND_MIN_REAL_MS of wall clock. */
  private resendS(simSeconds: number): number {
    return Math.max(simSeconds, (RESEND_MIN_REAL_MS / 1000) * this.timeScale);
  }

  /** Wall-clock ms between ticks: 0.5 simulated seconds, but never under 10 ms. */
  private tickMs(): number {
    return Math.max(10, 500 / this.timeScale);
  }

  private scheduleTick(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const t = performance.now();
      // Simulated seconds since the last tick, bounded so a stalled event loop does not teleport the drone.
      const dt = Math.min(((t - this.lastTick) / 1000) * this.timeScale, 5);
      this.lastTick = t;
      try {
        this.tick(dt);
      } catch (e) {
        this.log(`dji ${this.dockSn}: ${e instanceof Error ? e.stack : String(e)}`);
      }
      this.scheduleTick();
    }, this.tickMs());
  }

  private tick(dt: number): void {
    this.weather(dt);
    this.fly(dt);
    this.accTime += dt;
    if (this.online) {
      this.resendPending(dt);
      if (!this.silent) {
        this.osdIn -= this.opts.osdWallClock ? dt / this.timeScale : dt;
        if (this.osdIn <= 0) {
          this.osdIn += OSD_PERIOD_S;
          if (this.osdIn <= 0) this.osdIn = OSD_PERIOD_S;
          this.sendOsd();
        }
        this.hmsIn -= dt;
        if (this.hmsIn <= 0) {
          this.hmsIn = HMS_PERIOD_S;
          if (this.hmsItems.size > 0) this.sendHms();
        }
      }
    }
  }

  /** Seeded random walk of the weather around plausible values. */
  private weather(dt: number): void {
    const k = Math.sqrt(Math.max(dt, 0));
    this.temperature = clamp(this.temperature + this.rng.normal() * 0.02 * k, -20, 45);
    this.humidity = clamp(this.humidity + this.rng.normal() * 0.1 * k, 10, 100);
    this.wind = clamp(this.wind + this.rng.normal() * 0.05 * k, 0, 12);
    // The draw is made in calm weather too, so that a seed walks the same wind and temperature either way.
    if (this.rng.chance(0.0005 * dt) && !this.opts.calm) this.rainfall = this.rainfall === 0 ? 1 : 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Publishing

  private publish(topic: string, body: Record<string, unknown>, qos: 0 | 1 = 0): void {
    const client = this.client;
    if (!client?.connected) return;
    client.publish(topic, JSON.stringify(body), { qos }, (err) => {
      if (err) this.log(`dji ${this.dockSn}: publish ${topic} failed: ${err.message}`);
    });
  }

  private envelope(extra: Record<string, unknown>): Record<string, unknown> {
    return { tid: randomUUID(), bid: randomUUID(), timestamp: now(), ...extra };
  }

  private sendTopo(): void {
    const tid = randomUUID();
    this.topoPending = { tid, resendIn: this.resendS(REQUEST_RESEND_S) };
    const sub = this.powered
      ? [
          {
            sn: this.droneSn,
            domain: this.droneModel.domain,
            type: this.droneModel.type,
            sub_type: this.droneModel.subType,
            index: 'A',
            device_secret: secret(this.droneSn),
            nonce: nonce(this.rng),
            thing_version: this.droneModel.thingVersion,
          },
        ]
      : [];
    this.publish(
      djiTopic.status(this.dockSn),
      {
        tid,
        bid: randomUUID(),
        timestamp: now(),
        method: 'update_topo',
        data: {
          domain: this.gwModel.domain,
          type: this.gwModel.type,
          sub_type: this.gwModel.subType,
          device_secret: secret(this.dockSn),
          nonce: nonce(this.rng),
          thing_version: this.gwModel.thingVersion,
          sub_devices: sub,
        },
      },
      1,
    );
  }

  private sendState(): void {
    const fw = { ...this.opts.firmware, ...this.installed };
    this.publish(djiTopic.state(this.dockSn), this.envelope({ gateway: this.dockSn, need_reply: 0, data: { firmware_version: fw.dock ?? '10.01.1612', compatible_status: 0, firmware_upgrade_status: 0 } }), 1);
    if (this.powered) {
      this.publish(djiTopic.state(this.droneSn), this.envelope({ gateway: this.dockSn, need_reply: 0, data: { firmware_version: fw.drone ?? '10.01.1609' } }), 1);
    }
    this.publish(djiTopic.state(this.dockSn), this.envelope({ gateway: this.dockSn, need_reply: 0, data: { live_capacity: this.liveCapacity() } }), 1);
  }

  /** The cameras that can stream: the dock's own (not on an RC) and, while powered, the drone's. */
  private liveCapacity(): Record<string, unknown> {
    const camera = (sn: string, index: string) => ({
      sn,
      available_video_number: 1,
      coexist_video_number_max: 1,
      camera_list: [
        { camera_index: index, available_video_number: 1, coexist_video_number_max: 1, video_list: [{ video_index: 'normal-0', video_type: 'normal', switchable_video_types: index === DOCK_CAMERA ? [] : ['wide', 'zoom'] }] },
      ],
    });
    const devices = [...(this.rc ? [] : [camera(this.dockSn, DOCK_CAMERA)]), ...(this.powered ? [camera(this.droneSn, this.droneModel.payloadIndex)] : [])];
    return { available_video_number: devices.length, coexist_video_number_max: Math.min(2, devices.length), device_list: devices };
  }

  private sendConfigRequest(): void {
    const tid = randomUUID();
    const bid = randomUUID();
    this.configPending = { tid, bid, resendIn: this.resendS(REQUEST_RESEND_S) };
    this.publish(djiTopic.requests(this.dockSn), { tid, bid, timestamp: now(), gateway: this.dockSn, method: 'config', data: { config_type: 'json', config_scope: 'product' } }, 1);
  }

  private sendOsd(): void {
    const gw = this.dockSn;
    const osd = (data: Record<string, unknown>): void => this.publish(djiTopic.osd(gw), this.envelope({ gateway: gw, data }));
    if (this.rc) {
      osd({
        latitude: this.opts.position.lat,
        longitude: this.opts.position.lng,
        height: this.opts.position.height,
        capacity_percent: Math.round(this.rcBattery),
        wireless_link: { dongle_number: 0, '4g_link_state': 0, sdr_link_state: this.powered ? 1 : 0, link_workmode: 0, sdr_quality: this.powered ? 5 : 0, '4g_quality': 0, '4g_freq_band': 0, sdr_freq_band: 2.4 },
      });
    } else this.sendDockOsd(osd);
    this.sendDroneOsd();
  }

  private sendDockOsd(osd: (data: Record<string, unknown>) => void): void {
    const charging = this.inDock && this.powered && this.chargeEnabled && this.battery < 100 ? 1 : 0;
    osd({
      mode_code: this.modeCode,
      cover_state: this.cover,
      putter_state: this.putter,
      drone_in_dock: this.inDock ? 1 : 0,
      drone_charge_state: { state: charging, capacity_percent: Math.round(this.battery) },
      supplement_light_state: 0,
      emergency_stop_state: 0,
      alarm_state: 0,
      latitude: this.opts.position.lat,
      longitude: this.opts.position.lng,
      height: this.opts.position.height,
      heading: this.opts.position.heading ?? 0,
      home_position_is_valid: 1,
      environment_temperature: round1(this.temperature),
      temperature: round1(this.temperature + 3),
      humidity: Math.round(this.humidity),
      wind_speed: round1(this.wind),
      rainfall: this.rainfall,
      network_state: { type: 2, quality: 5, rate: round1(this.rng.range(800, 1200)) },
      position_state: { is_calibration: 1, is_fixed: 2, quality: 5, gps_number: this.rng.int(18, 24), rtk_number: this.rng.int(20, 30) },
      storage: { total: 64_000_000, used: 8_000_000 },
      sub_device: { device_sn: this.droneSn, device_model_key: this.droneModel.key, device_online_status: this.powered ? 1 : 0, device_paired: 1 },
    });
    osd({
      job_number: this.jobNumber,
      acc_time: Math.round(this.accTime),
      activation_time: this.activationTime,
      maintain_status: { maintain_status_array: [{ state: 0, last_maintain_type: 17, last_maintain_time: 0, last_maintain_work_sorties: 0 }] },
      working_voltage: 24_000 + this.rng.int(-200, 200),
      battery_store_mode: 1,
      backup_battery: { voltage: 26_000, temperature: round1(this.temperature + 1), switch: 0 },
    });
    osd({
      drc_state: 0,
      flighttask_step_code: this.stepCode,
      media_file_detail: { remain_upload: 0 },
      wireless_link: { sdr_quality: this.inDock ? 0 : 5, '4g_quality': 0, link_workmode: 0 },
      air_conditioner: { air_conditioner_state: 0, switch_time: 0 },
    });
  }

  private sendDroneOsd(): void {
    if (!this.powered) return;
    const gw = this.dockSn;
    const dockHeight = this.opts.position.height;
    const home = { lat: this.opts.position.lat, lng: this.opts.position.lng };
    this.publish(
      djiTopic.osd(this.droneSn),
      this.envelope({
        gateway: gw,
        data: {
          mode_code: this.droneMode,
          latitude: this.lat,
          longitude: this.lng,
          height: round1(dockHeight + this.elevation),
          elevation: round1(this.elevation),
          attitude_head: round1(this.head > 180 ? this.head - 360 : this.head),
          attitude_pitch: this.inDock ? 0 : round1(this.rng.range(-3, 3)),
          attitude_roll: this.inDock ? 0 : round1(this.rng.range(-2, 2)),
          horizontal_speed: round1(this.hSpeed),
          vertical_speed: round1(this.vSpeed),
          home_distance: Math.round(haversineDistance(home, { lat: this.lat, lng: this.lng })),
          wind_speed: round1(this.wind),
          wind_direction: this.rng.int(1, 8),
          battery: {
            capacity_percent: Math.round(this.battery),
            remain_flight_time: Math.round(this.battery * 24),
            return_home_power: 25,
            landing_power: 10,
            batteries: [
              { index: 0, capacity_percent: Math.round(this.battery), voltage: Math.round(13_200 + this.battery * 30), temperature: round1(this.temperature + 8), sn: `${this.droneSn}-B0`, loop_times: 42 },
            ],
          },
          position_state: { gps_number: this.rng.int(18, 24), is_fixed: 2, quality: 5, rtk_number: this.rng.int(20, 30) },
          storage: { total: 64_000_000, used: this.mediaUsedKb },
          gear: 1,
          height_limit: 500,
          rth_altitude: this.mission?.task.rthAltitude ?? 100,
          rc_lost_action: 2,
          exit_wayline_when_rc_lost: 1,
          total_flight_distance: Math.round(this.flightDistance),
          total_flight_time: Math.round(this.flightSeconds),
          total_flight_sorties: this.sorties,
          track_id: this.mission?.trackId ?? '',
          cameras: [{ payload_index: this.droneModel.payloadIndex, camera_mode: 0, recording_state: 0, remain_photo_num: 9_999, zoom_factor: 1 }],
          [this.droneModel.payloadIndex]: { payload_index: this.droneModel.payloadIndex, gimbal_pitch: this.inDock ? 0 : -45, gimbal_roll: 0, gimbal_yaw: round1(this.head > 180 ? this.head - 360 : this.head), zoom_factor: 1 },
        },
      }),
    );
  }

  private hmsList(): HmsItem[] {
    const flying = !this.inDock;
    return [...this.hmsItems.values()].map(({ code, opts }) => {
      const drone = opts.device === 'drone';
      return {
        level: opts.level ?? 1,
        module: opts.module ?? 3,
        in_the_sky: drone && flying ? 1 : 0,
        code,
        device_type: drone ? this.droneModel.key : this.gwModel.key,
        imminent: opts.imminent ?? 0,
        args: { component_index: opts.args?.component_index ?? 0, sensor_index: opts.args?.sensor_index ?? 0, ...(opts.args?.alarm_id !== undefined ? { alarm_id: opts.args.alarm_id } : {}) },
      };
    });
  }

  private sendHms(): void {
    const list = this.hmsList();
    this.publish(djiTopic.events(this.dockSn), this.envelope({ gateway: this.dockSn, method: 'hms', need_reply: 0, data: { list } }), 1);
    this.emit('hms', list);
  }

  // ---------------------------------------------------------------------------------------------
  // Receiving

  private onMessage(topic: string, payload: Buffer): void {
    let msg: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(payload.toString('utf8'));
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
      msg = v as Record<string, unknown>;
    } catch (e) {
      this.log(`dji ${this.dockSn}: unreadable message on ${topic}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const tid = typeof msg.tid === 'string' ? msg.tid : '';
    const bid = typeof msg.bid === 'string' ? msg.bid : '';
    const method = typeof msg.method === 'string' ? msg.method : '';
    const gw = this.dockSn;
    if (topic === djiTopic.statusReply(gw)) {
      if (this.topoPending && this.topoPending.tid === tid) {
        this.topoPending = null;
        this.emit('topoAcknowledged', { tid, subDevices: this.powered ? 1 : 0 });
      }
      return;
    }
    if (topic === djiTopic.eventsReply(gw)) {
      if (this.media.onEventsReply(tid, bid, msg.data)) return;
      const pending = this.pendingEvents.get(tid);
      if (pending && pending.progress.flight_id === bid) {
        this.pendingEvents.delete(tid);
        this.emit('progressAcknowledged', pending.progress);
      }
      return;
    }
    if (topic === djiTopic.requestsReply(gw)) {
      const pending = this.pendingRequests.get(tid);
      if (pending && pending.bid === bid) {
        this.pendingRequests.delete(tid);
        const d = msg.data && typeof msg.data === 'object' ? (msg.data as Record<string, unknown>) : {};
        pending.resolve({ result: num(d.result) ?? -1, output: d.output });
        return;
      }
      if (method === 'config' && this.configPending && this.configPending.tid === tid && this.configPending.bid === bid) {
        this.configPending = null;
        const data = msg.data && typeof msg.data === 'object' ? (msg.data as Record<string, unknown>) : {};
        this.emit('config', data);
      }
      return;
    }
    if (topic === djiTopic.stateReply(gw)) return;
    const command: ReceivedCommand = { topic, method, tid, bid, data: msg.data };
    this.commands.push(command);
    this.emit('command', command);
    if (topic === djiTopic.propertySet(gw)) {
      this.onPropertySet(tid, bid, msg.data);
      return;
    }
    if (topic === djiTopic.services(gw)) this.onService(method, tid, bid, msg.data);
  }

  private onPropertySet(tid: string, bid: string, data: unknown): void {
    const out: Record<string, { result: number }> = {};
    if (data && typeof data === 'object') {
      for (const key of Object.keys(data)) out[key] = { result: ['height_limit', 'rth_altitude', 'rc_lost_action', 'rth_mode', 'obstacle_avoidance', 'distance_limit_status', 'night_lights_state'].includes(key) ? 0 : 1 };
    }
    this.publish(djiTopic.propertySetReply(this.dockSn), { tid, bid, timestamp: now(), data: out }, 1);
  }

  private onService(method: string, tid: string, bid: string, data: unknown): void {
    // A repeated tid is the same command: answered with its first outcome, never executed twice.
    let outcome = tid ? this.replies.get(tid) : undefined;
    if (!outcome) {
      outcome = this.execute(method, bid, data).catch((e: unknown) => {
        this.log(`dji ${this.dockSn}: ${method} failed: ${e instanceof Error ? e.message : String(e)}`);
        return { result: DjiCode.badParameter };
      });
      if (tid) {
        this.replies.set(tid, outcome);
        if (this.replies.size > MAX_REPLY_MEMORY) this.replies.delete(this.replies.keys().next().value!);
      }
    }
    void outcome.then((r) => {
      this.publish(djiTopic.servicesReply(this.dockSn), { tid, bid, timestamp: now(), method, data: r.output === undefined ? { result: r.result } : { result: r.result, output: r.output } }, 1);
      this.emit('reply', { method, tid, bid, ...r });
    });
  }

  private async execute(method: string, bid: string, raw: unknown): Promise<{ result: number; output?: unknown }> {
    const data = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    if (this.rc && (method.startsWith('flighttask_') || method === 'return_home')) return { result: DjiCode.badParameter };
    switch (method) {
      case 'flighttask_prepare':
        return { result: await this.prepare(data) };
      case 'flighttask_execute':
        return { result: this.startMission(str(data.flight_id) ?? bid) };
      case 'flighttask_undo': {
        const ids = Array.isArray(data.flight_ids) ? data.flight_ids.filter((x): x is string => typeof x === 'string') : [];
        for (const id of ids) this.preparedTasks.delete(id);
        return { result: DjiCode.ok };
      }
      case 'flighttask_pause':
        return { result: this.pause() };
      case 'flighttask_recovery':
        return { result: this.recover() };
      case 'return_home':
        return { result: this.returnHome() };
      case 'live_start_push':
        return this.liveStart(data);
      case 'live_stop_push': {
        const videoId = str(data.video_id) ?? '';
        if (!this.live.delete(videoId)) return { result: DjiCode.notLive };
        this.emit('liveStop', { video_id: videoId });
        return { result: DjiCode.ok };
      }
      case 'live_set_quality': {
        const videoId = str(data.video_id) ?? '';
        if (!this.live.has(videoId)) return { result: DjiCode.notLive };
        this.live.set(videoId, num(data.video_quality) ?? 0);
        return { result: DjiCode.ok };
      }
      default:
        return this.ota.execute(method, bid, data) ?? this.debug.execute(method, bid) ?? { result: DjiCode.badParameter };
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Missions

  private async prepare(data: Record<string, unknown>): Promise<number> {
    const flightId = str(data.flight_id);
    if (!flightId || FLIGHT_ID_FORBIDDEN.test(flightId)) return DjiCode.badParameter;
    const taskType = num(data.task_type) ?? 0;
    if ((taskType === 0 || taskType === 1) && num(data.execute_time) === undefined) return DjiCode.badParameter;
    // The same flight prepared again (a re-send with a new tid): not prepared twice.
    const known = this.preparedTasks.get(flightId);
    if (known) return known.result;
    if (this.finished.has(flightId) || this.mission?.task.flightId === flightId) return DjiCode.ok;
    // A re-send while the first is still downloading shares its outcome.
    const running = this.preparing.get(flightId);
    if (running) return running;
    const attempt = this.fetchAndCheck(flightId, data).finally(() => this.preparing.delete(flightId));
    this.preparing.set(flightId, attempt);
    return attempt;
  }

  /** Fetches and checks a prepare's kmz; on success the flight is prepared. */
  private async fetchAndCheck(flightId: string, data: Record<string, unknown>): Promise<number> {
    if (!this.powered) return DjiCode.notIdle;
    const file = data.file && typeof data.file === 'object' ? (data.file as Record<string, unknown>) : {};
    const url = str(file.url);
    const fingerprint = str(file.fingerprint) ?? '';
    if (!fingerprint) return DjiCode.md5Empty;
    if (!url || !/^https?:\/\//.test(url)) return DjiCode.kmzUnobtainable;
    let got = await this.download(url);
    let want = fingerprint;
    if (got === 'expired') {
      // The stored URL is no longer valid: ask the cloud for a fresh one (flighttask_resource_get).
      const fresh = await this.request('flighttask_resource_get', { flight_id: flightId });
      const f = fresh?.result === 0 && fresh.output && typeof fresh.output === 'object' ? (fresh.output as { file?: { url?: unknown; fingerprint?: unknown } }).file : undefined;
      const freshUrl = str(f?.url);
      if (!freshUrl || !/^https?:\/\//.test(freshUrl)) return DjiCode.kmzUnobtainable;
      want = str(f?.fingerprint) ?? '';
      if (!want) return DjiCode.md5Empty;
      got = await this.download(freshUrl);
    }
    if (typeof got === 'string') return DjiCode.kmzUnobtainable;
    if (got.byteLength > KMZ_MAX_BYTES) return DjiCode.badFormat;
    const bytes = got;
    const md5 = createHash('md5').update(bytes).digest('hex');
    if (md5 !== want) {
      this.log(`dji ${this.dockSn}: kmz fingerprint ${want} but the file's md5 is ${md5}`);
      return DjiCode.md5Mismatch;
    }
    let wayline: Wayline;
    try {
      wayline = readWaylineKmz(bytes);
    } catch (e) {
      this.log(`dji ${this.dockSn}: kmz refused: ${e instanceof KmzError ? e.message : String(e)}`);
      return DjiCode.badFormat;
    }
    if (wayline.droneEnumValue !== M3D_DRONE_INFO.droneEnumValue || wayline.droneSubEnumValue !== M3D_DRONE_INFO.droneSubEnumValue) {
      this.log(`dji ${this.dockSn}: kmz is for drone ${wayline.droneEnumValue}/${wayline.droneSubEnumValue}, docked is the M3D 91/0`);
      return DjiCode.badFormat;
    }
    const rth = num(data.rth_altitude) ?? 100;
    this.preparedTasks.set(flightId, { flightId, wayline, rthAltitude: clamp(rth, 20, 1500), startIndex: resumeIndex(data.break_point, wayline.points.length), result: DjiCode.ok });
    this.emit('prepared', { flight_id: flightId, waypoints: wayline.points.length, photos: wayline.points.reduce((n, p) => n + p.photos, 0) });
    return DjiCode.ok;
  }

  /** The file, or why not: 'expired' (the URL was refused: 401/403/404/410), 'failed' (anything else). */
  private async download(url: string): Promise<Uint8Array | 'expired' | 'failed'> {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      if (!res.ok) {
        this.log(`dji ${this.dockSn}: kmz download ${url}: HTTP ${res.status}`);
        return [401, 403, 404, 410].includes(res.status) ? 'expired' : 'failed';
      }
      return new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      this.log(`dji ${this.dockSn}: kmz download ${url}: ${e instanceof Error ? e.message : String(e)}`);
      return 'failed';
    }
  }

  /**
   * Sends a request on `requests` and resolves with its requests_reply data (matched on tid and bid), or
   * null when none came after REQUEST_TRIES sends REQUEST_RESEND_S simulated seconds apart.
   */
  private request(method: string, data: unknown): Promise<{ result: number; output?: unknown } | null> {
    const tid = randomUUID();
    const bid = randomUUID();
    const body = JSON.stringify({ tid, bid, timestamp: now(), gateway: this.dockSn, method, data });
    return new Promise((resolve) => {
      this.pendingRequests.set(tid, { bid, payload: body, sends: 1, resendIn: this.resendS(REQUEST_RESEND_S), resolve });
      this.client?.publish(djiTopic.requests(this.dockSn), body, { qos: 1 });
    });
  }

  private startMission(flightId: string): number {
    if (this.mission?.task.flightId === flightId || this.finished.has(flightId)) return DjiCode.ok;
    const task = this.preparedTasks.get(flightId);
    if (!task) return DjiCode.unknownTask;
    if (this.mission) return DjiCode.busy;
    if (!this.powered || !this.inDock) return DjiCode.notIdle;
    this.preparedTasks.delete(flightId);
    const home = { lat: this.opts.position.lat, lng: this.opts.position.lng };
    let total = 0;
    let prev = home;
    for (const p of task.wayline.points.slice(task.startIndex)) {
      total += haversineDistance(prev, p);
      prev = p;
    }
    this.mission = {
      task,
      phase: 'openCover',
      phaseLeft: COVER_SECONDS,
      target: task.startIndex,
      paused: false,
      recovering: 0,
      mediaCount: 0,
      trackId: hex(this.rng, 16),
      travelled: 0,
      total: Math.max(total, 1),
      status: 'in_progress',
      result: 0,
      sinceProgress: 0,
      lastKey: '',
      breakAt: null,
    };
    this.jobNumber++;
    this.modeCode = DockMode.working;
    this.stepCode = TaskStep.preparing;
    this.cover = Cover.halfOpen;
    this.putter = 1;
    this.progress();
    return DjiCode.ok;
  }

  private pause(): number {
    const m = this.mission;
    if (!m || m.phase !== 'wayline' || m.paused) return DjiCode.unknownTask;
    m.paused = true;
    m.status = 'paused';
    this.markBreak(m);
    this.droneMode = DroneMode.manual;
    this.hSpeed = 0;
    this.vSpeed = 0;
    this.progress();
    return DjiCode.ok;
  }

  private recover(): number {
    const m = this.mission;
    if (!m || !m.paused) return DjiCode.unknownTask;
    m.paused = false;
    m.status = 'in_progress';
    m.recovering = 2;
    this.droneMode = DroneMode.wayline;
    this.progress();
    return DjiCode.ok;
  }

  private returnHome(): number {
    const m = this.mission;
    if (this.inDock || !m || (m.phase !== 'takeoff' && m.phase !== 'wayline')) return this.inDock ? DjiCode.notAirborne : DjiCode.ok;
    if (m.phase === 'wayline' && !m.paused) this.markBreak(m);
    m.paused = false;
    m.result = DjiCode.userRth;
    m.status = 'in_progress';
    this.enterReturn(m);
    this.progress();
    return DjiCode.ok;
  }

  private enterReturn(m: Mission): void {
    m.phase = 'return';
    this.droneMode = DroneMode.autoRth;
  }

  private liveStart(data: Record<string, unknown>): { result: number } {
    const urlType = num(data.url_type);
    const url = str(data.url) ?? '';
    const videoId = str(data.video_id) ?? '';
    if (urlType !== 1 || !url.startsWith('rtmp://')) return { result: DjiCode.badUrlType };
    if (!this.powered && videoId.startsWith(`${this.droneSn}/`)) return { result: DjiCode.noAircraft };
    if (this.live.has(videoId)) return { result: DjiCode.alreadyLive };
    const quality = num(data.video_quality) ?? 0;
    this.live.set(videoId, quality);
    this.emit('liveStart', { url, url_type: urlType, video_id: videoId, video_quality: quality });
    return { result: DjiCode.ok };
  }

  /** Moves towards `to` (elevation metres above the dock) at `speed`; true when there. */
  private moveTowards(to: { lat: number; lng: number; elevation: number }, speed: number, dt: number): boolean {
    const here = { lat: this.lat, lng: this.lng };
    const dist = haversineDistance(here, to);
    const step = Math.min(dist, speed * dt);
    if (dist > 0.01) {
      this.head = bearing(here, to);
      const north = step * Math.cos((this.head * Math.PI) / 180);
      const east = step * Math.sin((this.head * Math.PI) / 180);
      const p = offsetMetres(here, north, east);
      this.lat = p.lat;
      this.lng = p.lng;
    }
    this.hSpeed = dt > 0 ? step / dt : 0;
    const dz = to.elevation - this.elevation;
    const vmax = (dz > 0 ? CLIMB_MPS : DESCENT_MPS) * dt;
    const vz = Math.sign(dz) * Math.min(Math.abs(dz), vmax);
    this.elevation += vz;
    this.vSpeed = dt > 0 ? vz / dt : 0;
    this.flightDistance += step;
    if (this.mission) this.mission.travelled += this.mission.phase === 'wayline' ? step : 0;
    return dist - step < 0.5 && Math.abs(to.elevation - this.elevation) < 0.5;
  }

  /** Elevation above the dock of a wayline point. */
  private pointElevation(w: Wayline, height: number): number {
    return w.heightMode === 'WGS84' ? height - this.opts.position.height : height;
  }

  private fly(dt: number): void {
    const m = this.mission;
    if (this.rc) this.rcBattery = Math.max(5, this.rcBattery - dt * 0.005);
    if (this.inDock) {
      if (!this.rc && this.powered && this.chargeEnabled && this.battery < 100) this.battery = Math.min(100, this.battery + dt * 0.02);
    } else {
      this.battery = Math.max(0, this.battery - dt * (0.04 + this.wind * 0.002));
      this.flightSeconds += dt;
    }
    if (!m) return;
    const w = m.task.wayline;
    const home = { lat: this.opts.position.lat, lng: this.opts.position.lng };
    switch (m.phase) {
      case 'openCover':
        m.phaseLeft -= dt;
        if (m.phaseLeft <= 0) {
          this.cover = Cover.open;
          m.phase = 'takeoff';
          m.phaseLeft = TAKEOFF_PREP_SECONDS;
          this.droneMode = DroneMode.takeoffPrep;
        }
        break;
      case 'takeoff':
        if (m.phaseLeft > 0) {
          m.phaseLeft -= dt;
          if (m.phaseLeft <= 0) {
            this.droneMode = DroneMode.autoTakeoff;
            this.inDock = false;
            this.sorties++;
            this.stepCode = TaskStep.flying;
          }
          break;
        }
        if (this.moveTowards({ ...home, elevation: Math.max(w.takeOffSecurityHeight, 2) }, 0, dt)) {
          m.phase = 'wayline';
          m.target = m.task.startIndex;
          this.droneMode = DroneMode.wayline;
        }
        break;
      case 'wayline': {
        if (m.paused) {
          this.hSpeed = 0;
          this.vSpeed = 0;
          break;
        }
        if (m.recovering > 0) m.recovering -= dt;
        const p = w.points[m.target]!;
        if (this.moveTowards({ lat: p.lat, lng: p.lng, elevation: this.pointElevation(w, p.height) }, p.speed, dt)) {
          if (p.photos > 0) {
            const shot = { flightId: m.task.flightId, lat: this.lat, lng: this.lng, relativeAltitude: this.elevation, absoluteAltitude: this.opts.position.height + this.elevation };
            for (let i = 0; i < p.photos; i++) this.media.shot({ ...shot, gimbalYaw: round1(this.head > 180 ? this.head - 360 : this.head), takenAt: now() });
            m.mediaCount += p.photos;
            this.mediaUsedKb += 8_000 * p.photos;
          }
          if (m.target + 1 < w.points.length) m.target++;
          else this.enterReturn(m);
        }
        break;
      }
      case 'return': {
        const rth = m.task.rthAltitude;
        if (this.elevation < rth - 0.5 && haversineDistance({ lat: this.lat, lng: this.lng }, home) > 1) {
          this.moveTowards({ lat: this.lat, lng: this.lng, elevation: rth }, 0, dt);
        } else if (this.moveTowards({ ...home, elevation: this.elevation }, 15, dt)) {
          m.phase = 'landing';
          this.droneMode = DroneMode.autoLanding;
        }
        break;
      }
      case 'landing':
        if (this.moveTowards({ ...home, elevation: 0 }, 0, dt)) {
          this.elevation = 0;
          this.inDock = true;
          this.hSpeed = 0;
          this.vSpeed = 0;
          this.droneMode = DroneMode.standby;
          this.stepCode = TaskStep.recovery;
          this.cover = Cover.halfOpen;
          m.phase = 'closeCover';
          m.phaseLeft = COVER_SECONDS;
        }
        break;
      case 'closeCover':
        m.phaseLeft -= dt;
        if (m.phaseLeft <= 0) {
          this.cover = Cover.closed;
          this.putter = 0;
          m.phase = 'exitWork';
          m.phaseLeft = EXIT_WORK_SECONDS;
        }
        break;
      case 'exitWork':
        m.phaseLeft -= dt;
        if (m.phaseLeft <= 0) {
          m.status = m.result === 0 ? 'ok' : 'canceled';
          this.modeCode = DockMode.idle;
          this.stepCode = TaskStep.idle;
          this.progress();
          this.finished.set(m.task.flightId, m.status);
          this.mission = null;
          this.emit('missionEnded', { flight_id: m.task.flightId, status: m.status, result: m.result, media_count: m.mediaCount });
          // Back in the dock: the mission's photos go up (media.ts).
          this.media.release(m.task.flightId);
          return;
        }
        break;
    }
    m.sinceProgress += dt;
    const key = this.progressKey(m);
    if (key !== m.lastKey || m.sinceProgress >= PROGRESS_PERIOD_S) this.progress();
  }

  private stepOf(m: Mission): number {
    switch (m.phase) {
      case 'openCover':
        return ExecStep.openCover;
      case 'takeoff':
        return ExecStep.startWayline;
      case 'wayline':
      case 'return':
        return ExecStep.inFlight;
      case 'landing':
        return ExecStep.landing;
      case 'closeCover':
        return ExecStep.closeCover;
      case 'exitWork':
        return ExecStep.exitWorkMode;
    }
  }

  private stateOf(m: Mission): number {
    if (TERMINAL_STATUSES.includes(m.status)) return WaylineState.finished;
    if (m.paused) return WaylineState.paused;
    if (m.recovering > 0) return WaylineState.recovering;
    switch (m.phase) {
      case 'openCover':
        return WaylineState.preparing;
      case 'takeoff':
        return this.inDock ? WaylineState.dronePreparing : WaylineState.atFirstWaypoint;
      case 'wayline':
        return WaylineState.executing;
      default:
        return WaylineState.finished;
    }
  }

  private percentOf(m: Mission): number {
    if (TERMINAL_STATUSES.includes(m.status)) return 100;
    switch (m.phase) {
      case 'openCover':
        return 1;
      case 'takeoff':
        return 3;
      case 'wayline':
        return Math.min(90, 5 + Math.round((85 * m.travelled) / m.total));
      case 'return':
        return 92;
      case 'landing':
        return 95;
      default:
        return 98;
    }
  }

  /**
   * Where a wayline was broken off (paused, or ended early by a return home): on the segment towards the
   * current target (state 0) with the fraction flown, or at waypoint 0 (state 1) before the first was reached.
   */
  private breakPointOf(m: Mission): BreakPoint | undefined {
    if (!m.paused && m.result === 0) return undefined;
    if (m.breakAt === null) return undefined;
    return m.breakAt;
  }

  private markBreak(m: Mission): void {
    const w = m.task.wayline;
    const target = w.points[m.target]!;
    const prev = m.target > 0 ? w.points[m.target - 1]! : null;
    let progress = 0;
    if (prev) {
      const seg = haversineDistance(prev, target);
      progress = seg > 0 ? clamp(1 - haversineDistance({ lat: this.lat, lng: this.lng }, target) / seg, 0, 1) : 1;
    }
    m.breakAt = {
      index: prev ? m.target - 1 : 0,
      state: prev ? 0 : 1,
      progress: Math.round(progress * 100) / 100,
      wayline_id: w.waylineId,
      break_reason: 0,
      latitude: this.lat,
      longitude: this.lng,
      height: round1(this.opts.position.height + this.elevation),
      attitude_head: round1(this.head > 180 ? this.head - 360 : this.head),
    };
  }

  private progressKey(m: Mission): string {
    return [m.status, this.stepOf(m), m.target, this.stateOf(m), m.mediaCount].join('|');
  }

  /** Sends a flighttask_progress (need_reply 1, bid = flight_id), re-sent until the cloud acknowledges it. */
  private progress(): void {
    const m = this.mission;
    if (!m) return;
    m.sinceProgress = 0;
    m.lastKey = this.progressKey(m);
    const tid = randomUUID();
    const flightId = m.task.flightId;
    const breakPoint = this.breakPointOf(m);
    const sent: ProgressSent = {
      flight_id: flightId,
      tid,
      result: TERMINAL_STATUSES.includes(m.status) ? m.result : 0,
      status: m.status,
      percent: this.percentOf(m),
      current_step: this.stepOf(m),
      current_waypoint_index: m.target,
      wayline_mission_state: this.stateOf(m),
      media_count: m.mediaCount,
    };
    const body = {
      tid,
      bid: flightId,
      timestamp: now(),
      gateway: this.dockSn,
      method: 'flighttask_progress',
      need_reply: 1,
      data: {
        result: sent.result,
        output: {
          status: sent.status,
          progress: { current_step: sent.current_step, percent: sent.percent },
          ext: {
            flight_id: flightId,
            track_id: m.trackId,
            wayline_id: m.task.wayline.waylineId,
            current_waypoint_index: sent.current_waypoint_index,
            wayline_mission_state: sent.wayline_mission_state,
            media_count: sent.media_count,
            ...(breakPoint ? { break_point: breakPoint } : {}),
          },
        },
      },
    };
    const topic = djiTopic.events(this.dockSn);
    const payload = JSON.stringify(body);
    if (breakPoint) sent.break_point = breakPoint;
    this.pendingEvents.set(tid, { topic, payload, progress: sent, resendIn: this.resendS(EVENT_RESEND_S) });
    if (this.pendingEvents.size > MAX_PENDING_EVENTS) this.pendingEvents.delete(this.pendingEvents.keys().next().value!);
    this.client?.publish(topic, payload, { qos: 1 });
    this.emit('progress', sent);
  }

  private resendPending(dt: number): void {
    for (const p of this.pendingEvents.values()) {
      p.resendIn -= dt;
      if (p.resendIn <= 0) {
        p.resendIn = this.resendS(EVENT_RESEND_S);
        this.client?.publish(p.topic, p.payload, { qos: 1 });
      }
    }
    if (this.topoPending) {
      this.topoPending.resendIn -= dt;
      if (this.topoPending.resendIn <= 0) this.sendTopo();
    }
    for (const [tid, r] of this.pendingRequests) {
      r.resendIn -= dt;
      if (r.resendIn > 0) continue;
      if (r.sends >= REQUEST_TRIES) {
        this.pendingRequests.delete(tid);
        r.resolve(null);
        continue;
      }
      r.sends++;
      r.resendIn = this.resendS(REQUEST_RESEND_S);
      this.client?.publish(djiTopic.requests(this.dockSn), r.payload, { qos: 1 });
    }
    if (this.configPending) {
      this.configPending.resendIn -= dt;
      if (this.configPending.resendIn <= 0) this.sendConfigRequest();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // API

  prepared(): string[] {
    return [...this.preparedTasks.keys()];
  }

  drone(): ReturnType<DjiDock['drone']> {
    return {
      lat: this.lat,
      lng: this.lng,
      elevation: this.elevation,
      height: this.opts.position.height + this.elevation,
      mode_code: this.droneMode,
      battery: this.battery,
      inDock: this.inDock,
    };
  }

  dockState(): ReturnType<DjiDock['dockState']> {
    return { mode_code: this.modeCode, cover_state: this.cover, flighttask_step_code: this.stepCode };
  }

  setDronePower(on: boolean): void {
    if (!this.inDock || this.mission) throw new Error('the drone is on a mission');
    if (this.powered === on) return;
    this.powered = on;
    if (this.online) {
      this.sendTopo();
      this.sendState();
    }
  }

  raiseHms(code: string, opts: HmsOptions = {}): void {
    this.hmsItems.set(code, { code, opts });
    this.hmsIn = HMS_PERIOD_S;
    if (!this.silent) this.sendHms();
  }

  clearHms(code: string): void {
    if (!this.hmsItems.delete(code)) return;
    this.hmsIn = HMS_PERIOD_S;
    // The list without it (empty when it was the last) tells the cloud it is over.
    if (!this.silent) this.sendHms();
  }

  mediaCallback(file: Record<string, unknown>, ids?: { tid?: string; bid?: string }): Promise<number | null> {
    return this.media.callback(file, ids);
  }

  mediaPending(): number {
    return this.media.pending();
  }

  goSilent(): void {
    this.silent = true;
  }

  speak(): void {
    this.silent = false;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const r of this.pendingRequests.values()) r.resolve(null);
    this.pendingRequests.clear();
    this.media.stop();
    await this.livePublisher?.stopAll();
    await this.client?.endAsync(true);
  }
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round1 = (v: number): number => Math.round(v * 10) / 10;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);
/**
 * First waypoint of a resumed flight from a prepare's `break_point` `{index, state}`: broken off on the
 * segment after waypoint `index` (state 0) resumes towards `index + 1`; at waypoint `index` (state 1) there.
 */
function resumeIndex(bp: unknown, count: number): number {
  if (!bp || typeof bp !== 'object') return 0;
  const b = bp as Record<string, unknown>;
  const index = num(b.index);
  if (index === undefined || index < 0) return 0;
  const at = num(b.state) === 0 ? index + 1 : index;
  return Math.min(Math.floor(at), count - 1);
}

const hex = (rng: Rng, n: number): string => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
const nonce = (rng: Rng): string => hex(rng, 16);
/** A stable per-device stand-in for the device_secret a real device reports. */
const secret = (sn: string): string => createHash('sha256').update(`dji-emulator:${sn}`).digest('hex').slice(0, 32);

/**
 * Starts an emulated DJI Dock 2 with an M3D (or, with `gateway: 'rc'`, Pilot 2 on an RC Plus with an M30);
 * resolves once it is connected (rejects when the login is refused).
 */
export async function startDjiDock(opts: DjiDockOptions): Promise<DjiDock> {
  const dock = new DockEmulator(opts);
  await dock.start();
  return dock;
}
