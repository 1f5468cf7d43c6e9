import type { RawActions } from './build.js';
import { RouteBuilder, finishActionFrom, ringFrom } from './build.js';
import { closeRing } from './geometry.js';
import type { ReadContext } from './limits.js';
import { checkLatLng, cleanName, finiteOrUndefined } from './limits.js';
import type { HeightTypeValue, MissionTypeValue, PlanDocument, RouteSettings, SurveyParams } from './model.js';
import { SURVEY_NUMERIC_PARAMS, emptyDocument } from './model.js';
import { NO_FLY_KIND, isNoFlyKind, noFlyCircle, noFlyPolygon } from './nofly.js';
import { T, fail } from './texts.js';

/**
 * GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry; positions are [lng, lat, alt?].
 * - Polygon / MultiPolygon: fences, or survey areas when `properties.kind` is "survey" (else the
 *   import option `polygonAs`); holes ignored with a warning.
 * - LineString / MultiLineString / MultiPoint: one route each; height from the third value, else
 *   `properties.height`; per-vertex actions from `properties.waypoints` (our export).
 * - Point features: waypoints of one route in document order (grouped by `properties.route` if given);
 *   height from `properties.height`, else the third value.
 * - No-fly zones (nofly.ts): Polygons, or Points with `radius`, whose `kind` says no-fly or whose feature
 *   says DJI's `geofenceType` "nfz". A LineString of kind "corridor" is a strip scan (`width`, `params`).
 * - GeometryCollection is flattened; a `crs` other than WGS84 is refused.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const GEOJSON_TYPES = new Set([
  'FeatureCollection',
  'Feature',
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
  'GeometryCollection',
]);

export const isGeoJson = (v: unknown): boolean => isObj(v) && typeof v.type === 'string' && GEOJSON_TYPES.has(v.type);

function position(p: unknown, where: string): [number, number, number | undefined] {
  if (!Array.isArray(p) || p.length < 2) return fail(T.geoJsonInvalid(where, 'a position must be [longitude, latitude]'));
  const [lng, lat, alt] = p as unknown[];
  if (typeof lng !== 'number' || typeof lat !== 'number') return fail(T.badNumber(where, JSON.stringify(p).slice(0, 40)));
  checkLatLng(lat, lng, where);
  if (alt !== undefined && alt !== null && (typeof alt !== 'number' || !Number.isFinite(alt))) fail(T.altNotFinite(where));
  return [lng, lat, typeof alt === 'number' ? alt : undefined];
}

function positions(v: unknown, where: string, ctx: ReadContext): [number, number, number | undefined][] {
  if (!Array.isArray(v)) return fail(T.geoJsonInvalid(where, 'coordinates must be an array'));
  ctx.addCoordinates(v.length);
  return v.map((p) => position(p, where));
}

const numProp = (props: Obj, key: string): number | undefined => finiteOrUndefined(props[key]);

function actionsFrom(v: unknown): RawActions {
  if (!isObj(v)) return {};
  const g = isObj(v.gimbal_ctrl) ? v.gimbal_ctrl : {};
  return {
    uav_yaw: finiteOrUndefined(v.uav_yaw),
    hover: finiteOrUndefined(v.hover),
    takephoto: finiteOrUndefined(v.takephoto),
    gimbal_pitch: finiteOrUndefined(g.pitch ?? v.gimbal_pitch),
    gimbal_yaw: finiteOrUndefined(g.yaw ?? v.gimbal_yaw),
    speed: finiteOrUndefined(v.speed),
    cam_trig_dist: finiteOrUndefined(v.cam_trig_dist),
  };
}

function routeSettingsFrom(props: Obj): RouteSettings {
  const s = isObj(props.settings) ? { ...props, ...props.settings } : props;
  return {
    auto_speed: finiteOrUndefined(s.auto_speed),
    max_speed: finiteOrUndefined(s.max_speed),
    default_height: finiteOrUndefined(s.default_height),
    return_height: finiteOrUndefined(s.return_height),
    finish_action: finishActionFrom(s.finish_action),
    elevation: typeof s.elevation === 'boolean' ? s.elevation : undefined,
  };
}


function surveyParamsFrom(props: Obj): SurveyParams | undefined {
  const src = isObj(props.params) ? props.params : props;
  const p: SurveyParams = {};
  for (const k of SURVEY_NUMERIC_PARAMS) {
    const v = finiteOrUndefined(src[k]);
    if (v !== undefined) p[k] = v;
  }
  if (src.height_type === 0 || src.height_type === 1) p.height_type = src.height_type;
  const fa = finishActionFrom(src.finish_action);
  if (fa) p.finish_action = fa;
  if (src.camera_type === 'custom' || src.camera_type === '6k' || src.camera_type === 'dual_light') p.camera_type = src.camera_type;
  if (typeof src.camera_name === 'string') p.camera_name = src.camera_name;
  if (typeof src.elevation === 'boolean') p.elevation = src.elevation;
  if (src.photo_type === 1 || src.photo_type === 2 || src.photo_type === 3) p.photo_type = src.photo_type;
  return Object.keys(p).length ? p : undefined;
}

export function readGeoJson(input: unknown, ctx: ReadContext): PlanDocument {
  if (!isGeoJson(input)) return fail(T.notGeoJsonOrPlan());
  const root = input as Obj;
  const crs = isObj(root.crs) && isObj(root.crs.properties) ? root.crs.properties.name : undefined;
  if (typeof crs === 'string' && !/CRS84|4326|WGS\s*-?84/i.test(crs)) fail(T.geoJsonCrs(crs));
  const docName = cleanName(root.name, ctx.baseName);
  const doc = emptyDocument(docName);
  const pointRoutes = new Map<string, RouteBuilder>();
  const ignored = new Map<string, number>();
  let featureNo = 0;

  const heightTypeOf = (props: Obj): HeightTypeValue => (props.height_type === 1 || props.height_type === '1' ? 1 : 0);
  const missionTypeOf = (props: Obj): MissionTypeValue => {
    const v = Number(props.mission_type);
    return v === 2 || v === 3 ? v : 1;
  };

  const line = (coords: unknown, name: string, props: Obj): void => {
    const pts = positions(coords, name, ctx);
    const b = new RouteBuilder(ctx, name, missionTypeOf(props), heightTypeOf(props));
    b.settings(routeSettingsFrom(props));
    const acts = Array.isArray(props.waypoints) && props.waypoints.length === pts.length ? props.waypoints : [];
    const h = numProp(props, 'height');
    pts.forEach(([lng, lat, alt], i) => b.add(lat, lng, alt ?? h, actionsFrom(acts[i]), `${name} #${i + 1}`));
    doc.routes.push(b.done());
  };

  const polygon = (coords: unknown, name: string, props: Obj): void => {
    if (!Array.isArray(coords) || coords.length === 0) return fail(T.geoJsonInvalid(name, 'a polygon needs at least one ring'));
    if (coords.length > 1) ctx.warn(T.holesIgnored(name));
    for (const hole of coords.slice(1)) positions(hole, name, ctx);
    const ring = ringFrom(positions(coords[0], name, ctx).map(([lng, lat]) => ({ lat, lng })), name);
    if (ring.length < 3) return ctx.warn(T.tooFewVertices(name));
    const kind = String(props.kind ?? props.type ?? '').toLowerCase();
    if (isNoFlyKind(kind) || isNoFlyKind(props.geofenceType)) {
      (doc.noFlyZones ??= []).push(noFlyPolygon(name, ring, typeof props.reason === 'string' ? props.reason : undefined));
      return;
    }
    const asSurvey = ['survey', 'mapping', '测区'].includes(kind) || (!['fence', '围栏'].includes(kind) && ctx.polygonAs === 'survey');
    if (asSurvey) {
      const params = surveyParamsFrom(props);
      doc.surveys.push({ name, polygon: ring, ...(params ? { params } : {}) });
    } else {
      const max = numProp(props, 'max_height');
      doc.fences.push({ name, boundary: ring, ...(max !== undefined && max > 0 ? { max_height: max } : {}) });
    }
  };

  const geometry = (g: unknown, name: string, props: Obj, depth: number): void => {
    if (g === null) return;
    if (!isObj(g) || typeof g.type !== 'string') return fail(T.geoJsonInvalid(name, 'geometry has no type'));
    const c = g.coordinates;
    const parts = (list: unknown, fn: (x: unknown, n: string) => void): void => {
      if (!Array.isArray(list)) return fail(T.geoJsonInvalid(name, 'coordinates must be an array'));
      list.forEach((x, i) => fn(x, list.length > 1 ? cleanName(`${name} (${i + 1})`, name) : name));
    };
    switch (g.type) {
      case 'Point': {
        if (isNoFlyKind(props.kind) || isNoFlyKind(props.geofenceType)) {
          // A no-fly circle (ours, or DJI's custom flight area: subType Circle with radius).
          const [lng, lat] = position(c, name);
          ctx.addCoordinates(1);
          const radius = numProp(props, 'radius');
          const z = noFlyCircle(name, { lat, lng }, radius, typeof props.reason === 'string' ? props.reason : undefined);
          if (z) (doc.noFlyZones ??= []).push(z);
          else ctx.warn(T.noFlyRadius(name, radius));
          break;
        }
        const key = typeof props.route === 'string' ? props.route : '';
        let b = pointRoutes.get(key);
        if (!b) {
          b = new RouteBuilder(ctx, cleanName(key, docName), missionTypeOf(props), heightTypeOf(props));
          pointRoutes.set(key, b);
          doc.routes.push(b.route);
        }
        const [lng, lat, alt] = position(c, name);
        ctx.addCoordinates(1);
        b.add(lat, lng, numProp(props, 'height') ?? alt, actionsFrom(props), name);
        break;
      }
      case 'LineString':
        if (['corridor', 'strip'].includes(String(props.kind ?? '').toLowerCase())) {
          const pts = positions(c, name, ctx);
          const width = numProp(props, 'width');
          if (pts.length < 2 || width === undefined || width <= 0) return ctx.warn(T.tooFewVertices(name));
          const params = surveyParamsFrom(props);
          (doc.corridors ??= []).push({ name, line: pts.map(([lng, lat]) => ({ lat, lng })), width, ...(params ? { params } : {}) });
          break;
        }
        line(c, name, props);
        break;
      case 'MultiPoint':
        line(c, name, props);
        break;
      case 'MultiLineString':
        parts(c, (x, n) => line(x, n, props));
        break;
      case 'Polygon':
        polygon(c, name, props);
        break;
      case 'MultiPolygon':
        parts(c, (x, n) => polygon(x, n, props));
        break;
      case 'GeometryCollection':
        if (!Array.isArray(g.geometries) || depth > 4) return fail(T.geoJsonInvalid(name, 'bad GeometryCollection'));
        for (const sub of g.geometries) geometry(sub, name, props, depth + 1);
        break;
      default:
        ignored.set(g.type, (ignored.get(g.type) ?? 0) + 1);
    }
  };

  const feature = (f: unknown): void => {
    featureNo++;
    if (!isObj(f) || f.type !== 'Feature') return fail(T.geoJsonInvalid(`#${featureNo}`, 'not a Feature'));
    const own = isObj(f.properties) ? f.properties : {};
    // DJI's custom flight areas name the zone type on the feature itself.
    const props = typeof f.geofenceType === 'string' ? { ...own, geofenceType: f.geofenceType } : own;
    const name = cleanName(props.name ?? props.title ?? props.Name, `${docName} ${featureNo}`);
    geometry(f.geometry, name, props, 0);
  };

  if (root.type === 'FeatureCollection') {
    if (!Array.isArray(root.features)) return fail(T.geoJsonInvalid('FeatureCollection', 'features must be an array'));
    root.features.forEach(feature);
  } else if (root.type === 'Feature') feature(root);
  else geometry(root, docName, {}, 0);

  for (const b of pointRoutes.values()) b.done();
  for (const [type, n] of ignored) ctx.warn(T.geometryIgnored(type, n));
  return doc;
}

// ------------------------------------------------------------------------------------------------
// Writing

export interface GeoJsonFeature {
  type: 'Feature';
  /** DJI custom flight area: "nfz" on no-fly zones. */
  geofenceType?: 'nfz';
  properties: Record<string, unknown>;
  geometry:
    | { type: 'Polygon'; coordinates: number[][][] }
    | { type: 'LineString' | 'MultiPoint'; coordinates: number[][] }
    | { type: 'Point'; coordinates: number[] };
}
export interface GeoJsonFeatureCollection {
  type: 'FeatureCollection';
  name?: string;
  features: GeoJsonFeature[];
}

/**
 * Fences, survey areas and polygon no-fly zones as closed Polygons ([lng, lat]); no-fly circles as Points
 * with `radius` (both with DJI's custom-flight-area fields, nofly.ts); strip scans as LineStrings (kind
 * corridor, width, params); routes as LineStrings ([lng, lat, height])
 * with their settings and per-waypoint actions in properties, so a round trip loses nothing.
 */
export function toGeoJson(doc: PlanDocument): GeoJsonFeatureCollection {
  const features: GeoJsonFeature[] = [];
  for (const f of doc.fences) {
    features.push({
      type: 'Feature',
      properties: { kind: 'fence', name: f.name, ...(f.max_height !== undefined ? { max_height: f.max_height } : {}) },
      geometry: { type: 'Polygon', coordinates: [closeRing(f.boundary).map((p) => [p.lng, p.lat])] },
    });
  }
  for (const r of doc.routes) {
    features.push({
      type: 'Feature',
      properties: {
        kind: 'route',
        name: r.name,
        mission_type: r.mission_type,
        height_type: r.height_type,
        ...(r.settings ? { settings: r.settings } : {}),
        // The contracts' actions only: what only a .plan says (PlanWaypoint's extras) has no place here.
        waypoints: r.waypoints.map(({ uav_yaw, hover, takephoto, gimbal_ctrl, speed, cam_trig_dist }) =>
          Object.fromEntries(Object.entries({ uav_yaw, hover, takephoto, gimbal_ctrl, speed, cam_trig_dist }).filter(([, v]) => v !== undefined)),
        ),
      },
      // A LineString needs two positions; a one-waypoint route is a MultiPoint.
      geometry: { type: r.waypoints.length < 2 ? 'MultiPoint' : 'LineString', coordinates: r.waypoints.map((w) => [w.lng, w.lat, w.height]) },
    });
  }
  for (const s of doc.surveys) {
    features.push({
      type: 'Feature',
      properties: { kind: 'survey', name: s.name, ...(s.params ? { params: s.params } : {}) },
      geometry: { type: 'Polygon', coordinates: [closeRing(s.polygon).map((p) => [p.lng, p.lat])] },
    });
  }
  for (const z of doc.noFlyZones ?? []) {
    const properties = { kind: NO_FLY_KIND, name: z.name, ...(z.reason ? { reason: z.reason } : {}), enable: true };
    features.push(
      z.center
        ? { type: 'Feature', geofenceType: 'nfz', properties: { ...properties, subType: 'Circle', radius: z.radius }, geometry: { type: 'Point', coordinates: [z.center.lng, z.center.lat] } }
        : { type: 'Feature', geofenceType: 'nfz', properties, geometry: { type: 'Polygon', coordinates: [closeRing(z.boundary).map((p) => [p.lng, p.lat])] } },
    );
  }
  for (const c of doc.corridors ?? []) {
    features.push({
      type: 'Feature',
      properties: { kind: 'corridor', name: c.name, width: c.width, ...(c.params ? { params: c.params } : {}) },
      geometry: { type: 'LineString', coordinates: c.line.map((p) => [p.lng, p.lat]) },
    });
  }
  return { type: 'FeatureCollection', ...(doc.name ? { name: doc.name } : {}), features };
}
