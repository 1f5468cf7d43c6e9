import { RecordState, ResultCode, type Lang } from '@nest/contracts';
import type { FenceInput, Issue, LatLng } from '@nest/geo';
import type { Kysely } from 'kysely';
import { CallError } from '../calls/errors.js';
import type { Refusal } from '../calls/types.js';
import type { DB, DeviceRow, FenceRow } from '../db/schema.js';
import { inPlanScope, type PlanScope } from '../db/scope.js';
import { STATE_NORMAL } from '../db/sql.js';

export { STATE_NORMAL, newId } from '../db/sql.js';
export { inPlanScope, planScopeOf, type PlanScope } from '../db/scope.js';

/** `state` values (contracts RecordState). */
export const STATE_DELETED: number = RecordState.DELETED;


/**
 * The refusal of a fence or route that breaks a rule: code BAD_REQUEST, `msg` the first issue's text in
 * the caller's language, `data: {issues}` every issue (geo Issue: code, item {kind, index?, id?},
 * text {zh, en}, at?). Nothing is saved.
 */
export function refusal(issues: readonly Issue[]): Refusal {
  return {
    code: ResultCode.BAD_REQUEST,
    data: { issues },
    message: (lang: Lang) => issues[0]?.text[lang] ?? '',
  };
}

export const parseRing = (json: string): LatLng[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as LatLng[]) : [];
  } catch {
    return [];
  }
};

export const fenceInputOf = (row: FenceRow): FenceInput & { id: string; name: string } => ({
  id: row.id,
  name: row.name,
  max_height: Number(row.max_height),
  boundary: parseRing(row.boundary),
  sn_id: row.sn_id,
});

/** The fence as the console reads it (contracts fenceSchema) plus modified_time and company_id. */
export function presentFence(row: FenceRow) {
  return {
    id: row.id,
    name: row.name,
    max_height: Number(row.max_height),
    boundary: parseRing(row.boundary),
    sn_id: row.sn_id,
    create_time: Number(row.created_at),
    modified_time: Number(row.updated_at),
    company_id: row.company_id,
  };
}

export async function findFence(db: Kysely<DB>, id: string): Promise<FenceRow | undefined> {
  return db.selectFrom('fences').selectAll().where('id', '=', id).where('state', '=', STATE_NORMAL).executeTakeFirst();
}

/** A fence the caller may see, or NOT_FOUND_OBJECT (another company's fence does not exist for them). */
export async function visibleFence(db: Kysely<DB>, scope: PlanScope, id: string): Promise<FenceRow> {
  const row = await findFence(db, id);
  if (!row || !inPlanScope(scope, row)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
  return row;
}

/** A live device the caller may plan for, or NOT_FOUND_OBJECT. */
export async function visibleDevice(db: Kysely<DB>, scope: PlanScope, sn: string): Promise<DeviceRow> {
  const row = await db.selectFrom('devices').selectAll().where('sn_id', '=', sn).where('state', '=', STATE_NORMAL).executeTakeFirst();
  if (!row || !inPlanScope(scope, row)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
  return row;
}

/** The other live fences of a device (for the overlap rule). */
export async function deviceFences(db: Kysely<DB>, sn: string): Promise<FenceRow[]> {
  return db.selectFrom('fences').selectAll().where('sn_id', '=', sn).where('state', '=', STATE_NORMAL).execute();
}

