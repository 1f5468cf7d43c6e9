import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table interfaces of the server database (SQLite or PostgreSQL, same schema).
 *
 * Time unit: every time column holds INTEGER Unix time in SECONDS (bigint), like the SPEC's user
 * start_time/end_time. That includes sessions.created_at, last_seen_at, expires_at and revoked_at:
 * a session is live while `revoked_at IS NULL AND expires_at > now AND last_seen_at + idle > now`,
 * so `UPDATE sessions SET expires_at = 0` ends every session.
 *
 * Ids are text: UUIDs for users, sessions and departments; the code for seeded companies; the function id
 * for functions.
 */

export interface CompaniesTable {
  id: string;
  code: string;
  name: string;
  state: ColumnType<number, number | undefined, number>;
  created_at: number;
}

export interface DepartmentsTable {
  id: string;
  parent_id: string | null;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string, string | undefined, string>;
  state: ColumnType<number, number | undefined, number>;
  created_at: number;
  updated_at: number;
  /** Owning company (migration 006); departments of one company form one tree. */
  company_id: string | null;
  /** Order among siblings. */
  sort: ColumnType<number, number | undefined, number>;
}

export interface UsersTable {
  u_id: string;
  nick: string;
  /** The account: a phone number or an e-mail address (unique, case-insensitively). */
  phone: string;
  email: ColumnType<string, string | undefined, string>;
  company_id: string;
  team: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string, string | undefined, string>;
  /** 10 normal, 20 deleted/disabled (contracts RecordState). */
  state: ColumnType<number, number | undefined, number>;
  /** Validity window, seconds; end_time >= PERMANENT_END_TIME means permanent. */
  start_time: number;
  end_time: number;
  /** JSON array of function ids (one read per call with the session lookup). */
  fun_list: ColumnType<string, string | undefined, string>;
  /** `scrypt$N$r$p$salt$hash` of the SHA-256 hex digest of the password. */
  password_hash: string;
  password_changed_at: number;
  created_at: number;
  updated_at: number;
}

export interface FunctionsTable {
  fun_id: string;
  name: string;
  name_en: string;
  description: ColumnType<string, string | undefined, string>;
  /** 10 normal, 20 deleted. */
  state: ColumnType<number, number | undefined, number>;
  notes: ColumnType<string, string | undefined, string>;
  sort: ColumnType<number, number | undefined, number>;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  last_seen_at: number;
  /** Absolute expiry (seconds). */
  expires_at: number;
  revoked_at: number | null;
  /** Client address at sign-in. */
  address: ColumnType<string, string | undefined, string>;
}

export interface LoginAttemptsTable {
  /** 'account' (lower-cased account, existing or not) or 'address' (client IP). */
  kind: string;
  key: string;
  failures: number;
  window_start: number;
  locked_until: number;
}

/** Nonces of accepted password envelopes, kept until their timestamp leaves the clock window (auth/envelopes.ts). */
export interface PasswordNoncesTable {
  nonce: string;
  /** ms */
  expires_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/**
 * A device (nest with its drone, or a single-soldier drone). `type` is a DeviceCategory key, `sn_id` the
 * nest SN (the drone SN for a single-soldier drone) and the device's MQTT user name, `uav_sn` the drone SN.
 * Points are WGS84 (null when unset), `beacon` a JSON beaconSchema document. `enabled` 1/0 (disabled
 * devices cannot be operated nor connect to the broker); `state` RecordState (10 normal, 20 deleted).
 */
export interface DevicesTable {
  id: string;
  type: string;
  link_type: ColumnType<number, number | undefined, number>;
  /** DeviceProtocol: 1 nest protocol, 2 DJI Cloud API. */
  protocol: ColumnType<number, number | undefined, number>;
  /**
   * Generation of the device's broker password (DJI devices get a password shown once; issuing a new one
   * raises the generation, which invalidates the old one).
   */
  secret_gen: ColumnType<number, number | undefined, number>;
  airport_name: ColumnType<string, string | undefined, string>;
  uav_name: ColumnType<string, string | undefined, string>;
  sn_id: string;
  uav_sn: ColumnType<string, string | undefined, string>;
  address: ColumnType<string, string | undefined, string>;
  uav_model: ColumnType<string, string | undefined, string>;
  description: ColumnType<string, string | undefined, string>;
  azimuth: ColumnType<number, number | undefined, number>;
  altn_lat: number | null;
  altn_lng: number | null;
  airport_lat: number | null;
  airport_lng: number | null;
  beacon: string | null;
  company_id: string;
  enabled: ColumnType<number, number | undefined, number>;
  state: ColumnType<number, number | undefined, number>;
  created_at: number;
  updated_at: number;
}

/** Who holds a device's control connection; the hold ends DEVICE_HOLD_SECONDS after last_seen. */
export interface DeviceControlTable {
  sn_id: string;
  u_id: string;
  since: number;
  last_seen: number;
}

/** A recording of a nest's outside camera (`url`, `thumb_url` under /media/ or absolute). */
export interface RecordingsTable {
  id: string;
  sn_id: string;
  company_id: string;
  thumb_url: ColumnType<string, string | undefined, string>;
  vr_type: number;
  start_time: number;
  end_time: number;
  file_name: string;
  size_kb: ColumnType<number, number | undefined, number>;
  url: string;
  created_at: number;
}

/**
 * A work fence: `boundary` JSON array of WGS84 {lat, lng} (open ring), bound to one device (`sn_id`) of
 * `company_id`. `state` RecordState. `created_by` / `updated_by` user ids.
 */
export interface FencesTable {
  id: string;
  name: string;
  max_height: number;
  boundary: string;
  sn_id: string;
  company_id: string;
  state: ColumnType<number, number | undefined, number>;
  created_by: ColumnType<string, string | undefined, string>;
  updated_by: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
}

/**
 * A company's no-fly zone (migration 013): `shape` NoFlyShape (1 polygon: `boundary` JSON ring; 2 circle:
 * centre and `radius` m, boundary '[]'), `sn_id` '' for every device of the company, validity in unix s
 * (null open-ended, inclusive), `state` 10 live / 20 deleted, who made or last changed it, times in s.
 */
export interface NoFlyZonesTable {
  id: string;
  company_id: string;
  name: string;
  reason: ColumnType<string, string | undefined, string>;
  shape: number;
  boundary: ColumnType<string, string | undefined, string>;
  center_lat: number | null;
  center_lng: number | null;
  radius: number | null;
  sn_id: ColumnType<string, string | undefined, string>;
  valid_from: number | null;
  valid_to: number | null;
  state: ColumnType<number, number | undefined, number>;
  user_id: ColumnType<string, string | undefined, string>;
  user_name: ColumnType<string, string | undefined, string>;
  created_at: number;
  modified_at: number;
}

/**
 * A route (task). `waypoints` JSON waypoint list (the server's: surveys are regenerated on save),
 * `survey_polygon` JSON ring of an area survey (null otherwise), `elevation` 1/0, `distance` m,
 * `est_time` s, `breakpoint` index of the waypoint an interrupted flight stopped at (null: none).
 */
export interface MissionsTable {
  id: string;
  name: string;
  fence_id: string;
  mission_type: number;
  height_type: number;
  auto_speed: number;
  max_speed: number;
  default_height: number;
  return_height: number;
  finish_action: number;
  exec_type: number;
  camera_type: string;
  sensor_width: number | null;
  sensor_height: number | null;
  image_width: number | null;
  image_height: number | null;
  focal_length: number | null;
  course_overlap: number;
  lateral_overlap: number;
  turn_distance: number;
  angle: number;
  interval_height: number;
  elevation: number;
  photo_type: number;
  waypoints: string;
  survey_polygon: string | null;
  distance: number;
  est_time: number;
  breakpoint: number | null;
  state: ColumnType<number, number | undefined, number>;
  u_id: string;
  user_name: string;
  company_id: string;
  created_at: number;
  updated_at: number;
  /** Strip routes: the centre line (JSON WGS84 points) and the corridor width (m); null otherwise. */
  corridor_line: ColumnType<string | null, string | null | undefined, string | null>;
  corridor_width: ColumnType<number | null, number | null | undefined, number | null>;
  /** A part of a survey split by battery: group id, 1-based part number, parts; null otherwise. */
  group_id: ColumnType<string | null, string | null | undefined, string | null>;
  group_index: ColumnType<number | null, number | null | undefined, number | null>;
  group_count: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1 once the part has flown to its end since its whole group last did (the next part is the first 0). */
  group_flown: ColumnType<number, number | undefined, number>;
}

/** A map zone polygon (`paths` JSON WGS84 ring); `company_id` null = shown to everyone. */
export interface ZonesTable {
  id: string;
  type: number;
  name: ColumnType<string, string | undefined, string>;
  paths: string;
  stroke_color: string;
  solid_color: string;
  stroke_width: number;
  company_id: string | null;
  created_at: number;
}

/**
 * Audit log of device commands: one row per command id (`cmd_id`, kept across re-sends), `source`
 * console | task | demo, `outcome` contracts CommandOutcomeKind, `reason` CommandReason (0 none),
 * `params` JSON, `flight_id` the flight a takeoff / route start began. Times in ms.
 */
export interface CommandLogTable {
  id: string;
  cmd_id: string;
  sn_id: string;
  company_id: string;
  u_id: ColumnType<string, string | undefined, string>;
  user_name: ColumnType<string, string | undefined, string>;
  source: ColumnType<string, string | undefined, string>;
  cmd_type: number;
  action_cmd: ColumnType<number, number | undefined, number>;
  method: string;
  params: ColumnType<string, string | undefined, string>;
  flight_id: string | null;
  outcome: ColumnType<string, string | undefined, string>;
  reason: ColumnType<number, number | undefined, number>;
  detail: ColumnType<string, string | undefined, string>;
  created_at: number;
  finished_at: number | null;
}

/** One flight (SPEC Sortie): `flight_id` the device's flight id; times in seconds; `place` AlternatePlace. */
export interface SortiesTable {
  id: string;
  flight_id: string;
  sn_id: string;
  uav_id: ColumnType<string, string | undefined, string>;
  company_id: string;
  mission_id: string | null;
  mission_name: ColumnType<string, string | undefined, string>;
  mission_type: ColumnType<number, number | undefined, number>;
  u_id: ColumnType<string, string | undefined, string>;
  user_name: ColumnType<string, string | undefined, string>;
  start_time: number;
  end_time: number | null;
  count: ColumnType<number, number | undefined, number>;
  distance: ColumnType<number, number | undefined, number>;
  place: number | null;
  state: ColumnType<number, number | undefined, number>;
  created_at: number;
  /** JSON PlannedPoint[] (contracts stats.ts) of the route sent to the device; null for one-key flights. */
  plan: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Telemetry samples of a sortie (t in ms). */
export interface SortieTrackTable {
  sort_id: string;
  t: number;
  lat: number;
  lng: number;
  alt: number;
  height: number;
  speed: number;
  heading: number;
  battery: number;
  flight_state: ColumnType<number, number | undefined, number>;
}

/** A result (achievement): a complete, verified media file. `type` AchievementType; times: taken_at ms, created_at s. */
export interface ResultsTable {
  id: string;
  media_id: string;
  sn_id: string;
  company_id: string;
  sort_id: string | null;
  type: number;
  file_name: string;
  url: string;
  thumb_url: ColumnType<string, string | undefined, string>;
  mime: string;
  size: number;
  width: number | null;
  height_px: number | null;
  duration: number | null;
  lat: number;
  lng: number;
  height: number;
  waypoint_index: number | null;
  taken_at: number;
  state: ColumnType<number, number | undefined, number>;
  created_at: number;
}

/** A media upload in flight (contracts mediaUploadStart as `meta` JSON); `result_id` once complete. */
export interface MediaUploadsTable {
  media_id: string;
  sn_id: string;
  meta: string;
  size: number;
  received: ColumnType<number, number | undefined, number>;
  sha256: string;
  result_id: string | null;
  created_at: number;
  updated_at: number;
}

/** Alternate-landing record (SPEC section 3); `timestamp` ms, `create_time` s. */
export interface AlternateLandingsTable {
  id: string;
  sn_id: string;
  company_id: string;
  flight_id: ColumnType<string, string | undefined, string>;
  reason: number;
  solution: number;
  timestamp: number;
  drone_int: number;
  altn_int: number;
  place_int: number;
  lat: number;
  lng: number;
  create_time: number;
}

/**
 * A timed task (SPEC): runs `mission_id` on `sn_id` at `task_tms` (s), then every `interval_min` minutes
 * (0: once). `task_state` TimedTaskState, `state` TimedTaskDataState (0 normal, 10 deleted). A scheduler
 * instance claims a due row (`claimed_by`, `claimed_at`) before it fires it, so each run fires once.
 */
export interface TimedTasksTable {
  id: string;
  mission_id: string;
  fence_id: ColumnType<string, string | undefined, string>;
  f_title: ColumnType<string, string | undefined, string>;
  m_title: ColumnType<string, string | undefined, string>;
  sn_id: string;
  company_id: string;
  u_id: ColumnType<string, string | undefined, string>;
  user_name: ColumnType<string, string | undefined, string>;
  task_tms: number;
  interval_min: ColumnType<number, number | undefined, number>;
  task_state: ColumnType<number, number | undefined, number>;
  state: ColumnType<number, number | undefined, number>;
  claimed_by: string | null;
  claimed_at: number | null;
  last_run: number | null;
  last_outcome: ColumnType<string, string | undefined, string>;
  create_time: number;
  modified_time: number;
}

/**
 * An alarm episode (contracts alarms.ts): `kind` AlarmKind, `level` AlarmLevel, `state` AlarmProcessState;
 * times in ms. At most one row per (sn_id, kind) has cleared_at null (unique partial index); device_health
 * instead at most one per (sn_id, detail = the health code). `data`: JSON of what a kind's text is made of
 * (device_health: the health item's key, module, level and arguments), null for the other kinds.
 */
export interface AlarmsTable {
  id: string;
  sn_id: string;
  company_id: string;
  kind: string;
  level: number;
  state: ColumnType<number, number | undefined, number>;
  value: number | null;
  detail: ColumnType<string, string | undefined, string>;
  flight_id: string | null;
  lat: number | null;
  lng: number | null;
  raised_at: number;
  cleared_at: number | null;
  processed_at: number | null;
  processed_by: ColumnType<string, string | undefined, string>;
  note: ColumnType<string, string | undefined, string>;
  data: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Seconds a device was online within one UTC hour (`hour`: ms at the start of the hour). */
export interface DeviceUptimeTable {
  sn_id: string;
  company_id: string;
  hour: number;
  seconds: number;
}

/** Device-type catalogue (contracts deviceTypeSchema): `cla_type` DeviceKind, `state` DeviceTypeState; times s. */
export interface DeviceTypesTable {
  id: string;
  cla_type: number;
  cla_name: string;
  value: string;
  stream: ColumnType<number, number | undefined, number>;
  state: ColumnType<number, number | undefined, number>;
  notes: ColumnType<string, string | undefined, string>;
  create_time: number;
  modified_time: number;
}

/** A firmware package (.wkimg) kept in the media store under `file_key`; `state` RecordState; times s. */
export interface FirmwareTable {
  id: string;
  type: number;
  version_code: number;
  version_name: string;
  state: ColumnType<number, number | undefined, number>;
  description: ColumnType<string, string | undefined, string>;
  description_en: ColumnType<string, string | undefined, string>;
  file_key: string;
  file_name: string;
  size: number;
  md5: string;
  sha256: string;
  u_id: ColumnType<string, string | undefined, string>;
  create_time: number;
  modified_time: number;
}

/** A collaboration group of one company: its devices (com_group_devices) and member users (com_group_users). */
export interface ComGroupsTable {
  id: string;
  company_id: string;
  name: string;
  notes: ColumnType<string, string | undefined, string>;
  state: ColumnType<number, number | undefined, number>;
  u_id: ColumnType<string, string | undefined, string>;
  create_time: number;
  modified_time: number;
}
export interface ComGroupDevicesTable {
  group_id: string;
  sn_id: string;
}
export interface ComGroupUsersTable {
  group_id: string;
  u_id: string;
}

/** A teaching video in the media store (`file_key`, poster `thumb_key`); `cla_type` DeviceKind or 0 for all. */
export interface TeachingVideosTable {
  id: string;
  title: string;
  describe: ColumnType<string, string | undefined, string>;
  notes: ColumnType<string, string | undefined, string>;
  cla_type: ColumnType<number, number | undefined, number>;
  file_key: string;
  file_name: string;
  mime: string;
  size: number;
  duration: number | null;
  thumb_key: string | null;
  state: ColumnType<number, number | undefined, number>;
  u_id: ColumnType<string, string | undefined, string>;
  create_time: number;
  modified_time: number;
}

/**
 * A device maintenance operation (firmware upgrade, calibration, beacon, azimuth, RTK, log upload): `kind`
 * and `state` ('running', 'ok', 'failed', 'timeout', 'offline') as contracts name them; `params` and `outcome`
 * JSON; an uploaded log in the media store under `file_key`. Times in ms. One running row per (sn_id, kind).
 */
export interface DeviceOpsTable {
  id: string;
  sn_id: string;
  company_id: string;
  kind: string;
  state: string;
  progress: ColumnType<number, number | undefined, number>;
  params: ColumnType<string, string | undefined, string>;
  outcome: ColumnType<string, string | undefined, string>;
  reason: ColumnType<number, number | undefined, number>;
  file_key: string | null;
  file_name: string | null;
  file_size: number | null;
  u_id: ColumnType<string, string | undefined, string>;
  user_name: ColumnType<string, string | undefined, string>;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** An offline-map download job (tiles of a box and zoom range into the tile store); times s. */
export interface MapDownloadsTable {
  id: string;
  company_id: string;
  name: ColumnType<string, string | undefined, string>;
  min_lat: number;
  min_lng: number;
  max_lat: number;
  max_lng: number;
  min_zoom: number;
  max_zoom: number;
  total: number;
  done: ColumnType<number, number | undefined, number>;
  state: string;
  error: ColumnType<string, string | undefined, string>;
  claimed_by: string | null;
  claimed_at: number | null;
  u_id: ColumnType<string, string | undefined, string>;
  create_time: number;
  modified_time: number;
}

/** An offline map package (migration 010): bounds WGS84, `size` bytes, `vector_layers` JSON, `create_time` seconds. */
export interface MapPackagesTable {
  id: string;
  company_id: string;
  name: string;
  container: string;
  kind: string;
  format: string;
  min_lat: number;
  min_lng: number;
  max_lat: number;
  max_lng: number;
  min_zoom: number;
  max_zoom: number;
  size: number;
  vector_layers: ColumnType<string, string | undefined, string>;
  attribution: ColumnType<string, string | undefined, string>;
  u_id: string;
  create_time: number;
}

/** One security event (migration 008): `u_id` the actor or null, `account` as typed, `detail` JSON, `at` seconds. */
export interface AuditLogTable {
  id: string;
  at: number;
  company_id: string;
  u_id: string | null;
  account: string;
  kind: string;
  target: string;
  detail: string;
  ip: string;
  outcome: string;
}

export interface DB {
  companies: CompaniesTable;
  departments: DepartmentsTable;
  users: UsersTable;
  functions: FunctionsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  password_nonces: PasswordNoncesTable;
  settings: SettingsTable;
  devices: DevicesTable;
  device_control: DeviceControlTable;
  recordings: RecordingsTable;
  fences: FencesTable;
  missions: MissionsTable;
  zones: ZonesTable;
  no_fly_zones: NoFlyZonesTable;
  command_log: CommandLogTable;
  sorties: SortiesTable;
  sortie_track: SortieTrackTable;
  results: ResultsTable;
  media_uploads: MediaUploadsTable;
  alternate_landings: AlternateLandingsTable;
  timed_tasks: TimedTasksTable;
  alarms: AlarmsTable;
  device_uptime: DeviceUptimeTable;
  device_types: DeviceTypesTable;
  firmware: FirmwareTable;
  com_groups: ComGroupsTable;
  com_group_devices: ComGroupDevicesTable;
  com_group_users: ComGroupUsersTable;
  teaching_videos: TeachingVideosTable;
  device_ops: DeviceOpsTable;
  map_downloads: MapDownloadsTable;
  map_packages: MapPackagesTable;
  audit_log: AuditLogTable;
}

export type MapPackageRow = Selectable<MapPackagesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type FunctionRow = Selectable<FunctionsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type CompanyRow = Selectable<CompaniesTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type NewDeviceRow = Insertable<DevicesTable>;
export type RecordingRow = Selectable<RecordingsTable>;
export type FenceRow = Selectable<FencesTable>;
export type MissionRow = Selectable<MissionsTable>;
export type ZoneRow = Selectable<ZonesTable>;
export type NoFlyZoneRow = Selectable<NoFlyZonesTable>;
export type CommandLogRow = Selectable<CommandLogTable>;
export type SortieRow = Selectable<SortiesTable>;
export type ResultRow = Selectable<ResultsTable>;
export type AlternateLandingRow = Selectable<AlternateLandingsTable>;
export type TimedTaskRow = Selectable<TimedTasksTable>;
