import { z } from 'zod';

/**
 * The fleet's device network (menu networkingItem, /link/stats) and satellite navigation environment
 * (menu navigationEnvironment, /device/navEnv). Both read what the server holds live; nothing is stored.
 */

/** Why the server dropped a device message (the link's drop reasons). */
export const LINK_DROP_REASONS = [
  'too_large',
  'bad_topic',
  'unknown_device',
  'disabled_device',
  'bad_envelope',
  'bad_method',
  'bad_data',
  'unmatched_reply',
  'rate_limited',
  'error',
] as const;
export type LinkDropReason = (typeof LINK_DROP_REASONS)[number];
/** Window of the measured rates (messages per minute, telemetry Hz), seconds. */
export const LINK_RATE_WINDOW_S = 60;

const dropCounts = z.partialRecord(z.enum(LINK_DROP_REASONS), z.number().int());

/** One device's link as /link/stats answers it. Times in ms. */
export const linkDeviceStatsSchema = z.object({
  sn_id: z.string(),
  name: z.string(),
  /** LinkType: 1 nest side, 2 aircraft direct, 3 auto. */
  link_type: z.number().int(),
  online: z.boolean(),
  /** Device online status (1 online, 2 offline, 3 connected by someone). */
  state: z.number().int(),
  /** Last valid message of any kind, null when never heard since the server started. */
  heard_at: z.number().int().nullable(),
  /** When the current online / offline period began, null when never heard. */
  since: z.number().int().nullable(),
  /** Telemetry rate the device announced (Hz). */
  rate_hz: z.number().nullable(),
  /** Telemetry messages received per second over the last LINK_RATE_WINDOW_S (or since first heard). */
  telemetry_hz: z.number(),
  /** Accepted messages of every channel per minute over the same window. */
  messages_per_min: z.number(),
  /** Accepted messages since the server started. */
  accepted: z.number().int(),
  dropped: dropCounts,
  /** Command round trips (send to reply) since the server started, null when no command was answered. */
  rtt: z.object({ count: z.number().int(), last_ms: z.number(), avg_ms: z.number(), max_ms: z.number() }).nullable(),
  /** Commands that got no reply before their timeout (after re-sends). */
  command_timeouts: z.number().int(),
  firmware: z.string().nullable(),
});
export type LinkDeviceStats = z.infer<typeof linkDeviceStatsSchema>;

export const linkStatsSchema = z.object({
  broker: z.object({
    /** embedded: the server's own broker; external: MQTT_URL. */
    kind: z.enum(['embedded', 'external']),
    /** host:port the devices connect to (no credentials). */
    address: z.string(),
    /** The server's own link client is connected and subscribed. */
    connected: z.boolean(),
    client_id: z.string(),
  }),
  /** Sums over the visible devices; `unattributed` drops (unknown sender) only for super_administrator. */
  totals: z.object({
    devices: z.number().int(),
    online: z.number().int(),
    messages_per_min: z.number(),
    accepted: z.number().int(),
    dropped: z.number().int(),
    unattributed_dropped: dropCounts,
    /**
     * Telemetry messages the server replaced by a newer one of the same device before reading them, while it
     * was behind (latest wins; events, replies and state are never replaced). Server-wide, so only for
     * super_administrator; null for everyone else.
     */
    superseded: z.number().int().nullable(),
  }),
  devices: z.array(linkDeviceStatsSchema),
  /** Server time of the snapshot (ms). */
  at: z.number().int(),
});
export type LinkStats = z.infer<typeof linkStatsSchema>;

/**
 * The GNSS fix, derived from the drone's telemetry: RTK status 4 fixed, 3 float, 2 differential; else a
 * standalone fix with at least 4 satellites, otherwise none.
 */
export const GNSS_FIXES = ['none', 'single', 'dgnss', 'float', 'fixed'] as const;
export type GnssFix = (typeof GNSS_FIXES)[number];
/** Satellites a standalone 3D fix needs. */
export const GNSS_MIN_SATELLITES = 4;

export function gnssFixOf(rtkStatus: number | null, satellites: number | null): GnssFix {
  if (rtkStatus === 4) return 'fixed';
  if (rtkStatus === 3) return 'float';
  if (rtkStatus === 2) return 'dgnss';
  if (satellites !== null && satellites >= GNSS_MIN_SATELLITES) return 'single';
  return 'none';
}

/**
 * Typical horizontal accuracy of a fix type in metres (receiver data sheets: RTK fixed 1-2 cm, float
 * 0.2-1 m, DGNSS about 0.5-1 m, standalone 1.5-3 m). The link carries no accuracy estimate of its own,
 * so the console shows this, labelled as typical.
 */
export const GNSS_TYPICAL_ACCURACY_M: Readonly<Record<GnssFix, number | null>> = { none: null, single: 2.5, dgnss: 0.8, float: 0.5, fixed: 0.02 };

export const navEnvSchema = z.object({
  sn_id: z.string(),
  name: z.string(),
  /** DeviceTypeKey (stable, stable_mini, mobile, alone). */
  type: z.string(),
  online: z.boolean(),
  /** Receive time of the telemetry the figures come from (ms), null when none. */
  at: z.number().int().nullable(),
  /** null when no drone telemetry has arrived. */
  gnss: z
    .object({
      lat: z.number(),
      lng: z.number(),
      alt: z.number(),
      satellites: z.number().int(),
      rtk_status: z.number().int(),
      rtk_satellites: z.number().int(),
      ntrip_state: z.number().int(),
      fix: z.enum(GNSS_FIXES),
      /** Typical accuracy of the fix (m), null without a fix. */
      accuracy_m: z.number().nullable(),
      flight_state: z.number().int(),
      home_distance: z.number(),
    })
    .nullable(),
  /** Where the drone returns: the nest (live position, else registered), else the registered point. */
  home: z.object({ lat: z.number(), lng: z.number(), source: z.enum(['nest', 'registered']) }).nullable(),
  /** The alternate landing point, when registered. */
  alternate: z.object({ lat: z.number(), lng: z.number() }).nullable(),
});
export type NavEnv = z.infer<typeof navEnvSchema>;
