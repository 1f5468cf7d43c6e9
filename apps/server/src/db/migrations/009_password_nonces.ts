import type { Kysely } from 'kysely';

/**
 * Nonces of the password envelopes the server accepted (auth/envelopes.ts): an envelope whose nonce is
 * here is a replay and is refused. `expires_at` (ms) is when the envelope's timestamp can no longer pass
 * the clock window; rows past it are deleted as new envelopes arrive. In the database, not in memory, so
 * every server instance on it refuses a nonce another one accepted.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_nonces_expires_at').on('password_nonces').columns(['expires_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_nonces').execute();
}
