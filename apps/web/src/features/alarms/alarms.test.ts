import { afterEach, describe, expect, it } from 'vitest';
import type { Alarm } from '@nest/contracts';
import {
  ALARM_PAGE_SIZE,
  NEWS_LIMIT,
  alarmListFields,
  applyAlarmPush,
  canListAlarms,
  canProcessAlarms,
  describeAlarm,
  getNews,
  matchesFilter,
  receiveAlarmPush,
  resetNews,
  seedNews,
  setPending,
} from './alarms';

const alarm = (id: string, extra: Partial<Alarm> = {}): Alarm => ({
  id,
  sn_id: 'SIM-STABLE-01',
  device_name: 'Nest 1',
  kind: 'high_wind',
  level: 20,
  state: 10,
  value: 14.26,
  detail: '',
  flight_id: null,
  lat: null,
  lng: null,
  raised_at: new Date(2026, 10, 20, 9, 30).getTime(),
  cleared_at: null,
  processed_at: null,
  processed_by: '',
  note: '',
  ...extra,
});

describe('alarm filter to /alarm/list fields', () => {
  it('sends only what is set, with 0-based paging', () => {
    expect(alarmListFields({}, 1)).toEqual({ page: 0, size: ALARM_PAGE_SIZE });
    expect(alarmListFields({ level: 30, state: 10, kind: 'rtk_loss', snId: '  SN-1 ' }, 3, 50)).toEqual({
      page: 2,
      size: 50,
      level: 30,
      state: 10,
      kind: 'rtk_loss',
      sn_id: 'SN-1',
    });
    expect(alarmListFields({ snId: '   ', level: undefined }, 1)).toEqual({ page: 0, size: ALARM_PAGE_SIZE });
  });

  it('turns the date range into whole local days in seconds', () => {
    const from = new Date(2026, 10, 1, 15, 20).getTime();
    const to = new Date(2026, 10, 3, 8, 0).getTime();
    const f = alarmListFields({ range: [from, to] }, 1);
    expect(f.start_time).toBe(new Date(2026, 10, 1, 0, 0, 0).getTime() / 1000);
    expect(f.end_time).toBe(Math.floor(new Date(2026, 10, 3, 23, 59, 59, 999).getTime() / 1000));
  });

  it('matches a pushed alarm against the same filter', () => {
    const a = alarm('a1');
    expect(matchesFilter(a, {})).toBe(true);
    expect(matchesFilter(a, { level: 20, kind: 'high_wind', snId: 'SIM-STABLE-01', state: 10 })).toBe(true);
    expect(matchesFilter(a, { level: 30 })).toBe(false);
    expect(matchesFilter(a, { state: 20 })).toBe(false);
    expect(matchesFilter(a, { range: [new Date(2026, 10, 21).getTime(), new Date(2026, 10, 22).getTime()] })).toBe(false);
    expect(matchesFilter(a, { range: [new Date(2026, 10, 20).getTime(), new Date(2026, 10, 20).getTime()] })).toBe(true);
  });
});

describe('alarm rows following push 370', () => {
  it('puts a raised alarm on top of the first page only when it matches', () => {
    const rows = [alarm('a1')];
    const raised = { event: 'raised' as const, alarm: alarm('a2', { level: 30, kind: 'battery_critical' }), pending: 2 };
    expect(applyAlarmPush(rows, raised, {}, 1)).toEqual({ rows: [raised.alarm, rows[0]], added: 1 });
    expect(applyAlarmPush(rows, raised, {}, 2)).toEqual({ rows, added: 0 });
    expect(applyAlarmPush(rows, raised, { level: 10 }, 1)).toEqual({ rows, added: 0 });
  });

  it('replaces a changed alarm, and drops it when it left the filter', () => {
    const rows = [alarm('a1'), alarm('a2')];
    const processed = { event: 'processed' as const, alarm: alarm('a1', { state: 20, processed_by: 'Li', note: 'ok' }), pending: 1 };
    expect(applyAlarmPush(rows, processed, {}, 1).rows[0]).toMatchObject({ state: 20, note: 'ok' });
    expect(applyAlarmPush(rows, processed, { state: 10 }, 1)).toEqual({ rows: [rows[1]], added: -1 });
  });
});

describe('news store (header badge)', () => {
  afterEach(resetNews);

  it('seeds from /alarm/list, then takes the pending count of every 370', () => {
    seedNews(4, [alarm('a1')]);
    expect(getNews().pending).toBe(4);
    receiveAlarmPush({ event: 'raised', alarm: alarm('a2'), pending: 5 });
    expect(getNews()).toMatchObject({ pending: 5, version: 1 });
    expect(getNews().latest.map((a) => a.id)).toEqual(['a2', 'a1']);
    receiveAlarmPush({ event: 'processed', alarm: alarm('a1', { state: 20 }), pending: 4 });
    expect(getNews().pending).toBe(4);
    expect(getNews().latest.map((a) => [a.id, a.state])).toEqual([['a2', 10], ['a1', 20]]);
    receiveAlarmPush({ event: 'cleared', alarm: alarm('a9', { cleared_at: 1 }), pending: 4 });
    expect(getNews().latest.map((a) => a.id)).toEqual(['a2', 'a1']);
  });

  it('ignores malformed pushes and keeps at most NEWS_LIMIT alarms', () => {
    seedNews(1, []);
    expect(receiveAlarmPush({ event: 'raised', pending: -1 })).toBeNull();
    expect(receiveAlarmPush(null)).toBeNull();
    expect(getNews().pending).toBe(1);
    for (let i = 0; i < NEWS_LIMIT + 3; i++) receiveAlarmPush({ event: 'raised', alarm: alarm(`x${i}`), pending: i + 2 });
    expect(getNews().latest).toHaveLength(NEWS_LIMIT);
    expect(getNews().latest[0]!.id).toBe(`x${NEWS_LIMIT + 2}`);
    expect(getNews().pending).toBe(NEWS_LIMIT + 4);
    setPending(0);
    expect(getNews().pending).toBe(0);
  });
});

describe('alarm texts and permissions', () => {
  it('names nest parts and flow steps in the detail', () => {
    expect(describeAlarm(alarm('a', { kind: 'nest_part_fault', detail: 'hatch', value: null }), 'en')).toBe('Nest part fault: Hatch');
    expect(describeAlarm(alarm('a', { kind: 'flow_failed', detail: 'hatch_open', value: 3 }), 'zh')).toBe('起降流程失败：舱门打开');
    expect(describeAlarm(alarm('a'), 'en')).toBe('Wind above the limit: 14.3 m/s');
    expect(describeAlarm(alarm('a', { kind: 'tf_card', detail: 'full', value: null }), 'en')).toBe('TF card problem: almost full');
  });
  it('needs alarm_list to see and alarm_process to process', () => {
    expect(canListAlarms(['alarm_list'])).toBe(true);
    expect(canListAlarms(['menu_home'])).toBe(false);
    expect(canListAlarms(['super_administrator'])).toBe(true);
    expect(canProcessAlarms(['alarm_list'])).toBe(false);
    expect(canProcessAlarms(['alarm_process'])).toBe(true);
  });
});
