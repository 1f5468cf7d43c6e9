import { DEVICE_KIND_OF_KEY, DeviceTypeKey, type DeviceType, type DeviceTypeKeyValue } from '@nest/contracts';
import type { Kysely, Selectable } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB, DeviceTypesTable } from '../db/schema.js';
import { newId } from '../db/sql.js';

export type DeviceTypeRow = Selectable<DeviceTypesTable>;

export const TYPE_ENABLED = 10;
export const TYPE_DISABLED = 20;
export const TYPE_DELETED = 30;

/** Video streams of the standard types: nests film inside and outside besides the drone, a single drone only itself. */
const STANDARD_STREAMS: Readonly<Record<DeviceTypeKeyValue, number>> = { stable: 3, stable_mini: 2, mobile: 2, alone: 1 };

/** The catalogue entries a fresh installation starts with: the four device type keys (contracts DeviceTypeKey). */
export function standardDeviceTypes(now: number): DeviceTypeRow[] {
  return DeviceTypeKey.entries.map((e) => ({
    id: `std-${e.value}`,
    cla_type: DEVICE_KIND_OF_KEY[e.value as DeviceTypeKeyValue],
    cla_name: e.label.zh,
    value: e.value,
    stream: STANDARD_STREAMS[e.value as DeviceTypeKeyValue],
    state: TYPE_ENABLED,
    notes: e.label.en,
    create_time: now,
    modified_time: now,
  }));
}

/**
 * Seeds the standard types when the catalogue is empty (first start). An administrator who later deletes
 * them keeps them deleted: deleted rows stay in the table, so it is never empty again. Several instances
 * starting together insert the same fixed ids; the losers' conflicts are ignored.
 */
export async function seedDeviceTypes(db: Kysely<DB>): Promise<void> {
  const any = await db.selectFrom('device_types').select('id').limit(1).executeTakeFirst();
  if (any) return;
  await db
    .insertInto('device_types')
    .values(standardDeviceTypes(nowSeconds()))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export function presentDeviceType(r: DeviceTypeRow): DeviceType {
  return {
    id: r.id,
    cla_type: Number(r.cla_type) as DeviceType['cla_type'],
    cla_name: r.cla_name,
    value: r.value,
    stream: Number(r.stream) as DeviceType['stream'],
    state: Number(r.state) as DeviceType['state'],
    notes: r.notes,
    create_time: Number(r.create_time),
    modified_time: Number(r.modified_time),
  };
}

export { newId };
