import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { NO_VALUE, formatDateTime, formatEndTime } from '@nest/contracts';
import { getLang } from './i18n';

/**
 * Formatting adapters of the web client: the rules live in contracts (format.ts), dates included
 * (formatDateTime: one format per language). dayjs keeps the page language for the date pickers.
 */
dayjs.locale(getLang() === 'en' ? 'en' : 'zh-cn');

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
