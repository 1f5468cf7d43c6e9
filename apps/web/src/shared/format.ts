import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { NO_VALUE, formatDateTime, formatEndTime } from '@nest/contracts';
import { getLang, onLangChange } from './i18n';

/**
 * Formatting adapters of the web client: the rules live in contracts (format.ts), dates included
 * (formatDateTime: one format per language). dayjs keeps the page language for the date pickers.
 */
const pickerLocale = () => dayjs.locale(getLang() === 'en' ? 'en' : 'zh-cn');
pickerLocale();
// A language changed without a reload (the sign-in screen's switch) reaches the pickers' month names too.
onLangChange(pickerLocale);

/**
 * What the date pickers show and read, per language: the same forms as contracts' formatDate and
 * formatDateTime without seconds ('2026-11-26 02:11' / '26 Nov 2026, 02:11'), so a picked time reads as the
 * tables print it.
 */
export const PICKER_FORMATS = {
  zh: { date: 'YYYY-MM-DD', dateTime: 'YYYY-MM-DD HH:mm' },
  en: { date: 'D MMM YYYY', dateTime: 'D MMM YYYY, HH:mm' },
} as const;

/** Seconds since the epoch in the page language, contracts' formatDateTime (NO_VALUE for 0 / missing). */
export function formatSeconds(seconds: number | null | undefined): string {
  if (!seconds || !Number.isFinite(seconds)) return NO_VALUE;
  return formatDateTime(seconds * 1000, getLang());
}

/** An account's end time: contracts' permanent word from PERMANENT_END_TIME on, else the date. */
export function formatAccountEnd(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number') return NO_VALUE;
  return formatEndTime(seconds, getLang()) ?? formatSeconds(seconds);
}
