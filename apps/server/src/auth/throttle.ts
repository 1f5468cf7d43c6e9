import { sql, type Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';

/**
 * Sign-in throttling, stored in the database so every server instance sees the same counters.
 * - per account key (lower-cased account, whether it exists or not): 5 failures within 15 minutes lock it
 *   for 15 minutes;
 * - per client address: 30 failures within 15 minutes lock the address for 15 minutes.
 * The window starts at the first failure; a failure after the window starts a new one. A success clears
 * the account counter. Wrong old passwords of /user/psw count the same way.
 */
export const THROTTLE = {
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  accountLimit: 5,
  addressLimit: 30,
} as const;

export type ThrottleKind = 'account' | 'address';
export const accountKey = (account: string): string => account.trim().toLowerCase();

export async function isThrottled(db: Kysely<DB>, account: string, address: string): Promise<boolean> {
  const now = nowSeconds();
  const row = await db
    .selectFrom('login_attempts')
    .select('key')
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'account'), eb('key', '=', accountKey(account))]),
        eb.and([eb('kind', '=', 'address'), eb('key', '=', address)]),
      ]),
    )
    .where('locked_until', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Counts one failure; answers true when this failure locked the key. */
async function countFailure(db: Kysely<DB>, kind: ThrottleKind, key: string, limit: number, now: number): Promise<boolean> {
  const stale = now - THROTTLE.windowSeconds;
  // One atomic upsert per counter: concurrent failures cannot lose increments (SQLite and PostgreSQL).
  await db
    .insertInto('login_attempts')
    .values({ kind, key, failures: 1, window_start: now, locked_until: 0 })
    .onConflict((oc) =>
      oc.columns(['kind', 'key']).doUpdateSet({
        failures: sql<number>`CASE WHEN login_attempts.window_start <= ${stale} THEN 1 ELSE login_attempts.failures + 1 END`,
        window_start: sql<number>`CASE WHEN login_attempts.window_start <= ${stale} THEN ${now} ELSE login_attempts.window_start END`,
      }),
    )
    .execute();
  const locked = await db
    .updateTable('login_attempts')
    .set({ locked_until: now + THROTTLE.lockSeconds })
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('failures', '>=', limit)
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows ?? 0) > 0;
}

/** Counts a failure for the account and the address; answers which of them this failure locked (for the audit log). */
export async function recordFailure(db: Kysely<DB>, account: string, address: string): Promise<ThrottleKind[]> {
  const now = nowSeconds();
  const locked: ThrottleKind[] = [];
  if (await countFailure(db, 'account', accountKey(account), THROTTLE.accountLimit, now)) locked.push('account');
  if (await countFailure(db, 'address', address, THROTTLE.addressLimit, now)) locked.push('address');
  return locked;
}

export async function clearAccount(db: Kysely<DB>, account: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('kind', '=', 'account').where('key', '=', accountKey(account)).execute();
}
