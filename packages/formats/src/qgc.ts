import type { LatLng, Text } from '@nest/contracts';
import { NoFlyShape } from '@nest/contracts';
import type { RawActions } from './build.js';
import { RouteBuilder, ringFrom } from './build.js';
import { circleToPolygon, heading180, samePoint, yaw360 } from './geometry.js';
import type { ReadContext } from './limits.js';
import { checkLatLng, finiteOrUndefined } from './limits.js';
import type {
  AltitudeFrame,
  FinishActionValue,
  HeightTypeValue,
  PlanCorridor,
  PlanDocument,
  PlanNoFly,
  PlanRoute,
  PlanSurvey,
  PlanTakeoff,
  PlanVehicle,
  PlanWaypoint,
  SurveyParams,
} from './model.js';
import { emptyDocument } from './model.js';
import { T, fail, frames, itemDone, what } from './texts.js';

/**
 * QGroundControl `.plan` (REFERENCE section 1). Every coordinate is [lat, lon(, alt)]. Items are numbered
 * from 1 as QGC lists them; every item the console cannot hold as it is gets a note naming its number and
 * what was done (T.planItem), and the neutral model keeps what a .plan written back needs.
 *
 * Reading, item by item:
 * 1. NAV_WAYPOINT (16) is a waypoint: p1 hold seconds (hover; `hold` keeps a value hover cannot carry),
 *    p4 yaw. NAV_LOITER_TIME (19) is a waypoint that hovers p1 seconds, marked `loiter` with its radius
 *    (p3). LOITER_TURNS (18) and LOITER_TO_ALT (31) become plain waypoints (noted).
 * 2. Altitude: frame 3 relative, 0 above sea level, 10 above terrain; AltitudeMode is read too (the frame
 *    wins when they disagree), AltitudeMode 3 (calculated above terrain) takes `Altitude` and keeps p7 as
 *    `amsl`. The route's height type is its first waypoint's; a waypoint in another reference keeps it in
 *    `alt_mode`. A waypoint without altitude (or at or below the take-off point) gets the route's default
 *    height and keeps what the file said in `file_alt`.
 * 3. NAV_TAKEOFF (22, 84) keeps its own position and climb altitude (`route.takeoff`); it is no waypoint.
 * 4. DO_CHANGE_SPEED (178), DO_SET_CAM_TRIGG_DIST (206), IMAGE_START_CAPTURE (2000, single shot),
 *    DO_DIGICAM_CONTROL (203, shoot), DO_MOUNT_CONTROL (205), GIMBAL_MANAGER_PITCHYAW (1000),
 *    CONDITION_YAW (115, absolute) and the delays (93, 112, added to the hover) are actions of the waypoint
 *    before them ("from this waypoint on"), or of the first waypoint when none came yet.
 * 5. DO_SET_ROI_LOCATION (195), DO_SET_ROI (201, location mode) and DO_SET_ROI_NONE (197) are kept on the
 *    waypoint before them (`roi`); every later waypoint without a heading or gimbal of its own heads and
 *    points the gimbal at the region of interest (`aimed`), until it is cleared or replaced.
 * 6. The last of RTL (20), LAND (21) and LOITER_UNLIM (17) sets the finish action (17 at the first
 *    waypoint = return to the first waypoint, elsewhere = hover); a LAND elsewhere than the last waypoint
 *    keeps its place in `route.land_at`.
 * 7. Survey ComplexItems become survey areas, CorridorScans corridors (TransectStyle: TurnAroundDistance,
 *    CameraCalc, FollowTerrain, TerrainAdjustTolerance = the task's interval_height).
 * 8. geoFence polygons and circles with inclusion true are fences (circles as 36-point polygons); with
 *    inclusion false they are no-fly zones (a circle stays a circle). Rally points are left out (warned).
 * 9. The mission's firmware and vehicle types, speeds, planned home and altitude mode are kept in
 *    `doc.vehicle`. Mission version 1 items (`coordinate`, `param1..4`) are read as well; null params are NaN.
 *
 * Writing: see `toQgcPlan`.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const f = (v: unknown): number => (typeof v === 'number' ? v : NaN);
const fin = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);

export const isQgcPlan = (v: unknown): boolean => isObj(v) && v.fileType === 'Plan';

/** MAV_CMD names of the notes. */
const CMD_NAMES: Record<number, string> = {
  16: 'NAV_WAYPOINT', 17: 'NAV_LOITER_UNLIM', 18: 'NAV_LOITER_TURNS', 19: 'NAV_LOITER_TIME', 20: 'NAV_RETURN_TO_LAUNCH',
  21: 'NAV_LAND', 22: 'NAV_TAKEOFF', 31: 'NAV_LOITER_TO_ALT', 84: 'NAV_VTOL_TAKEOFF', 85: 'NAV_VTOL_LAND', 93: 'NAV_DELAY',
  112: 'CONDITION_DELAY', 115: 'CONDITION_YAW', 177: 'DO_JUMP', 178: 'DO_CHANGE_SPEED', 195: 'DO_SET_ROI_LOCATION',
  197: 'DO_SET_ROI_NONE', 201: 'DO_SET_ROI', 203: 'DO_DIGICAM_CONTROL', 205: 'DO_MOUNT_CONTROL', 206: 'DO_SET_CAM_TRIGG_DIST',
  1000: 'DO_GIMBAL_MANAGER_PITCHYAW', 2000: 'IMAGE_START_CAPTURE', 2001: 'IMAGE_STOP_CAPTURE', 2500: 'VIDEO_START_CAPTURE',
  2501: 'VIDEO_STOP_CAPTURE',
};
const cmdName = (cmd: number): string => (CMD_NAMES[cmd] ? `MAV_CMD ${cmd} ${CMD_NAMES[cmd]}` : `MAV_CMD ${cmd}`);

interface Alt {
  /** The altitude the waypoint flies at in `mode` (undefined: none given). */
  alt: number | undefined;
  mode: AltitudeFrame;
  amsl?: number;
}

interface RawPoint extends Alt {
  item: number;
  lat: number;
  lng: number;
  actions: RawActions;
  plain: boolean;
  loiter?: { radius: number };
  roi?: PlanWaypoint['roi'];
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

function altitudeOf(item: Obj, p: number[], ctx: ReadContext): Alt {
  const frame = f(item.frame);
  const frameMode: AltitudeFrame | undefined =
    frame === 3 || frame === 6 ? 'relative' : frame === 0 || frame === 5 ? 'amsl' : frame === 10 || frame === 11 ? 'terrain' : undefined;
  const am = f(item.AltitudeMode);
  const amMode: AltitudeFrame | undefined = am === 1 ? 'relative' : am === 2 ? 'amsl' : am === 3 ? 'terrain_calc' : am === 4 ? 'terrain' : undefined;
  if (am === 3) {
    // Calculated above terrain: `Altitude` is the height above the ground, p7 the sea-level altitude QGC computed.
    return { alt: finiteOrUndefined(item.Altitude) ?? undefined, mode: 'terrain_calc', ...(fin(p[6]) ? { amsl: p[6] } : {}) };
  }
  const mode: AltitudeFrame = frameMode ?? amMode ?? 'relative';
  if (amMode && frameMode && amMode !== frameMode) ctx.warn(T.altitudeModeDisagrees());
  return { alt: fin(p[6]) ? p[6] : finiteOrUndefined(item.Altitude), mode };
}

/** Survey settings of a TransectStyleComplexItem (camera, overlaps, height, turn-around, terrain). */
function transectParams(item: Obj): SurveyParams {
  const ts = isObj(item.TransectStyleComplexItem) ? item.TransectStyleComplexItem : {};
  const cc = isObj(ts.CameraCalc) ? ts.CameraCalc : {};
  const params: SurveyParams = {};
  const set = <K extends keyof SurveyParams>(k: K, v: SurveyParams[K] | undefined): void => {
    if (v !== undefined) params[k] = v;
  };
  set('turn_distance', finiteOrUndefined(ts.TurnAroundDistance));
  set('course_overlap', finiteOrUndefined(cc.FrontalOverlap));
  set('lateral_overlap', finiteOrUndefined(cc.SideOverlap));
  set('default_height', finiteOrUndefined(cc.DistanceToSurface));
  if (typeof cc.DistanceToSurfaceRelative === 'boolean') params.height_type = cc.DistanceToSurfaceRelative ? 0 : 1;
  if (ts.FollowTerrain === true) params.elevation = true;
  set('interval_height', finiteOrUndefined(ts.TerrainAdjustTolerance));
  if (typeof cc.CameraName === 'string' && cc.CameraName) params.camera_name = cc.CameraName;
  set('sensor_width', finiteOrUndefined(cc.SensorWidth));
  set('sensor_height', finiteOrUndefined(cc.SensorHeight));
  set('image_width', finiteOrUndefined(cc.ImageWidth));
  set('image_height', finiteOrUndefined(cc.ImageHeight));
  set('focal_length', finiteOrUndefined(cc.FocalLength));
  if (params.sensor_width !== undefined && params.focal_length !== undefined) params.camera_type = 'custom';
  return params;
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
  const params = transectParams(item);
  const angle = finiteOrUndefined(item.angle);
  if (angle !== undefined) params.angle = angle;
  return { name, polygon, ...(Object.keys(params).length ? { params } : {}) };
}

function corridorFrom(item: Obj, name: string, ctx: ReadContext): PlanCorridor | undefined {
  const raw = Array.isArray(item.polyline) ? item.polyline : [];
  ctx.addCoordinates(raw.length);
  const line = raw.map((p) => latLngPair(p, name));
  const width = finiteOrUndefined(item.CorridorWidth);
  if (line.length < 2 || width === undefined || width <= 0) {
    ctx.warn(T.tooFewVertices(name));
    return undefined;
  }
  const params = transectParams(item);
  return { name, line, width, ...(Object.keys(params).length ? { params } : {}) };
}

/** Initial great-circle bearing (0-360) and distance (m) from a to b. */
function aim(a: LatLng, b: LatLng): { bearing: number; distance: number } {
  const rad = Math.PI / 180;
  const dLng = (b.lng - a.lng) * rad;
  const y = Math.sin(dLng) * Math.cos(b.lat * rad);
  const x = Math.cos(a.lat * rad) * Math.sin(b.lat * rad) - Math.sin(a.lat * rad) * Math.cos(b.lat * rad) * Math.cos(dLng);
  const s = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return { bearing: yaw360((Math.atan2(y, x) / rad + 360) % 360), distance: 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(s))) };
}

/**
 * Heading and gimbal toward the region of interest in force at each waypoint, for waypoints that set
 * neither themselves. The gimbal yaw is the same bearing (the writers' gimbal yaw is against north); its
 * pitch looks down from the waypoint's height to the region's altitude.
 */
function aimAtRegions(route: PlanRoute): void {
  let roi: PlanWaypoint['roi'] = null;
  for (const w of route.waypoints) {
    if (roi && w.uav_yaw === undefined && !w.gimbal_ctrl) {
      const { bearing, distance } = aim(w, roi);
      const pitch = distance > 0 ? -(Math.atan2(w.height - roi.alt, distance) * 180) / Math.PI : -90;
      w.uav_yaw = bearing;
      w.gimbal_ctrl = { pitch: Math.max(-90, Math.min(90, pitch)), yaw: heading180(bearing) };
      w.aimed = true;
    }
    if (w.roi !== undefined) roi = w.roi;
  }
}

const ROUTE_MODE: Record<HeightTypeValue, AltitudeFrame> = { 0: 'relative', 1: 'amsl' };

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
  let landAt: LatLng | undefined;
  let takeoff: PlanTakeoff | undefined;
  let takeoffItem = 0;
  const notes: { item: number; cmd: number; done: Text }[] = [];
  const note = (item: number, cmd: number, done: Text): void => {
    notes.push({ item, cmd, done });
  };
  const target = (): RawActions => points[points.length - 1]?.actions ?? pending;
  const touch = (): void => {
    const last = points[points.length - 1];
    if (last) last.plain = false;
  };
  ctx.addCoordinates(items.length);

  items.forEach((raw, k) => {
    const item = k + 1;
    const where = `${name} item ${item}`;
    if (!isObj(raw)) return fail(T.planInvalid(where, 'not an object'));
    if (raw.type === 'ComplexItem') {
      const type = String(raw.complexItemType ?? '');
      if (type === 'survey') {
        const s = surveyFrom(raw, doc.surveys.length ? `${name} (${doc.surveys.length + 1})` : name, ctx);
        if (s) doc.surveys.push(s);
      } else if (type === 'CorridorScan') {
        const corridors = (doc.corridors ??= []);
        const c = corridorFrom(raw, corridors.length ? `${name} corridor (${corridors.length + 1})` : `${name} corridor`, ctx);
        if (c) corridors.push(c);
      } else ctx.warn(T.planItem(item, `ComplexItem ${type}`, itemDone.leftOut));
      return;
    }
    const cmd = f(raw.command);
    const p = itemParams(raw);
    const pos = (): { lat: number; lng: number } | undefined => {
      if (!fin(p[4]) || !fin(p[5]) || (p[4] === 0 && p[5] === 0)) return undefined;
      checkLatLng(p[4], p[5], where);
      return { lat: p[4], lng: p[5] };
    };
    const addPoint = (actions: RawActions, strict = false): RawPoint | undefined => {
      // A waypoint's 0,0 is a place; for LAND and LOITER it means "where the aircraft is".
      const at = strict ? (fin(p[4]) && fin(p[5]) ? (checkLatLng(p[4], p[5], where), { lat: p[4], lng: p[5] }) : undefined) : pos();
      if (!at) return undefined;
      const a: RawActions = { ...(points.length ? {} : pending), ...actions };
      const point: RawPoint = { item, ...at, ...altitudeOf(raw, p, ctx), actions: a, plain: !Object.values(actions).some((v) => v !== undefined) };
      points.push(point);
      finish = undefined;
      landAt = undefined;
      return point;
    };
    const action = (fn: (a: RawActions) => void): void => {
      fn(target());
      touch();
    };
    switch (cmd) {
      case 16: {
        // NAV_WAYPOINT
        addPoint({ hover: fin(p[0]) && p[0] > 0 ? p[0] : undefined, uav_yaw: fin(p[3]) ? p[3] : undefined }, true);
        break;
      }
      case 19: {
        // NAV_LOITER_TIME: hover p1 seconds within p3 metres.
        const point = addPoint({ hover: fin(p[0]) ? p[0] : undefined }, true);
        if (point) {
          point.loiter = { radius: fin(p[2]) ? p[2] : 0 };
          point.plain = false;
          note(item, cmd, itemDone.loiterKept(fin(p[0]) ? p[0] : 0));
        }
        break;
      }
      case 18: // NAV_LOITER_TURNS
      case 31: // NAV_LOITER_TO_ALT
        if (addPoint({}, true)) note(item, cmd, itemDone.asWaypoint);
        break;
      case 22: // NAV_TAKEOFF
      case 84: {
        if (takeoff) break;
        const { alt, mode, amsl } = altitudeOf(raw, p, ctx);
        // alt_mode is the item's reference; it is dropped below when it is the route's.
        takeoff = { at: pos() ?? null, alt: alt ?? null, alt_mode: mode, ...(amsl !== undefined ? { amsl } : {}) };
        takeoffItem = item;
        break;
      }
      case 20: // NAV_RETURN_TO_LAUNCH
        finish = 20;
        landAt = undefined;
        break;
      case 21: // NAV_LAND
      case 85: {
        const at = pos();
        const last = points[points.length - 1];
        if (at && !last) addPoint({});
        finish = 30;
        landAt = at && last && !samePoint(at, last) ? at : undefined;
        if (landAt) note(item, cmd, itemDone.landAt);
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
        landAt = undefined;
        break;
      }
      case 178: // DO_CHANGE_SPEED
        if (fin(p[1]) && p[1] > 0) action((a) => (a.speed = p[1]));
        break;
      case 206: // DO_SET_CAM_TRIGG_DIST
        if (fin(p[0]) && p[0] >= 0) action((a) => (a.cam_trig_dist = p[0]));
        break;
      case 2000: // IMAGE_START_CAPTURE: a single shot (interval capture is not a waypoint action)
        if (!fin(p[1]) || p[1] === 0) action((a) => (a.takephoto = 1));
        else note(item, cmd, itemDone.intervalCapture);
        break;
      case 203: // DO_DIGICAM_CONTROL: p5 shoot
        if (p[4] === 1) action((a) => (a.takephoto = 1));
        else note(item, cmd, itemDone.leftOut);
        break;
      case 2001: // IMAGE_STOP_CAPTURE: pairs with a capture
        break;
      case 205: // DO_MOUNT_CONTROL: p1 pitch, p3 yaw
        action((a) => {
          a.gimbal_pitch = fin(p[0]) ? p[0] : 0;
          a.gimbal_yaw = fin(p[2]) ? p[2] : 0;
        });
        break;
      case 1000: // DO_GIMBAL_MANAGER_PITCHYAW
        action((a) => {
          a.gimbal_pitch = fin(p[0]) ? p[0] : 0;
          a.gimbal_yaw = fin(p[1]) ? p[1] : 0;
        });
        break;
      case 115: // CONDITION_YAW, absolute only
        if (fin(p[0]) && (!fin(p[3]) || p[3] === 0)) action((a) => (a.uav_yaw = p[0]));
        else note(item, cmd, itemDone.relativeYaw);
        break;
      case 93: // NAV_DELAY
      case 112: // CONDITION_DELAY
        if (fin(p[0]) && p[0] > 0) {
          action((a) => (a.hover = (a.hover ?? 0) + p[0]!));
          note(item, cmd, itemDone.delayAsHover(p[0], Math.max(1, points.length)));
        }
        break;
      case 195: // DO_SET_ROI_LOCATION
      case 201: // DO_SET_ROI (mode 3: a location)
      case 197: {
        // DO_SET_ROI_NONE
        const at = cmd === 197 || (cmd === 201 && p[0] !== 3) ? undefined : pos();
        const last = points[points.length - 1];
        if (cmd === 201 && !at) {
          note(item, cmd, itemDone.leftOut);
          break;
        }
        if (!last) {
          note(item, cmd, itemDone.leftOut);
          break;
        }
        last.roi = at ? { ...at, alt: fin(p[6]) ? p[6] : 0 } : null;
        last.plain = false;
        note(item, cmd, at ? itemDone.roi : itemDone.roiNone);
        break;
      }
      default:
        note(item, cmd, itemDone.leftOut);
    }
  });

  const vehicle = f(mission.vehicleType);
  const speed = finiteOrUndefined(vehicle === 1 ? mission.cruiseSpeed : mission.hoverSpeed);
  if (points.length) {
    const modes = new Set(points.map((q) => q.mode));
    const ht: HeightTypeValue = points[0]!.mode === 'amsl' ? 1 : 0;
    const b = new RouteBuilder(ctx, name, 1, ht);
    b.settings({ auto_speed: speed, finish_action: finish, ...(modes.has('terrain') || modes.has('terrain_calc') ? { elevation: true } : {}) });
    if (modes.has('terrain') || modes.has('terrain_calc')) ctx.warn(T.terrainHeights(name));
    if (modes.has('amsl') && modes.size > 1) ctx.warn(T.mixedAltitudeModes(name));
    for (const q of points) {
      const w: PlanWaypoint = b.add(q.lat, q.lng, q.alt, q.actions, name);
      if (q.mode !== ROUTE_MODE[ht]) {
        w.alt_mode = q.mode;
        if (q.amsl !== undefined) w.amsl = q.amsl;
        if (q.mode === 'terrain_calc' && q.alt !== undefined) note(q.item, 16, itemDone.terrainCalc(q.alt));
        else if (q.alt !== undefined) note(q.item, 16, itemDone.otherFrame(frames[q.mode]));
      }
      if (!fin(q.alt) || q.alt <= 0) {
        w.file_alt = fin(q.alt) ? q.alt : null;
        note(q.item, 16, fin(q.alt) ? itemDone.notAboveTakeoff(q.alt, w.height) : itemDone.noAltitude(w.height));
      }
      // Hold seconds (with any delays added) that the console's whole seconds 0-255 cannot carry.
      const hold = q.actions.hover;
      if (fin(hold) && hold > 0 && hold !== (w.hover ?? 0)) {
        w.hold = hold;
        if (!q.loiter) note(q.item, 16, itemDone.holdKept(hold, w.hover ?? 0));
      }
      if (q.loiter) w.loiter = q.loiter;
      if (q.roi !== undefined) w.roi = q.roi;
    }
    const route = b.done();
    if (takeoff) {
      const { alt_mode: mode, ...rest } = takeoff;
      route.takeoff = mode === ROUTE_MODE[ht] ? rest : takeoff;
    }
    if (landAt) route.land_at = landAt;
    aimAtRegions(route);
    doc.routes.push(route);
  } else {
    for (const s of doc.surveys) {
      const params: SurveyParams = { ...s.params };
      if (finish && params.finish_action === undefined) params.finish_action = finish;
      if (speed !== undefined && params.auto_speed === undefined) params.auto_speed = speed;
      if (Object.keys(params).length) s.params = params;
    }
  }
  const routeTakeoff = doc.routes[0]?.takeoff;
  if (routeTakeoff?.at && !sameAsWritten(doc)) note(takeoffItem, 22, itemDone.takeoffAt);
  // Notes in item order, each naming the item's command.
  notes.sort((a, b) => a.item - b.item);
  const commandOf = (n: number, fallback: number): number => {
    const raw = items[n - 1];
    return isObj(raw) && typeof raw.command === 'number' ? raw.command : fallback;
  };
  for (const n of notes) ctx.warn(T.planItem(n.item, cmdName(commandOf(n.item, n.cmd)), n.done));

  const v: PlanVehicle = {};
  const setV = <K extends keyof PlanVehicle>(k: K, value: PlanVehicle[K] | undefined): void => {
    if (value !== undefined) v[k] = value;
  };
  setV('firmwareType', finiteOrUndefined(mission.firmwareType));
  setV('vehicleType', finiteOrUndefined(mission.vehicleType));
  setV('cruiseSpeed', finiteOrUndefined(mission.cruiseSpeed));
  setV('hoverSpeed', finiteOrUndefined(mission.hoverSpeed));
  setV('globalPlanAltitudeMode', finiteOrUndefined(mission.globalPlanAltitudeMode));
  const home = mission.plannedHomePosition;
  if (Array.isArray(home) && fin(f(home[0])) && fin(f(home[1]))) {
    const at = latLngPair(home, 'plannedHomePosition');
    v.home = { ...at, alt: fin(f(home[2])) ? f(home[2]) : 0 };
  }
  if (Object.keys(v).length) doc.vehicle = v;
  keepOnlyWhatTheWriterLoses(doc);

  const fence = isObj(plan.geoFence) ? plan.geoFence : {};
  const fences: { ring: { lat: number; lng: number }[] }[] = [];
  const zones: PlanNoFly[] = [];
  const zoneName = (): string => `${name} NFZ ${zones.length + 1}`;
  for (const [i, pg] of (Array.isArray(fence.polygons) ? fence.polygons : []).entries()) {
    if (!isObj(pg)) continue;
    const poly = Array.isArray(pg.polygon) ? pg.polygon : [];
    ctx.addCoordinates(poly.length);
    const ring = poly.map((q) => latLngPair(q, `geoFence polygon ${i + 1}`));
    if (pg.inclusion === false) {
      const zname = zoneName();
      const boundary = ringFrom(ring, zname);
      if (boundary.length < 3) ctx.warn(T.tooFewVertices(zname));
      else zones.push({ name: zname, shape: NoFlyShape.POLYGON, boundary, center: null, radius: null });
    } else fences.push({ ring });
  }
  for (const [i, c] of (Array.isArray(fence.circles) ? fence.circles : []).entries()) {
    if (!isObj(c)) continue;
    const circle = isObj(c.circle) ? c.circle : {};
    const center = latLngPair(circle.center, `geoFence circle ${i + 1}`);
    const radius = f(circle.radius);
    if (!Number.isFinite(radius) || radius <= 0) fail(T.planInvalid(`geoFence circle ${i + 1}`, 'radius must be above 0'));
    if (c.inclusion === false) {
      zones.push({ name: zoneName(), shape: NoFlyShape.CIRCLE, boundary: [], center, radius });
      continue;
    }
    ctx.addCoordinates(36);
    fences.push({ ring: circleToPolygon(center, radius, 36) });
  }
  fences.forEach(({ ring }, i) => {
    const fname = fences.length > 1 ? `${name} (${i + 1})` : name;
    const boundary = ringFrom(ring, fname);
    if (boundary.length < 3) return ctx.warn(T.tooFewVertices(fname));
    doc.fences.push({ name: fname, boundary });
  });
  doc.noFlyZones = zones;
  const rally = isObj(plan.rallyPoints) && Array.isArray(plan.rallyPoints.points) ? plan.rallyPoints.points.length : 0;
  if (rally) ctx.warn(T.rallyIgnored(rally));
  return doc;
}

/** True when the plan writer, given no take-off item, writes this one anyway (at the first waypoint). */
function sameAsWritten(doc: PlanDocument): boolean {
  const route = doc.routes[0];
  if (!route?.takeoff) return true;
  const { takeoff: _t, ...rest } = route;
  const withIt = toQgcPlan({ ...doc, routes: [route] }).plan.mission as { items: Item[] };
  const without = toQgcPlan({ ...doc, routes: [rest] }).plan.mission as { items: Item[] };
  return JSON.stringify(withIt.items[0]) === JSON.stringify(without.items[0]);
}

/**
 * Drops what a plan written back would say anyway: a take-off item at the first waypoint and its height,
 * and mission values equal to the writer's own (QGC's defaults, the route's speed, the first position as
 * home). What is left is what the file says beyond the console's model, so every writer of a document
 * read from a .plan and a document built anew write the same.
 */
function keepOnlyWhatTheWriterLoses(doc: PlanDocument): void {
  const route = doc.routes[0];
  if (route?.takeoff && sameAsWritten(doc)) delete route.takeoff;
  const v = doc.vehicle;
  if (!v) return;
  const plain = toQgcPlan({ ...doc, vehicle: {} }).plan.mission as Record<string, unknown>;
  for (const k of Object.keys(v) as (keyof PlanVehicle)[]) {
    const [key, mine] = k === 'home' ? ['plannedHomePosition', [v.home!.lat, v.home!.lng, v.home!.alt]] : [k, v[k]];
    if (JSON.stringify(plain[key]) === JSON.stringify(mine)) delete v[k];
  }
  if (!Object.keys(v).length) delete doc.vehicle;
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

/** TransectStyleComplexItem of a survey or corridor: turn-around, terrain following and CameraCalc. */
function transectStyle(p: SurveyParams): Item {
  const fp = footprint(p);
  const custom = p.sensor_width !== undefined && p.focal_length !== undefined;
  return {
    version: 2,
    TurnAroundDistance: p.turn_distance ?? 10,
    CameraTriggerInTurnAround: true,
    HoverAndCapture: false,
    Refly90Degrees: false,
    CameraShots: 0,
    VisualTransectPoints: [],
    Items: [],
    FollowTerrain: p.elevation === true,
    // The task's interval_height is QGC's terrain-adjust tolerance (contracts missionSettingsSchema).
    ...(p.interval_height !== undefined || p.elevation ? { TerrainAdjustTolerance: p.interval_height ?? 10, TerrainAdjustMaxClimbRate: 0, TerrainAdjustMaxDescentRate: 0 } : {}),
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
  };
}

function surveyItem(s: PlanSurvey, jumpId: number): Item {
  const p = s.params ?? {};
  return {
    type: 'ComplexItem',
    complexItemType: 'survey',
    version: 5,
    angle: p.angle ?? 0,
    entryLocation: 0,
    flyAlternateTransects: false,
    splitConcavePolygons: false,
    polygon: s.polygon.map((q) => [q.lat, q.lng]),
    TransectStyleComplexItem: transectStyle(p),
    doJumpId: jumpId,
  };
}

function corridorItem(c: PlanCorridor, jumpId: number): Item {
  return {
    type: 'ComplexItem',
    complexItemType: 'CorridorScan',
    version: 2,
    CorridorWidth: c.width,
    EntryPoint: 0,
    polyline: c.line.map((q) => [q.lat, q.lng]),
    TransectStyleComplexItem: transectStyle(c.params ?? {}),
    doJumpId: jumpId,
  };
}

/** QGC frame and AltitudeMode of an altitude reference. */
const FRAME_OF: Record<AltitudeFrame, { frame: number; mode: number }> = {
  relative: { frame: 3, mode: 1 },
  amsl: { frame: 0, mode: 2 },
  terrain_calc: { frame: 0, mode: 3 },
  terrain: { frame: 10, mode: 4 },
};

/**
 * A QGC plan: fileType Plan, version 1, mission version 2, written so that reading it back gives the same
 * document (see the reader's steps):
 * 1. NAV_TAKEOFF (22) at the route's own take-off item when it has one, else at the first waypoint.
 * 2. Per waypoint NAV_WAYPOINT (16: hold = `hold` or hover, yaw = uav_yaw) or NAV_LOITER_TIME (19) for a
 *    `loiter` waypoint, in its own altitude reference (`alt_mode`, `amsl`, `file_alt`); then its actions
 *    (178 speed, 205 gimbal, 2000 photo, 206 photo distance) and its region of interest (195, or 197 when
 *    cleared). Heading and gimbal computed from a region of interest (`aimed`) are not written: the 195 item
 *    says it.
 * 3. Survey and corridor ComplexItems.
 * 4. The finish action: 20 RTL, 30 LAND at `land_at` or the last waypoint, 10 LOITER_UNLIM at the last
 *    waypoint, 40 back to the first waypoint and LOITER_UNLIM there.
 * 5. geoFence: fences as inclusion polygons, no-fly zones as exclusion polygons and circles.
 * params are [p1, p2, p3, p4, lat, lon, alt] with NaN as null; mission values from `doc.vehicle` unless the
 * options say otherwise.
 */
export function toQgcPlan(doc: PlanDocument, opts: QgcOptions = {}): { plan: Record<string, unknown>; warnings: Text[] } {
  const warnings: Text[] = [];
  const route = doc.routes[opts.routeIndex ?? 0];
  if (doc.routes.length > 1) warnings.push(T.exportDropped(what.extraRoutes(doc.routes.length - 1), 'QGC .plan'));
  const items: Item[] = [];
  let seq = 1;
  const nums = (ps: number[]): (number | null)[] => ps.map((v) => (Number.isFinite(v) ? v : null));
  const ht: HeightTypeValue = route?.height_type ?? doc.surveys[0]?.params?.height_type ?? 0;
  const routeMode: AltitudeFrame = ht === 1 ? 'amsl' : 'relative';
  const positional = (
    command: number,
    p: number[],
    at: { lat: number; lng: number } | null,
    alt: number | null,
    mode: AltitudeFrame = routeMode,
    amsl?: number,
  ): void => {
    const { frame, mode: am } = FRAME_OF[mode];
    // AltitudeMode 3: param 7 is the sea-level altitude QGC computed (null until it has terrain).
    const p7 = mode === 'terrain_calc' ? (amsl ?? NaN) : (alt ?? NaN);
    items.push({
      AMSLAltAboveTerrain: null,
      Altitude: alt,
      AltitudeMode: am,
      autoContinue: true,
      command,
      doJumpId: seq++,
      frame,
      params: nums([...p, at ? at.lat : 0, at ? at.lng : 0, p7]),
      type: 'SimpleItem',
    });
  };
  const plain = (command: number, p: number[]): void => {
    items.push({ autoContinue: true, command, doJumpId: seq++, frame: 2, params: nums(p), type: 'SimpleItem' });
  };

  const wps = route?.waypoints ?? [];
  const first = wps[0];
  const firstSurvey = doc.surveys[0];
  const firstCorridor = doc.corridors?.[0];
  const takeoffAt = first ?? firstSurvey?.polygon[0] ?? firstCorridor?.line[0];
  const takeoffAlt = first?.height ?? firstSurvey?.params?.default_height ?? firstCorridor?.params?.default_height ?? 50;
  if (route?.takeoff) positional(22, [0, 0, 0, NaN], route.takeoff.at, route.takeoff.alt, route.takeoff.alt_mode, route.takeoff.amsl);
  else if (takeoffAt && (wps.length || doc.surveys.length || doc.corridors?.length)) positional(22, [0, 0, 0, NaN], takeoffAt, takeoffAlt);
  let pano = false;
  for (const w of wps) {
    const alt = w.file_alt !== undefined ? w.file_alt : w.height;
    const hold = w.hold ?? w.hover ?? 0;
    const yaw = w.aimed ? NaN : (w.uav_yaw ?? NaN);
    if (w.loiter) positional(19, [hold, 0, w.loiter.radius, 0], w, alt, w.alt_mode, w.amsl);
    else positional(16, [hold, 0, 0, yaw], w, alt, w.alt_mode, w.amsl);
    if (w.loiter && w.uav_yaw !== undefined && !w.aimed) plain(115, [w.uav_yaw, 0, 0, 0, 0, 0, 0]);
    if (w.speed !== undefined) plain(178, [1, w.speed, -1, 0, 0, 0, 0]);
    if (w.gimbal_ctrl && !w.aimed) plain(205, [w.gimbal_ctrl.pitch, 0, w.gimbal_ctrl.yaw, 0, 0, 0, 2]);
    if (w.takephoto === 1 || w.takephoto === 2) plain(2000, [0, 0, 1, 0, NaN, NaN, NaN]);
    if (w.takephoto === 2) pano = true;
    if (w.cam_trig_dist !== undefined) plain(206, [w.cam_trig_dist, 0, 1, 0, 0, 0, 0]);
    if (w.roi) positional(195, [0, 0, 0, 0], w.roi, w.roi.alt);
    else if (w.roi === null) plain(197, [0, 0, 0, 0, 0, 0, 0]);
  }
  if (pano) warnings.push(T.exportPanoAsPhoto());
  for (const s of doc.surveys) items.push(surveyItem(s, seq++));
  for (const c of doc.corridors ?? []) items.push(corridorItem(c, seq++));
  const finishAction = route?.settings?.finish_action ?? (wps.length ? undefined : firstSurvey?.params?.finish_action);
  const last = wps[wps.length - 1];
  switch (finishAction) {
    case 20:
      plain(20, [0, 0, 0, 0, 0, 0, 0]);
      break;
    case 30: {
      const at = route?.land_at ?? last;
      if (at) positional(21, [0, 0, 0, NaN], at, 0, 'relative');
      else plain(21, [0, 0, 0, NaN, NaN, NaN, 0]);
      break;
    }
    case 10:
      if (last) positional(17, [0, 0, 0, NaN], last, last.height, last.alt_mode, last.amsl);
      break;
    case 40:
      if (first) {
        positional(16, [0, 0, 0, NaN], first, first.height, first.alt_mode, first.amsl);
        positional(17, [0, 0, 0, NaN], first, first.height, first.alt_mode, first.amsl);
      }
      break;
  }

  const v = doc.vehicle ?? {};
  const home = v.home ?? { ...(first ?? firstSurvey?.polygon[0] ?? firstCorridor?.line[0] ?? doc.fences[0]?.boundary[0] ?? { lat: 0, lng: 0 }), alt: 0 };
  const vehicleType = opts.vehicleType ?? v.vehicleType ?? 2;
  const speed = route?.settings?.auto_speed ?? firstSurvey?.params?.auto_speed;
  const zones = doc.noFlyZones ?? [];
  const plan = {
    fileType: 'Plan',
    version: 1,
    groundStation: 'QGroundControl',
    geoFence: {
      version: 2,
      circles: zones
        .filter((z) => z.center && z.radius)
        .map((z) => ({ version: 1, inclusion: false, circle: { center: [z.center!.lat, z.center!.lng], radius: z.radius } })),
      polygons: [
        ...doc.fences.map((fe) => ({ version: 1, inclusion: true, polygon: fe.boundary.map((q) => [q.lat, q.lng]) })),
        ...zones.filter((z) => !z.center).map((z) => ({ version: 1, inclusion: false, polygon: z.boundary.map((q) => [q.lat, q.lng]) })),
      ],
    },
    mission: {
      version: 2,
      firmwareType: opts.firmwareType ?? v.firmwareType ?? 12,
      vehicleType,
      // The route's speed is the vehicle's own: cruise for a fixed wing (MAV_TYPE 1), hover otherwise.
      cruiseSpeed: (vehicleType === 1 ? speed : undefined) ?? v.cruiseSpeed ?? 15,
      hoverSpeed: (vehicleType === 1 ? undefined : speed) ?? v.hoverSpeed ?? 5,
      globalPlanAltitudeMode: v.globalPlanAltitudeMode ?? (ht === 1 ? 2 : 1),
      plannedHomePosition: [home.lat, home.lng, home.alt],
      items,
    },
    rallyPoints: { version: 2, points: [] },
  };
  return { plan, warnings };
}
