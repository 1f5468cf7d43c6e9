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

export interface DB {
  companies: CompaniesTable;
  departments: DepartmentsTable;
  users: UsersTable;
  functions: FunctionsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  settings: SettingsTable;
  devices: DevicesTable;
  device_control: DeviceControlTable;
  recordings: RecordingsTable;
  fences: FencesTable;
  missions: MissionsTable;
  zones: ZonesTable;
}

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
