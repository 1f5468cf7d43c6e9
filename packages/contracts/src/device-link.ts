import { z } from 'zod';
import { cameraSettingsSchema, flowProgressSchema, missionProgressSchema } from './flight.js';
import { fastSafeParse } from './fast-parse.js';
import { jsonHasNul } from './form.js';

/**
 * The device link (MQTT) between the server and nests / drones, version 1. Written down for people in
 * docs/device-protocol.md; this module is the machine-checked half used by server and simulator alike.
 *
 * Topics, one set per device serial number (sn):
 *   nest/v1/<sn>/presence        device -> server  retained, QoS 1; `{online:true}` on connect, the same
 *                                                  topic with `{online:false}` is the MQTT last-will
 *   nest/v1/<sn>/telemetry       device -> server  QoS 0, every 1/rate seconds
 *   nest/v1/<sn>/state           device -> server  QoS 1, retained, on change (slow-moving facts)
 *   nest/v1/<sn>/events          device -> server  QoS 1, needs an `events_reply` with the same tid
 *   nest/v1/<sn>/events_reply    server -> device  QoS 1
 *   nest/v1/<sn>/commands        server -> device  QoS 1
 *   nest/v1/<sn>/commands_reply  device -> server  QoS 1, same tid as the command
 *
 * Every message is one JSON envelope `{v, tid, bid, ts, method, data}`:
 * - `tid` identifies one exchange and is KEPT across re-sends, so a device executes a command id at most
 *   once and answers a repeat with the first outcome;
 * - `bid` identifies the business flow (a whole takeoff, a mission) that several exchanges belong to;
 * - `ts` is the sender's clock in ms; `method` names the payload schema.
 */
export const LINK_VERSION = 1;
export const TOPIC_ROOT = 'nest/v1';

export const DEVICE_TO_SERVER = ['presence', 'telemetry', 'state', 'events', 'commands_reply'] as const;
export const SERVER_TO_DEVICE = ['commands', 'events_reply'] as const;
export type DeviceChannel = (typeof DEVICE_TO_SERVER)[number];
export type ServerChannel = (typeof SERVER_TO_DEVICE)[number];
export type Channel = DeviceChannel | ServerChannel;

/** Serial numbers: letters, digits, dash, underscore; no MQTT wildcards or separators. */
export const SN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const isSn = (sn: string): boolean => SN_PATTERN.test(sn);

export const topicOf = (sn: string, channel: Channel): string => `${TOPIC_ROOT}/${sn}/${channel}`;
/** Subscription filter for one channel of every device. */
export const channelFilter = (channel: Channel): string => `${TOPIC_ROOT}/+/${channel}`;

const DEVICE_CHANNELS: ReadonlySet<string> = new Set(DEVICE_TO_SERVER);
const SERVER_CHANNELS: ReadonlySet<string> = new Set(SERVER_TO_DEVICE);
/** Whether a channel name is one a device sends on. */
export const isDeviceChannel = (channel: string): channel is DeviceChannel => DEVICE_CHANNELS.has(channel);
const ROOT_PREFIX = `${TOPIC_ROOT}/`;

/**
 * Parses a topic into (sn, channel); null for anything that is not a device-link topic
 * (`nest/v1/<sn>/<channel>`, exactly four levels). Read for every device message: no split, no array.
 */
export function parseTopic(topic: string): { sn: string; channel: Channel } | null {
  if (!topic.startsWith(ROOT_PREFIX)) return null;
  const slash = topic.indexOf('/', ROOT_PREFIX.length);
  if (slash < 0) return null;
  const channel = topic.slice(slash + 1);
  if (!DEVICE_CHANNELS.has(channel) && !SERVER_CHANNELS.has(channel)) return null;
  const sn = topic.slice(ROOT_PREFIX.length, slash);
  if (!isSn(sn)) return null;
  return { sn, channel: channel as Channel };
}

/** May a device authenticated as `sn` publish to / subscribe to this topic? (broker ACL) */
export function devicePublishAllowed(sn: string, topic: string): boolean {
  const t = parseTopic(topic);
  return t !== null && t.sn === sn && DEVICE_CHANNELS.has(t.channel);
}
export function deviceSubscribeAllowed(sn: string, topic: string): boolean {
  const t = parseTopic(topic);
  return t !== null && t.sn === sn && SERVER_CHANNELS.has(t.channel);
}

/** Largest device message accepted; larger ones are dropped unread. */
export const LINK_MAX_MESSAGE_BYTES = 32 * 1024;
/**
 * Messages a second one device may send on average (ten times the fastest telemetry), and the burst
 * above that (a reconnect's retained state and queued QoS-1 events). Beyond, its messages are dropped as
 * `rate_limited` (events are then not acknowledged, so the device sends them again): a flooding device
 * cannot take the server's time from the others.
 */
export const LINK_DEVICE_MAX_MESSAGES_PER_SECOND = 100;
export const LINK_DEVICE_BURST = 200;
/** A device is offline when no telemetry arrived for this many periods. */
export const MISSED_TELEMETRY_PERIODS = 3;
export const DEFAULT_TELEMETRY_HZ = 1;
export const MIN_TELEMETRY_HZ = 0.5;
export const MAX_TELEMETRY_HZ = 10;

const finite = () => z.number().finite();
const lat = () => z.number().min(-90).max(90);
const lng = () => z.number().min(-180).max(180);

export const linkEnvelope = z.object({
  v: z.literal(LINK_VERSION),
  tid: z.string().min(1).max(64),
  bid: z.string().max(64),
  ts: z.number().int().nonnegative(),
  method: z.string().min(1).max(64),
  data: z.unknown(),
});
export type LinkEnvelope<D = unknown> = Omit<z.infer<typeof linkEnvelope>, 'data'> & { data: D };

export const presenceData = z.object({
  online: z.boolean(),
  /** Telemetry rate the device will keep, so the server knows when silence means offline. */
  rate_hz: z.number().min(MIN_TELEMETRY_HZ).max(MAX_TELEMETRY_HZ).optional(),
  firmware: z.string().max(64).optional(),
});
export type PresenceData = z.infer<typeof presenceData>;

/** Moving or switched nest parts: 0 closed/off, 1 open/on, 2 closing, 3 opening (SPEC action tips), 4 fault. */
export const partState = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type PartState = z.infer<typeof partState>;

export const droneTelemetry = z.object({
  sn: z.string().max(64),
  lat: lat(),
  lng: lng(),
  /** Height above mean sea level (m). */
  alt: finite(),
  /** Height above the take-off point (m). */
  height: finite(),
  h_speed: z.number().min(0).max(100),
  v_speed: z.number().min(-50).max(50),
  heading: z.number().min(0).max(360),
  pitch: z.number().min(-180).max(180),
  roll: z.number().min(-180).max(180),
  battery: z.object({
    percent: z.number().min(0).max(100),
    voltage: z.number().min(0).max(100),
    temperature: finite(),
    charging: z.boolean(),
  }),
  flight_state: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(8)]),
  flight_mode: z.number().int().min(0).max(99),
  rtk: z.object({
    status: z.number().int().min(0).max(4),
    satellites: z.number().int().min(0).max(200),
    ntrip_state: z.number().int().min(0).max(11),
  }),
  gps_satellites: z.number().int().min(0).max(200),
  /** Distance from the home point (m) and time in the air for the current flight (s). */
  home_distance: z.number().min(0),
  flight_time: z.number().int().min(0),
  powered: z.boolean(),
  storage: z.object({ sdcard_totalsize: z.number().min(0), sdcard_free: z.number().min(0) }),
  camera: z.object({
    camera_iso: z.number().int().min(0).max(25600),
    camera_shutter: z.string().max(16),
    camera_exp_mode: z.number().int().min(0).max(9),
    camera_exp_value: z.number().min(-5).max(5),
    camera_awb: z.number().int().min(0).max(8),
  }),
});
export type DroneTelemetry = z.infer<typeof droneTelemetry>;

export const nestTelemetry = z.object({
  lat: lat(),
  lng: lng(),
  hatch: partState,
  platform: partState,
  tripod: partState,
  charger: partState,
  drone_power: partState,
  env: z.object({
    wind_speed: z.number().min(0).max(100),
    wind_direction: z.number().min(0).max(360),
    temperature: z.number().min(-80).max(100),
    humidity: z.number().min(0).max(100),
    /** mm/h */
    rainfall: z.number().min(0).max(1000),
  }),
});
export type NestTelemetry = z.infer<typeof nestTelemetry>;

/** method 'telemetry': a nest carries `nest` and its `drone`; a single-soldier drone only `drone`. */
export const telemetryData = z
  .object({ nest: nestTelemetry.optional(), drone: droneTelemetry.optional() })
  .refine((d) => d.nest !== undefined || d.drone !== undefined, { message: 'empty telemetry' });
export type TelemetryData = z.infer<typeof telemetryData>;

const utf8 = new TextDecoder();
const parseEnvelope = fastSafeParse(linkEnvelope);

/** Parses a raw MQTT payload into an envelope, or answers why not (never throws). */
export function parseLinkMessage(payload: Uint8Array | string):
  | { ok: true; message: LinkEnvelope }
  | { ok: false; reason: string } {
  const size = typeof payload === 'string' ? payload.length : payload.byteLength;
  if (size > LINK_MAX_MESSAGE_BYTES) return { ok: false, reason: `message too large (${size} bytes)` };
  let json: unknown;
  const text = typeof payload === 'string' ? payload : utf8.decode(payload);
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  // No text a device sends may hold NUL: PostgreSQL cannot store it, so an event carrying one could never
  // be stored, nor acknowledged, and would be re-sent forever.
  if (text.includes('\\u0000') && jsonHasNul(json)) return { ok: false, reason: 'NUL character' };
  const parsed = parseEnvelope(json);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  return { ok: true, message: parsed.data as LinkEnvelope };
}

/*
 * ---------------------------------------------------------------------------------------------------
 * Methods, commands, events and state (docs/device-protocol.md has the prose and the reasons).
 */

/** Method names of the fixed channels and of the commands the server sends today. */
export const LinkMethod = {
  /** channel presence */
  PRESENCE: 'presence',
  /** channel telemetry */
  TELEMETRY: 'telemetry',
  /** channel state */
  STATE: 'state',
  /** command: start the drone video (HLS at <live url base>/<sn>/index.m3u8) */
  VIDEO_START: 'video.start',
  /** command: stop the drone video */
  VIDEO_STOP: 'video.stop',
} as const;

/**
 * A command waits this long for its reply before it is re-sent, unchanged (same tid), at most
 * COMMAND_MAX_RESENDS times; then the outcome is "timeout". A device that already executed a tid answers
 * a repeat with the first outcome and does not execute it again.
 */
export const COMMAND_TIMEOUT_MS = 3000;
export const COMMAND_MAX_RESENDS = 2;
/** How long a device remembers executed command tids (for repeats). */
export const COMMAND_TID_MEMORY_MS = 5 * 60_000;

/** data of commands_reply (and events_reply): `result` 0 is success, anything else a device error code. */
export const commandReplyData = z.object({
  result: z.number().int(),
  /** Human-readable detail (logs), never shown verbatim to operators. */
  message: z.string().max(256).optional(),
  /** Method-specific answer. */
  output: z.unknown().optional(),
});
export type CommandReplyData = z.infer<typeof commandReplyData>;
export const eventReplyData = z.object({ result: z.number().int() });
export type EventReplyData = z.infer<typeof eventReplyData>;

/** data of video.start / video.stop (empty today: the drone's main camera). */
export const videoCommandData = z.object({ camera: z.string().max(32).optional() });
/** output of a successful video.start: the path of the HLS playlist under the live base, if the device says. */
export const videoStartOutput = z.object({ url: z.string().max(512).optional() });

/**
 * data of channel state (retained, on change): slow-moving facts, all of them in every message (so the
 * retained message alone tells the current state), plus `changed`: the facts that changed since the
 * previous state message. Unknown keys are kept (a newer device may report more); the server reads the
 * ones below.
 */
export const stateSnapshot = z.looseObject({
  firmware: z.string().max(64).optional(),
  rate_hz: z.number().min(MIN_TELEMETRY_HZ).max(MAX_TELEMETRY_HZ).optional(),
  faults: z.array(z.string().max(64)).max(64).optional(),
  /** Is the video of this device being published now, and where (path under the live base, or URL). */
  video: z.object({ streaming: z.boolean(), url: z.string().max(512).nullable().optional() }).optional(),
  /** The running (or last) nest flow, null when none since start-up. */
  flow: flowProgressSchema.nullable().optional(),
  /** The mission being flown (or the last one), null when none. */
  mission: missionProgressSchema.nullable().optional(),
  /** The camera's current settings. */
  camera: cameraSettingsSchema.optional(),
  /** Virtual-stick mode on. */
  stick_mode: z.boolean().optional(),
});
export const stateData = z.looseObject({
  ...stateSnapshot.shape,
  changed: z.record(z.string(), z.unknown()).optional(),
});
export type StateData = z.infer<typeof stateData>;

/** data of channel events: `code` names the event kind; the rest is event-specific. */
export const eventData = z.looseObject({ code: z.string().max(64).optional() });
export type EventData = z.infer<typeof eventData>;

/**
 * The data schemas of the device -> server channels as the server checks every message: the same schemas,
 * through fastSafeParse (a valid message in its output shape is answered without zod's walk and copy).
 */
export const linkData = {
  presence: fastSafeParse(presenceData),
  telemetry: fastSafeParse(telemetryData),
  state: fastSafeParse(stateData),
  events: fastSafeParse(eventData),
  commandReply: fastSafeParse(commandReplyData),
};

/** QoS and retained flag of each channel. */
export const CHANNEL_QOS: Readonly<Record<Channel, { qos: 0 | 1; retain: boolean }>> = {
  presence: { qos: 1, retain: true },
  telemetry: { qos: 0, retain: false },
  state: { qos: 1, retain: true },
  events: { qos: 1, retain: false },
  events_reply: { qos: 1, retain: false },
  commands: { qos: 1, retain: false },
  commands_reply: { qos: 1, retain: false },
};

/** MQTT user name of the server itself; never a device serial number. */
export const SERVER_MQTT_USER = 'nest-server';
/** Client ids of server instances start with this; devices may not use it. */
export const SERVER_CLIENT_ID_PREFIX = 'nest-server-';
/** Serial numbers a device may be registered with (a valid sn that is not the server's user name). */
export const isDeviceSn = (sn: string): boolean => isSn(sn) && sn !== SERVER_MQTT_USER;

/** Builds an envelope (ts now, bid empty unless given). */
export function linkMessage<D>(method: string, data: D, opts: { tid: string; bid?: string; ts?: number }): LinkEnvelope<D> {
  return { v: LINK_VERSION, tid: opts.tid, bid: opts.bid ?? '', ts: opts.ts ?? Date.now(), method, data };
}
