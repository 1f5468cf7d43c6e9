import { sql, type Kysely } from 'kysely';

/**
 * Health alarms (AlarmKind device_health): a device may report several health messages at once, each an
 * episode of its own, so the one-open-episode-per-(sn_id, kind) index leaves device_health out and a second
 * index allows one open device_health row per (sn_id, detail = the message code). `data` holds what a
 * kind's text is made of (device_health: JSON {key, module, level, in_the_sky, device_type?, args?}).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are frozen in time: untyped on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alarms').addColumn('data', 'text').execute();
  await db.schema.dropIndex('alarms_open').execute();
  await db.schema
    .createIndex('alarms_open')
    .on('alarms')
    .columns(['sn_id', 'kind'])
    .unique()
    .where(sql.ref('cleared_at'), 'is', null)
    .where(sql.ref('kind'), '<>', 'device_health')
    .execute();
  await db.schema
    .createIndex('alarms_open_health')
    .on('alarms')
    .columns(['sn_id', 'detail'])
    .unique()
    .where(sql.ref('cleared_at'), 'is', null)
    .where(sql.ref('kind'), '=', 'device_health')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('alarms').where('kind', '=', 'device_health').execute();
  await db.schema.dropIndex('alarms_open_health').execute();
  await db.schema.dropIndex('alarms_open').execute();
  await db.schema.createIndex('alarms_open').on('alarms').columns(['sn_id', 'kind']).unique().where(sql.ref('cleared_at'), 'is', null).execute();
  await db.schema.alterTable('alarms').dropColumn('data').execute();
}
