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

export interface DB {
  companies: CompaniesTable;
  departments: DepartmentsTable;
  users: UsersTable;
  functions: FunctionsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  settings: SettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type FunctionRow = Selectable<FunctionsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type CompanyRow = Selectable<CompaniesTable>;
