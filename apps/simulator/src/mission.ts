import type { MissionPlan, MissionProgress, Waypoint } from '@nest/contracts';
import { angleDiff, haversineDistance } from '@nest/geo';
import type { LatLng } from '@nest/geo';

/**
 * Flying one mission plan, pure. The run keeps where it is in the route; `stepMission` tells the drone
 * where to go through the context callbacks (ops.ts owns the drone) and fires the waypoint actions.
 */

/** A waypoint counts as reached within these distances (m). */
export const ARRIVE_H = 1.5;
export const ARRIVE_V = 0.6;
/** A heading within this many degrees of uav_yaw counts as turned. */
export const YAW_TOLERANCE = 3;
/** mission.progress while flying a route comes at least this often (s). */
export const PROGRESS_EVERY = 5;
/** Sport mode flies this much faster (still capped by the plan's max_speed). */
export const SPORT_FACTOR = 1.5;

export type MissionState = MissionProgress['state'];

export interface MissionRun {
  plan: MissionPlan;
  flightId: string;
  state: MissionState;
  /** Next waypoint to fly to (the breakpoint when interrupted). */
  index: number;
  phase: 'fly' | 'act' | 'to_first' | 'finished';
  distance: number;
  flightTime: number;
  photos: number;
  sinceProgress: number;
  hoverLeft: number;
  actionsFired: boolean;
  /** Photo every N metres (cam_trig_dist of the last waypoint reached), 0 off. */
  trigEvery: number;
  trigAcc: number;
}

export interface Guide {
  lat: number;
  lng: number;
  height: number;
  speed: number;
  yaw?: number;
}

export interface MissionCtx {
  pos: LatLng;
  height: number;
  heading: number;
  homeAlt: number;
  sport: boolean;
  /** Metres moved horizontally during this step. */
  moved: number;
  guide(g: Guide | null): void;
  photo(kind: 'photo' | 'panorama', waypointIndex: number | null): void;
  gimbal(pitch: number, yaw: number): void;
  progress(): void;
  /** The route is finished: the finish action to carry out (10 hover, 20 return, 30 land, 40 first waypoint). */
  finish(action: number): void;
}

export function newMission(plan: MissionPlan, flightId: string): MissionRun {
  const start = Math.min(plan.start_index ?? 0, plan.waypoints.length - 1);
  return {
    plan,
    flightId,
    state: 'running',
    index: Math.max(0, start),
    phase: 'fly',
    distance: 0,
    flightTime: 0,
    photos: 0,
    sinceProgress: 0,
    hoverLeft: 0,
    actionsFired: false,
    trigEvery: 0,
    trigAcc: 0,
  };
}

/** Height above takeoff of a waypoint: height_type 1 is AMSL, converted with the home altitude. */
export function waypointHeight(plan: MissionPlan, wp: Waypoint, homeAlt: number): number {
  return plan.height_type === 1 ? Math.max(2, wp.height - homeAlt) : wp.height;
}

/** Speed towards a waypoint: its own speed or auto_speed, capped by max_speed (sport: faster, same cap). */
export function waypointSpeed(plan: MissionPlan, wp: Waypoint | undefined, sport: boolean): number {
  const base = Math.min(wp?.speed ?? plan.auto_speed, plan.max_speed);
  return sport ? Math.min(base * SPORT_FACTOR, plan.max_speed) : base;
}

export function missionProgress(m: MissionRun): MissionProgress {
  const count = m.plan.waypoints.length;
  const idx = m.state === 'done' || m.state === 'returning' ? count : Math.min(m.index, count);
  return {
    flight_id: m.flightId,
    mission_id: m.plan.mission_id,
    state: m.state,
    waypoint_index: idx,
    waypoint_count: count,
    percent: count === 0 ? 100 : Math.round((idx / count) * 1000) / 10,
    distance_flown: Math.round(m.distance * 10) / 10,
    flight_time: Math.round(m.flightTime * 10) / 10,
    photos: m.photos,
  };
}

export function stepMission(m: MissionRun, dt: number, ctx: MissionCtx): void {
  if (m.state !== 'running') return;
  const wps = m.plan.waypoints;
  m.flightTime += dt;
  m.distance += ctx.moved;
  m.sinceProgress += dt;
  if (m.phase === 'fly' && m.trigEvery > 0) {
    m.trigAcc += ctx.moved;
    while (m.trigAcc >= m.trigEvery) {
      m.trigAcc -= m.trigEvery;
      m.photos += 1;
      ctx.photo('photo', null);
    }
  }
  const wp = wps[m.index];
  if (m.phase === 'fly' && wp) {
    const h = waypointHeight(m.plan, wp, ctx.homeAlt);
    ctx.guide({ lat: wp.lat, lng: wp.lng, height: h, speed: waypointSpeed(m.plan, wp, ctx.sport) });
    if (haversineDistance(ctx.pos, wp) < ARRIVE_H && Math.abs(ctx.height - h) < ARRIVE_V) {
      m.phase = 'act';
      m.hoverLeft = wp.hover ?? 0;
      m.actionsFired = false;
    }
  } else if (m.phase === 'act' && wp) {
    const h = waypointHeight(m.plan, wp, ctx.homeAlt);
    ctx.guide({ lat: wp.lat, lng: wp.lng, height: h, speed: 0, yaw: wp.uav_yaw });
    // Turn first; then point the gimbal and take the picture; then hover out the remaining seconds.
    if (wp.uav_yaw !== undefined && Math.abs(angleDiff(ctx.heading, wp.uav_yaw)) > YAW_TOLERANCE) return;
    if (!m.actionsFired) {
      m.actionsFired = true;
      if (wp.gimbal_ctrl) ctx.gimbal(wp.gimbal_ctrl.pitch, wp.gimbal_ctrl.yaw);
      if (wp.takephoto === 1 || wp.takephoto === 2) {
        m.photos += 1;
        ctx.photo(wp.takephoto === 2 ? 'panorama' : 'photo', m.index);
      }
    }
    m.hoverLeft -= dt;
    if (m.hoverLeft > 1e-9) return;
    if (wp.cam_trig_dist !== undefined) {
      m.trigEvery = wp.cam_trig_dist;
      m.trigAcc = 0;
    }
    m.index += 1;
    m.phase = 'fly';
    m.sinceProgress = 0;
    if (m.index >= wps.length) {
      finishRoute(m, ctx);
      return;
    }
    ctx.progress();
  } else if (m.phase === 'to_first') {
    const first = wps[0]!;
    const h = waypointHeight(m.plan, first, ctx.homeAlt);
    ctx.guide({ lat: first.lat, lng: first.lng, height: h, speed: waypointSpeed(m.plan, first, ctx.sport) });
    if (haversineDistance(ctx.pos, first) < ARRIVE_H && Math.abs(ctx.height - h) < ARRIVE_V) {
      m.phase = 'finished';
      m.state = 'done';
      ctx.guide(null);
      ctx.progress();
      return;
    }
  }
  if (m.sinceProgress >= PROGRESS_EVERY) {
    m.sinceProgress = 0;
    ctx.progress();
  }
}

function finishRoute(m: MissionRun, ctx: MissionCtx): void {
  const action = m.plan.finish_action;
  m.index = m.plan.waypoints.length;
  if (action === 40) {
    // Back to the first waypoint, then hover there; the mission is done on arrival.
    m.phase = 'to_first';
    ctx.progress();
    return;
  }
  m.phase = 'finished';
  m.state = action === 20 ? 'returning' : 'done';
  ctx.progress();
  ctx.finish(action);
}
