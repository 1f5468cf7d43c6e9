import { memo, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Empty, Segmented, Spin } from 'antd';
import {
  formatMonthDay,
  formatMonthDayTime,
  formatTime,
  AlarmLevel,
  TimedTaskState,
  formatDistance,
  formatHms,
  type EquipmentRecord,
  type Ranking,
  type RealtimeMessage,
  type TimedTask,
} from '@nest/contracts';
import { useI18n } from '../../shared/i18n';
import { levelColor, openAlarmCenter } from '../alarms';
import { checkingOptions, kpiTiles, rankingValue, type KpiTile, type Kpis } from './dashboard';
import type { AlarmStats, Loaded } from './useDashboard';


/** The chrome every data-screen panel shares: a titled frame with corner marks. */
export function DashPanel({
  title,
  extra,
  testId,
  className,
  children,
}: {
  title: ReactNode;
  extra?: ReactNode;
  testId?: string;
  className?: string;
  children: ReactNode;
}): ReactNode {
  return (
    <section className={`home-panel dash-panel${className ? ` ${className}` : ''}`} data-testid={testId}>
      <header className="home-panel-head">
        <h2>{title}</h2>
        {extra}
      </header>
      <div className="dash-panel-body">{children}</div>
    </section>
  );
}

/** Loading spinner, failure text or the empty state of a panel; null when there is something to show. */
function PanelState<T>({ data, empty, denied }: { data: Loaded<T>; empty: boolean; denied?: boolean }): ReactNode {
  const { t } = useI18n();
  if (denied) return <div className="dash-note">{t('home.noAccess')}</div>;
  if (data === undefined) return <div className="home-panel-state"><Spin size="small" /></div>;
  if (data === null) return <div className="dash-note is-error">{t('home.loadFailed')}</div>;
  if (empty) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return null;
}

// ------------------------------------------------------------------ KPI strip

function Figure({ tile, className }: { tile: KpiTile; className?: string }): ReactNode {
  return (
    <b className={`kpi-num${className ? ` ${className}` : ''}`} data-testid={`kpi-${tile.name}`} data-value={tile.value}>
      {tile.text}
      {tile.unit && <small>{tile.unit}</small>}
    </b>
  );
}

export function KpiStrip({ kpis, loading, failed, alarmsLink }: { kpis: Kpis | null; loading: boolean; failed: boolean; alarmsLink: boolean }): ReactNode {
  const { t } = useI18n();
  const tiles = kpis ? kpiTiles(kpis) : null;
  const cell = (key: string, label: string, body: ReactNode, onClick?: () => void) => (
    <div className={`kpi${onClick ? ' is-link' : ''}`} key={key} onClick={onClick} role={onClick ? 'button' : undefined}>
      <span className="kpi-label">{label}</span>
      <span className="kpi-values">{body}</span>
    </div>
  );
  if (!tiles) {
    return (
      <div className="kpi-strip is-empty" data-testid="dashboard-kpis">
        {loading ? <Spin size="small" /> : <span className="dash-note is-error">{failed ? t('home.loadFailed') : ''}</span>}
      </div>
    );
  }
  const pair = (a: KpiTile, b: KpiTile, aClass?: string) => (
    <>
      <Figure tile={a} className={aClass} />
      <span className="kpi-sep">/</span>
      <Figure tile={b} className="is-minor" />
    </>
  );
  return (
    <div className="kpi-strip" data-testid="dashboard-kpis">
      {cell('devices', t('home.kpi.devices'), pair(tiles.devicesOnline, tiles.devicesTotal, 'is-ok'))}
      {cell('flying', t('home.kpi.flying'), <Figure tile={tiles.devicesFlying} className={kpis!.devicesFlying > 0 ? 'is-live' : ''} />)}
      {cell('sorties', t('home.kpi.sorties'), pair(tiles.sortiesToday, tiles.sortiesTotal))}
      {cell('flight', t('home.kpi.flightTime'), <Figure tile={tiles.flightSecondsTotal} />)}
      {cell('distance', t('home.kpi.distance'), <Figure tile={tiles.distanceTotal} />)}
      {cell('results', t('home.kpi.results'), pair(tiles.resultsToday, tiles.resultsTotal))}
      {cell(
        'alarms',
        t('home.kpi.alarms'),
        <Figure tile={tiles.alarmsPending} className={kpis!.alarmsPending > 0 ? 'is-alarm' : 'is-ok'} />,
        alarmsLink ? openAlarmCenter : undefined,
      )}
    </div>
  );
}

// ------------------------------------------------------------------ inspection records

export const InspectionRecords = memo(function InspectionRecords({ record }: { record: Loaded<EquipmentRecord> }): ReactNode {
  const { t, lang } = useI18n();
  const navigate = useNavigate();
  const rows = record?.records ?? [];
  return (
    <DashPanel title={t('home.records.title')} testId="inspection-records" className="dash-records">
      <PanelState data={record} empty={rows.length === 0} />
      {rows.length > 0 && (
        <ul className="record-list">
          {rows.map((r) => {
            const flying = r.end_time === 0;
            const d = formatDistance(r.distance);
            return (
              <li key={r.sort_id}>
                <button
                  type="button"
                  className="record-item"
                  data-testid="inspection-record"
                  data-sort-id={r.sort_id}
                  onClick={() => void navigate(`/routeReplay?sort_id=${encodeURIComponent(r.sort_id)}`)}
                >
                  <span className="record-top">
                    <span className="record-route" title={r.mission_name}>{r.mission_name || t('home.records.noRoute')}</span>
                    {flying ? (
                      <span className="record-live">{t('home.records.flying')}</span>
                    ) : (
                      <span className="record-dur tnum">{formatHms(r.end_time - r.start_time)}</span>
                    )}
                  </span>
                  <span className="record-meta">
                    <span className="record-device" title={r.device_name}>{r.device_name || r.sn_id}</span>
                    <span className="tnum">{formatMonthDayTime(r.start_time * 1000, lang)}</span>
                  </span>
                  <span className="record-figures tnum">
                    <span>{d.value} {d.unit}</span>
                    <span>{t('home.records.results', { n: r.count })}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </DashPanel>
  );
});

// ------------------------------------------------------------------ ranking

export const RankingPanel = memo(function RankingPanel({
  ranking,
  checkingTypes,
  type,
  onType,
}: {
  ranking: Loaded<Ranking>;
  checkingTypes: unknown;
  type: number;
  onType: (type: number) => void;
}): ReactNode {
  const { t, lang } = useI18n();
  const options = useMemo(() => checkingOptions(checkingTypes, lang), [checkingTypes, lang]);
  const rows = ranking?.list ?? [];
  const max = rows.reduce((m, r) => Math.max(m, r.value), 0);
  return (
    <DashPanel title={t('home.ranking.title')} testId="ranking" className="dash-ranking">
      <div className="ranking-tabs">
        <Segmented<number>
          block
          size="small"
          value={type}
          onChange={onType}
          options={options.map((o) => ({ value: o.value, label: <span data-testid={`ranking-tab-${o.value}`} title={o.label}>{o.label}</span> }))}
        />
      </div>
      <PanelState data={ranking} empty={rows.length === 0} />
      {rows.length > 0 && (
        <ol className="ranking-list">
          {rows.map((r) => {
            const v = rankingValue(type, r.value, lang);
            return (
              <li key={r.sn_id} className={`rank-${r.rank}`} data-testid="ranking-row" data-value={r.value}>
                <span className="rank-no tnum">{r.rank}</span>
                <span className="rank-main">
                  <span className="rank-line">
                    <span className="rank-name" title={r.name}>{r.name || r.sn_id}</span>
                    <span className="rank-value tnum">
                      {v.value}
                      <small>{v.unit}</small>
                    </span>
                  </span>
                  <span className="rank-bar">
                    <i style={{ width: `${max > 0 ? Math.max(2, (r.value / max) * 100) : 0}%` }} />
                  </span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </DashPanel>
  );
});

// ------------------------------------------------------------------ alarm statistics

function Ring({ parts, total }: { parts: { color: string; value: number }[]; total: number }): ReactNode {
  const r = 30;
  const c = 2 * Math.PI * r;
  let offset = 0;
  return (
    <svg viewBox="0 0 80 80" className="alarm-ring" aria-hidden="true">
      <circle cx="40" cy="40" r={r} className="alarm-ring-track" />
      {total > 0 &&
        parts.map((p, i) => {
          const len = (p.value / total) * c;
          const el = (
            <circle
              key={i}
              cx="40"
              cy="40"
              r={r}
              stroke={p.color}
              strokeDasharray={`${len} ${c - len}`}
              strokeDashoffset={-offset}
              className="alarm-ring-part"
            />
          );
          offset += len;
          return el;
        })}
    </svg>
  );
}

export const AlarmStatsPanel = memo(function AlarmStatsPanel({ stats, denied }: { stats: Loaded<AlarmStats>; denied: boolean }): ReactNode {
  const { t, lang } = useI18n();
  const levels = [30, 20, 10].map((level) => stats?.by_level.find((l) => l.level === level) ?? { level, total: 0, pending: 0 });
  const total = stats?.total ?? 0;
  const pending = stats?.pending ?? 0;
  return (
    <DashPanel
      title={t('home.alarmStats.title')}
      testId="alarm-stats"
      className="dash-alarms"
      extra={
        !denied && (
          <button type="button" className="dash-link" onClick={openAlarmCenter} data-testid="alarm-stats-open">
            {t('home.alarmStats.open')}
          </button>
        )
      }
    >
      {denied || !stats ? (
        <PanelState data={stats} empty={false} denied={denied} />
      ) : (
        <div className="alarm-stats" role="button" onClick={openAlarmCenter}>
          <div className="alarm-ring-box">
            <Ring parts={levels.map((l) => ({ color: levelColor(l.level), value: l.pending }))} total={pending} />
            <span className="alarm-ring-text center-overlay">
              <b className="tnum" data-testid="alarm-stats-pending" data-value={pending}>{pending}</b>
              <small>{t('home.alarmStats.pending')}</small>
            </span>
          </div>
          <div className="alarm-levels">
            {levels.map((l) => (
              <div key={l.level} className="alarm-level" data-testid={`alarm-level-${l.level}`} data-value={l.pending}>
                <span className="alarm-level-name">
                  <i style={{ background: levelColor(l.level) }} />
                  {AlarmLevel.label(l.level, lang)}
                </span>
                <span className="alarm-level-bar">
                  <i style={{ width: `${l.total > 0 ? (l.pending / l.total) * 100 : 0}%`, background: levelColor(l.level) }} />
                </span>
                <span className="alarm-level-num tnum">
                  <b>{l.pending}</b>/{l.total}
                </span>
              </div>
            ))}
            <div className="alarm-totals">
              <span>{t('home.alarmStats.processed')} <b className="tnum">{total - pending}</b></span>
              <span>{t('home.alarmStats.total')} <b className="tnum">{total}</b></span>
            </div>
          </div>
        </div>
      )}
    </DashPanel>
  );
});

// ------------------------------------------------------------------ timed tasks

const TASK_STATE_CLASS: Record<number, string> = { 1: 'is-wait', 3: 'is-paused', 10: 'is-ok', 40: 'is-bad', 41: 'is-bad' };

/** A repeat period in minutes as it reads: once, every n days, hours or minutes. */
export function repeatText(minutes: number, t: ReturnType<typeof useI18n>['t']): string {
  if (minutes <= 0) return t('home.tasks.once');
  if (minutes % 1440 === 0) return t('home.tasks.everyDays', { n: minutes / 1440 });
  if (minutes % 60 === 0) return t('home.tasks.everyHours', { n: minutes / 60 });
  return t('home.tasks.every', { n: minutes });
}

/** Waiting tasks first by next run, then the others by their last planned run, newest first. */
export function orderTasks(tasks: readonly TimedTask[]): TimedTask[] {
  const waiting = tasks.filter((x) => x.task_state === TimedTaskState.WAITING).sort((a, b) => a.task_tms - b.task_tms);
  const rest = tasks.filter((x) => x.task_state !== TimedTaskState.WAITING).sort((a, b) => b.task_tms - a.task_tms);
  return [...waiting, ...rest];
}

export function TaskPanel({ tasks, denied, deviceName }: { tasks: Loaded<TimedTask[]>; denied: boolean; deviceName: (sn: string) => string }): ReactNode {
  const { t, lang } = useI18n();
  const rows = useMemo(() => orderTasks(tasks ?? []), [tasks]);
  const today = new Date().toDateString();
  return (
    <DashPanel title={t('home.tasks.title')} testId="task-list" className="dash-tasks">
      {denied || !tasks || rows.length === 0 ? (
        <PanelState data={tasks} empty={rows.length === 0} denied={denied} />
      ) : (
        <ul className="task-list">
          {rows.map((x) => {
            const when = x.task_tms * 1000;
            const sameDay = new Date(when).toDateString() === today;
            return (
              <li key={x.id} className="task-item" data-testid="task-item" data-state={x.task_state}>
                <span className="task-time tnum">
                  <b>{formatTime(when, lang, false)}</b>
                  <small>{sameDay ? t('home.tasks.today') : formatMonthDay(when, lang)}</small>
                </span>
                <span className="task-main">
                  <span className="task-name" title={x.m_title}>{x.m_title}</span>
                  <span className="task-meta">
                    {deviceName(x.sn_id)} · {repeatText(x.interval, t)}
                  </span>
                </span>
                <span className={`task-state ${TASK_STATE_CLASS[x.task_state] ?? ''}`}>{TimedTaskState.label(x.task_state, lang)}</span>
              </li>
            );
          })}
        </ul>
      )}
    </DashPanel>
  );
}

// ------------------------------------------------------------------ real-time messages

export const MessageFeed = memo(function MessageFeed({ messages }: { messages: Loaded<RealtimeMessage[]> }): ReactNode {
  const { t, tx, lang } = useI18n();
  const rows = messages ?? [];
  return (
    <DashPanel title={t('home.messages.title')} testId="realtime-messages" className="dash-messages">
      <PanelState data={messages} empty={rows.length === 0} />
      {rows.length > 0 && (
        <ul className="message-list">
          {rows.map((m) => (
            <li key={m.id} className={`message-item kind-${m.kind}`} data-testid="realtime-message">
              <span className="message-time tnum">{formatMonthDayTime(m.time, lang)}</span>
              <span
                className="message-dot"
                style={{ background: m.kind === 'alarm' && m.level !== null ? levelColor(m.level) : m.kind === 'sortie_start' ? 'var(--nest-accent-2)' : 'var(--nest-accent)' }}
              />
              <span className="message-kind">
                {m.kind === 'alarm' && m.level !== null ? `${AlarmLevel.label(m.level, lang)} · ` : ''}
                {t(`home.messages.kind.${m.kind === 'alarm' ? 'alarm' : m.kind === 'sortie_start' ? 'sortieStart' : 'sortieEnd'}`)}
              </span>
              <span className="message-device">{m.device_name || m.sn_id}</span>
              <span className="message-text" title={tx(m.text)}>{tx(m.text)}</span>
            </li>
          ))}
        </ul>
      )}
    </DashPanel>
  );
});
