import { createHash } from 'node:crypto';
import { AlarmProcessState, type Alarm } from '@nest/contracts';
import type { Selectable } from 'kysely';
import type { Database } from '../db/index.js';
import type { AlarmsTable, DeviceRow } from '../db/schema.js';
import { deviceNames } from '../sorties/api.js';
import { alarmRowText } from './health.js';

export type AlarmRow = Selectable<AlarmsTable>;

export const STATE_PENDING: number = AlarmProcessState.PENDING;
export const STATE_PROCESSED: number = AlarmProcessState.PROCESSED;

/** Display name of a device: its airport name, else the drone name, else the sn. */
export const deviceNameOf = (row: Pick<DeviceRow, 'sn_id' | 'airport_name' | 'uav_name'> | undefined, sn: string): string =>
  row ? row.airport_name || row.uav_name || sn : sn;

/**
 * A stored row as the calls and push 370 carry it (bigints of PostgreSQL read back as numbers). A
 * device_health row carries its message in both languages (`text`): push frames go to sockets of either
 * language, and the catalogue it comes from stays on the server.
 */
export function presentAlarm(r: AlarmRow, deviceName: string): Alarm {
  const n = (v: number | string | null): number | null => (v === null ? null : Number(v));
  const text = alarmRowText(r);
  return {
    id: r.id,
    sn_id: r.sn_id,
    device_name: deviceName,
    kind: r.kind,
    level: Number(r.level),
    state: Number(r.state),
    value: n(r.value),
    detail: r.detail,
    flight_id: r.flight_id,
    lat: n(r.lat),
    lng: n(r.lng),
    raised_at: Number(r.raised_at),
    cleared_at: n(r.cleared_at),
    processed_at: n(r.processed_at),
    processed_by: r.processed_by,
    note: r.note,
    ...(text ? { text } : {}),
  };
}

/** Rows presented with their device names (one query for all names). */
export async function presentAlarms(db: Database, rows: AlarmRow[]): Promise<Alarm[]> {
  const names = await deviceNames(db, rows.map((r) => r.sn_id));
  return rows.map((r) => presentAlarm(r, names.get(r.sn_id) ?? r.sn_id));
}

/** Pending alarms of a company (every company when null). */
export async function pendingCount(db: Database, companyId: string | null): Promise<number> {
  let q = db.selectFrom('alarms').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', STATE_PENDING);
  if (companyId !== null) q = q.where('company_id', '=', companyId);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/**
 * The id of a one-off alarm (an event), the same on every server instance that hears the event, so the
 * first insert wins and the others change nothing.
 */
export function eventAlarmId(...parts: (string | number)[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
