import type { Kysely } from 'kysely';
import type { DB, MissionRow } from '../db/schema.js';
import { STATE_NORMAL } from '../db/sql.js';

/**
 * Groups of routes: the parts of a survey split by battery, flown one after another.
 * - The next part of a group is its first live part (by `group_index`) not flown to its end since the
 *   whole group last was (`group_flown` 0).
 * - A part's flight reaching its end (mission.progress `done`) marks it flown; when that makes every live
 *   part of the group flown, the group is complete and all its parts start over (flown 0), so the next
 *   flight is part 1 again.
 * - Starting a flight with any part of a group flies the group's next part ("resume picks the next"):
 *   the flight runtime resolves the route through `groupFlightPart` before anything else.
 * An interrupted part keeps its breakpoint as any route does, and stays the next part.
 */

/** The next part of each group named (group id -> mission id). */
export async function groupNextParts(db: Kysely<DB>, groupIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const ids = [...new Set(groupIds)];
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('missions')
    .select(['id', 'group_id', 'group_index', 'group_flown'])
    .where('group_id', 'in', ids)
    .where('state', '=', STATE_NORMAL)
    .orderBy('group_id')
    .orderBy('group_index')
    .execute();
  const first = new Map<string, string>();
  for (const r of rows) {
    const g = r.group_id!;
    if (!first.has(g)) first.set(g, r.id);
    if (!out.has(g) && Number(r.group_flown) === 0) out.set(g, r.id);
  }
  for (const [g, id] of first) if (!out.has(g)) out.set(g, id);
  return out;
}

/** The route a flight started with `mission` flies: the group's next part, or the route itself. */
export async function groupFlightPart(db: Kysely<DB>, mission: MissionRow): Promise<MissionRow> {
  if (!mission.group_id) return mission;
  const next = (await groupNextParts(db, [mission.group_id])).get(mission.group_id);
  if (!next || next === mission.id) return mission;
  return (await db.selectFrom('missions').selectAll().where('id', '=', next).where('state', '=', STATE_NORMAL).executeTakeFirst()) ?? mission;
}

/** A part flown to its end: marks it, and starts the group over once every live part is flown. */
export async function markPartFlown(db: Kysely<DB>, missionId: string): Promise<void> {
  const row = await db.selectFrom('missions').select(['group_id']).where('id', '=', missionId).executeTakeFirst();
  if (!row?.group_id) return;
  const groupId = row.group_id;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('missions').set({ group_flown: 1 }).where('id', '=', missionId).execute();
    const left = await trx
      .selectFrom('missions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .where('state', '=', STATE_NORMAL)
      .where('group_flown', '=', 0)
      .executeTakeFirst();
    if (Number(left?.n ?? 0) === 0) await trx.updateTable('missions').set({ group_flown: 0 }).where('group_id', '=', groupId).execute();
  });
}
