import type { Kysely } from 'kysely';

/**
 * Flight planning: work fences, routes (missions) and map zones. Portable SQL (SQLite and PostgreSQL);
 * see ../schema.ts. Points and waypoint lists are JSON text (WGS84).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fences')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('max_height', 'double precision', (c) => c.notNull())
    .addColumn('boundary', 'text', (c) => c.notNull())
    .addColumn('sn_id', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fences_company').on('fences').columns(['company_id', 'state']).execute();
  await db.schema.createIndex('fences_sn').on('fences').columns(['sn_id', 'state']).execute();

  await db.schema
    .createTable('missions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('fence_id', 'text', (c) => c.notNull().references('fences.id'))
    .addColumn('mission_type', 'integer', (c) => c.notNull())
    .addColumn('height_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_speed', 'double precision', (c) => c.notNull())
    .addColumn('max_speed', 'double precision', (c) => c.notNull())
    .addColumn('default_height', 'double precision', (c) => c.notNull())
    .addColumn('return_height', 'double precision', (c) => c.notNull())
    .addColumn('finish_action', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('exec_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('camera_type', 'text', (c) => c.notNull().defaultTo('custom'))
    .addColumn('sensor_width', 'double precision')
    .addColumn('sensor_height', 'double precision')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('focal_length', 'double precision')
    .addColumn('course_overlap', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('lateral_overlap', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('turn_distance', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('angle', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('interval_height', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('elevation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('photo_type', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('waypoints', 'text', (c) => c.notNull())
    .addColumn('survey_polygon', 'text')
    .addColumn('distance', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('est_time', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('breakpoint', 'integer')
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('u_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('missions_company').on('missions').columns(['company_id', 'state']).execute();
  await db.schema.createIndex('missions_fence').on('missions').columns(['fence_id', 'state']).execute();

  await db.schema
    .createTable('zones')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('paths', 'text', (c) => c.notNull())
    .addColumn('stroke_color', 'text', (c) => c.notNull())
    .addColumn('solid_color', 'text', (c) => c.notNull())
    .addColumn('stroke_width', 'double precision', (c) => c.notNull().defaultTo(2))
    .addColumn('company_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['zones', 'missions', 'fences']) await db.schema.dropTable(t).execute();
}
