import {
  CheckingType,
  NO_VALUE,
  STATIC_TOKEN_HEADER,
  formatDistance,
  formatHms,
  type DataTopic,
  type EquipmentRecord,
  type Lang,
} from '@nest/contracts';
import { getLang, t } from '../../shared/i18n';

/** The figures of the KPI strip, raw numbers (data-value, compared with the database by the e2e test). */
export interface Kpis {
  devicesOnline: number;
  devicesTotal: number;
  devicesFlying: number;
  sortiesToday: number;
  sortiesTotal: number;
  flightSecondsTotal: number;
  /** metres */
  distanceTotal: number;
  resultsToday: number;
  resultsTotal: number;
  alarmsPending: number;
}

export function kpisOf(record: EquipmentRecord, pendingOverride?: number | null): Kpis {
  const { devices, inspection } = record;
  return {
    devicesOnline: devices.online,
    devicesTotal: devices.total,
    devicesFlying: devices.flying,
    sortiesToday: inspection.sorties_today,
    sortiesTotal: inspection.sorties_total,
    flightSecondsTotal: inspection.flight_seconds_total,
    distanceTotal: inspection.distance_total,
    resultsToday: inspection.results_today,
    resultsTotal: inspection.results_total,
    // A 370 newer than the record knows the pending count better.
    alarmsPending: pendingOverride ?? inspection.alarms_pending,
  };
}

/** A KPI tile: test id suffix, the raw value, and how it reads. */
export interface KpiTile {
  name: string;
  value: number;
  text: string;
  unit: string;
}

/** The display of the figures: distance by formatDistance (km from 1000 m, 2 decimals), time hh:mm:ss. */
export function kpiTiles(k: Kpis): Record<keyof Kpis, KpiTile> {
  const d = formatDistance(k.distanceTotal);
  const n = (name: string, value: number): KpiTile => ({ name, value, text: Number.isFinite(value) ? String(value) : NO_VALUE, unit: '' });
  return {
    devicesOnline: n('devices-online', k.devicesOnline),
    devicesTotal: n('devices-total', k.devicesTotal),
    devicesFlying: n('devices-flying', k.devicesFlying),
    sortiesToday: n('sorties-today', k.sortiesToday),
    sortiesTotal: n('sorties-total', k.sortiesTotal),
    flightSecondsTotal: { name: 'flight-seconds-total', value: k.flightSecondsTotal, text: formatHms(k.flightSecondsTotal), unit: '' },
    distanceTotal: { name: 'distance-total', value: k.distanceTotal, text: d.value, unit: d.unit },
    resultsToday: n('results-today', k.resultsToday),
    resultsTotal: n('results-total', k.resultsTotal),
    alarmsPending: n('alarms-pending', k.alarmsPending),
  };
}

/** Ranking value as it reads: mileage (20) in m / km, counts as they are; with the unit word of the type. */
export function rankingValue(type: number, value: number, lang: Lang): { value: string; unit: string } {
  if (type === CheckingType.MILEAGE) return formatDistance(value);
  const unit = t(type === CheckingType.ATTENDANCE ? 'home.ranking.unit.sorties' : 'home.ranking.unit.results', undefined, lang);
  return { value: String(value), unit };
}

export interface CheckingOption {
  value: number;
  label: string;
}

/** The checking-type resource [{value, label: {zh, en}}] as tabs; the enum when it is unusable. */
export function checkingOptions(raw: unknown, lang: Lang): CheckingOption[] {
  if (Array.isArray(raw)) {
    const list: CheckingOption[] = [];
    for (const o of raw as { value?: unknown; label?: { zh?: unknown; en?: unknown } }[]) {
      const value = Number(o?.value);
      if (!CheckingType.has(value)) continue;
      const label = o.label?.[lang];
      list.push({ value, label: typeof label === 'string' && label ? label : CheckingType.label(value, lang) });
    }
    if (list.length > 0) return list;
  }
  return CheckingType.options(lang);
}

// ------------------------------------------------------------------ static resources

export class StaticError extends Error {
  constructor(readonly status: number) {
    super(`static resource answered ${status}`);
    this.name = 'StaticError';
  }
}

/** GET of a static JSON resource with the session token in its header; plain JSON, no envelope. */
export async function fetchStatic(
  path: string,
  token: string,
  query: Record<string, string | number> = {},
  signal?: AbortSignal,
  fetchImpl: typeof fetch = fetch,
): Promise<unknown> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await fetchImpl(qs ? `${path}?${qs}` : path, {
    method: 'GET',
    // The page's language: the server names demo devices and routes in it (contracts demo-texts).
    headers: { [STATIC_TOKEN_HEADER]: token, Accept: 'application/json', 'Accept-Language': getLang() },
    cache: 'no-store',
    credentials: 'same-origin',
    signal,
  });
  if (!res.ok) throw new StaticError(res.status);
  return (await res.json()) as unknown;
}

// ------------------------------------------------------------------ live refetch

/** The panels of the data screen that read data. */
export type Panel = 'record' | 'ranking' | 'alarms' | 'tasks' | 'messages';
export const ALL_PANELS: readonly Panel[] = ['record', 'ranking', 'alarms', 'tasks', 'messages'];

/** Which panels a 380 topic makes stale. */
export const TOPIC_PANELS: Readonly<Record<DataTopic, readonly Panel[]>> = {
  sorties: ['record', 'ranking', 'messages'],
  results: ['record', 'ranking'],
  alarms: ['record', 'alarms', 'messages'],
  tasks: ['tasks'],
};

export const panelsOfTopics = (topics: readonly string[]): Panel[] => {
  const set = new Set<Panel>();
  for (const t of topics) for (const p of TOPIC_PANELS[t as DataTopic] ?? []) set.add(p);
  return [...set];
};

/**
 * Coalesces refetch requests: panels asked for are loaded at most once per `gapMs` (the first request at once,
 * later ones gathered until the gap has passed), and never while the previous load still runs.
 */
export class Refetcher {
  private pending = new Set<Panel>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = -Infinity;
  private running = false;
  private stopped = false;

  constructor(
    private readonly load: (panels: Panel[]) => Promise<void> | void,
    private readonly gapMs = 3_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  request(panels: readonly Panel[]): void {
    if (this.stopped || panels.length === 0) return;
    panels.forEach((p) => this.pending.add(p));
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null || this.running || this.pending.size === 0) return;
    const wait = Math.max(0, this.last + this.gapMs - this.now());
    if (wait === 0) void this.fire();
    else this.timer = setTimeout(() => {
      this.timer = null;
      void this.fire();
    }, wait);
  }

  private async fire(): Promise<void> {
    if (this.stopped) return;
    const panels = [...this.pending];
    this.pending.clear();
    this.running = true;
    this.last = this.now();
    try {
      await this.load(panels);
    } catch {
      /* each panel keeps what it showed; the next change asks again */
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
