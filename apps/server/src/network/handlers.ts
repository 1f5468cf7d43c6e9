import {
  GNSS_TYPICAL_ACCURACY_M,
  ResultCode,
  gnssFixOf,
  type LinkDeviceStats,
  type LinkDropReason,
  type LinkStats,
  type NavEnv,
} from '@nest/contracts';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { scopeOf } from '../db/scope.js';
import { airportPoint, deviceName } from '../devices/api.js';
import { NETWORK_TEXTS } from './texts.js';

/** Drops whose sender is not a registered device: not attributable to a company. */
const UNATTRIBUTED: readonly LinkDropReason[] = ['bad_topic', 'unknown_device'];

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const byName = (a: DeviceRow, b: DeviceRow) => deviceName(a).localeCompare(deviceName(b)) || a.sn_id.localeCompare(b.sn_id);

/** host:port of a broker URL, never its credentials. */
export function brokerAddress(url: string): string {
  try {
    const u = new URL(url);
    return u.port ? `${u.hostname}:${u.port}` : u.hostname;
  } catch {
    return '';
  }
}

/**
 * The device network and the navigation environment, both read from what the server holds live (the link's
 * counters and latest telemetry); company-scoped like /device/list (super_administrator: every company).
 * - /link/stats: the broker, totals and one row per visible device, or the one `sn_id` (NOT_FOUND_OBJECT when
 *   not visible); see contracts network.ts.
 * - /device/navEnv: per visible device (or the one `sn_id`, NOT_FOUND_OBJECT when not visible) the GNSS
 *   figures of the drone's latest telemetry, its home point and alternate landing point.
 */
export function networkHandlers(deps: AppDeps): Handlers {
  const { link, status, directory, broker, brokerUrl } = deps.live;

  function deviceStats(row: DeviceRow, now: number): LinkDeviceStats {
    const live = link.device(row.sn_id);
    const counts = link.counters.read(row.sn_id, now);
    const heard = live && live.heardAt > 0 ? live.heardAt : null;
    return {
      sn_id: row.sn_id,
      name: deviceName(row),
      link_type: Number(row.link_type),
      online: link.isOnline(row.sn_id),
      state: status.snapshot(row.sn_id).state,
      heard_at: heard,
      since: live ? live.since : null,
      rate_hz: live ? live.rateHz : null,
      telemetry_hz: round(counts?.telemetryPerSecond ?? 0),
      messages_per_min: round((counts?.messagesPerSecond ?? 0) * 60, 1),
      accepted: counts?.accepted ?? 0,
      dropped: counts?.dropped ?? {},
      rtt: counts?.rtt
        ? { count: counts.rtt.count, last_ms: counts.rtt.lastMs, avg_ms: round(counts.rtt.avgMs, 1), max_ms: counts.rtt.maxMs }
        : null,
      command_timeouts: counts?.commandTimeouts ?? 0,
      firmware: live?.firmware ?? null,
    };
  }

  function navEnvOf(row: DeviceRow): NavEnv {
    const live = link.device(row.sn_id);
    const drone = live?.telemetry?.drone;
    const nest = live?.telemetry?.nest;
    const registered = airportPoint(row);
    const fix = drone ? gnssFixOf(drone.rtk.status, drone.gps_satellites) : null;
    return {
      sn_id: row.sn_id,
      name: deviceName(row),
      type: row.type,
      online: link.isOnline(row.sn_id),
      at: live?.telemetryAt ?? null,
      gnss:
        drone && fix
          ? {
              lat: drone.lat,
              lng: drone.lng,
              alt: drone.alt,
              satellites: drone.gps_satellites,
              rtk_status: drone.rtk.status,
              rtk_satellites: drone.rtk.satellites,
              ntrip_state: drone.rtk.ntrip_state,
              fix,
              accuracy_m: GNSS_TYPICAL_ACCURACY_M[fix],
              flight_state: drone.flight_state,
              home_distance: drone.home_distance,
            }
          : null,
      home: nest
        ? { lat: nest.lat, lng: nest.lng, source: 'nest' }
        : registered
          ? { ...registered, source: 'registered' }
          : null,
      alternate: row.altn_lat !== null && row.altn_lng !== null ? { lat: Number(row.altn_lat), lng: Number(row.altn_lng) } : null,
    };
  }

  return {
    linkStats: async (ctx) => {
      const scope = scopeOf(callerOf(ctx.caller));
      const now = Date.now();
      const { sn_id } = ctx.fields;
      const rows = directory.visible(scope).filter((r) => !sn_id || r.sn_id === sn_id).sort(byName);
      if (sn_id && rows.length === 0) throw new CallError(ResultCode.NOT_FOUND_OBJECT, NETWORK_TEXTS.noDevice);
      const devices = rows.map((r) => deviceStats(r, now));
      const unattributed: Partial<Record<LinkDropReason, number>> = {};
      if (scope.all) for (const reason of UNATTRIBUTED) if (link.stats.dropped[reason]) unattributed[reason] = link.stats.dropped[reason];
      const sum = (f: (d: LinkDeviceStats) => number) => devices.reduce((n, d) => n + f(d), 0);
      const data: LinkStats = {
        broker: { kind: broker ? 'embedded' : 'external', address: brokerAddress(brokerUrl), connected: link.connected, client_id: link.clientId },
        totals: {
          devices: devices.length,
          online: devices.filter((d) => d.online).length,
          messages_per_min: round(sum((d) => d.messages_per_min), 1),
          accepted: sum((d) => d.accepted),
          dropped: sum((d) => Object.values(d.dropped).reduce((n, v) => n + (v ?? 0), 0)),
          unattributed_dropped: unattributed,
          superseded: scope.all ? (link.stats.superseded ?? 0) : null,
        },
        devices,
        at: now,
      };
      return { data };
    },

    deviceNavEnv: async (ctx) => {
      const scope = scopeOf(callerOf(ctx.caller));
      const { sn_id } = ctx.fields;
      let rows = directory.visible(scope);
      if (sn_id) {
        rows = rows.filter((r) => r.sn_id === sn_id);
        if (rows.length === 0) throw new CallError(ResultCode.NOT_FOUND_OBJECT, NETWORK_TEXTS.noDevice);
      }
      return { data: { list: rows.sort(byName).map(navEnvOf) } };
    },
  };
}
