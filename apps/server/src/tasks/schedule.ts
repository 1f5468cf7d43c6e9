import { TIMED_TASK_MIN_INTERVAL_MIN, TimedTaskDataState, TimedTaskState } from '@nest/contracts';

/**
 * Pure timing rules of timed tasks (seconds since the epoch). Kept apart from the database so the
 * scheduler, the calls and the tests share one definition.
 */

/** A run more than this late (the server was down or stuck) is not flown: it is marked missed. */
export const MISSED_AFTER_S = 10 * 60;
/** A claim older than this belongs to an instance that died mid-run: another instance may take it over. */
export const STALE_CLAIM_S = 2 * 60;
/** Minimum gap between two runs of one device. */
export const MIN_GAP_S = TIMED_TASK_MIN_INTERVAL_MIN * 60;
/** How far ahead two repeating series are compared for the minimum gap (covers day and week patterns). */
export const CONFLICT_HORIZON_S = 15 * 24 * 3600;

/** task_state values (contracts TimedTaskState). */
export const TASK_WAITING: number = TimedTaskState.WAITING;
export const TASK_PAUSED: number = TimedTaskState.PAUSED;
export const TASK_SENT: number = TimedTaskState.SENT;
export const TASK_FAILED: number = TimedTaskState.FAILED_TIMEOUT;
export const TASK_OFFLINE: number = TimedTaskState.FAILED_OFFLINE;
/** state values (contracts TimedTaskDataState). */
export const DATA_NORMAL: number = TimedTaskDataState.NORMAL;
export const DATA_DELETED: number = TimedTaskDataState.DELETED;

export interface Timing {
  task_tms: number;
  interval_min: number;
  task_state: number;
  state: number;
}

/** Whether the task still has runs ahead: not deleted, not paused, and waiting or repeating. */
export const isActive = (t: Timing): boolean =>
  Number(t.state) === DATA_NORMAL && Number(t.task_state) !== TASK_PAUSED && (Number(t.task_state) === TASK_WAITING || Number(t.interval_min) > 0);

/** The first slot of a repeating task strictly after `now` (a once task keeps its time). */
export function nextSlot(tms: number, intervalMin: number, now: number): number {
  if (intervalMin <= 0) return tms;
  const step = intervalMin * 60;
  if (tms > now) return tms;
  return tms + (Math.floor((now - tms) / step) + 1) * step;
}

/** The run times of a task between `from` and `to` (a repeating task from its next slot on). */
export function runsBetween(t: Pick<Timing, 'task_tms' | 'interval_min'>, from: number, to: number): number[] {
  const interval = Number(t.interval_min);
  const tms = Number(t.task_tms);
  if (interval <= 0) return tms >= from && tms <= to ? [tms] : [];
  const out: number[] = [];
  for (let r = tms >= from ? tms : nextSlot(tms, interval, from - 1); r <= to; r += interval * 60) out.push(r);
  return out;
}

/**
 * The first pair of runs of `a` and `b` closer than MIN_GAP_S within the horizon, or null. Both series
 * are sorted, so a merge walk finds the closest neighbours in linear time.
 */
export function firstClash(a: Pick<Timing, 'task_tms' | 'interval_min'>, b: Pick<Timing, 'task_tms' | 'interval_min'>, now: number): [number, number] | null {
  const from = now - MIN_GAP_S;
  const to = Math.max(Number(a.task_tms), Number(b.task_tms), now) + CONFLICT_HORIZON_S;
  const ra = runsBetween(a, from, to);
  const rb = runsBetween(b, from, to);
  let i = 0;
  let j = 0;
  while (i < ra.length && j < rb.length) {
    const x = ra[i]!;
    const y = rb[j]!;
    if (Math.abs(x - y) < MIN_GAP_S) return [x, y];
    if (x < y) i++;
    else j++;
  }
  return null;
}
