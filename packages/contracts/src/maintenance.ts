import { z } from 'zod';
import { enumeration } from './enums.js';
import { azimuthSchema, beaconSchema } from './entities.js';
import { DjiResult, djiResultText } from './dji.js';
import { DEVICE_TEXT } from './flight.js';
import type { Lang, Text } from './i18n.js';

/**
 * Device maintenance: firmware upgrade, sensor calibration, beacon and azimuth settings, RTK
 * settings and nest log upload, sent over the device link and recorded as operations (server table
 * device_ops). docs/device-protocol.md section 10 has the prose; this module is the machine-checked half.
 */

// ------------------------------------------------------------------------------------------ operations

/** What an operation does; the value is the `kind` of its device_ops row. */
export const MaintenanceKind = enumeration('MaintenanceKind', [
  ['upgrade', '固件升级', 'Firmware upgrade'],
  ['calibrate', '传感器校准', 'Sensor calibration'],
  ['beacon', '信标设置', 'Beacon setting'],
  ['azimuth', '方位角设置', 'Azimuth setting'],
  ['rtk', 'RTK 设置', 'RTK settings'],
  ['log', '日志上传', 'Log upload'],
  ['debug', '远程调试', 'Remote debug'],
] as const);
export type MaintenanceKindValue = 'upgrade' | 'calibrate' | 'beacon' | 'azimuth' | 'rtk' | 'log' | 'debug';
export const MAINTENANCE_KINDS: readonly MaintenanceKindValue[] = ['upgrade', 'calibrate', 'beacon', 'azimuth', 'rtk', 'log', 'debug'];

/** Where an operation is: `running` until the device reports the end, or the server ends it. */
export const DeviceOpState = enumeration('DeviceOpState', [
  ['running', '进行中', 'Running'],
  ['ok', '成功', 'Succeeded'],
  ['failed', '失败', 'Failed'],
  ['timeout', '超时', 'Timed out'],
  ['offline', '设备离线', 'Device went offline'],
] as const);
export type DeviceOpStateValue = 'running' | 'ok' | 'failed' | 'timeout' | 'offline';
export const isOpFinished = (state: string): boolean => state !== 'running';

/** The step an operation reports in its progress events. */
export const MaintenanceStage = enumeration('MaintenanceStage', [
  ['sent', '已下发', 'Sent to the device'],
  ['download', '下载固件', 'Downloading'],
  ['verify', '校验固件', 'Verifying'],
  ['install', '安装固件', 'Installing'],
  ['reboot', '重启设备', 'Rebooting'],
  ['gyroscope', '陀螺仪校准', 'Calibrating the gyroscope'],
  ['compass', '指南针校准', 'Calibrating the compass'],
  ['acceleration', '加速度计校准', 'Calibrating the accelerometer'],
  ['connect', '连接差分服务', 'Connecting to the caster'],
  ['pack', '打包日志', 'Packing the log'],
  ['upload', '上传日志', 'Uploading the log'],
  ['done', '完成', 'Done'],
] as const);
export type MaintenanceStageValue =
  | 'sent' | 'download' | 'verify' | 'install' | 'reboot' | 'gyroscope' | 'compass' | 'acceleration' | 'connect' | 'pack' | 'upload' | 'done';

/**
 * How long an operation may run before the server ends it `timeout` (from its last progress, ms). Beacon
 * and azimuth are one command and its reply (contracts COMMAND_TIMEOUT_MS with re-sends).
 */
export const OP_IDLE_TIMEOUT_MS: Readonly<Record<MaintenanceKindValue, number>> = {
  upgrade: 5 * 60_000,
  calibrate: 2 * 60_000,
  beacon: 30_000,
  azimuth: 30_000,
  rtk: 2 * 60_000,
  log: 3 * 60_000,
  // A DJI dock's debug action: cover, drone power or reboot move for well under a minute.
  debug: 2 * 60_000,
};

/** Device result codes of maintenance commands (besides 0 ok, 1 unsupported, 3 bad request). */
export const MaintenanceFailure = enumeration('MaintenanceFailure', [
  [20, '设备忙，无法执行', 'The device is busy'],
  [21, '固件下载失败', 'The firmware download failed'],
  [22, '固件校验失败', 'The firmware package did not verify'],
  [23, '固件不适用于该设备', 'The firmware is not for this device'],
  [24, '固件安装失败', 'The firmware installation failed'],
  [25, '校准失败', 'The calibration failed'],
  [26, '差分服务连接失败', 'The RTK caster could not be reached'],
  [27, '日志上传失败', 'The log upload failed'],
  [28, '飞机在空中或正在执行任务', 'The drone is in the air or on a mission'],
] as const);
export const MaintFail = {
  BUSY: 20,
  DOWNLOAD: 21,
  VERIFY: 22,
  WRONG_DEVICE: 23,
  INSTALL: 24,
  CALIBRATION: 25,
  CASTER: 26,
  UPLOAD: 27,
  FLYING: 28,
} as const;

/** Texts of the console about operations (the SPEC's firmware / azimuth / beacon texts are flight.ts DEVICE_TEXT). */
export const MAINTENANCE_TEXT = {
  abnormal: { zh: '校准结果异常', en: 'Calibration found an abnormal sensor' },
  expired: { zh: '设备长时间未报告进度，操作已超时', en: 'The device stopped reporting progress: the operation timed out' },
  wentOffline: { zh: '操作过程中设备离线', en: 'The device went offline during the operation' },
  noAnswer: { zh: '设备未响应', en: 'The device did not answer' },
  refused: { zh: '设备拒绝执行', en: 'The device refused' },
} as const satisfies Record<string, Text>;

/** `reason` of a timeout / offline operation: 0 the command itself, 1 later (no progress for too long, dropped mid-way). */
export const OP_REASON_COMMAND = 0;
export const OP_REASON_LATER = 1;

/**
 * Why an operation did not succeed, in one language ('' while it runs or when it succeeded): the SPEC's
 * azimuth / beacon timeout texts, the MaintenanceFailure text of a device failure code, else the state's.
 */
export function opReasonText(op: { kind: string; state: string; reason: number }, lang: Lang): string {
  if (op.state === 'ok' || op.state === 'running') return '';
  if (op.state === 'timeout') {
    if (op.kind === 'azimuth') return DEVICE_TEXT.azimuthTimeout[lang];
    if (op.kind === 'beacon') return DEVICE_TEXT.beaconTimeout[lang];
    return op.reason === OP_REASON_LATER ? MAINTENANCE_TEXT.expired[lang] : MAINTENANCE_TEXT.noAnswer[lang];
  }
  if (op.state === 'offline') return op.reason === OP_REASON_LATER ? MAINTENANCE_TEXT.wentOffline[lang] : DEVICE_TEXT.offline[lang];
  if (op.reason && MaintenanceFailure.has(op.reason)) return MaintenanceFailure.label(op.reason, lang);
  // A DJI dock's refusal keeps its DJI result code (e.g. 514134 rain for a debug action).
  if (op.reason && DjiResult.has(op.reason)) return djiResultText(op.reason, lang);
  return MAINTENANCE_TEXT.refused[lang];
}

// ------------------------------------------------------------------------------------------ device link

/** Device link methods of maintenance (docs/device-protocol.md section 10). */
export const MaintenanceMethod = {
  /** Command: download, verify and install a firmware package, then reboot. Progress by events. */
  UPGRADE: 'maint.upgrade',
  /** Command: calibrate the sensors named in `items`. Progress by events. */
  CALIBRATE: 'maint.calibrate',
  /** Command: store the beacon parameters (answered at once). */
  BEACON: 'maint.beacon',
  /** Command: store the nest azimuth (answered at once). */
  AZIMUTH: 'maint.azimuth',
  /** Command: use this NTRIP caster; the connection's states follow by events and telemetry. */
  RTK: 'maint.rtk',
  /** Command: pack the nest log and upload it over HTTP. Progress by events. */
  LOG: 'maint.log',
  /** Command: one remote-debug action of a DJI dock (`action`, DebugAction); native nests answer unsupported. */
  DEBUG: 'maint.debug',
  /** Event: progress or end of an operation. */
  PROGRESS: 'maint.progress',
} as const;

const opId = () => z.string().min(1).max(64);
const sha256Hex = () => z.string().regex(/^[0-9a-f]{64}$/);
/** A path under the server's HTTP base (the one media uploads go to), e.g. /api/device/rom/file/<id>. */
const serverPath = () => z.string().regex(/^\/[\x21-\x7e]{0,511}$/);

export const upgradeCommandData = z.object({
  op_id: opId(),
  /** GET with the device's Basic credentials. */
  url: serverPath(),
  size: z.number().int().positive(),
  sha256: sha256Hex(),
  version_code: z.number().int().nonnegative(),
  version_name: z.string().min(1).max(32),
  /** For devices that download without the device credentials (DJI docks): a signed, expiring path under the HTTP base. */
  link: serverPath().optional(),
  /** Lower-case hex MD5 of the package (what a DJI dock checks). */
  md5: z.string().regex(/^[0-9a-f]{32}$/).optional(),
  file_name: z.string().min(1).max(128).optional(),
});
export type UpgradeCommandData = z.infer<typeof upgradeCommandData>;

const calibrationItemSchema = z.enum(['gyroscope', 'compass', 'acceleration']);
export type CalibrationItemValue = z.infer<typeof calibrationItemSchema>;
export const CALIBRATION_ITEMS: readonly CalibrationItemValue[] = ['gyroscope', 'compass', 'acceleration'];

export const calibrateCommandData = z.object({
  op_id: opId(),
  items: z.array(calibrationItemSchema).min(1).max(3),
});
export type CalibrateCommandData = z.infer<typeof calibrateCommandData>;

/** Remote-debug actions of a dock (DJI docks run each inside debug mode, docs/dji.md). */
export const DebugAction = enumeration('DebugAction', [
  ['cover_open', '打开舱盖', 'Open the cover'],
  ['cover_close', '关闭舱盖', 'Close the cover'],
  ['drone_on', '飞机开机', 'Power the drone on'],
  ['drone_off', '飞机关机', 'Power the drone off'],
  ['charge_on', '开始充电', 'Start charging'],
  ['charge_off', '停止充电', 'Stop charging'],
  ['reboot', '重启机场', 'Reboot the dock'],
] as const);
export type DebugActionValue = 'cover_open' | 'cover_close' | 'drone_on' | 'drone_off' | 'charge_on' | 'charge_off' | 'reboot';
export const DEBUG_ACTIONS: readonly DebugActionValue[] = ['cover_open', 'cover_close', 'drone_on', 'drone_off', 'charge_on', 'charge_off', 'reboot'];

export const debugCommandData = z.object({
  op_id: opId(),
  action: z.enum(['cover_open', 'cover_close', 'drone_on', 'drone_off', 'charge_on', 'charge_off', 'reboot']),
});
export type DebugCommandData = z.infer<typeof debugCommandData>;
/**
 * `output` of an accepted `maint.debug`: `progress` true when the device reports the action's progress and
 * end by `maint.progress` events of the operation (the operation stays running until then); otherwise the
 * accepted action is the end.
 */
export const debugReplyOutput = z.looseObject({ progress: z.boolean().optional().catch(undefined) });

export const beaconCommandData = z.object({ beacon: beaconSchema });
export const azimuthCommandData = z.object({ azimuth: azimuthSchema });

/** RTK caster settings as the console sends them (SPEC: url and port required). */
export const rtkSettingsSchema = z.object({
  url: z.string().trim().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  mount_point: z.string().trim().max(64).default(''),
  user: z.string().trim().max(64).default(''),
  password: z.string().max(64).default(''),
});
export type RtkSettings = z.infer<typeof rtkSettingsSchema>;
export const rtkCommandData = rtkSettingsSchema.extend({ op_id: opId() });
export type RtkCommandData = z.infer<typeof rtkCommandData>;

export const logCommandData = z.object({
  op_id: opId(),
  /** PUT the log here (LOG_UPLOAD_PATH/<op_id>) with the device's Basic credentials. */
  url: serverPath(),
});
export type LogCommandData = z.infer<typeof logCommandData>;

/** Per-item calibration result (CalibrationResult: 0 normal, 1 abnormal). */
export const calibrationResultsSchema = z.partialRecord(calibrationItemSchema, z.union([z.literal(0), z.literal(1)]));
export type CalibrationResults = z.infer<typeof calibrationResultsSchema>;

/** What an operation found, reported in progress events and kept as the row's outcome. */
export const opOutcomeSchema = z.object({
  stage: z.string().max(32).optional(),
  /** Device's words (logs); the console shows the stage, failure and results. */
  message: z.string().max(256).optional(),
  /** MaintenanceFailure code of a failed operation. */
  failure: z.number().int().optional(),
  results: calibrationResultsSchema.optional(),
  /** Firmware version running after an upgrade. */
  firmware: z.string().max(64).optional(),
  rtk_status: z.number().int().min(0).max(4).optional(),
  ntrip_state: z.number().int().min(0).max(11).optional(),
  file_name: z.string().max(128).optional(),
  size: z.number().int().nonnegative().optional(),
});
export type OpOutcome = z.infer<typeof opOutcomeSchema>;

/** data of the `maint.progress` event. */
export const maintProgressEvent = opOutcomeSchema.extend({
  op_id: opId(),
  kind: z.enum(['upgrade', 'calibrate', 'beacon', 'azimuth', 'rtk', 'log', 'debug']),
  state: z.enum(['running', 'ok', 'failed']),
  progress: z.number().int().min(0).max(100),
});
export type MaintProgressEvent = z.infer<typeof maintProgressEvent>;

// ------------------------------------------------------------------------------------------ HTTP

/** Firmware download for devices: GET FIRMWARE_DOWNLOAD_PATH/<firmware id>, Basic auth. */
export const FIRMWARE_DOWNLOAD_PATH = '/api/device/rom/file';
/** Log upload from a nest: PUT LOG_UPLOAD_PATH/<op_id>, Basic auth, octet-stream body, header x-content-sha256. */
export const LOG_UPLOAD_PATH = '/api/device/log/upload';
/** Log download for the browser: GET LOG_DOWNLOAD_PATH/<op_id>?e=&s=, the signed link /device/ops answers. */
export const LOG_DOWNLOAD_PATH = '/api/device/log/file';
/** Largest log file a nest may upload. */
export const LOG_MAX_BYTES = 16 * 1024 * 1024;
/** Name of a log file (what devices may call it). */
export const LOG_FILE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

// ------------------------------------------------------------------------------------------ console

/** An operation as the console sees it (/device/ops list rows and push 390). */
export const deviceOpSchema = z.object({
  id: z.string(),
  sn_id: z.string(),
  kind: z.enum(['upgrade', 'calibrate', 'beacon', 'azimuth', 'rtk', 'log', 'debug']),
  state: z.enum(['running', 'ok', 'failed', 'timeout', 'offline']),
  progress: z.number().int().min(0).max(100),
  /** What was asked (the RTK password never: `password_set` says whether one was given). */
  params: z.record(z.string(), z.unknown()),
  outcome: opOutcomeSchema,
  /** MaintenanceFailure code of a failed operation; OP_REASON_* of a timeout / offline one (see opReasonText). */
  reason: z.number().int(),
  user_name: z.string(),
  /** Unix seconds. */
  create_time: z.number().int(),
  modified_time: z.number().int(),
  finish_time: z.number().int().nullable(),
  /** Uploaded log: name, size and download path (append ?token=); null otherwise. */
  file: z.object({ name: z.string(), size: z.number().int(), url: z.string() }).nullable(),
});
export type DeviceOp = z.infer<typeof deviceOpSchema>;

/** Live facts shown next to the operations (the answer of /device/ops carries them). */
export const maintenanceLiveSchema = z.object({
  online: z.boolean(),
  firmware: z.string().nullable(),
  rtk_status: z.number().int().nullable(),
  ntrip_state: z.number().int().nullable(),
  azimuth: z.number(),
  beacon: beaconSchema.nullable(),
});
export type MaintenanceLive = z.infer<typeof maintenanceLiveSchema>;

/** data of push 390 DEVICE_OP. */
export const deviceOpPush = z.object({ sn_id: z.string(), op: deviceOpSchema });
export type DeviceOpPush = z.infer<typeof deviceOpPush>;
