import { ANALYSIS_MAX_DAYS, AchievementType, AlarmLevel, formatDistance, formatHms, type Analysis, type Lang } from '@nest/contracts';

/**
 * Pure logic of the data analysis screen: period presets, url query, series of the charts and the tables,
 * CSV building. No React, no DOM, so every rule is tested on its own.
 */

export const PRESETS = ['last7', 'last30', 'thisMonth', 'lastMonth', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];
export const DEFAULT_PRESET: Exclude<Preset, 'custom'> = 'last7';

export interface Period {
  start: number;
  end: number;
}

const DAY = 86_400;
const MIN = 60;

/**
 * Midnight (in seconds since the epoch) of the calendar day holding `t` in a zone `tz` minutes east of UTC.
 * Periods are computed in the zone the server groups days by, so the first and last bars are whole days.
 */
export function dayStart(t: number, tz: number): number {
  const local = t + tz * MIN;
  return local - (((local % DAY) + DAY) % DAY) - tz * MIN;
}

/** Year and month (0-based) of `t` in zone `tz`. */
function monthOf(t: number, tz: number): { y: number; m: number } {
  const d = new Date((t + tz * MIN) * 1000);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() };
}

const monthStart = (y: number, m: number, tz: number): number => Date.UTC(y, m, 1) / 1000 - tz * MIN;

/**
 * The period of a preset at `now` (s) in zone `tz`: last 7 / 30 days end now and start at midnight 6 / 29
 * days before today (today counts as a day); this month runs from its first midnight to now; last month is
 * the whole previous month (ending one second before this month starts).
 */
export function presetPeriod(preset: Exclude<Preset, 'custom'>, now: number, tz: number): Period {
  const today = dayStart(now, tz);
  switch (preset) {
    case 'last7':
      return { start: today - 6 * DAY, end: now };
    case 'last30':
      return { start: today - 29 * DAY, end: now };
    case 'thisMonth': {
      const { y, m } = monthOf(now, tz);
      return { start: monthStart(y, m, tz), end: now };
    }
    case 'lastMonth': {
      const { y, m } = monthOf(now, tz);
      const start = monthStart(m === 0 ? y - 1 : y, m === 0 ? 11 : m - 1, tz);
      return { start, end: monthStart(y, m, tz) - 1 };
    }
  }
}

/** A custom range of whole days: midnight of the first day to the last second of the last one. */
export function customPeriod(firstDay: number, lastDay: number, tz: number): Period {
  const start = dayStart(Math.min(firstDay, lastDay), tz);
  const end = dayStart(Math.max(firstDay, lastDay), tz) + DAY - 1;
  return { start, end };
}

export type PeriodProblem = 'order' | 'tooLong' | null;

/** Why a period cannot be asked for (the server refuses the same), or null. */
export function periodProblem(p: Period): PeriodProblem {
  if (!Number.isFinite(p.start) || !Number.isFinite(p.end) || p.start > p.end) return 'order';
  if (p.end - p.start > ANALYSIS_MAX_DAYS * DAY) return 'tooLong';
  return null;
}

export interface Selection {
  preset: Preset;
  /** Only for 'custom': the range in seconds. */
  period: Period | null;
  sns: string[];
}

/** Selection from the url query (`range`, `start`, `end`, `sn`): unknown or broken values fall back to defaults. */
export function selectionFromQuery(q: URLSearchParams): Selection {
  const raw = q.get('range') ?? '';
  const preset: Preset = (PRESETS as readonly string[]).includes(raw) ? (raw as Preset) : DEFAULT_PRESET;
  const sns = (q.get('sn') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const uniq = [...new Set(sns)];
  if (preset !== 'custom') return { preset, period: null, sns: uniq };
  const start = Number(q.get('start'));
  const end = Number(q.get('end'));
  const period = { start, end };
  if (!q.get('start') || !q.get('end') || periodProblem(period)) return { preset: DEFAULT_PRESET, period: null, sns: uniq };
  return { preset, period, sns: uniq };
}

/** The url query of a selection (the inverse of selectionFromQuery). */
export function selectionToQuery(s: Selection): URLSearchParams {
  const q = new URLSearchParams();
  q.set('range', s.preset);
  if (s.preset === 'custom' && s.period) {
    q.set('start', String(s.period.start));
    q.set('end', String(s.period.end));
  }
  if (s.sns.length) q.set('sn', s.sns.join(','));
  return q;
}

/** The period a selection stands for at `now` in zone `tz`. */
export function periodOf(s: Selection, now: number, tz: number): Period {
  if (s.preset !== 'custom') return presetPeriod(s.preset, now, tz);
  return s.period ?? presetPeriod(DEFAULT_PRESET, now, tz);
}

// ---------------------------------------------------------------------------------------------------------
// Figures

export const RESULT_TYPES = [10, 15, 20] as const;
/** High first: the order of legends, stacks and columns. */
export const ALARM_LEVELS = [30, 20, 10] as const;

const sum = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0);

export interface Kpis {
  sorties: number;
  flightSeconds: number;
  distance: number;
  results: number;
  alarms: number;
  /** 0..1, mean over the devices analysed; null without devices. */
  onlineRate: number | null;
}

export function kpisOf(a: Analysis): Kpis {
  const rates = a.devices.map((d) => d.online_rate);
  return {
    sorties: a.totals.sorties,
    flightSeconds: a.totals.flight_seconds,
    distance: a.totals.distance,
    results: sum(a.totals.results),
    alarms: sum(a.totals.alarms),
    onlineRate: rates.length ? rates.reduce((x, y) => x + y, 0) / rates.length : null,
  };
}

/** Nothing happened in the period (no sortie, result, alarm, nor any online time): the screen says so. */
export function isEmptyAnalysis(a: Analysis): boolean {
  const k = kpisOf(a);
  return k.sorties === 0 && k.results === 0 && k.alarms === 0 && k.flightSeconds === 0 && a.devices.every((d) => d.online_seconds === 0);
}

/** Kilometres with 2 decimals, the unit of the mileage axis and columns (SPEC: km from 1000 m). */
export const km = (metres: number): number => Math.round(metres / 10) / 100;
/** Hours with 2 decimals, the unit of the flight time axis. */
export const hours = (seconds: number): number => Math.round(seconds / 36) / 100;
/** Minutes with 1 decimal, the flight time axis of short periods. */
export const minutes = (seconds: number): number => Math.round(seconds / 6) / 10;
/** Percent with 1 decimal from a 0..1 share. */
export const percent = (share: number): number => Math.round(share * 1000) / 10;

export const distanceText = (metres: number): string => {
  const q = formatDistance(metres);
  return `${q.value} ${q.unit}`;
};
export const percentText = (share: number | null): string => (share === null || !Number.isFinite(share) ? '--' : `${percent(share).toFixed(1)}%`);

/** 'MM-DD' axis labels for periods within one year, full dates otherwise. */
export function dayLabels(days: readonly string[]): string[] {
  const years = new Set(days.map((d) => d.slice(0, 4)));
  return years.size > 1 ? [...days] : days.map((d) => d.slice(5));
}

export interface Series {
  days: string[];
  sorties: number[];
  flightSeconds: number[];
  distance: number[];
  alarms: Record<(typeof ALARM_LEVELS)[number], number[]>;
  results: { type: (typeof RESULT_TYPES)[number]; count: number }[];
  devices: { sn: string; name: string; utilisation: number; onlineRate: number }[];
}

/** The chart series of an answer: per day in day order, results by type, devices by name. */
export function seriesOf(a: Analysis): Series {
  const days = [...a.days].sort((x, y) => x.day.localeCompare(y.day));
  return {
    days: days.map((d) => d.day),
    sorties: days.map((d) => d.sorties),
    flightSeconds: days.map((d) => d.flight_seconds),
    distance: days.map((d) => d.distance),
    alarms: { 30: days.map((d) => d.alarms['30']), 20: days.map((d) => d.alarms['20']), 10: days.map((d) => d.alarms['10']) },
    results: RESULT_TYPES.map((type) => ({ type, count: a.totals.results[String(type) as '10'] })),
    devices: [...a.devices]
      .sort((x, y) => x.name.localeCompare(y.name) || x.sn_id.localeCompare(y.sn_id))
      .map((d) => ({ sn: d.sn_id, name: d.name || d.sn_id, utilisation: d.utilisation, onlineRate: d.online_rate })),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Tables (what each panel shows as a table and exports as CSV)

export const PANELS = ['sorties', 'flight', 'results', 'devices', 'alarms'] as const;
export type PanelName = (typeof PANELS)[number];

/** Column headers come from the caller (translated); cells are display text or raw numbers. */
export type Cell = string | number;
export interface Table {
  /** Header keys, resolved to text by the caller through `label`. */
  columns: string[];
  rows: Cell[][];
}

/**
 * The table of a panel. Formatted columns (hh:mm:ss, km) sit beside raw ones (seconds, metres) so a
 * spreadsheet can compute with the raw ones. `label` names a column from its key.
 */
export function tableOf(panel: PanelName, a: Analysis, lang: Lang): Table {
  const s = seriesOf(a);
  const byDay = [...a.days].sort((x, y) => x.day.localeCompare(y.day));
  switch (panel) {
    case 'sorties':
      return { columns: ['day', 'sorties'], rows: byDay.map((d) => [d.day, d.sorties]) };
    case 'flight':
      return {
        columns: ['day', 'flightTime', 'flightSeconds', 'mileage', 'mileageMetres'],
        rows: byDay.map((d) => [d.day, formatHms(d.flight_seconds), Math.round(d.flight_seconds), distanceText(d.distance), Math.round(d.distance)]),
      };
    case 'results': {
      const total = s.results.reduce((x, r) => x + r.count, 0);
      return {
        columns: ['resultType', 'count', 'share'],
        rows: s.results.map((r) => [AchievementType.label(r.type, lang), r.count, total ? percentText(r.count / total) : '--']),
      };
    }
    case 'devices':
      return {
        columns: ['device', 'sn', 'sorties', 'flightTime', 'mileage', 'results', 'alarms', 'onlineTime', 'onlineRate', 'utilisation'],
        rows: [...a.devices]
          .sort((x, y) => x.name.localeCompare(y.name) || x.sn_id.localeCompare(y.sn_id))
          .map((d) => [
            d.name || d.sn_id,
            d.sn_id,
            d.sorties,
            formatHms(d.flight_seconds),
            distanceText(d.distance),
            d.results,
            d.alarms,
            formatHms(d.online_seconds),
            percentText(d.online_rate),
            percentText(d.utilisation),
          ]),
      };
    case 'alarms':
      return {
        columns: ['day', ...ALARM_LEVELS.map((l) => `level${l}`), 'total'],
        rows: byDay.map((d) => [d.day, d.alarms['30'], d.alarms['20'], d.alarms['10'], d.alarms['30'] + d.alarms['20'] + d.alarms['10']]),
      };
  }
}

/** Alarm level label used for the `level30` style column keys. */
export const alarmLevelLabel = (level: number, lang: Lang): string => AlarmLevel.label(level, lang);

// ---------------------------------------------------------------------------------------------------------
// CSV

/** UTF-8 byte order mark: Excel reads the file as UTF-8 only with it (Chinese headers otherwise garble). */
export const BOM = '\uFEFF';

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, or line break, quotes doubled. Fields that
 * a spreadsheet would run as a formula (=, +, -, @ first, not a number) get a leading apostrophe.
 */
export function csvField(v: Cell): string {
  let s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s) && !/^[-+]?\d/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Lines of fields, CRLF separated, BOM first (when asked, once per file). */
export function csvOf(rows: readonly (readonly Cell[])[], withBom = true): string {
  return (withBom ? BOM : '') + rows.map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** File name piece of a period, e.g. 2026-11-16_2026-11-22, in zone `tz`. */
export function periodSlug(p: Period, tz: number): string {
  const d = (t: number) => new Date((t + tz * MIN) * 1000).toISOString().slice(0, 10);
  return `${d(p.start)}_${d(p.end)}`;
}
