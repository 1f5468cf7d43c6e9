import {
  DJI_TERMINAL_STATUSES,
  FlightState,
  HEALTH_EVENT,
  hmsKey,
  healthEventData,
  linkData,
  missionProgressSchema,
  type DjiDockOsd,
  type DjiDroneOsd,
  type DjiFlighttaskProgress,
  type DjiHms,
  type HealthItem,
  type MissionProgress,
  type PartState,
  type TelemetryData,
} from '@nest/contracts';
export { haversineDistance as metresBetween } from '@nest/geo';

/**
 * Pure translations of the DJI Cloud API into the contracts' terms (docs/dji.md has the tables). The
 * adapter (service.ts) keeps the merged OSD per sn and calls these; nothing here touches MQTT.
 */

/** Merges a partial OSD message into what is known: a missing key keeps its value (it is not 0). */
export function mergeOsd<T extends Record<string, unknown>>(known: T | undefined, partial: T): T {
  const out: Record<string, unknown> = { ...(known ?? {}) };
  for (const [k, v] of Object.entries(partial)) {
    if (v === undefined) continue;
    const old = out[k];
    out[k] = isPlain(v) && isPlain(old) ? mergeOsd(old, v) : v;
  }
  return out as T;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** DJI cover / putter state (0 closed, 1 open, 2 half open, 3 abnormal) as a nest part state. */
export function partOf(v: number | undefined): PartState {
  if (v === 1) return 1;
  if (v === 2) return 3;
  if (v === 3) return 4;
  return 0;
}

/** DJI rainfall level (0 none .. 3 heavy) as mm/h (the top of each level's usual range). */
export const RAINFALL_MM_H: readonly number[] = [0, 2.5, 7.6, 20];

/** Drone `mode_code` (DroneModeCodeEnum) as the contracts' flight state. */
export function flightStateOf(mode: number | undefined): 0 | 1 | 2 | 3 | 4 | 8 {
  switch (mode) {
    case undefined:
    case 13:
    case 14:
      return FlightState.IDLE;
    case 0:
    case 1:
    case 2:
    case 18:
    case 19:
      return FlightState.ON_GROUND;
    case 4:
      return FlightState.TAKING_OFF;
    case 9:
      return FlightState.RETURNING;
    case 10:
    case 11:
    case 12:
      return FlightState.LANDING;
    default:
      return FlightState.IN_AIR;
  }
}

/** `position_state.is_fixed` (0 not started, 1 fixing, 2 fixed, 3 failed) as the contracts' RtkStatus. */
export function rtkStatusOf(isFixed: number | undefined): number {
  if (isFixed === 2) return 4;
  if (isFixed === 1) return 3;
  if (isFixed === 3) return 1;
  return 0;
}

export interface DockFacts {
  dock?: DjiDockOsd;
  drone?: DjiDroneOsd;
  droneSn: string;
  /** From update_topo: false when `sub_devices` is empty. */
  droneInTopo: boolean;
  /** Seconds the drone has been airborne on the current flight. */
  flightTime: number;
}

/**
 * The contracts telemetry of a gateway from its merged OSD: the dock part as `nest`, its drone as `drone`
 * (absent until the drone reported a position). Null when it does not validate (nothing usable yet).
 */
export function telemetryOf(f: DockFacts): TelemetryData | null {
  const d = f.dock;
  const charging = d?.drone_charge_state?.state === 1;
  const powered = f.droneInTopo && (d?.sub_device?.device_online_status ?? 1) === 1;
  const nest =
    d && d.latitude !== undefined && d.longitude !== undefined
      ? {
          lat: d.latitude,
          lng: d.longitude,
          hatch: partOf(d.cover_state),
          platform: partOf(d.putter_state),
          tripod: partOf(d.putter_state),
          charger: (charging ? 1 : 0) as PartState,
          drone_power: (powered ? 1 : 0) as PartState,
          env: {
            wind_speed: clamp(d.wind_speed ?? 0, 0, 100),
            wind_direction: 0,
            temperature: clamp(d.environment_temperature ?? d.temperature ?? 0, -80, 100),
            humidity: clamp(d.humidity ?? 0, 0, 100),
            rainfall: RAINFALL_MM_H[clamp(Math.round(d.rainfall ?? 0), 0, 3)]!,
          },
        }
      : undefined;
  const r = f.drone;
  const lat = r?.latitude ?? d?.latitude;
  const lng = r?.longitude ?? d?.longitude;
  const drone =
    lat !== undefined && lng !== undefined && (r || nest)
      ? (() => {
          const pack = r?.battery?.batteries?.[0];
          const percent = r?.battery?.capacity_percent ?? d?.drone_charge_state?.capacity_percent ?? 0;
          const storage = r?.storage;
          const totalMb = (storage?.total ?? 0) / 1024;
          const freeMb = Math.max(0, (storage?.total ?? 0) - (storage?.used ?? 0)) / 1024;
          const head = r?.attitude_head ?? 0;
          return {
            sn: f.droneSn,
            lat,
            lng,
            alt: r?.height ?? d?.height ?? 0,
            height: r?.elevation ?? 0,
            h_speed: clamp(r?.horizontal_speed ?? 0, 0, 100),
            v_speed: clamp(r?.vertical_speed ?? 0, -50, 50),
            heading: ((head % 360) + 360) % 360,
            pitch: clamp(r?.attitude_pitch ?? 0, -180, 180),
            roll: clamp(r?.attitude_roll ?? 0, -180, 180),
            battery: {
              percent: clamp(percent, 0, 100),
              voltage: clamp((pack?.voltage ?? 0) / 1000, 0, 100),
              temperature: pack?.temperature ?? 0,
              charging,
            },
            flight_state: powered ? flightStateOf(r?.mode_code) : FlightState.IDLE,
            flight_mode: clamp(Math.round(r?.mode_code ?? 0), 0, 99),
            rtk: {
              status: rtkStatusOf(r?.position_state?.is_fixed),
              satellites: clamp(Math.round(r?.position_state?.rtk_number ?? 0), 0, 200),
              ntrip_state: 0,
            },
            gps_satellites: clamp(Math.round(r?.position_state?.gps_number ?? 0), 0, 200),
            home_distance: Math.max(0, r?.home_distance ?? 0),
            flight_time: Math.max(0, Math.round(f.flightTime)),
            powered,
            storage: { sdcard_totalsize: totalMb, sdcard_free: freeMb },
            camera: { camera_iso: 100, camera_shutter: 'auto', camera_exp_mode: 0, camera_exp_value: 0, camera_awb: 0 },
          };
        })()
      : undefined;
  const parsed = linkData.telemetry({ ...(nest ? { nest } : {}), ...(drone ? { drone } : {}) });
  return parsed.success ? parsed.data : null;
}

/** The running mission as the flight feature knows it (from `flighttask_prepare`). */
export interface FlightPlanInfo {
  flightId: string;
  missionId: string | null;
  missionName: string | null;
  waypointCount: number;
  /** The waypoint the route starts at (a resumed breakpoint), added to the device's indexes. */
  startIndex: number;
}

/** What `flighttask_progress` becomes: the mission progress, and whether the flight is airborne / over. */
export interface ProgressView {
  mission: MissionProgress;
  airborne: boolean;
  terminal: boolean;
  status: string;
  result: number;
}

/**
 * A `flighttask_progress` as contracts mission progress. Airborne from step 20 (start wayline) onwards
 * while not terminal; `interrupted` for a terminal status other than ok, `returning` while the dock lands it
 * after a return home, `paused` for paused.
 */
export function progressOf(p: DjiFlighttaskProgress, plan: FlightPlanInfo, flown: { distance: number; time: number }): ProgressView | null {
  const o = p.output;
  const ext = o.ext ?? {};
  const terminal = DJI_TERMINAL_STATUSES.includes(o.status);
  const step = o.progress?.current_step ?? 0;
  const count = plan.waypointCount;
  const index = clamp(Math.round((ext.current_waypoint_index ?? 0) + plan.startIndex), 0, Math.max(count, 0));
  const state: MissionProgress['state'] = terminal
    ? o.status === 'ok'
      ? 'done'
      : 'interrupted'
    : o.status === 'paused' || ext.wayline_mission_state === 7
      ? 'paused'
      : step >= 23 && step < 65533
        ? 'returning'
        : 'running';
  const mission = missionProgressSchema.safeParse({
    flight_id: plan.flightId,
    mission_id: plan.missionId,
    state,
    waypoint_index: state === 'done' ? count : index,
    waypoint_count: count,
    percent: clamp(o.progress?.percent ?? 0, 0, 100),
    distance_flown: Math.max(0, flown.distance),
    flight_time: Math.max(0, flown.time),
    photos: Math.max(0, Math.round(ext.media_count ?? 0)),
  });
  if (!mission.success) return null;
  return { mission: mission.data, airborne: !terminal && step >= 20 && step < 24, terminal, status: o.status, result: p.result };
}

/** `flight.end` data of a terminal progress: the dock lands its drone at home (place 3). */
export function flightEndOf(plan: FlightPlanInfo, endedAt: number, distance: number, photos: number): Record<string, unknown> {
  return { flight_id: plan.flightId, ended_at: endedAt, distance: Math.max(0, distance), place: 3, photos };
}

/** An `hms` event as the adapter-neutral `health` event data. */
export function healthOf(hms: DjiHms): { method: typeof HEALTH_EVENT; data: { items: HealthItem[] } } | null {
  const items = hms.list.map((i) => ({
    level: clamp(Math.round(i.level), 0, 2),
    module: clamp(Math.round(i.module), 0, 99),
    code: i.code,
    key: hmsKey({ code: i.code, device_type: i.device_type, in_the_sky: i.in_the_sky }),
    in_the_sky: i.in_the_sky === 1,
    ...(i.device_type ? { device_type: i.device_type } : {}),
    ...(i.args ? { args: i.args } : {}),
  }));
  const parsed = healthEventData.safeParse({ items });
  return parsed.success ? { method: HEALTH_EVENT, data: parsed.data } : null;
}
