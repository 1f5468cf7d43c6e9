import type { Kysely } from 'kysely';

/**
 * Routes: a strip route's centre line (`corridor_line`, JSON WGS84 points) and `corridor_width` (m), and
 * the parts of a survey split by battery: `group_id` shared by the parts, `group_index` (1-based),
 * `group_count`, and `group_flown` (1 once the part has flown to its end since the whole group last did;
 * the next part to fly is the first with 0). Null / 0 for routes of their own. Portable SQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('missions').addColumn('corridor_line', 'text').execute();
  await db.schema.alterTable('missions').addColumn('corridor_width', 'double precision').execute();
  await db.schema.alterTable('missions').addColumn('group_id', 'text').execute();
  await db.schema.alterTable('missions').addColumn('group_index', 'integer').execute();
  await db.schema.alterTable('missions').addColumn('group_count', 'integer').execute();
  await db.schema.alterTable('missions').addColumn('group_flown', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('missions_group').on('missions').column('group_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('missions_group').execute();
  for (const c of ['group_flown', 'group_count', 'group_index', 'group_id', 'corridor_width', 'corridor_line'])
    await db.schema.alterTable('missions').dropColumn(c).execute();
}
