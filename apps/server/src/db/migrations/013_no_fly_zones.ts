import type { Kysely } from 'kysely';

/**
 * Company no-fly zones (contracts NoFlyZone): a polygon (`boundary`, JSON WGS84 ring) or a circle
 * (`center_lat`/`center_lng`, `radius` m; boundary '[]'), for every device of the company (`sn_id` '') or
 * one device, restricting routes between `valid_from` and `valid_to` (unix s, inclusive; null open-ended).
 * `state` 10 live / 20 deleted. Portable SQL (SQLite and PostgreSQL); see ../schema.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('no_fly_zones')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('shape', 'integer', (c) => c.notNull())
    .addColumn('boundary', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('center_lat', 'double precision')
    .addColumn('center_lng', 'double precision')
    .addColumn('radius', 'double precision')
    .addColumn('sn_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('valid_from', 'bigint')
    .addColumn('valid_to', 'bigint')
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('user_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('no_fly_zones_company').on('no_fly_zones').columns(['company_id', 'state']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('no_fly_zones').execute();
}
