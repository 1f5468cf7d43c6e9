import { describe, expect, it } from 'vitest';
import { calls } from '@nest/contracts';
import { inFuture, intervalIssue, intervalOf, repeatOf, rowActions, scheduleText, taskAddFields, taskEditFields, type ScheduleWords } from './schedule';

const words: ScheduleWords = {
  once: 'Once',
  everyMinutes: (n) => `Every ${n} minutes`,
  everyHours: (n) => (n === 1 ? 'Every hour' : `Every ${n} hours`),
  everyDays: (n) => (n === 1 ? 'Every day' : `Every ${n} days`),
};

/** What the server's form parser makes of the fields, after the browser turned them into text. */
const asSent = (name: 'taskAdd' | 'taskEdit', fields: Record<string, unknown>) =>
  calls[name].fields.safeParse(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])));

describe('schedule text', () => {
  it('names once, minutes, hours and days by the largest whole unit', () => {
    expect(scheduleText(0, words)).toBe('Once');
    expect(scheduleText(30, words)).toBe('Every 30 minutes');
    expect(scheduleText(45, words)).toBe('Every 45 minutes');
    expect(scheduleText(90, words)).toBe('Every 90 minutes');
    expect(scheduleText(60, words)).toBe('Every hour');
    expect(scheduleText(180, words)).toBe('Every 3 hours');
    expect(scheduleText(1440, words)).toBe('Every day');
    expect(scheduleText(10080, words)).toBe('Every 7 days');
    expect(scheduleText(1500, words)).toBe('Every 25 hours');
  });

  it('round-trips a stored interval through the form', () => {
    for (const m of [0, 30, 45, 60, 90, 120, 1440, 2880, 1500]) expect(intervalOf(repeatOf(m))).toBe(m);
    expect(repeatOf(120)).toEqual({ on: true, every: 2, unit: 'hour' });
    expect(repeatOf(0).on).toBe(false);
  });
});

describe('interval validation (not under 30 minutes)', () => {
  it('accepts once and periods of 30 minutes or more, up to a year', () => {
    expect(intervalIssue({ on: false, every: null, unit: 'minute' })).toBeNull();
    expect(intervalIssue({ on: true, every: 30, unit: 'minute' })).toBeNull();
    expect(intervalIssue({ on: true, every: 1, unit: 'hour' })).toBeNull();
    expect(intervalIssue({ on: true, every: 365, unit: 'day' })).toBeNull();
  });

  it('refuses short, missing, fractional and over-long periods', () => {
    expect(intervalIssue({ on: true, every: 29, unit: 'minute' })).toBe('tooShort');
    expect(intervalIssue({ on: true, every: 1, unit: 'minute' })).toBe('tooShort');
    expect(intervalIssue({ on: true, every: null, unit: 'hour' })).toBe('missing');
    expect(intervalIssue({ on: true, every: 0, unit: 'hour' })).toBe('missing');
    expect(intervalIssue({ on: true, every: 1.5, unit: 'hour' })).toBe('missing');
    expect(intervalIssue({ on: true, every: 366, unit: 'day' })).toBe('tooLong');
  });

  it('agrees with the registry: what the form accepts the call accepts, and the reverse', () => {
    for (const every of [1, 29, 30, 31, 60, 600]) {
      const repeat = { on: true, every, unit: 'minute' as const };
      const fields = taskAddFields({ sn_id: 'SN', mission_id: 'm', task_tms: 1_900_000_000, repeat });
      expect(asSent('taskAdd', fields).success).toBe(intervalIssue(repeat) === null);
    }
  });
});

describe('call fields and row actions', () => {
  it('adds with every field; edits send the time only when it changed', () => {
    const form = { sn_id: 'SN', mission_id: 'm', task_tms: 1_900_000_000, repeat: { on: true, every: 2, unit: 'hour' as const } };
    expect(taskAddFields(form)).toEqual({ sn_id: 'SN', mission_id: 'm', interval: 120, task_tms: 1_900_000_000 });
    expect(taskEditFields(form, { id: 't1', task_tms: 1_900_000_000 })).toEqual({ id: 't1', sn_id: 'SN', mission_id: 'm', interval: 120 });
    expect(taskEditFields(form, { id: 't1', task_tms: 1_800_000_000 })).toMatchObject({ id: 't1', task_tms: 1_900_000_000 });
    expect(asSent('taskEdit', taskEditFields(form, { id: 't1', task_tms: 1 })).success).toBe(true);
  });

  it('checks the time is ahead', () => {
    expect(inFuture(101, 100)).toBe(true);
    expect(inFuture(100, 100)).toBe(false);
  });

  it('offers pause while runs are ahead and resume while paused', () => {
    expect(rowActions({ task_state: 1, interval: 0, next_run: 5 })).toEqual({ pause: true, resume: false });
    expect(rowActions({ task_state: 3, interval: 60, next_run: null })).toEqual({ pause: false, resume: true });
    expect(rowActions({ task_state: 10, interval: 0, next_run: null })).toEqual({ pause: false, resume: false });
    expect(rowActions({ task_state: 40, interval: 60, next_run: 9 })).toEqual({ pause: true, resume: false });
  });
});
