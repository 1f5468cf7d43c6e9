import { randomUUID } from 'node:crypto';
import {
  Company,
  PERMANENT_END_TIME,
  SUPER_ADMINISTRATOR,
  type Lang,
  type RecordState,
  type User,
  type UserListItem,
} from '@nest/contracts';
import { sql, type Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { CompanyRow, DB, UserRow, UserUpdate } from '../db/schema.js';
import { STATE_NORMAL, isUniqueViolation, searchText } from '../db/sql.js';

// Shared helpers that lived here; the users feature's own files keep importing them from this store.
export { isSuper } from '../db/scope.js';
export { STATE_DELETED, STATE_NORMAL, isUniqueViolation, likePattern, searchText } from '../db/sql.js';

/**
 * User storage, shared by the call handlers and the CLI. Accounts (the `phone` column: a phone number or
 * an e-mail address) are unique case-insensitively and looked up through lower(phone).
 */

type RecordStateValue = (typeof RecordState.entries)[number]['value'];

export class AccountTakenError extends Error {
  override name = 'AccountTakenError';
}

export function parseFunList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export async function findUserById(db: Kysely<DB>, uId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('u_id', '=', uId).executeTakeFirst();
}

export async function findUserByAccount(db: Kysely<DB>, account: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(phone)`, '=', account.trim().toLowerCase())
    .executeTakeFirst();
}

export async function accountTaken(db: Kysely<DB>, account: string, exceptUserId?: string): Promise<boolean> {
  let q = db.selectFrom('users').select('u_id').where(sql<string>`lower(phone)`, '=', account.trim().toLowerCase());
  if (exceptUserId) q = q.where('u_id', '<>', exceptUserId);
  return (await q.executeTakeFirst()) !== undefined;
}

export interface NewUser {
  nick: string;
  account: string;
  email?: string;
  passwordHash: string;
  companyId: string;
  funList: readonly string[];
  startTime?: number;
  endTime?: number;
  team?: string;
  notes?: string;
  state?: RecordStateValue;
}

export async function createUser(db: Kysely<DB>, input: NewUser): Promise<UserRow> {
  const now = nowSeconds();
  const row: UserRow = {
    u_id: randomUUID(),
    nick: input.nick,
    phone: input.account.trim(),
    email: input.email ?? '',
    company_id: input.companyId,
    team: input.team ?? '',
    notes: input.notes ?? '',
    state: input.state ?? STATE_NORMAL,
    start_time: input.startTime ?? now,
    end_time: input.endTime ?? PERMANENT_END_TIME,
    fun_list: JSON.stringify([...new Set(input.funList)]),
    password_hash: input.passwordHash,
    password_changed_at: now,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto('users').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AccountTakenError(`account ${input.account} is already in use`);
    throw err;
  }
  return row;
}

export async function updateUser(db: Kysely<DB>, uId: string, patch: UserUpdate): Promise<void> {
  try {
    await db
      .updateTable('users')
      .set({ ...patch, updated_at: nowSeconds() })
      .where('u_id', '=', uId)
      .execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AccountTakenError('account is already in use');
    throw err;
  }
}

export interface UserListQuery {
  search?: string;
  state?: number;
  companyId?: string;
  /** Department id. */
  team?: string;
  page?: number;
  size?: number;
}

export async function listUsers(db: Kysely<DB>, query: UserListQuery = {}): Promise<{ list: UserRow[]; total: number }> {
  let q = db.selectFrom('users');
  if (query.state !== undefined) q = q.where('state', '=', query.state);
  if (query.companyId) q = q.where('company_id', '=', query.companyId);
  if (query.team) q = q.where('team', '=', query.team);
  if (query.search) q = q.where(searchText(['nick', 'phone', 'email'], query.search));
  const size = query.size ?? 1000;
  const [list, count] = await Promise.all([
    q.selectAll().orderBy('created_at').orderBy('nick').orderBy('u_id').limit(size).offset((query.page ?? 0) * size).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(count.n) };
}

export async function findCompany(db: Kysely<DB>, idOrCode: string): Promise<CompanyRow | undefined> {
  return db
    .selectFrom('companies')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrCode), eb('code', '=', idOrCode)]))
    .executeTakeFirst();
}

/** Company name in the caller's language (contracts Company labels for the known codes). */
export const companyName = (company: Pick<CompanyRow, 'code' | 'name'>, lang: Lang): string =>
  Company.has(company.code) ? Company.label(company.code, lang) : company.name;

/** The user as the browser stores it (contracts userSchema); the password is always ''. */
export function presentUser(row: UserRow, company: CompanyRow | undefined, token: string, lang: Lang): User {
  return {
    u_id: row.u_id,
    nick: row.nick,
    phone: row.phone,
    email: row.email,
    company: company?.code ?? row.company_id,
    in_com: { id: row.company_id, name: company ? companyName(company, lang) : '' },
    fun_list: parseFunList(row.fun_list),
    state: row.state,
    start_time: row.start_time,
    end_time: row.end_time,
    team: row.team,
    notes: row.notes,
    password: '',
    token,
  };
}

/** A stored fun_list naming super_administrator (the JSON text holds the id in quotes; `_` escaped). */
const SUPER_PATTERN = `%"${SUPER_ADMINISTRATOR.replace(/_/g, '\\_')}"%`;

/** Active (state 10) super administrators other than `exceptUserId`. */
export async function otherActiveSupers(db: Kysely<DB>, exceptUserId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', STATE_NORMAL)
    .where('fun_list', 'like', sql<string>`${SUPER_PATTERN} escape '\\'`)
    .where('u_id', '<>', exceptUserId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One user as the list presents it (presentListItems for a single row). */
export async function presentListItem(db: Kysely<DB>, row: UserRow, lang: Lang): Promise<UserListItem> {
  const [item] = await presentListItems(db, [row], lang);
  if (!item) throw new Error(`user ${row.u_id} was not presented`);
  return item;
}

/**
 * Rows of /user/list: the user as the browser stores it (no token, no password) plus the department name
 * and the creation time. Companies and departments are read once for the whole page.
 */
export async function presentListItems(db: Kysely<DB>, rows: readonly UserRow[], lang: Lang): Promise<UserListItem[]> {
  if (rows.length === 0) return [];
  const companies = new Map((await db.selectFrom('companies').selectAll().execute()).map((c) => [c.id, c]));
  const teamIds = [...new Set(rows.map((r) => r.team).filter(Boolean))];
  const teams = new Map(
    teamIds.length === 0
      ? []
      : (await db.selectFrom('departments').select(['id', 'name', 'company_id']).where('id', 'in', teamIds).execute()).map((d) => [d.id, d]),
  );
  return rows.map((row) => {
    const team = teams.get(row.team);
    return {
      ...presentUser(row, companies.get(row.company_id), '', lang),
      // A department of another company (the user moved) is not this user's department any more.
      team_name: team && team.company_id === row.company_id ? team.name : '',
      create_time: row.created_at,
    };
  });
}
