import { haversineDistance, pathLength, type LatLng } from './coords.js';
import { localFrame } from './local.js';
import { ringArea } from './validation.js';

/**
 * Route distance, area and flight-time estimate (REFERENCE section 7, after QGC's mission stats, plus a
 * stop-and-turn model QGC lacks). Display with @nest/contracts formatDistance / formatArea / formatMmSs.
 *
 * `routeEstimate` is the one estimate of a route: the server stores its `est_time` and `distance` with the
 * route (the route list and the takeoff dialog show the stored values), the editor shows it live for the
 * route being drawn, both with the take-off point the server uses (the airport of the fence's device).
 * Nothing else computes a flight time or a route length.
 *
 * The model, step by step (time = climb + legs + hovers + finish):
 * 1. Climb: from the ground to the default height (else the first waypoint's height) at CLIMB_SPEED_MPS
 *    (3 m/s).
 * 2. With a take-off point (`home`): the leg from it to the first waypoint, at the cruise speed, starting
 *    and ending stopped.
 * 3. Cruise legs, waypoint to waypoint, at the current speed: the route's cruise speed (`auto_speed`, else
 *    DEFAULT_CRUISE_SPEED_MPS), replaced from a waypoint on by its own `speed`, never above `max_speed`.
 * 4. Turns: the aircraft stops and turns at the first and last waypoint, at every waypoint that hovers or
 *    takes a panorama, and where the route turns by more than STOP_TURN_ANGLE_DEG (20 degrees). Speed
 *    follows a trapezoid: it brakes and accelerates at ACCELERATION_MPS2 (2 m/s2), so a stop costs
 *    v / (2a) on each side (2.5 s + 2.5 s at 10 m/s); a leg too short to reach the speed takes
 *    2 * sqrt(d / a) between two stops. A leg that changes height takes max(horizontal time, |dh| /
 *    vertical speed), climbing at 3 m/s and descending at DESCENT_SPEED_MPS (2 m/s).
 * 5. Hovers: each waypoint's `hover` seconds are added.
 * 6. Finish, by the finish action: 20 return home (default) climbs or descends to the return height, flies
 *    back to the take-off point at the cruise speed (stop to stop) and descends from the return height to
 *    the ground; 30 auto land descends from the last waypoint's height; 40 flies back to the first
 *    waypoint and ends in the air; 10 hovers where it ends.
 * The total is rounded to whole seconds once (`est_time`), so the stored value and the shown value agree.
 * The estimate never grows when speeds rise, and never shrinks when a leg gets longer.
 */
export const CLIMB_SPEED_MPS = 3;
export const DESCENT_SPEED_MPS = 2;
export const ACCELERATION_MPS2 = 2;
export const STOP_TURN_ANGLE_DEG = 20;
/** Cruise speed when a route gives none (m/s). */
export const DEFAULT_CRUISE_SPEED_MPS = 10;

/** Length of a route through its waypoints (m). */
export const routeDistance = (waypoints: readonly LatLng[]): number => pathLength(waypoints);

/** Area of a fence or survey polygon (m², turf area, geodesic). */
export const polygonArea = (ring: readonly LatLng[]): number => ringArea(ring);

export interface EstimateWaypoint extends LatLng {
  height?: number;
  hover?: number | null;
  speed?: number | null;
  takephoto?: number | null;
}

export interface EstimateRoute {
  waypoints: readonly EstimateWaypoint[];
  auto_speed?: number;
  max_speed?: number;
  default_height?: number;
  return_height?: number;
  /** FinishAction: 10 hover, 20 return home (default), 30 auto land, 40 back to the first waypoint. */
  finish_action?: number;
}

export interface EstimateOptions {
  climbSpeed?: number;
  descentSpeed?: number;
  acceleration?: number;
  stopTurnAngleDeg?: number;
  /** Take-off and home point (the nest): adds the flight to the first waypoint and the return home. */
  home?: LatLng;
}

export interface FlightTimeEstimate {
  /** Seconds in total. */
  total: number;
  climb: number;
  legs: number;
  hover: number;
  /** Return leg(s) and descent after the last waypoint. */
  finish: number;
  /** Horizontal distance flown (m), home legs included. */
  distance: number;
  /** Waypoints where the aircraft stops and turns. */
  stops: number;
}

const pos = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** Time (s) for d metres at speed v with a stop at the start and/or at the end (trapezoidal profile). */
export function legTime(d: number, v: number, a: number, stopAtStart: boolean, stopAtEnd: boolean): number {
  if (!(d > 0)) return 0;
  const stops = (stopAtStart ? 1 : 0) + (stopAtEnd ? 1 : 0);
  if (stops === 0) return d / v;
  const rampDistance = (stops * v * v) / (2 * a);
  if (d >= rampDistance) return d / v + (stops * v) / (2 * a);
  // Speed never reached: accelerate (and brake) over the whole leg.
  return stops === 2 ? 2 * Math.sqrt(d / a) : Math.sqrt((2 * d) / a);
}

/** Heading change (degrees, 0-180) at b between legs ab and bc; 0 when a leg has no length. */
export function turnAngle(a: LatLng, b: LatLng, c: LatLng): number {
  const f = localFrame(b);
  const pa = f.toXY(a);
  const pc = f.toXY(c);
  const ux = -pa.x;
  const uy = -pa.y;
  const wx = pc.x;
  const wy = pc.y;
  const lu = Math.hypot(ux, uy);
  const lw = Math.hypot(wx, wy);
  if (lu === 0 || lw === 0) return 0;
  const cos = Math.max(-1, Math.min(1, (ux * wx + uy * wy) / (lu * lw)));
  return (Math.acos(cos) * 180) / Math.PI;
}

/** The flight-time estimate with its parts; see the module note for the model. */
export function estimateFlight(route: EstimateRoute, opts: EstimateOptions = {}): FlightTimeEstimate {
  const climbSpeed = opts.climbSpeed ?? CLIMB_SPEED_MPS;
  const descentSpeed = opts.descentSpeed ?? DESCENT_SPEED_MPS;
  const a = opts.acceleration ?? ACCELERATION_MPS2;
  const stopAngle = opts.stopTurnAngleDeg ?? STOP_TURN_ANGLE_DEG;
  const cap = pos(route.max_speed) ? route.max_speed : Infinity;
  const cruise = Math.min(pos(route.auto_speed) ? route.auto_speed : DEFAULT_CRUISE_SPEED_MPS, cap);
  const wps = route.waypoints;
  const out: FlightTimeEstimate = { total: 0, climb: 0, legs: 0, hover: 0, finish: 0, distance: 0, stops: 0 };
  if (wps.length === 0) return out;

  const firstHeight = pos(route.default_height) ? route.default_height : pos(wps[0]!.height) ? wps[0]!.height : 0;
  out.climb = firstHeight / climbSpeed;
  const vertical = (dh: number) => (dh >= 0 ? dh / climbSpeed : -dh / descentSpeed);

  if (opts.home) {
    const d = haversineDistance(opts.home, wps[0]!);
    out.distance += d;
    out.legs += legTime(d, cruise, a, true, true);
  }

  const isStop = (i: number): boolean => {
    const w = wps[i]!;
    if (i === 0 || i === wps.length - 1) return true;
    if (pos(w.hover) || w.takephoto === 2) return true;
    return turnAngle(wps[i - 1]!, w, wps[i + 1]!) > stopAngle;
  };
  const stops = wps.map((_, i) => isStop(i));
  out.stops = stops.filter(Boolean).length;
  let speed = cruise;
  for (let i = 0; i < wps.length; i++) {
    const w = wps[i]!;
    if (pos(w.hover)) out.hover += w.hover;
    if (pos(w.speed)) speed = Math.min(w.speed, cap);
    const next = wps[i + 1];
    if (!next) break;
    const d = haversineDistance(w, next);
    out.distance += d;
    const dh = (next.height ?? 0) - (w.height ?? 0);
    out.legs += Math.max(legTime(d, speed, a, stops[i]!, stops[i + 1]!), vertical(dh));
  }

  const last = wps[wps.length - 1]!;
  const lastHeight = last.height ?? firstHeight;
  switch (route.finish_action ?? 20) {
    case 10: // hover where it ends
      break;
    case 30: // land where it ends
      out.finish = lastHeight / descentSpeed;
      break;
    case 40: {
      const d = haversineDistance(last, wps[0]!);
      out.distance += d;
      out.finish = legTime(d, cruise, a, true, true);
      break;
    }
    default: {
      // Return home: climb or descend to the return height, fly home, descend.
      const rth = pos(route.return_height) ? route.return_height : lastHeight;
      const d = opts.home ? haversineDistance(last, opts.home) : 0;
      out.distance += d;
      out.finish = vertical(rth - lastHeight) + legTime(d, cruise, a, true, true) + rth / descentSpeed;
    }
  }
  out.total = out.climb + out.legs + out.hover + out.finish;
  return out;
}

/** Estimated flight time in seconds (format with formatMmSs from @nest/contracts). */
export const estimateFlightTime = (route: EstimateRoute, opts?: EstimateOptions): number => estimateFlight(route, opts).total;

/** A route's estimate as stored and shown: whole seconds and metres (2 decimals), with the parts. */
export interface RouteEstimate {
  /** Estimated flight time, whole seconds (the stored `est_time`). */
  est_time: number;
  /** Length through the waypoints (m, 2 decimals; the stored `distance`, home legs not included). */
  distance: number;
  /** The unrounded estimate with its parts. */
  flight: FlightTimeEstimate;
}

/**
 * The estimate of a route (see the module note): the server stores it, the editor shows it. `home` is the
 * take-off point, the airport of the device the route's fence is bound to (none: no home legs).
 */
export function routeEstimate(route: EstimateRoute, home?: LatLng | null): RouteEstimate {
  const flight = estimateFlight(route, home ? { home } : {});
  return {
    est_time: Math.round(flight.total),
    distance: Math.round(routeDistance(route.waypoints) * 100) / 100,
    flight,
  };
}
