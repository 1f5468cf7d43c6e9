import type { Kysely } from 'kysely';

/**
 * Devices (nests with their drone, single-soldier drones), who holds a device's control connection, and
 * recordings of the nests' outside cameras. Portable SQL (SQLite and PostgreSQL); see ../schema.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('link_type', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('airport_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('uav_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sn_id', 'text', (c) => c.notNull().unique())
    .addColumn('uav_sn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('uav_model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('azimuth', 'double precision', (c) => c.notNull().defaultTo(-1))
    .addColumn('altn_lat', 'double precision')
    .addColumn('altn_lng', 'double precision')
    .addColumn('airport_lat', 'double precision')
    .addColumn('airport_lng', 'double precision')
    .addColumn('beacon', 'text')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_company').on('devices').columns(['company_id', 'state']).execute();

  await db.schema
    .createTable('device_control')
    .addColumn('sn_id', 'text', (c) => c.primaryKey().references('devices.sn_id').onDelete('cascade'))
    .addColumn('u_id', 'text', (c) => c.notNull().references('users.u_id').onDelete('cascade'))
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recordings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('thumb_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('vr_type', 'integer', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('size_kb', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recordings_company_time').on('recordings').columns(['company_id', 'start_time']).execute();
  await db.schema.createIndex('recordings_sn_time').on('recordings').columns(['sn_id', 'start_time']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['recordings', 'device_control', 'devices']) await db.schema.dropTable(t).execute();
}
