import {
  AlarmProcessState,
  CheckingType,
  FlowStep,
  INSPECTION_RECORD_LIMIT,
  NestPart,
  REALTIME_MESSAGE_LIMIT,
  alarmText,
  textsOf,
  type EquipmentRecord,
  type InspectionRecord,
  type Lang,
  type RealtimeMessage,
} from '@nest/contracts';
import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';
import { alarmRowText } from '../alarms/api.js';
import { deviceName } from '../devices/api.js';
import type { PlanScope } from '../db/scope.js';
import { inAir } from '../flight/api.js';
import { STATE_NORMAL } from '../db/sql.js';
import { deviceNames } from '../sorties/api.js';

const ALARM_PENDING: number = AlarmProcessState.PENDING;

/** Words for an alarm's `detail` (nest part, flow step, TF card problem); the raw detail otherwise. */
export function alarmDetailLabel(kind: string, detail: string, lang: Lang): string {
  if (kind === 'nest_part_fault' && NestPart.has(detail)) return NestPart.label(detail, lang);
  if (kind === 'flow_failed' && FlowStep.has(detail)) return FlowStep.label(detail, lang);
  if (kind === 'tf_card') {
    if (detail === 'missing') return lang === 'zh' ? '未插卡' : 'no card';
    if (detail === 'full') return lang === 'zh' ? '空间不足' : 'almost full';
  }
  return detail;
}

/** checking-type.json: the CheckingType options with both labels. */
export const checkingTypes = (): { value: number; label: { zh: string; en: string } }[] =>
  CheckingType.entries.map((e) => ({ value: e.value, label: { zh: e.label.zh, en: e.label.en } }));

/**
 * The line of a sortie that started or ended, naming the device and the route (one-key flights have none).
 * Each language's line names them in that language when they are demo texts ("单兵 D01 起飞", "Soldier D01
 * took off"); names users gave are quoted as stored.
 */
export function sortieText(kind: 'sortie_start' | 'sortie_end', device: string, route: string): { zh: string; en: string } {
  const d = textsOf(device);
  const r = textsOf(route);
  if (kind === 'sortie_start') {
    return route
      ? { zh: `${d.zh} 开始执行航线「${r.zh}」`, en: `${d.en} started route "${r.en}"` }
      : { zh: `${d.zh} 起飞`, en: `${d.en} took off` };
  }
  return route
    ? { zh: `${d.zh} 完成航线「${r.zh}」`, en: `${d.en} finished route "${r.en}"` }
    : { zh: `${d.zh} 结束飞行`, en: `${d.en} ended its flight` };
}

/**
 * realtime-message.json: the newest REALTIME_MESSAGE_LIMIT events of the scope, newest first: alarms
 * raised, sorties started (at their start) and ended (at their end).
 */
export async function realtimeMessages(deps: AppDeps, scope: PlanScope, limit = REALTIME_MESSAGE_LIMIT): Promise<RealtimeMessage[]> {
  const { db } = deps;
  let aq = db.selectFrom('alarms').select(['id', 'sn_id', 'kind', 'level', 'value', 'detail', 'data', 'raised_at']);
  if (!scope.all) aq = aq.where('company_id', '=', scope.companyId);
  const alarms = await aq.orderBy('raised_at', 'desc').orderBy('id').limit(limit).execute();
  let sq = db.selectFrom('sorties').select(['id', 'sn_id', 'mission_name', 'start_time', 'end_time']).where('state', '=', STATE_NORMAL);
  if (!scope.all) sq = sq.where('company_id', '=', scope.companyId);
  const started = await sq.orderBy('start_time', 'desc').orderBy('id').limit(limit).execute();
  const ended = await sq.where('end_time', 'is not', null).orderBy('end_time', 'desc').orderBy('id').limit(limit).execute();
  const names = await deviceNames(db, [...alarms, ...started, ...ended].map((r) => r.sn_id));
  const out: RealtimeMessage[] = [];
  for (const a of alarms) {
    const alarm = { kind: a.kind, value: a.value === null ? null : Number(a.value), detail: a.detail, text: alarmRowText(a) };
    out.push({
      id: `alarm:${a.id}`,
      kind: 'alarm',
      level: Number(a.level),
      sn_id: a.sn_id,
      device_name: names.get(a.sn_id)!,
      text: { zh: alarmText(alarm, 'zh', alarmDetailLabel), en: alarmText(alarm, 'en', alarmDetailLabel) },
      time: Number(a.raised_at),
    });
  }
  for (const s of started) {
    const device = names.get(s.sn_id)!;
    out.push({
      id: `start:${s.id}`,
      kind: 'sortie_start',
      level: null,
      sn_id: s.sn_id,
      device_name: device,
      text: sortieText('sortie_start', device, s.mission_name),
      time: Number(s.start_time) * 1000,
    });
  }
  for (const s of ended) {
    const device = names.get(s.sn_id)!;
    out.push({
      id: `end:${s.id}`,
      kind: 'sortie_end',
      level: null,
      sn_id: s.sn_id,
      device_name: device,
      text: sortieText('sortie_end', device, s.mission_name),
      time: Number(s.end_time) * 1000,
    });
  }
  return out.sort((a, b) => b.time - a.time || a.id.localeCompare(b.id)).slice(0, limit);
}

/** Local midnight (server's zone) of a moment, in ms. */
export function localMidnight(nowMs: number): number {
  const d = new Date(nowMs);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * equipment-record.json: the fleet now (from the live link and holds) and the inspection figures
 * (sorties, flight time, distance, results, pending alarms) of the scope, with the latest inspection
 * records. "Today" starts at the server's local midnight.
 */
export async function equipmentRecord(deps: AppDeps, scope: PlanScope, nowMs = Date.now()): Promise<EquipmentRecord> {
  const { db, live } = deps;
  let dq = db.selectFrom('devices').select(['sn_id', 'airport_name', 'uav_name']).where('state', '=', STATE_NORMAL);
  if (!scope.all) dq = dq.where('company_id', '=', scope.companyId);
  const devices = await dq.execute();
  const fleet = { total: devices.length, online: 0, offline: 0, connected: 0, flying: 0 };
  for (const d of devices) {
    const live_ = live.link.device(d.sn_id);
    if (!live_?.online) {
      fleet.offline++;
      continue;
    }
    fleet.online++;
    if (live.status.holder(d.sn_id)) fleet.connected++;
    if (inAir(live_.telemetry) === true) fleet.flying++;
  }

  const midnight = localMidnight(nowMs);
  let sq = db.selectFrom('sorties').where('state', '=', STATE_NORMAL);
  if (!scope.all) sq = sq.where('company_id', '=', scope.companyId);
  const sortieFigures = await sq
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(sql<number>`case when start_time >= ${Math.floor(midnight / 1000)} then 1 else 0 end`).as('today'),
      eb.fn.sum<number>(sql<number>`case when end_time is not null then end_time - start_time else 0 end`).as('seconds'),
      eb.fn.sum<number>('distance').as('distance'),
    ])
    .executeTakeFirst();

  let rq = db.selectFrom('results').where('state', '=', STATE_NORMAL);
  if (!scope.all) rq = rq.where('company_id', '=', scope.companyId);
  const byType = await rq
    .select((eb) => ['type', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(sql<number>`case when taken_at >= ${midnight} then 1 else 0 end`).as('today')])
    .groupBy('type')
    .execute();
  const results_by_type = { '10': 0, '15': 0, '20': 0 };
  let results_total = 0;
  let results_today = 0;
  for (const r of byType) {
    const key = String(Number(r.type));
    if (key in results_by_type) results_by_type[key as keyof typeof results_by_type] = Number(r.n);
    results_total += Number(r.n);
    results_today += Number(r.today ?? 0);
  }

  let aq = db.selectFrom('alarms').where('state', '=', ALARM_PENDING);
  if (!scope.all) aq = aq.where('company_id', '=', scope.companyId);
  const pending = await aq.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();

  const latest = await sq.selectAll().orderBy('start_time', 'desc').orderBy('id').limit(INSPECTION_RECORD_LIMIT).execute();
  const names = new Map(devices.map((d) => [d.sn_id, deviceName(d)]));
  const missing = latest.map((s) => s.sn_id).filter((sn) => !names.has(sn));
  if (missing.length > 0) for (const [sn, n] of await deviceNames(db, missing)) names.set(sn, n);
  const records: InspectionRecord[] = latest.map((s) => ({
    sort_id: s.id,
    sn_id: s.sn_id,
    device_name: names.get(s.sn_id)!,
    mission_name: s.mission_name,
    user_name: s.user_name,
    start_time: Number(s.start_time),
    end_time: s.end_time === null ? 0 : Number(s.end_time),
    distance: Number(s.distance),
    count: Number(s.count),
  }));

  return {
    devices: fleet,
    inspection: {
      sorties_total: Number(sortieFigures?.total ?? 0),
      sorties_today: Number(sortieFigures?.today ?? 0),
      flight_seconds_total: Number(sortieFigures?.seconds ?? 0),
      distance_total: Number(sortieFigures?.distance ?? 0),
      results_total,
      results_today,
      results_by_type,
      alarms_pending: Number(pending?.n ?? 0),
    },
    records,
    generated_at: nowMs,
  };
}
