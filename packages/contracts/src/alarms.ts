import { z } from 'zod';
import { enumeration, type Enumeration } from './enums.js';
import type { Lang } from './i18n.js';
import { PREFLIGHT } from './flight.js';

/**
 * Alarms: raised by the server from what devices report (telemetry, presence, events), one row
 * per episode. SPEC section 4: level 30 high / 20 medium / 10 low; process state 10 pending / 20 processed.
 *
 * An episode opens when its condition has held for `raiseAfterMs` and closes (`cleared_at`) when it has been
 * false for `clearAfterMs`; a new episode of the same kind on the same device can only open after that. An
 * alarm stays pending until an operator marks it processed (with a note), cleared or not.
 */
export const AlarmKind = enumeration('AlarmKind', [
  ['battery_low', '电池电量低', 'Low battery'],
  ['battery_critical', '电池电量严重不足', 'Critically low battery'],
  ['high_wind', '风速超限', 'Wind above the limit'],
  ['rain', '降雨', 'Rain'],
  ['nest_part_fault', '机场部件故障', 'Nest part fault'],
  ['rtk_loss', 'RTK 信号丢失', 'RTK fix lost'],
  ['offline_in_flight', '飞行中设备离线', 'Offline during a flight'],
  ['tf_card', 'TF 卡异常', 'TF card problem'],
  ['flow_failed', '起降流程失败', 'Takeoff or landing process failed'],
  ['alternate_landing', '备降', 'Alternate landing'],
  ['device_health', '设备健康告警', 'Device health message'],
] as const);
export type AlarmKindValue = (typeof AlarmKind.entries)[number]['value'];

/** The level each kind is raised with (AlarmLevel values). */
export const ALARM_KIND_LEVEL: Readonly<Record<AlarmKindValue, 10 | 20 | 30>> = {
  battery_low: 20,
  battery_critical: 30,
  high_wind: 20,
  rain: 10,
  nest_part_fault: 30,
  rtk_loss: 20,
  offline_in_flight: 30,
  tf_card: 10,
  flow_failed: 30,
  alternate_landing: 20,
  /** The usual level; each device_health alarm takes its level from the health item (healthAlarmLevel). */
  device_health: 20,
};

/**
 * Thresholds of the alarm rules. "In the air" means drone flight_state 1 takeoff, 2 in air, 3 landing or
 * 8 return. Rules on telemetry:
 * - battery_low: in the air and battery percent <= batteryLowPercent; battery_critical: <= batteryCriticalPercent.
 * - high_wind: nest wind speed > PREFLIGHT.maxWindSpeed (m/s); cleared below windClearSpeed.
 * - rain: nest rainfall > PREFLIGHT.maxRainfall (mm/h).
 * - nest_part_fault: any nest part (hatch, platform, tripod, charger, drone_power) in state 4 (fault);
 *   `detail` names the part (NestPart value).
 * - rtk_loss: in the air and RTK status below PREFLIGHT.rtkStatus (fixed).
 * - tf_card: drone powered and TF card missing (total 0) or free space < PREFLIGHT.minTfFreeMb;
 *   `detail` 'missing' or 'full'.
 * From presence: offline_in_flight: the device went offline while its last telemetry said in the air (or
 * a sortie of it was open). From events: flow_failed (a flow step ended in error; `value` the FlowError
 * code, `detail` the FlowStep), alternate_landing (an alternate.landing event; `value` the reason),
 * device_health (each item of a `health` event; `detail` the item's code, `text` its message).
 */
export const ALARM_RULES = {
  batteryLowPercent: 30,
  batteryCriticalPercent: 20,
  windSpeed: PREFLIGHT.maxWindSpeed,
  windClearSpeed: PREFLIGHT.maxWindSpeed - 2,
  rainfall: PREFLIGHT.maxRainfall,
  rtkStatus: PREFLIGHT.rtkStatus,
  minTfFreeMb: PREFLIGHT.minTfFreeMb,
  /** A telemetry condition must hold this long before it raises (debounce of single samples). */
  raiseAfterMs: 5_000,
  /** ... and be false this long before its episode is cleared. */
  clearAfterMs: 30_000,
} as const;

/** An alarm as the calls and push 370 carry it. Times in ms. */
export const alarmSchema = z.object({
  id: z.string(),
  sn_id: z.string(),
  /** Display name of the device (airport name, else drone name). */
  device_name: z.string(),
  kind: z.string(),
  /** AlarmLevel */
  level: z.number().int(),
  /** AlarmProcessState */
  state: z.number().int(),
  /** The measured value that raised it (battery %, wind m/s, rainfall mm/h, error code...), null when none. */
  value: z.number().nullable(),
  /** Kind-specific: the nest part, 'missing' / 'full' for TF cards, the flow step of flow_failed. */
  detail: z.string(),
  flight_id: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  raised_at: z.number().int(),
  /** When the condition ended; null while it still holds. */
  cleared_at: z.number().int().nullable(),
  processed_at: z.number().int().nullable(),
  /** Nickname of who processed it ('' while pending). */
  processed_by: z.string(),
  note: z.string(),
  /**
   * The alarm's message in both languages when the server composes it from a catalogue the browser does
   * not load (device_health: the device's health message with its arguments filled in).
   */
  text: z.object({ zh: z.string(), en: z.string() }).optional(),
});
export type Alarm = z.infer<typeof alarmSchema>;

/** Longest processing note. */
export const ALARM_NOTE_MAX = 500;

/** data of push 370 ALARM: sent to every signed-in socket of the alarm's company whose user holds alarm_list. */
export const alarmPush = z.object({
  event: z.enum(['raised', 'cleared', 'processed']),
  alarm: alarmSchema,
  /** Pending alarms of the company after this change (the header's news badge). */
  pending: z.number().int().nonnegative(),
});
export type AlarmPush = z.infer<typeof alarmPush>;

const unit = (kind: string): string => {
  switch (kind) {
    case 'battery_low':
    case 'battery_critical':
      return '%';
    case 'high_wind':
      return ' m/s';
    case 'rain':
      return ' mm/h';
    default:
      return '';
  }
};

/**
 * One line describing an alarm, e.g. "Low battery: 18%" / "电池电量低：18%". `detailLabel` turns a detail
 * (nest part, flow step...) into words; without it the raw detail is shown. An alarm carrying its `text`
 * (device_health) shows that text in `lang` instead of the detail.
 */
export function alarmText(
  a: Pick<Alarm, 'kind' | 'value' | 'detail'> & Partial<Pick<Alarm, 'text'>>,
  lang: Lang,
  detailLabel?: (kind: string, detail: string, lang: Lang) => string,
): string {
  const name = AlarmKind.label(a.kind as AlarmKindValue, lang);
  const parts: string[] = [];
  if (a.text) parts.push(a.text[lang]);
  else if (a.detail) parts.push(detailLabel ? detailLabel(a.kind, a.detail, lang) : a.detail);
  if (a.value !== null && unit(a.kind)) parts.push(`${Number(a.value.toFixed(1))}${unit(a.kind)}`);
  if (parts.length === 0) return name;
  return lang === 'zh' ? `${name}：${parts.join('，')}` : `${name}: ${parts.join(', ')}`;
}

/** Modules of a health item (DJI HMS `module`). */
export const HealthModule = enumeration('HealthModule', [
  [0, '任务', 'mission', 'MISSION'],
  [1, '设备', 'device', 'DEVICE'],
  [2, '媒体', 'media', 'MEDIA'],
  [3, '健康系统', 'health system', 'HEALTH_SYSTEM'],
] as const);

/** Levels of a health item (DJI HMS `level`). */
export const HealthLevel = enumeration('HealthLevel', [
  [0, '提示', 'Inform', 'INFORM'],
  [1, '注意', 'Notice', 'NOTICE'],
  [2, '警告', 'Alarm', 'ALARM'],
] as const);

/** The AlarmLevel a health item is raised with: 2 alarm -> 30 high, 1 notice -> 20 medium, 0 inform -> 10 low. */
export const healthAlarmLevel = (level: number): 10 | 20 | 30 =>
  level >= HealthLevel.ALARM ? 30 : level === HealthLevel.NOTICE ? 20 : 10;

export const ALARM_ENUMS: readonly Enumeration<number | string>[] = [AlarmKind, HealthModule, HealthLevel];

/**
 * Device event `health` (adapter-neutral; a DJI dock's `hms` event arrives as this): the health messages a
 * device reports now. Each item is an alarm episode on the device while it keeps being reported; an item
 * missing from the device's later `health` events clears. `key` names the text in the health catalogue
 * (DJI: `dock_tip_<code>` or `fpv_tip_<code>[_in_the_sky]`); `args` fill its placeholders.
 */
export const HEALTH_EVENT = 'health';
export const healthItemSchema = z.looseObject({
  /** 0 inform, 1 notice, 2 alarm (DJI HMS levels). */
  level: z.number().int().min(0).max(2),
  /** 0 mission, 1 device, 2 media, 3 health system (DJI HMS modules). */
  module: z.number().int().min(0).max(99),
  /** Device code, e.g. "0x160900BF". */
  code: z.string().min(1).max(32),
  /** Text key in the health catalogue. */
  key: z.string().min(1).max(96),
  in_the_sky: z.boolean(),
  /** Which device of the gateway it concerns (DJI model key "3-2-0"), when known. */
  device_type: z.string().max(16).optional(),
  args: z.record(z.string().max(32), z.number()).optional(),
});
export type HealthItem = z.infer<typeof healthItemSchema>;
export const healthEventData = z.object({ items: z.array(healthItemSchema).max(256) });
export type HealthEventData = z.infer<typeof healthEventData>;
