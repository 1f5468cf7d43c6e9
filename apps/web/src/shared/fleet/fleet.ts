import {
  DeviceTypeState,
  AIRBORNE_FLIGHT_STATES,
  OnlineStatus,
  DEVICE_KIND_OF_KEY,
  droneVideoUrl,
  type DeviceListItem,
  type DeviceStatusPush,
  type FleetEntry,
  type Page,
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

/**
 * Every device of /device/list: the first page (`first`, page 0 of `size`; the read started at sign-in when
 * there is one), then the other pages side by side (`readPage(n)`, n from 1). A device that moves between
 * pages while they are read (the list is ordered online first) may come twice, kept once, or not at all:
 * the next fleet batch that names it has the list read again.
 */
export async function readAllPages(
  first: Promise<Page<DeviceListItem> | null>,
  size: number,
  readPage: (page: number) => Promise<Page<DeviceListItem> | null>,
): Promise<DeviceListItem[]> {
  const page0 = await first;
  const list = page0?.list ?? [];
  if (!page0 || list.length === 0 || page0.total <= list.length) return list;
  const rest = await Promise.all(Array.from({ length: Math.ceil(page0.total / size) - 1 }, (_, i) => readPage(i + 1)));
  const seen = new Set<string>();
  const all: DeviceListItem[] = [];
  for (const item of [list, ...rest.map((p) => p?.list ?? [])].flat()) {
    if (seen.has(item.sn_id)) continue;
    seen.add(item.sn_id);
    all.push(item);
  }
  return all;
}

function patch(devices: readonly FleetDevice[], sn: string, change: (d: FleetDevice) => FleetDevice): FleetDevice[] {
  const i = devices.findIndex((d) => d.sn === sn);
  if (i < 0) return devices as FleetDevice[];
  const next = devices.slice();
  next[i] = change(devices[i]!);
  return next;
}

/** True when a 310 entry says nothing new about a device that has had a live update. */
const sameAsEntry = (d: FleetDevice, e: FleetEntry): boolean =>
  d.updatedAt !== 0 &&
  d.state === e.state &&
  d.position?.lat === e.lat &&
  d.position.lng === e.lng &&
  d.heading === e.heading &&
  d.flightState === e.flight_state &&
  d.battery === e.battery &&
  d.height === e.height;

/**
 * A 310 batch: positions, states, headings, flight states of listed devices. Unknown devices are ignored.
 * A device the batch does not change keeps its identity, and the list too when nothing changed: a city's
 * fleet sends every device every second, most of them standing still, and the screen re-renders only the
 * rows and markers that moved.
 */
export function applyFleetUpdate(devices: readonly FleetDevice[], entries: readonly FleetEntry[], now = Date.now()): FleetDevice[] {
  const bySn = new Map(entries.map((e) => [e.sn_id, e]));
  let changed = false;
  const next = devices.map((d) => {
    const e = bySn.get(d.sn);
    if (!e || sameAsEntry(d, e)) return d;
    changed = true;
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
  return changed ? next : (devices as FleetDevice[]);
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
