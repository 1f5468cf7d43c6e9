import { ResultCode, type Lang } from '@nest/contracts';
import type { Kysely } from 'kysely';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { DB, MissionRow, TimedTaskRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { findFence } from '../fences/api.js';
import { inPlanScope, planScopeOf, type PlanScope } from '../db/scope.js';
import { STATE_NORMAL, newId, searchText } from '../db/sql.js';
import { DATA_DELETED, DATA_NORMAL, TASK_PAUSED, TASK_WAITING, firstClash, isActive, nextSlot, type Timing } from './schedule.js';
import { activeTasksOf, presentTask } from './store.js';
import { TASK_TEXTS, when } from './texts.js';

/** A run time may be this far in the past when saved (clock skew, slow typing); the scheduler fires it at once. */
const PAST_TOLERANCE_S = 60;

const refuse = (msg: (lang: Lang) => string, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);

/** The route and its fence, checked: the route is the caller's company's and its fence is the device's. */
async function checkedRoute(db: Kysely<DB>, scope: PlanScope, missionId: string, sn: string) {
  const mission = await db.selectFrom('missions').selectAll().where('id', '=', missionId).where('state', '=', STATE_NORMAL).executeTakeFirst();
  if (!mission || !inPlanScope(scope, mission)) throw refuse(TASK_TEXTS.noMission, ResultCode.NOT_FOUND_OBJECT);
  const fence = await findFence(db, mission.fence_id);
  if (!fence || fence.sn_id !== sn) throw refuse(TASK_TEXTS.wrongDevice);
  const device = await db.selectFrom('devices').select(['sn_id', 'company_id']).where('sn_id', '=', sn).where('state', '=', STATE_NORMAL).executeTakeFirst();
  if (!device || !inPlanScope(scope, device)) throw refuse(TASK_TEXTS.noDevice, ResultCode.NOT_FOUND_OBJECT);
  return { mission: mission as MissionRow, fence, device };
}

/** Refuses when the candidate's runs come closer than 30 minutes to another active task of the device. */
async function checkGap(db: Kysely<DB>, sn: string, candidate: Timing, exceptId: string | undefined, now: number): Promise<void> {
  if (!isActive(candidate)) return;
  for (const other of await activeTasksOf(db, sn, exceptId)) {
    const clash = firstClash(candidate, other, now);
    if (clash) {
      const w = when(clash[1]);
      throw refuse(TASK_TEXTS.clash(other.m_title, w.zh, w.en));
    }
  }
}

/**
 * Timed tasks (company-scoped like routes: another company's task, route or device does not exist for the
 * caller; super_administrator sees all):
 * - /task/add: the route must be the caller's and belong to `sn_id`'s fence; f_title / m_title are copied
 *   from the fence and route (sent values are ignored); task_tms not in the past; runs at least 30 minutes
 *   from the device's other active tasks (repeating series compared over 15 days).
 * - /task/edit: absent fields kept; state 10 deletes; task_state 3 pauses, 1 resumes (a repeating task
 *   resumes at its next future slot; a once task whose time passed needs a new time). Changing the time
 *   re-arms a finished once task.
 * - /task/list: filters sn_id, task_state, search (route or fence title); newest first; `{list, total}`.
 */
export function taskHandlers(deps: AppDeps): Handlers {
  const { db } = deps;

  async function visibleTask(scope: PlanScope, id: string): Promise<TimedTaskRow> {
    const row = await db.selectFrom('timed_tasks').selectAll().where('id', '=', id).where('state', '=', DATA_NORMAL).executeTakeFirst();
    if (!row || !inPlanScope(scope, row)) throw refuse(TASK_TEXTS.noTask, ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  return {
    taskAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = planScopeOf(caller);
      const f = ctx.fields;
      const now = nowSeconds();
      const { mission, fence, device } = await checkedRoute(db, scope, f.mission_id, f.sn_id);
      if (f.task_tms < now - PAST_TOLERANCE_S) throw refuse(TASK_TEXTS.past);
      const row: TimedTaskRow = {
        id: newId(),
        mission_id: mission.id,
        fence_id: fence.id,
        f_title: fence.name,
        m_title: mission.name,
        sn_id: f.sn_id,
        company_id: device.company_id,
        u_id: caller.user.u_id,
        user_name: caller.user.nick,
        task_tms: f.task_tms,
        interval_min: f.interval,
        task_state: TASK_WAITING,
        state: DATA_NORMAL,
        claimed_by: null,
        claimed_at: null,
        last_run: null,
        last_outcome: '',
        create_time: now,
        modified_time: now,
      };
      await checkGap(db, f.sn_id, row, undefined, now);
      await db.insertInto('timed_tasks').values(row).execute();
      deps.changes.changed(row.company_id, 'tasks');
      return { data: presentTask(row, ctx.lang) };
    },

    taskEdit: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const f = ctx.fields;
      const now = nowSeconds();
      const current = await visibleTask(scope, f.id);
      if (f.state === DATA_DELETED) {
        await db.updateTable('timed_tasks').set({ state: DATA_DELETED, modified_time: now }).where('id', '=', current.id).execute();
        deps.changes.changed(current.company_id, 'tasks');
        return { data: presentTask({ ...current, state: DATA_DELETED, modified_time: now }, ctx.lang) };
      }
      const next: TimedTaskRow = { ...current, modified_time: now };
      const sn = f.sn_id || current.sn_id;
      const missionId = f.mission_id || current.mission_id;
      if (sn !== current.sn_id || missionId !== current.mission_id) {
        const { mission, fence, device } = await checkedRoute(db, scope, missionId, sn);
        Object.assign(next, { sn_id: sn, mission_id: mission.id, fence_id: fence.id, f_title: fence.name, m_title: mission.name, company_id: device.company_id });
      }
      if (f.interval !== undefined) next.interval_min = f.interval;
      if (f.task_tms !== undefined && f.task_tms !== Number(current.task_tms)) {
        if (f.task_tms < now - PAST_TOLERANCE_S) throw refuse(TASK_TEXTS.past);
        next.task_tms = f.task_tms;
        // A new time re-arms a finished task (unless it is paused, or being paused now).
        if (Number(current.task_state) !== TASK_PAUSED) next.task_state = TASK_WAITING;
      }
      if (f.task_state !== undefined) next.task_state = f.task_state;
      if (next.task_state === TASK_WAITING && Number(next.task_tms) < now - PAST_TOLERANCE_S) {
        // Resuming: a repeating task continues at its next slot; a once task needs a new time.
        if (Number(next.interval_min) > 0) next.task_tms = nextSlot(Number(next.task_tms), Number(next.interval_min), now);
        else throw refuse(TASK_TEXTS.past);
      }
      await checkGap(db, next.sn_id, next, current.id, now);
      const { id: _id, create_time: _c, claimed_by: _b, claimed_at: _a, last_run: _r, last_outcome: _o, ...patch } = next;
      await db.updateTable('timed_tasks').set(patch).where('id', '=', current.id).execute();
      for (const company of new Set([current.company_id, next.company_id])) deps.changes.changed(company, 'tasks');
      return { data: presentTask(next, ctx.lang) };
    },

    taskList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const { sn_id, task_state, search, page, size } = ctx.fields;
      let q = db.selectFrom('timed_tasks').where('state', '=', DATA_NORMAL);
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (sn_id) q = q.where('sn_id', '=', sn_id);
      if (task_state !== undefined) q = q.where('task_state', '=', task_state);
      if (search) q = q.where(searchText(['m_title', 'f_title'], search));
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: rows.map((r) => presentTask(r, ctx.lang)), total } };
    },
  };
}
