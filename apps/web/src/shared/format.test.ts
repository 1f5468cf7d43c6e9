import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { PERMANENT_END_TIME, formatDate, formatDateTime } from '@nest/contracts';
import { applyLang } from './i18n';
import { PICKER_FORMATS, formatAccountEnd, formatSeconds } from './format';

// antd's pickers read typed dates with this plugin.
dayjs.extend(customParseFormat);

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

describe('date pickers', () => {
  it('show and read dates in the same form as the tables print them, per language, and follow a language change', () => {
    // A minute picked in each month of a year, morning and afternoon.
    for (let month = 0; month < 12; month++) {
      const d = new Date(2026, month, (month * 3) % 28 + 1, month % 2 ? 14 : 9, month * 5);
      for (const lang of ['zh', 'en'] as const) {
        applyLang(lang);
        const shown = dayjs(d).format(PICKER_FORMATS[lang].dateTime);
        expect(shown).toBe(formatDateTime(d.getTime(), lang, false));
        expect(dayjs(d).format(PICKER_FORMATS[lang].date)).toBe(formatDate(d.getTime(), lang));
        // What the picker shows is read back to the same minute.
        expect(dayjs(shown, PICKER_FORMATS[lang].dateTime, true).valueOf()).toBe(d.getTime());
      }
    }
  });
});
