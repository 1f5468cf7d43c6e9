import type { Kysely } from 'kysely';

/**
 * Offline map packages (maps/packages/): an MBTiles or PMTiles file a company uploaded, kept as
 * DATA_DIR/tiles/packages/<id>.<container>. The row holds what the upload check read from the file (kind,
 * format, WGS84 bounds, zooms, vector layers as JSON, attribution) so lists and styles never open it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('map_packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('container', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('min_lat', 'double precision', (c) => c.notNull())
    .addColumn('min_lng', 'double precision', (c) => c.notNull())
    .addColumn('max_lat', 'double precision', (c) => c.notNull())
    .addColumn('max_lng', 'double precision', (c) => c.notNull())
    .addColumn('min_zoom', 'integer', (c) => c.notNull())
    .addColumn('max_zoom', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('vector_layers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('attribution', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('u_id', 'text', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('map_packages_company').on('map_packages').columns(['company_id', 'create_time']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('map_packages').execute();
}
