import { z } from 'zod';

/** Push (WebSocket) message ids (SPEC sections 4, 7, 8). Later issues add telemetry and event ids here. */
export const PushMsgId = {
  USER_VERIFY: 100,
  HEARTBEAT: 101,
  EQUIPMENT_VERIFY: 200,
  CONTROL: 401,
  PROCESS_CONTROL: 473,
  /** Client -> server: start (`{on: true}`) or stop fleet-wide map updates (310) on this socket. */
  FLEET_SUBSCRIBE: 210,
  /** Server -> client: telemetry of a device verified on this socket with 200. */
  DEVICE_TELEMETRY: 300,
  /** Server -> client: online status (1 online, 2 offline, 3 connected by someone) of a verified device. */
  DEVICE_STATUS: 301,
  /** Server -> client: batched positions and states of every visible device, at most one per device per period. */
  FLEET_UPDATE: 310,
  /** Server -> client: progress of a verified device's nest flow (takeoff, landing, alternate): flight.ts flowProgressPush. */
  FLOW_PROGRESS: 320,
  /** Server -> client: progress of a verified device's mission: flight.ts missionProgressPush. */
  MISSION_PROGRESS: 330,
  /** Server -> client: a result (photo, panorama, video) of a verified device arrived: flight.ts resultAddedPush. */
  RESULT_ADDED: 350,
  /** Server -> client: a sortie of a verified device began or ended: flight.ts sortiePush. */
  SORTIE: 360,
  /** Server -> client: an alarm was raised, cleared or processed (alarms.ts alarmPush), to the company's sockets. */
  ALARM: 370,
  /** Server -> client: the company's sorties / results / alarms / tasks changed (stats.ts dataChangedPush). */
  DATA_CHANGED: 380,
  /** Server -> client: progress of an offline map download job (contracts mapDownloadPush), to the sockets of the user who started it. */
  MAP_DOWNLOAD: 391,
  /** Server -> client (maintenance): a device operation started, progressed or ended: maintenance.ts deviceOpPush; to the sockets watching the device and to the user who started it. */
  DEVICE_OP: 390,
} as const;
export type PushMsgId = (typeof PushMsgId)[keyof typeof PushMsgId];

/** Path of the push endpoint under the server root. */
export const PUSH_PATH = '/api/push';

/** Socket states reported to the caller (SPEC section 4). */
export const SocketState = { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 } as const;
export type SocketState = (typeof SocketState)[keyof typeof SocketState];

/** A socket that has not verified its user (100) within this long after opening is closed. */
export const PUSH_VERIFY_LIMIT_MS = 30_000;

/** Largest push frame either side accepts. */
export const PUSH_MAX_FRAME_BYTES = 64 * 1024;

export const pushEnvelope = z.object({
  msg_id: z.number().int(),
  tms: z.number().int().nonnegative(),
  version: z.literal(0),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type PushEnvelope = z.infer<typeof pushEnvelope>;

export const pushReply = z.object({
  code: z.number().int(),
  msg: z.string(),
  msg_id: z.number().int(),
  data: z.unknown(),
});
export type PushReply = z.infer<typeof pushReply>;

export const userVerifyData = z.object({
  token: z.string().min(1).max(256),
  app_ids: z.string().max(64),
  app_code: z.string().max(64),
  licence: z.string().min(1).max(1024),
  os_language: z.string().max(8),
});

export const equipmentVerifyData = z.object({
  token: z.string().min(1).max(256),
  sn_id: z.string().min(1).max(64),
  pmd: z.string().max(64),
  vst: z.literal(40),
  sor: z.literal('100'),
  os_language: z.string().max(8),
});

/** What the licence of message 100 signs: md5 of token + app_ids + app_code, then encrypted. */
export const licencePlain = (token: string, appIds: string, appCode: string): string => token + appIds + appCode;

/** data of 300 DEVICE_TELEMETRY: the device's latest telemetry as received over the device link. */
export const deviceTelemetryPush = z.object({
  sn_id: z.string(),
  state: z.number().int(),
  /** contracts device-link `telemetryData` */
  telemetry: z.unknown(),
  /** Server receive time, ms. */
  at: z.number().int(),
});
export type DeviceTelemetryPush = z.infer<typeof deviceTelemetryPush>;

/** data of 301 DEVICE_STATUS */
export const deviceStatusPush = z.object({
  sn_id: z.string(),
  state: z.number().int(),
  connected_by: z.object({ u_id: z.string(), nick: z.string() }).nullable(),
});
export type DeviceStatusPush = z.infer<typeof deviceStatusPush>;

/** One device in a 310 FLEET_UPDATE batch (only what a map marker needs). */
export const fleetEntry = z.object({
  sn_id: z.string(),
  state: z.number().int(),
  lat: z.number(),
  lng: z.number(),
  heading: z.number(),
  flight_state: z.number().int().nullable(),
  battery: z.number().nullable(),
  height: z.number().nullable(),
});
export type FleetEntry = z.infer<typeof fleetEntry>;
export const fleetUpdatePush = z.object({ devices: z.array(fleetEntry) });
export type FleetUpdatePush = z.infer<typeof fleetUpdatePush>;

/** data of 210 FLEET_SUBSCRIBE (client -> server). */
export const fleetSubscribeData = z.object({ on: z.boolean() });
export type FleetSubscribeData = z.infer<typeof fleetSubscribeData>;
/** Period of 310 FLEET_UPDATE batches, ms. */
export const FLEET_UPDATE_PERIOD_MS = 1000;
