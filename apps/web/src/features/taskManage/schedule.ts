import { TIMED_TASK_MIN_INTERVAL_MIN, type CallFields, type TimedTaskRow } from '@nest/contracts';

/**
 * Pure rules of the timed-task screen: the repeat period as the form shows it (a number and a unit), its
 * text in the table, its validation (the contracts rule: 0 runs once, else at least
 * TIMED_TASK_MIN_INTERVAL_MIN minutes, at most a year), and the call fields of the dialog.
 */

export type IntervalUnit = 'minute' | 'hour' | 'day';
export const UNIT_MINUTES: Readonly<Record<IntervalUnit, number>> = { minute: 1, hour: 60, day: 1440 };
/** The registry's upper bound of `interval` (minutes in a year). */
export const MAX_INTERVAL_MIN = 525_600;

export interface Repeat {
  /** false: the task runs once. */
  on: boolean;
  every: number | null;
  unit: IntervalUnit;
}

/** The form's view of a stored interval: the largest unit that divides it evenly. */
export function repeatOf(intervalMin: number): Repeat {
  if (!intervalMin) return { on: false, every: 1, unit: 'hour' };
  if (intervalMin % UNIT_MINUTES.day === 0) return { on: true, every: intervalMin / UNIT_MINUTES.day, unit: 'day' };
  if (intervalMin % UNIT_MINUTES.hour === 0) return { on: true, every: intervalMin / UNIT_MINUTES.hour, unit: 'hour' };
  return { on: true, every: intervalMin, unit: 'minute' };
}

/** Minutes of a repeat (0 for once, NaN when the number is missing or not a positive whole number). */
export function intervalOf(r: Repeat): number {
  if (!r.on) return 0;
  if (r.every === null || !Number.isInteger(r.every) || r.every <= 0) return Number.NaN;
  return r.every * UNIT_MINUTES[r.unit];
}

export type IntervalIssue = 'missing' | 'tooShort' | 'tooLong' | null;

/** Why a repeat cannot be saved, or null. */
export function intervalIssue(r: Repeat): IntervalIssue {
  const m = intervalOf(r);
  if (Number.isNaN(m)) return 'missing';
  if (m === 0) return null;
  if (m < TIMED_TASK_MIN_INTERVAL_MIN) return 'tooShort';
  if (m > MAX_INTERVAL_MIN) return 'tooLong';
  return null;
}

/** The words a schedule text is made of, in the page language (messages.ts `schedule`). */
export interface ScheduleWords {
  once: string;
  everyMinutes: (n: number) => string;
  everyHours: (n: number) => string;
  everyDays: (n: number) => string;
}

/** "Once", "Every 45 minutes", "Every 2 hours", "Every day"... */
export function scheduleText(intervalMin: number, words: ScheduleWords): string {
  const r = repeatOf(intervalMin);
  if (!r.on) return words.once;
  const n = r.every ?? 0;
  return r.unit === 'day' ? words.everyDays(n) : r.unit === 'hour' ? words.everyHours(n) : words.everyMinutes(n);
}

/** Whether a run time (s) may be saved: in the future (the server allows a minute of skew; the form none). */
export const inFuture = (tms: number, nowS: number = Math.floor(Date.now() / 1000)): boolean => tms > nowS;

/** What the table offers for a row: pause while runs are ahead, resume while paused. */
export function rowActions(task: Pick<TimedTaskRow, 'task_state' | 'interval' | 'next_run'>): { pause: boolean; resume: boolean } {
  return { pause: task.task_state !== 3 && task.next_run !== null, resume: task.task_state === 3 };
}

export interface TaskForm {
  sn_id: string;
  mission_id: string;
  /** Unix seconds. */
  task_tms: number;
  repeat: Repeat;
}

/** The fields of /task/add. */
export function taskAddFields(form: TaskForm): CallFields<'taskAdd'> {
  return { sn_id: form.sn_id, mission_id: form.mission_id, interval: intervalOf(form.repeat), task_tms: form.task_tms };
}

/**
 * The fields of /task/edit for `current`: the time only when it changed (an unchanged past time of a
 * finished task must not be refused as "in the past").
 */
export function taskEditFields(form: TaskForm, current: Pick<TimedTaskRow, 'id' | 'task_tms'>): CallFields<'taskEdit'> {
  return {
    id: current.id,
    sn_id: form.sn_id,
    mission_id: form.mission_id,
    interval: intervalOf(form.repeat),
    ...(form.task_tms !== current.task_tms ? { task_tms: form.task_tms } : {}),
  };
}
