import { AchievementType, AlarmLevel, formatHms, type Lang, type Theme } from '@nest/contracts';
import { ALARM_LEVELS, dayLabels, distanceText, hours, km, minutes, percent, type PanelName, type Series } from './analysis';

/**
 * ECharts options of the panels, built from the series and the theme's palette (plain objects, no echarts
 * import, so the builders are testable and the screen chunk holds the only echarts code).
 */

export interface Palette {
  /** Canvas background of exported PNGs (the panel surface). */
  background: string;
  text: string;
  dim: string;
  axis: string;
  split: string;
  tooltipBg: string;
  tooltipBorder: string;
  primary: string;
  secondary: string;
  results: Record<10 | 15 | 20, string>;
  alarms: Record<10 | 20 | 30, string>;
}

export const PALETTES: Readonly<Record<Theme, Palette>> = {
  default: {
    background: '#0c1a31',
    text: '#dbe8ff',
    dim: '#7f96bd',
    axis: '#1e3a62',
    split: 'rgba(64, 160, 255, 0.10)',
    tooltipBg: 'rgba(12, 26, 49, 0.96)',
    tooltipBorder: 'rgba(24, 183, 240, 0.45)',
    primary: '#18b7f0',
    secondary: '#37e2d5',
    results: { 10: '#18b7f0', 15: '#37e2d5', 20: '#a48bff' },
    alarms: { 30: '#ff5a5f', 20: '#f5a524', 10: '#4c9aff' },
  },
  concise: {
    background: '#ffffff',
    text: '#1d2939',
    dim: '#667085',
    axis: '#d0d5dd',
    split: '#edf0f5',
    tooltipBg: 'rgba(255, 255, 255, 0.98)',
    tooltipBorder: '#e3e8f0',
    primary: '#1668dc',
    secondary: '#13a8a8',
    results: { 10: '#1668dc', 15: '#13a8a8', 20: '#7a5af8' },
    alarms: { 30: '#e5484d', 20: '#f59e0b', 10: '#2f6fed' },
  },
};

/** Translated words the options need (axis names, series names, tooltip templates). */
export interface ChartTexts {
  lang: Lang;
  sorties: string;
  hoursAxis: string;
  minutesAxis: string;
  kmAxis: string;
  alarmsAxis: string;
  flightTime: string;
  mileage: string;
  utilisation: string;
  onlineRate: string;
  sortiesTip: (v: number) => string;
  alarmsTip: (v: number) => string;
  /** Caption under the donut's total. */
  resultsTotal: string;
}

type Option = Record<string, unknown>;

interface TipParam {
  axisValueLabel?: string;
  name?: string;
  marker?: string;
  seriesName?: string;
  value?: unknown;
  dataIndex: number;
  percent?: number;
}

const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

function base(p: Palette): Option {
  return {
    backgroundColor: 'transparent',
    textStyle: { color: p.text, fontFamily: 'inherit' },
    animationDuration: 400,
    grid: { left: 12, right: 16, top: 36, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      backgroundColor: p.tooltipBg,
      borderColor: p.tooltipBorder,
      textStyle: { color: p.text, fontSize: 12 },
      axisPointer: { type: 'shadow', shadowStyle: { color: p.split } },
      confine: true,
    },
    legend: { top: 4, left: 'center', textStyle: { color: p.dim }, itemWidth: 12, itemHeight: 8, icon: 'roundRect' },
  };
}

const valueAxis = (p: Palette, name: string, extra: Option = {}): Option => ({
  type: 'value',
  name,
  nameTextStyle: { color: p.dim, align: 'left' },
  minInterval: 1,
  axisLabel: { color: p.dim },
  axisLine: { show: false },
  splitLine: { lineStyle: { color: p.split } },
  ...extra,
});

const categoryAxis = (p: Palette, data: string[], extra: Option = {}): Option => ({
  type: 'category',
  data,
  axisLabel: { color: p.dim, hideOverlap: true },
  axisLine: { lineStyle: { color: p.axis } },
  axisTick: { show: false },
  ...extra,
});

const tipHead = (params: TipParam[], days: string[]): string => esc(days[params[0]?.dataIndex ?? 0] ?? '');
const tipLine = (q: TipParam, text: string): string => `<div>${q.marker ?? ''}${esc(q.seriesName ?? '')}: <b>${esc(text)}</b></div>`;

/** Options of one panel, or null when the panel has nothing to draw (it shows an empty state instead). */
export function chartOption(panel: PanelName, s: Series, p: Palette, tx: ChartTexts): Option | null {
  const labels = dayLabels(s.days);
  switch (panel) {
    case 'sorties': {
      if (!s.days.length) return null;
      return {
        ...base(p),
        legend: { show: false },
        tooltip: {
          ...(base(p).tooltip as Option),
          formatter: (ps: TipParam[]) => `${tipHead(ps, s.days)}${ps.map((q) => tipLine(q, tx.sortiesTip(Number(q.value)))).join('')}`,
        },
        xAxis: categoryAxis(p, labels),
        yAxis: valueAxis(p, tx.sorties),
        series: [
          {
            name: tx.sorties,
            type: 'bar',
            barMaxWidth: 26,
            data: s.sorties,
            itemStyle: {
              borderRadius: [3, 3, 0, 0],
              color: { type: 'linear', x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: p.primary }, { offset: 1, color: `${p.primary}55` }] },
            },
          },
        ],
      };
    }
    case 'flight': {
      if (!s.days.length) return null;
      // Short flights would show as 0.01 h: below two hours a day the axis counts minutes.
      const inMinutes = Math.max(0, ...s.flightSeconds) < 7200;
      return {
        ...base(p),
        tooltip: {
          ...(base(p).tooltip as Option),
          axisPointer: { type: 'line', lineStyle: { color: p.axis } },
          formatter: (ps: TipParam[]) => {
            const i = ps[0]?.dataIndex ?? 0;
            return `${tipHead(ps, s.days)}${ps
              .map((q) => tipLine(q, q.seriesName === tx.flightTime ? formatHms(s.flightSeconds[i] ?? 0) : distanceText(s.distance[i] ?? 0)))
              .join('')}`;
          },
        },
        xAxis: categoryAxis(p, labels),
        yAxis: [valueAxis(p, inMinutes ? tx.minutesAxis : tx.hoursAxis, { minInterval: 0 }), valueAxis(p, tx.kmAxis, { minInterval: 0, splitLine: { show: false }, nameTextStyle: { color: p.dim, align: 'right' } })],
        series: [
          {
            name: tx.flightTime,
            type: 'bar',
            barMaxWidth: 22,
            data: s.flightSeconds.map(inMinutes ? minutes : hours),
            itemStyle: { color: p.primary, borderRadius: [3, 3, 0, 0] },
          },
          {
            name: tx.mileage,
            type: 'line',
            yAxisIndex: 1,
            symbol: 'circle',
            symbolSize: 6,
            data: s.distance.map(km),
            lineStyle: { color: p.secondary, width: 2 },
            itemStyle: { color: p.secondary },
            areaStyle: { color: { type: 'linear', x: 0, y: 0, x2: 0, y2: 1, colorStops: [{ offset: 0, color: `${p.secondary}40` }, { offset: 1, color: `${p.secondary}00` }] } },
          },
        ],
      };
    }
    case 'results': {
      const total = s.results.reduce((a, r) => a + r.count, 0);
      if (!total) return null;
      return {
        ...base(p),
        legend: { bottom: 4, left: 'center', textStyle: { color: p.dim }, itemWidth: 10, itemHeight: 10, icon: 'circle' },
        tooltip: {
          ...(base(p).tooltip as Option),
          trigger: 'item',
          formatter: (q: TipParam) => `${q.marker ?? ''}${esc(q.name ?? '')}: <b>${Number(q.value)}</b> (${(q.percent ?? 0).toFixed(1)}%)`,
        },
        title: {
          text: String(total),
          subtext: tx.resultsTotal,
          left: 'center',
          top: '36%',
          textStyle: { color: p.text, fontSize: 24, fontWeight: 600 },
          subtextStyle: { color: p.dim, fontSize: 12 },
        },
        series: [
          {
            type: 'pie',
            radius: ['48%', '70%'],
            center: ['50%', '46%'],
            avoidLabelOverlap: true,
            itemStyle: { borderColor: p.background, borderWidth: 2 },
            label: { color: p.text, formatter: '{b}\n{c}' },
            labelLine: { lineStyle: { color: p.axis } },
            data: s.results.map((r) => ({
              name: AchievementType.label(r.type, tx.lang),
              value: r.count,
              itemStyle: { color: p.results[r.type] },
              // A zero slice has no arc: its label would hang in the air.
              ...(r.count ? {} : { label: { show: false }, labelLine: { show: false } }),
            })),
          },
        ],
      };
    }
    case 'devices': {
      if (!s.devices.length) return null;
      const names = s.devices.map((d) => d.name);
      return {
        ...base(p),
        tooltip: {
          ...(base(p).tooltip as Option),
          formatter: (ps: TipParam[]) => `${esc(names[ps[0]?.dataIndex ?? 0] ?? '')}${ps.map((q) => tipLine(q, `${Number(q.value).toFixed(1)}%`)).join('')}`,
        },
        xAxis: categoryAxis(p, names, { axisLabel: { color: p.dim, interval: 0, width: 90, overflow: 'truncate' } }),
        yAxis: valueAxis(p, '%', { max: 100, minInterval: 0 }),
        dataZoom: names.length > 12 ? [{ type: 'inside', startValue: 0, endValue: 11 }] : undefined,
        series: [
          { name: tx.utilisation, type: 'bar', barMaxWidth: 18, data: s.devices.map((d) => percent(d.utilisation)), itemStyle: { color: p.primary, borderRadius: [3, 3, 0, 0] } },
          { name: tx.onlineRate, type: 'bar', barMaxWidth: 18, data: s.devices.map((d) => percent(d.onlineRate)), itemStyle: { color: p.secondary, borderRadius: [3, 3, 0, 0] } },
        ],
      };
    }
    case 'alarms': {
      if (!s.days.length) return null;
      return {
        ...base(p),
        tooltip: {
          ...(base(p).tooltip as Option),
          formatter: (ps: TipParam[]) => `${tipHead(ps, s.days)}${ps.map((q) => tipLine(q, tx.alarmsTip(Number(q.value)))).join('')}`,
        },
        xAxis: categoryAxis(p, labels),
        yAxis: valueAxis(p, tx.alarmsAxis),
        series: ALARM_LEVELS.map((level) => ({
          name: AlarmLevel.label(level, tx.lang),
          type: 'bar',
          stack: 'alarms',
          barMaxWidth: 26,
          data: s.alarms[level],
          itemStyle: { color: p.alarms[level] },
        })),
      };
    }
  }
}
