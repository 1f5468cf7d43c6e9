import {
  AIRBORNE_FLIGHT_STATES,
  PREFLIGHT,
  Reason,
  formatMmSs,
  type PreflightCheck,
  type PreflightItemValue,
  type StateData,
  type TelemetryData,
} from '@nest/contracts';
import type { Actor } from './types.js';

/** What the pre-flight checks look at: one device's row, link state, hold and (optionally) route verdict. */
export interface CheckFacts {
  enabled: boolean;
  online: boolean;
  holder: { u_id: string; nick: string } | null;
  state: StateData | null;
  telemetry: TelemetryData | null;
  /** Route verdict: undefined when no route is involved; else null (fine) or the CommandReason refusing it. */
  route?: number | null;
  /**
   * The no-fly or restricted zone the route enters, as the operator reads it (kind and name, in their
   * language); null when it keeps out of every zone; undefined when no route was checked.
   */
  zone?: string | null;
  /** The route's stored estimate (est_time s, distance m), when a route is involved and was found. */
  endurance?: RouteEndurance;
}

export interface RouteEndurance {
  est_time: number;
  distance: number;
}

/** Minutes of flight a battery percentage allows above the reserve (PREFLIGHT's consumption per minute). */
export const enduranceMinutes = (batteryPercent: number): number =>
  Math.max(0, batteryPercent - PREFLIGHT.reservePercent) / PREFLIGHT.batteryPercentPerMinute;

/**
 * Whether a route can be flown now (PREFLIGHT's documented rule):
 * - battery: its estimated time fits in enduranceMinutes(battery %), i.e. est_time / 60 * 2 % + the 20 %
 *   reserve <= battery %; an unknown battery does not pass (nothing is assumed);
 * - wind: a route longer than PREFLIGHT.longRouteMetres needs wind at the nest of at most
 *   PREFLIGHT.longRouteMaxWind (shorter routes have the takeoff limit only); no weather station (a
 *   single-soldier drone) passes.
 */
export function enduranceAllows(route: RouteEndurance, battery: number | null, wind: number | null): boolean {
  if (battery === null || route.est_time / 60 > enduranceMinutes(battery)) return false;
  return wind === null || route.distance <= PREFLIGHT.longRouteMetres || wind <= PREFLIGHT.longRouteMaxWind;
}

const item = (name: PreflightItemValue, ok: boolean, reason: number, value: number | string | null = null): PreflightCheck => ({
  item: name,
  ok,
  reason: ok ? null : reason,
  value,
});

/**
 * The one hold rule, for everything done to a device. A system actor (timed tasks, the demo launcher) acts
 * only while no person holds the device: the person is working with it. A person never acts on a device
 * someone else holds; flight commands (`requireHold`) further need the person to hold it themselves (taken
 * with /device/connect: the lock that tells everyone else who is flying), while maintenance operations also
 * run on a device nobody holds. Answers the CommandReason refusing the actor, or null.
 */
export function controlRefusal(
  actor: Pick<Actor, 'u_id' | 'source'>,
  holder: CheckFacts['holder'],
  { requireHold = true }: { requireHold?: boolean } = {},
): number | null {
  if (actor.source !== 'console') return holder ? Reason.HELD : null;
  if (!holder) return requireHold ? Reason.NOT_HOLDING : null;
  return holder.u_id === actor.u_id ? null : Reason.HELD;
}

/** The hold rule of maintenance operations (controlRefusal without requireHold): whether the actor may act. */
export function holdAllows(actor: Pick<Actor, 'u_id' | 'source'>, holder: CheckFacts['holder']): boolean {
  return controlRefusal(actor, holder, { requireHold: false }) === null;
}

/** A flow running or paused, or a mission not finished: the device is busy with a process. */
export function processRunning(state: StateData | null): boolean {
  const flow = state?.flow?.state;
  const mission = state?.mission?.state;
  return flow === 'running' || flow === 'paused' || mission === 'running' || mission === 'paused' || mission === 'returning';
}

/** Drone airborne (taking off, in the air, landing, returning home); null when unknown. */
export function inAir(telemetry: TelemetryData | null): boolean | null {
  const s = telemetry?.drone?.flight_state;
  if (s === undefined) return null;
  return AIRBORNE_FLIGHT_STATES.includes(s);
}

/**
 * Every pre-flight check, in the order a refusal reports the first failing one: enabled first (a disabled
 * device is also silent on the link, and "disabled" is the real cause), then link, hold, process, drone,
 * weather, route, zone, endurance. The order rule: a check comes after every check whose facts it uses, so
 * a refusal names the cause, not a consequence (endurance uses the route, the battery and the wind: last).
 * The zone check is listed when the route was found and fits its fence; its value names the zone entered.
 * Missing telemetry fails the drone checks (nothing is known, nothing is assumed); a single-soldier drone
 * has no nest weather station: wind and rain pass with no value. Endurance is listed when the route's
 * estimate is known; its value is "estimated time / minutes the battery allows" (mm:ss).
 */
export function preflight(actor: Pick<Actor, 'u_id' | 'source'>, f: CheckFacts): PreflightCheck[] {
  const drone = f.telemetry?.drone;
  const env = f.telemetry?.nest?.env;
  const checks: PreflightCheck[] = [
    item('enabled', f.enabled, Reason.DISABLED),
    item('online', f.online, Reason.OFFLINE),
    item('control', controlRefusal(actor, f.holder) === null, controlRefusal(actor, f.holder) ?? Reason.HELD, f.holder?.nick ?? null),
    item('idle', !processRunning(f.state), Reason.BUSY),
  ];
  const battery = drone?.battery.percent ?? null;
  checks.push(item('battery', battery !== null && battery >= PREFLIGHT.minBatteryPercent, Reason.LOW_BATTERY, battery));
  const total = drone?.storage.sdcard_totalsize ?? null;
  const free = drone?.storage.sdcard_free ?? null;
  checks.push(item('tf_card', total !== null && total > 0, Reason.NO_TF, total));
  checks.push(item('tf_space', free !== null && free >= PREFLIGHT.minTfFreeMb, Reason.TF_FULL, free));
  // A drone powered off in its nest has no positioning yet: the takeoff flow powers it on and the device
  // checks positioning in its self-check step. Any other drone must have a fix now. The value
  // 'powered_off' is a word the console labels in the operator's language (older consoles got 'off').
  const asleepInNest = !!drone && !drone.powered && !!f.telemetry?.nest;
  const rtkOk = !!drone && (asleepInNest || drone.rtk.status >= PREFLIGHT.rtkStatus || drone.gps_satellites >= PREFLIGHT.minGpsSatellites);
  const rtkValue = !drone ? null : asleepInNest ? 'powered_off' : drone.rtk.status >= PREFLIGHT.rtkStatus ? 'rtk' : drone.gps_satellites;
  checks.push(item('rtk', rtkOk, Reason.RTK, rtkValue));
  checks.push(item('wind', !env || env.wind_speed <= PREFLIGHT.maxWindSpeed, Reason.WIND, env?.wind_speed ?? null));
  checks.push(item('rain', !env || env.rainfall <= PREFLIGHT.maxRainfall, Reason.RAIN, env?.rainfall ?? null));
  if (f.route !== undefined) checks.push(item('route', f.route === null, f.route ?? Reason.ROUTE_INVALID));
  if (f.zone !== undefined) checks.push(item('zone', f.zone === null, Reason.ROUTE_ZONE, f.zone));
  if (f.endurance) {
    const allowed = battery === null ? null : formatMmSs(enduranceMinutes(battery) * 60);
    const value = `${formatMmSs(f.endurance.est_time)} / ${allowed ?? '--'}`;
    checks.push(item('endurance', enduranceAllows(f.endurance, battery, env?.wind_speed ?? null), Reason.ENDURANCE, value));
  }
  return checks;
}

/** The reason of the first failing check, or null when all pass. */
export const firstFailure = (checks: readonly PreflightCheck[]): number | null => checks.find((c) => !c.ok)?.reason ?? null;
