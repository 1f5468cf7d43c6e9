import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { NO_VALUE, formatEndTime } from '@nest/contracts';
import { getLang } from './i18n';

/**
 * Formatting adapters of the web client: the rules live in contracts (format.ts); dates are formatted here
 * with dayjs in the page language, as contracts leaves them to the browser.
 */
dayjs.locale(getLang() === 'en' ? 'en' : 'zh-cn');

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Seconds since the epoch as YYYY-MM-DD HH:mm:ss (contracts' NO_VALUE for 0 / missing). */
export function formatSeconds(seconds: number | null | undefined): string {
  if (!seconds || !Number.isFinite(seconds)) return NO_VALUE;
  return dayjs.unix(seconds).format(DATE_TIME_FORMAT);
}

/** An account's end time: contracts' permanent word from PERMANENT_END_TIME on, else the date. */
export function formatAccountEnd(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number') return NO_VALUE;
  return formatEndTime(seconds, getLang()) ?? formatSeconds(seconds);
}
