import { RecordState, plannedPointSchema, type PlannedPoint } from '@nest/contracts';
import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import type { DB } from '../db/schema.js';

/** `state` values (contracts RecordState). */
export const STATE_NORMAL: number = RecordState.NORMAL;
export const STATE_DELETED: number = RecordState.DELETED;

type Db = Kysely<DB> | Transaction<DB>;

/** Sets a sortie's `count` to the number of its live results (called wherever results come or go). */
export async function syncSortieCount(db: Db, sortId: string): Promise<void> {
  await db
    .updateTable('sorties')
    .set({
      count: sql<number>`(select count(*) from results where results.sort_id = ${sortId} and results.state = ${STATE_NORMAL})`,
    })
    .where('id', '=', sortId)
    .execute();
}

/** The live sortie of a device's flight, if it was recorded. */
export async function sortieOfFlight(db: Db, sn: string, flightId: string): Promise<{ id: string; mission_name: string } | undefined> {
  return db
    .selectFrom('sorties')
    .select(['id', 'mission_name'])
    .where('flight_id', '=', flightId)
    .where('sn_id', '=', sn)
    .executeTakeFirst();
}

/**
 * Results that arrived before their sortie (the device uploads while the flight.start event is still on
 * its way, or the sortie was recorded by another instance later): the upload's meta names the flight.
 */
export async function attachEarlyResults(db: Db, sn: string, flightId: string, sortId: string): Promise<number> {
  const uploads = await db
    .selectFrom('media_uploads')
    .select(['result_id', 'meta'])
    .where('sn_id', '=', sn)
    .where('result_id', 'is not', null)
    // A cheap prefilter; the parsed meta decides.
    .where('meta', 'like', `%${flightId.replace(/[\\%_]/g, '%')}%`)
    .execute();
  const ids = uploads
    .filter((u) => {
      try {
        return (JSON.parse(u.meta) as { flight_id?: unknown }).flight_id === flightId;
      } catch {
        return false;
      }
    })
    .map((u) => u.result_id!);
  if (ids.length === 0) return 0;
  const res = await db.updateTable('results').set({ sort_id: sortId }).where('id', 'in', ids).where('sort_id', 'is', null).executeTakeFirst();
  await syncSortieCount(db, sortId);
  return Number(res.numUpdatedRows);
}

/**
 * Display names (airport name, else drone name, else sn) of devices by sn, deleted devices included so
 * old sorties and results keep a name; an sn without a device row names itself.
 */
export async function deviceNames(db: Db, sns: Iterable<string>): Promise<Map<string, string>> {
  const wanted = [...new Set(sns)];
  const names = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('devices')
      .select(['sn_id', 'airport_name', 'uav_name'])
      .where('sn_id', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const r of rows) names.set(r.sn_id, r.airport_name || r.uav_name || r.sn_id);
  }
  for (const sn of wanted) if (!names.has(sn)) names.set(sn, sn);
  return names;
}

/** A stored plan (JSON PlannedPoint[]) read back; anything unreadable is no plan. */
export function parsePlan(text: string | null): PlannedPoint[] {
  if (!text) return [];
  try {
    const parsed = z.array(plannedPointSchema).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}
