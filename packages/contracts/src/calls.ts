import { z } from 'zod';
import { FUN_ID_PATTERN, SUPER_ADMINISTRATOR, callFunId } from './functions.js';
import {
  enumValue,
  enumValueDefault,
  flag,
  idList,
  int,
  intDefault,
  jsonOf,
  num,
  optionalEnumValue,
  optionalInt,
  optionalJsonOf,
  optionalNum,
  optionalPositiveNum,
  optionalText,
  positiveNum,
  requiredText,
  text,
} from './form.js';
import {
  FIRMWARE_FILE_EXT,
  FIRMWARE_FILE_FIELD,
  PASSWORD_ENVELOPE_MAX,
  TEACHING_VIDEO_FILE_FIELD,
  PERMANENT_END_TIME,
  TIMED_TASK_MIN_INTERVAL_MIN,
} from './constants.js';
import {
  AchievementType,
  AlarmLevel,
  AlarmProcessState,
  CameraType,
  CheckingType,
  DeviceCategory,
  DeviceProtocol,
  DeviceKind,
  DeviceTypeState,
  ExecutionType,
  FinishAction,
  FirmwareType,
  HeightType,
  LinkType,
  MissionType,
  NoFlyShape,
  NEST_FIRMWARE_TYPE,
  PhotoType,
  RecordState,
  RecordingVrType,
  TimedTaskDataState,
  TimedTaskState,
  VideoStream,
} from './enums.js';
import { ALARM_NOTE_MAX, AlarmKind } from './alarms.js';
import { isAuditKind } from './audit.js';
import {
  AZIMUTH_INVALID,
  WAYPOINT_LIMITS,
  CORRIDOR_WIDTH_MAX_M,
  alternateLandingSchema,
  beaconSchema,
  collaborationGroupSchema,
  departmentSchema,
  deviceListItemSchema,
  deviceSchema,
  deviceTypeSchema,
  fenceSchema,
  firmwareSchema,
  functionItemSchema,
  latLngSchema,
  missionSchema,
  NO_FLY_RADIUS_MAX_M,
  noFlyZoneSchema,
  pageOf,
  recordingVideoSchema,
  resultSchema,
  sortieSchema,
  teachingVideoSchema,
  timedTaskRowSchema,
  userListItemSchema,
  userSchema,
  waypointSchema,
} from './entities.js';
import {
  alarmPageSchema,
  alarmProcessedSchema,
  alarmStatsSchema,
  auditEntrySchema,
  commandLogEntrySchema,
  departmentTreeSchema,
  deviceAddedSchema,
  deviceDeletedSchema,
  deviceHoldSchema,
  djiCredentialsSchema,
  djiPilotLoginSchema,
  idAnswerSchema,
  mapDownStartedSchema,
  mapStyleSchema,
  missionSavedSchema,
  noData,
  optionOf,
  preflightSchema,
  resultZipSchema,
  sortieTrackSchema,
  teachingKindSchema,
} from './answers.js';
import { deviceOpSchema, maintenanceLiveSchema } from './maintenance.js';
import { linkStatsSchema, navEnvSchema } from './network.js';
import { ANALYSIS_MAX_DAYS, SORTIE_ORDERS, analysisSchema, rankingSchema } from './stats.js';
import type { Text } from './i18n.js';
import { MAP_DOWNLOAD_MAX_ZOOM, MAP_DOWNLOAD_MIN_ZOOM, MAP_DOWNLOAD_STATES, MERCATOR_MAX_LAT, mapDownloadSchema } from './mapDownload.js';
import { MAP_PACKAGE_FILE_FIELD, MAP_PACKAGE_NAME_MAX, mapPackageSchema } from './mapPackage.js';

/**
 * The call registry (SPEC section 7). Every call the browser makes is declared here once; the server
 * registers one route per entry and the web request layer builds and signs payloads from the same entry,
 * so a call cannot exist on one side only.
 */
export const SERVICES = ['user', 'device', 'zone', 'mt', 'video'] as const;
export type Service = (typeof SERVICES)[number];

/** Default base path of each service; each one can be moved elsewhere by configuration. */
export const DEFAULT_SERVICE_BASES: Readonly<Record<Service, string>> = {
  user: '/api/user',
  device: '/api/device',
  zone: '/api/zone',
  mt: '/api/mt',
  video: '/api/video',
};

/** Which of the two public keys encrypts a call's secret fields. */
export type PublicKeyName = 'password' | 'licence';

/**
 * - `public`: no token needed (sign-in).
 * - `session`: any signed-in user (own account calls).
 * - any other string: the function id the caller must hold (or super_administrator).
 */
export type Access = 'public' | 'session' | string;

export interface CallDef<F extends z.ZodType = z.ZodType, A extends z.ZodType = z.ZodType> {
  name: string;
  service: Service;
  path: string;
  /** Call-specific fields, as they arrive form-encoded (strings), with coercion and limits. */
  fields: F;
  /** Fields whose values, concatenated in this order, form the pmd value that is signed. */
  pmd: readonly string[];
  /** Sign os_timestamp + token + pmd value, and the server checks the timestamp is fresh. */
  timestamp: boolean;
  /** The pmd value is the concatenation of the named fields (SPEC "joint flag"). */
  joint: boolean;
  /** multipart/form-data instead of application/x-www-form-urlencoded. */
  multipart: boolean;
  /** Sent to the `mt` base instead of the service's own; signs timestamp, token and pmd. */
  separateUrl: boolean;
  /** Fields that carry a password envelope encrypted with this public key. */
  encrypted: readonly string[];
  publicKey: PublicKeyName | null;
  access: Access;
  /** Which issue builds the handler; `null` once the server implements it. Documentation only. */
  summary: string;
  /**
   * The `data` of a successful answer (JSON as it travels). The server checks its handlers' answers
   * against it in development and tests; the web request layer types `call()` with it.
   */
  answer: A;
}

type Options<F extends z.ZodType, A extends z.ZodType> = Partial<Omit<CallDef<F, A>, 'name' | 'service' | 'path' | 'fields' | 'answer'>> & {
  fields?: F;
  answer: A;
};

function call<A extends z.ZodType, F extends z.ZodType = z.ZodObject<Record<string, never>>>(
  name: string,
  service: Service,
  path: string,
  opts: Options<F, A>,
): CallDef<F, A> {
  const separateUrl = opts.separateUrl ?? false;
  return {
    name,
    service,
    path,
    fields: (opts.fields ?? z.object({})) as F,
    pmd: opts.pmd ?? [],
    timestamp: opts.timestamp ?? separateUrl,
    joint: opts.joint ?? false,
    multipart: opts.multipart ?? false,
    separateUrl,
    encrypted: opts.encrypted ?? [],
    publicKey: opts.publicKey ?? null,
    access: opts.access ?? callFunId(path),
    summary: opts.summary ?? '',
    answer: opts.answer,
  };
}

/** Account: a mainland mobile number or an e-mail address (SPEC section 5). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
export const isEmail = (account: string): boolean => EMAIL_PATTERN.test(account);
export const isAccount = (account: string): boolean => PHONE_PATTERN.test(account) || EMAIL_PATTERN.test(account);
export const account = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(128)
    .refine(isAccount, { message: 'account' });

/** An RSA-encrypted password envelope (base64); see `password.ts`. */
const passwordEnvelope = () => z.string().min(1).max(PASSWORD_ENVELOPE_MAX);
const seconds = () => int(0, 99_999_999_999);
const page = () => intDefault(0, 0, 1_000_000);
const size = (max = 1000, def = 20) => intDefault(def, 1, max);

export const funListField = () =>
  jsonOf(z.array(z.string().trim().min(1).max(64)).max(1000));

const optionalSeconds = () => optionalInt(0, 99_999_999_999);
const idField = () => requiredText(64);
const snField = () => requiredText(64);

/** Adds the check that a given start_time is not after a given end_time. */
const timeRanged = <S extends z.ZodRawShape>(shape: S) =>
  z.object(shape).refine(
    (o: Record<string, unknown>) =>
      typeof o.start_time !== 'number' || typeof o.end_time !== 'number' || o.start_time <= o.end_time,
    { message: 'start_time is after end_time', path: ['end_time'] },
  );

/** Azimuth in degrees, 0 to 360, or -1 for "not set" (the default). */
const azimuthField = () =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? AZIMUTH_INVALID : v),
    num(-1, 360).refine((v) => v === AZIMUTH_INVALID || v >= 0, { message: 'azimuth must be -1 or 0 to 360' }),
  );

/** Device fields of /device/add and /device/edit; points and beacon travel as JSON documents. */
const deviceFields = {
  type: enumValue(DeviceCategory),
  link_type: enumValueDefault(LinkType, 3),
  /** DeviceProtocol; absent: the nest protocol on /device/add, unchanged on /device/edit. */
  protocol: z.preprocess((v) => (v === '' || v === null ? undefined : v), enumValue(DeviceProtocol).optional()),
  airport_name: optionalText(64),
  uav_name: requiredText(64),
  sn_id: snField(),
  uav_sn: optionalText(64),
  address: optionalText(255),
  uav_model: optionalText(64),
  description: optionalText(500),
  azimuth: azimuthField(),
  altn_point: optionalJsonOf(latLngSchema, 256),
  airport_point: optionalJsonOf(latLngSchema, 256),
  beacon: optionalJsonOf(beaconSchema, 256),
  company: optionalText(64),
};

/** Fence fields: `boundary` is a JSON array of at least 3 WGS84 {lat, lng} points. */
const fenceFields = {
  name: requiredText(64),
  max_height: positiveNum(WAYPOINT_LIMITS.heightMax),
  boundary: jsonOf(z.array(latLngSchema).min(3).max(1000), 200_000),
  sn_id: snField(),
};

/**
 * No-fly zone fields (see `noFlyZoneSchema`): a polygon sends `boundary` (JSON ring), a circle `center`
 * (JSON point) and `radius` (m); `sn_id` '' or absent for every device of the company; `valid_from` and
 * `valid_to` unix seconds, absent for open-ended.
 */
const noFlyFields = {
  name: requiredText(64),
  reason: optionalText(500),
  shape: enumValue(NoFlyShape),
  boundary: optionalJsonOf(z.array(latLngSchema).min(3).max(1000), 200_000),
  center: optionalJsonOf(latLngSchema, 256),
  radius: optionalNum(0, NO_FLY_RADIUS_MAX_M),
  sn_id: optionalText(64),
  valid_from: optionalSeconds(),
  valid_to: optionalSeconds(),
};

/** A polygon has a boundary and no circle; a circle has a centre and a radius above 0; the period is in order. */
function checkNoFly(
  z0: { shape: number; boundary?: unknown; center?: unknown; radius?: number | undefined; valid_from?: number | undefined; valid_to?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  if (z0.shape === NoFlyShape.POLYGON && z0.boundary === undefined) ctx.addIssue({ code: 'custom', path: ['boundary'], message: 'a polygon zone needs its boundary' });
  if (z0.shape === NoFlyShape.CIRCLE) {
    if (z0.center === undefined) ctx.addIssue({ code: 'custom', path: ['center'], message: 'a circle zone needs its centre' });
    if (z0.radius === undefined || !(z0.radius > 0)) ctx.addIssue({ code: 'custom', path: ['radius'], message: 'a circle zone needs a radius above 0' });
  }
  if (z0.valid_from !== undefined && z0.valid_to !== undefined && z0.valid_from > z0.valid_to)
    ctx.addIssue({ code: 'custom', path: ['valid_to'], message: 'valid_from is after valid_to' });
}

/**
 * Accepted ranges of a route's speeds and heights, for /mission/add and /mission/edit and for the editor's
 * inputs (the same numbers on both sides; a value outside is refused, never moved into the range):
 * - cruise and maximum speed 1 to 15 m/s: the nest aircraft's route speeds (below 1 m/s a route of a few
 *   kilometres takes hours);
 * - default height 10 m to WAYPOINT_LIMITS.heightMax: clear of people and obstacles around the nest (an
 *   altitude route's heights are above sea level, hence the high ceiling);
 * - return height 20 m to 1500 m above the nest: the aircraft's return-to-home height range.
 */
export const MISSION_LIMITS = {
  auto_speed: { min: 1, max: 15, unit: 'm/s', name: { zh: '自动巡航速度', en: 'Cruise speed' } },
  max_speed: { min: 1, max: 15, unit: 'm/s', name: { zh: '最大速度', en: 'Maximum speed' } },
  default_height: { min: 10, max: WAYPOINT_LIMITS.heightMax, unit: 'm', name: { zh: '默认高度', en: 'Default height' } },
  return_height: { min: 20, max: 1500, unit: 'm', name: { zh: '返航高度', en: 'Return height' } },
} as const satisfies Record<string, { min: number; max: number; unit: string; name: Text }>;
export type MissionLimitField = keyof typeof MISSION_LIMITS;

/** "Cruise speed must be 1 to 15 m/s" in both languages. */
export function missionLimitText(field: MissionLimitField): Text {
  const l = MISSION_LIMITS[field];
  const unitZh = l.unit === 'm' ? '米' : `${l.unit} `;
  return { zh: `${l.name.zh}须在 ${l.min} 到 ${l.max} ${unitZh}之间`, en: `${l.name.en} must be ${l.min} to ${l.max} ${l.unit}` };
}

/** Whether a value lies in a route field's range (an absent or non-finite value does not). */
export const inMissionLimit = (field: MissionLimitField, v: number | null | undefined): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= MISSION_LIMITS[field].min && v <= MISSION_LIMITS[field].max;

/**
 * A number in a route field's range; out of range the issue carries the range text (`params.text`, zh
 * and en), which the server answers as the refusal's message.
 */
const missionNum = (field: MissionLimitField) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number()
      .finite()
      .refine((v) => inMissionLimit(field, v), { message: `${field} is out of range`, params: { text: missionLimitText(field) } }),
  );

/** Route fields (see `missionSettingsSchema`); `waypoints` is a JSON array of waypoints. */
const missionFields = {
  name: requiredText(64),
  fence_id: idField(),
  mission_type: enumValue(MissionType),
  height_type: enumValueDefault(HeightType, 0),
  auto_speed: missionNum('auto_speed'),
  max_speed: missionNum('max_speed'),
  default_height: missionNum('default_height'),
  return_height: missionNum('return_height'),
  finish_action: enumValueDefault(FinishAction, 20),
  exec_type: enumValueDefault(ExecutionType, 0),
  camera_type: enumValueDefault(CameraType, 'custom'),
  sensor_width: optionalPositiveNum(100),
  sensor_height: optionalPositiveNum(100),
  image_width: optionalInt(1, 100_000),
  image_height: optionalInt(1, 100_000),
  focal_length: optionalPositiveNum(1000),
  course_overlap: optionalNum(0, 99),
  lateral_overlap: optionalNum(0, 99),
  turn_distance: optionalNum(0, 1000),
  angle: optionalNum(0, 360),
  interval_height: optionalNum(0, WAYPOINT_LIMITS.heightMax),
  elevation: flag(false),
  photo_type: enumValueDefault(PhotoType, 2),
  waypoints: jsonOf(z.array(waypointSchema).max(WAYPOINT_LIMITS.maxWaypoints), 1_000_000),
  /** Area surveys: the area polygon (open WGS84 ring); the server regenerates the waypoints from it. */
  polygon: optionalJsonOf(z.array(latLngSchema).min(3).max(2000), 200_000),
  /** Strip routes (MissionType 3): the corridor's centre line (WGS84, >= 2 points); the server generates the lines. */
  line: optionalJsonOf(z.array(latLngSchema).min(2).max(2000), 200_000),
  /** Strip routes: the corridor's width (m), centred on the line. */
  corridor_width: optionalNum(1, CORRIDOR_WIDTH_MAX_M),
  /**
   * Area surveys and strip routes longer than one battery (ROUTE_FLIGHT_BUDGET_S) or the waypoint limit:
   * 1 stores them as a group of routes flown one after another; without it such a route is refused with
   * the number of parts it would take. /mission/add only.
   */
  split: flag(false).optional(),
};

/**
 * Cross-field rules of a route: cruise speed not above max speed; a waypoint route has waypoints; a
 * strip route has its centre line and width; an area survey or strip route with a custom camera names
 * its sensor, image size and focal length. (Inside-the-fence and
 * adjacent-distance checks need geometry and run on the server with @nest/geo.)
 */
function checkMission(
  m: {
    auto_speed: number;
    max_speed: number;
    mission_type: number;
    camera_type: string;
    waypoints: unknown[];
    line?: unknown[];
    corridor_width?: number;
  } & Partial<Record<'sensor_width' | 'sensor_height' | 'image_width' | 'image_height' | 'focal_length', number>>,
  ctx: z.RefinementCtx,
): void {
  // Refinements also run after field errors: look only at values that parsed.
  if (typeof m.auto_speed === 'number' && typeof m.max_speed === 'number' && m.auto_speed > m.max_speed) {
    ctx.addIssue({ code: 'custom', path: ['auto_speed'], message: 'auto_speed is above max_speed' });
  }
  if (m.mission_type === 1 && Array.isArray(m.waypoints) && m.waypoints.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['waypoints'], message: 'a waypoint route needs waypoints' });
  }
  if (m.mission_type === 3) {
    if (m.line === undefined) ctx.addIssue({ code: 'custom', path: ['line'], message: 'a strip route needs its centre line' });
    if (m.corridor_width === undefined) ctx.addIssue({ code: 'custom', path: ['corridor_width'], message: 'a strip route needs its corridor width' });
  }
  if (m.mission_type !== 1 && m.camera_type === 'custom') {
    for (const k of ['sensor_width', 'sensor_height', 'image_width', 'image_height', 'focal_length'] as const) {
      if (m[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: `${k} is required for a custom camera` });
    }
  }
}

/** Repeat period of a timed task in minutes: 0 runs once, otherwise at least TIMED_TASK_MIN_INTERVAL_MIN. */
const timedTaskInterval = () =>
  intDefault(0, 0, 525_600).refine((v) => v === 0 || v >= TIMED_TASK_MIN_INTERVAL_MIN, {
    message: `interval must be 0 or at least ${TIMED_TASK_MIN_INTERVAL_MIN} minutes`,
  });

/** Members of a collaboration group: user ids as a JSON array or comma-separated; '' or '[]' is none. */
const groupMemberIds = () =>
  z.preprocess(
    (v) => (v === undefined || v === '' || (typeof v === 'string' && v.trim() === '[]') ? [] : v),
    z.union([z.array(z.string()).length(0), idList(500)]),
  );

/** Fields of a device-type catalogue entry (state added per call). */
/** A device type's key (`value`): letters, digits, `_` and `-`. */
export const DEVICE_TYPE_VALUE_PATTERN = /^[A-Za-z0-9_-]+$/;

const deviceTypeFields = {
  cla_type: enumValue(DeviceKind),
  cla_name: requiredText(64),
  value: requiredText(64).regex(DEVICE_TYPE_VALUE_PATTERN, { message: 'letters, digits, _ and - only' }),
  stream: enumValueDefault(VideoStream, 1),
  notes: optionalText(500),
};

/** Function that opens the teaching-video screen; it also lets the holder list the videos. */
export const TEACHING_VIDEO_MENU_FUNCTION = 'menu_teachingVideos';
/** Device kind of a teaching video: 0 (every kind) or a DeviceKind. */
const isTeachKind = (v: number | undefined): boolean => v === undefined || v === 0 || DeviceKind.has(v);
const teachKindMessage = { message: 'must be 0 or a device kind' };
const teachKindFilter = () => optionalInt(0, 1000).refine(isTeachKind, teachKindMessage);
const teachKind = () => intDefault(0, 0, 1000).refine(isTeachKind, teachKindMessage);

/** Actions of /device/connect. */
export const DEVICE_CONNECT_ACTIONS = ['connect', 'release'] as const;
export type DeviceConnectAction = (typeof DEVICE_CONNECT_ACTIONS)[number];
/** A control connection (/device/connect) ends this many seconds after its last renewal. */
export const DEVICE_HOLD_SECONDS = 60;

/**
 * Writes to the system-wide catalogues (functions, device types, firmware packages, teaching videos): one
 * catalogue serves every company, so a change by one company's administrator would change what every other
 * company sees and may do (a function switched off for all, another company's firmware renamed). Only a
 * super administrator writes them; reading stays with the calls' own functions.
 */
const CATALOGUE_WRITE = SUPER_ADMINISTRATOR;

export const calls = {
  // ---------------------------------------------------------------- user service
  login: call('login', 'user', '/user/login', {
    answer: userSchema,
    access: 'public',
    fields: z.object({ account: account(), password: passwordEnvelope() }),
    pmd: ['account'],
    joint: true,
    timestamp: true,
    encrypted: ['password'],
    publicKey: 'password',
    summary: 'Sign in with account and encrypted password; answers the user info with its token.',
  }),
  logout: call('logout', 'user', '/user/logout', {
    answer: noData,
    access: 'session',
    summary: 'Revoke the current token.',
  }),
  userInfo: call('userInfo', 'user', '/user/info', {
    answer: userSchema,
    access: 'session',
    summary: 'The signed-in user (token and pmd value empty).',
  }),
  // Users, functions and departments.
  userList: call('userList', 'user', '/user/list', {
    answer: pageOf(userListItemSchema),
    fields: z.object({
      search: optionalText(64),
      page: page(),
      size: size(200),
      state: optionalText(4),
      /** Company filter: a super administrator's choice; anyone else sees only their own company. */
      in_com_id: optionalText(64),
      /** Department filter (a department id). */
      team: optionalText(64),
    }),
    pmd: ['page'],
    joint: true,
    summary:
      "Users ({list: UserListItem[], total}) of the caller's company (super_administrator: every company, or in_com_id), " +
      'filtered by search (nick, account, e-mail), state (10/20) and team; oldest first. Never a password hash.',
  }),
  userAdd: call('userAdd', 'user', '/user/add', {
    answer: userListItemSchema,
    fields: z.object({
      nick: requiredText(64),
      phone: account(),
      email: optionalText(128),
      password: passwordEnvelope(),
      start_time: seconds(),
      end_time: intDefault(PERMANENT_END_TIME, 0, 99_999_999_999),
      team: optionalText(64),
      notes: optionalText(500),
      in_com_id: optionalText(64),
      fun_json: funListField(),
    }),
    pmd: ['phone', 'nick'],
    joint: true,
    timestamp: true,
    encrypted: ['password'],
    publicKey: 'password',
    summary:
      'Add a user: unique account (ACCOUNT_TAKEN), password 6-32, end_time permanent (4765104000) or after start_time, ' +
      'in_com_id another company for super_administrator only, team a department of that company, fun_json functions ' +
      'in state 10 the caller holds (super_administrator only by a super administrator). Answers the UserListItem.',
  }),
  userEdit: call('userEdit', 'user', '/user/edit', {
    answer: userSchema,
    access: 'session',
    fields: z.object({
      u_id: requiredText(64),
      state: int(0, 100),
      start_time: seconds(),
      end_time: seconds(),
      nick: requiredText(64),
      phone: account(),
      email: optionalText(128),
      password: optionalText(1024),
      team: optionalText(64),
      notes: optionalText(500),
      in_com_id: optionalText(64),
      fun_json: funListField(),
    }),
    pmd: ['u_id', 'nick', 'phone', 'start_time', 'end_time'],
    joint: true,
    timestamp: true,
    encrypted: ['password'],
    publicKey: 'password',
    summary:
      'Own account edit for everyone (nick, phone, email, notes); editing others or privileged fields needs user_edit.',
  }),
  userDelete: call('userDelete', 'user', '/user/delete', {
    answer: userListItemSchema,
    fields: z.object({ u_id: requiredText(64) }),
    pmd: ['u_id'],
    joint: true,
    summary:
      'Delete (state 20) a user of the caller\'s company and revoke their sessions; not oneself, not the last super administrator.',
  }),
  userRecover: call('userRecover', 'user', '/user/recover', {
    answer: userListItemSchema,
    fields: z.object({ u_id: requiredText(64) }),
    pmd: ['u_id'],
    joint: true,
    summary: 'Recover (state 10) a deleted user of the caller\'s company.',
  }),
  userPsw: call('userPsw', 'user', '/user/psw', {
    answer: noData,
    access: 'session',
    fields: z.object({ account: account(), password: passwordEnvelope(), new_psw: passwordEnvelope() }),
    pmd: ['account', 'password', 'new_psw'],
    joint: true,
    encrypted: ['password', 'new_psw'],
    publicKey: 'password',
    summary: 'Change own password; revokes every token of the user.',
  }),
  funAdd: call('funAdd', 'user', '/fun/add', {
    answer: functionItemSchema,
    access: CATALOGUE_WRITE,
    fields: z.object({
      name: requiredText(64),
      name_en: requiredText(64),
      fun_id: requiredText(64).regex(FUN_ID_PATTERN),
      description: requiredText(500),
      notes: optionalText(500),
      state: enumValueDefault(RecordState, 10),
    }),
    pmd: ['fun_id'],
    joint: true,
    summary: 'Add a function: fun_id unique, a letter then letters, digits or _ (FUN_ID_PATTERN). Answers the FunctionItem.',
  }),
  funEdit: call('funEdit', 'user', '/fun/edit', {
    answer: functionItemSchema,
    access: CATALOGUE_WRITE,
    fields: z.object({
      fun_id: requiredText(64),
      name: requiredText(64),
      name_en: requiredText(64),
      description: requiredText(500),
      notes: optionalText(500),
      state: enumValue(RecordState),
    }),
    pmd: ['fun_id'],
    joint: true,
    summary:
      'Edit a function (fun_id names it and cannot change); state 20 deletes it: it then grants nothing on any call ' +
      '(super_administrator itself cannot be deleted). Answers the FunctionItem.',
  }),
  funList: call('funList', 'user', '/fun/list', {
    answer: pageOf(functionItemSchema),
    fields: z.object({ search: optionalText(64), state: optionalText(4) }),
  }),
  teamList: call('teamList', 'user', '/team/list', {
    answer: departmentTreeSchema,
    fields: z.object({ in_com_id: optionalText(64) }),
    summary:
      "The department tree of the caller's company (super_administrator: of in_com_id): {list: DepartmentNode[], total}, " +
      'deleted departments included (state 20), siblings by sort then name, member_count per department.',
  }),
  teamAdd: call('teamAdd', 'user', '/team/add', {
    answer: departmentSchema,
    fields: z.object({
      parent_id: optionalText(64),
      name: requiredText(64),
      description: optionalText(500),
      notes: optionalText(500),
      sort: intDefault(0, 0, 1_000_000),
      /** Top-level department of another company: super_administrator only; a sub-department takes its parent's. */
      in_com_id: optionalText(64),
    }),
    pmd: ['name'],
    joint: true,
    summary: 'Add a department: parent a live department of the same company, name unique among its siblings. Answers the Department.',
  }),
  teamEdit: call('teamEdit', 'user', '/team/edit', {
    answer: departmentSchema,
    fields: z.object({
      id: idField(),
      parent_id: optionalText(64),
      name: requiredText(64),
      description: optionalText(500),
      notes: optionalText(500),
      /** Absent: kept. 20 deletes (same rules as /team/delete), 10 restores. */
      state: optionalEnumValue(RecordState),
      sort: intDefault(0, 0, 1_000_000),
    }),
    pmd: ['id', 'name'],
    joint: true,
    summary:
      'Edit or move a department: the new parent must be a live department of the same company and neither the ' +
      'department itself nor one below it; name unique among siblings. Answers the Department.',
  }),
  teamDelete: call('teamDelete', 'user', '/team/delete', {
    answer: departmentSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
    summary: 'Delete (state 20) a department that has no users (state 10) and no live sub-departments; the refusal names how many.',
  }),
  auditList: call('auditList', 'user', '/audit/list', {
    answer: pageOf(auditEntrySchema),
    fields: timeRanged({
      kind: optionalText(32).refine((v) => v === undefined || isAuditKind(v), { message: 'unknown audit kind' }),
      account: optionalText(128),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
    summary:
      'Audit log of security events (audit.ts AuditEntry), newest first: sign-ins and failures, sign-outs, password, ' +
      'user, function and group-membership changes, device commands and device administration. The caller\'s company; ' +
      'a super administrator sees every company. Filters: kind, account (account or user name), time range.',
  }),

  // ---------------------------------------------------------------- device service
  deviceList: call('deviceList', 'device', '/device/list', {
    answer: pageOf(deviceListItemSchema),
    fields: z.object({ type: intDefault(0, 0, 1000), search: text(64).optional(), page: page(), size: size(1000, 200) }),
    pmd: ['page', 'type'],
    summary:
      'Device list with live state ({list: DeviceListItem[], total}, online first, then by name); type 0 = all, ' +
      'else a DeviceKind code (10 fixed: stable and stable_mini, 100 mobile, 200 single-soldier); search matches sn, ' +
      'drone sn, names and address; page from 0, size default 200; pmd value is page concatenated with type.',
  }),
  userGetDeviceType: call('userGetDeviceType', 'device', '/device/uav/type', {
    answer: z.array(optionOf(z.string())),
    summary: 'No payload: the device type keys (DeviceTypeKey) as [{value, label}] in the caller language.',
  }),
  deviceAdd: call('deviceAdd', 'device', '/device/add', {
    answer: deviceAddedSchema,
    timestamp: true,
    fields: z.object(deviceFields),
    pmd: ['sn_id', 'uav_sn'],
    joint: true,
    summary:
      'Register a device (nest with its drone, or a single-soldier drone) in the caller\'s company (company: ' +
      'another one for a super administrator only). sn_id and uav_sn match SN_PATTERN, sn_id unique (the sn of ' +
      'a deleted device registers it again); a nest needs airport_name and airport_point; a single-soldier ' +
      'drone takes no airport_name, altn_point, beacon nor azimuth and no link type 1. protocol (DeviceProtocol, ' +
      'default 1 nest protocol; 2 DJI Cloud API: sn_id the gateway sn, dock or remote controller, uav_sn its drone). ' +
      'Answers the Device; for a DJI device also dji {mqtt_url, username, password}, its broker credentials, shown ' +
      'this once (the server keeps no copy; /device/dji/credentials issues new ones).',
  }),
  deviceEdit: call('deviceEdit', 'device', '/device/edit', {
    answer: deviceSchema,
    timestamp: true,
    fields: z.object({ id: idField(), ...deviceFields }),
    pmd: ['id', 'sn_id'],
    joint: true,
    summary:
      'Edit a device: every field as in /device/add (absent optional fields become empty, but an absent protocol ' +
      'stays as it is); sn_id cannot change. Changing the protocol or a DJI device\'s uav_sn changes its broker ' +
      'rights at once (a new protocol: new credentials from /device/dji/credentials). ' +
      'Refused while someone else holds its control connection (DEVICE_BUSY) or when it is disabled ' +
      '(DEVICE_DISABLED). Answers the Device.',
  }),
  deviceDjiCredentials: call('deviceDjiCredentials', 'device', '/device/dji/credentials', {
    answer: djiCredentialsSchema,
    access: callFunId('/device/edit'),
    timestamp: true,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    summary:
      'New broker credentials for a DJI device (DeviceProtocol 2): {mqtt_url, username, password}, shown this once. ' +
      'The previous password stops working and the device\'s current connection is closed. Needs the device-edit ' +
      'function; refused for a nest-protocol device (BAD_REQUEST) and for a disabled one (DEVICE_DISABLED).',
  }),
  deviceDjiPilot: call('deviceDjiPilot', 'device', '/device/dji/pilot', {
    answer: djiPilotLoginSchema,
    access: callFunId('/device/edit'),
    timestamp: true,
    fields: z.object({ rc_sn: z.string().min(1).max(64), dock_sn: z.string().max(64).optional() }),
    pmd: ['rc_sn'],
    summary:
      'The Pilot 2 page\'s login for a DJI remote controller used as gateway: rc_sn is the RC\'s sn as DJI Pilot 2 ' +
      'reports it (platformGetRemoteControllerSN), registered in the caller\'s company as a DJI device (protocol 2). ' +
      'Issues new broker credentials as /device/dji/credentials does (the previous password stops working, the ' +
      'current connection is closed) and answers them with the DJI app id, key and licence, the workspace (company ' +
      'id and name), the platform name and the device name. dock_sn (a dock being set up from this controller, to which ' +
      'Pilot 2 passes the login): that dock\'s credentials instead of the controller\'s. An unknown sn, another company\'s device or a ' +
      'nest-protocol one: NOT_FOUND_OBJECT; a disabled one: DEVICE_DISABLED. Needs the device-edit function.',
  }),
  // Equipment: soft delete and enable / disable.
  deviceDelete: call('deviceDelete', 'device', '/device/delete', {
    answer: deviceDeletedSchema,
    timestamp: true,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    summary:
      'Delete a device (state 20; its history stays). Refused while someone else holds it (DEVICE_BUSY), when ' +
      'it is disabled (DEVICE_DISABLED) or while its drone is in the air or a mission / flow runs (BAD_REQUEST).',
  }),
  deviceEnable: call('deviceEnable', 'device', '/device/enable', {
    answer: deviceSchema,
    timestamp: true,
    fields: z.object({ id: idField(), enabled: int(0, 1) }),
    pmd: ['id', 'enabled'],
    joint: true,
    summary:
      'Enable (1) or disable (0) a device. A disabled device cannot be operated and its broker login is refused. ' +
      'Disabling is refused while someone else holds it or while it is in the air or on a mission. Answers the Device.',
  }),
  deviceConnect: call('deviceConnect', 'device', '/device/connect', {
    answer: deviceHoldSchema,
    fields: z.object({
      sn_id: snField(),
      connect: intDefault(1, 0, 1),
      /** `connect` (take or renew) or `release`; when given it wins over `connect`. */
      action: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(DEVICE_CONNECT_ACTIONS).optional()),
    }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Take (connect 1 / action connect) or release (connect 0 / action release) the control connection of a device. ' +
      'A hold lasts DEVICE_HOLD_SECONDS; connecting again while holding renews it.',
  }),
  // Device maintenance: operations over the device link, recorded in device_ops,
  // progress by push 390 DEVICE_OP (contracts maintenance.ts, docs/device-protocol.md section 10).
  deviceUpgrade: call('deviceUpgrade', 'device', '/device/upgrade', {
    answer: deviceOpSchema,
    fields: z.object({ sn_id: snField(), rom_id: idField() }),
    pmd: ['sn_id', 'rom_id'],
    joint: true,
    summary:
      'Upgrade a nest to an enabled firmware package: refused while offline (firmwareOffline), in the air or on a mission ' +
      '(firmwareOnMission), disabled (DEVICE_DISABLED), held by someone else (DEVICE_BUSY) or already upgrading. The device ' +
      'downloads the package, verifies, installs and reboots; answers the operation (DeviceOp), progress by push 390.',
  }),
  deviceCalibrate: call('deviceCalibrate', 'device', '/device/calibrate', {
    answer: deviceOpSchema,
    fields: z.object({
      sn_id: snField(),
      /** JSON array of CalibrationItem values; absent: all three. */
      items: optionalJsonOf(z.array(z.enum(['gyroscope', 'compass', 'acceleration'])).min(1).max(3), 256),
    }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Calibrate the drone sensors (gyroscope, compass, acceleration; absent items: all); each item ends normal (0) or ' +
      'abnormal (1) in the outcome. Refused offline, in the air, disabled or held by someone else. Answers the DeviceOp.',
  }),
  deviceBeacon: call('deviceBeacon', 'device', '/device/beacon', {
    answer: deviceOpSchema,
    fields: z.object({ sn_id: snField(), beacon: jsonOf(beaconSchema, 256) }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Set the beacon parameters on the nest; on success they are stored on the device too. No answer in time: the ' +
      'beaconTimeout text (DEVICE_NO_ANSWER). Answers the finished DeviceOp.',
  }),
  deviceAzimuth: call('deviceAzimuth', 'device', '/device/azimuth', {
    answer: deviceOpSchema,
    fields: z.object({ sn_id: snField(), azimuth: azimuthField() }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Set the nest azimuth (0-360, -1 = not set) on the nest; on success it is stored on the device too. No answer in ' +
      'time: the azimuthTimeout text (DEVICE_NO_ANSWER). Answers the finished DeviceOp.',
  }),
  deviceRtk: call('deviceRtk', 'device', '/device/rtk', {
    answer: deviceOpSchema,
    fields: z.object({
      sn_id: snField(),
      url: requiredText(255),
      port: int(1, 65535),
      mount_point: optionalText(64),
      user: optionalText(64),
      password: optionalText(64),
    }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Point the drone RTK at an NTRIP caster (url and port required). The operation follows the Ntrip state (0-11) ' +
      'until corrections arrive and RTK is fixed, or an error state; the password is never stored nor answered.',
  }),
  deviceLog: call('deviceLog', 'device', '/device/log', {
    answer: deviceOpSchema,
    fields: z.object({ sn_id: snField() }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Ask the nest to upload its log; the file arrives over HTTP (LOG_UPLOAD_PATH) and /device/ops lists it with a ' +
      'signed download link (LOG_DOWNLOAD_PATH/<id>?e=&s=, valid 12 h). Answers the DeviceOp.',
  }),
  deviceDebug: call('deviceDebug', 'device', '/device/debug', {
    answer: deviceOpSchema,
    fields: z.object({ sn_id: snField(), action: z.enum(['cover_open', 'cover_close', 'drone_on', 'drone_off', 'charge_on', 'charge_off', 'reboot']) }),
    pmd: ['sn_id', 'action'],
    joint: true,
    summary:
      'One remote-debug action (DebugAction) of a dock: a DJI dock runs it inside debug mode; a device without remote ' +
      'debug refuses it. Refused offline, in the air, disabled or held by someone else; a device refusal carries its text. Answers the DeviceOp.',
  }),
  deviceOps: call('deviceOps', 'device', '/device/ops', {
    answer: pageOf(deviceOpSchema).extend({ live: maintenanceLiveSchema }),
    fields: z.object({ sn_id: snField(), kind: optionalText(16), page: page(), size: size(100, 10) }),
    pmd: ['sn_id', 'page'],
    joint: true,
    summary:
      'Maintenance operations of a device, newest first: `{list: DeviceOp[], total, live: MaintenanceLive}` (live: online, ' +
      'firmware, RTK status, Ntrip state, stored azimuth and beacon); kind filters by MaintenanceKind.',
  }),
  insRanking: call('insRanking', 'device', '/ins/ranking', {
    answer: rankingSchema,
    fields: timeRanged({
      type: enumValueDefault(CheckingType, 10),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      size: size(100, 10),
    }),
    pmd: ['type'],
    joint: true,
    summary:
      'Data-screen ranking of devices by attendance (10: sorties), mileage (20: metres flown) or results (30: count), ' +
      'optionally within start_time/end_time (s): stats.ts rankingSchema {type, list: [{rank, sn_id, name, value}]}, largest first.',
  }),
  resultList: call('resultList', 'device', '/result/list', {
    answer: pageOf(resultSchema),
    fields: timeRanged({
      type: optionalEnumValue(AchievementType),
      sn_id: optionalText(64),
      sort_id: optionalText(64),
      search: optionalText(64),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      /** 1: only results with a GPS position (the map view). */
      located: optionalInt(0, 1),
      page: page(),
      size: size(1000),
    }),
    pmd: ['page'],
    joint: true,
    summary:
      'Results ({list, total}, newest first) filtered by type, device, sortie, keyword (file name or sn) and when taken (s). ' +
      'Rows: id, sort_id, sn_id, device_name, type, file_name, url, thumb_url, mime, size, width, height, duration, lat, lng, altitude, waypoint_index, taken_at (ms), create_time.',
  }),
  resultZip: call('resultZip', 'device', '/result/zip', {
    answer: resultZipSchema,
    fields: z
      .object({ ids: z.preprocess((v) => (v === '' ? undefined : v), idList().optional()), sort_id: optionalText(64) })
      .refine((o) => (o.ids !== undefined) !== (o.sort_id !== undefined), { message: 'give ids or sort_id', path: ['ids'] }),
    pmd: [],
    summary:
      'A zip of results (given ids, or every result of a sortie): answers {url, count, bytes, expires_at (s)}; GET url ' +
      '(RESULT_ZIP_PATH/<token>) streams it for RESULT_ZIP_TTL_S. At most RESULT_ZIP_MAX_FILES files / RESULT_ZIP_MAX_BYTES.',
  }),
  resultDeleteOne: call('resultDeleteOne', 'device', '/result/delete/one', {
    answer: noData,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
  }),
  resultDeleteIds: call('resultDeleteIds', 'device', '/result/delete/ids', {
    answer: noData,
    fields: z.object({ ids: idList() }),
    pmd: ['ids'],
    joint: true,
    summary: 'Delete several results; ids as a JSON array or comma-separated.',
  }),
  resultDeleteSort: call('resultDeleteSort', 'device', '/result/delete/sort', {
    answer: noData,
    fields: z.object({ sort_id: idField() }),
    pmd: ['sort_id'],
    joint: true,
    summary: 'Delete every result of one sortie.',
  }),
  sortiesList: call('sortiesList', 'device', '/sorties/list', {
    answer: pageOf(sortieSchema),
    fields: timeRanged({
      sn_id: optionalText(64),
      search: optionalText(64),
      mission_type: optionalEnumValue(MissionType),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      /** Default start_time. */
      order: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(SORTIE_ORDERS).optional()),
      asc: optionalInt(0, 1),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
    summary:
      'Sorties ({list, total}) filtered by device, keyword (route or user name), route type and start time (s), sorted by ' +
      'order (start_time, duration, distance, count; newest / largest first unless asc=1). Rows: SPEC Sortie fields plus ' +
      'device_name, distance (m), place, mission_id, flight_id; end_time 0 while flying.',
  }),
  sortiesDelete: call('sortiesDelete', 'device', '/sorties/delete', {
    answer: noData,
    fields: z.object({ ids: idList() }),
    pmd: ['ids'],
    joint: true,
    summary: 'Delete sorties (with their results); ids as a JSON array or comma-separated.',
  }),
  sortiesTrack: call('sortiesTrack', 'device', '/sorties/track', {
    answer: sortieTrackSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
    summary:
      'The stored telemetry track of one sortie for replay: {sortie, points: [{t (ms), lat, lng, alt, height, speed, heading, ' +
      'battery, flight_state}], planned: PlannedPoint[] (the route as sent to the device; [] for one-key flights)}.',
  }),
  alternateList: call('alternateList', 'device', '/alternate/list', {
    answer: pageOf(alternateLandingSchema),
    fields: timeRanged({
      sn_id: optionalText(64),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
    summary: 'Alternate-landing records (sn_id, reason, solution, timestamp, drone_int, altn_int, place_int, create_time), newest first.',
  }),
  alarmList: call('alarmList', 'device', '/alarm/list', {
    answer: alarmPageSchema,
    fields: timeRanged({
      level: optionalEnumValue(AlarmLevel),
      state: optionalEnumValue(AlarmProcessState),
      kind: optionalEnumValue(AlarmKind),
      sn_id: optionalText(64),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
    summary: 'Alarms of the company ({list: Alarm[], total, pending}), newest first; start_time/end_time (s) bound raised_at.',
  }),
  alarmProcess: call('alarmProcess', 'device', '/alarm/process', {
    answer: alarmProcessedSchema,
    fields: z.object({ ids: idList(), note: optionalText(ALARM_NOTE_MAX) }),
    pmd: ['ids'],
    joint: true,
    summary:
      'Mark alarms processed with a note; every id must be visible to the caller, else nothing changes. Already processed ' +
      'ones keep their first note. Answers {list: Alarm[], pending}; push 370 per alarm.',
  }),
  alarmStats: call('alarmStats', 'device', '/alarm/stats', {
    answer: alarmStatsSchema,
    fields: timeRanged({ sn_id: optionalText(64), start_time: optionalSeconds(), end_time: optionalSeconds() }),
    summary:
      'Alarm statistics of the company: {total, pending, by_level: [{level, total, pending}] (30, 20, 10), by_kind: [{kind, total, pending}]}.',
  }),
  dataAnalyse: call('dataAnalyse', 'device', '/data/analyse', {
    answer: analysisSchema,
    fields: z
      .object({
        start_time: seconds(),
        end_time: seconds(),
        sn_ids: z.preprocess((v) => (v === '' ? undefined : v), idList().optional()),
        /** Default 480 (China Standard Time). */
        tz_offset: optionalInt(-840, 840),
      })
      .refine((o) => o.start_time <= o.end_time, { message: 'start_time is after end_time', path: ['end_time'] })
      .refine((o) => o.end_time - o.start_time <= ANALYSIS_MAX_DAYS * 86_400, {
        message: `the period is longer than ${ANALYSIS_MAX_DAYS} days`,
        path: ['end_time'],
      }),
    pmd: ['start_time', 'end_time'],
    joint: true,
    summary:
      'Data analysis over a period and device set (all devices of the company when sn_ids is absent): stats.ts analysisSchema, ' +
      'per day (in the tz_offset time zone) and per device.',
  }),
  commandLog: call('commandLog', 'device', '/command/log', {
    answer: pageOf(commandLogEntrySchema),
    fields: timeRanged({
      sn_id: optionalText(64),
      search: optionalText(64),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
    summary:
      'Audit log of device commands (who, what, device, when, outcome, reason), newest first; for administrators.',
  }),
  flightCheck: call('flightCheck', 'device', '/flight/check', {
    answer: preflightSchema,
    fields: z.object({ sn_id: snField(), mission_id: optionalText(64) }),
    pmd: ['sn_id'],
    joint: true,
    summary:
      'Pre-flight checks of a device (and a route) now: {ready, checks: PreflightCheck[]}, the same checks a takeoff runs.',
  }),
  fenceList: call('fenceList', 'device', '/fence/list', {
    answer: pageOf(fenceSchema),
    fields: z.object({ sn_id: optionalText(64), search: optionalText(64), page: page(), size: size(1000, 200) }),
    pmd: ['page'],
    joint: true,
  }),
  fenceAdd: call('fenceAdd', 'device', '/fence/add', {
    answer: fenceSchema,
    fields: z.object(fenceFields),
    pmd: ['name', 'sn_id'],
    joint: true,
    summary: 'Create a work fence; it must not cross another fence of the same device.',
  }),
  fenceEdit: call('fenceEdit', 'device', '/fence/edit', {
    answer: fenceSchema,
    fields: z.object({ id: idField(), ...fenceFields }),
    pmd: ['id', 'name'],
    joint: true,
    summary: 'Edit a fence; its routes must still lie inside it.',
  }),
  fenceOne: call('fenceOne', 'device', '/fence/one', {
    answer: fenceSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
  }),
  fenceDelete: call('fenceDelete', 'device', '/fence/delete', {
    answer: idAnswerSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
    summary:
      'Delete a fence. Refused (BAD_REQUEST) while a live route or a planned timed task uses it; the refusal names them.',
  }),
  noFlyList: call('noFlyList', 'device', '/nofly/list', {
    answer: pageOf(noFlyZoneSchema),
    fields: z.object({ sn_id: optionalText(64), search: optionalText(64), page: page(), size: size(1000, 200) }),
    pmd: ['page'],
    joint: true,
    summary: "The company's no-fly zones (every one when sn_id is absent; with sn_id, those that apply to that device).",
  }),
  noFlyAdd: call('noFlyAdd', 'device', '/nofly/add', {
    answer: noFlyZoneSchema,
    fields: z.object(noFlyFields).superRefine(checkNoFly),
    pmd: ['name', 'shape'],
    joint: true,
    summary: 'Create a no-fly zone (polygon or circle) for the company or one of its devices.',
  }),
  noFlyEdit: call('noFlyEdit', 'device', '/nofly/edit', {
    answer: noFlyZoneSchema,
    fields: z.object({ id: idField(), ...noFlyFields }).superRefine(checkNoFly),
    pmd: ['id', 'name'],
    joint: true,
    summary: 'Edit a no-fly zone. Saved routes are not changed: those it now crosses show the conflict and cannot take off.',
  }),
  noFlyDelete: call('noFlyDelete', 'device', '/nofly/delete', {
    answer: idAnswerSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
  }),
  missionType: call('missionType', 'device', '/mission/type', {
    answer: z.array(optionOf(z.number().int())),
    summary: 'No payload: answers the route kinds (MissionType) with their labels.',
  }),
  missionList: call('missionList', 'device', '/mission/list', {
    answer: pageOf(missionSchema),
    fields: z.object({
      fence_id: optionalText(64),
      mission_type: optionalEnumValue(MissionType),
      search: optionalText(64),
      page: page(),
      size: size(1000, 200),
    }),
    pmd: ['page'],
    joint: true,
  }),
  missionAdd: call('missionAdd', 'device', '/mission/add', {
    answer: missionSavedSchema,
    fields: z.object(missionFields).superRefine(checkMission),
    pmd: ['name', 'fence_id'],
    joint: true,
    summary: 'Create a route; waypoints (JSON) must lie inside the fence, adjacent ones within the distance limit.',
  }),
  missionEdit: call('missionEdit', 'device', '/mission/edit', {
    answer: missionSavedSchema.partial({ terrain_note: true, survey: true }),
    fields: z
      .object({ id: idField(), ...missionFields, state: optionalEnumValue(RecordState) })
      .superRefine(checkMission),
    pmd: ['id', 'name'],
    joint: true,
  }),
  missionInfo: call('missionInfo', 'device', '/mission/info', {
    answer: missionSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
  }),
  missionClearBreak: call('missionClearBreak', 'device', '/mission/clearBreak', {
    answer: missionSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
    summary: 'Forget the breakpoint of an interrupted route so it starts from the first waypoint next time.',
  }),
  romList: call('romList', 'device', '/rom/list', {
    answer: pageOf(firmwareSchema),
    fields: z.object({
      type: optionalEnumValue(FirmwareType),
      state: optionalEnumValue(RecordState),
      search: optionalText(64),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
  }),
  romAdd: call('romAdd', 'device', '/rom/add', {
    answer: firmwareSchema,
    access: CATALOGUE_WRITE,
    multipart: true,
    separateUrl: true,
    fields: z.object({
      type: enumValueDefault(FirmwareType, NEST_FIRMWARE_TYPE),
      version_code: int(0, 2_147_483_647),
      version_name: requiredText(32),
      description: requiredText(2000),
      description_en: requiredText(2000),
    }),
    pmd: ['type', 'version_code', 'version_name'],
    joint: true,
    summary: `Upload a firmware package: the file travels in the multipart part "${FIRMWARE_FILE_FIELD}" and must be ${FIRMWARE_FILE_EXT}.`,
  }),
  romEdit: call('romEdit', 'device', '/rom/edit', {
    answer: firmwareSchema,
    access: CATALOGUE_WRITE,
    fields: z.object({
      id: idField(),
      version_name: requiredText(32),
      description: requiredText(2000),
      description_en: requiredText(2000),
      state: enumValueDefault(RecordState, 10),
    }),
    pmd: ['id'],
    joint: true,
    summary: 'Edit the texts of a firmware package, or delete it (state 20).',
  }),
  taskAdd: call('taskAdd', 'device', '/task/add', {
    answer: timedTaskRowSchema,
    fields: z.object({
      mission_id: idField(),
      fence_id: optionalText(64),
      f_title: optionalText(64),
      m_title: optionalText(64),
      sn_id: snField(),
      task_tms: seconds(),
      interval: timedTaskInterval(),
    }),
    pmd: ['sn_id', 'task_tms'],
    joint: true,
    summary:
      'Plan a timed task. f_title/m_title are display copies the server fills from the route; runs of one device must be at least 30 minutes apart.',
  }),
  taskEdit: call('taskEdit', 'device', '/task/edit', {
    answer: timedTaskRowSchema,
    fields: z.object({
      id: idField(),
      mission_id: optionalText(64),
      sn_id: optionalText(64),
      task_tms: optionalSeconds(),
      interval: z.preprocess((v) => (v === '' || v === null ? undefined : v), timedTaskInterval().optional()),
      /** Operators may only pause (3) or resume (1) a task. */
      task_state: optionalInt(1, 3).refine((v) => v === undefined || v === 1 || v === 3, {
        message: 'task_state must be 1 or 3',
      }),
      /** Data state: 10 deletes the task. */
      state: optionalEnumValue(TimedTaskDataState),
    }),
    pmd: ['id'],
    joint: true,
    summary: 'Change, pause/resume (task_state 1/3) or delete (state 10) a timed task; absent fields are kept.',
  }),
  taskList: call('taskList', 'device', '/task/list', {
    answer: pageOf(timedTaskRowSchema),
    fields: z.object({
      sn_id: optionalText(64),
      task_state: optionalEnumValue(TimedTaskState),
      search: optionalText(64),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
  }),
  deviceTypeAdminList: call('deviceTypeAdminList', 'device', '/deviceType/adminList', {
    answer: pageOf(deviceTypeSchema),
    fields: z.object({
      cla_type: optionalEnumValue(DeviceKind),
      state: optionalEnumValue(DeviceTypeState),
      search: optionalText(64),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
  }),
  deviceTypeAdd: call('deviceTypeAdd', 'device', '/deviceType/add', {
    answer: deviceTypeSchema,
    access: CATALOGUE_WRITE,
    fields: z.object({
      ...deviceTypeFields,
      state: enumValueDefault(DeviceTypeState, 10).refine((v) => v !== 30, { message: 'a new type cannot be deleted' }),
    }),
    pmd: ['cla_type', 'value'],
    joint: true,
  }),
  deviceTypeEdit: call('deviceTypeEdit', 'device', '/deviceType/edit', {
    answer: deviceTypeSchema,
    access: CATALOGUE_WRITE,
    fields: z.object({ id: idField(), ...deviceTypeFields, state: enumValue(DeviceTypeState) }),
    pmd: ['id', 'value'],
    joint: true,
    summary: 'Edit, disable (20) or delete (30) a device type.',
  }),
  deviceTypeList: call('deviceTypeList', 'device', '/deviceType/list', {
    answer: z.array(deviceTypeSchema),
    fields: z.object({ cla_type: optionalEnumValue(DeviceKind) }),
    summary: 'Enabled device types, for choosers.',
  }),
  comGetList: call('comGetList', 'device', '/com/getList', {
    answer: pageOf(collaborationGroupSchema),
    fields: z.object({
      search: optionalText(64),
      state: optionalEnumValue(RecordState),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
  }),
  comGetOne: call('comGetOne', 'device', '/com/getOne', {
    answer: collaborationGroupSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
  }),
  comAdd: call('comAdd', 'device', '/com/add', {
    answer: collaborationGroupSchema,
    fields: z.object({ name: requiredText(64), device_ids: idList(500), user_ids: groupMemberIds(), notes: optionalText(500) }),
    pmd: ['name'],
    joint: true,
    summary:
      "Create a collaboration group: a name and at least one device of one company (the caller's; super_administrator: any); " +
      'members (user_ids, users of any company) see its devices but cannot control them.',
  }),
  comEdit: call('comEdit', 'device', '/com/edit', {
    answer: collaborationGroupSchema,
    fields: z.object({
      id: idField(),
      name: requiredText(64),
      device_ids: idList(500),
      /** Absent: the members are kept; '' or [] removes them all. */
      user_ids: groupMemberIds().optional(),
      notes: optionalText(500),
      state: enumValueDefault(RecordState, 10),
    }),
    pmd: ['id', 'name'],
    joint: true,
    summary: 'Edit a collaboration group (devices and members replaced; absent user_ids kept), or delete it (state 20).',
  }),

  // ---- device network and navigation environment: contracts network.ts
  linkStats: call('linkStats', 'device', '/link/stats', {
    answer: linkStatsSchema,
    fields: z.object({ sn_id: optionalText(64) }),
    summary:
      'The device network of the caller\'s company (super_administrator: all): the broker, and per device its link type, ' +
      'online state, last heard, telemetry rate, messages per minute, dropped messages by reason and command round trips ' +
      '(all visible devices, or the one sn_id).',
  }),
  deviceNavEnv: call('deviceNavEnv', 'device', '/device/navEnv', {
    answer: z.object({ list: z.array(navEnvSchema) }),
    fields: z.object({ sn_id: optionalText(64) }),
    summary:
      'The satellite navigation environment of the visible devices (or one sn_id): GNSS satellites, fix, RTK status, ' +
      'Ntrip state, typical accuracy, home and alternate points, from the live telemetry.',
  }),

  // ---------------------------------------------------------------- map (zone) and video services
  // ---- offline map downloads: contracts mapDownload.ts
  mapDown: call('mapDown', 'zone', '/map/down', {
    answer: mapDownStartedSchema,
    fields: z
      .object({
        name: optionalText(64),
        min_lat: num(-MERCATOR_MAX_LAT, MERCATOR_MAX_LAT),
        min_lng: num(-180, 180),
        max_lat: num(-MERCATOR_MAX_LAT, MERCATOR_MAX_LAT),
        max_lng: num(-180, 180),
        min_zoom: int(MAP_DOWNLOAD_MIN_ZOOM, MAP_DOWNLOAD_MAX_ZOOM),
        max_zoom: int(MAP_DOWNLOAD_MIN_ZOOM, MAP_DOWNLOAD_MAX_ZOOM),
      })
      .refine((b) => b.min_lat < b.max_lat && b.min_lng < b.max_lng, { message: 'min below max for latitude and longitude' })
      .refine((b) => b.min_zoom <= b.max_zoom, { message: 'min_zoom not above max_zoom' }),
    pmd: ['min_zoom', 'max_zoom'],
    joint: true,
    summary:
      'Start an offline map download: every tile of the WGS84 box at zooms min_zoom..max_zoom (0-10) is cut into ' +
      'the server\'s offline tile store by a background job; refused above MAP_DOWNLOAD_MAX_TILES tiles or with ' +
      'MAP_DOWNLOAD_MAX_ACTIVE jobs of the company unfinished. Answers {id, total}; progress arrives as push 391.',
  }),
  mapDownList: call('mapDownList', 'zone', '/map/downList', {
    answer: pageOf(mapDownloadSchema),
    fields: z.object({ state: z.preprocess((v) => (v === '' ? undefined : v), z.enum(MAP_DOWNLOAD_STATES as [string, ...string[]]).optional()), page: page(), size: size(200) }),
    pmd: ['page'],
    joint: true,
    summary: 'Download jobs of the caller\'s company (super_administrator: all), newest first: {list: MapDownload[], total}.',
  }),
  mapDownCancel: call('mapDownCancel', 'zone', '/map/downCancel', {
    answer: mapDownloadSchema,
    fields: z.object({ id: requiredText(64) }),
    pmd: ['id'],
    joint: true,
    summary: 'Cancel a waiting or running download job (tiles already cut stay in the store). Answers the job.',
  }),
  // ---- offline map packages: contracts mapPackage.ts
  mapPackageAdd: call('mapPackageAdd', 'zone', '/map/packageAdd', {
    answer: mapPackageSchema,
    multipart: true,
    fields: z.object({ name: requiredText(MAP_PACKAGE_NAME_MAX) }),
    pmd: ['name'],
    joint: true,
    summary:
      `Upload an offline map package: the file travels in the multipart part "${MAP_PACKAGE_FILE_FIELD}", an MBTiles (SQLite with ` +
      'metadata and tiles; pbf, png, jpg or webp) or PMTiles v3 file, checked before it is kept (MAP_PACKAGE_TEXTS say why one is ' +
      'refused). The package belongs to the caller\'s company. Answers the MapPackage.',
  }),
  mapPackageList: call('mapPackageList', 'zone', '/map/packageList', {
    answer: pageOf(mapPackageSchema),
    fields: z.object({ page: page(), size: size(200, 100) }),
    pmd: ['page'],
    joint: true,
    summary: 'Offline map packages of the caller\'s company (super_administrator: all), newest first: {list: MapPackage[], total}.',
  }),
  mapPackageDelete: call('mapPackageDelete', 'zone', '/map/packageDelete', {
    answer: idAnswerSchema,
    fields: z.object({ id: idField() }),
    pmd: ['id'],
    joint: true,
    summary: 'Delete an offline map package: its row and its file. Maps using it fall back to the offline basemap.',
  }),
  mapPackageStyle: call('mapPackageStyle', 'zone', '/map/packageStyle', {
    answer: mapStyleSchema,
    // Whoever may list the packages may draw them.
    access: callFunId('/map/packageList'),
    fields: z.object({ id: idField(), theme: z.enum(['dark', 'light']).default('dark') }),
    pmd: ['id'],
    joint: true,
    summary:
      'The MapLibre style of a package (raster: one raster layer; vector: a generic style from its vector_layers, labels in the ' +
      'os_language), naming tile URLs signed with an expiry (maps/packages/README.md): tiles need no header.',
  }),
  videoUserList: call('videoUserList', 'video', '/video/user/list', {
    answer: pageOf(recordingVideoSchema),
    fields: timeRanged({
      sn_id: optionalText(64),
      vr_type: optionalEnumValue(RecordingVrType),
      start_time: optionalSeconds(),
      end_time: optionalSeconds(),
      page: page(),
      size: size(200),
    }),
    pmd: ['page'],
    joint: true,
    summary:
      'Recordings of the nests’ outside cameras of the user’s company ({list: RecordingVideo[], total}, newest first); ' +
      'start_time/end_time bound the recording start.',
  }),
  videoDeviceTypeList: call('videoDeviceTypeList', 'video', '/deviceType/list', {
    answer: z.array(teachingKindSchema),
    // The teaching-video screen's kind filter: whoever may open that screen may read it.
    access: TEACHING_VIDEO_MENU_FUNCTION,
    summary:
      'User explain-type list (the video service twin of /deviceType/list): the device kinds that have teaching videos, ' +
      '`[{cla_type, cla_name, count}]` (cla_type 0: videos for every kind), for the teaching-video filter.',
  }),

  // ---------------------------------------------------------------- teaching videos
  teachList: call('teachList', 'video', '/teach/list', {
    answer: pageOf(teachingVideoSchema),
    fields: z.object({
      search: optionalText(64),
      cla_type: teachKindFilter(),
      page: page(),
      size: size(200, 12),
    }),
    pmd: ['page'],
    joint: true,
    access: TEACHING_VIDEO_MENU_FUNCTION,
    summary:
      'Teaching videos, newest first (`{list: TeachingVideo[], total}`); search in title and description; cla_type filters by ' +
      'device kind (videos for every kind, 0, are listed under each kind). preview_url / poster_url are links valid for hours.',
  }),
  teachAdd: call('teachAdd', 'video', '/teach/add', {
    answer: teachingVideoSchema,
    access: CATALOGUE_WRITE,
    multipart: true,
    fields: z.object({
      title: requiredText(64),
      describe: optionalText(2000),
      notes: optionalText(500),
      cla_type: teachKind(),
    }),
    pmd: ['title'],
    joint: true,
    summary:
      `Upload a teaching video: the file travels in the multipart part "${TEACHING_VIDEO_FILE_FIELD}", MP4 or WebM (content ` +
      'checked); a poster frame is made when the server has ffmpeg.',
  }),
  teachEdit: call('teachEdit', 'video', '/teach/edit', {
    answer: teachingVideoSchema,
    access: CATALOGUE_WRITE,
    fields: z.object({
      id: idField(),
      title: requiredText(64),
      describe: optionalText(2000),
      notes: optionalText(500),
      cla_type: teachKind(),
      state: enumValueDefault(RecordState, 10),
    }),
    pmd: ['id', 'title'],
    joint: true,
    summary: 'Edit the texts of a teaching video, or delete it (state 20: the file is removed).',
  }),
} as const satisfies Record<string, CallDef>;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallFields<N extends CallName> = z.input<Calls[N]['fields']>;
export type ParsedFields<N extends CallName> = z.output<Calls[N]['fields']>;
/** The `data` of a successful answer of a call. */
export type CallAnswer<N extends CallName> = z.output<Calls[N]['answer']>;

export const CALL_LIST: readonly CallDef[] = Object.values(calls);

/** The base a call is sent to: `mt` for separate-URL calls, else its own service. */
export const serviceOf = (def: CallDef): Service => (def.separateUrl ? 'mt' : def.service);

/** Full URL path of a call given the configured bases. */
export function callUrl(def: CallDef, bases: Readonly<Record<Service, string>> = DEFAULT_SERVICE_BASES): string {
  return bases[serviceOf(def)].replace(/\/$/, '') + def.path;
}

/** Common fields the request layer adds to every payload (SPEC section 3). */
export const COMMON_FIELDS = [
  'app_type',
  'app_ids',
  'app_code',
  'app_flavor',
  'os_timestamp',
  'os_language',
  'token',
  'pmd',
] as const;
export type CommonField = (typeof COMMON_FIELDS)[number];
