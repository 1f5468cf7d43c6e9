import { RecordState } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { GROUP_NORMAL } from './store.js';

/**
 * Which devices a user sees through collaboration groups (README.md): the devices of every normal group the
 * user is a member of, as long as each device still belongs to the group's company (a device moved to
 * another company leaves the groups of its old one).
 *
 * Read from the database, cached per user for at most SHARE_CACHE_MS: several server instances share one
 * database, so a membership change made through another instance shows within that time; a change made
 * through this instance clears the cache at once (`forget`).
 */
export const SHARE_CACHE_MS = 5_000;

export async function loadSharedSns(db: Kysely<DB>, uId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('com_group_users as u')
    .innerJoin('com_groups as g', 'g.id', 'u.group_id')
    .innerJoin('com_group_devices as d', 'd.group_id', 'g.id')
    .innerJoin('devices as v', 'v.sn_id', 'd.sn_id')
    .select('d.sn_id')
    .distinct()
    .where('u.u_id', '=', uId)
    .where('g.state', '=', GROUP_NORMAL)
    .where('v.state', '=', RecordState.NORMAL)
    .whereRef('v.company_id', '=', 'g.company_id')
    .execute();
  return new Set(rows.map((r) => r.sn_id));
}

export class GroupShares {
  private readonly cache = new Map<string, { at: number; sns: Set<string> }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The sns shared with a user (never their own company's: callers add those by company). */
  async of(uId: string): Promise<ReadonlySet<string>> {
    const hit = this.cache.get(uId);
    const now = this.clock();
    if (hit && now - hit.at < SHARE_CACHE_MS) return hit.sns;
    const sns = await loadSharedSns(this.db, uId);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(uId, { at: now, sns });
    return sns;
  }

  /** Groups changed through this instance: everyone's shares are read again on next use. */
  forget(): void {
    this.cache.clear();
  }
}

/** One GroupShares per database handle (the call handlers and the push hub of one app share it). */
const byDb = new WeakMap<Kysely<DB>, GroupShares>();
export function sharesOf(db: Kysely<DB>): GroupShares {
  let s = byDb.get(db);
  if (!s) byDb.set(db, (s = new GroupShares(db)));
  return s;
}
