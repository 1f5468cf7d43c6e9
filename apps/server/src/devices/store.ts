import { randomUUID } from 'node:crypto';
import {
  DeviceCategory,
  DeviceProtocol,
  DeviceKind,
  DEVICE_KIND_OF_KEY,
  beaconSchema,
  isDeviceSn,
  type Beacon,
  type Device,
  type DeviceProtocolValue,
  type DeviceTypeKeyValue,
  type LatLng,
} from '@nest/contracts';
import type { Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB, DeviceRow } from '../db/schema.js';
import { STATE_NORMAL, isUniqueViolation } from '../db/sql.js';

export class SnTakenError extends Error {
  override name = 'SnTakenError';
}
export class InvalidSnError extends Error {
  override name = 'InvalidSnError';
}

export interface NewDevice {
  type: DeviceTypeKeyValue;
  sn_id: string;
  company_id: string;
  link_type?: number;
  /** DeviceProtocol; default the nest protocol. */
  protocol?: number;
  airport_name?: string;
  uav_name?: string;
  uav_sn?: string;
  address?: string;
  uav_model?: string;
  description?: string;
  azimuth?: number;
  altn_point?: LatLng | null;
  airport_point?: LatLng | null;
  beacon?: Beacon | null;
  enabled?: boolean;
}

/** Registers a device; the sn must be a valid device sn (contracts isDeviceSn) and not taken. */
export async function createDevice(db: Kysely<DB>, input: NewDevice): Promise<DeviceRow> {
  if (!isDeviceSn(input.sn_id)) throw new InvalidSnError(`"${input.sn_id}" is not a valid device serial number`);
  if (!DeviceCategory.has(input.type)) throw new Error(`unknown device type ${input.type}`);
  const now = nowSeconds();
  const row: DeviceRow = {
    id: randomUUID(),
    type: input.type,
    link_type: input.link_type ?? 3,
    protocol: input.protocol ?? DeviceProtocol.NEST,
    secret_gen: 0,
    airport_name: input.airport_name ?? '',
    uav_name: input.uav_name ?? '',
    sn_id: input.sn_id,
    uav_sn: input.uav_sn ?? '',
    address: input.address ?? '',
    uav_model: input.uav_model ?? '',
    description: input.description ?? '',
    azimuth: input.azimuth ?? -1,
    altn_lat: input.altn_point?.lat ?? null,
    altn_lng: input.altn_point?.lng ?? null,
    airport_lat: input.airport_point?.lat ?? null,
    airport_lng: input.airport_point?.lng ?? null,
    beacon: input.beacon ? JSON.stringify(input.beacon) : null,
    company_id: input.company_id,
    enabled: input.enabled === false ? 0 : 1,
    state: STATE_NORMAL,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto('devices').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new SnTakenError(`serial number ${input.sn_id} is already registered`);
    throw err;
  }
  return row;
}

export async function findDeviceBySn(db: Kysely<DB>, sn: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('sn_id', '=', sn).executeTakeFirst();
}

/** Every device that is not deleted (state 10), for the in-memory directory. */
export async function loadDevices(db: Kysely<DB>): Promise<DeviceRow[]> {
  return db.selectFrom('devices').selectAll().where('state', '=', STATE_NORMAL).execute();
}

/**
 * How many device rows there are (deleted ones included) and the latest `updated_at` among them: every
 * write through this module, a deletion included, moves one of the two.
 */
export async function devicesStamp(db: Kysely<DB>): Promise<{ rows: number; updatedAt: number }> {
  const r = await db
    .selectFrom('devices')
    .select((eb) => [eb.fn.countAll<number | string>().as('rows'), eb.fn.max<number | string | null>('updated_at').as('updated_at')])
    .executeTakeFirstOrThrow();
  return { rows: Number(r.rows), updatedAt: Number(r.updated_at ?? 0) };
}

/**
 * Up to `limit` devices that are not deleted whose id comes after `afterId` ('' for the first), in id
 * order: every device is read once when the pages are read one after the other, whatever is written
 * between them.
 */
export async function loadDevicesAfter(db: Kysely<DB>, afterId: string, limit: number): Promise<DeviceRow[]> {
  return db.selectFrom('devices').selectAll().where('state', '=', STATE_NORMAL).where('id', '>', afterId).orderBy('id').limit(limit).execute();
}

/**
 * The `type` filter of /device/list: 0 all; a DeviceKind code (10 fixed, 100 mobile, 200 single-soldier)
 * selects the categories of that kind (10: stable and stable_mini). Null for any other number.
 */
export function categoriesOfTypeFilter(type: number): DeviceTypeKeyValue[] | 'all' | null {
  if (type === 0) return 'all';
  if (!DeviceKind.has(type)) return null;
  return (Object.keys(DEVICE_KIND_OF_KEY) as DeviceTypeKeyValue[]).filter((k) => DEVICE_KIND_OF_KEY[k] === type);
}

const point = (lat: number | null, lng: number | null): LatLng | null =>
  lat === null || lng === null ? null : { lat: Number(lat), lng: Number(lng) };

function beaconOf(json: string | null): Beacon | null {
  if (!json) return null;
  try {
    const parsed = beaconSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Display name: the airport name of a nest, else the drone name, else the sn. */
export const deviceName = (row: Pick<DeviceRow, 'airport_name' | 'uav_name' | 'sn_id'>): string =>
  row.airport_name || row.uav_name || row.sn_id;

export const airportPoint = (row: DeviceRow): LatLng | null => point(row.airport_lat, row.airport_lng);

/** The registry part of a device (contracts deviceSchema), with the live online status given. */
export function presentDevice(row: DeviceRow, state: 1 | 2 | 3): Device {
  return {
    id: row.id,
    type: row.type as DeviceTypeKeyValue,
    link_type: row.link_type as 1 | 2 | 3,
    protocol: DeviceProtocol.has(Number(row.protocol)) ? (Number(row.protocol) as DeviceProtocolValue) : DeviceProtocol.NEST,
    airport_name: row.airport_name,
    uav_name: row.uav_name,
    sn_id: row.sn_id,
    uav_sn: row.uav_sn,
    address: row.address,
    uav_model: row.uav_model,
    description: row.description,
    azimuth: Number(row.azimuth),
    altn_point: point(row.altn_lat, row.altn_lng),
    airport_point: airportPoint(row),
    beacon: beaconOf(row.beacon),
    company: row.company_id,
    state,
    enabled: Number(row.enabled) === 1,
    create_time: Number(row.created_at),
  };
}

// ---------------------------------------------------------------------------------------------------
// Equipment administration (devices/admin.ts): lookups by id and whole-record updates.

/** The editable fields of a device as /device/add and /device/edit store them (every field given). */
export type DeviceFields = Required<Omit<NewDevice, 'sn_id' | 'enabled' | 'protocol'>>;

/** The columns of the editable fields (points split into lat / lng, beacon as JSON). */
export function deviceColumns(f: DeviceFields) {
  return {
    type: f.type,
    link_type: f.link_type,
    airport_name: f.airport_name,
    uav_name: f.uav_name,
    uav_sn: f.uav_sn,
    address: f.address,
    uav_model: f.uav_model,
    description: f.description,
    azimuth: f.azimuth,
    altn_lat: f.altn_point?.lat ?? null,
    altn_lng: f.altn_point?.lng ?? null,
    airport_lat: f.airport_point?.lat ?? null,
    airport_lng: f.airport_point?.lng ?? null,
    beacon: f.beacon ? JSON.stringify(f.beacon) : null,
    company_id: f.company_id,
  };
}

/** A device by id, deleted ones included (the caller checks state and scope). */
export async function findDeviceById(db: Kysely<DB>, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Changes columns of a device (updated_at set now) and answers the stored row. */
export async function updateDeviceRow(
  db: Kysely<DB>,
  id: string,
  set: Partial<Omit<DeviceRow, 'id' | 'sn_id' | 'updated_at'>>,
): Promise<DeviceRow> {
  await db.updateTable('devices').set({ ...set, updated_at: nowSeconds() }).where('id', '=', id).execute();
  const row = await findDeviceById(db, id);
  if (!row) throw new Error(`device ${id} vanished during its update`);
  return row;
}
