import type { Kysely } from 'kysely';

/**
 * The audit log of security events: sign-ins and their failures, sign-outs, password changes,
 * user and function changes, collaboration-group membership, device commands and device administration.
 * `u_id` is the actor (null when unknown, e.g. a failed sign-in), `account` the account as typed,
 * `detail` a JSON object. Rows are only ever inserted.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('u_id', 'text')
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_company_at').on('audit_log').columns(['company_id', 'at']).execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
