import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import {
  CHANNEL_QOS,
  COMMAND_TID_MEMORY_MS,
  DEFAULT_TELEMETRY_HZ,
  LinkMethod,
  MAX_TELEMETRY_HZ,
  MIN_TELEMETRY_HZ,
  commandReplyData,
  linkEnvelope,
  linkMessage,
  parseLinkMessage,
  presenceData,
  stateData,
  telemetryData,
  topicOf,
} from '@nest/contracts';
import type { DeviceChannel, LinkEnvelope, TelemetryData } from '@nest/contracts';
import { DeviceModel, isFault } from './model.js';
import type { Facts, Fault } from './model.js';
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
}

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
  online = false;

  constructor(
    readonly spec: SimDeviceSpec,
    private readonly opts: DeviceOptions,
  ) {
    this.rateHz = clampRate(opts.rateHz);
    this.model = new DeviceModel(
      { kind: spec.kind, uavSn: spec.uavSn, home: spec.home },
      (hashString(spec.sn) ^ opts.seed) >>> 0,
    );
  }

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
    this.model.step(dt);
    if (!this.client?.connected) return;
    this.publish('telemetry', LinkMethod.TELEMETRY, this.model.telemetry());
    this.publishStateIfChanged();
  }

  private publishPresence(): void {
    if (!this.client?.connected) return;
    this.publish('presence', LinkMethod.PRESENCE, { online: true, rate_hz: this.rateHz, firmware: FIRMWARE });
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
    const data: StateMessageData = { ...this.snapshot(facts), changed };
    this.publish('state', LinkMethod.STATE, data);
  }

  /** Full state snapshot carried by every `state` message (documented in docs/simulator.md). */
  snapshot(facts: Facts = this.model.facts()): StateSnapshot {
    const t = this.model.telemetry();
    const video = this.opts.video?.isWanted(this.spec.sn) ?? false;
    return {
      sn: this.spec.sn,
      kind: this.spec.kind,
      name: this.spec.name,
      firmware: FIRMWARE,
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
    };
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
    const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
    switch (method) {
      case LinkMethod.VIDEO_START: {
        const v = this.opts.video;
        if (!v?.available) return { result: RESULT.videoUnavailable, message: 'video unavailable' };
        v.start(this.spec.sn, this.spec.name);
        this.publishStateIfChanged(true);
        return { result: RESULT.ok, message: 'started', output: { url: this.videoUrl() } };
      }
      case LinkMethod.VIDEO_STOP: {
        this.opts.video?.stop(this.spec.sn);
        this.publishStateIfChanged(true);
        return { result: RESULT.ok, message: 'stopped' };
      }
      case 'fault.inject': {
        if (!isFault(d.fault)) return { result: RESULT.badRequest, message: `unknown fault: ${String(d.fault)}` };
        if (d.fault === 'offline') this.pendingOffline = true;
        else this.inject(d.fault);
        return { result: RESULT.ok, message: `injected ${d.fault}` };
      }
      case 'fault.clear': {
        if (d.fault !== undefined && !isFault(d.fault)) return { result: RESULT.badRequest, message: `unknown fault: ${String(d.fault)}` };
        this.clear(d.fault);
        return { result: RESULT.ok, message: d.fault ? `cleared ${d.fault}` : 'cleared all faults' };
      }
      default:
        return { result: RESULT.unsupported, message: 'unsupported' };
    }
  }
}

export interface StateSnapshot {
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
}

/** data of a `state` message: the full snapshot plus the facts that changed (flat keys). */
export type StateMessageData = StateSnapshot & { changed: Facts };

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
  if (!schema) return null;
  const r = schema.safeParse(e.data.data);
  return r.success ? null : r.error.issues.map((i) => `data.${i.path.join('.')}: ${i.message}`).join('; ');
}
