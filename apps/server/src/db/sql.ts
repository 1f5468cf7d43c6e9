import { randomUUID } from 'node:crypto';
import { RecordState, demoSearchTerms } from '@nest/contracts';
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** Shared SQL helpers of the stores: record states, ids, unique violations, keyword search. */

type RecordStateValue = (typeof RecordState.entries)[number]['value'];
export const STATE_NORMAL: RecordStateValue = RecordState.NORMAL;
export const STATE_DELETED: RecordStateValue = RecordState.DELETED;

/** A new row id. */
export const newId = (): string => randomUUID();

/** True for unique-constraint violations of SQLite and PostgreSQL. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Escapes LIKE wildcards; use with `escape '\'`. */
export const likePattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A keyword search over text columns: `lower(column) LIKE` the keyword, or the words of the demo names it
 * names in the other language (contracts demoSearchTerms: "patrol" also finds "巡检 A01"), any column.
 */
export function searchText(columns: readonly string[], text: string): RawBuilder<SqlBool> {
  const terms = demoSearchTerms(text).map(likePattern);
  return sql<SqlBool>`(${sql.join(
    terms.flatMap((p) => columns.map((c) => sql`lower(${sql.ref(c)}) like ${p} escape '\\'`)),
    sql` or `,
  )})`;
}
