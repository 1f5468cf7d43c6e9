import { CheckingType, type Ranking, type RankingRow } from '@nest/contracts';
import type { Database } from '../db/index.js';
import type { PlanScope } from '../db/scope.js';
import { STATE_NORMAL } from '../db/sql.js';
import { deviceName } from '../devices/api.js';

export interface RankingQuery {
  /** CheckingType: 10 attendance (sorties), 20 mileage (metres), 30 results. */
  type: number;
  /** Seconds, inclusive; on the sortie's start (10, 20) or when the result was taken (30). */
  start_time?: number;
  end_time?: number;
  size: number;
}

/**
 * The devices of the scope ranked by value, largest first: devices with a value above 0 by value (then
 * name, then sn), then the devices without any, by name, until `size` rows. Only devices that exist now
 * (not deleted) are ranked; figures of deleted devices are left out.
 */
export async function ranking(db: Database, scope: PlanScope, q: RankingQuery): Promise<Ranking> {
  let dq = db.selectFrom('devices').select(['sn_id', 'airport_name', 'uav_name']).where('state', '=', STATE_NORMAL);
  if (!scope.all) dq = dq.where('company_id', '=', scope.companyId);
  const devices = await dq.execute();
  const values = new Map<string, number>();
  if (q.type === CheckingType.RESULTS) {
    let rq = db
      .selectFrom('results')
      .select((eb) => ['sn_id', eb.fn.countAll<number>().as('v')])
      .where('state', '=', STATE_NORMAL);
    if (!scope.all) rq = rq.where('company_id', '=', scope.companyId);
    // taken_at is ms; the period is seconds.
    if (q.start_time !== undefined) rq = rq.where('taken_at', '>=', q.start_time * 1000);
    if (q.end_time !== undefined) rq = rq.where('taken_at', '<', (q.end_time + 1) * 1000);
    for (const r of await rq.groupBy('sn_id').execute()) values.set(r.sn_id, Number(r.v));
  } else {
    let sq = db
      .selectFrom('sorties')
      .select((eb) => ['sn_id', q.type === CheckingType.MILEAGE ? eb.fn.sum<number>('distance').as('v') : eb.fn.countAll<number>().as('v')])
      .where('state', '=', STATE_NORMAL);
    if (!scope.all) sq = sq.where('company_id', '=', scope.companyId);
    if (q.start_time !== undefined) sq = sq.where('start_time', '>=', q.start_time);
    if (q.end_time !== undefined) sq = sq.where('start_time', '<=', q.end_time);
    for (const r of await sq.groupBy('sn_id').execute()) values.set(r.sn_id, Number(r.v ?? 0));
  }
  const rows = devices
    .map((d) => ({ sn_id: d.sn_id, name: deviceName(d), value: values.get(d.sn_id) ?? 0 }))
    .sort((a, b) => b.value - a.value || a.name.localeCompare(b.name) || a.sn_id.localeCompare(b.sn_id))
    .slice(0, q.size);
  const list: RankingRow[] = rows.map((r, i) => ({ rank: i + 1, ...r }));
  return { type: q.type, list };
}
