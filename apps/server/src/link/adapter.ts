import type { CommandReplyData, LinkEnvelope, StateData, TelemetryData } from '@nest/contracts';
import type { DeviceRow } from '../db/schema.js';
import type { DeviceLinkCounts } from './stats.js';

/**
 * The device link as the features see it (link/README.md): whatever protocol a device speaks (today the
 * nest protocol, docs/device-protocol.md; next DJI's Cloud API), the server knows its devices through this
 * interface: presence, the latest telemetry and state in the contracts shapes, device events that are
 * acknowledged once stored, commands with at-most-once ids and their replies, and a way to cut a device
 * off at the broker. Features import these types, never an adapter.
 */

/** What the link needs to know about registered devices (the DeviceDirectory). */
export interface DeviceLookup {
  /** `protocol` (DeviceProtocol, nest when absent), `uav_sn` and `uav_model` choose and feed the adapter. */
  get(sn: string): (Pick<DeviceRow, 'sn_id' | 'enabled'> & Partial<Pick<DeviceRow, 'protocol' | 'uav_sn' | 'uav_model'>>) | undefined;
  /**
   * Called for a message from an unknown sn: the directory reloads soon. When a reload runs because of it
   * (or already runs), its promise: the adapter may read the message again once it is done, so a device
   * registered elsewhere (the CLI, another instance) is not refused its first messages.
   */
  miss(sn: string): Promise<void> | null | void;
}

export interface LinkLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** The live state of one device, as the link knows it. */
export interface LiveDevice {
  sn: string;
  online: boolean;
  /** Telemetry rate announced in presence (Hz). */
  rateHz: number;
  firmware: string | null;
  /** Last valid message of any kind (ms). */
  heardAt: number;
  /** Latest telemetry and when it was received (ms); null before the first. */
  telemetry: TelemetryData | null;
  telemetryAt: number | null;
  /** The device's own time stamp (envelope `ts`, ms) of the latest telemetry; null before the first. */
  telemetryTs: number | null;
  state: StateData | null;
  /** When the current online/offline period began (ms). */
  since: number;
}

export type CommandOutcome =
  | { status: 'ok'; tid: string; attempts: number; reply: CommandReplyData }
  | { status: 'failed'; tid: string; attempts: number; reply: CommandReplyData }
  | { status: 'timeout'; tid: string; attempts: number }
  /**
   * The device was offline at send, or this instance had no broker connection (attempts 0: nothing
   * published), or it went offline while waiting.
   */
  | { status: 'offline'; tid: string; attempts: number };

export interface CommandOptions {
  timeoutMs?: number;
  resends?: number;
  bid?: string;
  /** Use this tid (the caller's command id, so a repeat of the same command is recognised by the device). */
  tid?: string;
  /**
   * Do not send to an offline device, and stop waiting as soon as it goes offline (outcome `offline`).
   * Opt-in: a caller that prefers the full timeout (video on demand) keeps the old behaviour.
   */
  abortOffline?: boolean;
}

/** Why a device message was dropped (counted in `stats.dropped`). */
export type DropReason =
  | 'too_large'
  | 'bad_topic'
  | 'unknown_device'
  | 'disabled_device'
  | 'bad_envelope'
  | 'bad_method'
  | 'bad_data'
  | 'unmatched_reply'
  | 'rate_limited'
  | 'error';

export interface LinkEvents {
  /** A device came online or went offline. */
  online: [sn: string, online: boolean, live: LiveDevice];
  /**
   * The device's latest telemetry (`live.telemetry`). `json`, when given, answers the device's own JSON
   * text of that telemetry if it reads back exactly as `live.telemetry` after JSON.stringify, else null
   * (link/member-json.ts): a listener that passes the telemetry on as JSON may send that text instead of
   * serialising it again. Call it during the event.
   */
  telemetry: [sn: string, live: LiveDevice, json?: () => string | null];
  state: [sn: string, live: LiveDevice];
  /**
   * A device event (repeats of one tid are reported once). A listener that stores something hands the
   * promise of that work to `settle`: the event is acknowledged once all of them resolved, and not at all
   * when one rejects (the device re-sends it).
   */
  event: [sn: string, message: LinkEnvelope, settle: (stored: Promise<unknown>) => void];
  /** A message on one of the internal topics. */
  internal: [topic: string, payload: Buffer];
  connected: [];
}

/**
 * Who may be connected to the broker, as far as the server can act on it: the embedded broker closes a
 * device's connections itself (its login check reads the registry), an external Mosquitto is told through
 * its dynamic-security plugin (link/dynsec.ts).
 */
export interface BrokerAccess {
  /**
   * Closes the device's connections now. The broker lets it in again only while the registry has it
   * enabled (the caller has already written the change that made it leave).
   */
  disconnect(sn: string): Promise<void>;
  start?(): void;
  stop?(): Promise<void>;
}

/** The link's own figures for /link/stats and /link/broker (counting only). */
export interface LinkDiagnostics {
  readonly clientId: string;
  readonly connected: boolean;
  readonly stats: {
    received: number;
    accepted: number;
    dropped: Partial<Record<DropReason, number>>;
    /**
     * Telemetry messages replaced by a newer one of the same device before they were read (the server was
     * behind and read only the newest; link/latest-wins.ts). Not a fault and never anything acknowledged.
     */
    superseded?: number;
  };
  readonly counters: { read(sn: string, now?: number): DeviceLinkCounts | null };
  /** The cluster's live instances and which one owns a device; null without a cluster. */
  readonly cluster: { list(): string[]; owner(sn: string): string; owns(sn: string): boolean } | null;
}

/**
 * A device-link adapter: one protocol's way of reaching devices, presented in the contracts' terms.
 *
 * - Presence: `online` events, `isOnline`, `device(sn)` (latest telemetry, state, firmware, rate).
 * - Telemetry and state: `telemetry` / `state` events with the device's live record.
 * - Events: `event` with an acknowledgement that waits for the listeners' stores (`settle`).
 * - Commands: `command` keeps one tid across re-sends (a device executes it at most once) and resolves
 *   with the reply, a timeout or `offline`; `publishCommand` for frames that get no reply (sticks). Video
 *   start/stop and media requests are commands too (contracts method names).
 * - Access: `disconnect(sn)` cuts a device off at the broker (deleted or disabled).
 * - Cluster: `owns(sn)` says whether this instance acts for the device; `publishInternal` / `internal`
 *   carry notices between server instances over the same broker.
 */
export interface DeviceLink extends LinkDiagnostics {
  start(): void;
  stop(): Promise<void>;
  /** Resolves once connected and subscribed for the first time. */
  ready(): Promise<void>;

  on<K extends keyof LinkEvents>(event: K, listener: (...args: LinkEvents[K]) => void): this;
  off<K extends keyof LinkEvents>(event: K, listener: (...args: LinkEvents[K]) => void): this;

  /** Live state of a device (undefined when nothing was ever heard from it). */
  device(sn: string): LiveDevice | undefined;
  isOnline(sn: string): boolean;
  /** Forgets a device (deleted or disabled): it reads as offline from now on. */
  forget(sn: string): void;
  /** Whether this instance acts for the device (always, without a cluster). */
  owns(sn: string): boolean;

  command(sn: string, method: string, data: unknown, opts?: CommandOptions): Promise<CommandOutcome>;
  /** Sends a command that gets no reply; false when the device is offline. */
  publishCommand(sn: string, method: string, data: unknown): boolean;
  /** Publishes on a server-internal topic (notices to other instances). */
  publishInternal(topic: string, payload: string): void;

  /** Closes the device's broker connections; it gets back in only while enabled in the registry. */
  disconnect(sn: string): Promise<void>;
}
