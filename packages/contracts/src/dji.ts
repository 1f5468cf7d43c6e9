import { z } from 'zod';
import { enumeration, type Enumeration } from './enums.js';
import { fastSafeParse } from './fast-parse.js';

/**
 * The DJI Cloud API wire (MQTT thing model) as the server reads it from DJI docks and Pilot 2 gateways
 * (docs/dji.md). Every schema is lenient: objects keep unknown keys, every device-reported field is
 * optional, and `domain` / `type` may come as numeric strings, so a newer firmware or an unknown model
 * never breaks parsing. What the server sends is built by the adapter with the helpers below.
 */

// ------------------------------------------------------------------------------------------ timing

/** Dock and drone OSD come at a fixed 0.5 Hz (one period every 2 s, in several partial messages). */
export const DJI_OSD_PERIOD_MS = 2000;
export const DJI_OSD_HZ = 0.5;
/** The protocol has no will: a gateway without any OSD for this long is offline. */
export const DJI_OFFLINE_AFTER_MS = 30_000;
/** A service waits this long for its reply before it is sent again (new tid, same bid). */
export const DJI_SERVICE_TIMEOUT_MS = 3000;
export const DJI_SERVICE_MAX_RESENDS = 2;

// ------------------------------------------------------------------------------------------ topics

export type DjiUpChannel = 'status' | 'osd' | 'state' | 'events' | 'requests' | 'services_reply' | 'property/set_reply' | 'drc/up';
export type DjiDownChannel = 'status_reply' | 'services' | 'events_reply' | 'requests_reply' | 'state_reply' | 'property/set' | 'drc/down';

/** Topic builders (sn = gateway, or the drone for its own osd/state). */
export const djiTopic = {
  status: (gw: string) => `sys/product/${gw}/status`,
  statusReply: (gw: string) => `sys/product/${gw}/status_reply`,
  thing: (sn: string, channel: DjiUpChannel | DjiDownChannel) => `thing/product/${sn}/${channel}`,
} as const;

/** The server's subscriptions: every gateway's status and thing topics that devices publish. */
export const DJI_SERVER_SUBSCRIPTIONS: readonly string[] = [
  'sys/product/+/status',
  'thing/product/+/osd',
  'thing/product/+/state',
  'thing/product/+/events',
  'thing/product/+/requests',
  'thing/product/+/services_reply',
  'thing/product/+/property/set_reply',
];

const UP_CHANNELS: readonly string[] = ['osd', 'state', 'events', 'requests', 'services_reply', 'property/set_reply', 'drc/up'];
const DJI_SN = /^[A-Za-z0-9_-]{1,64}$/;

/** Parses a device->server DJI topic into (sn, channel); null for anything else. */
export function parseDjiTopic(topic: string): { sn: string; channel: DjiUpChannel } | null {
  const parts = topic.split('/');
  const sn = parts[2] ?? '';
  if (!DJI_SN.test(sn)) return null;
  if (parts[0] === 'sys' && parts[1] === 'product' && parts.length === 4 && parts[3] === 'status') return { sn, channel: 'status' };
  if (parts[0] !== 'thing' || parts[1] !== 'product' || parts.length < 4) return null;
  const channel = parts.slice(3).join('/');
  return UP_CHANNELS.includes(channel) ? { sn, channel: channel as DjiUpChannel } : null;
}

/** Whether a topic is a DJI Cloud API topic at all (`sys/product/...` or `thing/product/...`). */
export const isDjiTopic = (topic: string): boolean => topic.startsWith('thing/product/') || topic.startsWith('sys/product/');

// ------------------------------------------------------------------------------------------ envelope

const num = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]);
const flag = z.union([z.literal(0), z.literal(1), z.boolean().transform((b) => (b ? 1 : 0))]);

/** Every DJI message: `{tid, bid, timestamp, method?, gateway?, need_reply?, data}`. */
export const djiEnvelope = z.looseObject({
  tid: z.string().min(1).max(64),
  bid: z.string().max(64).default(''),
  timestamp: z.number().nonnegative().optional(),
  method: z.string().max(64).optional(),
  gateway: z.string().max(64).optional(),
  need_reply: flag.optional(),
  data: z.unknown().optional(),
});
export type DjiEnvelope = z.infer<typeof djiEnvelope>;

/** Builds a server->device envelope. */
export function djiMessage(method: string | undefined, data: unknown, opts: { tid: string; bid: string; timestamp?: number }): Record<string, unknown> {
  return { tid: opts.tid, bid: opts.bid, timestamp: opts.timestamp ?? Date.now(), ...(method !== undefined ? { method } : {}), data };
}

// ------------------------------------------------------------------------------------------ methods

export const DjiMethod = {
  UPDATE_TOPO: 'update_topo',
  FLIGHTTASK_PREPARE: 'flighttask_prepare',
  FLIGHTTASK_EXECUTE: 'flighttask_execute',
  FLIGHTTASK_UNDO: 'flighttask_undo',
  FLIGHTTASK_PAUSE: 'flighttask_pause',
  FLIGHTTASK_RECOVERY: 'flighttask_recovery',
  RETURN_HOME: 'return_home',
  RETURN_HOME_CANCEL: 'return_home_cancel',
  TAKEOFF_TO_POINT: 'takeoff_to_point',
  FLIGHT_AUTHORITY_GRAB: 'flight_authority_grab',
  LIVE_START_PUSH: 'live_start_push',
  LIVE_STOP_PUSH: 'live_stop_push',
  LIVE_SET_QUALITY: 'live_set_quality',
  /** remote debug: hardware commands work only while the dock is in debug mode (mode_code 2) */
  DEBUG_MODE_OPEN: 'debug_mode_open',
  DEBUG_MODE_CLOSE: 'debug_mode_close',
  COVER_OPEN: 'cover_open',
  COVER_CLOSE: 'cover_close',
  DRONE_OPEN: 'drone_open',
  DRONE_CLOSE: 'drone_close',
  CHARGE_OPEN: 'charge_open',
  CHARGE_CLOSE: 'charge_close',
  DEVICE_REBOOT: 'device_reboot',
  /** firmware update (OTA): the dock downloads file_url, checks md5 and size, upgrades; progress by ota_progress */
  OTA_CREATE: 'ota_create',
  OTA_PROGRESS: 'ota_progress',
  /** events */
  FLIGHTTASK_PROGRESS: 'flighttask_progress',
  FLIGHTTASK_READY: 'flighttask_ready',
  TAKEOFF_TO_POINT_PROGRESS: 'takeoff_to_point_progress',
  HMS: 'hms',
  RETURN_HOME_INFO: 'return_home_info',
  FILE_UPLOAD_CALLBACK: 'file_upload_callback',
  /** requests */
  FLIGHTTASK_RESOURCE_GET: 'flighttask_resource_get',
  CONFIG: 'config',
  STORAGE_CONFIG_GET: 'storage_config_get',
  AIRPORT_BIND_STATUS: 'airport_bind_status',
  AIRPORT_ORGANIZATION_GET: 'airport_organization_get',
  AIRPORT_ORGANIZATION_BIND: 'airport_organization_bind',
} as const;

// ------------------------------------------------------------------------------------------ models

/** Model key `domain-type-sub_type` from its parts (numbers or numeric strings). */
export const djiModelKey = (domain: number, type: number, subType: number): string => `${domain}-${type}-${subType}`;

export interface DjiModel {
  key: string;
  name: string;
  /** 0 drone, 2 remote controller, 3 dock. */
  domain: number;
  /** WPML droneInfo of a drone. */
  drone?: { droneEnumValue: number; droneSubEnumValue: number };
  /** WPML payloadInfo of a drone's main camera. */
  payload?: { payloadEnumValue: number; payloadPositionIndex: number };
}

/** The models the adapter knows by name; any other key is still accepted (name = the key). */
export const DJI_MODELS: readonly DjiModel[] = [
  { key: '3-1-0', name: 'Dock', domain: 3 },
  { key: '3-2-0', name: 'Dock 2', domain: 3 },
  { key: '3-3-0', name: 'Dock 3', domain: 3 },
  { key: '0-67-0', name: 'M30', domain: 0, drone: { droneEnumValue: 67, droneSubEnumValue: 0 }, payload: { payloadEnumValue: 52, payloadPositionIndex: 0 } },
  { key: '0-67-1', name: 'M30T', domain: 0, drone: { droneEnumValue: 67, droneSubEnumValue: 1 }, payload: { payloadEnumValue: 53, payloadPositionIndex: 0 } },
  { key: '0-91-0', name: 'M3D', domain: 0, drone: { droneEnumValue: 91, droneSubEnumValue: 0 }, payload: { payloadEnumValue: 80, payloadPositionIndex: 0 } },
  { key: '0-91-1', name: 'M3TD', domain: 0, drone: { droneEnumValue: 91, droneSubEnumValue: 1 }, payload: { payloadEnumValue: 81, payloadPositionIndex: 0 } },
  { key: '0-100-0', name: 'M4D', domain: 0, drone: { droneEnumValue: 100, droneSubEnumValue: 0 }, payload: { payloadEnumValue: 98, payloadPositionIndex: 0 } },
  { key: '0-100-1', name: 'M4TD', domain: 0, drone: { droneEnumValue: 100, droneSubEnumValue: 1 }, payload: { payloadEnumValue: 99, payloadPositionIndex: 0 } },
  // Drones flown from an RC gateway (DJI Pilot 2): their keys and WPML enums as DJI's document lists them.
  { key: '0-77-0', name: 'M3E', domain: 0, drone: { droneEnumValue: 77, droneSubEnumValue: 0 }, payload: { payloadEnumValue: 66, payloadPositionIndex: 0 } },
  { key: '0-77-1', name: 'M3T', domain: 0, drone: { droneEnumValue: 77, droneSubEnumValue: 1 }, payload: { payloadEnumValue: 67, payloadPositionIndex: 0 } },
  { key: '0-89-0', name: 'M350 RTK', domain: 0, drone: { droneEnumValue: 89, droneSubEnumValue: 0 } },
  { key: '0-99-0', name: 'M4E', domain: 0, drone: { droneEnumValue: 99, droneSubEnumValue: 0 }, payload: { payloadEnumValue: 88, payloadPositionIndex: 0 } },
  { key: '0-99-1', name: 'M4T', domain: 0, drone: { droneEnumValue: 99, droneSubEnumValue: 1 }, payload: { payloadEnumValue: 89, payloadPositionIndex: 0 } },
  { key: '2-119-0', name: 'DJI RC Plus', domain: 2 },
  { key: '2-144-0', name: 'DJI RC Pro Enterprise', domain: 2 },
  { key: '2-56-0', name: 'DJI Smart Controller Enterprise', domain: 2 },
];

/** A model by its key, or by the console's `uav_model` name ("M3D"); undefined when unknown. */
export function djiModel(keyOrName: string | null | undefined): DjiModel | undefined {
  if (!keyOrName) return undefined;
  const k = keyOrName.trim();
  return DJI_MODELS.find((m) => m.key === k) ?? DJI_MODELS.find((m) => m.name.toLowerCase() === k.toLowerCase());
}

// ------------------------------------------------------------------------------------------ status

const topoDevice = z.looseObject({
  sn: z.string().max(64).optional(),
  domain: num.optional(),
  type: num.optional(),
  sub_type: num.optional(),
  index: z.string().max(8).optional(),
  thing_version: z.string().max(32).optional(),
});

/** `update_topo` data: the gateway and its sub-devices (`[]`: the drone is off). */
export const djiUpdateTopo = z.looseObject({
  domain: num.optional(),
  type: num.optional(),
  sub_type: num.optional(),
  thing_version: z.string().max(32).optional(),
  sub_devices: z.array(topoDevice).max(16).default([]),
});
export type DjiUpdateTopo = z.infer<typeof djiUpdateTopo>;

/** Model key of a topology entry, when its parts are there. */
export function topoModelKey(d: { domain?: number; type?: number; sub_type?: number }): string | null {
  return d.domain !== undefined && d.type !== undefined ? djiModelKey(d.domain, d.type, d.sub_type ?? 0) : null;
}

// ------------------------------------------------------------------------------------------ osd

const n = () => z.number().finite().optional();
const positionState = z.looseObject({ is_calibration: n(), is_fixed: n(), quality: n(), gps_number: n(), rtk_number: n() });
const storage = z.looseObject({ total: n(), used: n() });

/** Dock OSD, one partial message of a period: every key optional. */
export const djiDockOsd = z.looseObject({
  mode_code: n(),
  cover_state: n(),
  putter_state: n(),
  drone_in_dock: n(),
  drone_charge_state: z.looseObject({ state: n(), capacity_percent: n() }).optional(),
  latitude: n(),
  longitude: n(),
  height: n(),
  heading: n(),
  environment_temperature: n(),
  temperature: n(),
  humidity: n(),
  wind_speed: n(),
  rainfall: n(),
  network_state: z.looseObject({ type: n(), quality: n(), rate: n() }).optional(),
  position_state: positionState.optional(),
  storage: storage.optional(),
  sub_device: z
    .looseObject({
      device_sn: z.string().max(64).optional(),
      device_model_key: z.string().max(16).optional(),
      product_type: z.string().max(16).optional(),
      device_online_status: n(),
      device_paired: n(),
    })
    .optional(),
  flighttask_step_code: n(),
  drc_state: n(),
});
export type DjiDockOsd = z.infer<typeof djiDockOsd>;

/** Drone OSD (topic of the drone sn, `gateway` = the dock), one partial message: every key optional. */
export const djiDroneOsd = z.looseObject({
  mode_code: n(),
  latitude: n(),
  longitude: n(),
  height: n(),
  elevation: n(),
  attitude_head: n(),
  attitude_pitch: n(),
  attitude_roll: n(),
  horizontal_speed: n(),
  vertical_speed: n(),
  home_distance: n(),
  wind_speed: n(),
  wind_direction: n(),
  battery: z
    .looseObject({
      capacity_percent: n(),
      remain_flight_time: n(),
      batteries: z.array(z.looseObject({ index: n(), capacity_percent: n(), voltage: n(), temperature: n() })).max(8).optional(),
    })
    .optional(),
  position_state: positionState.optional(),
  storage: storage.optional(),
  gear: n(),
  total_flight_time: n(),
});
export type DjiDroneOsd = z.infer<typeof djiDroneOsd>;

/**
 * The schemas of the messages a DJI gateway sends many times a second (every message's envelope, the OSD
 * of its dock and drone), as the server checks them: the same schemas through fastSafeParse (a valid
 * message in its output shape is answered without zod's walk and copy).
 */
export const djiData = {
  envelope: fastSafeParse(djiEnvelope),
  droneOsd: fastSafeParse(djiDroneOsd),
  dockOsd: fastSafeParse(djiDockOsd),
};

// ------------------------------------------------------------------------------------------ events

export const djiProgressStatus = ['sent', 'in_progress', 'paused', 'ok', 'partially_done', 'failed', 'canceled', 'rejected', 'timeout'] as const;
export const DJI_TERMINAL_STATUSES: readonly string[] = ['ok', 'partially_done', 'failed', 'canceled', 'rejected', 'timeout'];

/** `flighttask_progress` data (need_reply 1, bid = flight_id). */
export const djiFlighttaskProgress = z.looseObject({
  result: z.number().int().default(0),
  output: z.looseObject({
    status: z.string().max(32),
    progress: z.looseObject({ current_step: n(), percent: n() }).optional(),
    ext: z
      .looseObject({
        flight_id: z.string().max(64).optional(),
        track_id: z.string().max(64).optional(),
        wayline_id: n(),
        current_waypoint_index: n(),
        wayline_mission_state: n(),
        media_count: n(),
        break_point: z.looseObject({ index: n(), state: n(), progress: n(), wayline_id: n() }).optional(),
      })
      .optional(),
  }),
});
export type DjiFlighttaskProgress = z.infer<typeof djiFlighttaskProgress>;

/** `hms` data: the health messages a gateway reports now. */
export const djiHms = z.looseObject({
  list: z
    .array(
      z.looseObject({
        level: num,
        module: num,
        in_the_sky: flag.optional(),
        code: z.string().min(1).max(32),
        device_type: z.string().max(16).optional(),
        imminent: flag.optional(),
        args: z.record(z.string().max(32), z.number()).optional(),
      }),
    )
    .max(256)
    .default([]),
});
export type DjiHms = z.infer<typeof djiHms>;

/** Text key of an HMS item in DJI's catalogue: `dock_tip_<code>` for a dock, else `fpv_tip_<code>[_in_the_sky]`. */
export function hmsKey(item: { code: string; device_type?: string; in_the_sky?: 0 | 1 }): string {
  const dock = (item.device_type ?? '').split('-')[0] === '3';
  if (dock) return `dock_tip_${item.code}`;
  return `fpv_tip_${item.code}${item.in_the_sky === 1 ? '_in_the_sky' : ''}`;
}

// ------------------------------------------------------------------------------------------ services

/** services_reply data: `result` 0 ok, else a DJI code; `output` per method. */
export const djiServiceReply = z.looseObject({ result: z.number().int(), output: z.unknown().optional() });
export type DjiServiceReply = z.infer<typeof djiServiceReply>;

/** Requests the adapter reads. */
export const djiResourceGet = z.looseObject({ flight_id: z.string().max(64) });
/** data of event `file_upload_callback`: a media file the device put into the bucket (DJI-CLOUD-API.md section 6). */
export const djiFileUploadCallback = z.looseObject({
  result: z.number().int().optional(),
  file: z.looseObject({
    object_key: z.string().min(1).max(512),
    name: z.string().max(256).optional(),
    path: z.string().max(512).optional(),
    ext: z.looseObject({ flight_id: z.string().max(64).optional(), drone_model_key: z.string().max(32).optional(), is_original: z.boolean().optional() }).optional(),
    metadata: z
      .looseObject({
        shoot_position: z.looseObject({ lat: z.number().finite(), lng: z.number().finite() }).optional(),
        absolute_altitude: z.number().finite().optional(),
        relative_altitude: z.number().finite().optional(),
        gimbal_yaw_degree: z.number().finite().optional(),
        created_time: z.string().max(64).optional(),
      })
      .optional(),
  }),
});
export type DjiFileUploadCallback = z.infer<typeof djiFileUploadCallback>;
export const djiBindStatusRequest = z.looseObject({ devices: z.array(z.looseObject({ sn: z.string().max(64) })).max(16).default([]) });

// ------------------------------------------------------------------------------------------ result codes

/** DJI result codes the adapter maps, with the text an operator reads. */
export const DjiResult = enumeration('DjiResult', [
  // The server's own code (first digit 9: no DJI source uses it), outside the CommandReason values.
  [900001, '该设备暂不支持此操作', 'This device does not support this operation yet', 'UNSUPPORTED'],
  [312003, '固件校验失败（MD5 或大小不符）', 'The firmware package did not verify (MD5 or size)', 'OTA_VERIFY_FAILED'],
  [312014, '设备正在升级固件', 'The device is updating its firmware already', 'OTA_UPDATING'],
  [312015, '飞行中无法升级固件', 'The firmware cannot be updated during a flight', 'OTA_IN_FLIGHT'],
  [314000, '设备当前无法执行该任务（忙）', 'The device cannot take this task now (busy)', 'BUSY'],
  [314002, '航线文件 MD5 为空', 'The route file has no MD5', 'MD5_EMPTY'],
  [314003, '航线文件格式不正确', 'The route file format is invalid', 'BAD_FORMAT'],
  [314005, '航线文件 MD5 不匹配', 'MD5 mismatch: the route file is not the one announced', 'MD5_MISMATCH'],
  [314013, '设备无法获取航线文件', 'The device could not download the route file', 'KMZ_UNOBTAINABLE'],
  [316024, '飞机不在空中，无法返航', 'The drone is not in the air: it cannot return home', 'NOT_AIRBORNE'],
  [319001, '机场不在空闲状态', 'The dock is not idle', 'NOT_IDLE'],
  [319003, '任务不存在', 'The task does not exist on the dock', 'UNKNOWN_TASK'],
  [319004, '任务已过期', 'The task has expired', 'EXPIRED'],
  [319008, '机场时间未同步（请检查 NTP）', 'The dock clock is not synchronised (check NTP)', 'CLOCK_UNSYNCED'],
  [319016, '机场正在执行其他任务', 'The dock is busy with another task', 'DOCK_BUSY'],
  [322283, '用户请求返航，任务结束', 'Mission ended: return home was requested', 'USER_RTH'],
  [325001, '指令参数错误', 'Invalid command parameters', 'BAD_PARAMETER'],
  [513001, '飞机不在线，无法直播', 'No drone is online: live video cannot start', 'LIVE_NO_AIRCRAFT'],
  [513002, '相机不存在，无法直播', 'The camera does not exist: live video cannot start', 'LIVE_NO_CAMERA'],
  [513003, '相机已在直播中', 'The camera is live already', 'ALREADY_LIVE'],
  [513011, '直播未开始', 'The camera is not live', 'NOT_LIVE'],
  [513013, '不支持的直播协议', 'This live video protocol is not supported', 'LIVE_BAD_URL_TYPE'],
  [514107, '舱盖无法打开', 'The dock cover could not open', 'COVER_OPEN_FAILED'],
  [514108, '舱盖无法关闭', 'The dock cover could not close', 'COVER_CLOSE_FAILED'],
  [514121, '机场急停已按下', 'The dock emergency stop is pressed', 'EMERGENCY_STOP'],
  [514134, '雨量过大，无法操作舱盖', 'Too much rain to operate the cover', 'RAINING'],
  [514135, '风速过大，无法操作舱盖', 'Too much wind to operate the cover', 'WINDY'],
  [514148, '机场忙或不在调试模式', 'The dock is busy or not in debug mode', 'DEBUG_BUSY'],
  [900002, '上传的文件不存在或不可用', 'The uploaded file does not exist or cannot be used', 'MEDIA_REFUSED'],
] as const);

/** Text of any DJI result code: the mapped one, else a generic text with the code. */
export function djiResultText(code: number, lang: 'zh' | 'en'): string {
  if (DjiResult.has(code)) return DjiResult.label(code, lang);
  return lang === 'zh' ? `设备返回错误码 ${code}` : `The device answered error ${code}`;
}

export const DJI_ENUMS: readonly Enumeration<number | string>[] = [DjiResult];
