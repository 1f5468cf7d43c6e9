import { sql, type Kysely } from 'kysely';

/**
 * A department's name is unique among its live siblings (same company and parent, case-insensitively).
 * The handlers check it first for a clear message; this index makes two simultaneous adds or moves unable
 * to both succeed. `coalesce` because unique indexes treat NULL parents (top level) as all distinct.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE UNIQUE INDEX departments_live_sibling_name ON departments (company_id, coalesce(parent_id, ''), lower(name)) WHERE state = 10`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX departments_live_sibling_name`.execute(db);
}
