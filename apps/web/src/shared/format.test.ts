import { afterEach, describe, expect, it } from 'vitest';
import { PERMANENT_END_TIME } from '@nest/contracts';
import { applyLang } from './i18n';
import { formatAccountEnd, formatSeconds } from './format';

afterEach(() => applyLang('zh'));

describe('dates of the web client', () => {
  // Local parts, so the expectations hold in any time zone.
  const seconds = new Date(2026, 10, 26, 2, 11, 5).getTime() / 1000;

  it('one format per page language: zh numeric, en with the month spelled out, both 24-hour', () => {
    applyLang('zh');
    expect(formatSeconds(seconds)).toBe('2026-11-26 02:11:05');
    expect(formatAccountEnd(seconds)).toBe('2026-11-26 02:11:05');
    applyLang('en');
    expect(formatSeconds(seconds)).toBe('26 Nov 2026, 02:11:05');
    expect(formatAccountEnd(PERMANENT_END_TIME)).toBe('Permanent');
  });

  it('no value for 0 or a missing time', () => {
    expect(formatSeconds(0)).toBe('--');
    expect(formatSeconds(null)).toBe('--');
    expect(formatSeconds(undefined)).toBe('--');
  });
});
