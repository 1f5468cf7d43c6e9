import type { Lang, Text } from './i18n.js';
import { PERMANENT_END_TIME } from './constants.js';

/**
 * Display formatting rules of the SPEC (sections 2 and 9) as pure functions, used by browser and server
 * alike, dates and times included (one format per language, below). Values that are not finite numbers
 * format as '--'.
 */
export const NO_VALUE = '--';

export interface Quantity {
  value: string;
  unit: string;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Metres below 1000 (whole metres), else kilometres with 2 decimals: 1234 -> {value: '1.23', unit: 'km'}. */
export function formatDistance(metres: number): Quantity {
  if (!finite(metres)) return { value: NO_VALUE, unit: 'm' };
  const whole = Math.round(metres);
  if (Math.abs(whole) < 1000) return { value: String(whole === 0 ? 0 : whole), unit: 'm' };
  return { value: (metres / 1000).toFixed(2), unit: 'km' };
}

/** '999 m', '1.23 km'. */
export const formatDistanceText = (metres: number): string => quantityText(formatDistance(metres));

/** Square metres below 10000 (whole m²), else km² with 2 decimals. */
export function formatArea(squareMetres: number): Quantity {
  if (!finite(squareMetres)) return { value: NO_VALUE, unit: 'm²' };
  const whole = Math.round(squareMetres);
  if (Math.abs(whole) < 10_000) return { value: String(whole === 0 ? 0 : whole), unit: 'm²' };
  return { value: (squareMetres / 1_000_000).toFixed(2), unit: 'km²' };
}

/** '9999 m²', '0.01 km²'. */
export const formatAreaText = (squareMetres: number): string => quantityText(formatArea(squareMetres));

export const quantityText = (q: Quantity): string => `${q.value} ${q.unit}`;

const pad2 = (n: number): string => String(n).padStart(2, '0');
/** Whole, non-negative seconds of any input (fractions dropped, negatives and non-numbers count as 0). */
const wholeSeconds = (seconds: number): number => (finite(seconds) && seconds > 0 ? Math.floor(seconds) : 0);

/** Mission time 'hh:mm:ss'; hours are not capped (360000 s -> '100:00:00'). */
export function formatHms(seconds: number): string {
  const s = wholeSeconds(seconds);
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}

/** Estimated time 'mm:ss'; minutes are not capped (3600 s -> '60:00'). */
export function formatMmSs(seconds: number): string {
  const s = wholeSeconds(seconds);
  return `${pad2(Math.floor(s / 60))}:${pad2(s % 60)}`;
}

/** Eight compass directions, clockwise from north. Chinese names are plain directions (add 风 for wind). */
export const WIND_DIRECTIONS: readonly Text[] = [
  { zh: '北', en: 'North' },
  { zh: '东北', en: 'Northeast' },
  { zh: '东', en: 'East' },
  { zh: '东南', en: 'Southeast' },
  { zh: '南', en: 'South' },
  { zh: '西南', en: 'Southwest' },
  { zh: '西', en: 'West' },
  { zh: '西北', en: 'Northwest' },
];

/**
 * Index (0 north ... 7 northwest) of the 45° sector holding a direction in degrees; each name covers
 * 22.5° either side of its direction, a boundary belongs to the next sector clockwise. Any angle is
 * normalised first (-45 is northwest, 360 is north).
 */
export function windDirectionIndex(degrees: number): number {
  const d = ((degrees % 360) + 360) % 360;
  return Math.floor((d + 22.5) / 45) % 8;
}

/** Name of a wind direction in degrees; '--' for a non-number. */
export function windDirectionName(degrees: number, lang: Lang): string {
  if (!finite(degrees)) return NO_VALUE;
  return WIND_DIRECTIONS[windDirectionIndex(degrees)]![lang];
}

/** Speed in m/s with one decimal: '12.3 m/s'. */
export function formatSpeed(metresPerSecond: number): string {
  return finite(metresPerSecond) ? `${metresPerSecond.toFixed(1)} m/s` : NO_VALUE;
}

/** A value that already is a percentage (battery 0-100): formatPercent(56.4) -> '56%'. */
export function formatPercent(percent: number, digits = 0): string {
  return finite(percent) ? `${percent.toFixed(digits)}%` : NO_VALUE;
}

/**
 * File size from kilobytes (recordings' size_kb): '10 B', '512 KB', '1.5 MB', '2.00 GB'. Under one
 * kilobyte it counts bytes: a 10-byte file is not '0 KB'.
 */
export function formatSizeKb(kb: number): string {
  if (!finite(kb) || kb < 0) return NO_VALUE;
  if (kb < 1) return `${Math.round(kb * 1024)} B`;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  if (kb < 1024 * 1024) return `${(kb / 1024).toFixed(1)} MB`;
  return `${(kb / 1024 / 1024).toFixed(2)} GB`;
}

export const PERMANENT_TEXT: Text = { zh: '永久有效', en: 'Permanent' };

/** Whether an end time (seconds) means permanent validity. */
export const isPermanentEndTime = (seconds: number): boolean => finite(seconds) && seconds >= PERMANENT_END_TIME;

/**
 * An account's end time: the permanent word when at or beyond PERMANENT_END_TIME, else null so the
 * caller formats the date.
 */
export function formatEndTime(seconds: number, lang: Lang): string | null {
  return isPermanentEndTime(seconds) ? PERMANENT_TEXT[lang] : null;
}

// ------------------------------------------------------------------------------------------ dates

/**
 * The locale of a language, for the browser's number formatting (Intl) and the page's `lang` attribute:
 * zh-CN, and British English, whose day-month order and 24-hour clock match the dates below.
 */
export const localeOf = (lang: Lang): string => (lang === 'en' ? 'en-GB' : 'zh-CN');

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** Local calendar and clock parts of a time in ms; null for a non-number or an invalid date. */
function parts(ms: number): { y: number; mo: number; d: number; h: string; mi: string; s: string } | null {
  if (!finite(ms)) return null;
  const t = new Date(ms);
  if (Number.isNaN(t.getTime())) return null;
  return { y: t.getFullYear(), mo: t.getMonth(), d: t.getDate(), h: pad2(t.getHours()), mi: pad2(t.getMinutes()), s: pad2(t.getSeconds()) };
}

/**
 * Every date and time the product shows, in the viewer's local time zone, 24-hour clock, one format per
 * language:
 *
 * | function            | zh                    | en                      |
 * |---------------------|-----------------------|-------------------------|
 * | formatDateTime      | `2026-11-26 02:11:05` | `26 Nov 2026, 02:11:05` |
 * | formatDateTime, no seconds | `2026-11-26 02:11` | `26 Nov 2026, 02:11` |
 * | formatDate          | `2026-11-26`          | `26 Nov 2026`           |
 * | formatMonthDay      | `11-26`               | `26 Nov`                |
 * | formatMonthDayTime  | `11-26 02:11`         | `26 Nov, 02:11`         |
 * | formatTime          | `02:11:05` (or `02:11`) | the same              |
 *
 * Chinese keeps the numeric ISO order; English spells the month so that day and month cannot be
 * confused. Times are milliseconds since the epoch (multiply Unix seconds by 1000); a non-number or an
 * invalid date formats as '--'.
 */
export function formatDateTime(ms: number, lang: Lang, seconds = true): string {
  const p = parts(ms);
  if (!p) return NO_VALUE;
  const clock = seconds ? `${p.h}:${p.mi}:${p.s}` : `${p.h}:${p.mi}`;
  return `${formatDate(ms, lang)}${lang === 'en' ? ', ' : ' '}${clock}`;
}

/** The calendar day: '2026-11-26' / '26 Nov 2026' (see formatDateTime). */
export function formatDate(ms: number, lang: Lang): string {
  const p = parts(ms);
  if (!p) return NO_VALUE;
  return lang === 'en' ? `${p.d} ${MONTHS_EN[p.mo]} ${p.y}` : `${p.y}-${pad2(p.mo + 1)}-${pad2(p.d)}`;
}

/** Month and day without the year: '11-26' / '26 Nov' (see formatDateTime). */
export function formatMonthDay(ms: number, lang: Lang): string {
  const p = parts(ms);
  if (!p) return NO_VALUE;
  return lang === 'en' ? `${p.d} ${MONTHS_EN[p.mo]}` : `${pad2(p.mo + 1)}-${pad2(p.d)}`;
}

/** Month, day and minutes: '11-26 02:11' / '26 Nov, 02:11' (see formatDateTime). */
export function formatMonthDayTime(ms: number, lang: Lang): string {
  const p = parts(ms);
  if (!p) return NO_VALUE;
  return `${formatMonthDay(ms, lang)}${lang === 'en' ? ', ' : ' '}${p.h}:${p.mi}`;
}

/** The clock: '02:11:05', or '02:11' without seconds; the same in both languages (see formatDateTime). */
export function formatTime(ms: number, _lang: Lang, seconds = true): string {
  const p = parts(ms);
  if (!p) return NO_VALUE;
  return seconds ? `${p.h}:${p.mi}:${p.s}` : `${p.h}:${p.mi}`;
}
