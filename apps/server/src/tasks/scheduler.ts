import { randomUUID } from 'node:crypto';
import { Reason, ResultCode, type PreflightCheck } from '@nest/contracts';
import { sql, type Kysely } from 'kysely';
import type { DB, TimedTaskRow } from '../db/schema.js';
import type { Actor, CommandAnswer, FlightRuntime } from '../flight/api.js';
import {
  DATA_NORMAL,
  MISSED_AFTER_S,
  STALE_CLAIM_S,
  TASK_FAILED,
  TASK_OFFLINE,
  TASK_PAUSED,
  TASK_SENT,
  TASK_WAITING,
  nextSlot,
} from './schedule.js';
import { OUTCOME_MISSED, OUTCOME_SENT, errorOutcome, replyOutcome } from './texts.js';

/** How often due tasks are looked for. A due run fires at most this late (plus the command's own time). */
export const POLL_MS = 5_000;
/** Rows handled per tick (the rest wait for the next tick). */
const BATCH = 50;

export interface SchedulerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SchedulerOptions {
  db: Kysely<DB>;
  flight: Pick<FlightRuntime, 'launchMission' | 'checks'>;
  log: SchedulerLog;
  /** This instance's claim mark; default a random id per process start. */
  instanceId?: string;
  /** Clock in Unix seconds (tests). */
  now?: () => number;
  /** A run of a task of this company finished (its state and next slot changed): push 380 'tasks'. */
  onChange?: (companyId: string) => void;
}

/**
 * The outcome of one launch: the task state it leaves and the language-neutral outcome key to keep (texts.ts),
 * with what the refusal names in both languages when it names something (`named`).
 */
export function outcomeOf(answer: CommandAnswer, named?: { zh: string; en: string } | null): { taskState: number; text: string } {
  const d = answer.data;
  if (answer.code === ResultCode.OK && (d.outcome === 'ok' || d.outcome === 'pending')) {
    return { taskState: TASK_SENT, text: OUTCOME_SENT };
  }
  const offline = d.outcome === 'offline' || d.reason === Reason.OFFLINE;
  return { taskState: offline ? TASK_OFFLINE : TASK_FAILED, text: replyOutcome(d.outcome, d.reason, d.one_key_error, named) };
}

/** The value of a failed pre-flight check that names something (the zone a route enters), or null. */
const failedValue = (checks: readonly PreflightCheck[] | undefined, item: string): string | null => {
  const c = checks?.find((x) => x.item === item && !x.ok);
  return c && typeof c.value === 'string' && c.value ? c.value : null;
};

/**
 * The timed-task scheduler: `tick()` finds due rows, claims each with a conditional UPDATE (only the
 * instance whose UPDATE changed the row fires it), flies it through the flight runtime and records the
 * outcome. See README.md for the full policy.
 */
export function createScheduler(opts: SchedulerOptions) {
  const { db, flight, log } = opts;
  const instanceId = opts.instanceId ?? `sched-${randomUUID()}`;
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));

  /** Rows that are due now and not held by a live claim. */
  async function dueRows(t: number): Promise<TimedTaskRow[]> {
    return db
      .selectFrom('timed_tasks')
      .selectAll()
      .where('state', '=', DATA_NORMAL)
      .where('task_state', '!=', TASK_PAUSED)
      .where((eb) => eb.or([eb('task_state', '=', TASK_WAITING), eb('interval_min', '>', 0)]))
      .where('task_tms', '<=', t)
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', t - STALE_CLAIM_S)]))
      .orderBy('task_tms')
      .limit(BATCH)
      .execute();
  }

  /**
   * Claims one run. The WHERE repeats what was seen (same slot, same state, no live claim), so of several
   * instances racing for the row exactly one UPDATE changes it; a run already finished by another
   * instance (slot moved on, or state changed) cannot be claimed again.
   */
  async function claim(row: TimedTaskRow, t: number): Promise<boolean> {
    const res = await db
      .updateTable('timed_tasks')
      .set({ claimed_by: instanceId, claimed_at: t })
      .where('id', '=', row.id)
      .where('state', '=', DATA_NORMAL)
      .where('task_tms', '=', Number(row.task_tms))
      .where('task_state', '=', Number(row.task_state))
      .where((eb) => eb.or([eb('claimed_by', 'is', null), eb('claimed_at', '<', t - STALE_CLAIM_S)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Records the outcome and releases the claim; a pause made meanwhile is kept. */
  async function finish(row: TimedTaskRow, taskState: number, text: string, t: number): Promise<void> {
    const interval = Number(row.interval_min);
    await db
      .updateTable('timed_tasks')
      .set({
        // Literals, not parameters: PostgreSQL would type untyped CASE parameters as text.
        task_state: sql<number>`case when task_state = ${sql.lit(TASK_PAUSED)} then ${sql.lit(TASK_PAUSED)} else ${sql.lit(Math.trunc(taskState))} end`,
        // Only the run's own slot moves on: a time an operator set while the run was in flight is kept.
        task_tms:
          interval > 0
            ? sql<number>`case when task_tms = ${sql.lit(Number(row.task_tms))} then ${sql.lit(nextSlot(Number(row.task_tms), interval, t))} else task_tms end`
            : Number(row.task_tms),
        last_run: t,
        last_outcome: text.slice(0, 500),
        claimed_by: null,
        claimed_at: null,
        modified_time: t,
      })
      .where('id', '=', row.id)
      .where('claimed_by', '=', instanceId)
      .execute();
    opts.onChange?.(row.company_id);
  }

  /**
   * A launch refused because the route enters a zone: the zone as the answer names it (zh) and as the
   * pre-flight checks name it in en, read at once, so the task's outcome can name it in either language.
   */
  async function zoneNamed(actor: Actor, row: TimedTaskRow, answer: CommandAnswer): Promise<{ zh: string; en: string } | null> {
    if (answer.data.reason !== Reason.ROUTE_ZONE) return null;
    const zh = failedValue(answer.data.checks, 'zone');
    if (!zh) return null;
    // The English text needs a second read of the checks. The refusal already stands, so a failure of
    // that read must not turn it into a send error: the zone is then named in Chinese in both texts.
    let en: string | null = null;
    try {
      en = failedValue((await flight.checks(actor, row.sn_id, row.mission_id, 'en')).checks, 'zone');
    } catch (err) {
      log.warn({ err, task: row.id }, 'timed task: the zone could not be named in English');
    }
    return { zh, en: en ?? zh };
  }

  async function fire(row: TimedTaskRow): Promise<void> {
    const t = now();
    if (t - Number(row.task_tms) > MISSED_AFTER_S) {
      // Missed-run policy: a late run is not flown (the drone would take off at an unplanned time).
      await finish(row, TASK_FAILED, OUTCOME_MISSED, t);
      log.warn({ task: row.id, sn: row.sn_id, due: Number(row.task_tms), late_s: t - Number(row.task_tms) }, 'timed task missed, not flown');
      return;
    }
    const actor: Actor = { u_id: row.u_id, nick: row.user_name, company_id: row.company_id, all: false, source: 'task' };
    let result: { taskState: number; text: string };
    try {
      // One command id per run (task + slot): a run re-claimed after a stale claim answers the first
      // launch's outcome from the command log instead of launching a second flight.
      const cmdId = `task-${row.id}-${row.task_tms}`.slice(0, 64);
      const answer = await flight.launchMission(actor, { sn: row.sn_id, missionId: row.mission_id, cmdId }, 'zh');
      result = outcomeOf(answer, await zoneNamed(actor, row, answer));
    } catch (err) {
      result = { taskState: TASK_FAILED, text: errorOutcome(err instanceof Error ? err.message : String(err)) };
    }
    await finish(row, result.taskState, result.text, now());
    log.info({ task: row.id, sn: row.sn_id, mission: row.mission_id, task_state: result.taskState, outcome: result.text }, 'timed task fired');
  }

  /** One pass: answers how many runs this instance handled (fired or marked missed). */
  async function tick(): Promise<number> {
    const t = now();
    const rows = await dueRows(t);
    const mine: TimedTaskRow[] = [];
    for (const row of rows) if (await claim(row, t)) mine.push(row);
    // Launches run side by side: one slow device reply must not delay another device's run.
    await Promise.all(
      mine.map((row) => fire(row).catch((err: unknown) => log.warn({ err, task: row.id }, 'timed task run failed; the claim expires and it is retried'))),
    );
    return mine.length;
  }

  return { instanceId, tick };
}

/** Runs `tick` every POLL_MS (never two at once) until stopped; stop waits for the running pass. */
export function runScheduler(scheduler: { tick(): Promise<number> }, log: SchedulerLog, pollMs = POLL_MS): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = scheduler
      .tick()
      .catch((err: unknown) => log.warn({ err }, 'timed task scheduler pass failed'))
      .finally(() => {
        running = null;
      });
  }, pollMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
