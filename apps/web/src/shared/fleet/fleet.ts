import {
  DeviceTypeState,
  AIRBORNE_FLIGHT_STATES,
  OnlineStatus,
  DEVICE_KIND_OF_KEY,
  droneVideoUrl,
  type DeviceListItem,
  type DeviceStatusPush,
  type FleetEntry,
  type TelemetryData,
} from '@nest/contracts';
import type { MapDevice } from '../map/markers';

/** A device as the data screen keeps it: the /device/list row plus what live pushes changed. */
export interface FleetDevice extends MapDevice {
  item: DeviceListItem;
  /** DeviceKind code (10 fixed, 100 mobile, 200 single-soldier). */
  kind: number;
  connectedBy: DeviceListItem['connected_by'];
  battery: number | null;
  height: number | null;
  streamUrl: string | null;
  /** ms of the last live update (push), 0 when only listed. */
  updatedAt: number;
}

export const displayName = (item: Pick<DeviceListItem, 'name' | 'airport_name' | 'uav_name' | 'sn_id'>): string =>
  item.name || item.airport_name || item.uav_name || item.sn_id;

export function fromListItem(item: DeviceListItem): FleetDevice {
  return {
    sn: item.sn_id,
    name: displayName(item),
    state: item.state,
    position: item.position,
    heading: 0,
    flightState: null,
    drone: item.type === 'alone',
    item,
    kind: DEVICE_KIND_OF_KEY[item.type as keyof typeof DEVICE_KIND_OF_KEY] ?? 0,
    connectedBy: item.connected_by,
    battery: null,
    height: null,
    streamUrl: droneVideoUrl(item),
    updatedAt: 0,
  };
}

/**
 * A fresh /device/list answer merged into what is shown: registry fields, state and stream url from the
 * list; live fields (heading, flight state, battery, height, and the position when a push is newer than
 * the list) kept from before. Devices gone from the list are dropped.
 */
export function mergeList(prev: readonly FleetDevice[], items: readonly DeviceListItem[]): FleetDevice[] {
  const bySn = new Map(prev.map((d) => [d.sn, d]));
  return items.map((item) => {
    const next = fromListItem(item);
    const old = bySn.get(item.sn_id);
    if (!old || old.updatedAt === 0) return next;
    return {
      ...next,
      position: old.position ?? next.position,
      heading: old.heading,
      flightState: old.flightState,
      battery: old.battery,
      height: old.height,
      updatedAt: old.updatedAt,
    };
  });
}

function patch(devices: readonly FleetDevice[], sn: string, change: (d: FleetDevice) => FleetDevice): FleetDevice[] {
  const i = devices.findIndex((d) => d.sn === sn);
  if (i < 0) return devices as FleetDevice[];
  const next = devices.slice();
  next[i] = change(devices[i]!);
  return next;
}

/** A 310 batch: positions, states, headings, flight states of listed devices. Unknown devices are ignored. */
export function applyFleetUpdate(devices: readonly FleetDevice[], entries: readonly FleetEntry[], now = Date.now()): FleetDevice[] {
  const bySn = new Map(entries.map((e) => [e.sn_id, e]));
  if (!devices.some((d) => bySn.has(d.sn))) return devices as FleetDevice[];
  return devices.map((d) => {
    const e = bySn.get(d.sn);
    if (!e) return d;
    return {
      ...d,
      state: e.state,
      position: { lat: e.lat, lng: e.lng },
      heading: e.heading,
      flightState: e.flight_state,
      battery: e.battery,
      height: e.height,
      updatedAt: now,
    };
  });
}

/** Serial numbers of a 310 batch that the list does not know yet (a reason to reload it). */
export const unknownSns = (devices: readonly FleetDevice[], entries: readonly FleetEntry[]): string[] => {
  const known = new Set(devices.map((d) => d.sn));
  return entries.filter((e) => !known.has(e.sn_id)).map((e) => e.sn_id);
};

/** A 301 status: online state and who holds the control connection. */
export function applyStatus(devices: readonly FleetDevice[], status: DeviceStatusPush, now = Date.now()): FleetDevice[] {
  return patch(devices, status.sn_id, (d) => ({ ...d, state: status.state, connectedBy: status.connected_by, updatedAt: now }));
}

/** A 300 telemetry of a verified device: its position (the drone's while flying, else the nest's) and state. */
export function applyTelemetry(devices: readonly FleetDevice[], sn: string, state: number, telemetry: TelemetryData, now = Date.now()): FleetDevice[] {
  return patch(devices, sn, (d) => {
    const drone = telemetry.drone;
    const nest = telemetry.nest;
    const flying = drone ? AIRBORNE_FLIGHT_STATES.includes(drone.flight_state) : false;
    const pos = drone && (flying || !nest) ? { lat: drone.lat, lng: drone.lng } : nest ? { lat: nest.lat, lng: nest.lng } : d.position;
    return {
      ...d,
      state,
      position: pos,
      heading: drone?.heading ?? d.heading,
      flightState: drone?.flight_state ?? d.flightState,
      battery: drone?.battery.percent ?? d.battery,
      height: drone?.height ?? d.height,
      updatedAt: now,
    };
  });
}

export interface FleetFilter {
  search: string;
  /** DeviceKind code, 0 for all. */
  kind: number;
}

/** Devices matching the search (name, SN, airport, drone name or SN; any case) and the kind. */
export function filterDevices(devices: readonly FleetDevice[], filter: FleetFilter): FleetDevice[] {
  const q = filter.search.trim().toLowerCase();
  return devices.filter((d) => {
    if (filter.kind && d.kind !== filter.kind) return false;
    if (!q) return true;
    const i = d.item;
    return [d.name, d.sn, i.airport_name, i.uav_name, i.uav_sn, i.address].some((s) => s?.toLowerCase().includes(q));
  });
}

/** Who holds a held device (state 3): the signed-in user, or someone else (named when the data says who). */
export type Holder = { mine: true } | { mine: false; nick: string | null };

/** The holder of a device in state 3, null in any other state; `meId` is the signed-in user's u_id. */
export function holderOf(d: Pick<FleetDevice, 'state' | 'connectedBy'>, meId: string | null | undefined): Holder | null {
  if (d.state !== OnlineStatus.CONNECTED_BY_OTHER) return null;
  if (d.connectedBy && meId && d.connectedBy.u_id === meId) return { mine: true };
  return { mine: false, nick: d.connectedBy?.nick || null };
}

/**
 * The devices with `mine` set where the signed-in user holds the control connection, so that the list,
 * the panel and the map tell "you" from someone else. Unchanged devices keep their identity.
 */
export function markMine(devices: readonly FleetDevice[], meId: string | null | undefined): FleetDevice[] {
  return devices.map((d) => {
    const mine = holderOf(d, meId)?.mine === true;
    return !!d.mine === mine ? d : { ...d, mine };
  });
}

/** Online (1) and connected-by-someone (3) count as online. */
export const isOnline = (state: number): boolean => state === OnlineStatus.ONLINE || state === OnlineStatus.CONNECTED_BY_OTHER;

export function fleetCounts(devices: readonly FleetDevice[]): { online: number; total: number } {
  return { online: devices.filter((d) => isOnline(d.state)).length, total: devices.length };
}

/** Options of the type filter from /device/uav/type (device types; `cla_type` DeviceKind, `cla_name`). */
export function typeOptions(types: unknown): { value: number; label: string }[] {
  if (!Array.isArray(types)) return [];
  const seen = new Map<number, string>();
  for (const t of types as { cla_type?: unknown; cla_name?: unknown; state?: unknown }[]) {
    if (typeof t !== 'object' || t === null) continue;
    const value = Number(t.cla_type);
    if (!Number.isFinite(value) || value <= 0 || seen.has(value)) continue;
    if (t.state !== undefined && Number(t.state) !== DeviceTypeState.ENABLED) continue;
    seen.set(value, typeof t.cla_name === 'string' && t.cla_name ? t.cla_name : String(value));
  }
  return [...seen].map(([value, label]) => ({ value, label }));
}
