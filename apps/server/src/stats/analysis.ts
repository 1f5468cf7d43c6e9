import { ResultCode, type Analysis, type AnalysisDay, type AnalysisDevice } from '@nest/contracts';
import { CallError } from '../calls/errors.js';
import { nowSeconds, type Database } from '../db/index.js';
import { deviceName } from '../devices/api.js';
import type { PlanScope } from '../db/scope.js';
import { STATE_NORMAL } from '../db/sql.js';

export interface AnalysisQuery {
  /** Seconds, inclusive. */
  start_time: number;
  end_time: number;
  sn_ids?: string[];
  /** Minutes east of UTC (480: China Standard Time). */
  tz_offset?: number;
}

export const DEFAULT_TZ_OFFSET = 480;
const DAY = 86_400;
const HOUR_MS = 3_600_000;

/** Calendar day number (days since 1970-01-01 in that zone) of a moment (s). */
export const dayOf = (t: number, tzMinutes: number): number => Math.floor((t + tzMinutes * 60) / DAY);
export const dayLabel = (day: number): string => new Date(day * DAY * 1000).toISOString().slice(0, 10);

const per3 = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
const RESULT_TYPES = ['10', '15', '20'] as const;
const LEVELS = ['10', '20', '30'] as const;

/**
 * /data/analyse. Everything is read from the database for the period and the devices:
 * - sorties by their start (s) within the period; flight_seconds and distance of finished sorties (a
 *   sortie still flying counts as a sortie, not yet as time or distance);
 * - results by when they were taken (ms), alarms by when they were raised (ms);
 * - online_seconds: the per-hour uptime log (device_uptime) over the hours the period touches, an hour
 *   only partly inside the period counted pro rata (the current hour: of the part that has passed);
 * - online_rate = online_seconds / the seconds of the period the device existed (from its creation, up to
 *   now when the period runs into the future);
 * - utilisation = days with at least one sortie / days of the period the device existed (same clipping).
 * Days are calendar days in the caller's time zone (tz_offset).
 */
export async function analyse(db: Database, scope: PlanScope, q: AnalysisQuery, now = nowSeconds()): Promise<Analysis> {
  const tz = q.tz_offset ?? DEFAULT_TZ_OFFSET;
  const { start_time: start, end_time: end } = q;

  let dq = db.selectFrom('devices').select(['sn_id', 'airport_name', 'uav_name', 'company_id', 'created_at']).where('state', '=', STATE_NORMAL);
  if (!scope.all) dq = dq.where('company_id', '=', scope.companyId);
  const wanted = q.sn_ids ? [...new Set(q.sn_ids)] : null;
  if (wanted) dq = dq.where('sn_id', 'in', wanted);
  const found = await dq.execute();
  // A device of another company reads as missing, like any other record.
  if (wanted && found.length !== wanted.length) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
  const devices = found.sort((a, b) => deviceName(a).localeCompare(deviceName(b)) || a.sn_id.localeCompare(b.sn_id));
  const sns = devices.map((d) => d.sn_id);

  const firstDay = dayOf(start, tz);
  const lastDay = dayOf(end, tz);
  const days: AnalysisDay[] = [];
  for (let d = firstDay; d <= lastDay; d++) {
    days.push({ day: dayLabel(d), sorties: 0, flight_seconds: 0, distance: 0, results: per3(RESULT_TYPES), alarms: per3(LEVELS) });
  }
  const dayAt = (t: number): AnalysisDay | undefined => days[dayOf(t, tz) - firstDay];

  const perDevice = new Map<string, AnalysisDevice & { sortieDays: Set<number> }>();
  for (const d of devices) {
    perDevice.set(d.sn_id, {
      sn_id: d.sn_id,
      name: deviceName(d),
      sorties: 0,
      flight_seconds: 0,
      distance: 0,
      results: 0,
      alarms: 0,
      online_seconds: 0,
      online_rate: 0,
      utilisation: 0,
      sortieDays: new Set(),
    });
  }
  const totals: Analysis['totals'] = { sorties: 0, flight_seconds: 0, distance: 0, results: per3(RESULT_TYPES), alarms: per3(LEVELS) };

  // Rows are read in chunks of devices so a large fleet stays within parameter limits.
  for (let i = 0; i < sns.length; i += 500) {
    const chunk = sns.slice(i, i + 500);
    const sorties = await db
      .selectFrom('sorties')
      .select(['sn_id', 'start_time', 'end_time', 'distance'])
      .where('state', '=', STATE_NORMAL)
      .where('sn_id', 'in', chunk)
      .where('start_time', '>=', start)
      .where('start_time', '<=', end)
      .execute();
    for (const s of sorties) {
      const st = Number(s.start_time);
      const finished = s.end_time !== null;
      const secs = finished ? Math.max(0, Number(s.end_time) - st) : 0;
      const dist = finished ? Number(s.distance) : 0;
      const day = dayAt(st)!;
      const dev = perDevice.get(s.sn_id)!;
      for (const o of [day, dev, totals]) {
        o.sorties += 1;
        o.flight_seconds += secs;
        o.distance += dist;
      }
      dev.sortieDays.add(dayOf(st, tz));
    }

    const results = await db
      .selectFrom('results')
      .select(['sn_id', 'type', 'taken_at'])
      .where('state', '=', STATE_NORMAL)
      .where('sn_id', 'in', chunk)
      .where('taken_at', '>=', start * 1000)
      .where('taken_at', '<', (end + 1) * 1000)
      .execute();
    for (const r of results) {
      const n = 1;
      const type = String(Number(r.type)) as (typeof RESULT_TYPES)[number];
      const day = dayAt(Math.floor(Number(r.taken_at) / 1000))!;
      if (type in day.results) {
        day.results[type] += n;
        totals.results[type] += n;
      }
      perDevice.get(r.sn_id)!.results += n;
    }

    const alarms = await db
      .selectFrom('alarms')
      .select(['sn_id', 'level', 'raised_at'])
      .where('sn_id', 'in', chunk)
      .where('raised_at', '>=', start * 1000)
      .where('raised_at', '<', (end + 1) * 1000)
      .execute();
    for (const a of alarms) {
      const level = String(Number(a.level)) as (typeof LEVELS)[number];
      const day = dayAt(Math.floor(Number(a.raised_at) / 1000))!;
      if (level in day.alarms) {
        day.alarms[level] += 1;
        totals.alarms[level] += 1;
      }
      perDevice.get(a.sn_id)!.alarms += 1;
    }

    const periodStartMs = start * 1000;
    const periodEndMs = (end + 1) * 1000;
    const uptime = await db
      .selectFrom('device_uptime')
      .select(['sn_id', 'hour', 'seconds'])
      .where('sn_id', 'in', chunk)
      .where('hour', '>', periodStartMs - HOUR_MS)
      .where('hour', '<', periodEndMs)
      .execute();
    const nowMs = now * 1000;
    for (const u of uptime) {
      const hour = Number(u.hour);
      // The current hour is only as long as it has lasted so far.
      const hourEnd = Math.min(hour + HOUR_MS, Math.max(nowMs, hour + 1000));
      const inside = Math.max(0, Math.min(hourEnd, periodEndMs) - Math.max(hour, periodStartMs));
      perDevice.get(u.sn_id)!.online_seconds += (Number(u.seconds) * inside) / (hourEnd - hour);
    }
  }

  const created = new Map(devices.map((d) => [d.sn_id, Number(d.created_at)]));
  const list: AnalysisDevice[] = [];
  for (const { sortieDays, ...dev } of perDevice.values()) {
    const from = Math.max(start, created.get(dev.sn_id) ?? start);
    const to = Math.min(end + 1, now);
    const seconds = Math.max(0, to - from);
    const dayCount = to > from ? dayOf(to - 1, tz) - dayOf(from, tz) + 1 : 0;
    dev.online_seconds = Math.round(dev.online_seconds);
    dev.online_rate = seconds > 0 ? Math.min(1, dev.online_seconds / seconds) : 0;
    dev.utilisation = dayCount > 0 ? Math.min(1, sortieDays.size / dayCount) : 0;
    list.push(dev);
  }
  return { start_time: start, end_time: end, days, devices: list, totals };
}
