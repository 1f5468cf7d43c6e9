import { describe, expect, it } from 'vitest';
import {
  formatArea,
  formatAreaText,
  formatDistance,
  formatDistanceText,
  formatDate,
  formatDateTime,
  formatEndTime,
  formatMonthDay,
  formatMonthDayTime,
  formatTime,
  formatHms,
  formatMmSs,
  formatPercent,
  formatSizeKb,
  formatSpeed,
  isPermanentEndTime,
  localeOf,
  windDirectionIndex,
  windDirectionName,
} from './format.js';
import { PERMANENT_END_TIME } from './constants.js';

describe('formatDistance', () => {
  it('shows metres below 1000 and km with 2 decimals from 1000', () => {
    expect(formatDistance(0)).toEqual({ value: '0', unit: 'm' });
    expect(formatDistance(999)).toEqual({ value: '999', unit: 'm' });
    expect(formatDistance(1000)).toEqual({ value: '1.00', unit: 'km' });
    expect(formatDistance(1234)).toEqual({ value: '1.23', unit: 'km' });
    expect(formatDistanceText(1234)).toBe('1.23 km');
    expect(formatDistanceText(12.4)).toBe('12 m');
  });

  it('does not show 1000 m when rounding reaches a kilometre', () => {
    expect(formatDistanceText(999.6)).toBe('1.00 km');
    expect(formatDistanceText(999.4)).toBe('999 m');
  });

  it('answers -- for non-numbers', () => {
    expect(formatDistanceText(Number.NaN)).toBe('-- m');
  });
});

describe('formatArea', () => {
  it('shows m² below 10000 and km² with 2 decimals from 10000', () => {
    expect(formatArea(9999)).toEqual({ value: '9999', unit: 'm²' });
    expect(formatArea(10_000)).toEqual({ value: '0.01', unit: 'km²' });
    expect(formatAreaText(2_345_678)).toBe('2.35 km²');
    expect(formatAreaText(0)).toBe('0 m²');
  });
});

describe('durations', () => {
  it('formats mission time as hh:mm:ss without capping hours', () => {
    expect(formatHms(0)).toBe('00:00:00');
    expect(formatHms(59)).toBe('00:00:59');
    expect(formatHms(3599)).toBe('00:59:59');
    expect(formatHms(3600)).toBe('01:00:00');
    expect(formatHms(360_000)).toBe('100:00:00');
    expect(formatHms(3599.9)).toBe('00:59:59');
    expect(formatHms(-5)).toBe('00:00:00');
    expect(formatHms(Number.NaN)).toBe('00:00:00');
  });

  it('formats estimated time as mm:ss without capping minutes', () => {
    expect(formatMmSs(0)).toBe('00:00');
    expect(formatMmSs(3599)).toBe('59:59');
    expect(formatMmSs(3600)).toBe('60:00');
    expect(formatMmSs(360_000)).toBe('6000:00');
  });
});

describe('windDirectionName', () => {
  it('names 45° sectors centred on the eight directions', () => {
    expect(windDirectionName(0, 'en')).toBe('North');
    expect(windDirectionName(22.4, 'en')).toBe('North');
    expect(windDirectionName(22.5, 'en')).toBe('Northeast');
    expect(windDirectionName(90, 'zh')).toBe('东');
    expect(windDirectionName(180, 'en')).toBe('South');
    expect(windDirectionName(225, 'zh')).toBe('西南');
    expect(windDirectionName(337.4, 'en')).toBe('Northwest');
    expect(windDirectionName(337.5, 'en')).toBe('North');
    expect(windDirectionName(360, 'zh')).toBe('北');
  });

  it('normalises negative and over-360 angles', () => {
    expect(windDirectionName(-45, 'en')).toBe('Northwest');
    expect(windDirectionName(-45, 'zh')).toBe('西北');
    expect(windDirectionName(405, 'en')).toBe('Northeast');
    expect(windDirectionName(-720, 'en')).toBe('North');
    expect(windDirectionIndex(-22.5)).toBe(0);
    expect(windDirectionName(Number.NaN, 'en')).toBe('--');
  });
});

describe('small formatters', () => {
  it('formats speed with one decimal', () => {
    expect(formatSpeed(12.34)).toBe('12.3 m/s');
    expect(formatSpeed(0)).toBe('0.0 m/s');
    expect(formatSpeed(Number.POSITIVE_INFINITY)).toBe('--');
  });

  it('formats percentages', () => {
    expect(formatPercent(56.4)).toBe('56%');
    expect(formatPercent(56.45, 1)).toBe('56.5%');
    expect(formatPercent(100)).toBe('100%');
  });

  it('formats sizes given in KB', () => {
    expect(formatSizeKb(10 / 1024)).toBe('10 B');
    expect(formatSizeKb(0)).toBe('0 B');
    expect(formatSizeKb(512)).toBe('512 KB');
    expect(formatSizeKb(1536)).toBe('1.5 MB');
    expect(formatSizeKb(2 * 1024 * 1024)).toBe('2.00 GB');
  });
});

describe('formatEndTime', () => {
  it('answers the permanent word from the marker on, else null', () => {
    expect(formatEndTime(PERMANENT_END_TIME, 'zh')).toBe('永久有效');
    expect(formatEndTime(PERMANENT_END_TIME + 1, 'en')).toBe('Permanent');
    expect(formatEndTime(PERMANENT_END_TIME - 1, 'en')).toBeNull();
    expect(formatEndTime(0, 'zh')).toBeNull();
    expect(isPermanentEndTime(4_765_104_000)).toBe(true);
  });
});

describe('dates and times', () => {
  // Built from local parts, so the expectations hold in any time zone the tests run in.
  const at = new Date(2026, 10, 26, 2, 11, 5).getTime();
  const early = new Date(2026, 0, 3, 14, 4, 9).getTime();

  it('one format per language: zh numeric, en with the month spelled out, 24-hour clock in both', () => {
    expect(formatDateTime(at, 'zh')).toBe('2026-11-26 02:11:05');
    expect(formatDateTime(at, 'en')).toBe('26 Nov 2026, 02:11:05');
    expect(formatDateTime(early, 'zh')).toBe('2026-01-03 14:04:09');
    expect(formatDateTime(early, 'en')).toBe('3 Jan 2026, 14:04:09');
    expect(formatDateTime(early, 'zh', false)).toBe('2026-01-03 14:04');
    expect(formatDateTime(early, 'en', false)).toBe('3 Jan 2026, 14:04');
  });

  it('day, month-day, month-day-time and clock', () => {
    expect(formatDate(at, 'zh')).toBe('2026-11-26');
    expect(formatDate(at, 'en')).toBe('26 Nov 2026');
    expect(formatMonthDay(early, 'zh')).toBe('01-03');
    expect(formatMonthDay(early, 'en')).toBe('3 Jan');
    expect(formatMonthDayTime(at, 'zh')).toBe('11-26 02:11');
    expect(formatMonthDayTime(at, 'en')).toBe('26 Nov, 02:11');
    expect(formatTime(early, 'zh')).toBe('14:04:09');
    expect(formatTime(early, 'en')).toBe('14:04:09');
    expect(formatTime(early, 'en', false)).toBe('14:04');
  });

  it('answers -- for non-numbers and invalid dates', () => {
    for (const f of [formatDateTime, formatDate, formatMonthDay, formatMonthDayTime, formatTime]) {
      expect(f(Number.NaN, 'zh')).toBe('--');
      expect(f(8.64e15 + 1, 'en')).toBe('--');
    }
  });

  it('maps each language to one locale', () => {
    expect(localeOf('zh')).toBe('zh-CN');
    expect(localeOf('en')).toBe('en-GB');
  });
});
