import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { PERMANENT_END_TIME } from '@nest/contracts';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { nowSeconds, type Database } from '../db/index.js';
import type { DB, UserRow } from '../db/schema.js';
import type { Caller } from '../calls/types.js';
import type { SessionPolicy } from '../deps.js';
import { parseFunList } from '../users/api.js';
import { STATE_NORMAL } from '../db/sql.js';
import { deletedFunctionNamedBy, withoutDeleted } from '../functions/api.js';

/**
 * Sessions live in the database (several server instances can share them). The token is 32 random bytes
 * base64url; only its SHA-256 is stored. All times are Unix seconds. A session is live while
 * `revoked_at IS NULL`, `now < expires_at` (absolute limit, SESSION_MAX_HOURS) and
 * `now < last_seen_at + SESSION_IDLE_MINUTES`; last_seen_at is refreshed at most once a minute.
 * The user must also still be allowed in (state normal, inside the validity window).
 */
export type { SessionPolicy } from '../deps.js';

export const TOUCH_INTERVAL_SECONDS = 60;

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
export const newToken = (): string => randomBytes(32).toString('base64url');

export type UserStatus = 'ok' | 'notYetValid' | 'expired' | 'disabled';

/** Validity of an account at `now` (seconds), in the order sign-in reports it. */
export function userStatus(user: Pick<UserRow, 'start_time' | 'end_time' | 'state'>, now = nowSeconds()): UserStatus {
  if (now < user.start_time) return 'notYetValid';
  if (user.end_time < PERMANENT_END_TIME && now > user.end_time) return 'expired';
  if (user.state !== STATE_NORMAL) return 'disabled';
  return 'ok';
}

export async function createSession(
  db: Kysely<DB>,
  userId: string,
  policy: SessionPolicy,
  address: string,
): Promise<{ token: string; sessionId: string }> {
  const token = newToken();
  const now = nowSeconds();
  const sessionId = randomUUID();
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      last_seen_at: now,
      expires_at: now + policy.maxSeconds,
      revoked_at: null,
      address: address.slice(0, 64),
    })
    .execute();
  return { token, sessionId };
}

/**
 * Marker values standing for a session read's parameters while its SQL is compiled: the session key (token
 * hash or session id), now, and the idle limit's start. Neither can be a real value (a hash or id never
 * starts with NUL; times are positive).
 */
const KEY = '\u0000session key';
const NOW = -1_000_000_001;
const SINCE = -1_000_000_002;
const MARKERS: readonly unknown[] = [KEY, NOW, SINCE];

/**
 * A session read compiled once per database handle and statement: kysely would otherwise build and compile
 * the same SQL text on every call (tens of microseconds of each signed call). Each run puts the call's
 * values in the places of the markers. No kysely plugin is in use, so the compiled query's id (which
 * plugins key their result transforms on) may be shared.
 */
class SessionRead<R> {
  private readonly compiled = new WeakMap<Database, CompiledQuery<R>>();

  constructor(private readonly build: (db: Database, key: string, now: number, since: number) => Compilable<R>) {}

  async run(db: Database, key: string, now: number, since: number): Promise<R[]> {
    let query = this.compiled.get(db);
    if (!query) {
      query = this.build(db, KEY, NOW, SINCE).compile();
      for (const m of MARKERS) {
        if (query.parameters.filter((p) => p === m).length !== 1) throw new Error(`session read: parameter ${String(m)} is not used exactly once`);
      }
      this.compiled.set(db, query);
    }
    const parameters = query.parameters.map((p) => (p === KEY ? key : p === NOW ? now : p === SINCE ? since : p));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  }
}

/** The session of a token hash with its user and the deleted functions its list names (a row each, at least one). */
const byToken = new SessionRead((db, hash, now, since) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.u_id', 'sessions.user_id')
    .leftJoin('functions', (join) => join.on(deletedFunctionNamedBy('users.fun_list')))
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.last_seen_at as session_last_seen', 'functions.fun_id as deleted_fun'])
    .where('sessions.token_hash', '=', hash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('sessions.last_seen_at', '>', since),
);

/** What a session id may do and until when (push), with the deleted functions its user's list names. */
const accessById = new SessionRead((db, id, now, since) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.u_id', 'sessions.user_id')
    .leftJoin('functions', (join) => join.on(deletedFunctionNamedBy('users.fun_list')))
    .select(['users.start_time', 'users.end_time', 'users.state', 'users.fun_list', 'sessions.expires_at', 'sessions.last_seen_at', 'functions.fun_id as deleted_fun'])
    .where('sessions.id', '=', id)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('sessions.last_seen_at', '>', since),
);

/** The deleted functions named by the joined rows of one session read (one row when none is deleted). */
const deletedIn = (rows: readonly { deleted_fun: string | null }[]): Set<string> => {
  const out = new Set<string>();
  for (const r of rows) if (r.deleted_fun !== null) out.add(r.deleted_fun);
  return out;
};

/**
 * The live session of a token with its user, or null. Refreshes last_seen_at (at most once a minute).
 * One statement per call: the session, its user and the deleted functions the user's list names (left
 * join, a row each), all read from the database now, so that sign-out, deletion, disabling, a password
 * change, a function taken or deleted and the end of validity all hold from the next call on, on every
 * instance.
 */
export async function findLiveSession(db: Database, token: string, policy: SessionPolicy): Promise<Caller | null> {
  if (!token || token.length > 256) return null;
  const now = nowSeconds();
  const rows = await byToken.run(db, hashToken(token), now, now - policy.idleSeconds);
  if (rows.length === 0) return null;
  const { session_id: sessionId, session_last_seen: lastSeen, deleted_fun: _, ...user } = rows[0]!;
  if (userStatus(user, now) !== 'ok') return null;
  if (now - lastSeen >= TOUCH_INTERVAL_SECONDS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute();
  }
  // Deleted functions (state 20) grant nothing, from this call on.
  return { sessionId, token, user, funList: withoutDeleted(parseFunList(user.fun_list), deletedIn(rows)) };
}

/** What a live session may do now and until when it stays live unless something changes. */
export interface SessionAccess {
  funList: string[];
  /**
   * Unix seconds: the first moment the session stops being live by the clock alone (absolute limit, idle
   * limit as of its last use, the end of the user's validity). A holder re-reads it then.
   */
  liveUntil: number;
}

/**
 * The functions of a session's user and how long the session stays live, or null when it is not live
 * (push verification, heartbeat and every push socket re-check); does not touch last_seen_at. One
 * statement, as findLiveSession.
 */
export async function sessionAccess(db: Database, sessionId: string, policy: SessionPolicy): Promise<SessionAccess | null> {
  const now = nowSeconds();
  const rows = await accessById.run(db, sessionId, now, now - policy.idleSeconds);
  const row = rows[0];
  if (row === undefined || userStatus(row, now) !== 'ok') return null;
  const ends = [Number(row.expires_at), Number(row.last_seen_at) + policy.idleSeconds];
  if (row.end_time < PERMANENT_END_TIME) ends.push(Number(row.end_time) + 1);
  return { funList: withoutDeleted(parseFunList(row.fun_list), deletedIn(rows)), liveUntil: Math.min(...ends) };
}

/** The function ids of a session's user while the session is live, else null. */
export async function liveSessionFunctions(db: Database, sessionId: string, policy: SessionPolicy): Promise<string[] | null> {
  return (await sessionAccess(db, sessionId, policy))?.funList ?? null;
}

/** Whether a user has a live session (by the session rows alone: not revoked, inside both limits). */
export async function hasLiveSession(db: Database, userId: string, policy: SessionPolicy): Promise<boolean> {
  const now = nowSeconds();
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('last_seen_at', '>', now - policy.idleSeconds)
    .executeTakeFirst();
  return row !== undefined;
}

export async function revokeSession(db: Kysely<DB>, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: nowSeconds() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeUserSessions(db: Kysely<DB>, userId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: nowSeconds() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
