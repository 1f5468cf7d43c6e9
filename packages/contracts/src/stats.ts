import { z } from 'zod';

/**
 * Data screen and data analysis: the ranking rows of /ins/ranking, the static JSON resources
 * the data screen reads (SPEC section 7, served from real data), the answer of /data/analyse, and push 380.
 */

/** One row of /ins/ranking: `value` is a count (10 attendance, 30 results) or metres (20 mileage). */
export const rankingRowSchema = z.object({
  rank: z.number().int().positive(),
  sn_id: z.string(),
  name: z.string(),
  value: z.number(),
});
export type RankingRow = z.infer<typeof rankingRowSchema>;
/** data of /ins/ranking and of the inspection-leaderboard resource. */
export const rankingSchema = z.object({ type: z.number().int(), list: z.array(rankingRowSchema) });
export type Ranking = z.infer<typeof rankingSchema>;

/**
 * Static JSON resources (GET, under STATIC_BASE). They are company data, so unlike the menu they need the
 * session: header `token` (the same token the calls carry) and the function `menu_home`; 401 otherwise.
 * Answers are the plain JSON documents below (no envelope), `Cache-Control: no-store`.
 */
export const STATIC_BASE = '/api/static';
export const STATIC_RESOURCES = {
  /** ?type=10|20|30 (default 10) & size (default 10): rankingSchema over all time. */
  inspectionLeaderboard: `${STATIC_BASE}/inspection-leaderboard.json`,
  /** The CheckingType options: [{value, label: {zh, en}}]. */
  checkingType: `${STATIC_BASE}/checking-type.json`,
  /** The newest real-time messages (alarms, sorties started and ended), newest first: realtimeMessageSchema[]. */
  realtimeMessage: `${STATIC_BASE}/realtime-message.json`,
  /** Fleet and inspection figures and the latest inspection records: equipmentRecordSchema. */
  equipmentRecord: `${STATIC_BASE}/equipment-record.json`,
} as const;
/** Header carrying the session token on GET resources. */
export const STATIC_TOKEN_HEADER = 'token';
/** How many real-time messages and inspection records the resources carry. */
export const REALTIME_MESSAGE_LIMIT = 30;
export const INSPECTION_RECORD_LIMIT = 20;

export const realtimeMessageSchema = z.object({
  id: z.string(),
  kind: z.enum(['alarm', 'sortie_start', 'sortie_end']),
  /** AlarmLevel for alarms, null otherwise. */
  level: z.number().int().nullable(),
  sn_id: z.string(),
  device_name: z.string(),
  /** The line to show, in both languages (the server renders it with alarmText / the sortie's route name). */
  text: z.object({ zh: z.string(), en: z.string() }),
  /** ms */
  time: z.number().int(),
});
export type RealtimeMessage = z.infer<typeof realtimeMessageSchema>;

/** One inspection record (a sortie) on the data screen. Times in seconds, distance in metres. */
export const inspectionRecordSchema = z.object({
  sort_id: z.string(),
  sn_id: z.string(),
  device_name: z.string(),
  mission_name: z.string(),
  user_name: z.string(),
  start_time: z.number().int(),
  /** 0 while flying. */
  end_time: z.number().int(),
  distance: z.number(),
  count: z.number().int(),
});
export type InspectionRecord = z.infer<typeof inspectionRecordSchema>;

export const equipmentRecordSchema = z.object({
  devices: z.object({
    total: z.number().int(),
    online: z.number().int(),
    offline: z.number().int(),
    /** Online and held by a control connection. */
    connected: z.number().int(),
    /** Online with the drone in the air. */
    flying: z.number().int(),
  }),
  inspection: z.object({
    /** Finished and running sorties (all time / since local midnight of the server). */
    sorties_total: z.number().int(),
    sorties_today: z.number().int(),
    /** Seconds flown, finished sorties. */
    flight_seconds_total: z.number(),
    /** Metres flown. */
    distance_total: z.number(),
    results_total: z.number().int(),
    results_today: z.number().int(),
    /** Results by AchievementType. */
    results_by_type: z.object({ '10': z.number().int(), '15': z.number().int(), '20': z.number().int() }),
    alarms_pending: z.number().int(),
  }),
  records: z.array(inspectionRecordSchema),
  /** ms, when the figures were computed. */
  generated_at: z.number().int(),
});
export type EquipmentRecord = z.infer<typeof equipmentRecordSchema>;

/**
 * Answer of /data/analyse. Periods are [start_time, end_time] in seconds; days are calendar days in the
 * caller's time zone (`tz_offset`, minutes east of UTC, as `-new Date().getTimezoneOffset()`).
 * - online_rate: share of the period the device was online (0..1), from the server's per-hour uptime log.
 * - utilisation: share of the period's days with at least one sortie of the device (0..1).
 */
export const analysisDaySchema = z.object({
  /** YYYY-MM-DD */
  day: z.string(),
  sorties: z.number().int(),
  flight_seconds: z.number(),
  distance: z.number(),
  results: z.object({ '10': z.number().int(), '15': z.number().int(), '20': z.number().int() }),
  alarms: z.object({ '10': z.number().int(), '20': z.number().int(), '30': z.number().int() }),
});
export const analysisDeviceSchema = z.object({
  sn_id: z.string(),
  name: z.string(),
  sorties: z.number().int(),
  flight_seconds: z.number(),
  distance: z.number(),
  results: z.number().int(),
  alarms: z.number().int(),
  online_seconds: z.number(),
  online_rate: z.number(),
  utilisation: z.number(),
});
export const analysisSchema = z.object({
  start_time: z.number().int(),
  end_time: z.number().int(),
  days: z.array(analysisDaySchema),
  devices: z.array(analysisDeviceSchema),
  totals: z.object({
    sorties: z.number().int(),
    flight_seconds: z.number(),
    distance: z.number(),
    results: z.object({ '10': z.number().int(), '15': z.number().int(), '20': z.number().int() }),
    alarms: z.object({ '10': z.number().int(), '20': z.number().int(), '30': z.number().int() }),
  }),
});
export type AnalysisDay = z.infer<typeof analysisDaySchema>;
export type AnalysisDevice = z.infer<typeof analysisDeviceSchema>;
export type Analysis = z.infer<typeof analysisSchema>;
/** Longest period /data/analyse accepts (days). */
export const ANALYSIS_MAX_DAYS = 366;

/** What changed, in push 380 DATA_CHANGED. */
export const DATA_TOPICS = ['sorties', 'results', 'alarms', 'tasks'] as const;
export type DataTopic = (typeof DATA_TOPICS)[number];
/**
 * data of push 380 DATA_CHANGED: sent to every signed-in socket of the company at most once per
 * DATA_CHANGED_PERIOD_MS, naming what changed since the previous one, so screens refetch their figures.
 */
export const dataChangedPush = z.object({ topics: z.array(z.enum(DATA_TOPICS)) });
export const DATA_CHANGED_PERIOD_MS = 2_000;

/** /result/zip limits: files per archive and total bytes. */
export const RESULT_ZIP_MAX_FILES = 1000;
export const RESULT_ZIP_MAX_BYTES = 4 * 1024 * 1024 * 1024;
/** A zip download link works this long (s). */
export const RESULT_ZIP_TTL_S = 300;
/** GET path of a zip download: `${RESULT_ZIP_PATH}/<token>` (token from /result/zip). */
export const RESULT_ZIP_PATH = '/media/zip';

/** Sort keys of /sorties/list. */
export const SORTIE_ORDERS = ['start_time', 'duration', 'distance', 'count'] as const;
export type SortieOrder = (typeof SORTIE_ORDERS)[number];

/** One stored telemetry sample of a sortie, as /sorties/track answers it (t ms, WGS84, height above takeoff). */
export const trackPointSchema = z.object({
  t: z.number().int(),
  lat: z.number(),
  lng: z.number(),
  alt: z.number(),
  height: z.number(),
  speed: z.number(),
  heading: z.number(),
  battery: z.number(),
  /** FlightState */
  flight_state: z.number().int(),
});
export type TrackPoint = z.infer<typeof trackPointSchema>;

/** A planned-route point of a sortie (the route as it was sent to the device, WGS84, height m). */
export const plannedPointSchema = z.object({ lat: z.number(), lng: z.number(), height: z.number() });
export type PlannedPoint = z.infer<typeof plannedPointSchema>;
