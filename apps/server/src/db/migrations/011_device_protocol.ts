import type { Kysely } from 'kysely';

/**
 * Devices speak one of two protocols (DeviceProtocol: 1 nest protocol, 2 DJI Cloud API). `secret_gen` is
 * the generation of a device's broker password: a DJI dock's password is shown once and re-issued by
 * raising it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').addColumn('protocol', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('devices').addColumn('secret_gen', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('devices').dropColumn('secret_gen').execute();
  await db.schema.alterTable('devices').dropColumn('protocol').execute();
}
