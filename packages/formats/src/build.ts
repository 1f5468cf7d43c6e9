import type { LatLng, Text, Waypoint } from '@nest/contracts';
import { WAYPOINT_LIMITS } from '@nest/contracts';
import { openRing, yaw360 } from './geometry.js';
import type { ReadContext } from './limits.js';
import { checkLatLng } from './limits.js';
import type { HeightTypeValue, MissionTypeValue, PlanRoute, RouteSettings } from './model.js';
import { T, what as W } from './texts.js';

/** Waypoint actions as readers find them, before they are checked against the contracts' limits. */
export interface RawActions {
  uav_yaw?: number | undefined;
  hover?: number | undefined;
  takephoto?: number | undefined;
  gimbal_pitch?: number | undefined;
  gimbal_yaw?: number | undefined;
  speed?: number | undefined;
  cam_trig_dist?: number | undefined;
}

const L = WAYPOINT_LIMITS;
const fin = (v: number | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Collects the waypoints of one route: positions are checked (finite, in range), missing heights get the
 * default (one warning per route), actions are brought into the contracts' ranges (yaw into 0..360,
 * out-of-range values clamped with a warning, unknown photo codes dropped).
 */
export class RouteBuilder {
  readonly route: PlanRoute;
  private defaulted = 0;
  constructor(
    private readonly ctx: ReadContext,
    name: string,
    mission_type: MissionTypeValue = 1,
    height_type: HeightTypeValue = 0,
  ) {
    this.route = { name, mission_type, height_type, waypoints: [] };
  }

  private readonly clamp = (v: number, min: number, max: number, what: Text): number => {
    if (v < min || v > max) this.ctx.warn(T.actionValueClamped(this.route.name, what));
    return Math.min(max, Math.max(min, v));
  };

  add(lat: number, lng: number, height: number | undefined, actions: RawActions = {}, where?: string): Waypoint {
    const name = this.route.name;
    checkLatLng(lat, lng, where ?? `${name} #${this.route.waypoints.length + 1}`);
    let h = height;
    if (!fin(h) || h <= 0) {
      h = this.route.settings?.default_height ?? this.ctx.defaultHeight;
      this.defaulted++;
    }
    const wp: Waypoint = { lat, lng, height: h };
    const clamp = this.clamp;
    if (fin(actions.uav_yaw)) wp.uav_yaw = yaw360(actions.uav_yaw);
    if (fin(actions.hover) && actions.hover > 0) wp.hover = Math.round(clamp(actions.hover, L.hoverMin, L.hoverMax, W.hover));
    if (actions.takephoto === 1 || actions.takephoto === 2) wp.takephoto = actions.takephoto;
    if (fin(actions.gimbal_pitch) || fin(actions.gimbal_yaw)) {
      wp.gimbal_ctrl = {
        pitch: clamp(fin(actions.gimbal_pitch) ? actions.gimbal_pitch : 0, L.gimbalMin, L.gimbalMax, W.gimbal),
        yaw: clamp(fin(actions.gimbal_yaw) ? actions.gimbal_yaw : 0, L.gimbalMin, L.gimbalMax, W.gimbal),
      };
    }
    if (fin(actions.speed) && actions.speed > 0) wp.speed = clamp(actions.speed, 0, L.speedMax, W.speed);
    if (fin(actions.cam_trig_dist) && actions.cam_trig_dist >= 0) wp.cam_trig_dist = clamp(actions.cam_trig_dist, 0, 10_000, W.camTrigDist);
    this.route.waypoints.push(wp);
    return wp;
  }

  settings(s: RouteSettings): void {
    const clean: RouteSettings = {};
    for (const [k, v] of Object.entries(s) as [keyof RouteSettings, unknown][]) {
      if (v === undefined || (typeof v === 'number' && !Number.isFinite(v))) continue;
      (clean as Record<string, unknown>)[k] = v;
    }
    if (Object.keys(clean).length) this.route.settings = { ...this.route.settings, ...clean };
  }

  /** Emits the default-height warning; answers the route. */
  done(): PlanRoute {
    if (this.defaulted) {
      this.ctx.warn(T.defaultHeightUsed(this.route.name, this.defaulted, this.route.settings?.default_height ?? this.ctx.defaultHeight));
    }
    return this.route;
  }
}

/** A checked ring as the model keeps it (open, no consecutive duplicates). */
export function ringFrom(points: { lat: number; lng: number }[], where: string): LatLng[] {
  for (const p of points) checkLatLng(p.lat, p.lng, where);
  return openRing(points.map((p) => ({ lat: p.lat, lng: p.lng })));
}

/** Finish action from the names files use (DJI WPML, DJI GS Pro KML, our own numbers). */
export function finishActionFrom(v: unknown): RouteSettings['finish_action'] {
  const s = String(v ?? '').trim();
  switch (s.toLowerCase()) {
    case '10':
    case 'noaction':
    case 'hover':
      return 10;
    case '20':
    case 'gohome':
    case 'rth':
      return 20;
    case '30':
    case 'autoland':
    case 'land':
      return 30;
    case '40':
    case 'gotofirstwaypoint':
    case 'gofirstwaypoint':
      return 40;
    default:
      return undefined;
  }
}
