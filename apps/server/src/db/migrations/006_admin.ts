import { sql, type Kysely } from 'kysely';

/**
 * Administration: departments per company, the device-type catalogue, firmware packages,
 * collaboration groups (devices and member users), teaching videos, device maintenance operations
 * (firmware upgrade, calibration, beacon, azimuth, RTK, log upload) and offline-map downloads. Portable SQL
 * (SQLite and PostgreSQL); see ../schema.ts for the meaning of each column.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  // Departments belong to a company; rows from before this migration become the first company's.
  await db.schema.alterTable('departments').addColumn('company_id', 'text').execute();
  await db.schema.alterTable('departments').addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE departments SET company_id = (SELECT id FROM companies ORDER BY created_at, id LIMIT 1) WHERE company_id IS NULL`.execute(db);
  await db.schema.createIndex('departments_company').on('departments').columns(['company_id', 'state']).execute();

  await db.schema
    .createTable('device_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('cla_type', 'integer', (c) => c.notNull())
    .addColumn('cla_name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('stream', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .execute();
  // One live (not deleted) entry per kind and key.
  await db.schema
    .createIndex('device_types_live')
    .on('device_types')
    .columns(['cla_type', 'value'])
    .unique()
    .where(sql.ref('state'), '<>', 30)
    .execute();

  await db.schema
    .createTable('firmware')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('version_code', 'integer', (c) => c.notNull())
    .addColumn('version_name', 'text', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description_en', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('md5', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('firmware_live_version')
    .on('firmware')
    .columns(['type', 'version_code'])
    .unique()
    .where(sql.ref('state'), '=', 10)
    .execute();

  await db.schema
    .createTable('com_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('com_groups_company').on('com_groups').columns(['company_id', 'state']).execute();
  await db.schema
    .createTable('com_group_devices')
    .addColumn('group_id', 'text', (c) => c.notNull().references('com_groups.id').onDelete('cascade'))
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('com_group_devices_pk', ['group_id', 'sn_id'])
    .execute();
  await db.schema.createIndex('com_group_devices_sn').on('com_group_devices').column('sn_id').execute();
  await db.schema
    .createTable('com_group_users')
    .addColumn('group_id', 'text', (c) => c.notNull().references('com_groups.id').onDelete('cascade'))
    .addColumn('u_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('com_group_users_pk', ['group_id', 'u_id'])
    .execute();
  await db.schema.createIndex('com_group_users_user').on('com_group_users').column('u_id').execute();

  await db.schema
    .createTable('teaching_videos')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('describe', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cla_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('duration', 'double precision')
    .addColumn('thumb_key', 'text')
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_ops')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('reason', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_key', 'text')
    .addColumn('file_name', 'text')
    .addColumn('file_size', 'bigint')
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('device_ops_sn').on('device_ops').columns(['sn_id', 'created_at']).execute();
  // At most one running operation of a kind per device, whichever instance started it.
  await db.schema
    .createIndex('device_ops_running')
    .on('device_ops')
    .columns(['sn_id', 'kind'])
    .unique()
    .where(sql.ref('state'), '=', 'running')
    .execute();

  await db.schema
    .createTable('map_downloads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('min_lat', 'double precision', (c) => c.notNull())
    .addColumn('min_lng', 'double precision', (c) => c.notNull())
    .addColumn('max_lat', 'double precision', (c) => c.notNull())
    .addColumn('max_lng', 'double precision', (c) => c.notNull())
    .addColumn('min_zoom', 'integer', (c) => c.notNull())
    .addColumn('max_zoom', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'bigint')
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['map_downloads', 'device_ops', 'teaching_videos', 'com_group_users', 'com_group_devices', 'com_groups', 'firmware', 'device_types']) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.dropIndex('departments_company').execute();
  await db.schema.alterTable('departments').dropColumn('sort').execute();
  await db.schema.alterTable('departments').dropColumn('company_id').execute();
}
