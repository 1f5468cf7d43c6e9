import { z } from 'zod';
import { alarmSchema } from './alarms.js';
import { AUDIT_KINDS, AUDIT_OUTCOMES } from './audit.js';
import { departmentNodeSchema, deviceSchema, missionSchema, pageOf, sortieSchema } from './entities.js';
import { preflightCheckSchema } from './flight.js';
import { deviceStatusPush } from './push.js';
import { plannedPointSchema, trackPointSchema } from './stats.js';

/**
 * Answer shapes (the `data` of a successful envelope) that only one call answers; the entities the calls
 * share live in entities.ts and beside their subject (alarms, maintenance, network...). The call registry
 * names one for every call (`CallDef.answer`).
 */

/** A call that answers no data. */
export const noData = z.null();

/** An option of a chooser: an enumeration value with its label in the caller's language. */
export const optionOf = <V extends z.ZodType>(value: V) => z.object({ value, label: z.string() });

/** /device/connect: the device's status after the connect or release, and the caller's hold. */
export const deviceHoldSchema = deviceStatusPush.extend({
  /** When the caller's hold ends (s); null when the caller does not hold the device. */
  expires_at: z.number().int().nullable(),
  /** How long a hold lasts after its last renewal (s). */
  hold_seconds: z.number().int().positive(),
});
export type DeviceHold = z.infer<typeof deviceHoldSchema>;

/**
 * What a DJI gateway (a DJI dock, or DJI Pilot 2 as gateway) types into its cloud set-up to reach the
 * broker: the broker address as the device must reach it, user name (= its sn) and password. Shown once:
 * the server keeps no copy; /device/dji/credentials issues new ones.
 */
export const djiCredentialsSchema = z.object({ mqtt_url: z.string(), username: z.string(), password: z.string() });
export type DjiCredentials = z.infer<typeof djiCredentialsSchema>;

/**
 * /device/dji/pilot: what the Pilot 2 page hands DJI Pilot 2's JSBridge for an RC gateway: its new broker
 * credentials, the DJI developer app (id, key, licence; empty when the server has none set), and the
 * workspace (the company: id and name) and platform name Pilot 2 shows.
 */
export const djiPilotLoginSchema = djiCredentialsSchema.extend({
  app_id: z.string(),
  app_key: z.string(),
  app_license: z.string(),
  workspace_id: z.string(),
  workspace_name: z.string(),
  platform_name: z.string(),
  device_name: z.string(),
});
export type DjiPilotLogin = z.infer<typeof djiPilotLoginSchema>;

/** /device/add: the Device, and for a DJI gateway its broker credentials (only in this answer). */
export const deviceAddedSchema = deviceSchema.extend({ dji: djiCredentialsSchema.optional() });
export type DeviceAdded = z.infer<typeof deviceAddedSchema>;

/** /device/delete: which device was deleted. */
export const deviceDeletedSchema = z.object({ id: z.string(), sn_id: z.string() });

/** /result/zip: the download link of the archive (valid RESULT_ZIP_TTL_S), its file count and size. */
export const resultZipSchema = z.object({
  url: z.string(),
  count: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  /** When the link stops working (s). */
  expires_at: z.number().int(),
});
export type ResultZip = z.infer<typeof resultZipSchema>;

/** /sorties/track: the sortie, its stored telemetry (oldest first) and the route it was sent. */
export const sortieTrackSchema = z.object({
  sortie: sortieSchema,
  points: z.array(trackPointSchema),
  planned: z.array(plannedPointSchema),
});
export type SortieTrack = z.infer<typeof sortieTrackSchema>;

/** /alarm/list: a page of alarms and how many of the company's alarms await processing. */
export const alarmPageSchema = pageOf(alarmSchema).extend({ pending: z.number().int().nonnegative() });
export type AlarmPage = z.infer<typeof alarmPageSchema>;

/** /alarm/process: the processed alarms and how many still await processing. */
export const alarmProcessedSchema = z.object({ list: z.array(alarmSchema), pending: z.number().int().nonnegative() });

const alarmCount = { total: z.number().int().nonnegative(), pending: z.number().int().nonnegative() };
/** /alarm/stats: counts of the company's alarms, all and pending, by level and by kind. */
export const alarmStatsSchema = z.object({
  ...alarmCount,
  by_level: z.array(z.object({ level: z.number().int(), ...alarmCount })),
  by_kind: z.array(z.object({ kind: z.string(), ...alarmCount })),
});
export type AlarmStats = z.infer<typeof alarmStatsSchema>;

/** A row of /audit/list; `detail` is a JSON object (never a password or a token). */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.number().int(),
  company_id: z.string(),
  u_id: z.string().nullable(),
  user_name: z.string(),
  account: z.string(),
  kind: z.enum(AUDIT_KINDS),
  target: z.string(),
  /** The target as people read it (a user's name and account, a device's name and sn); '' when unknown. */
  target_name: z.string().optional(),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
});

/**
 * A row of /command/log: one command sent to a device (`source` who sent it, `cmd_type`/`action_cmd` the
 * SPEC codes, `method` the link method, `params` what was sent), its `outcome` and `reason`, times in s.
 */
export const commandLogEntrySchema = z.object({
  id: z.string(),
  cmd_id: z.string(),
  sn_id: z.string(),
  u_id: z.string(),
  user_name: z.string(),
  source: z.string(),
  cmd_type: z.number().int(),
  action_cmd: z.number().int(),
  method: z.string(),
  params: z.unknown(),
  flight_id: z.string().nullable(),
  outcome: z.string(),
  reason: z.number().int(),
  detail: z.string(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
export type CommandLogEntry = z.infer<typeof commandLogEntrySchema>;

/** /flight/check: every preflight check of a device (and route) and whether all passed. */
export const preflightSchema = z.object({ ready: z.boolean(), checks: z.array(preflightCheckSchema) });
export type Preflight = z.infer<typeof preflightSchema>;

/** /team/list: a company's department trees (`total` counts the top-level ones). */
export const departmentTreeSchema = pageOf(departmentNodeSchema);

/**
 * /mission/add and /mission/edit (a save): the route plus what the planning found, the terrain note (flat
 * fallback, in the caller's language; null when terrain was used or not wanted) and the survey figures
 * (area surveys; null otherwise).
 */
export const missionSavedSchema = missionSchema.extend({
  terrain_note: z.string().nullable(),
  survey: z
    .object({
      photo_count: z.number(),
      line_spacing: z.number(),
      trigger_distance: z.number(),
      gsd: z.number(),
      area: z.number(),
    })
    .nullable(),
  /** A survey saved split (`split`): the parts in flying order, this answer being the first. */
  group: z
    .object({
      count: z.number().int().positive(),
      parts: z.array(z.object({ id: z.string(), name: z.string(), est_time: z.number().nonnegative() })),
    })
    .nullable()
    .optional(),
});
export type MissionSaved = z.infer<typeof missionSavedSchema>;

/** /map/down: the new download job and how many tiles it will cut. */
export const mapDownStartedSchema = z.object({ id: z.string(), total: z.number().int().nonnegative() });

/** An answer that names the record it touched. */
export const idAnswerSchema = z.object({ id: z.string() });

/**
 * /map/packageStyle: a MapLibre style document for the package (version 8, its `sources` and `layers`);
 * MapLibre checks the rest.
 */
export const mapStyleSchema = z.looseObject({
  version: z.number().int(),
  name: z.string().optional(),
  sources: z.record(z.string(), z.unknown()),
  layers: z.array(z.looseObject({ id: z.string(), type: z.string() })),
});
export type MapStyle = z.infer<typeof mapStyleSchema>;

/** /deviceType/list on the video service: the device kinds teaching videos exist for, with their counts. */
export const teachingKindSchema = z.object({ cla_type: z.number().int(), cla_name: z.string(), count: z.number().int().nonnegative() });
export type TeachingKind = z.infer<typeof teachingKindSchema>;
