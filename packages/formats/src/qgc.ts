import type { Text } from '@nest/contracts';
import type { RawActions } from './build.js';
import { RouteBuilder, ringFrom } from './build.js';
import { circleToPolygon, samePoint } from './geometry.js';
import type { ReadContext } from './limits.js';
import { checkLatLng, finiteOrUndefined } from './limits.js';
import type { FinishActionValue, HeightTypeValue, PlanDocument, PlanRoute, PlanSurvey, SurveyParams } from './model.js';
import { emptyDocument } from './model.js';
import { T, fail, what } from './texts.js';

/**
 * QGroundControl `.plan` (REFERENCE section 1). Every coordinate is [lat, lon(, alt)].
 *
 * Reading: SimpleItems in order. NAV_WAYPOINT (16) and NAV_LOITER_TIME (19) are waypoints (p1 = hold
 * seconds, p4 = yaw); TAKEOFF (22) is not a waypoint; DO_CHANGE_SPEED (178), DO_SET_CAM_TRIGG_DIST
 * (206), IMAGE_START_CAPTURE (2000), DO_MOUNT_CONTROL (205), GIMBAL_MANAGER_PITCHYAW (1000),
 * CONDITION_YAW (115) and delays (93, 112) become actions of the waypoint before them ("from this
 * waypoint on"), or of the first waypoint when none came yet. The last of RTL (20), LAND (21) and
 * LOITER_UNLIM (17) sets the finish action (17 at the first waypoint = return to the first waypoint,
 * elsewhere = hover). `null` params are NaN. Heights: frame 3 relative, 0 above sea level, 10 terrain;
 * AltitudeMode is read too, the frame wins when they disagree, AltitudeMode 3 (calculated above terrain)
 * takes `Altitude`. Survey ComplexItems become survey areas, CorridorScans strip routes; geoFence
 * inclusion polygons and circles (as 36-point polygons) become fences; exclusion zones and rally points
 * are left out with a warning. Mission version 1 items (`coordinate`, `param1..4`) are read as well.
 *
 * Writing: see `toQgcPlan`.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const f = (v: unknown): number => (typeof v === 'number' ? v : NaN);
const fin = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);

export const isQgcPlan = (v: unknown): boolean => isObj(v) && v.fileType === 'Plan';

type AltMode = 'rel' | 'abs' | 'terrain';

interface RawPoint {
  lat: number;
  lng: number;
  alt: number | undefined;
  mode: AltMode;
  actions: RawActions;
  plain: boolean;
}

function latLngPair(v: unknown, where: string): { lat: number; lng: number } {
  if (!Array.isArray(v) || v.length < 2) return fail(T.planInvalid(where, 'a position must be [latitude, longitude]'));
  const lat = f(v[0]);
  const lng = f(v[1]);
  checkLatLng(lat, lng, where);
  return { lat, lng };
}

function itemParams(item: Obj): number[] {
  if (Array.isArray(item.params)) return Array.from({ length: 7 }, (_, i) => f(item.params instanceof Array ? item.params[i] : NaN));
  // Mission version 1: param1..param4 and coordinate [lat, lon, alt].
  const c = Array.isArray(item.coordinate) ? item.coordinate : [];
  return [f(item.param1), f(item.param2), f(item.param3), f(item.param4), f(c[0]), f(c[1]), f(c[2])];
}

function altitudeOf(item: Obj, p: number[], ctx: ReadContext): { alt: number | undefined; mode: AltMode } {
  const frame = f(item.frame);
  const frameMode: AltMode | undefined =
    frame === 3 || frame === 6 ? 'rel' : frame === 0 || frame === 5 ? 'abs' : frame === 10 || frame === 11 ? 'terrain' : undefined;
  const am = f(item.AltitudeMode);
  const calculated = am === 3;
  const amMode: AltMode | undefined = am === 1 ? 'rel' : am === 2 ? 'abs' : am === 3 || am === 4 ? 'terrain' : undefined;
  let mode: AltMode = frameMode ?? amMode ?? 'rel';
  if (calculated) mode = 'terrain';
  else if (amMode && frameMode && amMode !== frameMode) ctx.warn(T.altitudeModeDisagrees());
  const alt = calculated ? (finiteOrUndefined(item.Altitude) ?? undefined) : (fin(p[6]) ? p[6] : finiteOrUndefined(item.Altitude));
  return { alt, mode };
}

function surveyFrom(item: Obj, name: string, ctx: ReadContext): PlanSurvey | undefined {
  const poly = Array.isArray(item.polygon) ? item.polygon : [];
  ctx.addCoordinates(poly.length);
  const polygon = ringFrom(
    poly.map((p) => latLngPair(p, name)),
    name,
  );
  if (polygon.length < 3) {
    ctx.warn(T.tooFewVertices(name));
    return undefined;
  }
  const ts = isObj(item.TransectStyleComplexItem) ? item.TransectStyleComplexItem : {};
  const cc = isObj(ts.CameraCalc) ? ts.CameraCalc : {};
  const params: SurveyParams = {};
  const set = <K extends keyof SurveyParams>(k: K, v: SurveyParams[K] | undefined): void => {
    if (v !== undefined) params[k] = v;
  };
  set('angle', finiteOrUndefined(item.angle));
  set('turn_distance', finiteOrUndefined(ts.TurnAroundDistance));
  set('course_overlap', finiteOrUndefined(cc.FrontalOverlap));
  set('lateral_overlap', finiteOrUndefined(cc.SideOverlap));
  set('default_height', finiteOrUndefined(cc.DistanceToSurface));
  if (typeof cc.DistanceToSurfaceRelative === 'boolean') params.height_type = cc.DistanceToSurfaceRelative ? 0 : 1;
  if (ts.FollowTerrain === true) params.elevation = true;
  if (typeof cc.CameraName === 'string' && cc.CameraName) params.camera_name = cc.CameraName;
  set('sensor_width', finiteOrUndefined(cc.SensorWidth));
  set('sensor_height', finiteOrUndefined(cc.SensorHeight));
  set('image_width', finiteOrUndefined(cc.ImageWidth));
  set('image_height', finiteOrUndefined(cc.ImageHeight));
  set('focal_length', finiteOrUndefined(cc.FocalLength));
  if (params.sensor_width !== undefined && params.focal_length !== undefined) params.camera_type = 'custom';
  return { name, polygon, ...(Object.keys(params).length ? { params } : {}) };
}

export function readQgcPlan(input: unknown, ctx: ReadContext): PlanDocument {
  if (!isQgcPlan(input)) return fail(T.notPlan());
  const plan = input as Obj;
  const name = ctx.baseName;
  const doc = emptyDocument(name);
  const mission = isObj(plan.mission) ? plan.mission : {};
  const items = Array.isArray(mission.items) ? mission.items : [];

  const points: RawPoint[] = [];
  const pending: RawActions = {};
  let finish: FinishActionValue | undefined;
  const ignored = new Map<number, number>();
  const extraRoutes: PlanRoute[] = [];
  const target = (): RawActions => points[points.length - 1]?.actions ?? pending;
  const touch = (): void => {
    const last = points[points.length - 1];
    if (last) last.plain = false;
  };
  ctx.addCoordinates(items.length);

  items.forEach((raw, k) => {
    const where = `${name} item ${k + 1}`;
    if (!isObj(raw)) return fail(T.planInvalid(where, 'not an object'));
    if (raw.type === 'ComplexItem') {
      const type = String(raw.complexItemType ?? '');
      if (type === 'survey') {
        const s = surveyFrom(raw, doc.surveys.length ? `${name} (${doc.surveys.length + 1})` : name, ctx);
        if (s) doc.surveys.push(s);
      } else if (type === 'CorridorScan') {
        const line = Array.isArray(raw.polyline) ? raw.polyline : [];
        ctx.addCoordinates(line.length);
        const ts = isObj(raw.TransectStyleComplexItem) ? raw.TransectStyleComplexItem : {};
        const cc = isObj(ts.CameraCalc) ? ts.CameraCalc : {};
        const b = new RouteBuilder(ctx, `${name} corridor`, 3, cc.DistanceToSurfaceRelative === false ? 1 : 0);
        for (const p of line) {
          const { lat, lng } = latLngPair(p, where);
          b.add(lat, lng, finiteOrUndefined(cc.DistanceToSurface), {}, where);
        }
        if (b.route.waypoints.length) extraRoutes.push(b.done());
      } else ctx.warn(T.planComplexIgnored(type));
      return;
    }
    const cmd = f(raw.command);
    const p = itemParams(raw);
    const pos = (): { lat: number; lng: number } | undefined => {
      if (!fin(p[4]) || !fin(p[5]) || (p[4] === 0 && p[5] === 0)) return undefined;
      checkLatLng(p[4], p[5], where);
      return { lat: p[4], lng: p[5] };
    };
    const addPoint = (actions: RawActions, strict = false): void => {
      // A waypoint's 0,0 is a place; for LAND and LOITER it means "where the aircraft is".
      const at = strict ? (fin(p[4]) && fin(p[5]) ? (checkLatLng(p[4], p[5], where), { lat: p[4], lng: p[5] }) : undefined) : pos();
      if (!at) return;
      const { alt, mode } = altitudeOf(raw, p, ctx);
      const a: RawActions = { ...(points.length ? {} : pending), ...actions };
      points.push({ ...at, alt, mode, actions: a, plain: !Object.values(actions).some((v) => v !== undefined) });
      finish = undefined;
    };
    switch (cmd) {
      case 16: // NAV_WAYPOINT
        addPoint({ hover: fin(p[0]) && p[0] > 0 ? p[0] : undefined, uav_yaw: fin(p[3]) ? p[3] : undefined }, true);
        break;
      case 19: // NAV_LOITER_TIME
      case 18: // NAV_LOITER_TURNS
      case 31: // NAV_LOITER_TO_ALT
        addPoint({ hover: cmd === 19 && fin(p[0]) ? p[0] : undefined }, true);
        break;
      case 22: // NAV_TAKEOFF
      case 84: // NAV_VTOL_TAKEOFF
        break;
      case 20: // NAV_RETURN_TO_LAUNCH
        finish = 20;
        break;
      case 21: // NAV_LAND
      case 85: {
        const at = pos();
        const last = points[points.length - 1];
        if (at && (!last || !samePoint(at, last))) addPoint({});
        finish = 30;
        break;
      }
      case 17: {
        // NAV_LOITER_UNLIM: hold at a position.
        const at = pos();
        const first = points[0];
        const last = points[points.length - 1];
        if (at && first && points.length >= 2 && samePoint(at, first)) {
          if (last && last.plain && samePoint(last, first)) points.pop();
          finish = 40;
        } else {
          if (at && (!last || !samePoint(at, last))) addPoint({});
          finish = 10;
        }
        break;
      }
      case 178: // DO_CHANGE_SPEED
        if (fin(p[1]) && p[1] > 0) {
          target().speed = p[1];
          touch();
        }
        break;
      case 206: // DO_SET_CAM_TRIGG_DIST
        if (fin(p[0]) && p[0] >= 0) {
          target().cam_trig_dist = p[0];
          touch();
        }
        break;
      case 2000: // IMAGE_START_CAPTURE: a single shot (interval capture is not a waypoint action)
        if (!fin(p[1]) || p[1] === 0) {
          target().takephoto = 1;
          touch();
        }
        else ignored.set(cmd, (ignored.get(cmd) ?? 0) + 1);
        break;
      case 2001: // IMAGE_STOP_CAPTURE: pairs with the above
        break;
      case 205: // DO_MOUNT_CONTROL: p1 pitch, p3 yaw
        target().gimbal_pitch = fin(p[0]) ? p[0] : 0;
        target().gimbal_yaw = fin(p[2]) ? p[2] : 0;
        touch();
        break;
      case 1000: // DO_GIMBAL_MANAGER_PITCHYAW
        target().gimbal_pitch = fin(p[0]) ? p[0] : 0;
        target().gimbal_yaw = fin(p[1]) ? p[1] : 0;
        touch();
        break;
      case 115: // CONDITION_YAW, absolute only
        if (fin(p[0]) && (!fin(p[3]) || p[3] === 0)) {
          target().uav_yaw = p[0];
          touch();
        }
        else ignored.set(cmd, (ignored.get(cmd) ?? 0) + 1);
        break;
      case 93: // NAV_DELAY
      case 112: // CONDITION_DELAY
        if (fin(p[0]) && p[0] > 0) {
          target().hover = (target().hover ?? 0) + p[0];
          touch();
        }
        break;
      default:
        ignored.set(cmd, (ignored.get(cmd) ?? 0) + 1);
    }
  });
  for (const [cmd, n] of ignored) ctx.warn(T.planCommandIgnored(cmd, n));

  const vehicle = f(mission.vehicleType);
  const speed = finiteOrUndefined(vehicle === 1 ? mission.cruiseSpeed : mission.hoverSpeed);
  if (points.length) {
    const modes = new Set(points.map((p) => p.mode));
    const first = points[0]!.mode;
    const b = new RouteBuilder(ctx, name, 1, first === 'abs' ? 1 : 0);
    b.settings({ auto_speed: speed, finish_action: finish, ...(modes.has('terrain') ? { elevation: true } : {}) });
    if (modes.has('terrain')) ctx.warn(T.terrainHeights(name));
    if (modes.has('abs') && modes.size > 1) ctx.warn(T.mixedAltitudeModes(name));
    for (const p of points) b.add(p.lat, p.lng, p.alt, p.actions, name);
    doc.routes.push(b.done());
  } else {
    for (const s of doc.surveys) {
      const params: SurveyParams = { ...s.params };
      if (finish && params.finish_action === undefined) params.finish_action = finish;
      if (speed !== undefined && params.auto_speed === undefined) params.auto_speed = speed;
      if (Object.keys(params).length) s.params = params;
    }
  }
  doc.routes.push(...extraRoutes);

  const fence = isObj(plan.geoFence) ? plan.geoFence : {};
  let exclusions = 0;
  const fences: { ring: { lat: number; lng: number }[] }[] = [];
  for (const [i, pg] of (Array.isArray(fence.polygons) ? fence.polygons : []).entries()) {
    if (!isObj(pg)) continue;
    if (pg.inclusion === false) {
      exclusions++;
      continue;
    }
    const poly = Array.isArray(pg.polygon) ? pg.polygon : [];
    ctx.addCoordinates(poly.length);
    fences.push({ ring: poly.map((p) => latLngPair(p, `geoFence polygon ${i + 1}`)) });
  }
  for (const [i, c] of (Array.isArray(fence.circles) ? fence.circles : []).entries()) {
    if (!isObj(c)) continue;
    if (c.inclusion === false) {
      exclusions++;
      continue;
    }
    const circle = isObj(c.circle) ? c.circle : {};
    const center = latLngPair(circle.center, `geoFence circle ${i + 1}`);
    const radius = f(circle.radius);
    if (!Number.isFinite(radius) || radius <= 0) fail(T.planInvalid(`geoFence circle ${i + 1}`, 'radius must be above 0'));
    ctx.addCoordinates(36);
    fences.push({ ring: circleToPolygon(center, radius, 36) });
  }
  fences.forEach(({ ring }, i) => {
    const fname = fences.length > 1 ? `${name} (${i + 1})` : name;
    const boundary = ringFrom(ring, fname);
    if (boundary.length < 3) return ctx.warn(T.tooFewVertices(fname));
    doc.fences.push({ name: fname, boundary });
  });
  if (exclusions) ctx.warn(T.exclusionIgnored(exclusions));
  const rally = isObj(plan.rallyPoints) && Array.isArray(plan.rallyPoints.points) ? plan.rallyPoints.points.length : 0;
  if (rally) ctx.warn(T.rallyIgnored(rally));
  return doc;
}

// ------------------------------------------------------------------------------------------------
// Writing

export interface QgcOptions {
  /** Which route becomes the mission (a plan holds one); default the first. */
  routeIndex?: number;
  /** MAV_AUTOPILOT of the plan: 12 PX4 (default), 3 ArduPilot. */
  firmwareType?: number;
  /** MAV_TYPE: 2 quadrotor (default). */
  vehicleType?: number;
}

type Item = Record<string, unknown>;

/** GSD (cm/px) and footprints (m) of a camera at a height (REFERENCE section 5), landscape. */
function footprint(p: SurveyParams): { gsd: number; side: number; frontal: number } | undefined {
  const { sensor_width: sw, image_width: iw, image_height: ih, focal_length: fl, default_height: h } = p;
  if (!sw || !iw || !ih || !fl || !h) return undefined;
  const gsd = (h * sw * 100) / (iw * fl);
  return { gsd, side: (iw * gsd) / 100, frontal: (ih * gsd) / 100 };
}

function surveyItem(s: PlanSurvey, jumpId: number): Item {
  const p = s.params ?? {};
  const fp = footprint(p);
  const custom = p.sensor_width !== undefined && p.focal_length !== undefined;
  return {
    type: 'ComplexItem',
    complexItemType: 'survey',
    version: 5,
    angle: p.angle ?? 0,
    entryLocation: 0,
    flyAlternateTransects: false,
    splitConcavePolygons: false,
    polygon: s.polygon.map((q) => [q.lat, q.lng]),
    TransectStyleComplexItem: {
      version: 2,
      TurnAroundDistance: p.turn_distance ?? 10,
      CameraTriggerInTurnAround: true,
      HoverAndCapture: false,
      Refly90Degrees: false,
      CameraShots: 0,
      VisualTransectPoints: [],
      Items: [],
      FollowTerrain: p.elevation === true,
      CameraCalc: {
        version: 1,
        CameraName: p.camera_name ?? (custom ? 'Custom Camera' : 'Manual (no camera specs)'),
        DistanceToSurface: p.default_height ?? 100,
        DistanceToSurfaceRelative: p.height_type !== 1,
        AdjustedFootprintSide: fp ? fp.side * (1 - (p.lateral_overlap ?? 70) / 100) : 25,
        AdjustedFootprintFrontal: fp ? fp.frontal * (1 - (p.course_overlap ?? 80) / 100) : 25,
        ...(custom
          ? {
              SensorWidth: p.sensor_width,
              SensorHeight: p.sensor_height ?? null,
              ImageWidth: p.image_width ?? null,
              ImageHeight: p.image_height ?? null,
              FocalLength: p.focal_length,
              Landscape: true,
              FixedOrientation: false,
              MinTriggerInterval: 0,
              ValueSetIsDistance: true,
              ImageDensity: fp ? Math.round(fp.gsd * 1000) / 1000 : null,
            }
          : {}),
        FrontalOverlap: p.course_overlap ?? 80,
        SideOverlap: p.lateral_overlap ?? 70,
      },
    },
    doJumpId: jumpId,
  };
}

/**
 * A QGC plan: fileType Plan, version 1, mission version 2. The route's items start with TAKEOFF (22),
 * then per waypoint NAV_WAYPOINT (16: hold = hover, yaw = uav_yaw) followed by its actions
 * (178 speed, 205 gimbal, 2000 photo, 206 photo distance), then survey ComplexItems, then the finish
 * action: 20 RTL, 30 LAND at the last waypoint, 10 LOITER_UNLIM at the last waypoint, 40 back to the first
 * waypoint and LOITER_UNLIM there. params are [p1, p2, p3, p4, lat, lon, alt] with NaN as null. Fences
 * are geoFence inclusion polygons.
 */
export function toQgcPlan(doc: PlanDocument, opts: QgcOptions = {}): { plan: Record<string, unknown>; warnings: Text[] } {
  const warnings: Text[] = [];
  const route = doc.routes[opts.routeIndex ?? 0];
  if (doc.routes.length > 1) warnings.push(T.exportDropped(what.extraRoutes(doc.routes.length - 1), 'QGC .plan'));
  const items: Item[] = [];
  let seq = 1;
  const nums = (ps: number[]): (number | null)[] => ps.map((v) => (Number.isFinite(v) ? v : null));
  const ht: HeightTypeValue = route?.height_type ?? doc.surveys[0]?.params?.height_type ?? 0;
  const frame = ht === 1 ? 0 : 3;
  const positional = (command: number, p: number[], at: { lat: number; lng: number }, alt: number): void => {
    items.push({
      AMSLAltAboveTerrain: null,
      Altitude: alt,
      AltitudeMode: ht === 1 ? 2 : 1,
      autoContinue: true,
      command,
      doJumpId: seq++,
      frame,
      params: nums([...p, at.lat, at.lng, alt]),
      type: 'SimpleItem',
    });
  };
  const plain = (command: number, p: number[]): void => {
    items.push({ autoContinue: true, command, doJumpId: seq++, frame: 2, params: nums(p), type: 'SimpleItem' });
  };

  const wps = route?.waypoints ?? [];
  const first = wps[0];
  const firstSurvey = doc.surveys[0];
  const takeoffAt = first ?? firstSurvey?.polygon[0];
  const takeoffAlt = first?.height ?? firstSurvey?.params?.default_height ?? 50;
  if (takeoffAt && (wps.length || doc.surveys.length)) positional(22, [0, 0, 0, NaN], takeoffAt, takeoffAlt);
  let pano = false;
  for (const w of wps) {
    positional(16, [w.hover ?? 0, 0, 0, w.uav_yaw ?? NaN], w, w.height);
    if (w.speed !== undefined) plain(178, [1, w.speed, -1, 0, 0, 0, 0]);
    if (w.gimbal_ctrl) plain(205, [w.gimbal_ctrl.pitch, 0, w.gimbal_ctrl.yaw, 0, 0, 0, 2]);
    if (w.takephoto === 1 || w.takephoto === 2) plain(2000, [0, 0, 1, 0, NaN, NaN, NaN]);
    if (w.takephoto === 2) pano = true;
    if (w.cam_trig_dist !== undefined) plain(206, [w.cam_trig_dist, 0, 1, 0, 0, 0, 0]);
  }
  if (pano) warnings.push(T.exportPanoAsPhoto());
  for (const s of doc.surveys) items.push(surveyItem(s, seq++));
  const finishAction = route?.settings?.finish_action ?? (wps.length ? undefined : firstSurvey?.params?.finish_action);
  const last = wps[wps.length - 1];
  switch (finishAction) {
    case 20:
      plain(20, [0, 0, 0, 0, 0, 0, 0]);
      break;
    case 30:
      if (last) positional(21, [0, 0, 0, NaN], last, 0);
      else plain(21, [0, 0, 0, NaN, NaN, NaN, 0]);
      break;
    case 10:
      if (last) positional(17, [0, 0, 0, NaN], last, last.height);
      break;
    case 40:
      if (first) {
        positional(16, [0, 0, 0, NaN], first, first.height);
        positional(17, [0, 0, 0, NaN], first, first.height);
      }
      break;
  }

  const home = first ?? firstSurvey?.polygon[0] ?? doc.fences[0]?.boundary[0] ?? { lat: 0, lng: 0 };
  const speed = route?.settings?.auto_speed ?? firstSurvey?.params?.auto_speed ?? 5;
  const plan = {
    fileType: 'Plan',
    version: 1,
    groundStation: 'QGroundControl',
    geoFence: {
      version: 2,
      circles: [],
      polygons: doc.fences.map((fe) => ({ version: 1, inclusion: true, polygon: fe.boundary.map((q) => [q.lat, q.lng]) })),
    },
    mission: {
      version: 2,
      firmwareType: opts.firmwareType ?? 12,
      vehicleType: opts.vehicleType ?? 2,
      cruiseSpeed: 15,
      hoverSpeed: speed,
      globalPlanAltitudeMode: ht === 1 ? 2 : 1,
      plannedHomePosition: [home.lat, home.lng, 0],
      items,
    },
    rallyPoints: { version: 2, points: [] },
  };
  return { plan, warnings };
}
