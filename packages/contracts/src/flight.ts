import { z } from 'zod';
import {
  ISO_OPTIONS,
  PHOTO_FORMAT_OPTIONS,
  PHOTO_SIZE_OPTIONS,
  RECORDING_BITRATE_OPTIONS,
  RECORDING_RESOLUTION_OPTIONS,
  SHUTTER_OPTIONS,
  VIRTUAL_UP_VALUE,
} from './constants.js';
import { enumeration, type Enumeration } from './enums.js';
import { waypointSchema } from './entities.js';
import { DjiResult } from './dji.js';
import type { Lang, Text } from './i18n.js';

/**
 * Flight operations: what the console, the server and the devices agree on about one-key
 * takeoff and landing, nest flows, missions, remote control, camera settings and the texts of every
 * refusal and failure. docs/device-protocol.md has the prose; this module is the machine-checked half.
 */

// ------------------------------------------------------------------------------------------ flows

/** Kind of a nest flow (a multi-step automatic process with a progress timeline). */
export const FlowKind = enumeration('FlowKind', [
  ['takeoff', '自动起飞', 'Automatic takeoff'],
  ['landing', '自动降落', 'Automatic landing'],
  ['alternate', '备降', 'Alternate landing'],
] as const);
export type FlowKindValue = 'takeoff' | 'landing' | 'alternate';

/** Steps of the flows (SPEC section 4: "drone start, route upload, hatch open, platform rise, ..."). */
export const FlowStep = enumeration('FlowStep', [
  ['drone_start', '飞机开机', 'Drone start'],
  ['route_upload', '航线上传', 'Route upload'],
  ['hatch_open', '舱门打开', 'Hatch open'],
  ['platform_rise', '平台上升', 'Platform rise'],
  ['tripod_release', '脚架释放', 'Tripod release'],
  ['self_check', '飞机自检', 'Self-check'],
  ['unlock', '解锁', 'Unlock'],
  ['takeoff', '起飞', 'Takeoff'],
  ['hatch_close', '舱门关闭', 'Hatch close'],
  ['battery_load', '电池装载', 'Battery load'],
  ['return', '返航', 'Return'],
  ['landing', '降落', 'Landing'],
  ['tripod_clamp', '脚架夹紧', 'Tripod clamp'],
  ['platform_lower', '平台下降', 'Platform lower'],
  ['drone_stop', '飞机关机', 'Drone power off'],
  ['charge', '开始充电', 'Charging start'],
  ['altn_decide', '备降决策', 'Alternate decision'],
  ['altn_fly', '飞往备降点', 'Fly to alternate point'],
  ['altn_land', '备降降落', 'Alternate landing'],
  ['altn_secure', '备降完成', 'Secured at alternate point'],
] as const);
export type FlowStepValue =
  | 'drone_start' | 'route_upload' | 'hatch_open' | 'platform_rise' | 'tripod_release' | 'self_check' | 'unlock'
  | 'takeoff' | 'hatch_close' | 'battery_load' | 'return' | 'landing' | 'tripod_clamp' | 'platform_lower'
  | 'drone_stop' | 'charge' | 'altn_decide' | 'altn_fly' | 'altn_land' | 'altn_secure';

/**
 * The step lists. Takeoff is the SPEC's sequence; landing mirrors it; nests without a lift platform (mini,
 * mobile) skip the platform steps; single-soldier drones have no nest steps at all.
 */
export const TAKEOFF_STEPS: readonly FlowStepValue[] = [
  'drone_start', 'route_upload', 'hatch_open', 'platform_rise', 'tripod_release', 'self_check', 'unlock', 'takeoff', 'hatch_close', 'battery_load',
];
export const LANDING_STEPS: readonly FlowStepValue[] = [
  'return', 'hatch_open', 'platform_rise', 'landing', 'tripod_clamp', 'platform_lower', 'hatch_close', 'drone_stop', 'charge',
];
export const ALTERNATE_STEPS: readonly FlowStepValue[] = ['altn_decide', 'altn_fly', 'altn_land', 'altn_secure'];
const PLATFORM_STEPS: ReadonlySet<FlowStepValue> = new Set(['platform_rise', 'platform_lower']);
const NEST_ONLY_STEPS: ReadonlySet<FlowStepValue> = new Set([
  'hatch_open', 'platform_rise', 'tripod_release', 'hatch_close', 'battery_load', 'tripod_clamp', 'platform_lower', 'drone_stop', 'charge',
]);

/** The steps of a flow for a device type key (contracts DeviceTypeKey). */
export function flowSteps(kind: FlowKindValue, deviceType: string): FlowStepValue[] {
  const base = kind === 'takeoff' ? TAKEOFF_STEPS : kind === 'landing' ? LANDING_STEPS : ALTERNATE_STEPS;
  if (deviceType === 'alone') return base.filter((s) => !NEST_ONLY_STEPS.has(s));
  if (deviceType !== 'stable') return base.filter((s) => !PLATFORM_STEPS.has(s));
  return [...base];
}

/** State of one flow step, and of the flow as a whole. */
export const FlowStepState = enumeration('FlowStepState', [
  ['waiting', '等待', 'Waiting'],
  ['running', '进行中', 'Running'],
  ['done', '完成', 'Done'],
  ['failed', '失败', 'Failed'],
  ['skipped', '跳过', 'Skipped'],
] as const);
export type FlowStepStateValue = 'waiting' | 'running' | 'done' | 'failed' | 'skipped';
export const FlowState = enumeration('FlowState', [
  ['running', '进行中', 'Running'],
  ['paused', '已暂停', 'Paused'],
  ['done', '已完成', 'Completed'],
  ['failed', '失败', 'Failed'],
  ['interrupted', '已中断', 'Interrupted'],
] as const);
export type FlowStateValue = 'running' | 'paused' | 'done' | 'failed' | 'interrupted';

/** Flow step errors 1-11 (SPEC section 8): a failed step names its error; 11 is the low-battery flow error. */
export const FlowError = enumeration('FlowError', [
  [1, '飞机开机失败', 'The drone did not power on'],
  [2, '航线上传失败', 'The route could not be uploaded to the drone'],
  [3, '舱门打开失败', 'The hatch did not open'],
  [4, '平台上升失败', 'The platform did not rise'],
  [5, '脚架释放失败', 'The tripod was not released'],
  [6, '飞机自检未通过', 'The drone failed its self-check'],
  [7, '飞机解锁失败', 'The drone could not be unlocked'],
  [8, '起飞失败', 'Takeoff failed'],
  [9, '舱门关闭失败', 'The hatch did not close'],
  [10, '电池装载失败', 'The battery could not be loaded'],
  [11, '电量低于 50%，流程无法继续', 'Battery below 50%: the flow cannot go on'],
] as const);

/** Alternate-landing errors 1-15 (SPEC section 8). */
export const AlternateError = enumeration('AlternateError', [
  [1, '未设置备降点', 'No alternate landing point is set'],
  [2, '备降点距离过远', 'The alternate landing point is too far away'],
  [3, '电量不足以飞往备降点', 'Not enough battery to reach the alternate point'],
  [4, '备降点不在围栏内', 'The alternate landing point is outside the fence'],
  [5, 'GPS 信号弱', 'GPS signal too weak'],
  [6, 'RTK 未固定', 'RTK has no fixed solution'],
  [7, '风速过大', 'Wind too strong'],
  [8, '备降点有障碍物', 'Obstacle at the alternate landing point'],
  [9, '备降降落超时', 'Alternate landing timed out'],
  [10, '备降被操作员中止', 'Alternate landing aborted by the operator'],
  [11, '备降过程中链路中断', 'Link lost during the alternate landing'],
  [12, '电机停转失败', 'Motors did not stop'],
  [13, '飞机关机失败', 'The drone did not power off'],
  [14, '定位漂移过大', 'Position drift too large'],
  [15, '备降未知错误', 'Unknown alternate-landing error'],
] as const);

/** Why a flight went to its alternate landing point (SPEC: alternate reasons 1-3). */
export const AlternateReason = enumeration('AlternateReason', [
  [1, '机场故障，无法回收飞机', 'Nest fault: the nest cannot take the drone back'],
  [2, '机场处天气恶劣', 'Bad weather at the nest'],
  [3, '电量不足以返回机场', 'Not enough battery to return to the nest'],
] as const);

/** What was done about it (alternate-landing record `solution`). */
export const AlternateSolution = enumeration('AlternateSolution', [
  [1, '降落至备降点', 'Landed at the alternate point'],
  [2, '原地降落', 'Landed where it was'],
  [3, '返回机场', 'Returned to the nest'],
] as const);

/** Where the drone came down (alternate-landing record `place_int`). */
export const AlternatePlace = enumeration('AlternatePlace', [
  [1, '备降点', 'Alternate point'],
  [2, '原地', 'In place'],
  [3, '机场', 'Nest'],
] as const);

/** One-key error codes 0-6 (SPEC section 8): why a device refused a one-key takeoff or landing. */
export const OneKeyError = enumeration('OneKeyError', [
  [0, '一键操作失败', 'One-key operation failed'],
  [1, '机场正在执行其他流程', 'The nest is running another process'],
  [2, '飞机不在机场内或未就绪', 'The drone is not in the nest or not ready'],
  [3, '飞机已在空中', 'The drone is already in the air'],
  [4, '飞机不在空中', 'The drone is not in the air'],
  [5, '电量低于 50%', 'Battery below 50%'],
  [6, '机场设备故障', 'Nest hardware fault'],
] as const);

/** Why a device refuses to pause, continue or interrupt a process (push 473). */
export const ProcessRefusal = enumeration('ProcessRefusal', [
  [1, '当前没有进行中的流程', 'No process is running'],
  [2, '流程已暂停', 'The process is already paused'],
  [3, '流程未暂停', 'The process is not paused'],
  [4, '当前步骤不能暂停', 'This step cannot be paused'],
  [5, '当前步骤不能中断', 'This step cannot be interrupted'],
] as const);

/** Device texts of SPEC section 8 that are not numbered there. */
export const DEVICE_TEXT = {
  noTfCard: { zh: '飞机未插入 TF 卡', en: 'No TF card in the drone' },
  tfFull: { zh: 'TF 卡剩余容量不足', en: 'Not enough free space on the TF card' },
  offline: { zh: '设备不在线', en: 'The device is offline' },
  firmwareOffline: { zh: '设备离线，无法升级固件', en: 'The device is offline: firmware cannot be upgraded' },
  firmwareOnMission: { zh: '设备正在执行任务，无法升级固件', en: 'The device is on a mission: firmware cannot be upgraded' },
  azimuthTimeout: { zh: '方位角设置超时', en: 'Setting the azimuth timed out' },
  beaconTimeout: { zh: '信标设置超时', en: 'Setting the beacon timed out' },
  lowBatteryPrompt: {
    zh: '飞机电量低于 50%，请充电后再起飞',
    en: 'The drone battery is below 50%. Charge it before taking off',
  },
} as const satisfies Record<string, Text>;

// ------------------------------------------------------------------------------------------ 401 commands

/** `cmd_type` of a control message (push 401). */
export const ControlCmdType = enumeration('ControlCmdType', [
  [1, '一键起飞', 'One-key takeoff'],
  [2, '一键降落', 'One-key landing'],
  [3, '返航', 'Return home'],
  [4, '飞行模式', 'Flight mode'],
  [5, '虚拟摇杆', 'Virtual stick'],
  [6, '云台控制', 'Gimbal control'],
  [7, '变焦', 'Zoom'],
  [8, '执行航线', 'Fly route'],
  [9, '相机设置', 'Camera settings'],
  [10, '拍照', 'Take photo'],
  [11, '录像', 'Recording'],
  [12, '虚拟摇杆模式', 'Virtual stick mode'],
  [13, '原地降落', 'Land here'],
] as const);
export const CmdType = {
  TAKEOFF: 1,
  LAND: 2,
  RETURN: 3,
  FLIGHT_MODE: 4,
  STICK: 5,
  GIMBAL: 6,
  ZOOM: 7,
  NAVIGATION: 8,
  CAMERA: 9,
  PHOTO: 10,
  RECORD: 11,
  STICK_MODE: 12,
  LAND_HERE: 13,
} as const;
export type CmdTypeValue = (typeof CmdType)[keyof typeof CmdType];

/** cmd_type 8 action_cmd: 1 fly the route from its first waypoint, 2 resume from its breakpoint. */
export const NavigationAction = { START: 1, RESUME: 2 } as const;
/** cmd_type 6 action_cmd: 1 set pitch, 2 set yaw, 3 recentre (value ignored). */
export const GimbalAction = { PITCH: 1, YAW: 2, RESET: 3 } as const;

/** Stick channel values: 1000..2000, neutral VIRTUAL_UP_VALUE (1500). */
export const STICK_MIN = 1000;
export const STICK_MAX = 2000;
export const STICK_NEUTRAL = VIRTUAL_UP_VALUE;
/** The device holds position when no stick frame arrived for this long, and leaves stick mode after STICK_EXIT_MS. */
export const STICK_HOLD_MS = 1000;
export const STICK_EXIT_MS = 60_000;
/** Default takeoff height (m) of a one-key takeoff without a route. */
export const ONE_KEY_TAKEOFF_HEIGHT = 30;
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 200;

const stick = () => z.number().int().min(STICK_MIN).max(STICK_MAX);
export const sticksSchema = z.object({ roll: stick(), pitch: stick(), throttle: stick(), yaw: stick() });
export type Sticks = z.infer<typeof sticksSchema>;
export const NEUTRAL_STICKS: Sticks = { roll: STICK_NEUTRAL, pitch: STICK_NEUTRAL, throttle: STICK_NEUTRAL, yaw: STICK_NEUTRAL };

// ------------------------------------------------------------------------------------------ camera

export const ExposureMode = enumeration('ExposureMode', [
  [0, '自动', 'Auto'],
  [1, '手动', 'Manual'],
  [2, '快门优先', 'Shutter priority'],
  [3, '光圈优先', 'Aperture priority'],
] as const);
/** Exposure compensation options (EV), -3.0 to +3.0 in thirds. */
export const EXPOSURE_VALUE_OPTIONS: readonly number[] = Array.from({ length: 19 }, (_, i) => Math.round((-3 + i / 3) * 10) / 10);

const oneOf = <T extends string | number>(options: readonly T[]) =>
  z.custom<T>((v) => (options as readonly unknown[]).includes(v), { message: `one of ${options.slice(0, 6).join(', ')}…` });

/**
 * Camera settings of the drone's payload (SPEC sections 4 and 9). The device applies what it is sent
 * and reports the whole set back in its state.
 */
export const cameraSettingsSchema = z.object({
  photo_size: oneOf(PHOTO_SIZE_OPTIONS),
  photo_format: oneOf(PHOTO_FORMAT_OPTIONS),
  /** PictureMode 1 single, 2 burst, 3 timed, 4 delay. */
  picture_mode: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  /** Photos per burst (mode 2), seconds between timed photos (3) or before a delayed one (4). */
  burst_count: z.union([z.literal(3), z.literal(5), z.literal(7)]),
  timed_interval: z.number().int().min(2).max(60),
  delay_seconds: z.number().int().min(1).max(10),
  iso: oneOf(ISO_OPTIONS),
  shutter: oneOf(SHUTTER_OPTIONS),
  exp_mode: z.number().int().min(0).max(3),
  exp_value: oneOf(EXPOSURE_VALUE_OPTIONS),
  /** WhiteBalance 0-8. */
  awb: z.number().int().min(0).max(8),
  /** ThermalPalette 0-9. */
  thermal_palette: z.number().int().min(0).max(9),
  /** Defogging 0-2. */
  defog: z.number().int().min(0).max(2),
  /** GridType 1-3. */
  grid: z.number().int().min(1).max(3),
  /** PreviewResolution 1 = 720p, 0 = 1080p. */
  preview_resolution: z.number().int().min(0).max(1),
  /** PreviewBitrate 0 = 1M, 1 = 2M, 2 = 4M. */
  preview_bitrate: z.number().int().min(0).max(2),
  record_resolution: oneOf(RECORDING_RESOLUTION_OPTIONS),
  record_bitrate: oneOf(RECORDING_BITRATE_OPTIONS),
  zoom: z.number().min(ZOOM_MIN).max(ZOOM_MAX),
});
export type CameraSettings = z.infer<typeof cameraSettingsSchema>;
/** Part of the settings (what a 401 cmd_type 9 carries). At least one key. */
export const cameraSettingsPatch = cameraSettingsSchema
  .partial()
  .refine((p) => Object.keys(p).length > 0, { message: 'no camera setting given' });
export type CameraSettingsPatch = z.infer<typeof cameraSettingsPatch>;

export const DEFAULT_CAMERA_SETTINGS: CameraSettings = {
  photo_size: '20M',
  photo_format: 'JPG',
  picture_mode: 1,
  burst_count: 3,
  timed_interval: 5,
  delay_seconds: 3,
  iso: 100,
  shutter: '1/500',
  exp_mode: 0,
  exp_value: 0,
  awb: 0,
  thermal_palette: 0,
  defog: 0,
  grid: 3,
  preview_resolution: 1,
  preview_bitrate: 1,
  record_resolution: '4K30',
  record_bitrate: '32M',
  zoom: 1,
};

// ------------------------------------------------------------------------------------------ refusals

/**
 * Why the server (pre-flight checks) or the device refused a control command. Replies 2002 to push 401
 * carry one as `reason`; for cmd_type 8 (navigation) the console shows the text by this code (SPEC 8).
 */
export const CommandReason = enumeration('CommandReason', [
  [1, '设备不在线', 'The device is offline'],
  [2, '设备已被他人连接', 'Someone else is connected to this device'],
  [3, '设备已停用，不能操作', 'The device is disabled and cannot be operated'],
  [4, '飞机电量低于 50%，请充电后再起飞', 'Battery below 50%: charge the drone before takeoff'],
  [5, '飞机未插入 TF 卡', 'No TF card in the drone'],
  [6, 'TF 卡剩余容量不足', 'Not enough free space on the TF card'],
  [7, 'RTK 未达到固定解', 'RTK has no fixed solution'],
  [8, '风速超出起飞限制', 'Wind above the takeoff limit'],
  [9, '正在降雨，不宜起飞', 'It is raining: not fit to fly'],
  [10, '航线不在围栏内或无效', 'The route is outside its fence or invalid'],
  [11, '航线不存在', 'The route does not exist'],
  [12, '设备正在执行其他流程', 'The device is running another process'],
  [13, '飞机状态不允许此操作', 'The drone cannot do this in its current state'],
  [14, '设备未在规定时间内响应', 'The device did not answer in time'],
  [15, '设备拒绝了该指令', 'The device refused the command'],
  [16, '没有操作该设备的权限', 'No permission to operate this device'],
  [17, '参数无效', 'Invalid value'],
  [18, '航线没有断点可续飞', 'The route has no breakpoint to resume from'],
  [19, '航线与设备不匹配', 'The route belongs to another device'],
  [20, '指令正在执行中', 'This command is still being carried out'],
  [21, '请先获取该设备的控制权', 'Take control of this device first'],
  [22, '您没有飞行控制功能（连接设备），请联系管理员', 'You do not have the flight control function (Connect devices); ask an administrator'],
  [23, '协同组共享的设备只能查看，不能控制', 'Devices shared through a collaboration group can be watched, not controlled'],
  [24, '当前电量或风速不足以飞完该航线（含返航余量）', 'The battery or the wind does not allow this route (reserve included)'],
  [25, '航线进入禁飞区或限飞区', 'The route enters a no-fly or restricted zone'],
] as const);
export const Reason = {
  OFFLINE: 1,
  HELD: 2,
  DISABLED: 3,
  LOW_BATTERY: 4,
  NO_TF: 5,
  TF_FULL: 6,
  RTK: 7,
  WIND: 8,
  RAIN: 9,
  ROUTE_INVALID: 10,
  ROUTE_MISSING: 11,
  BUSY: 12,
  STATE: 13,
  TIMEOUT: 14,
  DEVICE_REFUSED: 15,
  NO_PERMISSION: 16,
  BAD_VALUE: 17,
  NO_BREAKPOINT: 18,
  WRONG_DEVICE: 19,
  IN_PROGRESS: 20,
  /** Nobody holds the device's control connection: the sender must take it (/device/connect) first. */
  NOT_HOLDING: 21,
  /** The sender lacks DEVICE_CONTROL_FUNCTION. */
  NO_CONTROL_FUNCTION: 22,
  /** The device is only shared with the sender through a collaboration group (watch, never control). */
  SHARED_ONLY: 23,
  /** The route's estimated time needs more battery than the drone has above the reserve, or the wind is above the limit for its length. */
  ENDURANCE: 24,
  /** A waypoint of the route lies in, or a leg crosses, a no-fly or restricted map zone. */
  ROUTE_ZONE: 25,
} as const;

/** Outcome of a command as reported to the console and written to the audit log. */
export const CommandOutcomeKind = enumeration('CommandOutcomeKind', [
  ['ok', '已执行', 'Accepted'],
  ['refused', '检查未通过', 'Refused by checks'],
  ['rejected', '设备拒绝', 'Rejected by the device'],
  ['timeout', '超时', 'Timed out'],
  ['offline', '设备离线', 'Device offline'],
  ['pending', '执行中', 'In progress'],
] as const);
export type CommandOutcomeKindValue = 'ok' | 'refused' | 'rejected' | 'timeout' | 'offline' | 'pending';

/** Pre-flight limits (checked by the server before anything moves; the device checks again). */
export const PREFLIGHT = {
  minBatteryPercent: 50,
  /** Free TF space needed before a flight (MB). */
  minTfFreeMb: 2048,
  maxWindSpeed: 12,
  maxRainfall: 0.5,
  /** RTK status needed (4 fixed); below it GPS with this many satellites is accepted instead. */
  rtkStatus: 4,
  minGpsSatellites: 12,
  /**
   * Route endurance: a route flies only if its estimated time (the stored est_time) fits in the minutes
   * the battery allows: (battery % - reservePercent) / batteryPercentPerMinute. At 2 % a minute a full
   * battery flies 50 minutes; the 20 % reserve is kept for the unexpected (wind, a go-around, a hover).
   */
  batteryPercentPerMinute: 2,
  reservePercent: 20,
  /** Routes longer than this (m, stored distance) need calmer wind than the takeoff limit: ... */
  longRouteMetres: 3000,
  /** ... at most this (m/s) at the nest: on a long route a head wind on the way back drains the reserve. */
  longRouteMaxWind: 8,
} as const;

/** One pre-flight check as /flight/check and 2002 replies report it. */
export const PreflightItem = enumeration('PreflightItem', [
  ['online', '设备在线', 'Device online'],
  ['control', '控制权', 'Control connection'],
  ['enabled', '设备可用', 'Device enabled'],
  ['idle', '无进行中的流程', 'No process running'],
  ['battery', '电量', 'Battery'],
  ['tf_card', 'TF 卡', 'TF card'],
  ['tf_space', 'TF 卡容量', 'TF card space'],
  ['rtk', 'RTK / 定位', 'RTK / positioning'],
  ['wind', '风速', 'Wind'],
  ['rain', '降雨', 'Rain'],
  ['route', '航线与围栏', 'Route and fence'],
  ['zone', '航线与禁飞区、限飞区', 'Route and no-fly / restricted zones'],
  ['endurance', '航线续航（电量与风速）', 'Route endurance (battery and wind)'],
] as const);
export type PreflightItemValue = 'online' | 'control' | 'enabled' | 'idle' | 'battery' | 'tf_card' | 'tf_space' | 'rtk' | 'wind' | 'rain' | 'route' | 'zone' | 'endurance';
export const preflightCheckSchema = z.object({
  item: z.string(),
  ok: z.boolean(),
  /** CommandReason when not ok. */
  reason: z.number().int().nullable(),
  /** The measured value, for display (e.g. 42 for a battery of 42 %). */
  value: z.union([z.number(), z.string()]).nullable(),
});
export type PreflightCheck = z.infer<typeof preflightCheckSchema>;

// ------------------------------------------------------------------------------------------ push data

/** data of push 401 (client -> server). `cmd_id` (a UUID made by the browser) is kept across re-sends. */
export const controlCommandData = z.object({
  sn_id: z.string().min(1).max(64),
  cmd_type: z.number().int().min(1).max(13),
  action_cmd: z.number().int().min(0).max(99).default(0),
  value: z.union([z.number().finite(), z.string().max(64)]).default(0),
  cmd_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/).optional(),
  sticks: sticksSchema.optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
});
export type ControlCommandData = z.infer<typeof controlCommandData>;

/** data of push 473 (client -> server): pause (1), continue (2) or interrupt (3) the device's process. */
export const processControlData = z.object({
  sn_id: z.string().min(1).max(64),
  control_cmd: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  cmd_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/).optional(),
});
export type ProcessControlData = z.infer<typeof processControlData>;

/**
 * data of a reply to 401 / 473. Success (2000): outcome 'ok'. Failure (2002): outcome and `reason`
 * (CommandReason; for 473 a ProcessRefusal under `refusal`), `checks` when pre-flight checks refused.
 */
export const commandReplyPush = z.object({
  sn_id: z.string(),
  cmd_id: z.string(),
  cmd_type: z.number().int().optional(),
  action_cmd: z.number().int().optional(),
  control_cmd: z.number().int().optional(),
  outcome: z.enum(['ok', 'refused', 'rejected', 'timeout', 'offline', 'pending']),
  reason: z.number().int(),
  refusal: z.number().int().nullable().optional(),
  one_key_error: z.number().int().nullable().optional(),
  checks: z.array(preflightCheckSchema).optional(),
  flight_id: z.string().nullable().optional(),
});
export type CommandReplyPush = z.infer<typeof commandReplyPush>;

/** A flow's progress (device event `flow.progress`, push 320, and `flow` in the device state). */
export const flowProgressSchema = z.object({
  flow_id: z.string().max(64),
  kind: z.enum(['takeoff', 'landing', 'alternate']),
  state: z.enum(['running', 'paused', 'done', 'failed', 'interrupted']),
  steps: z
    .array(
      z.object({
        step: z.string().max(32),
        state: z.enum(['waiting', 'running', 'done', 'failed', 'skipped']),
        /** Seconds spent in the step so far (or in total once done). */
        elapsed: z.number().min(0),
      }),
    )
    .max(32),
  /** Index of the running (or failed) step; -1 before the first, steps.length when done. */
  current: z.number().int().min(-1).max(32),
  /** FlowError code of the failed step, AlternateError for alternate flows. */
  error: z.number().int().nullable(),
  /** Nest action tip of the moving part: {code 3 opening / 2 closing, part NestPart}. */
  tip: z.object({ code: z.union([z.literal(2), z.literal(3)]), part: z.string().max(32) }).nullable(),
  started_at: z.number().int().nonnegative(),
  /** Seconds since the flow started (not counting pauses). */
  elapsed: z.number().min(0),
});
export type FlowProgress = z.infer<typeof flowProgressSchema>;

/** Mission progress (device event `mission.progress`, push 330, `mission` in the device state). */
export const missionProgressSchema = z.object({
  flight_id: z.string().max(64),
  mission_id: z.string().max(64).nullable(),
  state: z.enum(['running', 'paused', 'done', 'interrupted', 'returning']),
  /** Index of the waypoint flown to next (0-based); waypoint_count when the route is finished. */
  waypoint_index: z.number().int().min(0),
  waypoint_count: z.number().int().min(0),
  percent: z.number().min(0).max(100),
  /** Metres flown along the route and seconds since takeoff. */
  distance_flown: z.number().min(0),
  flight_time: z.number().min(0),
  photos: z.number().int().min(0),
});
export type MissionProgress = z.infer<typeof missionProgressSchema>;

/** data of push 320 / 330: the device's sn and the progress. */
export const flowProgressPush = z.object({ sn_id: z.string(), flow: flowProgressSchema.nullable() });
export type FlowProgressPush = z.infer<typeof flowProgressPush>;
export const missionProgressPush = z.object({ sn_id: z.string(), mission: missionProgressSchema.nullable(), mission_name: z.string().optional() });
export type MissionProgressPush = z.infer<typeof missionProgressPush>;

/** data of push 350: a result (photo, panorama, video) arrived from a device. */
export const resultAddedPush = z.object({
  sn_id: z.string(),
  sort_id: z.string().nullable(),
  id: z.string(),
  type: z.number().int(),
  url: z.string(),
  thumb_url: z.string(),
});
export type ResultAddedPush = z.infer<typeof resultAddedPush>;

/** data of push 360: a sortie began or ended on a watched device. */
export const sortiePush = z.object({
  sn_id: z.string(),
  sort_id: z.string(),
  state: z.enum(['started', 'ended']),
  mission_name: z.string(),
});
export type SortiePush = z.infer<typeof sortiePush>;

// ------------------------------------------------------------------------------------------ device link

/** The route as a device gets it with `flow.takeoff` / `mission.start` (heights in the route's reference). */
export const missionPlanSchema = z.object({
  mission_id: z.string().max(64),
  name: z.string().max(64),
  mission_type: z.number().int(),
  /** HeightType: 0 relative to takeoff, 1 altitude (AMSL). */
  height_type: z.number().int().min(0).max(1),
  auto_speed: z.number().gt(0).max(30),
  max_speed: z.number().gt(0).max(30),
  default_height: z.number().gt(0),
  return_height: z.number().gt(0),
  /** FinishAction 10 hover, 20 return, 30 auto land, 40 back to the first waypoint. */
  finish_action: z.number().int(),
  /** PhotoType 1 infrared, 2 visible, 3 both. */
  photo_type: z.number().int().min(1).max(3),
  waypoints: z.array(waypointSchema).min(1).max(2000),
  /** Start at this waypoint (a breakpoint being resumed); 0 from the first. */
  start_index: z.number().int().min(0).default(0),
});
export type MissionPlan = z.infer<typeof missionPlanSchema>;

/** Device-link methods of flight operations (commands server -> device, events device -> server). */
export const FlightMethod = {
  /** Command: one-key takeoff (nest flow, then the route if given, else hover at `height`). */
  TAKEOFF: 'flow.takeoff',
  /** Command: one-key landing (return to the nest or home and land). */
  LAND: 'flow.land',
  /** Command: pause / continue / interrupt the running process, data {control_cmd}. */
  PROCESS: 'flow.control',
  /** Command: fly a route now (drone in the air, or a single-soldier drone on the ground). */
  MISSION_START: 'mission.start',
  RETURN: 'flight.return',
  LAND_HERE: 'flight.land_here',
  MODE: 'flight.mode',
  /** Command: enter / leave virtual-stick mode, data {on}. */
  STICK_MODE: 'flight.stick_mode',
  /** Fire-and-forget stick frame (no reply), data {seq, ...Sticks}. */
  STICK: 'flight.stick',
  GIMBAL: 'gimbal.control',
  ZOOM: 'camera.zoom',
  CAMERA_SET: 'camera.set',
  PHOTO: 'camera.photo',
  RECORD: 'camera.record',
  /** Events. */
  FLOW_PROGRESS: 'flow.progress',
  MISSION_PROGRESS: 'mission.progress',
  FLIGHT_START: 'flight.start',
  FLIGHT_END: 'flight.end',
  ALTERNATE: 'alternate.landing',
} as const;

/** data of `flow.takeoff`. `flight_id` becomes the sortie's flight and the bid of everything after. */
export const takeoffCommandData = z.object({
  flight_id: z.string().min(1).max(64),
  mission: missionPlanSchema.nullable(),
  height: z.number().gt(0).max(1500).default(ONE_KEY_TAKEOFF_HEIGHT),
});
export type TakeoffCommandData = z.infer<typeof takeoffCommandData>;
export const missionStartCommandData = z.object({ flight_id: z.string().min(1).max(64), mission: missionPlanSchema });
export const processCommandData = z.object({ control_cmd: z.union([z.literal(1), z.literal(2), z.literal(3)]) });
export const modeCommandData = z.object({ mode: z.number().int() });
export const stickModeCommandData = z.object({ on: z.boolean() });
export const stickFrameData = sticksSchema.extend({ seq: z.number().int().nonnegative() });
export const gimbalCommandData = z.object({ pitch: z.number().min(-90).max(30).optional(), yaw: z.number().min(-180).max(180).optional(), reset: z.boolean().optional() });
export const zoomCommandData = z.object({ zoom: z.number().min(ZOOM_MIN).max(ZOOM_MAX) });
export const recordCommandData = z.object({ on: z.boolean() });

/**
 * `output` of a refused flight command reply (result != 0): the one-key error (flow.takeoff / flow.land),
 * the process refusal (flow.control) or the CommandReason (others).
 */
export const flightReplyOutput = z.object({
  one_key_error: z.number().int().min(0).max(6).optional(),
  refusal: z.number().int().min(1).max(5).optional(),
  reason: z.number().int().optional(),
});

/** Device result codes of flight command replies (commands_reply `result`). */
export const FlightResult = { OK: 0, REFUSED: 10, BAD_REQUEST: 3 } as const;

/** data of event `flight.start` (the drone left the ground) and `flight.end` (it is down and safe). */
export const flightStartEvent = z.object({
  flight_id: z.string().min(1).max(64),
  uav_sn: z.string().max(64),
  mission_id: z.string().max(64).nullable(),
  mission_name: z.string().max(64).nullable(),
  started_at: z.number().int().nonnegative(),
});
export const flightEndEvent = z.object({
  flight_id: z.string().min(1).max(64),
  ended_at: z.number().int().nonnegative(),
  /** Metres flown. */
  distance: z.number().min(0),
  /** Where it came down: AlternatePlace 1 alternate point, 2 in place, 3 nest / home. */
  place: z.number().int().min(1).max(3),
  photos: z.number().int().min(0),
});

/** data of event `alternate.landing`: the alternate-landing record (SPEC section 3). */
export const alternateLandingEvent = z.object({
  flight_id: z.string().max(64),
  /** AlternateReason 1-3. */
  reason: z.number().int().min(1).max(3),
  /** AlternateSolution 1-3. */
  solution: z.number().int().min(1).max(3),
  /** When it was decided (ms). */
  timestamp: z.number().int().nonnegative(),
  /** Drone flight state (FlightState) when it was decided. */
  drone_int: z.number().int(),
  /** 0 success, else AlternateError 1-15. */
  altn_int: z.number().int().min(0).max(15),
  /** AlternatePlace 1-3. */
  place_int: z.number().int().min(1).max(3),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type AlternateLandingEvent = z.infer<typeof alternateLandingEvent>;

// ------------------------------------------------------------------------------------------ media upload

/**
 * Media upload, device -> server over HTTP (resumable, idempotent). Authorization: Basic sn:device password.
 * 1. POST MEDIA_UPLOAD_PATH with JSON `mediaUploadStart`: creates the upload or answers the current offset
 *    (`{offset, complete}`); the same media_id again never makes a second result.
 * 2. PATCH MEDIA_UPLOAD_PATH/<media_id> with header `upload-offset`, content-type
 *    application/offset+octet-stream and at most MEDIA_CHUNK_MAX_BYTES: appends, answers `{offset, complete}`;
 *    409 `{offset}` when the offset is not the server's.
 * When the last byte arrives and the sha256 matches, the result appears (type, sortie, waypoint); until then
 * nothing is listed. A sha256 mismatch answers 422 and restarts the upload at 0.
 */
export const MEDIA_UPLOAD_PATH = '/api/media/v1/uploads';
export const MEDIA_CHUNK_MAX_BYTES = 4 * 1024 * 1024;
export const MEDIA_MAX_BYTES = 512 * 1024 * 1024;
export const MEDIA_MIME = ['image/jpeg', 'video/mp4'] as const;
export const mediaUploadStart = z.object({
  media_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
  flight_id: z.string().max(64).nullable(),
  /** AchievementType 10 image, 15 panorama, 20 video. */
  type: z.union([z.literal(10), z.literal(15), z.literal(20)]),
  file_name: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/),
  mime: z.enum(MEDIA_MIME),
  size: z.number().int().positive().max(MEDIA_MAX_BYTES),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  taken_at: z.number().int().nonnegative(),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** Height above takeoff (m). */
  height: z.number().min(-1000).max(10_000),
  waypoint_index: z.number().int().min(0).nullable(),
  width: z.number().int().positive().max(100_000).nullable(),
  height_px: z.number().int().positive().max(100_000).nullable(),
  /** Seconds (videos). */
  duration: z.number().min(0).max(86_400).nullable(),
});
export type MediaUploadStart = z.infer<typeof mediaUploadStart>;
export const mediaUploadState = z.object({ offset: z.number().int().min(0), complete: z.boolean() });

/**
 * Device event `media.stored`: a file the device put into the server's upload ingest itself (DJI docks,
 * `file_upload_callback`), to become a result. The listener that makes the result settles the event with
 * its work; it resolves with an `EventRefusal` when the file cannot become one (the device is answered with
 * a refusal and does not send it again).
 */
export const MediaMethod = { STORED: 'media.stored' } as const;
export const mediaStoredEvent = z.object({
  /** The media store key the device wrote, under its own object prefix. */
  object_key: z.string().min(1).max(512),
  /** As the device names the file (shown only, never a path). */
  file_name: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/),
  flight_id: z.string().max(64).nullable(),
  /** The drone that took it. */
  uav_sn: z.string().max(64),
  /** AchievementType 10 image, 20 video. */
  type: z.union([z.literal(10), z.literal(20)]),
  mime: z.enum(MEDIA_MIME),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** Height above takeoff (m). */
  height: z.number().min(-1000).max(10_000),
  /** When it was taken (ms). */
  taken_at: z.number().int().nonnegative(),
});
export type MediaStoredEvent = z.infer<typeof mediaStoredEvent>;
/** Why a stored file could not become a result. */
export type MediaRefusalReason = 'not_found' | 'outside_prefix' | 'bad_data' | 'content_mismatch' | 'too_large';
/** What a listener's settled work resolves with to refuse a device event instead of acknowledging it. */
export interface EventRefusal {
  refused: MediaRefusalReason;
}
export const isEventRefusal = (v: unknown): v is EventRefusal =>
  typeof v === 'object' && v !== null && typeof (v as { refused?: unknown }).refused === 'string';

// ------------------------------------------------------------------------------------------ texts

/** Text of a refusal reason for a reply, e.g. a 2002 to 401 (with the checks that failed, if any). */
export function commandReasonText(reason: number, lang: Lang): string {
  if (CommandReason.has(reason)) return CommandReason.label(reason, lang);
  // A DJI device's result code (DJI adapter): its own text, e.g. "MD5 mismatch".
  return DjiResult.has(reason) ? DjiResult.label(reason, lang) : CommandReason.label(Reason.DEVICE_REFUSED, lang);
}

/** The enumerations of this module (for the completeness tests). */
export const FLIGHT_ENUMS: readonly Enumeration<number | string>[] = [
  FlowKind,
  FlowStep,
  FlowStepState,
  FlowState,
  FlowError,
  AlternateError,
  AlternateReason,
  AlternateSolution,
  AlternatePlace,
  OneKeyError,
  ProcessRefusal,
  ControlCmdType,
  ExposureMode,
  CommandReason,
  CommandOutcomeKind,
  PreflightItem,
];
