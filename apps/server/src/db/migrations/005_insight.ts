import { sql, type Kysely } from 'kysely';

/**
 * Results, sorties, alarms and the data screen: alarms (one row per episode), the per-hour
 * device uptime log behind the online rate, and the planned route of a sortie as it was sent. Portable
 * SQL (SQLite and PostgreSQL); see ../schema.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alarms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('value', 'double precision')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('flight_id', 'text')
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('raised_at', 'bigint', (c) => c.notNull())
    .addColumn('cleared_at', 'bigint')
    .addColumn('processed_at', 'bigint')
    .addColumn('processed_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('alarms_company').on('alarms').columns(['company_id', 'raised_at']).execute();
  await db.schema.createIndex('alarms_pending').on('alarms').columns(['company_id', 'state']).execute();
  // At most one open episode per device and kind, whichever server instance saw it first.
  await db.schema
    .createIndex('alarms_open')
    .on('alarms')
    .columns(['sn_id', 'kind'])
    .unique()
    .where(sql.ref('cleared_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('device_uptime')
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    /** Start of the hour (ms, UTC). */
    .addColumn('hour', 'bigint', (c) => c.notNull())
    /** Seconds online within that hour, 0..3600 (instances upsert the larger of theirs and the stored one). */
    .addColumn('seconds', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('device_uptime_pk', ['sn_id', 'hour'])
    .execute();
  await db.schema.createIndex('device_uptime_company').on('device_uptime').columns(['company_id', 'hour']).execute();

  /** JSON PlannedPoint[] of the route sent with the takeoff / mission start; null for one-key flights. */
  await db.schema.alterTable('sorties').addColumn('plan', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sorties').dropColumn('plan').execute();
  await db.schema.dropTable('device_uptime').execute();
  await db.schema.dropTable('alarms').execute();
}
