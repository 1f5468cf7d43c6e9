import dayjs from 'dayjs';
import { AchievementType, MissionType, SORTIE_ORDERS, type SortieOrder } from '@nest/contracts';

/**
 * Filter state of the results and sortie screens, kept in the URL query so that links, reloads and the
 * back button give the same view. Bad or foreign values in a hand-edited URL are dropped, never sent.
 */
export interface ResultFilter {
  type: number | null;
  sn: string | null;
  sortId: string | null;
  /** Local calendar days, YYYY-MM-DD, inclusive. */
  from: string | null;
  to: string | null;
  search: string;
  /** 0-based. */
  page: number;
}

export const EMPTY_RESULT_FILTER: ResultFilter = { type: null, sn: null, sortId: null, from: null, to: null, search: '', page: 0 };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
// Round-trip check: dayjs rolls 2026-13-45 over into a later date instead of rejecting it.
const validDay = (v: string | null): string | null => (v && DAY.test(v) && dayjs(v).format('YYYY-MM-DD') === v ? v : null);
const text = (v: string | null, max = 64): string | null => {
  const s = (v ?? '').trim();
  return s && s.length <= max ? s : null;
};
const nonNegInt = (v: string | null): number => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : 0;
};

export function readResultFilter(q: URLSearchParams): ResultFilter {
  const type = Number(q.get('type'));
  let from = validDay(q.get('from'));
  let to = validDay(q.get('to'));
  if (from && to && from > to) [from, to] = [to, from];
  return {
    type: AchievementType.has(type) ? type : null,
    sn: text(q.get('sn_id')),
    sortId: text(q.get('sort_id')),
    from,
    to,
    search: text(q.get('q')) ?? '',
    page: nonNegInt(q.get('page')),
  };
}

/** The query of a filter, other keys of `base` (e.g. the view) kept; defaults are left out for short links. */
export function writeResultFilter(f: ResultFilter, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const q = new URLSearchParams(base);
  const set = (k: string, v: string | number | null) => (v === null || v === '' || v === 0 ? q.delete(k) : q.set(k, String(v)));
  set('type', f.type);
  set('sn_id', f.sn);
  set('sort_id', f.sortId);
  set('from', f.from);
  set('to', f.to);
  set('q', f.search.trim());
  set('page', f.page);
  return q;
}

/** Seconds bounds of a day range: the first day's start to the last day's end, local time. */
export function dayBounds(from: string | null, to: string | null): { start_time?: number; end_time?: number } {
  return {
    ...(from ? { start_time: dayjs(from).startOf('day').unix() } : {}),
    ...(to ? { end_time: dayjs(to).endOf('day').unix() } : {}),
  };
}

/** resultList fields of a filter. */
export function resultListFields(f: ResultFilter, size: number, extra: { located?: 1 } = {}) {
  return {
    page: f.page,
    size,
    ...(f.type !== null ? { type: f.type } : {}),
    ...(f.sn ? { sn_id: f.sn } : {}),
    ...(f.sortId ? { sort_id: f.sortId } : {}),
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...dayBounds(f.from, f.to),
    ...extra,
  };
}

// ------------------------------------------------------------------------------------------ sorties

export interface SortieFilter {
  sn: string | null;
  search: string;
  missionType: number | null;
  from: string | null;
  to: string | null;
  order: SortieOrder;
  asc: boolean;
  page: number;
  size: number;
}

export const SORTIE_PAGE_SIZES = [10, 20, 50, 100] as const;
export const EMPTY_SORTIE_FILTER: SortieFilter = {
  sn: null,
  search: '',
  missionType: null,
  from: null,
  to: null,
  order: 'start_time',
  asc: false,
  page: 0,
  size: 20,
};

export function readSortieFilter(q: URLSearchParams): SortieFilter {
  const r = readResultFilter(q);
  const mt = Number(q.get('mission_type'));
  const order = q.get('order') ?? '';
  const size = Number(q.get('size'));
  return {
    sn: r.sn,
    search: r.search,
    missionType: MissionType.has(mt) ? mt : null,
    from: r.from,
    to: r.to,
    order: (SORTIE_ORDERS as readonly string[]).includes(order) ? (order as SortieOrder) : 'start_time',
    asc: q.get('asc') === '1',
    page: r.page,
    size: (SORTIE_PAGE_SIZES as readonly number[]).includes(size) ? size : EMPTY_SORTIE_FILTER.size,
  };
}

export function writeSortieFilter(f: SortieFilter): URLSearchParams {
  const q = writeResultFilter({ ...EMPTY_RESULT_FILTER, sn: f.sn, search: f.search, from: f.from, to: f.to, page: f.page });
  if (f.missionType !== null) q.set('mission_type', String(f.missionType));
  if (f.order !== 'start_time') q.set('order', f.order);
  if (f.asc) q.set('asc', '1');
  if (f.size !== EMPTY_SORTIE_FILTER.size) q.set('size', String(f.size));
  return q;
}

export function sortiesListFields(f: SortieFilter) {
  return {
    page: f.page,
    size: f.size,
    order: f.order,
    asc: f.asc ? 1 : 0,
    ...(f.sn ? { sn_id: f.sn } : {}),
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(f.missionType !== null ? { mission_type: f.missionType } : {}),
    ...dayBounds(f.from, f.to),
  };
}

/** Table column key of each server order. */
export const ORDER_COLUMN: Readonly<Record<SortieOrder, string>> = {
  start_time: 'start',
  duration: 'duration',
  distance: 'distance',
  count: 'count',
};

/**
 * antd Table's sorter change to the server order. Clearing the sort (third click) goes back to the
 * default, newest first.
 */
export function sorterToOrder(columnKey: unknown, direction: 'ascend' | 'descend' | null | undefined): { order: SortieOrder; asc: boolean } {
  const order = (Object.keys(ORDER_COLUMN) as SortieOrder[]).find((o) => ORDER_COLUMN[o] === columnKey);
  if (!order || !direction) return { order: 'start_time', asc: false };
  return { order, asc: direction === 'ascend' };
}

/** Seconds a sortie lasted (until now while in flight). */
export function sortieDuration(s: { start_time: number; end_time: number }, nowS: number = Date.now() / 1000): number {
  const end = s.end_time > 0 ? s.end_time : nowS;
  return Math.max(0, Math.round(end - s.start_time));
}

// ------------------------------------------------------------------------------------------ selection

/** Toggles one id in a selection, keeping the order ids were picked in. */
export function toggleSelection<T>(selected: readonly T[], id: T, on: boolean): T[] {
  const has = selected.includes(id);
  if (on && !has) return [...selected, id];
  if (!on && has) return selected.filter((x) => x !== id);
  return [...selected];
}

/** Selects every id of the shown page, or clears them when they are all selected already. */
export function toggleAll<T>(selected: readonly T[], shown: readonly T[]): T[] {
  const all = shown.length > 0 && shown.every((id) => selected.includes(id));
  if (all) return selected.filter((id) => !shown.includes(id));
  return [...selected, ...shown.filter((id) => !selected.includes(id))];
}

/** Drops selected ids no longer in the list (deleted elsewhere, filtered away). */
export function pruneSelection<T>(selected: readonly T[], present: readonly T[]): T[] {
  const set = new Set(present);
  return selected.filter((id) => set.has(id));
}

/** Index of the neighbour for prev/next browsing; null at either end. */
export function neighbour(length: number, index: number, step: -1 | 1): number | null {
  const next = index + step;
  return index < 0 || next < 0 || next >= length ? null : next;
}

/** Bytes as B, KB, MB or GB with up to one decimal. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '--';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return `${i === 0 ? v : v.toFixed(1).replace(/\.0$/, '')} ${units[i]}`;
}

/** Whether any filter narrows the list (decides between "no results yet" and "none match"). */
export const isFiltered = (f: Pick<ResultFilter, 'type' | 'sn' | 'sortId' | 'from' | 'to' | 'search'>): boolean =>
  f.type !== null || !!f.sn || !!f.sortId || !!f.from || !!f.to || !!f.search.trim();

export type PanoramaSource = { kind: 'none'; id: null; url: '' } | { kind: 'id'; id: string; url: '' } | { kind: 'url'; id: string | null; url: string };

/**
 * What /panorama shows: ?url= (a same-site path, so the page cannot be pointed at foreign content) and/or
 * ?id= (a result id, looked up for its facts). Anything else is no source.
 */
export function panoramaSource(q: URLSearchParams): PanoramaSource {
  const rawId = (q.get('id') ?? '').trim();
  const id = /^[\w-]{1,64}$/.test(rawId) ? rawId : null;
  const url = (q.get('url') ?? '').trim();
  if (url.startsWith('/') && !url.startsWith('//') && !/[\s\\]/.test(url)) return { kind: 'url', id, url };
  if (id !== null) return { kind: 'id', id, url: '' };
  return { kind: 'none', id: null, url: '' };
}
