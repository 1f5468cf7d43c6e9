import { describe, expect, it } from 'vitest';
import type { Analysis } from '@nest/contracts';
import {
  BOM,
  csvField,
  csvOf,
  customPeriod,
  dayLabels,
  dayStart,
  isEmptyAnalysis,
  kpisOf,
  periodOf,
  periodProblem,
  periodSlug,
  presetPeriod,
  selectionFromQuery,
  selectionToQuery,
  seriesOf,
  tableOf,
} from './analysis';
import { PALETTES, chartOption, type ChartTexts } from './chartOptions';

const CST = 480; // China Standard Time, minutes east of UTC
const sec = (iso: string): number => Date.parse(iso) / 1000;

describe('period presets', () => {
  // 2026-11-22 10:30 in Shanghai = 02:30 UTC
  const now = sec('2026-11-22T02:30:00Z');

  it('finds local midnight in the given zone', () => {
    expect(dayStart(now, CST)).toBe(sec('2026-11-21T16:00:00Z'));
    expect(dayStart(now, 0)).toBe(sec('2026-11-22T00:00:00Z'));
    expect(dayStart(now, -300)).toBe(sec('2026-11-21T05:00:00Z'));
  });

  it('last 7 and 30 days include today and end now', () => {
    expect(presetPeriod('last7', now, CST)).toEqual({ start: sec('2026-11-15T16:00:00Z'), end: now });
    expect(presetPeriod('last30', now, CST)).toEqual({ start: sec('2026-10-23T16:00:00Z'), end: now });
  });

  it('this month starts at its first local midnight', () => {
    expect(presetPeriod('thisMonth', now, CST)).toEqual({ start: sec('2026-10-31T16:00:00Z'), end: now });
  });

  it('last month is the whole previous month, across a year boundary too', () => {
    expect(presetPeriod('lastMonth', now, CST)).toEqual({ start: sec('2026-09-30T16:00:00Z'), end: sec('2026-10-31T16:00:00Z') - 1 });
    const jan = sec('2027-01-10T04:00:00Z');
    expect(presetPeriod('lastMonth', jan, CST)).toEqual({ start: sec('2026-11-30T16:00:00Z'), end: sec('2026-12-31T16:00:00Z') - 1 });
  });

  it('uses the local month near midnight (UTC still in the previous month)', () => {
    const earlyDec = sec('2026-11-30T17:00:00Z'); // 2026-12-01 01:00 in Shanghai
    expect(presetPeriod('thisMonth', earlyDec, CST).start).toBe(sec('2026-11-30T16:00:00Z'));
  });

  it('custom ranges cover whole days in either order', () => {
    const a = sec('2026-11-03T05:00:00Z');
    const b = sec('2026-11-01T20:00:00Z'); // 11-02 04:00 local
    expect(customPeriod(a, b, CST)).toEqual({ start: sec('2026-11-01T16:00:00Z'), end: sec('2026-11-03T16:00:00Z') - 1 });
  });

  it('refuses reversed and over-long periods', () => {
    expect(periodProblem({ start: 10, end: 5 })).toBe('order');
    expect(periodProblem({ start: 0, end: 366 * 86_400 })).toBeNull();
    expect(periodProblem({ start: 0, end: 366 * 86_400 + 1 })).toBe('tooLong');
    expect(periodProblem({ start: Number.NaN, end: 5 })).toBe('order');
  });

  it('slugs the period with local dates', () => {
    expect(periodSlug(presetPeriod('last7', now, CST), CST)).toBe('2026-11-16_2026-11-22');
  });
});

describe('url query', () => {
  it('round-trips a custom selection with devices', () => {
    const s = { preset: 'custom' as const, period: { start: 100, end: 86_500 }, sns: ['A', 'B'] };
    const q = selectionToQuery(s);
    expect(q.toString()).toBe('range=custom&start=100&end=86500&sn=A%2CB');
    expect(selectionFromQuery(q)).toEqual(s);
  });

  it('falls back to the default preset on unknown or broken values', () => {
    expect(selectionFromQuery(new URLSearchParams('range=year'))).toEqual({ preset: 'last7', period: null, sns: [] });
    expect(selectionFromQuery(new URLSearchParams('range=custom&start=9&end=1'))).toMatchObject({ preset: 'last7' });
    expect(selectionFromQuery(new URLSearchParams('range=custom&start=0&end=99999999'))).toMatchObject({ preset: 'last7' });
    expect(selectionFromQuery(new URLSearchParams('range=last30&sn=A,,A, B'))).toEqual({ preset: 'last30', period: null, sns: ['A', 'B'] });
  });

  it('periodOf uses the preset at now, or the custom range', () => {
    const now = sec('2026-11-22T02:30:00Z');
    expect(periodOf({ preset: 'last30', period: null, sns: [] }, now, CST)).toEqual(presetPeriod('last30', now, CST));
    expect(periodOf({ preset: 'custom', period: { start: 1, end: 2 }, sns: [] }, now, CST)).toEqual({ start: 1, end: 2 });
  });
});

describe('csv', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField(3.25)).toBe('3.25');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('starts with a BOM and separates lines with CRLF', () => {
    const text = csvOf([
      ['日期', '架次'],
      ['2026-11-22', 3],
    ]);
    expect(text.startsWith(BOM)).toBe(true);
    expect(text).toBe('\uFEFF日期,架次\r\n2026-11-22,3\r\n');
    expect(csvOf([['x']], false)).toBe('x\r\n');
  });
});

const zero = { '10': 0, '15': 0, '20': 0 };
const noAlarms = { '10': 0, '20': 0, '30': 0 };
const answer: Analysis = {
  start_time: 0,
  end_time: 1,
  days: [
    { day: '2026-11-22', sorties: 2, flight_seconds: 3725, distance: 12_345, results: { '10': 5, '15': 1, '20': 0 }, alarms: { '10': 1, '20': 0, '30': 2 } },
    { day: '2026-11-21', sorties: 1, flight_seconds: 600, distance: 800, results: { '10': 2, '15': 0, '20': 1 }, alarms: noAlarms },
  ],
  devices: [
    { sn_id: 'SN-B', name: 'Nest B', sorties: 1, flight_seconds: 600, distance: 800, results: 3, alarms: 0, online_seconds: 43_200, online_rate: 0.25, utilisation: 0.5 },
    { sn_id: 'SN-A', name: 'Nest A, east', sorties: 2, flight_seconds: 3725, distance: 12_345, results: 6, alarms: 3, online_seconds: 172_800, online_rate: 0.75, utilisation: 0.5 },
  ],
  totals: { sorties: 3, flight_seconds: 4325, distance: 13_145, results: { '10': 7, '15': 1, '20': 1 }, alarms: { '10': 1, '20': 0, '30': 2 } },
};

describe('series and tables', () => {
  it('sums KPIs and averages the online rate over devices', () => {
    expect(kpisOf(answer)).toEqual({ sorties: 3, flightSeconds: 4325, distance: 13_145, results: 9, alarms: 3, onlineRate: 0.5 });
    expect(kpisOf({ ...answer, devices: [] }).onlineRate).toBeNull();
  });

  it('orders days and devices, keeps alarm levels apart', () => {
    const s = seriesOf(answer);
    expect(s.days).toEqual(['2026-11-21', '2026-11-22']);
    expect(s.sorties).toEqual([1, 2]);
    expect(s.alarms[30]).toEqual([0, 2]);
    expect(s.alarms[10]).toEqual([0, 1]);
    expect(s.results).toEqual([
      { type: 10, count: 7 },
      { type: 15, count: 1 },
      { type: 20, count: 1 },
    ]);
    expect(s.devices.map((d) => d.sn)).toEqual(['SN-A', 'SN-B']);
  });

  it('detects an empty period', () => {
    expect(isEmptyAnalysis(answer)).toBe(false);
    const empty: Analysis = {
      ...answer,
      days: answer.days.map((d) => ({ ...d, sorties: 0, flight_seconds: 0, distance: 0, results: zero, alarms: noAlarms })),
      devices: answer.devices.map((d) => ({ ...d, sorties: 0, flight_seconds: 0, distance: 0, results: 0, alarms: 0, online_seconds: 0, online_rate: 0, utilisation: 0 })),
      totals: { sorties: 0, flight_seconds: 0, distance: 0, results: zero, alarms: noAlarms },
    };
    expect(isEmptyAnalysis(empty)).toBe(true);
    // Online time alone is something to show (the online rate panel).
    expect(isEmptyAnalysis({ ...empty, devices: answer.devices.map((d) => ({ ...d, sorties: 0 })) })).toBe(false);
  });

  it('gives formatted and raw units side by side', () => {
    const flight = tableOf('flight', answer, 'en');
    expect(flight.columns).toEqual(['day', 'flightTime', 'flightSeconds', 'mileage', 'mileageMetres']);
    expect(flight.rows).toEqual([
      ['2026-11-21', '00:10:00', 600, '800 m', 800],
      ['2026-11-22', '01:02:05', 3725, '12.35 km', 12_345],
    ]);
    expect(tableOf('results', answer, 'zh').rows).toEqual([
      ['图片', 7, '77.8%'],
      ['全景', 1, '11.1%'],
      ['视频', 1, '11.1%'],
    ]);
    expect(tableOf('alarms', answer, 'en').rows[1]).toEqual(['2026-11-22', 2, 0, 1, 3]);
    expect(tableOf('devices', answer, 'en').rows[0]).toEqual(['Nest A, east', 'SN-A', 2, '01:02:05', '12.35 km', 6, 3, '48:00:00', '75.0%', '50.0%']);
  });

  it('a device table with a comma in a name stays one column in CSV', () => {
    const t = tableOf('devices', answer, 'en');
    const line = csvOf([t.rows[0] ?? []], false).trimEnd();
    expect(line.startsWith('"Nest A, east",SN-A,')).toBe(true);
  });

  it('shortens axis labels within one year only', () => {
    expect(dayLabels(['2026-11-21', '2026-11-22'])).toEqual(['11-21', '11-22']);
    expect(dayLabels(['2026-12-31', '2027-01-01'])).toEqual(['2026-12-31', '2027-01-01']);
  });
});

describe('chart options', () => {
  const texts: ChartTexts = {
    lang: 'en',
    sorties: 'Sorties',
    hoursAxis: 'h',
    minutesAxis: 'min',
    kmAxis: 'km',
    alarmsAxis: 'Alarms',
    flightTime: 'Flight time',
    mileage: 'Mileage',
    utilisation: 'Utilisation',
    onlineRate: 'Online rate',
    sortiesTip: (v) => `${v} sorties`,
    alarmsTip: (v) => `${v} alarms`,
    resultsTotal: 'Results',
  };

  it('stacks alarms high, medium, low in red, amber, blue of the theme', () => {
    const opt = chartOption('alarms', seriesOf(answer), PALETTES.concise, texts) as { series: { name: string; stack: string; itemStyle: { color: string }; data: number[] }[] };
    expect(opt.series.map((s) => s.name)).toEqual(['High', 'Medium', 'Low']);
    expect(opt.series.every((s) => s.stack === 'alarms')).toBe(true);
    expect(opt.series.map((s) => s.itemStyle.color)).toEqual([PALETTES.concise.alarms[30], PALETTES.concise.alarms[20], PALETTES.concise.alarms[10]]);
  });

  it('puts flight hours and mileage km on two axes with formatted tooltips', () => {
    const opt = chartOption('flight', seriesOf(answer), PALETTES.default, texts) as {
      series: { data: number[]; yAxisIndex?: number }[];
      tooltip: { formatter: (p: unknown[]) => string };
    };
    // Under two hours a day the axis counts minutes.
    expect(opt.series[0]?.data).toEqual([10, 62.1]);
    expect((opt as unknown as { yAxis: { name: string }[] }).yAxis[0]?.name).toBe('min');
    const long = { ...answer, days: answer.days.map((d) => ({ ...d, flight_seconds: d.flight_seconds * 3 })) };
    const optH = chartOption('flight', seriesOf(long), PALETTES.default, texts) as { series: { data: number[] }[]; yAxis: { name: string }[] };
    expect(optH.series[0]?.data).toEqual([0.5, 3.1]);
    expect(optH.yAxis[0]?.name).toBe('h');
    expect(opt.series[1]).toMatchObject({ data: [0.8, 12.35], yAxisIndex: 1 });
    const tip = opt.tooltip.formatter([
      { dataIndex: 1, seriesName: 'Flight time', value: 1.03 },
      { dataIndex: 1, seriesName: 'Mileage', value: 12.35 },
    ]);
    expect(tip).toContain('2026-11-22');
    expect(tip).toContain('01:02:05');
    expect(tip).toContain('12.35 km');
  });

  it('labels result slices with the achievement type and draws nothing without results', () => {
    const opt = chartOption('results', seriesOf(answer), PALETTES.default, { ...texts, lang: 'zh' }) as { series: { data: { name: string }[] }[] };
    expect(opt.series[0]?.data.map((d) => d.name)).toEqual(['图片', '全景', '视频']);
    const none = { ...answer, totals: { ...answer.totals, results: zero } };
    expect(chartOption('results', seriesOf(none), PALETTES.default, texts)).toBeNull();
    expect(chartOption('devices', seriesOf({ ...answer, devices: [] }), PALETTES.default, texts)).toBeNull();
  });
});
