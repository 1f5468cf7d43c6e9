import type { Lang, Text } from './i18n.js';

/**
 * Enumerations of SPEC section 4, each value with its label in both languages. One helper builds them so
 * every enumeration answers the same questions: values, label of a value, options for a select.
 */
export interface Enumeration<V extends number | string> {
  readonly name: string;
  readonly entries: readonly { value: V; label: Text }[];
  values(): V[];
  has(value: unknown): value is V;
  label(value: V | number | string, lang: Lang): string;
  options(lang: Lang): { value: V; label: string }[];
}

/** One entry: value, Chinese label, English label and, for values code compares against, a member name. */
export type EnumEntry<V extends number | string = number | string> =
  | readonly [V, string, string]
  | readonly [V, string, string, string];

/** Member names must not shadow the methods and fields every enumeration has. */
type ReservedMember = keyof Enumeration<number | string>;

/**
 * The named members of an entry list: `[10, '正常', 'Normal', 'NORMAL']` gives `NORMAL: 10`, with the
 * literal type of the value, so `row.state === RecordState.NORMAL` is checked like the number itself.
 */
export type EnumMembers<E extends readonly EnumEntry[]> = {
  readonly [T in E[number] as T extends readonly [unknown, string, string, infer N extends string]
    ? N extends ReservedMember
      ? never
      : N
    : never]: T[0];
};

export function enumeration<const E extends readonly EnumEntry[]>(
  name: string,
  entries: E,
): Enumeration<E[number][0]> & EnumMembers<E> {
  const list = entries.map(([value, zh, en]) => ({ value, label: { zh, en } }));
  const byValue = new Map<unknown, Text>(list.map((e) => [e.value, e.label]));
  const members: Record<string, number | string> = {};
  for (const entry of entries) {
    const member = entry[3];
    if (member === undefined) continue;
    if (member in members) throw new Error(`${name}: member ${member} is named twice`);
    members[member] = entry[0];
  }
  const base: Enumeration<E[number][0]> = {
    name,
    entries: list,
    values: () => list.map((e) => e.value),
    has: (value: unknown): value is E[number][0] => byValue.has(value),
    label: (value, lang) => byValue.get(value)?.[lang] ?? String(value),
    options: (lang) => list.map((e) => ({ value: e.value, label: e.label[lang] })),
  };
  for (const member of Object.keys(members)) {
    if (member in base) throw new Error(`${name}: member ${member} would hide a field of the enumeration`);
  }
  return Object.freeze({ ...members, ...base }) as Enumeration<E[number][0]> & EnumMembers<E>;
}

export const RecordState = enumeration('RecordState', [
  [10, '正常', 'Normal', 'NORMAL'],
  [20, '已删除', 'Deleted', 'DELETED'],
] as const);

export const OnlineStatus = enumeration('OnlineStatus', [
  [1, '在线', 'Online', 'ONLINE'],
  [2, '离线', 'Offline', 'OFFLINE'],
  [3, '他人连接中', 'Connected by someone', 'CONNECTED_BY_OTHER'],
] as const);

export const Company = enumeration('Company', [
  ['wk', '沃科', 'wk'],
  ['gzGh', '广州国弘', 'gzGh'],
  ['zrhk', '中睿航空', 'zrhk'],
] as const);

/** Device type state (the device-type catalogue of system settings). */
export const DeviceTypeState = enumeration('DeviceTypeState', [
  [10, '启用', 'Enabled', 'ENABLED'],
  [20, '停用', 'Disabled', 'DISABLED'],
  [30, '已删除', 'Deleted', 'DELETED'],
] as const);

export const AlarmLevel = enumeration('AlarmLevel', [
  [30, '高', 'High', 'HIGH'],
  [20, '中', 'Medium', 'MEDIUM'],
  [10, '低', 'Low', 'LOW'],
] as const);

export const AlarmProcessState = enumeration('AlarmProcessState', [
  [10, '待处理', 'Pending', 'PENDING'],
  [20, '已处理', 'Processed', 'PROCESSED'],
] as const);

/** `task_state` of a timed task. 1 and 3 are set by operators (resume / pause); 10, 40, 41 by the scheduler. */
export const TimedTaskState = enumeration('TimedTaskState', [
  [1, '等待执行', 'Waiting', 'WAITING'],
  [3, '已暂停', 'Paused', 'PAUSED'],
  [10, '下发成功', 'Sent successfully', 'SENT'],
  [40, '下发失败（超时）', 'Send failed (timeout)', 'FAILED_TIMEOUT'],
  [41, '下发失败（设备不在线）', 'Send failed (device offline)', 'FAILED_OFFLINE'],
] as const);

/** Data state (`state`) of a timed task record. */
export const TimedTaskDataState = enumeration('TimedTaskDataState', [
  [0, '正常', 'Normal', 'NORMAL'],
  [10, '已删除', 'Deleted', 'DELETED'],
] as const);

/** Kind of an achievement (result) file. */
export const AchievementType = enumeration('AchievementType', [
  [10, '图片', 'Image', 'IMAGE'],
  [15, '全景', 'Panorama', 'PANORAMA'],
  [20, '视频', 'Video', 'VIDEO'],
] as const);

/** Ranking type of the data screen (`/ins/ranking`). */
export const CheckingType = enumeration('CheckingType', [
  [10, '出勤次数', 'Attendance count', 'ATTENDANCE'],
  [20, '巡检里程', 'Inspection mileage', 'MILEAGE'],
  [30, '成果数量', 'Result count', 'RESULTS'],
] as const);

export const FlightMode = enumeration('FlightMode', [
  [2, '姿态', 'Attitude', 'ATTITUDE'],
  [3, '自动', 'Auto', 'AUTO'],
  [4, '跟随', 'Follow', 'FOLLOW'],
  [5, 'GPS', 'GPS', 'GPS'],
  [6, '返航', 'Return home', 'RETURN_HOME'],
  [9, '降落', 'Landing', 'LANDING'],
  [13, '运动', 'Sport', 'SPORT'],
] as const);
/** Flight modes that are shown but cannot be chosen by the operator. */
export const NON_SELECTABLE_FLIGHT_MODES: ReadonlySet<number> = new Set([FlightMode.ATTITUDE]);
/** Flight-mode options an operator may choose from. */
export const selectableFlightModeOptions = (lang: Lang) =>
  FlightMode.options(lang).filter((o) => !NON_SELECTABLE_FLIGHT_MODES.has(o.value));

export const FlightState = enumeration('FlightState', [
  [0, '空闲', 'Idle', 'IDLE'],
  [1, '起飞', 'Taking off', 'TAKING_OFF'],
  [2, '空中', 'In the air', 'IN_AIR'],
  [3, '降落中', 'Landing', 'LANDING'],
  [4, '地面', 'On the ground', 'ON_GROUND'],
  [8, '返航中', 'Returning home', 'RETURNING'],
] as const);

/** Flight states of a drone in the air: taking off, in the air, landing, returning home. */
export const AIRBORNE_FLIGHT_STATES: readonly number[] = [
  FlightState.TAKING_OFF,
  FlightState.IN_AIR,
  FlightState.LANDING,
  FlightState.RETURNING,
];

/** Positioning solution of the RTK receiver. */
export const RtkStatus = enumeration('RtkStatus', [
  [0, '未连接', 'Not connected'],
  [1, '单点解', 'Single-point solution'],
  [2, '伪距差分解', 'Pseudo-range differential (DGNSS)'],
  [3, '浮点解', 'Float solution'],
  [4, '固定解', 'Fixed solution'],
] as const);

/**
 * State of the NTRIP client that feeds RTK corrections (SPEC: 0 to 11, from initial to network unavailable).
 * The sequence follows an NTRIP v1/v2 session: connect to the caster, authenticate against a mount point,
 * send the rover's GGA position (needed by VRS mount points), then receive RTCM corrections.
 */
export const NtripState = enumeration('NtripState', [
  [0, '初始化', 'Initial'],
  [1, '正在连接差分服务器', 'Connecting to caster'],
  [2, '已连接差分服务器', 'Connected to caster'],
  [3, '正在认证', 'Authenticating'],
  [4, '账号认证失败', 'Authentication failed'],
  [5, '挂载点不存在', 'Mount point not found'],
  [6, '正在上报位置（GGA）', 'Sending position (GGA)'],
  [7, '正在接收差分数据', 'Receiving corrections'],
  [8, '差分数据超时', 'Corrections timed out'],
  [9, '连接已断开', 'Disconnected'],
  [10, '正在重连', 'Reconnecting'],
  [11, '网络不可用', 'Network unavailable'],
] as const);

/** Sensors that can be calibrated; the value is the key used in calibration messages. */
export const CalibrationItem = enumeration('CalibrationItem', [
  ['gyroscope', '陀螺仪', 'Gyroscope'],
  ['compass', '指南针', 'Compass'],
  ['acceleration', '加速度计', 'Accelerometer'],
] as const);

/** Result of one calibration item: 0 normal, 1 abnormal (a non-zero value is an error flag). */
export const CalibrationResult = enumeration('CalibrationResult', [
  [0, '正常', 'Normal'],
  [1, '异常', 'Abnormal'],
] as const);

/** Camera defogging. */
export const Defogging = enumeration('Defogging', [
  [0, '关闭', 'Off'],
  [1, '常规', 'Normal'],
  [2, '自动', 'Auto'],
] as const);

/** Overlay drawn on the live video. */
export const GridType = enumeration('GridType', [
  [1, '网格线', 'Grid lines'],
  [2, '中心点', 'Center point'],
  [3, '网格线和中心点', 'Grid lines and center point'],
] as const);
export const DEFAULT_GRID_TYPE = 3;

/** Live preview resolution (note: 1 is 720p, 0 is 1080p). */
export const PreviewResolution = enumeration('PreviewResolution', [
  [1, '720P 标清', '720p'],
  [0, '1080P 高清', '1080p'],
] as const);

export const PreviewBitrate = enumeration('PreviewBitrate', [
  [0, '1M', '1 Mbps'],
  [1, '2M', '2 Mbps'],
  [2, '4M', '4 Mbps'],
] as const);

export const WhiteBalance = enumeration('WhiteBalance', [
  [0, '自动', 'Auto'],
  [1, '烛光', 'Candle'],
  [2, '钨丝灯', 'Tungsten'],
  [3, '荧光灯', 'Fluorescent'],
  [4, '日光', 'Daylight'],
  [5, '多云', 'Cloudy'],
  [6, '阴天', 'Overcast'],
  [7, '蓝天', 'Sky blue'],
  [8, '烟雾', 'Smoke'],
] as const);

/** Pseudo-colour palette of the thermal (infrared) camera. */
export const ThermalPalette = enumeration('ThermalPalette', [
  [0, '白热', 'White hot'],
  [1, '熔岩', 'Lava'],
  [2, '铁红', 'Iron red'],
  [3, '热红', 'Hot red'],
  [4, '琥珀1', 'Amber 1'],
  [5, '琥珀2', 'Amber 2'],
  [6, '蓝红黄', 'Blue-red-yellow'],
  [7, '黑红', 'Black-red'],
  [8, '红色1', 'Red 1'],
  [9, '红色2', 'Red 2'],
] as const);

/** Stable string key of a device's hardware family (used in settings, icons and texts). */
export const DeviceTypeKey = enumeration('DeviceTypeKey', [
  ['stable', '固定机场', 'Fixed nest'],
  ['stable_mini', '迷你机场', 'Mini nest'],
  ['mobile', '移动机场', 'Mobile nest'],
  ['alone', '单兵无人机', 'Single-soldier drone'],
] as const);
export type DeviceTypeKeyValue = 'stable' | 'stable_mini' | 'mobile' | 'alone';

/**
 * Numeric kind code of a device, used where a number is sent (device-list `type` filter, 0 meaning all;
 * device-type catalogue `cla_type`).
 */
export const DeviceKind = enumeration('DeviceKind', [
  [10, '固定机场', 'Fixed nest'],
  [100, '移动机场', 'Mobile nest'],
  [200, '单兵', 'Single-soldier'],
] as const);
export type DeviceKindValue = 10 | 100 | 200;
export const DEVICE_KIND_OF_KEY: Readonly<Record<DeviceTypeKeyValue, DeviceKindValue>> = {
  stable: 10,
  stable_mini: 10,
  mobile: 100,
  alone: 200,
};

/**
 * The `type` of a Device (SPEC section 3): fixed small airport, fixed large airport, mobile airport,
 * single-soldier drone. Its values are the device type keys: stable_mini is the small fixed airport,
 * stable the large one.
 */
export const DeviceCategory = enumeration('DeviceCategory', [
  ['stable_mini', '固定小机场', 'Fixed small airport'],
  ['stable', '固定大机场', 'Fixed large airport'],
  ['mobile', '移动机场', 'Mobile airport'],
  ['alone', '单兵无人机', 'Single-soldier drone'],
] as const);

/** How the console reaches the drone. */
export const LinkType = enumeration('LinkType', [
  [1, '机场端', 'Nest side', 'NEST'],
  [2, '飞机端直连', 'Aircraft side (direct)', 'AIRCRAFT'],
  [3, '自动', 'Auto', 'AUTO'],
] as const);

/**
 * The protocol a device speaks on the device link: this console's nest protocol (docs/device-protocol.md)
 * or DJI's Cloud API (a DJI Dock 2 / Dock 3, or DJI Pilot 2 as gateway; docs/dji.md).
 */
export const DeviceProtocol = enumeration('DeviceProtocol', [
  [1, '机场协议', 'Nest protocol', 'NEST'],
  [2, '大疆上云 API', 'DJI Cloud API', 'DJI'],
] as const);
export type DeviceProtocolValue = 1 | 2;

/** Plan (dispatch) state of a device on the planning screens. */
export const PlanState = enumeration('PlanState', [
  [0, '设备离线', 'Device offline'],
  [1, '执行任务中', 'Running a task'],
  [2, '待命', 'Standby'],
] as const);

/** Camera shooting mode. */
export const PictureMode = enumeration('PictureMode', [
  [1, '单拍', 'Single shot'],
  [2, '连拍', 'Burst'],
  [3, '定时拍', 'Timed'],
  [4, '延时拍', 'Delayed'],
] as const);

/** Height reference of a route. */
export const HeightType = enumeration('HeightType', [
  [0, '相对高度', 'Relative height'],
  [1, '海拔高度', 'Altitude (above sea level)'],
] as const);

/** What the aircraft does when the route is finished. */
export const FinishAction = enumeration('FinishAction', [
  [10, '悬停', 'Hover'],
  [20, '返航', 'Return home'],
  [30, '自动降落', 'Auto land'],
  [40, '返回第一个航点', 'Return to the first waypoint'],
] as const);

export const ExecutionType = enumeration('ExecutionType', [
  [0, '单次执行', 'Single run'],
  [1, '定时执行', 'Timed'],
] as const);

/**
 * Camera used for planning a survey: `custom` (sensor, image size and focal length typed in), `6k` (the
 * 6K mapping camera), `dual_light` (visible + infrared gimbal camera).
 */
export const CameraType = enumeration('CameraType', [
  ['custom', '自定义相机', 'Custom camera'],
  ['6k', '6K 相机', '6K camera'],
  ['dual_light', '双光相机', 'Dual-light camera'],
] as const);
export type CameraTypeValue = 'custom' | '6k' | 'dual_light';

/** Which sensor of a dual-light camera takes the photos. */
export const PhotoType = enumeration('PhotoType', [
  [1, '红外', 'Infrared'],
  [2, '可见光', 'Visible light'],
  [3, '红外和可见光', 'Infrared and visible'],
] as const);

/**
 * Kind of route (the answer of `/mission/type`). Not enumerated by the SPEC: waypoint routes and area
 * (survey grid) routes are what the editor builds, strip routes follow a line with a corridor width.
 */
export const MissionType = enumeration('MissionType', [
  [1, '航点航线', 'Waypoint route', 'WAYPOINT'],
  [2, '面状航线', 'Area survey route', 'SURVEY'],
  [3, '带状航线', 'Strip route', 'STRIP'],
] as const);

/**
 * Kinds of the map zones (`type` of the zones resource). Routes may not enter a no-fly or a restricted
 * zone (geo zoneConflictIssues); a work zone is only drawn.
 */
export const ZoneType = enumeration('ZoneType', [
  [1, '禁飞区', 'No-fly zone'],
  [2, '限飞区', 'Restricted zone'],
  [3, '作业区', 'Work zone'],
] as const);
export const ZoneKind = { NO_FLY: 1, RESTRICTED: 2, WORK: 3 } as const;

/**
 * Shape of a company's no-fly zone (`shape` of NoFlyZone): a polygon (its `boundary` ring) or a circle
 * (its `center` and `radius` in metres).
 */
export const NoFlyShape = enumeration('NoFlyShape', [
  [1, '多边形', 'Polygon', 'POLYGON'],
  [2, '圆形', 'Circle', 'CIRCLE'],
] as const);

/** Photo action at a waypoint: only one of photo or panorama photo (SPEC section 5). */
export const TakePhoto = enumeration('TakePhoto', [
  [0, '不拍照', 'No photo'],
  [1, '拍照', 'Photo'],
  [2, '全景拍照', 'Panorama photo'],
] as const);

/** `stream` of a device type: how many video streams the type provides (0 to 3). */
export const VideoStream = enumeration('VideoStream', [
  [0, '无视频流', 'No video stream'],
  [1, '1 路视频', '1 video stream'],
  [2, '2 路视频', '2 video streams'],
  [3, '3 路视频', '3 video streams'],
] as const);

/** `vr_type` of a recording made by a nest's outside cameras (SPEC: 1 or 2). */
export const RecordingVrType = enumeration('RecordingVrType', [
  [1, '外部摄像头 1', 'Outside camera 1'],
  [2, '外部摄像头 2', 'Outside camera 2'],
] as const);

/** Firmware package type; the SPEC names only 17 (nest firmware). */
export const FirmwareType = enumeration('FirmwareType', [[17, '机场固件', 'Nest firmware']] as const);
export const NEST_FIRMWARE_TYPE = 17;

/** Code of a nest action tip: 3 the part is opening (powering on), 2 it is closing (powering off). */
export const NestActionTip = enumeration('NestActionTip', [
  [3, '打开', 'Opening'],
  [2, '关闭', 'Closing'],
] as const);

/** Moving or switched parts of a nest named by action tips. */
export const NestPart = enumeration('NestPart', [
  ['hatch', '舱门', 'Hatch'],
  ['lift', '升降台', 'Lift platform'],
  ['center_stand', '归中支架', 'Center stand'],
  ['charger', '充电器', 'Charger'],
  ['drone_power', '飞机电源', 'Drone power'],
] as const);
export type NestPartValue = 'hatch' | 'lift' | 'center_stand' | 'charger' | 'drone_power';

/**
 * State of a nest part as nest telemetry reports it (device-link `partState`): 0 closed (off), 1 open (on),
 * 2 closing, 3 opening (the codes of the action tips), 4 fault.
 */
export const NestPartState = enumeration('NestPartState', [
  [0, '关闭', 'Closed', 'CLOSED'],
  [1, '打开', 'Open', 'OPEN'],
  [2, '关闭中', 'Closing', 'CLOSING'],
  [3, '打开中', 'Opening', 'OPENING'],
  [4, '故障', 'Fault', 'FAULT'],
] as const);

const NEST_ACTION_TEXT: Readonly<Record<NestPartValue, Readonly<Record<2 | 3, Text>>>> = {
  hatch: { 3: { zh: '舱门打开中', en: 'Opening the hatch' }, 2: { zh: '舱门关闭中', en: 'Closing the hatch' } },
  lift: {
    3: { zh: '升降台上升中', en: 'Raising the lift platform' },
    2: { zh: '升降台下降中', en: 'Lowering the lift platform' },
  },
  center_stand: {
    3: { zh: '归中支架松开中', en: 'Releasing the center stand' },
    2: { zh: '归中支架夹紧中', en: 'Clamping the center stand' },
  },
  charger: { 3: { zh: '充电器开启中', en: 'Switching the charger on' }, 2: { zh: '充电器关闭中', en: 'Switching the charger off' } },
  drone_power: {
    3: { zh: '飞机开机中', en: 'Powering the drone on' },
    2: { zh: '飞机关机中', en: 'Powering the drone off' },
  },
};

/** The tip shown while a nest part moves, e.g. (3, 'hatch') -> 'Opening the hatch'. */
export function nestActionText(code: number, part: string, lang: Lang): string {
  const byCode = (NEST_ACTION_TEXT as Record<string, Record<number, Text> | undefined>)[part];
  const text = byCode?.[code];
  if (text) return text[lang];
  return `${NestActionTip.label(code, lang)} ${NestPart.label(part, lang)}`;
}

/** `control_cmd` of a process-control message (push 473): pause, continue or interrupt a nest flow. */
export const ProcessControlCommand = enumeration('ProcessControlCommand', [
  [1, '暂停', 'Pause'],
  [2, '继续', 'Continue'],
  [3, '中断', 'Interrupt'],
] as const);

/** The failure texts of process control (push 473) are in push-texts.ts. */

/** Every enumeration, for completeness tests and documentation. */
export const ALL_ENUMS: readonly Enumeration<number | string>[] = [
  RecordState,
  OnlineStatus,
  Company,
  DeviceTypeState,
  AlarmLevel,
  AlarmProcessState,
  TimedTaskState,
  TimedTaskDataState,
  AchievementType,
  CheckingType,
  FlightMode,
  FlightState,
  RtkStatus,
  NtripState,
  CalibrationItem,
  CalibrationResult,
  Defogging,
  GridType,
  PreviewResolution,
  PreviewBitrate,
  WhiteBalance,
  ThermalPalette,
  DeviceTypeKey,
  DeviceKind,
  DeviceCategory,
  LinkType,
  DeviceProtocol,
  PlanState,
  PictureMode,
  HeightType,
  FinishAction,
  ExecutionType,
  CameraType,
  PhotoType,
  MissionType,
  NoFlyShape,
  TakePhoto,
  VideoStream,
  RecordingVrType,
  FirmwareType,
  NestActionTip,
  NestPart,
  NestPartState,
  ProcessControlCommand,
];
