import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, DatePicker, Dropdown, Empty, Result, Segmented, Select, Spin, Table, Tooltip } from 'antd';
import { ArrowLeftOutlined, BarChartOutlined, DownloadOutlined, ReloadOutlined, TableOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { formatDateTime, ANALYSIS_MAX_DAYS, AlarmLevel, PushMsgId, formatDistance, formatHms, type Analysis, type DeviceListItem } from '@nest/contracts';
import { call, RequestError } from '../../shared/request';
import { useCall } from '../../shared/query';
import { onPush } from '../../shared/push';
import { PICKER_FORMATS } from '../../shared/format';
import { useI18n, type MessageKey } from '../../shared/i18n';
import { notify } from '../../shared/notify';
import { useTheme } from '../../shared/theme';
import {
  PANELS,
  PRESETS,
  csvOf,
  customPeriod,
  isEmptyAnalysis,
  kpisOf,
  percentText,
  periodOf,
  periodProblem,
  periodSlug,
  selectionFromQuery,
  selectionToQuery,
  seriesOf,
  tableOf,
  type Cell,
  type PanelName,
  type Period,
  type Preset,
  type Selection,
} from './analysis';
import { PALETTES, chartOption, type ChartTexts } from './chartOptions';
import { saveBlob, saveUrl } from '../../shared/dialogs';
import { EChart, type EChartHandle } from './EChart';
import './dataAnalyse.css';

const tzOffset = (): number => -new Date().getTimezoneOffset();
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

type Load = { state: 'loading' } | { state: 'ok'; data: Analysis; at: number; period: Period } | { state: 'error'; text: string };

/** No devices yet (one array, so the device options are not rebuilt every render). */
const NO_DEVICES: DeviceListItem[] = [];

/**
 * Data analysis (/dataAnalyse), full screen: period and devices on top (kept in the url), KPI cards, then
 * one panel per figure with a chart or the same numbers as a table, each exportable as CSV and PNG.
 */
export default function DataAnalysePage(): ReactNode {
  const { t, lang } = useI18n();
  const theme = useTheme();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const selection = useMemo(() => selectionFromQuery(params), [params]);
  const devices = useCall('deviceList', { type: 0, page: 0, size: 1000 }, { quiet: true }).data?.list ?? NO_DEVICES;
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const [fetching, setFetching] = useState(true);
  const [rangeProblem, setRangeProblem] = useState<string | null>(null);
  const charts = useRef<Partial<Record<PanelName, EChartHandle | null>>>({});

  const setSelection = useCallback((next: Selection) => setParams(selectionToQuery(next), { replace: true }), [setParams]);

  const selKey = selectionToQuery(selection).toString();
  useEffect(() => {
    const ctl = new AbortController();
    const tz = tzOffset();
    const period = periodOf(selection, nowSeconds(), tz);
    // The last answer stays on screen (under a spinner) while the next one loads: no flashing empty panels.
    setLoad((l) => (l.state === 'ok' ? l : { state: 'loading' }));
    setFetching(true);
    const fields = { start_time: period.start, end_time: period.end, tz_offset: tz, ...(selection.sns.length ? { sn_ids: selection.sns } : {}) };
    call('dataAnalyse', fields, { quiet: true, signal: ctl.signal })
      .then((data) => {
        setLoad({ state: 'ok', data, at: Date.now(), period });
        setFetching(false);
      })
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        setLoad({ state: 'error', text: err instanceof RequestError ? err.text : String(err) });
        setFetching(false);
      });
    return () => ctl.abort();
    // selKey stands for the selection (its url form); tick is the refresh button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selKey, tick]);

  // New sorties, results and alarms (push 380) bring the figures up to date; bursts are read once.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onPush(PushMsgId.DATA_CHANGED, () => {
      clearTimeout(timer);
      timer = setTimeout(() => setTick((n) => n + 1), 3000);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, []);

  const loading = fetching;
  const data = load.state === 'ok' ? load.data : null;
  const refresh = () => setTick((n) => n + 1);

  const deviceOptions = useMemo(() => {
    const opts = devices.map((d) => ({ value: d.sn_id, label: d.name || d.sn_id }));
    // Devices of the url that the list does not hold (yet) keep a label.
    for (const sn of selection.sns) if (!opts.some((o) => o.value === sn)) opts.push({ value: sn, label: sn });
    return opts;
  }, [devices, selection.sns]);

  const palette = PALETTES[theme];
  const series = useMemo(() => (data ? seriesOf(data) : null), [data]);
  const texts: ChartTexts = useMemo(
    () => ({
      lang,
      sorties: t('analysis.axis.sorties'),
      hoursAxis: t('analysis.axis.hours'),
      minutesAxis: t('analysis.axis.minutes'),
      kmAxis: t('analysis.axis.km'),
      alarmsAxis: t('analysis.axis.alarms'),
      flightTime: t('analysis.series.flightHours'),
      mileage: t('analysis.series.mileageKm'),
      utilisation: t('analysis.series.utilisation'),
      onlineRate: t('analysis.series.onlineRate'),
      sortiesTip: (v) => t('analysis.tip.sorties', { value: v }),
      alarmsTip: (v) => t('analysis.tip.alarms', { value: v }),
      resultsTotal: t('analysis.kpi.results'),
    }),
    // t follows lang
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [lang],
  );
  const options = useMemo(() => {
    const out: Partial<Record<PanelName, Record<string, unknown> | null>> = {};
    if (series) for (const p of PANELS) out[p] = chartOption(p, series, palette, texts);
    return out;
  }, [series, palette, texts]);

  const columnLabel = useCallback(
    (key: string): string => {
      const level = /^level(\d+)$/.exec(key);
      if (level) return t('analysis.column.level', { level: AlarmLevel.label(Number(level[1]), lang) });
      return t(`analysis.column.${key}` as MessageKey);
    },
    [t, lang],
  );

  const periodText = (p: Period): string => `${formatDateTime(p.start * 1000, lang, false)} ~ ${formatDateTime(p.end * 1000, lang, false)}`;
  const devicesText = (): string =>
    selection.sns.length ? selection.sns.map((sn) => deviceOptions.find((o) => o.value === sn)?.label ?? sn).join(' / ') : t('analysis.devices.all');

  const csvHead = (p: Period): Cell[][] => [
    [t('analysis.title')],
    [t('analysis.csv.period'), periodText(p)],
    [t('analysis.csv.devices'), devicesText()],
    [t('analysis.csv.generated'), formatDateTime(Date.now(), lang)],
    [t('analysis.csv.unitsNote')],
  ];

  const tableRows = (panel: PanelName): Cell[][] => {
    if (!data) return [];
    const tb = tableOf(panel, data, lang);
    return [tb.columns.map(columnLabel), ...tb.rows];
  };

  const exportCsv = (panel: PanelName | 'all') => {
    if (load.state !== 'ok') return;
    const slug = periodSlug(load.period, tzOffset());
    const rows: Cell[][] = csvHead(load.period);
    const panels = panel === 'all' ? PANELS : [panel];
    for (const p of panels) rows.push([], [t(`analysis.panel.${p}`)], ...tableRows(p));
    const name = `${t('analysis.title')}-${panel === 'all' ? 'all' : panel}-${slug}.csv`;
    saveBlob(name, new Blob([csvOf(rows)], { type: 'text/csv;charset=utf-8' }));
    notify().success(t('analysis.export.done', { name }));
  };

  const exportPng = (panel: PanelName) => {
    if (load.state !== 'ok') return;
    const url = charts.current[panel]?.png(palette.background);
    if (!url) {
      notify().error(t('analysis.export.failed'));
      return;
    }
    const name = `${t('analysis.title')}-${panel}-${periodSlug(load.period, tzOffset())}.png`;
    saveUrl(name, url);
  };

  const onPreset = (preset: Preset) => {
    setRangeProblem(null);
    if (preset === 'custom') {
      const tz = tzOffset();
      const current = load.state === 'ok' ? load.period : periodOf(selection, nowSeconds(), tz);
      setSelection({ preset, period: customPeriod(current.start, current.end, tz), sns: selection.sns });
    } else setSelection({ preset, period: null, sns: selection.sns });
  };

  const onRange = (range: [Dayjs | null, Dayjs | null] | null) => {
    if (!range?.[0] || !range[1]) return;
    const p = customPeriod(range[0].unix(), range[1].unix(), tzOffset());
    const problem = periodProblem(p);
    if (problem) {
      setRangeProblem(problem === 'tooLong' ? t('analysis.period.tooLong', { days: ANALYSIS_MAX_DAYS }) : t('analysis.period.order'));
      return;
    }
    setRangeProblem(null);
    setSelection({ preset: 'custom', period: p, sns: selection.sns });
  };

  const shownPeriod = load.state === 'ok' ? load.period : periodOf(selection, nowSeconds(), tzOffset());
  const kpis = data ? kpisOf(data) : null;
  const empty = data ? isEmptyAnalysis(data) : false;

  return (
    <div className="analysis-screen" data-testid="analysis-screen" data-theme={theme} data-loading={loading ? 'true' : 'false'} aria-busy={loading}>
      <header className="analysis-head">
        <div className="analysis-title">
          <Tooltip title={t('analysis.back')}>
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate('/home')} data-testid="analysis-back" aria-label={t('analysis.back')} />
          </Tooltip>
          <h1>{t('analysis.title')}</h1>
        </div>
        <div className="analysis-controls">
          <Segmented<Preset>
            data-testid="analysis-preset"
            value={selection.preset}
            onChange={onPreset}
            options={PRESETS.map((p) => ({ value: p, label: t(`analysis.period.${p}`) }))}
          />
          <DatePicker.RangePicker
            data-testid="analysis-range"
            format={PICKER_FORMATS[lang].date}
            allowClear={false}
            value={[dayjs.unix(shownPeriod.start), dayjs.unix(shownPeriod.end)]}
            disabledDate={(d) => d.isAfter(dayjs().endOf('day'))}
            onChange={(r) => onRange(r as [Dayjs | null, Dayjs | null] | null)}
            status={rangeProblem ? 'error' : undefined}
          />
          <Select
            data-testid="analysis-devices"
            className="analysis-device-select"
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            placeholder={t('analysis.devices.all')}
            value={selection.sns}
            options={deviceOptions}
            optionFilterProp="label"
            onChange={(sns: string[]) => setSelection({ ...selection, sns })}
          />
          <Button icon={<ReloadOutlined />} loading={loading} onClick={refresh} data-testid="analysis-refresh">
            {t('analysis.refresh')}
          </Button>
          <Button type="primary" icon={<DownloadOutlined />} disabled={!data} onClick={() => exportCsv('all')} data-testid="analysis-export-csv">
            {t('analysis.export.all')}
          </Button>
        </div>
        {rangeProblem ? (
          <div className="analysis-range-problem" role="alert" data-testid="analysis-range-problem">
            {rangeProblem}
          </div>
        ) : null}
      </header>

      {load.state === 'error' ? (
        <div className="analysis-state" data-testid="analysis-error">
          <Result
            status="warning"
            title={t('analysis.error.title')}
            subTitle={load.text}
            extra={
              <Button type="primary" onClick={refresh}>
                {t('analysis.error.retry')}
              </Button>
            }
          />
        </div>
      ) : (
        <>
          <section className="analysis-kpis">
            <Kpi id="sorties" label={t('analysis.kpi.sorties')} value={kpis?.sorties} text={kpis ? String(kpis.sorties) : undefined} />
            <Kpi id="flight-time" label={t('analysis.kpi.flightTime')} value={kpis?.flightSeconds} text={kpis ? formatHms(kpis.flightSeconds) : undefined} />
            <Kpi
              id="mileage"
              label={t('analysis.kpi.mileage')}
              value={kpis?.distance}
              text={kpis ? formatDistance(kpis.distance).value : undefined}
              unit={kpis ? formatDistance(kpis.distance).unit : undefined}
            />
            <Kpi id="results" label={t('analysis.kpi.results')} value={kpis?.results} text={kpis ? String(kpis.results) : undefined} />
            <Kpi id="alarms" label={t('analysis.kpi.alarms')} value={kpis?.alarms} text={kpis ? String(kpis.alarms) : undefined} tone="alarm" />
            <Kpi
              id="online-rate"
              label={t('analysis.kpi.onlineRate')}
              value={kpis?.onlineRate ?? undefined}
              text={kpis ? percentText(kpis.onlineRate) : undefined}
            />
          </section>
          {empty ? (
            <div className="analysis-state analysis-empty" data-testid="analysis-empty">
              <Empty description={<><b>{t('analysis.empty.title')}</b><div>{t('analysis.empty.hint')}</div></>} />
            </div>
          ) : (
            <section className="analysis-grid">
              {PANELS.map((panel) => (
                <Panel
                  key={panel}
                  name={panel}
                  title={t(`analysis.panel.${panel}`)}
                  note={panel === 'devices' ? t('analysis.definition.devices') : undefined}
                  loading={loading}
                  option={options[panel] ?? null}
                  rows={tableRows(panel)}
                  chartRef={(h) => {
                    charts.current[panel] = h;
                  }}
                  onCsv={() => exportCsv(panel)}
                  onPng={() => exportPng(panel)}
                />
              ))}
            </section>
          )}
        </>
      )}
      {load.state === 'ok' ? (
        <footer className="analysis-foot">
          <span>{periodText(load.period)}</span>
          <span>{t('analysis.updatedAt', { time: formatDateTime(load.at, lang) })}</span>
        </footer>
      ) : null}
    </div>
  );
}

function Kpi(props: { id: string; label: string; value: number | undefined; text: string | undefined; unit?: string; tone?: 'alarm' }): ReactNode {
  const { id, label, value, text, unit, tone } = props;
  return (
    <div className={`analysis-kpi${tone === 'alarm' && value ? ' analysis-kpi-alarm' : ''}`} data-testid={`analysis-kpi-${id}`} data-value={value ?? ''}>
      <div className="analysis-kpi-label">{label}</div>
      <div className="analysis-kpi-value">
        {text ?? <Spin size="small" />}
        {text && unit ? <span className="analysis-kpi-unit">{unit}</span> : null}
      </div>
    </div>
  );
}

interface PanelProps {
  name: PanelName;
  title: string;
  /** How the panel's figures are defined, shown under its title. */
  note?: string;
  loading: boolean;
  option: Record<string, unknown> | null;
  rows: Cell[][];
  chartRef: (h: EChartHandle | null) => void;
  onCsv: () => void;
  onPng: () => void;
}

function Panel({ name, title, note, loading, option, rows, chartRef, onCsv, onPng }: PanelProps): ReactNode {
  const { t } = useI18n();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const [head, ...body] = rows;
  const columns = (head ?? []).map((h, i) => ({
    key: String(i),
    dataIndex: String(i),
    title: String(h),
    align: (i === 0 ? 'left' : 'right') as 'left' | 'right',
    ellipsis: true,
  }));
  const data = body.map((r, k) => Object.fromEntries([['key', String(k)], ...r.map((c, i) => [String(i), c])]));
  return (
    <article className={`analysis-panel analysis-panel-${name}`} data-testid={`analysis-panel-${name}`} data-view={view}>
      <div className="analysis-panel-head">
        <h2>{title}</h2>
        <div className="analysis-panel-tools">
          <Segmented
            size="small"
            value={view}
            onChange={(v) => setView(v as 'chart' | 'table')}
            data-testid={`analysis-panel-${name}-view`}
            options={[
              { value: 'chart', icon: <BarChartOutlined />, title: t('analysis.view.chart') },
              { value: 'table', icon: <TableOutlined />, title: t('analysis.view.table') },
            ]}
          />
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'csv', label: t('analysis.export.csv'), onClick: onCsv },
                { key: 'png', label: t('analysis.export.png'), onClick: onPng, disabled: !option },
              ],
            }}
          >
            <Button size="small" type="text" icon={<DownloadOutlined />} data-testid={`analysis-panel-${name}-export`} aria-label={t('analysis.export.csv')} />
          </Dropdown>
        </div>
      </div>
      {note ? (
        <p className="analysis-panel-note" data-testid={`analysis-panel-${name}-note`}>
          {note}
        </p>
      ) : null}
      <div className="analysis-panel-body">
        {/* The chart stays mounted under the table so PNG export works from either view. */}
        {option ? <EChart ref={chartRef} option={option} className="analysis-chart" /> : null}
        {!option && !loading ? <Empty className="analysis-panel-empty center-overlay" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('analysis.empty.panel')} /> : null}
        {view === 'table' ? (
          <div className="analysis-table" data-testid={`analysis-panel-${name}-table`}>
            <Table size="small" columns={columns} dataSource={data} pagination={false} sticky scroll={{ x: 'max-content' }} />
          </div>
        ) : null}
        {loading ? (
          <div className="analysis-panel-loading">
            <Spin />
          </div>
        ) : null}
      </div>
    </article>
  );
}
