import type { Lang } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { DB, TimedTaskRow } from '../db/schema.js';
import { DATA_NORMAL, isActive } from './schedule.js';
import { outcomeText } from './texts.js';

/**
 * A timed task as /task/list and the add/edit answers show it: the SPEC fields (f_title, m_title, sn_id,
 * task_tms, task_state, create_time, state) plus id, mission_id, fence_id, interval (minutes), who planned
 * it, last_run / last_outcome (and outcome_text in the caller's language) and next_run (null when no run
 * is ahead: paused, deleted, or a once task already fired).
 */
export function presentTask(row: TimedTaskRow, lang: Lang) {
  return {
    id: row.id,
    mission_id: row.mission_id,
    fence_id: row.fence_id,
    f_title: row.f_title,
    m_title: row.m_title,
    sn_id: row.sn_id,
    task_tms: Number(row.task_tms),
    interval: Number(row.interval_min),
    task_state: Number(row.task_state),
    state: Number(row.state),
    u_id: row.u_id,
    user_name: row.user_name,
    last_run: row.last_run === null ? null : Number(row.last_run),
    last_outcome: row.last_outcome,
    outcome_text: outcomeText(row.last_outcome, lang),
    next_run: isActive(row) ? Number(row.task_tms) : null,
    create_time: Number(row.create_time),
    modified_time: Number(row.modified_time),
  };
}

/** The other tasks of a device that still have runs ahead (for the 30-minute rule). */
export async function activeTasksOf(db: Kysely<DB>, sn: string, exceptId?: string): Promise<TimedTaskRow[]> {
  let q = db.selectFrom('timed_tasks').selectAll().where('sn_id', '=', sn).where('state', '=', DATA_NORMAL);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return (await q.execute()).filter(isActive);
}
