import { NoFlyShape, ResultCode, type LatLng, type NoFlyZone } from '@nest/contracts';
import { noFlyApplies } from '@nest/geo';
import type { Kysely } from 'kysely';
import { CallError } from '../calls/errors.js';
import type { DB, NoFlyZoneRow } from '../db/schema.js';
import { inPlanScope, type PlanScope } from '../db/scope.js';
import { STATE_NORMAL } from '../db/sql.js';

const parseRing = (json: string): LatLng[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as LatLng[]) : [];
  } catch {
    return [];
  }
};

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/**
 * The zone as the console reads it (contracts noFlyZoneSchema). `active`: it restricts now, i.e. `now`
 * (the server clock, unix s) lies in its validity period.
 */
export function presentNoFly(row: NoFlyZoneRow, now: number): NoFlyZone {
  const circle = Number(row.shape) === NoFlyShape.CIRCLE;
  const zone = {
    id: row.id,
    name: row.name,
    reason: row.reason,
    shape: Number(row.shape) as NoFlyZone['shape'],
    boundary: circle ? [] : parseRing(row.boundary),
    center: circle && row.center_lat !== null && row.center_lng !== null ? { lat: Number(row.center_lat), lng: Number(row.center_lng) } : null,
    radius: circle ? num(row.radius) : null,
    sn_id: row.sn_id,
    valid_from: num(row.valid_from),
    valid_to: num(row.valid_to),
    user_name: row.user_name,
    create_time: Number(row.created_at),
    modified_time: Number(row.modified_at),
  };
  // Restricts now: geo's rule for the instant (validity inclusive), whatever device it is for.
  return { ...zone, active: noFlyApplies({ ...zone, sn_id: '' }, { sn: null, at: now }) };
}

export async function findNoFly(db: Kysely<DB>, id: string): Promise<NoFlyZoneRow | undefined> {
  return db.selectFrom('no_fly_zones').selectAll().where('id', '=', id).where('state', '=', STATE_NORMAL).executeTakeFirst();
}

/** A live zone the caller may see, or NOT_FOUND_OBJECT (another company's zone does not exist for them). */
export async function visibleNoFly(db: Kysely<DB>, scope: PlanScope, id: string): Promise<NoFlyZoneRow> {
  const row = await findNoFly(db, id);
  if (!row || !inPlanScope(scope, row)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
  return row;
}

/**
 * The live zones of a company that concern a device: those for every device of the company (sn_id '')
 * and those of that device. Validity is not looked at here (the caller decides which instant matters).
 */
export async function deviceNoFlyRows(db: Kysely<DB>, companyId: string, sn: string): Promise<NoFlyZoneRow[]> {
  return db
    .selectFrom('no_fly_zones')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('state', '=', STATE_NORMAL)
    .where((eb) => eb.or([eb('sn_id', '=', ''), eb('sn_id', '=', sn)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
