import { SUPER_ADMINISTRATOR } from '@nest/contracts';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.js';
import { STATE_NORMAL } from '../db/sql.js';

/**
 * The functions of a fun_list that still grant access: ids whose function row is deleted (state 20) are
 * dropped. Ids without a row are kept: the router's own checks (holds) decide about them, and the seeded
 * functions always have rows. super_administrator cannot be deleted (/fun/edit refuses it), so it always
 * stays. Runs once per call with the session lookup, so a function deleted now stops granting access on
 * the very next call of every user who holds it.
 */
export async function grantedFunctions(db: Kysely<DB>, funList: readonly string[]): Promise<string[]> {
  const candidates = funList.filter((f) => f !== SUPER_ADMINISTRATOR);
  if (candidates.length === 0) return [...funList];
  const deleted = new Set(
    (
      await db
        .selectFrom('functions')
        .select('fun_id')
        .where('fun_id', 'in', [...new Set(candidates)])
        .where('state', '<>', STATE_NORMAL)
        .execute()
    ).map((r) => r.fun_id),
  );
  return withoutDeleted(funList, deleted);
}

/** A fun_list without the deleted ids among `deleted` (super_administrator always stays). */
export function withoutDeleted(funList: readonly string[], deleted: ReadonlySet<string>): string[] {
  return deleted.size === 0 ? [...funList] : funList.filter((f) => f === SUPER_ADMINISTRATOR || !deleted.has(f));
}

/**
 * Join condition on `functions` for reading a user with the deleted functions its fun_list names in the
 * same statement (the session lookup of every call): deleted rows whose `"id"` occurs in the JSON text of
 * `funListColumn`. It may match more than the exact ids (LIKE's `_` wildcard, SQLite's case-insensitive
 * LIKE), never fewer (function ids are [A-Za-z][A-Za-z0-9_]*, written verbatim in the JSON); withoutDeleted
 * then keeps only exact ids.
 */
export const deletedFunctionNamedBy = (funListColumn: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`(functions.state <> ${STATE_NORMAL} and ${sql.ref(funListColumn)} like ('%"' || functions.fun_id || '"%'))`;

/** The state of each of these function ids (absent from the map: no such function). */
export async function functionStates(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('functions').select(['fun_id', 'state']).where('fun_id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.fun_id, Number(r.state)]));
}
