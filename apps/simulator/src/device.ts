import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import {
  FlightMethod,
  FlightResult,
  alternateLandingEvent,
  cameraSettingsPatch,
  demoTextOf,
  flightEndEvent,
  flightStartEvent,
  flowProgressSchema,
  gimbalCommandData,
  missionProgressSchema,
  missionStartCommandData,
  modeCommandData,
  processCommandData,
  recordCommandData,
  stickFrameData,
  stickModeCommandData,
  takeoffCommandData,
  zoomCommandData,
  CHANNEL_QOS,
  COMMAND_TID_MEMORY_MS,
  DEFAULT_TELEMETRY_HZ,
  LinkMethod,
  MAX_TELEMETRY_HZ,
  MIN_TELEMETRY_HZ,
  commandReplyData,
  linkEnvelope,
  linkMessage,
  maintProgressEvent,
  MaintenanceMethod,
  parseLinkMessage,
  presenceData,
  stateData,
  telemetryData,
  topicOf,
} from '@nest/contracts';
import type { CameraSettings, DeviceChannel, FlowProgress, LinkEnvelope, MissionProgress, TelemetryData } from '@nest/contracts';
import type { ZodType } from 'zod';
import { flowProgress, isActive } from './flows.js';
import { SimMaintenance, isMaintFault } from './maintenance.js';
import { missionProgress } from './mission.js';
import type { MediaRequest, Refusal } from './ops.js';
import { DeviceModel } from './deviceModel.js';
import type { Facts } from './deviceModel.js';
import { isFault } from './model.js';
import type { Fault } from './model.js';
import { hashString } from './rng.js';
import type { VideoManager } from './video.js';

export const FIRMWARE = 'sim-1.0.0';

export interface SimDeviceSpec {
  sn: string;
  password: string;
  kind: 'stable' | 'stable_mini' | 'mobile' | 'alone';
  name: string;
  uavSn: string;
  home: { lat: number; lng: number; alt: number };
  /** Alternate landing point; default 250 m north-east of home. */
  alternate?: { lat: number; lng: number };
  /** Fair weather only: no showers, light wind (tests whose flights must not divert). */
  calm?: boolean;
}

/**
 * An unacknowledged event is re-sent (same tid) every EVENT_RESEND_MS for its first EVENT_FAST_SENDS sends,
 * then with the interval doubling up to EVENT_RESEND_MAX_MS, until its events_reply arrives or
 * EVENT_GIVE_UP_MS after it was first sent: a server that is slow, restarting, or without its database for
 * a while still gets every event (docs/device-protocol.md section 5).
 */
export const EVENT_RESEND_MS = 5_000;
export const EVENT_FAST_SENDS = 5;
export const EVENT_RESEND_MAX_MS = 60_000;
export const EVENT_GIVE_UP_MS = 60 * 60_000;

/** How long after its `sends`-th send (1-based) an unacknowledged event goes out again. */
export function eventResendDelay(sends: number): number {
  if (sends < EVENT_FAST_SENDS) return EVENT_RESEND_MS;
  return Math.min(EVENT_RESEND_MAX_MS, EVENT_RESEND_MS * 2 ** (sends - EVENT_FAST_SENDS + 1));
}
const MAX_PENDING_EVENTS = 1_000;

export interface DeviceOptions {
  brokerUrl: string;
  rateHz: number;
  seed: number;
  log: (line: string) => void;
  /** Validate every outgoing message against the contracts schemas (development). */
  validate: boolean;
  video: VideoManager | null;
  liveUrlBase: string;
  /** Called on every online / offline change of the MQTT link. */
  onPresence?: (sn: string, online: boolean) => void;
  /** The model advances dt * timeScale per real second (default 1). */
  timeScale?: number;
  /** Photos, panoramas and videos the drone took (rendered and uploaded by the owner). */
  onMedia?: (device: SimDevice, media: MediaRequest) => void;
  /** Server base URL for firmware downloads and log uploads (maintenance.ts); absent: those fail. */
  httpBase?: string | null;
}

/** Result codes of command replies. */
export const RESULT = { ok: 0, unsupported: 1, videoUnavailable: 2, badRequest: 3, failed: 4 } as const;

/** data of a commands_reply (contracts `commandReplyData`). */
interface CommandOutcome {
  result: number;
  message: string;
  output?: unknown;
}

/** Executed tids are remembered COMMAND_TID_MEMORY_MS (and at most this many). */
const REPLY_CACHE_MAX = 10_000;

export const clampRate = (hz: number): number =>
  Number.isFinite(hz) ? Math.min(MAX_TELEMETRY_HZ, Math.max(MIN_TELEMETRY_HZ, hz)) : DEFAULT_TELEMETRY_HZ;

/** One simulated device: its model, its own MQTT client, its timers. */
export class SimDevice {
  readonly model: DeviceModel;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastStep = 0;
  private rateHz: number;
  private lastFacts: Facts | null = null;
  private replies = new Map<string, { outcome: CommandOutcome; at: number }>();
  private stopped = false;
  private stateVersion = -1;
  /** Events waiting for their events_reply, by tid. */
  private pendingEvents = new Map<string, { topicData: string; sends: number; at: number; first: number }>();
  online = false;

  constructor(
    readonly spec: SimDeviceSpec,
    private readonly opts: DeviceOptions,
  ) {
    this.rateHz = clampRate(opts.rateHz);
    this.model = new DeviceModel(
      { kind: spec.kind, uavSn: spec.uavSn, home: spec.home, alternate: spec.alternate, calm: spec.calm },
      (hashString(spec.sn) ^ opts.seed) >>> 0,
    );
    this.timeScale = opts.timeScale ?? 1;
    this.model.ops.now = Date.now();
    this.model.ops.timeScale = this.timeScale;
    this.maint = this.createMaintenance();
  }

  /** Maintenance operations (maintenance.ts) and what they need of this device. */
  readonly maint: SimMaintenance;
  private readonly recentLog: string[] = [];

  private createMaintenance(): SimMaintenance {
    const device = this as SimDevice;
    return new SimMaintenance(
      {
        sn: this.spec.sn,
        password: this.spec.password,
        kind: this.spec.kind,
        httpBase: this.opts.httpBase ?? null,
        timeScale: this.timeScale,
        event: (method, data) => device.sendEvent(method, data, ''),
        stateChanged: () => device.publishStateIfChanged(true),
        busy: () => device.model.drone.inAir || isActive(device.model.ops.flow) || (device.model.ops.mission !== null && device.model.ops.mission.state === 'running'),
        rtkLost: () => device.model.faults.has('rtk_loss'),
        setRtk: (status, ntrip) => {
          device.model.drone.rtkStatus = status;
          device.model.drone.ntripState = ntrip;
        },
        reboot: (ms) => device.reboot(ms),
        logLines: () => [...device.recentLog],
        log: (line) => device.opts.log(line),
      },
      FIRMWARE,
    );
  }

  /** A line for the nest log (the last 500 are uploaded by a log request). */
  private note(line: string): void {
    this.recentLog.push(`${new Date().toISOString()} ${line}`);
    if (this.recentLog.length > 500) this.recentLog.splice(0, this.recentLog.length - 500);
  }

  /** Drops the link (the broker publishes the last-will) and connects again after `ms`, as a reboot does. */
  reboot(ms: number): void {
    this.note('rebooting');
    this.dropLink();
    setTimeout(() => {
      if (this.stopped || this.model.faults.has('offline')) return;
      this.connect().catch((err: unknown) => this.opts.log(String(err)));
    }, ms).unref();
  }

  readonly timeScale: number;

  get sn(): string {
    return this.spec.sn;
  }

  get rate(): number {
    return this.rateHz;
  }

  telemetry(): TelemetryData {
    return this.model.telemetry();
  }

  /** Connects; resolves on the first CONNACK, rejects when the broker refuses or cannot be reached. */
  connect(): Promise<void> {
    this.stopped = false;
    const { sn } = this.spec;
    const will = this.envelope(LinkMethod.PRESENCE, { online: false });
    const client = mqtt.connect(this.opts.brokerUrl, {
      clientId: sn,
      username: sn,
      password: this.spec.password,
      clean: true,
      keepalive: 10,
      reconnectPeriod: 2_000,
      connectTimeout: 10_000,
      resubscribe: false,
      protocolVersion: 4,
      will: { topic: topicOf(sn, 'presence'), payload: Buffer.from(JSON.stringify(will)), ...CHANNEL_QOS.presence },
    });
    this.client = client;
    client.on('connect', () => {
      this.setOnline(true);
      client.subscribe(
        [topicOf(sn, 'commands'), topicOf(sn, 'events_reply')],
        { qos: CHANNEL_QOS.commands.qos },
        (err) => {
          if (err) this.opts.log(`${sn}: subscribe failed: ${err.message}`);
        },
      );
      this.publishPresence();
      this.lastFacts = null;
      this.publishStateIfChanged();
    });
    client.on('close', () => this.setOnline(false));
    client.on('message', (topic, payload) => {
      if (topic === topicOf(sn, 'commands')) this.onCommand(payload);
      else if (topic === topicOf(sn, 'events_reply')) this.onEventReply(payload);
    });
    this.startTimer();
    return new Promise<void>((resolve, reject) => {
      const onConnect = (): void => {
        client.off('error', onError);
        resolve();
      };
      const onError = (err: Error): void => {
        client.off('connect', onConnect);
        client.end(true);
        reject(new Error(`${sn}: cannot connect to ${this.opts.brokerUrl}: ${err.message}`));
      };
      client.once('connect', onConnect);
      client.once('error', onError);
      client.on('error', (err) => this.opts.log(`${sn}: ${err.message}`));
    });
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.opts.onPresence?.(this.spec.sn, online);
  }

  /** Destroys the link WITHOUT a clean disconnect, so the broker publishes the last-will. */
  dropLink(): void {
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners('close');
      c.end(true);
    }
    this.setOnline(false);
  }

  inject(fault: Fault): void {
    this.note(`fault ${fault}`);
    if (fault === 'offline') {
      if (!this.model.faults.has('offline')) {
        this.model.inject('offline');
        this.dropLink();
      }
      return;
    }
    this.model.inject(fault);
    this.publishStateIfChanged(true);
  }

  clear(fault?: Fault): void {
    const wasOffline = this.model.faults.has('offline');
    this.model.clear(fault);
    if (wasOffline && !this.model.faults.has('offline') && !this.stopped) {
      this.connect().catch((err: unknown) => this.opts.log(String(err)));
    } else {
      this.publishStateIfChanged(true);
    }
  }

  setRate(hz: number): void {
    this.rateHz = clampRate(hz);
    this.startTimer();
    this.publishPresence();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.maint.stop();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.opts.video?.stop(this.spec.sn);
    const c = this.client;
    this.client = null;
    if (!c) return;
    // A clean stop: say offline ourselves (retained), then disconnect cleanly.
    if (c.connected) {
      await new Promise<void>((resolve) => {
        const env = this.envelope(LinkMethod.PRESENCE, { online: false });
        c.publish(topicOf(this.spec.sn, 'presence'), JSON.stringify(env), CHANNEL_QOS.presence, () => resolve());
        setTimeout(resolve, 1_000).unref();
      });
    }
    c.removeAllListeners('close');
    await new Promise<void>((resolve) => c.end(false, {}, () => resolve()));
    this.setOnline(false);
  }

  private startTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.lastStep = Date.now();
    this.timer = setInterval(() => this.tick(), Math.round(1000 / this.rateHz));
  }

  /** One period: advance the model by the real elapsed time, publish telemetry and any state change. */
  tick(): void {
    const now = Date.now();
    const dt = Math.min(10, Math.max(0, (now - this.lastStep) / 1000));
    this.lastStep = now;
    this.model.step(dt * this.timeScale, now);
    this.drainOps();
    if (!this.client?.connected) return;
    this.publish('telemetry', LinkMethod.TELEMETRY, this.model.telemetry());
    this.publishStateIfChanged();
    this.resendEvents(now);
  }

  /** Publishes what the operations raised (events, state) and hands media to the owner. */
  private drainOps(): void {
    const ops = this.model.ops;
    for (const e of ops.events.splice(0)) this.sendEvent(e.method, e.data, e.bid);
    for (const m of ops.media.splice(0)) this.opts.onMedia?.(this, m);
    if (ops.version !== this.stateVersion) this.publishStateIfChanged(true);
  }

  /** An event goes out now and again every EVENT_RESEND_MS (same tid) until acknowledged. */
  private sendEvent(method: string, data: unknown, bid: string): void {
    const env = this.envelope(method, data, randomUUID(), bid);
    const topicData = JSON.stringify(env);
    if (this.opts.validate) {
      const problem = validateOutgoing('events', env);
      if (problem) {
        this.opts.log(`${this.spec.sn}: NOT sending invalid event ${method}: ${problem}`);
        return;
      }
    }
    const p = { topicData, sends: 0, at: 0, first: 0 };
    this.pendingEvents.set(env.tid, p);
    // Offline for long: keep the newest events only (the retained state has the latest facts anyway).
    for (const tid of this.pendingEvents.keys()) {
      if (this.pendingEvents.size <= MAX_PENDING_EVENTS) break;
      this.pendingEvents.delete(tid);
    }
    this.resendEvents(Date.now());
  }

  private resendEvents(now: number): void {
    const c = this.client;
    if (!c?.connected) return;
    for (const [tid, p] of this.pendingEvents) {
      if (p.sends > 0 && now - p.first > EVENT_GIVE_UP_MS) {
        this.opts.log(`${this.spec.sn}: event ${tid} not acknowledged within ${EVENT_GIVE_UP_MS / 60_000} min, given up`);
        this.pendingEvents.delete(tid);
        continue;
      }
      if (p.sends > 0 && now - p.at < eventResendDelay(p.sends)) continue;
      if (p.sends === 0) p.first = now;
      p.sends += 1;
      p.at = now;
      c.publish(topicOf(this.spec.sn, 'events'), p.topicData, CHANNEL_QOS.events);
    }
  }

  private onEventReply(payload: Buffer): void {
    const parsed = parseLinkMessage(payload);
    if (parsed.ok) this.pendingEvents.delete(parsed.message.tid);
  }

  /** Events sent and not yet acknowledged (tests). */
  get unacknowledgedEvents(): number {
    return this.pendingEvents.size;
  }

  private publishPresence(): void {
    if (!this.client?.connected) return;
    this.publish('presence', LinkMethod.PRESENCE, { online: true, rate_hz: this.rateHz, firmware: this.maint.firmware });
  }

  /** Publishes the retained `state` message when a fact changed (or when forced). */
  private publishStateIfChanged(force = false): void {
    if (!this.client?.connected) return;
    const facts = this.model.facts();
    const prev = this.lastFacts;
    const changed: Facts = {};
    for (const [k, v] of Object.entries(facts)) if (!prev || prev[k] !== v) changed[k] = v;
    if (!force && prev && Object.keys(changed).length === 0) return;
    this.lastFacts = facts;
    this.stateVersion = this.model.ops.version;
    const data: StateMessageData = { ...this.snapshot(facts), changed };
    this.publish('state', LinkMethod.STATE, data);
  }

  /** Full state snapshot carried by every `state` message (documented in docs/simulator.md). */
  snapshot(facts: Facts = this.model.facts()): StateSnapshot {
    const t = this.model.telemetry();
    const video = this.opts.video?.isWanted(this.spec.sn) ?? false;
    const ops = this.model.ops;
    return {
      flow: ops.flow ? flowProgress(ops.flow) : null,
      mission: ops.mission ? missionProgress(ops.mission) : null,
      camera: { ...ops.camera.settings },
      stick_mode: ops.stickMode,
      recording: ops.camera.recording !== null,
      gimbal: { pitch: ops.camera.gimbalPitch, yaw: ops.camera.gimbalYaw },
      sn: this.spec.sn,
      kind: this.spec.kind,
      name: this.spec.name,
      firmware: this.maint.firmware,
      rate_hz: this.rateHz,
      faults: [...this.model.faults].sort(),
      video: { streaming: video, url: video ? this.videoUrl() : null },
      nest: t.nest
        ? { hatch: t.nest.hatch, platform: t.nest.platform, tripod: t.nest.tripod, charger: t.nest.charger, drone_power: t.nest.drone_power }
        : null,
      drone: {
        sn: this.spec.uavSn,
        flight_state: t.drone?.flight_state ?? 0,
        flight_mode: t.drone?.flight_mode ?? 0,
        powered: facts['drone.powered'] === true,
        charging: facts['drone.charging'] === true,
        rtk_status: t.drone?.rtk.status ?? 0,
        ntrip_state: t.drone?.rtk.ntrip_state ?? 0,
        battery_percent: Math.round(t.drone?.battery.percent ?? 0),
      },
      maintenance: this.maint.snapshot(),
    };
  }

  /** The video manager gave this device's stream up: the retained state says it no longer streams. */
  videoGivenUp(): void {
    this.publishStateIfChanged(true);
  }

  videoUrl(): string {
    return `${this.opts.liveUrlBase.replace(/\/+$/, '')}/${this.spec.sn}/index.m3u8`;
  }

  private envelope<D>(method: string, data: D, tid: string = randomUUID(), bid = ''): LinkEnvelope<D> {
    return linkMessage(method, data, { tid, bid });
  }

  /** Publishes on one of our channels with the contracts' QoS / retain of that channel. */
  private publish(channel: DeviceChannel, method: string, data: unknown, tid?: string, bid?: string): void {
    const c = this.client;
    if (!c?.connected) return;
    const env = this.envelope(method, data, tid, bid);
    if (this.opts.validate) {
      const problem = validateOutgoing(channel, env);
      if (problem) {
        this.opts.log(`${this.spec.sn}: NOT sending invalid ${channel} message: ${problem}`);
        return;
      }
    }
    c.publish(topicOf(this.spec.sn, channel), JSON.stringify(env), CHANNEL_QOS[channel]);
  }

  private onCommand(payload: Buffer): void {
    const parsed = parseLinkMessage(payload);
    if (!parsed.ok) {
      this.opts.log(`${this.spec.sn}: dropped malformed command: ${parsed.reason}`);
      return;
    }
    const cmd = parsed.message;
    // Stick frames are fire-and-forget: no reply, no tid memory.
    if (cmd.method === FlightMethod.STICK) {
      const f = stickFrameData.safeParse(cmd.data);
      if (f.success) this.model.ops.stickFrame(f.data);
      return;
    }
    const now = Date.now();
    // Forget tids older than the contracts' memory (the map is in insertion order).
    for (const [tid, r] of this.replies) {
      if (now - r.at <= COMMAND_TID_MEMORY_MS && this.replies.size <= REPLY_CACHE_MAX) break;
      this.replies.delete(tid);
    }
    let outcome = this.replies.get(cmd.tid)?.outcome;
    if (!outcome) {
      try {
        outcome = this.execute(cmd.method, cmd.data);
      } catch (err) {
        outcome = { result: RESULT.failed, message: (err instanceof Error ? err.message : String(err)).slice(0, 256) };
      }
      this.replies.set(cmd.tid, { outcome, at: now });
      // What the command started (flow, flight.start, ...) goes out right after its reply.
      queueMicrotask(() => this.drainOps());
    }
    // The reply method must fit the envelope's 64 characters too.
    this.publish('commands_reply', `${cmd.method.slice(0, 58)}_reply`, outcome, cmd.tid, cmd.bid);
    // Faults injected by command that take the link down go after the reply.
    if (this.pendingOffline) {
      this.pendingOffline = false;
      setTimeout(() => this.inject('offline'), 50);
    }
  }

  private pendingOffline = false;

  /** Executes one command; the outcome is remembered by tid. */
  private execute(method: string, data: unknown): CommandOutcome {
    this.note(`command ${method}`);
    const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    switch (method) {
      case LinkMethod.VIDEO_START: {
        const v = this.opts.video;
        if (!v) return { result: RESULT.videoUnavailable, message: 'video unavailable', output: { reason: 'noVideo' } };
        // Why there is no video (no ffmpeg, ffmpeg given up) travels in output.reason: the console says it.
        const problem = v.problem(this.spec.sn);
        if (problem) return { result: RESULT.videoUnavailable, message: `video unavailable: ${problem.detail}`.slice(0, 256), output: { reason: problem.reason } };
        // One picture for every viewer: a demo name (shown per viewer's language elsewhere) is left out, the sn stays.
        v.start(this.spec.sn, demoTextOf(this.spec.name) ? '' : this.spec.name);
        this.publishStateIfChanged(true);
        return { result: RESULT.ok, message: 'started', output: { url: this.videoUrl() } };
      }
      case LinkMethod.VIDEO_STOP: {
        this.opts.video?.stop(this.spec.sn);
        this.publishStateIfChanged(true);
        return { result: RESULT.ok, message: 'stopped' };
      }
      case 'fault.inject': {
        if (isMaintFault(d.fault)) {
          this.maint.faults.add(d.fault);
          return { result: RESULT.ok, message: `injected ${d.fault}` };
        }
        if (!isFault(d.fault)) return { result: RESULT.badRequest, message: `unknown fault: ${String(d.fault)}` };
        if (d.fault === 'offline') this.pendingOffline = true;
        else this.inject(d.fault);
        return { result: RESULT.ok, message: `injected ${d.fault}` };
      }
      case 'fault.clear': {
        if (isMaintFault(d.fault)) {
          this.maint.faults.delete(d.fault);
          return { result: RESULT.ok, message: `cleared ${d.fault}` };
        }
        if (d.fault === undefined) this.maint.faults.clear();
        if (d.fault !== undefined && !isFault(d.fault)) return { result: RESULT.badRequest, message: `unknown fault: ${String(d.fault)}` };
        this.clear(d.fault);
        return { result: RESULT.ok, message: d.fault ? `cleared ${d.fault}` : 'cleared all faults' };
      }
      default:
        return this.maint.execute(method, data) ?? this.executeFlight(method, data) ?? { result: RESULT.unsupported, message: 'unsupported' };
    }
  }

  /** Flight operations (docs/device-protocol.md 9.1); null for a method that is not one. */
  private executeFlight(method: string, data: unknown): CommandOutcome | null {
    const ops = this.model.ops;
    // Data that fails its schema is answered with result 3 (BAD_REQUEST) and does nothing.
    let badRequest: CommandOutcome | null = null;
    const parse = <T>(schema: ZodType<T>): T => {
      const r = schema.safeParse(data ?? {});
      if (r.success) return r.data;
      badRequest = { result: FlightResult.BAD_REQUEST, message: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ').slice(0, 256) };
      return undefined as T;
    };
    const bad = (_: unknown): boolean => badRequest !== null;
    const answer = (r: Refusal | null, ok = 'ok'): CommandOutcome =>
      r ? { result: FlightResult.REFUSED, message: `refused ${JSON.stringify(r)}`, output: r } : { result: FlightResult.OK, message: ok };
    switch (method) {
      case FlightMethod.TAKEOFF: {
        const d = parse(takeoffCommandData);
        return bad(d) ? badRequest! : answer(ops.takeoff(d), 'takeoff started');
      }
      case FlightMethod.LAND:
        return answer(ops.land(), 'landing');
      case FlightMethod.PROCESS: {
        const d = parse(processCommandData);
        return bad(d) ? badRequest! : answer(ops.control(d.control_cmd));
      }
      case FlightMethod.MISSION_START: {
        const d = parse(missionStartCommandData);
        return bad(d) ? badRequest! : answer(ops.missionStart(d), 'mission started');
      }
      case FlightMethod.RETURN:
        return answer(ops.returnHome(), 'returning');
      case FlightMethod.LAND_HERE:
        return answer(ops.landHere(), 'landing here');
      case FlightMethod.MODE: {
        const d = parse(modeCommandData);
        return bad(d) ? badRequest! : answer(ops.setMode(d.mode));
      }
      case FlightMethod.STICK_MODE: {
        const d = parse(stickModeCommandData);
        return bad(d) ? badRequest! : answer(ops.setStickMode(d.on));
      }
      case FlightMethod.GIMBAL: {
        const d = parse(gimbalCommandData);
        if (bad(d)) return badRequest!;
        ops.setGimbal(d);
        return answer(null);
      }
      case FlightMethod.ZOOM: {
        const d = parse(zoomCommandData);
        if (bad(d)) return badRequest!;
        ops.setZoom(d.zoom);
        return answer(null);
      }
      case FlightMethod.CAMERA_SET: {
        const r = cameraSettingsPatch.safeParse(data ?? {});
        // An invalid setting is a refusal with reason 17 (9.1), not a schema error of the envelope.
        if (!r.success) return { result: FlightResult.REFUSED, message: r.error.issues[0]?.message ?? 'bad value', output: { reason: 17 } };
        ops.setCamera(r.data);
        return answer(null);
      }
      case FlightMethod.PHOTO:
        return answer(ops.photo(), 'photo');
      case FlightMethod.RECORD: {
        const d = parse(recordCommandData);
        return bad(d) ? badRequest! : answer(ops.record(d.on));
      }
      default:
        return null;
    }
  }
}

export interface StateSnapshot {
  /** contracts stateSnapshot: the running (or last) flow and mission, the camera settings, stick mode. */
  flow: FlowProgress | null;
  mission: MissionProgress | null;
  camera: CameraSettings;
  stick_mode: boolean;
  /** Extra facts (not read by the server today): recording on, gimbal angles (deg). */
  recording: boolean;
  gimbal: { pitch: number; yaw: number };
  sn: string;
  kind: SimDeviceSpec['kind'];
  name: string;
  firmware: string;
  rate_hz: number;
  faults: Fault[];
  /** `streaming` is what the contracts' `stateData.video` carries; `url` is the playlist path when streaming. */
  video: { streaming: boolean; url: string | null };
  nest: { hatch: number; platform: number; tripod: number; charger: number; drone_power: number } | null;
  drone: {
    sn: string;
    flight_state: number;
    flight_mode: number;
    powered: boolean;
    charging: boolean;
    rtk_status: number;
    ntrip_state: number;
    battery_percent: number;
  };
  /** Maintenance facts (maintenance.ts): firmware, stored azimuth / beacon, RTK caster (no password), running kinds. */
  maintenance: ReturnType<SimMaintenance['snapshot']>;
}

/** data of a `state` message: the full snapshot plus the facts that changed (flat keys). */
export type StateMessageData = StateSnapshot & { changed: Facts };

const EVENT_SCHEMAS: Record<string, ZodType> = {
  [FlightMethod.FLOW_PROGRESS]: flowProgressSchema,
  [FlightMethod.MISSION_PROGRESS]: missionProgressSchema,
  [FlightMethod.FLIGHT_START]: flightStartEvent,
  [FlightMethod.FLIGHT_END]: flightEndEvent,
  [FlightMethod.ALTERNATE]: alternateLandingEvent,
  [MaintenanceMethod.PROGRESS]: maintProgressEvent,
};

/** Why an outgoing message does not match the contracts, or null when it does. */
export function validateOutgoing(channel: DeviceChannel, env: unknown): string | null {
  const e = linkEnvelope.safeParse(env);
  if (!e.success) return e.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  const schema =
    channel === 'telemetry'
      ? telemetryData
      : channel === 'presence'
        ? presenceData
        : channel === 'state'
          ? stateData
          : channel === 'commands_reply'
            ? commandReplyData
            : null;
  const eventSchema = channel === 'events' ? EVENT_SCHEMAS[e.data.method] : undefined;
  if (!schema && !eventSchema) return null;
  const r = (schema ?? eventSchema)!.safeParse(e.data.data);
  return r.success ? null : r.error.issues.map((i) => `data.${i.path.join('.')}: ${i.message}`).join('; ');
}
