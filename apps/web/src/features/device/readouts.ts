import {
  ExposureMode,
  FlightMode,
  FlightState,
  NO_VALUE,
  NestPart,
  NestPartState,
  NtripState,
  RtkStatus,
  WhiteBalance,
  formatDistanceText,
  formatHms,
  formatPercent,
  formatSizeKb,
  formatSpeed,
  windDirectionName,
  type DroneTelemetry,
  type Lang,
  type NestPartValue,
  type NestTelemetry,
} from '@nest/contracts';
import { t, type MessageKey } from '../../shared/i18n';

/** One labelled value of the live panel. */
export interface Readout {
  id: string;
  label: MessageKey;
  value: string;
  /** A tone for the value (states that need attention). */
  tone?: 'ok' | 'warn' | 'bad';
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const fixed = (v: unknown, digits: number, unit: string): string => (finite(v) ? `${v.toFixed(digits)} ${unit}` : NO_VALUE);

/** Wind direction as a name: 'East' / '东风' (contracts gives plain directions; Chinese adds 风 for wind). */
export function windText(degrees: number, lang: Lang): string {
  const name = windDirectionName(degrees, lang);
  return name === NO_VALUE ? name : t('device.readout.windFrom', { name }, lang);
}

/** Flight data of a drone, formatted by the SPEC's rules (contracts format.ts). */
export function droneReadouts(d: DroneTelemetry | undefined, lang: Lang): Readout[] {
  const battery = d ? `${formatPercent(d.battery.percent)}${d.battery.charging ? ` · ${t('device.readout.charging', undefined, lang)}` : ''}` : NO_VALUE;
  return [
    { id: 'flightState', label: 'device.readout.flightState', value: d ? FlightState.label(d.flight_state, lang) : NO_VALUE },
    { id: 'flightMode', label: 'device.readout.flightMode', value: d ? FlightMode.label(d.flight_mode, lang) : NO_VALUE },
    { id: 'height', label: 'device.readout.height', value: fixed(d?.height, 1, 'm') },
    { id: 'altitude', label: 'device.readout.altitude', value: fixed(d?.alt, 1, 'm') },
    { id: 'hSpeed', label: 'device.readout.hSpeed', value: d ? formatSpeed(d.h_speed) : NO_VALUE },
    { id: 'vSpeed', label: 'device.readout.vSpeed', value: d ? formatSpeed(d.v_speed) : NO_VALUE },
    { id: 'homeDistance', label: 'device.readout.homeDistance', value: d ? formatDistanceText(d.home_distance) : NO_VALUE },
    { id: 'flightTime', label: 'device.readout.flightTime', value: d ? formatHms(d.flight_time) : NO_VALUE },
    {
      id: 'battery',
      label: 'device.readout.battery',
      value: battery,
      ...(d ? { tone: d.battery.percent < 20 ? ('bad' as const) : d.battery.percent < 50 ? ('warn' as const) : ('ok' as const) } : {}),
    },
    { id: 'heading', label: 'device.readout.heading', value: fixed(d?.heading, 0, '°') },
    { id: 'gps', label: 'device.readout.gps', value: d ? String(d.gps_satellites) : NO_VALUE },
    {
      id: 'rtk',
      label: 'device.readout.rtk',
      value: d ? `${RtkStatus.label(d.rtk.status, lang)} · ${d.rtk.satellites}` : NO_VALUE,
      ...(d ? { tone: d.rtk.status === 4 ? ('ok' as const) : d.rtk.status === 0 ? ('bad' as const) : ('warn' as const) } : {}),
    },
    { id: 'ntrip', label: 'device.readout.ntrip', value: d ? NtripState.label(d.rtk.ntrip_state, lang) : NO_VALUE },
  ];
}

/** Weather at a nest. */
export function environmentReadouts(n: NestTelemetry | undefined, lang: Lang): Readout[] {
  const env = n?.env;
  return [
    { id: 'windSpeed', label: 'device.readout.windSpeed', value: env ? formatSpeed(env.wind_speed) : NO_VALUE },
    { id: 'windDirection', label: 'device.readout.windDirection', value: env ? windText(env.wind_direction, lang) : NO_VALUE },
    { id: 'temperature', label: 'device.readout.temperature', value: fixed(env?.temperature, 1, '°C') },
    { id: 'humidity', label: 'device.readout.humidity', value: env ? formatPercent(env.humidity) : NO_VALUE },
    { id: 'rainfall', label: 'device.readout.rainfall', value: fixed(env?.rainfall, 1, 'mm/h') },
  ];
}

/** Telemetry key of each nest part and its name in contracts NestPart. */
const PARTS: readonly { key: 'hatch' | 'platform' | 'tripod' | 'charger' | 'drone_power'; part: NestPartValue }[] = [
  { key: 'hatch', part: 'hatch' },
  { key: 'platform', part: 'lift' },
  { key: 'tripod', part: 'center_stand' },
  { key: 'charger', part: 'charger' },
  { key: 'drone_power', part: 'drone_power' },
];

/** Nest parts with their states; the platform only for fixed (large) nests: mini and mobile nests have none. */
export function nestPartReadouts(n: NestTelemetry | undefined, deviceType: string, lang: Lang): (Omit<Readout, 'label'> & { label: string })[] {
  const hasPlatform = deviceType !== 'stable_mini' && deviceType !== 'mobile';
  return PARTS.filter((p) => hasPlatform || p.key !== 'platform').map((p) => {
    const state = n ? n[p.key] : undefined;
    return {
      id: p.key,
      label: NestPart.label(p.part, lang),
      value: state === undefined ? NO_VALUE : NestPartState.label(state, lang),
      ...(state === undefined ? {} : { tone: state === NestPartState.FAULT ? ('bad' as const) : state === NestPartState.CLOSING || state === NestPartState.OPENING ? ('warn' as const) : ('ok' as const) }),
    };
  });
}

/** Storage and camera defaults of the drone camera. SD card sizes are MB. */
export function cameraReadouts(d: DroneTelemetry | undefined, lang: Lang): Readout[] {
  const s = d?.storage;
  const c = d?.camera;
  return [
    { id: 'sdcard', label: 'device.readout.sdcard', value: s ? `${formatSizeKb(s.sdcard_free * 1024)} / ${formatSizeKb(s.sdcard_totalsize * 1024)}` : NO_VALUE },
    { id: 'iso', label: 'device.readout.iso', value: c ? String(c.camera_iso) : NO_VALUE },
    { id: 'shutter', label: 'device.readout.shutter', value: c ? c.camera_shutter : NO_VALUE },
    { id: 'expMode', label: 'device.readout.expMode', value: c ? ExposureMode.label(c.camera_exp_mode, lang) : NO_VALUE },
    { id: 'expValue', label: 'device.readout.expValue', value: c ? `${c.camera_exp_value > 0 ? '+' : ''}${c.camera_exp_value.toFixed(1)} EV` : NO_VALUE },
    { id: 'awb', label: 'device.readout.awb', value: c ? WhiteBalance.label(c.camera_awb, lang) : NO_VALUE },
  ];
}
