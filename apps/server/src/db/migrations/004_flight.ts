import type { Kysely } from 'kysely';

/**
 * Flight operations: the command audit log, sorties with their telemetry tracks, results
 * (media) and their uploads in flight, alternate-landing records and timed tasks. Portable SQL (SQLite
 * and PostgreSQL); see ../schema.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('command_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('cmd_id', 'text', (c) => c.notNull().unique())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('console'))
    .addColumn('cmd_type', 'integer', (c) => c.notNull())
    .addColumn('action_cmd', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('flight_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reason', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('command_log_company').on('command_log').columns(['company_id', 'created_at']).execute();
  await db.schema.createIndex('command_log_sn').on('command_log').columns(['sn_id', 'created_at']).execute();
  await db.schema.createIndex('command_log_flight').on('command_log').columns(['flight_id']).execute();

  await db.schema
    .createTable('sorties')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flight_id', 'text', (c) => c.notNull().unique())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('uav_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('mission_id', 'text')
    .addColumn('mission_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mission_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint')
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('distance', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('place', 'integer')
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sorties_company').on('sorties').columns(['company_id', 'start_time']).execute();
  await db.schema.createIndex('sorties_sn').on('sorties').columns(['sn_id', 'start_time']).execute();

  await db.schema
    .createTable('sortie_track')
    .addColumn('sort_id', 'text', (c) => c.notNull().references('sorties.id').onDelete('cascade'))
    .addColumn('t', 'bigint', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('alt', 'double precision', (c) => c.notNull())
    .addColumn('height', 'double precision', (c) => c.notNull())
    .addColumn('speed', 'double precision', (c) => c.notNull())
    .addColumn('heading', 'double precision', (c) => c.notNull())
    .addColumn('battery', 'double precision', (c) => c.notNull())
    .addColumn('flight_state', 'integer', (c) => c.notNull().defaultTo(2))
    .addPrimaryKeyConstraint('sortie_track_pk', ['sort_id', 't'])
    .execute();

  await db.schema
    .createTable('results')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('sort_id', 'text')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('thumb_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height_px', 'integer')
    .addColumn('duration', 'double precision')
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('height', 'double precision', (c) => c.notNull())
    .addColumn('waypoint_index', 'integer')
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('results_media').on('results').columns(['sn_id', 'media_id']).unique().execute();
  await db.schema.createIndex('results_company').on('results').columns(['company_id', 'taken_at']).execute();
  await db.schema.createIndex('results_sort').on('results').columns(['sort_id']).execute();

  await db.schema
    .createTable('media_uploads')
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('received', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('result_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_uploads_pk', ['sn_id', 'media_id'])
    .execute();

  await db.schema
    .createTable('alternate_landings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('flight_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reason', 'integer', (c) => c.notNull())
    .addColumn('solution', 'integer', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('drone_int', 'integer', (c) => c.notNull())
    .addColumn('altn_int', 'integer', (c) => c.notNull())
    .addColumn('place_int', 'integer', (c) => c.notNull())
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alternate_company').on('alternate_landings').columns(['company_id', 'create_time']).execute();
  await db.schema.createIndex('alternate_flight').on('alternate_landings').columns(['sn_id', 'flight_id', 'timestamp']).unique().execute();

  await db.schema
    .createTable('timed_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mission_id', 'text', (c) => c.notNull())
    .addColumn('fence_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('f_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('m_title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('task_tms', 'bigint', (c) => c.notNull())
    .addColumn('interval_min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('task_state', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'bigint')
    .addColumn('last_run', 'bigint')
    .addColumn('last_outcome', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('modified_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('timed_tasks_due').on('timed_tasks').columns(['state', 'task_state', 'task_tms']).execute();
  await db.schema.createIndex('timed_tasks_company').on('timed_tasks').columns(['company_id', 'task_tms']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['timed_tasks', 'alternate_landings', 'media_uploads', 'results', 'sortie_track', 'sorties', 'command_log']) {
    await db.schema.dropTable(t).execute();
  }
}
