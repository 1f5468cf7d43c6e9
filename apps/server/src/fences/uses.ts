import { TimedTaskDataState, TimedTaskState, textsOf, type Text } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { STATE_NORMAL } from '../db/sql.js';

/** How many names a refusal quotes before it counts the rest. */
const NAMED = 3;

export interface FenceUses {
  routes: { id: string; name: string }[];
  tasks: { id: string; name: string }[];
}

/**
 * What keeps a fence from being deleted:
 * - its live routes (missions state 10 bound to it);
 * - its planned timed tasks: not deleted, and still with a run ahead or able to get one (waiting, paused,
 *   or repeating; a once task already sent or failed is finished), bound to the fence itself or to a route
 *   on it (a deleted route included: the task still names it). A task is named by its route's title.
 */
export async function fenceUses(db: Kysely<DB>, fenceId: string): Promise<FenceUses> {
  const routes = await db
    .selectFrom('missions')
    .select(['id', 'name'])
    .where('fence_id', '=', fenceId)
    .where('state', '=', STATE_NORMAL)
    .orderBy('created_at')
    .orderBy('name')
    .orderBy('id')
    .execute();
  const onFence = db.selectFrom('missions').select('id').where('fence_id', '=', fenceId);
  const tasks = await db
    .selectFrom('timed_tasks')
    .select(['id', 'm_title as name'])
    .where('state', '=', TimedTaskDataState.NORMAL)
    .where((eb) =>
      eb.and([
        eb.or([eb('fence_id', '=', fenceId), eb('mission_id', 'in', onFence)]),
        eb.or([eb('task_state', 'in', [TimedTaskState.WAITING, TimedTaskState.PAUSED]), eb('interval_min', '>', 0)]),
      ]),
    )
    .orderBy('task_tms')
    .orderBy('id')
    .execute();
  return { routes, tasks };
}

/** `「A」、「B」、「C」等 5 条` / `"A", "B", "C" and 2 more`: the first names, then the count of the rest. */
function named(items: readonly { name: string }[], zhUnit: string): Text {
  const shown = items.slice(0, NAMED).map((i) => textsOf(i.name));
  const rest = items.length - shown.length;
  return {
    zh: `${shown.map((t) => `「${t.zh}」`).join('、')}${rest > 0 ? `等 ${items.length} ${zhUnit}` : ''}`,
    en: `${shown.map((t) => `"${t.en}"`).join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`,
  };
}

/** The refusal text of deleting a fence in use, naming its routes and timed tasks (null when unused). */
export function fenceInUseText(fenceName: string, uses: FenceUses): Text | null {
  const parts: Text[] = [];
  if (uses.routes.length > 0) {
    const n = named(uses.routes, '条');
    parts.push({ zh: `航线${n.zh}`, en: `${uses.routes.length === 1 ? 'route' : 'routes'} ${n.en}` });
  }
  if (uses.tasks.length > 0) {
    const n = named(uses.tasks, '个');
    parts.push({ zh: `定时任务${n.zh}`, en: `${uses.tasks.length === 1 ? 'the timed task of' : 'the timed tasks of'} ${n.en}` });
  }
  if (parts.length === 0) return null;
  const f = textsOf(fenceName);
  return {
    zh: `围栏「${f.zh}」仍在使用中，不能删除：${parts.map((p) => p.zh).join('；')}`,
    en: `Fence "${f.en}" is still used and cannot be deleted: ${parts.map((p) => p.en).join('; ')}`,
  };
}
