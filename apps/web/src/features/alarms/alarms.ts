import { useSyncExternalStore } from 'react';
import {
  AlarmKind,
  FlowStep,
  NestPart,
  alarmPush,
  alarmText,
  callFunId,
  calls,
  holds,
  type Alarm,
  type AlarmPush,
  type CallFields,
  type Lang,
} from '@nest/contracts';
import { t } from '../../shared/i18n';

/** Function ids guarding the alarm calls (the registry's paths). */
export const ALARM_LIST_FUNCTION = callFunId(calls.alarmList.path);
export const ALARM_PROCESS_FUNCTION = callFunId(calls.alarmProcess.path);
export const ALARM_STATS_FUNCTION = callFunId(calls.alarmStats.path);

export const canListAlarms = (funList: readonly string[] | undefined): boolean => holds(funList, ALARM_LIST_FUNCTION);
export const canProcessAlarms = (funList: readonly string[] | undefined): boolean => holds(funList, ALARM_PROCESS_FUNCTION);

/** Colours of AlarmLevel (30 high, 20 medium, 10 low), shared by tags, bars and the ring. */
export const LEVEL_COLOR: Readonly<Record<number, string>> = { 30: '#f5484a', 20: '#f7a531', 10: '#3aa8ff' };
export const levelColor = (level: number): string => LEVEL_COLOR[level] ?? '#8a94a6';

/** Words for an alarm's `detail`: the nest part, the flow step, or the TF card problem. */
export function alarmDetailLabel(kind: string, detail: string, lang: Lang): string {
  if (kind === 'nest_part_fault' && NestPart.has(detail)) return NestPart.label(detail, lang);
  if (kind === 'flow_failed' && FlowStep.has(detail)) return FlowStep.label(detail, lang);
  if (kind === 'tf_card') {
    if (detail === 'missing') return t('alarms.tfCard.missing', undefined, lang);
    if (detail === 'full') return t('alarms.tfCard.full', undefined, lang);
  }
  return detail;
}

export const describeAlarm = (a: Pick<Alarm, 'kind' | 'value' | 'detail'>, lang: Lang): string => alarmText(a, lang, alarmDetailLabel);

export const kindOptions = (lang: Lang) => AlarmKind.options(lang);

// ------------------------------------------------------------------ filters -> call fields

export interface AlarmFilter {
  level?: number;
  state?: number;
  kind?: string;
  snId?: string;
  /** Local day range [from, to] in ms (start of the first day, any time in the last day). */
  range?: [number, number] | null;
}

export const ALARM_PAGE_SIZE = 20;

const endOfDaySeconds = (ms: number): number => {
  const d = new Date(ms);
  d.setHours(23, 59, 59, 999);
  return Math.floor(d.getTime() / 1000);
};
const startOfDaySeconds = (ms: number): number => {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
};

/**
 * The fields of /alarm/list for a filter and a table page (1-based, as antd counts; the call's pages start
 * at 0): only what is set, the date range as whole local days.
 */
export function alarmListFields(filter: AlarmFilter, page: number, size = ALARM_PAGE_SIZE): CallFields<'alarmList'> {
  const f: CallFields<'alarmList'> = { page: Math.max(0, page - 1), size };
  if (filter.level) f.level = filter.level;
  if (filter.state) f.state = filter.state;
  if (filter.kind) f.kind = filter.kind;
  if (filter.snId?.trim()) f.sn_id = filter.snId.trim();
  if (filter.range) {
    f.start_time = startOfDaySeconds(filter.range[0]);
    f.end_time = endOfDaySeconds(filter.range[1]);
  }
  return f;
}

/** Whether an alarm (from push 370) belongs to what a filter shows. */
export function matchesFilter(a: Alarm, filter: AlarmFilter): boolean {
  if (filter.level && a.level !== filter.level) return false;
  if (filter.state && a.state !== filter.state) return false;
  if (filter.kind && a.kind !== filter.kind) return false;
  if (filter.snId?.trim() && a.sn_id !== filter.snId.trim()) return false;
  if (filter.range) {
    const s = a.raised_at / 1000;
    if (s < startOfDaySeconds(filter.range[0]) || s > endOfDaySeconds(filter.range[1])) return false;
  }
  return true;
}

/**
 * A 370 applied to the rows shown: a changed alarm is replaced in place (cleared, processed); a raised one
 * that matches the filter goes on top of the first page. Answers the rows and the change of the total.
 */
export function applyAlarmPush(rows: readonly Alarm[], push: AlarmPush, filter: AlarmFilter, page: number): { rows: Alarm[]; added: number } {
  const i = rows.findIndex((r) => r.id === push.alarm.id);
  if (i >= 0) {
    if (!matchesFilter(push.alarm, filter)) return { rows: rows.filter((_, j) => j !== i), added: -1 };
    const next = rows.slice();
    next[i] = push.alarm;
    return { rows: next, added: 0 };
  }
  if (push.event === 'raised' && page === 1 && matchesFilter(push.alarm, filter)) {
    return { rows: [push.alarm, ...rows].slice(0, Math.max(rows.length, ALARM_PAGE_SIZE)), added: 1 };
  }
  return { rows: rows as Alarm[], added: 0 };
}

// ------------------------------------------------------------------ the news store (header badge, popover, drawer)

/** How many newest alarms the header popover keeps. */
export const NEWS_LIMIT = 6;

export interface NewsState {
  /** Pending alarms of the company; null until known. */
  pending: number | null;
  /** Newest alarms first (from /alarm/list on sign-in, then 370). */
  latest: Alarm[];
  /** Whether the alarm center drawer is open. */
  centerOpen: boolean;
  /** Bumped on every 370, so open views can react. */
  version: number;
}

const initial: NewsState = { pending: null, latest: [], centerOpen: false, version: 0 };
let news: NewsState = initial;
const listeners = new Set<() => void>();

function setNews(next: NewsState): void {
  news = next;
  listeners.forEach((l) => l());
}

export const getNews = (): NewsState => news;
export const resetNews = (): void => setNews(initial);

export function useNews(): NewsState {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    getNews,
    getNews,
  );
}

/** The first answer of /alarm/list: its pending count and newest rows. */
export function seedNews(pending: number, latest: readonly Alarm[]): void {
  setNews({ ...news, pending, latest: latest.slice(0, NEWS_LIMIT) });
}

/** A pending count known otherwise (the equipment record, an /alarm/process answer). */
export function setPending(pending: number): void {
  if (news.pending !== pending) setNews({ ...news, pending });
}

/**
 * A 370 message: the pending count it carries wins; the alarm replaces its older copy or goes on top.
 * Answers the parsed push (null when malformed, which changes nothing).
 */
export function receiveAlarmPush(data: unknown): AlarmPush | null {
  const parsed = alarmPush.safeParse(data);
  if (!parsed.success) return null;
  const { alarm, pending } = parsed.data;
  const rest = news.latest.filter((a) => a.id !== alarm.id);
  const latest = (parsed.data.event === 'raised' ? [alarm, ...rest] : news.latest.map((a) => (a.id === alarm.id ? alarm : a))).slice(0, NEWS_LIMIT);
  setNews({ ...news, pending, latest, version: news.version + 1 });
  return parsed.data;
}

export const openAlarmCenter = (): void => setNews({ ...news, centerOpen: true });
export const closeAlarmCenter = (): void => setNews({ ...news, centerOpen: false });
