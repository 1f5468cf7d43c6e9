import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import {
  EMPTY_RESULT_FILTER,
  EMPTY_SORTIE_FILTER,
  formatBytes,
  isFiltered,
  neighbour,
  panoramaSource,
  pruneSelection,
  readResultFilter,
  readSortieFilter,
  resultListFields,
  sortieDuration,
  sorterToOrder,
  sortiesListFields,
  toggleAll,
  toggleSelection,
  writeResultFilter,
  writeSortieFilter,
} from './query';
import { spreadPositions } from './mapPoints';

const q = (s: string) => new URLSearchParams(s);

describe('result filter in the url', () => {
  it('reads every filter and round-trips through the query', () => {
    const f = readResultFilter(q('type=15&sn_id=SIM-1&sort_id=abc&from=2026-11-01&to=2026-11-20&q=%20pano%20&page=2'));
    expect(f).toEqual({ type: 15, sn: 'SIM-1', sortId: 'abc', from: '2026-11-01', to: '2026-11-20', search: 'pano', page: 2 });
    expect(readResultFilter(writeResultFilter(f))).toEqual(f);
  });

  it('drops bad values of a hand-edited url instead of sending them', () => {
    expect(readResultFilter(q('type=11&page=-3&from=2026-13-45&to=yesterday&q=' + 'x'.repeat(65)))).toEqual(EMPTY_RESULT_FILTER);
    expect(readResultFilter(q('page=1.5')).page).toBe(0);
  });

  it('swaps a reversed day range', () => {
    const f = readResultFilter(q('from=2026-11-20&to=2026-11-01'));
    expect([f.from, f.to]).toEqual(['2026-11-01', '2026-11-20']);
  });

  it('keeps other keys (the view) and leaves defaults out of the link', () => {
    const out = writeResultFilter({ ...EMPTY_RESULT_FILTER, type: 20 }, q('view=map&page=3'));
    expect(out.toString()).toBe('view=map&type=20');
  });

  it('tells a filtered list from an unfiltered one', () => {
    expect(isFiltered(EMPTY_RESULT_FILTER)).toBe(false);
    expect(isFiltered({ ...EMPTY_RESULT_FILTER, sortId: 'x' })).toBe(true);
    expect(isFiltered({ ...EMPTY_RESULT_FILTER, search: '  ' })).toBe(false);
  });
});

describe('resultList fields', () => {
  it('maps the filter to the call, days to whole local days in seconds', () => {
    const f = readResultFilter(q('type=10&sn_id=SN&sort_id=S1&from=2026-11-01&to=2026-11-02&q=abc&page=1'));
    expect(resultListFields(f, 48, { located: 1 })).toEqual({
      page: 1,
      size: 48,
      type: 10,
      sn_id: 'SN',
      sort_id: 'S1',
      search: 'abc',
      start_time: dayjs('2026-11-01').startOf('day').unix(),
      end_time: dayjs('2026-11-02').endOf('day').unix(),
      located: 1,
    });
  });

  it('sends nothing for unset filters', () => {
    expect(resultListFields(EMPTY_RESULT_FILTER, 20)).toEqual({ page: 0, size: 20 });
  });
});

describe('sortie filter and sorting', () => {
  it('round-trips and maps to sortiesList fields', () => {
    const f = readSortieFilter(q('sn_id=SN&q=patrol&mission_type=2&order=distance&asc=1&page=3&size=50&from=2026-11-05'));
    expect(readSortieFilter(writeSortieFilter(f))).toEqual(f);
    expect(sortiesListFields(f)).toEqual({
      page: 3,
      size: 50,
      order: 'distance',
      asc: 1,
      sn_id: 'SN',
      search: 'patrol',
      mission_type: 2,
      start_time: dayjs('2026-11-05').startOf('day').unix(),
    });
  });

  it('falls back to newest first for unknown orders, types and page sizes', () => {
    const f = readSortieFilter(q('order=name&mission_type=9&size=7'));
    expect(f).toEqual(EMPTY_SORTIE_FILTER);
    expect(sortiesListFields(f)).toEqual({ page: 0, size: 20, order: 'start_time', asc: 0 });
    expect(writeSortieFilter(f).toString()).toBe('');
  });

  it('maps table sorters to the server order', () => {
    expect(sorterToOrder('duration', 'ascend')).toEqual({ order: 'duration', asc: true });
    expect(sorterToOrder('count', 'descend')).toEqual({ order: 'count', asc: false });
    expect(sorterToOrder('start', 'ascend')).toEqual({ order: 'start_time', asc: true });
    expect(sorterToOrder('distance', null)).toEqual({ order: 'start_time', asc: false });
    expect(sorterToOrder('device', 'ascend')).toEqual({ order: 'start_time', asc: false });
  });

  it('measures a sortie until now while it flies', () => {
    expect(sortieDuration({ start_time: 100, end_time: 190 })).toBe(90);
    expect(sortieDuration({ start_time: 100, end_time: 0 }, 160)).toBe(60);
  });
});

describe('selection', () => {
  it('toggles one id', () => {
    expect(toggleSelection(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggleSelection(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(toggleSelection(['a'], 'a', true)).toEqual(['a']);
  });

  it('selects the whole page, or clears it when all are selected', () => {
    expect(toggleAll(['x'], ['a', 'b'])).toEqual(['x', 'a', 'b']);
    expect(toggleAll(['x', 'a', 'b'], ['a', 'b'])).toEqual(['x']);
    expect(toggleAll([], [])).toEqual([]);
  });

  it('forgets ids that left the list', () => {
    expect(pruneSelection(['a', 'b', 'c'], ['c', 'a'])).toEqual(['a', 'c']);
  });

  it('steps through the list without running off its ends', () => {
    expect(neighbour(3, 0, -1)).toBeNull();
    expect(neighbour(3, 0, 1)).toBe(1);
    expect(neighbour(3, 2, 1)).toBeNull();
    expect(neighbour(3, -1, 1)).toBeNull();
  });
});

describe('panorama source', () => {
  it('accepts a same-site url and/or a result id', () => {
    expect(panoramaSource(q('id=42'))).toEqual({ kind: 'id', id: '42', url: '' });
    expect(panoramaSource(q('id=42&url=%2Fmedia%2Fp.jpg'))).toEqual({ kind: 'url', id: '42', url: '/media/p.jpg' });
  });

  it('refuses foreign urls and junk ids', () => {
    expect(panoramaSource(q('url=https://evil.example/p.jpg')).kind).toBe('none');
    expect(panoramaSource(q('url=//evil.example/p.jpg')).kind).toBe('none');
    expect(panoramaSource(q('id=1%3B%20drop')).kind).toBe('none');
    expect(panoramaSource(q('')).kind).toBe('none');
  });
});

describe('formatting and map placement', () => {
  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(-1)).toBe('--');
  });

  it('spreads results taken at one spot and skips those without a position', () => {
    const at = { lat: 22.5, lng: 114 };
    const out = spreadPositions([at, at, { lat: 0, lng: 0 }, at, { lat: 22.6, lng: 114.1 }]);
    expect(out.map((p) => p.index)).toEqual([0, 1, 3, 4]);
    expect(out[0]).toEqual({ index: 0, ...at });
    const d = (p: { lat: number; lng: number }) => Math.hypot((p.lat - at.lat) * 111_320, (p.lng - at.lng) * 111_320 * Math.cos((at.lat * Math.PI) / 180));
    expect(d(out[1]!)).toBeCloseTo(3, 1);
    expect(d(out[2]!)).toBeCloseTo(3, 1);
    expect(out[1]).not.toEqual(out[2]);
    expect(out[3]).toEqual({ index: 4, lat: 22.6, lng: 114.1 });
  });
});
