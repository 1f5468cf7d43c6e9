import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  CHANNEL_QOS,
  COMMAND_MAX_RESENDS,
  COMMAND_TIMEOUT_MS,
  DEFAULT_TELEMETRY_HZ,
  DEVICE_TO_SERVER,
  isDeviceChannel,
  LINK_DEVICE_BURST,
  LINK_DEVICE_MAX_MESSAGES_PER_SECOND,
  LINK_MAX_MESSAGE_BYTES,
  LinkMethod,
  MISSED_TELEMETRY_PERIODS,
  SERVER_CLIENT_ID_PREFIX,
  channelFilter,
  linkData,
  linkMessage,
  parseLinkMessage,
  parseTopic,
  topicOf,
  type CommandReplyData,
  type DeviceChannel,
} from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { refill, type TokenBucket } from '../bucket.js';
import { ClusterMembers, MEMBER_HEARTBEAT_MS, membersTopic } from '../members.js';
import { MassSilence } from '../mass-silence.js';
import { LatestWins } from '../latest-wins.js';
import { memberJson } from '../member-json.js';
import { LinkCounters } from '../stats.js';
import { linkClient, subscribeEachSession, type InProcessBroker } from '../session.js';
import type {
  BrokerAccess,
  CommandOptions,
  CommandOutcome,
  DeviceLink,
  DeviceLookup,
  DropReason,
  LinkEvents,
  LinkLogger,
  LiveDevice,
} from '../adapter.js';

export interface LinkOptions {
  url: string;
  /** The broker embedded in this process, reached in memory instead of at `url` when given. */
  inProcess?: InProcessBroker;
  username: string;
  password: string;
  devices: DeviceLookup;
  log: LinkLogger;
  /** Defaults to nest-server-<random>: unique per server instance. */
  clientId?: string;
  /**
   * Name of the cluster of server instances sharing this broker, or null/undefined: this instance handles
   * every device's events. In a cluster the instances announce themselves (link/members.ts) and each
   * device's events are handled and acknowledged only by the instance that owns the device; presence,
   * telemetry, state and command replies reach every instance, since each serves its own browsers and
   * awaits its own commands' replies.
   */
  cluster?: string | null;
  /** Server-internal topics (other instances' notices) to subscribe to as well, e.g. 'nest-server/v1/control/+'. */
  internalTopics?: readonly string[];
  /**
   * Clock in Unix ms (tests): receive times, presence deadlines and probe times. Timers stay on the real
   * clock; a test moves this one and calls sweep() to judge presence at the time it chose.
   */
  now?: () => number;
  /**
   * How devices are cut off at the broker (disconnect()): the embedded broker, or an external Mosquitto's
   * dynamic-security plugin. Started and stopped with the link. Without it disconnect() does nothing.
   */
  access?: BrokerAccess;
}

interface Pending {
  sn: string;
  resolve: (reply: CommandReplyData) => void;
  /** Set for abortOffline commands: ends the wait with `offline`. */
  offline?: () => void;
}

const LOG_EVERY_MS = 10_000;
const EVENT_TID_MEMORY = 200;
const MIN_SWEEP_MS = 25;
/** A presence probe not back after this long is sent again (the earlier one still counts when it comes). */
const PROBE_RESEND_MS = 1000;
/** Probes in flight at most (the oldest is forgotten beyond it). */
const PROBES_IN_FLIGHT = 8;

/**
 * The ordered streams a presence probe must come back through before silence is judged: the session
 * (presence, state, events, replies: everything acknowledged) and telemetry (its own connection to an
 * external broker; the broker's routing in this process, read through the latest-wins inbox).
 */
type ProbeLine = 'session' | 'telemetry';

/** One presence probe: sent on every line at once, judged once every line has brought it back. */
interface ProbeRound {
  sentAt: number;
  waiting: Set<ProbeLine>;
}

/** Marker on the telemetry probe topic that lifts telemetry fences (LinkService.fence()), then the fence number. */
const FENCE = 'fence:';

/** Client id of an instance's telemetry connection (an external broker), beside its session's. */
export const telemetryClientId = (clientId: string): string => `${clientId}-telemetry`;

/**
 * The topic on which an instance sends presence probes to itself (section 4 of docs/device-protocol.md).
 * Under nest-server/#: devices can neither read nor write it.
 */
export const probeTopic = (clientId: string): string => `nest-server/v1/probe/${clientId}`;

/**
 * The server side of the device link (docs/device-protocol.md).
 *
 * - Subscribes to nest/v1/+/{presence,state,events,commands_reply} on its session; retained presence and
 *   state rebuild the live picture after a (re)start. Telemetry (QoS 0, nearly every message) never shares
 *   that stream: with an external broker it comes over a second connection of its own (same user, client id
 *   `<client id>-telemetry`), with the broker embedded in this process from the broker's routing directly
 *   (LinkOptions.inProcess, the session then in memory). Either way it goes through a latest-wins inbox
 *   (link/latest-wins.ts): a server that falls behind reads only the newest telemetry of each device, and
 *   the acknowledged traffic never waits behind superseded telemetry.
 * - Every message is checked (size, topic, registered enabled device, envelope, method, data schema) and
 *   dropped with a rate-limited log line when anything is off; nothing a device sends can throw.
 * - Online: presence `{online:true}` or any valid message; offline: presence `{online:false}` (normally
 *   the MQTT last-will) or silence for MISSED_TELEMETRY_PERIODS telemetry periods (period from the
 *   presence `rate_hz`, default 1 s), counted against what this instance has read from the broker rather
 *   than the wall clock (see sweep()): a stalled server or a lost broker connection takes nobody offline.
 * - Events are acknowledged on events_reply with the same tid.
 * - Commands keep their tid across re-sends and resolve with the reply or a timeout outcome.
 */
export class LinkService extends EventEmitter<LinkEvents> implements DeviceLink {
  readonly clientId: string;
  private client: MqttClient | null = null;
  /** The telemetry connection (external broker only; null in process, where the broker hands telemetry over). */
  private telemetryClient: MqttClient | null = null;
  /** Telemetry waiting to be read, the newest per device (link/latest-wins.ts); counts into stats.superseded. */
  private readonly inbox: LatestWins;
  private readonly live = new Map<string, LiveDevice>();
  private readonly pending = new Map<string, Pending>();
  /** Per device: recent event tids and whether their listeners stored them. */
  private readonly seenEvents = new Map<string, Map<string, Promise<boolean>>>();
  private readonly lastLog = new Map<string, number>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private memberTimer: NodeJS.Timeout | null = null;
  private readonly members: ClusterMembers | null;
  private readonly membersTopic: string;
  private stopped = false;
  private readonly now: () => number;
  /** Probe id -> its round (send time, lines not back yet), oldest first; see sweep(). */
  private readonly probes = new Map<string, ProbeRound>();
  private probeQueued = false;
  private readonly probeTopic: string;
  private readonly telemetryProbeTopic: string;
  /**
   * When the current broker session was subscribed (clock ms), 0 while never connected. Silence before it
   * is not the devices' doing: no deadline ends earlier than the limit after it.
   */
  private sessionAt = 0;
  /** The same for the telemetry connection (external broker); stays 0 in process, where there is none. */
  private telemetryAt = 0;
  private sessionSubscribed = false;
  private telemetrySubscribed = false;
  private readyPromise: Promise<void>;
  private markReady!: () => void;
  readonly stats = {
    received: 0,
    accepted: 0,
    dropped: {} as Partial<Record<DropReason, number>>,
    /** Events of devices another cluster instance owns (left to it). */
    othersEvents: 0,
    /**
     * Presence probes sent (some device was past its deadline) and answered (see sweep()), and judgements
     * held back because many devices were silent at once (see heldBack()).
     */
    probes: { sent: 0, answered: 0, heldBack: 0 },
    /**
     * Telemetry messages replaced by a newer one of the same device before they were read: the server was
     * behind and read only the newest (link/latest-wins.ts). Never events, replies, state or presence.
     */
    superseded: 0,
  };
  /** Per-device counts for /link/stats (counting only). */
  readonly counters = new LinkCounters();

  /** Whether a topic is one of the internal topics (LinkOptions.internalTopics), compiled once. */
  private readonly internal: (topic: string) => boolean;

  constructor(private readonly opts: LinkOptions) {
    super();
    this.internal = topicMatcher(opts.internalTopics ?? []);
    this.clientId = opts.clientId ?? `${SERVER_CLIENT_ID_PREFIX}${randomBytes(6).toString('hex')}`;
    this.members = opts.cluster ? new ClusterMembers(this.clientId) : null;
    this.membersTopic = opts.cluster ? membersTopic(opts.cluster) : '';
    this.now = opts.now ?? Date.now;
    this.probeTopic = probeTopic(this.clientId);
    this.telemetryProbeTopic = probeTopic(telemetryClientId(this.clientId));
    this.inbox = new LatestWins(this.receive, this.stats);
    this.readyPromise = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Connects (in the background: an unreachable broker is retried every second). */
  start(): void {
    const client = linkClient(this.opts.inProcess ?? this.opts.url, {
      clientId: this.clientId,
      username: this.opts.username,
      password: this.opts.password,
      // A member that drops off the broker leaves the cluster at once (an empty retained announcement).
      ...(this.members ? { will: { topic: `${this.membersTopic}/${this.clientId}`, payload: Buffer.alloc(0), qos: 1 as const, retain: true } } : {}),
    });
    this.client = client;
    subscribeEachSession(client, {
      topics: () => {
        const topics: Record<string, { qos: 0 | 1 }> = {};
        // Telemetry never comes over the session (see the class comment): nothing acknowledged waits behind it.
        for (const channel of DEVICE_TO_SERVER) if (channel !== 'telemetry') topics[channelFilter(channel)] = { qos: CHANNEL_QOS[channel].qos };
        if (this.members) topics[`${this.membersTopic}/+`] = { qos: 1 };
        for (const t of this.opts.internalTopics ?? []) topics[t] = { qos: 1 };
        // QoS 1 like everything else on the session: a broker may route QoS 0 ahead of QoS 1 messages it
        // took in earlier (aedes does: a QoS 1 publish first looks for offline sessions to queue it for), and
        // the probe must come back after them.
        topics[this.probeTopic] = { qos: 1 };
        return topics;
      },
      // A new session: probes of the old one are lost, and nothing is judged until subscribed again.
      began: () => {
        this.sessionAt = 0;
        this.probes.clear();
      },
      refused: (err, granted) => this.opts.log.warn({ err, granted }, 'device link: subscription refused by the broker'),
      subscribed: () => {
        this.sessionAt = this.now();
        this.sessionSubscribed = true;
        this.opts.log.info({ clientId: this.clientId }, 'device link: connected and subscribed');
        this.announce();
        this.readyOnceSubscribed();
        this.emit('connected');
      },
    });
    client.on('error', (err) => this.logOnce('client-error', 'warn', { err: err.message }, 'device link: broker connection error'));
    client.on('message', this.receive);
    if (this.opts.inProcess) {
      // Telemetry from the broker in this process is handed over as the broker routes it, while the session
      // is connected (as if it came over it). The presence probe travels the session: it comes back after
      // what was routed before it, and is judged once the inbox has read that (probeBack()).
      this.endDirect = this.opts.inProcess.subscribeInProcess(channelFilter('telemetry'), (topic, payload) => {
        if (this.client?.connected) this.inbox.offer(topic, payload);
      });
    } else {
      this.startTelemetry();
    }
    this.scheduleSweep();
    this.opts.access?.start?.();
    if (this.members) {
      this.memberTimer = setInterval(() => {
        this.announce();
        for (const id of this.members!.expire(Date.now())) this.opts.log.warn({ member: id }, 'cluster: instance not heard, its devices move');
      }, MEMBER_HEARTBEAT_MS);
      this.memberTimer.unref();
    }
  }

  /**
   * The telemetry connection to an external broker: the same user (its rules cover every client id of the
   * server user), its own client id, a clean session subscribed on every connect to every device's
   * telemetry and to its own probe topic. No will: cluster membership is the session's.
   */
  private startTelemetry(): void {
    const clientId = telemetryClientId(this.clientId);
    const client = linkClient(this.opts.url, { clientId, username: this.opts.username, password: this.opts.password });
    this.telemetryClient = client;
    subscribeEachSession(client, {
      topics: () => ({ [channelFilter('telemetry')]: { qos: CHANNEL_QOS.telemetry.qos }, [this.telemetryProbeTopic]: { qos: 0 } }),
      began: () => {
        this.telemetryAt = 0;
        this.probes.clear();
        // What the old connection had not delivered is lost: no telemetry from before a fence can come.
        this.fenced.clear();
      },
      refused: (err, granted) => this.opts.log.warn({ err, granted }, 'device link: telemetry subscription refused by the broker'),
      subscribed: () => {
        this.telemetryAt = this.now();
        this.telemetrySubscribed = true;
        this.opts.log.info({ clientId }, 'device link: telemetry connection subscribed');
        this.readyOnceSubscribed();
      },
    });
    client.on('error', (err) => this.logOnce('telemetry-error', 'warn', { err: err.message }, 'device link: telemetry connection error'));
    client.on('message', (topic, payload) => {
      if (this.stopped) return;
      if (topic === this.telemetryProbeTopic) {
        const id = payload.toString('utf8');
        if (id.startsWith(FENCE)) return this.inbox.after(() => this.liftFences(Number(id.slice(FENCE.length))));
        return this.probeBack('telemetry', id);
      }
      this.inbox.offer(topic, payload);
    });
  }

  /**
   * Devices whose offline presence (normally their last-will) has been read while telemetry they sent
   * before it may still be unread (the telemetry stream is read apart from the session, and may be
   * behind): such telemetry must not bring them back online. Fence number per device, lifted once a marker
   * sent after it has come back on the telemetry stream and the inbox has read what came before it.
   */
  private readonly fenced = new Map<string, number>();
  private fences = 0;
  private fenceQueued = false;

  /** Fences a device's telemetry (above); one marker per turn lifts every fence set before it. */
  private fence(sn: string): void {
    this.fenced.set(sn, ++this.fences);
    if (this.fenceQueued) return;
    this.fenceQueued = true;
    queueMicrotask(() => {
      this.fenceQueued = false;
      const upTo = this.fences;
      // In process the broker routed the device's telemetry into the inbox before its will.
      if (this.telemetryClient) this.telemetryClient.publish(this.telemetryProbeTopic, `${FENCE}${upTo}`, { qos: 0 });
      else this.inbox.after(() => this.liftFences(upTo));
    });
  }

  private liftFences(upTo: number): void {
    for (const [sn, n] of this.fenced) if (n <= upTo) this.fenced.delete(sn);
  }

  /** ready() resolves once the session and the telemetry connection (if any) have both been subscribed. */
  private readyOnceSubscribed(): void {
    if (this.sessionSubscribed && (this.telemetrySubscribed || !this.telemetryClient)) this.markReady();
  }

  /** Tells the other instances this one is alive (retained: an instance that starts later learns it at once). */
  private announce(): void {
    if (!this.members || !this.client?.connected) return;
    this.client.publish(`${this.membersTopic}/${this.clientId}`, JSON.stringify({ at: Date.now() }), { qos: 1, retain: true });
  }

  /**
   * Whether this instance acts for the device: writes what its presence and telemetry imply (alarms, track
   * points, maintenance outcomes) and handles its events. Always, without a cluster.
   */
  owns(sn: string): boolean {
    return this.members ? this.members.owns(sn) : true;
  }

  /** The cluster's live instances and device ownership; null without a cluster. */
  get cluster(): ClusterMembers | null {
    return this.members;
  }

  /** Resolves once connected and subscribed for the first time. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Ends the in-process telemetry subscription (LinkOptions.inProcess). */
  private endDirect: (() => void) | null = null;

  async stop(): Promise<void> {
    this.stopped = true;
    this.endDirect?.();
    this.endDirect = null;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    if (this.probeImmediate) clearImmediate(this.probeImmediate);
    for (const [tid, p] of this.pending) {
      this.pending.delete(tid);
      p.resolve({ result: -1, message: 'server stopping' });
    }
    if (this.memberTimer) clearInterval(this.memberTimer);
    const client = this.client;
    this.client = null;
    if (client && this.members && client.connected) {
      // Leave at once, so the other instances take this one's devices over now rather than at expiry.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        client.publish(`${this.membersTopic}/${this.clientId}`, Buffer.alloc(0), { qos: 1, retain: true }, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const telemetry = this.telemetryClient;
    this.telemetryClient = null;
    this.inbox.clear();
    await Promise.all([client, telemetry].map((c) => (c ? new Promise<void>((resolve) => c.end(true, {}, () => resolve())) : undefined)));
    await this.opts.access?.stop?.();
  }

  /** Live state of a device (undefined when nothing was ever heard from it). */
  device(sn: string): LiveDevice | undefined {
    return this.live.get(sn);
  }

  isOnline(sn: string): boolean {
    return this.live.get(sn)?.online ?? false;
  }

  /** Forgets a device (deleted or disabled): it reads as offline from now on. */
  forget(sn: string): void {
    const d = this.live.get(sn);
    if (d?.online) this.setOnline(d, false, this.now());
    this.live.delete(sn);
    this.rateBuckets.delete(sn);
  }

  /**
   * Closes the device's broker connections (it was deleted or disabled): the broker lets it in again only
   * while the registry has it enabled. Nothing without an access (LinkOptions.access).
   */
  async disconnect(sn: string): Promise<void> {
    await this.opts.access?.disconnect(sn);
  }

  /** Publishes on a server-internal topic (notices to other instances). */
  publishInternal(topic: string, payload: string): void {
    this.client?.publish(topic, payload, { qos: 1 });
  }

  /**
   * Sends a command and waits for its reply. The same message (same tid) is re-sent after each timeout,
   * at most `resends` times; never a new tid, so a device executes it at most once.
   */
  command(sn: string, method: string, data: unknown, opts: CommandOptions = {}): Promise<CommandOutcome> {
    const timeoutMs = opts.timeoutMs ?? COMMAND_TIMEOUT_MS;
    const resends = opts.resends ?? COMMAND_MAX_RESENDS;
    const tid = opts.tid ?? randomUUID();
    const payload = JSON.stringify(linkMessage(method, data, { tid, bid: opts.bid }));
    const topic = topicOf(sn, 'commands');
    // Without a broker connection nothing reaches the device (its presence is unknown, not offline: see
    // sweep()); a command that must not wait is not queued to go out late on reconnect.
    if (opts.abortOffline && (!this.isOnline(sn) || !this.connected)) return Promise.resolve({ status: 'offline', tid, attempts: 0 });
    return new Promise<CommandOutcome>((resolve) => {
      let attempts = 0;
      let timer: NodeJS.Timeout | null = null;
      let sentAt = 0;
      const send = () => {
        attempts++;
        sentAt = Date.now();
        this.client?.publish(topic, payload, { qos: CHANNEL_QOS.commands.qos });
        timer = setTimeout(() => {
          if (this.stopped || attempts > resends) {
            this.pending.delete(tid);
            if (!this.stopped) this.counters.timeout(sn);
            resolve({ status: 'timeout', tid, attempts });
            return;
          }
          send();
        }, timeoutMs);
      };
      this.pending.set(tid, {
        sn,
        resolve: (reply) => {
          if (timer) clearTimeout(timer);
          this.pending.delete(tid);
          // Round trip of the last (re-)send; 'server stopping' answers are not replies.
          if (!this.stopped) this.counters.roundTrip(sn, Date.now() - sentAt);
          resolve({ status: reply.result === 0 ? 'ok' : 'failed', tid, attempts, reply });
        },
        offline: opts.abortOffline
          ? () => {
              if (timer) clearTimeout(timer);
              this.pending.delete(tid);
              resolve({ status: 'offline', tid, attempts });
            }
          : undefined,
      });
      send();
    });
  }

  /**
   * Publishes a command that gets no reply (virtual-stick frames): QoS 0, never re-sent, since a late
   * frame is worse than a lost one (the next frame supersedes it). Answers false when the device is offline.
   */
  publishCommand(sn: string, method: string, data: unknown): boolean {
    if (!this.client?.connected || !this.isOnline(sn)) return false;
    this.client.publish(topicOf(sn, 'commands'), JSON.stringify(linkMessage(method, data, { tid: randomUUID() })), { qos: 0 });
    return true;
  }

  // ------------------------------------------------------------------------------------------ messages

  /**
   * A message the broker delivered (the client's `message` listener; benches hand messages here directly).
   * Nothing a device sends can throw out of it: a fault is counted and logged as a dropped message.
   */
  readonly receive = (topic: string, payload: Buffer): void => {
    try {
      this.onMessage(topic, payload);
    } catch (err) {
      this.drop('error', topic, String(err));
    }
  };

  private onMessage(topic: string, payload: Buffer): void {
    if (topic === this.probeTopic) return this.probeBack('session', payload.toString('utf8'));
    if (this.members && topic.startsWith(`${this.membersTopic}/`)) {
      const id = topic.slice(this.membersTopic.length + 1);
      const changed = payload.byteLength === 0 ? this.members.leave(id) : this.members.announce(id, Date.now());
      if (changed) this.opts.log.info({ members: this.members.list() }, 'cluster: members changed');
      return;
    }
    if (this.internal(topic)) {
      this.emit('internal', topic, payload);
      return;
    }
    this.stats.received++;
    if (payload.byteLength > LINK_MAX_MESSAGE_BYTES) return this.drop('too_large', topic, `${payload.byteLength} bytes`);
    const t = parseTopic(topic);
    if (!t || !isDeviceChannel(t.channel)) return this.drop('bad_topic', topic);
    const device = this.opts.devices.get(t.sn);
    if (!device) {
      void this.opts.devices.miss(t.sn);
      return this.drop('unknown_device', topic);
    }
    if (Number(device.enabled) !== 1) return this.drop('disabled_device', topic);
    const wall = Date.now();
    if (!this.withinRate(t.sn, wall)) return this.drop('rate_limited', topic);
    const parsed = parseLinkMessage(payload);
    if (!parsed.ok) return this.drop('bad_envelope', topic, parsed.reason);
    const m = parsed.message;
    const channel = t.channel;
    const now = this.opts.now ? this.now() : wall;
    switch (channel) {
      case 'presence': {
        if (m.method !== LinkMethod.PRESENCE) return this.drop('bad_method', topic, m.method);
        const data = linkData.presence(m.data);
        if (!data.success) return this.drop('bad_data', topic, issues(data.error));
        const d = this.entry(t.sn, now);
        if (data.data.rate_hz !== undefined) d.rateHz = data.data.rate_hz;
        if (data.data.firmware !== undefined) d.firmware = data.data.firmware;
        if (data.data.online) d.heardAt = now;
        // Offline (its last-will): telemetry it sent before may still be unread on the telemetry stream, and
        // must not bring it back online. Online: what it sends from now on counts again.
        if (data.data.online) this.fenced.delete(t.sn);
        else this.fence(t.sn);
        this.accept(t.sn, channel, wall);
        if (d.online !== data.data.online) this.setOnline(d, data.data.online, now);
        if (data.data.online) this.scheduleSweep();
        return;
      }
      case 'telemetry': {
        if (m.method !== LinkMethod.TELEMETRY) return this.drop('bad_method', topic, m.method);
        const data = linkData.telemetry(m.data);
        if (!data.success) return this.drop('bad_data', topic, issues(data.error));
        // Sent before the device's offline presence (see fence()): superseded by it.
        if (this.fenced.has(t.sn)) {
          this.stats.superseded++;
          return;
        }
        const d = this.heard(t.sn, now);
        d.telemetry = data.data;
        d.telemetryAt = now;
        d.telemetryTs = m.ts;
        this.accept(t.sn, channel, wall);
        // The device's own JSON of the telemetry, for listeners that pass it on (push 300), when the check
        // took the parsed value as it was (nothing stripped or defaulted): found only if asked for.
        this.emit('telemetry', t.sn, d, data.data === m.data ? () => memberJson(payload, 'data', m.data) : undefined);
        return;
      }
      case 'state': {
        if (m.method !== LinkMethod.STATE) return this.drop('bad_method', topic, m.method);
        const data = linkData.state(m.data);
        if (!data.success) return this.drop('bad_data', topic, issues(data.error));
        // Retained state says nothing about being online now: do not count it as heard.
        const d = this.entry(t.sn, now);
        d.state = data.data;
        this.accept(t.sn, channel, wall);
        this.emit('state', t.sn, d);
        return;
      }
      case 'events': {
        const data = linkData.events(m.data);
        if (!data.success) return this.drop('bad_data', topic, issues(data.error));
        this.heard(t.sn, now);
        // Another instance owns this device: it handles and acknowledges the event.
        if (this.members && !this.members.owns(t.sn)) {
          this.stats.othersEvents++;
          return;
        }
        this.accept(t.sn, channel, wall);
        // Acknowledged once every listener has stored it: an event the server could not store (database
        // down) is not acknowledged, so the device sends it again (same tid) and it is handled afresh.
        // A re-send (our reply was lost, or still being stored) is reported once and waits for the first.
        const seen = this.seenEvents.get(t.sn) ?? new Map<string, Promise<boolean>>();
        this.seenEvents.set(t.sn, seen);
        let stored = seen.get(m.tid);
        if (!stored) {
          const work: Promise<unknown>[] = [];
          this.emit('event', t.sn, m, (p) => work.push(p));
          stored = Promise.all(work).then(
            () => true,
            (err: unknown) => {
              seen.delete(m.tid);
              this.logOnce(`unstored:${t.sn}`, 'warn', { sn: t.sn, tid: m.tid, err: String(err) }, 'device link: event not stored, not acknowledged (the device re-sends it)');
              return false;
            },
          );
          seen.set(m.tid, stored);
          if (seen.size > EVENT_TID_MEMORY) seen.delete(seen.keys().next().value!);
        }
        void stored.then((ok) => {
          if (!ok) return;
          this.client?.publish(
            topicOf(t.sn, 'events_reply'),
            JSON.stringify(linkMessage(m.method, { result: 0 }, { tid: m.tid, bid: m.bid })),
            { qos: CHANNEL_QOS.events_reply.qos },
          );
        });
        return;
      }
      case 'commands_reply': {
        const data = linkData.commandReply(m.data);
        if (!data.success) return this.drop('bad_data', topic, issues(data.error));
        this.heard(t.sn, now);
        const p = this.pending.get(m.tid);
        // In a cluster, a reply to a command another instance sent is theirs: not a fault.
        if (!p && this.members) return;
        // A reply for another device's command, or a late repeat: not ours to resolve.
        if (!p || p.sn !== t.sn) return this.drop('unmatched_reply', topic, m.tid);
        this.accept(t.sn, channel, wall);
        p.resolve(data.data);
        return;
      }
    }
  }

  /** Messages each registered device may still send now (token bucket, see LINK_DEVICE_MAX_MESSAGES_PER_SECOND). */
  private readonly rateBuckets = new Map<string, TokenBucket>();

  private withinRate(sn: string, now: number): boolean {
    const b = refill(this.rateBuckets.get(sn), now, LINK_DEVICE_MAX_MESSAGES_PER_SECOND, LINK_DEVICE_BURST);
    this.rateBuckets.set(sn, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private accept(sn: string, channel: DeviceChannel, now: number): void {
    this.stats.accepted++;
    this.counters.accepted(sn, channel === 'telemetry', now);
  }

  private entry(sn: string, now: number): LiveDevice {
    let d = this.live.get(sn);
    if (!d) {
      d = {
        sn,
        online: false,
        rateHz: DEFAULT_TELEMETRY_HZ,
        firmware: null,
        heardAt: 0,
        telemetry: null,
        telemetryAt: null,
        telemetryTs: null,
        state: null,
        since: now,
      };
      this.live.set(sn, d);
    }
    return d;
  }

  /** Any valid message proves the device is connected now. */
  private heard(sn: string, now: number): LiveDevice {
    const d = this.entry(sn, now);
    d.heardAt = now;
    if (!d.online) {
      this.setOnline(d, true, now);
      this.scheduleSweep();
    }
    return d;
  }

  private setOnline(d: LiveDevice, online: boolean, now: number): void {
    d.online = online;
    d.since = now;
    if (!online) {
      for (const p of [...this.pending.values()]) if (p.sn === d.sn) p.offline?.();
    }
    this.emit('online', d.sn, online, d);
  }

  // ------------------------------------------------------------------------------------------ sweep

  /** Period of the fastest online device, halved: how often silence is checked. */
  private sweepInterval(): number {
    let fastest = 0;
    for (const d of this.live.values()) if (d.online) fastest = Math.max(fastest, d.rateHz);
    if (fastest === 0) fastest = DEFAULT_TELEMETRY_HZ;
    return Math.max(MIN_SWEEP_MS, 1000 / fastest / 2);
  }

  private nextSweepAt = 0;

  private scheduleSweep(): void {
    if (this.stopped) return;
    const interval = this.sweepInterval();
    const at = Date.now() + interval;
    // Keep an earlier pending sweep; replace a later one (a faster device arrived).
    if (this.sweepTimer && this.nextSweepAt <= at) return;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.nextSweepAt = at;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = null;
      this.sweep();
      this.scheduleSweep();
    }, interval);
    this.sweepTimer.unref();
  }

  /*
   * Presence by silence, step by step. Silence is counted against what this instance has read from the
   * broker, not against the wall clock: a server that stalled (CPU starved, a GC pause) still has the
   * devices' messages of the stall queued on its sockets, and the timer that checks deadlines runs before
   * they are read. Judged by the wall clock alone, every device would go offline for a moment after each
   * stall (with an offline-in-flight alarm for every drone in the air).
   *
   * 1. Deadline (deadline()): MISSED_TELEMETRY_PERIODS periods (1/rate_hz) after the device was last heard,
   *    or after the current broker session was subscribed when that is later: silence while this instance
   *    was not connected says nothing about the device.
   * 2. Suspects (sweep(), on a timer every half period of the fastest online device): the online devices
   *    whose deadline is past at the clock's now. None: nothing more to do.
   * 3. Broker connection down, or not subscribed yet: nobody is judged. The devices are unknown, not
   *    offline; they keep their last state until the session is back, and step 1 starts afresh from it.
   * 4. Drain: the probe is not sent from the timer but on the next turn of the event loop (setImmediate),
   *    after its I/O phase, so what queued up on the sockets during a stall (with the embedded broker, the
   *    devices' own connections too) is read first.
   * 5. Probe (sendProbe()): a QoS 0 message to this instance's own probe topic on each of its ordered
   *    streams (lines): the session, which carries presence, state, events and replies, and the telemetry
   *    connection (an external broker), remembering when it was sent. The broker delivers to a connection
   *    in order, so when the probe comes back on one, every message the broker had for it before the probe
   *    has been read; a telemetry probe counts once the latest-wins inbox has also read the telemetry taken
   *    in before it (probeBack()). In process the session's probe stands for both lines: the broker routed
   *    the telemetry before it into the inbox.
   * 6. Judgement (judge(), when a probe is back on every line): offline is every online device whose
   *    deadline ended before the probe was sent. A device heard since, on either line, has a later deadline
   *    and stays online: nothing it sent before the probe is still unread. So a backlog on one line
   *    (telemetry behind, or events behind) delays judgements and never takes a device talking on it
   *    offline. The change is dated at the judgement (clock now).
   * 7. A probe not back within PROBE_RESEND_MS (lost with a dropped connection, or a slow broker) is
   *    followed by another; whichever comes back judges against its own send time.
   * 8. Mass silence (heldBack(), link/mass-silence.ts): when many of the online devices are silent at
   *    once, the path from the broker is failing, not the devices; the judgement is held (for at most
   *    MASS_SILENCE_HOLD_MS) and made again with the next probe.
   */

  /** When a device's silence ends its online period (step 1), clock ms. */
  private deadline(d: LiveDevice): number {
    return Math.max(d.heardAt, this.sessionAt, this.telemetryAt) + (MISSED_TELEMETRY_PERIODS * 1000) / d.rateHz;
  }

  /** Whether presence can be judged now: the session and the telemetry connection connected and subscribed (step 3). */
  private judging(): boolean {
    const session = this.sessionAt > 0 && (this.client?.connected ?? false);
    return session && (!this.telemetryClient || (this.telemetryAt > 0 && this.telemetryClient.connected));
  }

  /**
   * Looks for online devices past their deadline at the clock's now (step 2) and, when there are, has a
   * probe sent once what is queued has been read (steps 3-5, 7). Nothing goes offline here: judge() does,
   * when the probe is back.
   */
  sweep(): void {
    const now = this.now();
    let suspects = false;
    for (const d of this.live.values()) {
      if (d.online && this.deadline(d) < now) {
        suspects = true;
        break;
      }
    }
    if (this.stats.superseded > this.supersededLogged) {
      this.supersededLogged = this.stats.superseded;
      this.logOnce('superseded', 'warn', { superseded: this.stats.superseded, waiting: this.inbox.size }, 'device link: behind on telemetry, reading only the newest message of each device');
    }
    if (!suspects || !this.judging() || this.probeQueued) return;
    const last = [...this.probes.values()].at(-1)?.sentAt;
    if (last !== undefined && now - last < PROBE_RESEND_MS) return;
    this.probeQueued = true;
    this.probeImmediate = setImmediate(() => {
      this.probeImmediate = null;
      this.probeQueued = false;
      this.sendProbe();
    });
  }

  private probeImmediate: NodeJS.Immediate | null = null;
  /** stats.superseded when last logged. */
  private supersededLogged = 0;

  /**
   * Step 5: a barrier through the broker on every line: the session, and the telemetry connection when
   * there is one (in process, the session's probe stands for both: the broker routed telemetry before it).
   */
  private sendProbe(): void {
    if (this.stopped || !this.judging()) return;
    const id = randomBytes(8).toString('hex');
    this.probes.set(id, { sentAt: this.now(), waiting: new Set<ProbeLine>(['session', 'telemetry']) });
    if (this.probes.size > PROBES_IN_FLIGHT) this.probes.delete(this.probes.keys().next().value!);
    this.stats.probes.sent++;
    this.client!.publish(this.probeTopic, id, { qos: 1 });
    this.telemetryClient?.publish(this.telemetryProbeTopic, id, { qos: 0 });
  }

  /**
   * A probe came back on one connection. The session's is back once read; telemetry's once the inbox has
   * read every telemetry message taken in before it (it may still hold some when the server is behind).
   */
  private probeBack(line: ProbeLine, id: string): void {
    if (line === 'session') this.lineBack('session', id);
    if (line === 'telemetry' || !this.telemetryClient) this.inbox.after(() => this.lineBack('telemetry', id));
  }

  /**
   * A line brought probe `id` back: everything it carried before the probe has been read, so every earlier
   * probe is back on it too (it is ordered). A probe back on every line is judged (step 6).
   */
  private lineBack(line: ProbeLine, id: string): void {
    const round = this.probes.get(id);
    if (round === undefined) return;
    let complete: number | null = null;
    for (const [k, r] of this.probes) {
      if (r.sentAt > round.sentAt) continue;
      r.waiting.delete(line);
      if (r.waiting.size > 0) continue;
      complete = Math.max(complete ?? r.sentAt, r.sentAt);
      this.probes.delete(k);
    }
    if (complete !== null) this.judge(complete);
  }

  /**
   * Step 6: a probe sent at `sentAt` is back on every line; every message the broker had before it has
   * been processed.
   */
  private judge(sentAt: number): void {
    this.stats.probes.answered++;
    const now = this.now();
    const silent: LiveDevice[] = [];
    let online = 0;
    for (const d of this.live.values()) {
      if (!d.online) continue;
      online++;
      if (this.deadline(d) < sentAt) silent.push(d);
    }
    if (this.heldBack(silent.length, online, now)) return;
    for (const d of silent) this.setOnline(d, false, now);
  }

  /** Step 8: mass silences (link/mass-silence.ts). */
  private readonly massSilence = new MassSilence();

  /** Whether a judgement that found `silent` of `online` devices silent is held back (step 8). */
  private heldBack(silent: number, online: number, now: number): boolean {
    if (!this.massSilence.hold(silent, online, now)) return false;
    this.stats.probes.heldBack++;
    this.logOnce('mass-silence', 'warn', { silent, online, since: this.massSilence.began }, 'device link: many devices silent at once, their connections open: presence held (the server or the broker is behind)');
    return true;
  }

  // ------------------------------------------------------------------------------------------ logs

  private drop(reason: DropReason, topic: string, detail?: string): void {
    this.stats.dropped[reason] = (this.stats.dropped[reason] ?? 0) + 1;
    // Per device only when the sender is a registered device (not unknown senders or malformed topics).
    const sn = parseTopic(topic)?.sn;
    if (sn && reason !== 'unknown_device' && reason !== 'bad_topic' && this.opts.devices.get(sn)) this.counters.dropped(sn, reason);
    this.logOnce(`${reason}:${topic}`, 'warn', { topic, reason, detail, dropped: this.stats.dropped[reason] }, 'device link: message dropped');
  }

  /** At most one line per key every LOG_EVERY_MS, so a misbehaving device cannot flood the log. */
  private logOnce(key: string, level: 'warn' | 'info', obj: object, msg: string): void {
    const now = Date.now();
    if (now - (this.lastLog.get(key) ?? 0) < LOG_EVERY_MS) return;
    if (this.lastLog.size > 10_000) this.lastLog.clear();
    this.lastLog.set(key, now);
    this.opts.log[level](obj, msg);
  }
}

function issues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.map(String).join('.')}: ${i.message}`)
    .join('; ');
}

/**
 * One test for a list of MQTT topic filters: a topic the first level of no filter can match (a device's
 * topic, against the server's internal filters) is answered without splitting anything.
 */
export function topicMatcher(filters: readonly string[]): (topic: string) => boolean {
  if (filters.length === 0) return () => false;
  const firsts = new Set(filters.map((f) => f.split('/')[0]!));
  const anyFirst = firsts.has('+') || firsts.has('#');
  return (topic) => {
    if (!anyFirst) {
      const slash = topic.indexOf('/');
      if (!firsts.has(slash < 0 ? topic : topic.slice(0, slash))) return false;
    }
    return filters.some((filter) => matches(filter, topic));
  };
}

/** MQTT topic filter match (+ and # wildcards). */
export function matches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
