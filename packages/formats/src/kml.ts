import type { RawActions } from './build.js';
import { RouteBuilder, finishActionFrom, ringFrom } from './build.js';
import type { Coords } from './coords.js';
import { altAt, latLngsOf, parseCoordinates } from './coords.js';
import { samePoint } from './geometry.js';
import type { ReadContext } from './limits.js';
import { checkLatLng, cleanName, finiteOrUndefined } from './limits.js';
import type { HeightTypeValue, MissionTypeValue, PlanDocument, PlanRoute, RouteSettings } from './model.js';
import { emptyDocument } from './model.js';
import { surveyParamsOf } from './params.js';
import { T, fail } from './texts.js';
import type { Document, Element } from './xml.js';
import { child, childText, children, ownText, parseXml, path } from './xml.js';
import { isWpmlDocument, readWpml } from './wpml.js';
import { isNoFlyKind, isNoFlyName, noFlyCircle, noFlyPolygon } from './nofly.js';

/**
 * Plain KML (OGC 2.2) as Google Earth, DJI Pilot / GS Pro, AMap and LocaSpace write it:
 * - Documents and Folders nest; names fall back to the enclosing container's name.
 * - Point placemarks are waypoints: all points of one container form one route, in document order.
 * - A LineString (or gx:Track) is a route of its own, unless its vertices are exactly those of a point
 *   route (DJI's "Wayline" beside its "Waypoints" folder, or our own export): then it only lends its
 *   settings to that route.
 * - A Polygon (or a bare LinearRing) is a fence, or a survey area when its ExtendedData says
 *   kind=survey (else the import option `polygonAs` decides). Inner rings are ignored with a warning.
 * - No-fly zones (nofly.ts): a Polygon, or a Point with ExtendedData `radius` (a circle), whose
 *   ExtendedData says kind=nofly, or whose placemark or folder name says no-fly (禁飞, NFZ, exclusion).
 * - A LineString with ExtendedData kind=corridor is a strip scan (`width`, survey settings).
 * - MultiGeometry is flattened. Altitude is the third coordinate; altitudeMode absolute means heights
 *   above sea level (HeightType 1), anything else relative (0). Missing or non-positive altitude gets
 *   the default height with a warning.
 * - ExtendedData: `Data`/`SimpleData` pairs (our export's keys) and DJI GS Pro's `mis:` elements.
 * - Coordinates tolerate any whitespace between tuples and around commas; every value must be a finite
 *   number in range or the file is refused with the placemark's name.
 */

const NO_ACTIONS: RawActions = Object.freeze({});

type Ext = Map<string, string> & { actions?: { func: string; param?: string }[] };

interface Geom {
  type: 'Point' | 'Line' | 'Polygon';
  coords: Coords;
  altitudeMode: string | undefined;
  holes: number;
}

function trackCoordinates(el: Element, where: string, ctx: ReadContext): Coords {
  const coords = children(el, 'coord');
  ctx.addCoordinates(coords.length);
  const out: Coords = { lng: [], lat: [], alt: [] };
  for (const c of coords) {
    const parts = ownText(c).trim().split(/\s+/).map(Number);
    const [lng, lat, alt] = parts;
    if (parts.length < 2 || !Number.isFinite(lng) || !Number.isFinite(lat)) fail(T.badNumber(where, ownText(c).trim()));
    checkLatLng(lat!, lng!, where);
    out.lng.push(lng!);
    out.lat.push(lat!);
    out.alt.push(alt !== undefined && Number.isFinite(alt) ? alt : NaN);
  }
  return out;
}

const firstOf = (c: Coords): Coords => ({ lng: c.lng.slice(0, 1), lat: c.lat.slice(0, 1), alt: c.alt.slice(0, 1) });

function geometries(pm: Element, where: string, ctx: ReadContext): Geom[] {
  const out: Geom[] = [];
  const stack: Element[] = [pm];
  while (stack.length) {
    const el = stack.shift()!;
    for (const g of children(el)) {
      const altitudeMode = childText(g, 'altitudeMode');
      const coords = (): Coords => parseCoordinates(childText(g, 'coordinates') ?? '', where, ctx);
      switch (g.localName) {
        case 'MultiGeometry':
        case 'MultiTrack':
          stack.push(g);
          break;
        case 'Point':
          out.push({ type: 'Point', coords: firstOf(coords()), altitudeMode, holes: 0 });
          break;
        case 'LineString':
          out.push({ type: 'Line', coords: coords(), altitudeMode, holes: 0 });
          break;
        case 'Track':
          out.push({ type: 'Line', coords: trackCoordinates(g, where, ctx), altitudeMode, holes: 0 });
          break;
        case 'LinearRing':
          out.push({ type: 'Polygon', coords: coords(), altitudeMode, holes: 0 });
          break;
        case 'Polygon': {
          const ring = path(g, 'outerBoundaryIs', 'LinearRing');
          const text = ring ? (childText(ring, 'coordinates') ?? '') : '';
          out.push({
            type: 'Polygon',
            coords: parseCoordinates(text, where, ctx),
            altitudeMode,
            holes: children(g, 'innerBoundaryIs').length,
          });
          break;
        }
      }
    }
  }
  return out.filter((g) => g.coords.lat.length > 0);
}

function extendedData(pm: Element): Ext {
  const ext: Ext = new Map();
  const ed = child(pm, 'ExtendedData');
  if (!ed) return ext;
  for (const c of children(ed)) {
    if (c.localName === 'Data') {
      const name = c.getAttribute('name');
      if (name) ext.set(name, (childText(c, 'value') ?? ownText(c)).trim());
    } else if (c.localName === 'SchemaData') {
      for (const sd of children(c, 'SimpleData')) {
        const name = sd.getAttribute('name');
        if (name) ext.set(name, ownText(sd).trim());
      }
    } else if (c.localName === 'actions') {
      (ext.actions ??= []).push({ func: ownText(c).trim(), param: c.getAttribute('param') ?? undefined });
    } else if (c.localName) {
      ext.set(c.localName, ownText(c).trim());
    }
  }
  return ext;
}

const numOf = (ext: Ext, key: string): number | undefined => finiteOrUndefined(ext.get(key));
const isFalse = (v: string | undefined): boolean => v === 'false' || v === '0';

/** Waypoint actions from our keys, and DJI GS Pro's `mis:` fields and actions. */
function actionsOf(ext: Ext, ctx: ReadContext): RawActions {
  const a: RawActions = {
    uav_yaw: numOf(ext, 'uav_yaw'),
    hover: numOf(ext, 'hover'),
    takephoto: numOf(ext, 'takephoto'),
    gimbal_pitch: numOf(ext, 'gimbal_pitch'),
    gimbal_yaw: numOf(ext, 'gimbal_yaw'),
    speed: ext.has('useWaylineSpeed') && !isFalse(ext.get('useWaylineSpeed')) ? undefined : numOf(ext, 'speed'),
    cam_trig_dist: numOf(ext, 'cam_trig_dist'),
  };
  if (isFalse(ext.get('useWaylineHeadingMode')) && a.uav_yaw === undefined) a.uav_yaw = numOf(ext, 'heading');
  const pitch = numOf(ext, 'gimbalPitch');
  if (a.gimbal_pitch === undefined && pitch) a.gimbal_pitch = pitch;
  const ignored = new Map<string, number>();
  for (const act of ext.actions ?? []) {
    const p = finiteOrUndefined(act.param);
    switch (act.func) {
      case 'Hovering':
        a.hover = (a.hover ?? 0) + (p ?? 0) / 1000;
        break;
      case 'ShootPhoto':
        a.takephoto = 1;
        break;
      case 'RotateAircraft':
        a.uav_yaw = p;
        break;
      case 'GimbalPitch':
        a.gimbal_pitch = p;
        break;
      default:
        ignored.set(act.func, (ignored.get(act.func) ?? 0) + 1);
    }
  }
  for (const [func, n] of ignored) ctx.warn(T.wpmlActionIgnored(func, n));
  return a;
}

const heightTypeOf = (altitudeMode: string | undefined, ext: Ext): HeightTypeValue | undefined => {
  const declared = ext.get('height_type');
  if (declared === '0' || declared === '1') return Number(declared) as HeightTypeValue;
  if (altitudeMode === undefined) return undefined;
  return altitudeMode === 'absolute' ? 1 : 0;
};

const missionTypeOf = (ext: Ext): MissionTypeValue => {
  const v = Number(ext.get('mission_type'));
  return v === 2 || v === 3 ? v : 1;
};


function polygonKind(ext: Ext, ctx: ReadContext, names: string[]): 'fence' | 'survey' | 'nofly' {
  const k = (ext.get('kind') ?? ext.get('type') ?? '').toLowerCase();
  if (isNoFlyKind(k)) return 'nofly';
  if (['fence', '围栏', 'geofence'].includes(k)) return 'fence';
  if (['survey', 'mapping', 'mapping2d', '测区', 'area'].includes(k)) return 'survey';
  if (!k && names.some(isNoFlyName)) return 'nofly';
  return ctx.polygonAs;
}

/** Placemark kinds of lines: a strip scan says kind=corridor (our export). */
const isCorridor = (ext: Ext): boolean => ['corridor', 'strip', '带状'].includes((ext.get('kind') ?? '').toLowerCase());

function routeSettingsOf(ext: Ext): RouteSettings {
  return {
    auto_speed: numOf(ext, 'auto_speed') ?? numOf(ext, 'autoFlightSpeed'),
    max_speed: numOf(ext, 'max_speed'),
    default_height: numOf(ext, 'default_height') ?? numOf(ext, 'altitude'),
    return_height: numOf(ext, 'return_height'),
    finish_action: finishActionFrom(ext.get('finish_action') ?? ext.get('actionOnFinish')),
    elevation: ext.has('elevation') ? ext.get('elevation') === 'true' || ext.get('elevation') === '1' : undefined,
  };
}

interface WalkState {
  doc: PlanDocument;
  /** Routes made of Point placemarks, and whether their points declared an altitude mode. */
  pointRoutes: Map<PlanRoute, boolean>;
  /** Routes made of LineStrings: whether they declared a height type, a mission type. */
  lineRoutes: Map<PlanRoute, { mode: boolean; missionType: boolean }>;
}

function walk(el: Element | Document, fallbackName: string, ctx: ReadContext, st: WalkState): void {
  const name = cleanName(childText(el, 'name'), fallbackName);
  // A container's own ExtendedData describes the route its Point placemarks form (our export).
  const cext = 'localName' in el && el.nodeType === 1 ? extendedData(el as Element) : (new Map() as Ext);
  let points: RouteBuilder | undefined;
  let unnamed = 0;
  for (const c of children(el)) {
    if (c.localName === 'Document' || c.localName === 'Folder') {
      walk(c, name, ctx, st);
      continue;
    }
    if (c.localName !== 'Placemark') continue;
    const pmName = cleanName(childText(c, 'name'), `${name} ${++unnamed}`);
    const ext = extendedData(c);
    const geoms = geometries(c, pmName, ctx);
    const shapes = geoms.filter((g) => g.type !== 'Point').length;
    let shapeNo = 0;
    for (const g of geoms) {
      const gName = g.type !== 'Point' && shapes > 1 ? cleanName(`${pmName} (${++shapeNo})`, pmName) : pmName;
      const zoneKind = polygonKind(ext, ctx, [pmName, name]);
      if (g.type === 'Point' && zoneKind === 'nofly' && (ext.has('radius') || isNoFlyKind(ext.get('kind') ?? ext.get('type')))) {
        // A no-fly circle: its centre and radius.
        const radius = numOf(ext, 'radius');
        const z = noFlyCircle(gName, { lat: g.coords.lat[0]!, lng: g.coords.lng[0]! }, radius, ext.get('reason'));
        if (z) (st.doc.noFlyZones ??= []).push(z);
        else ctx.warn(T.noFlyRadius(gName, radius));
      } else if (g.type === 'Point') {
        if (!points) {
          points = new RouteBuilder(ctx, name, missionTypeOf(cext), heightTypeOf(undefined, cext) ?? 0);
          points.settings(routeSettingsOf(cext));
          st.doc.routes.push(points.route);
          st.pointRoutes.set(points.route, cext.has('height_type'));
        }
        const ht = heightTypeOf(g.altitudeMode, ext);
        if (ht !== undefined && !st.pointRoutes.get(points.route)) {
          points.route.height_type = ht;
          st.pointRoutes.set(points.route, true);
        }
        points.add(g.coords.lat[0]!, g.coords.lng[0]!, altAt(g.coords, 0), actionsOf(ext, ctx), pmName);
      } else if (g.type === 'Line' && isCorridor(ext)) {
        const width = numOf(ext, 'width');
        const line = latLngsOf(g.coords);
        if (line.length < 2 || width === undefined || width <= 0) {
          ctx.warn(T.tooFewVertices(gName));
          continue;
        }
        const params = surveyParamsOf(ext);
        (st.doc.corridors ??= []).push({ name: gName, line, width, ...(params ? { params } : {}) });
      } else if (g.type === 'Line') {
        const ht = heightTypeOf(g.altitudeMode, ext);
        const b = new RouteBuilder(ctx, gName, missionTypeOf(ext), ht ?? 0);
        b.settings(routeSettingsOf(ext));
        const { lat, lng } = g.coords;
        for (let i = 0; i < lat.length; i++) b.add(lat[i]!, lng[i]!, altAt(g.coords, i), NO_ACTIONS, gName);
        st.doc.routes.push(b.done());
        st.lineRoutes.set(b.route, { mode: ht !== undefined, missionType: ext.has('mission_type') });
      } else {
        if (g.holes) ctx.warn(T.holesIgnored(gName));
        const ring = ringFrom(latLngsOf(g.coords), gName);
        if (ring.length < 3) {
          ctx.warn(T.tooFewVertices(gName));
          continue;
        }
        if (zoneKind === 'nofly') {
          (st.doc.noFlyZones ??= []).push(noFlyPolygon(gName, ring, ext.get('reason')));
        } else if (zoneKind === 'survey') {
          const params = surveyParamsOf(ext);
          st.doc.surveys.push({ name: gName, polygon: ring, ...(params ? { params } : {}) });
        } else {
          const max = numOf(ext, 'max_height');
          st.doc.fences.push({ name: gName, boundary: ring, ...(max !== undefined && max > 0 ? { max_height: max } : {}) });
        }
      }
    }
  }
  points?.done();
}

/** A line whose vertices are exactly a point route's positions is that route's drawn path. */
function mergeLinesIntoPointRoutes(st: WalkState): void {
  for (const [line, declared] of st.lineRoutes) {
    for (const [pr, prHasMode] of st.pointRoutes) {
      if (pr.waypoints.length !== line.waypoints.length) continue;
      if (!pr.waypoints.every((w, i) => samePoint(w, line.waypoints[i]!))) continue;
      if (declared.missionType) pr.mission_type = line.mission_type;
      if (!prHasMode && declared.mode) pr.height_type = line.height_type;
      if (line.settings) pr.settings = { ...line.settings, ...pr.settings };
      st.doc.routes.splice(st.doc.routes.indexOf(line), 1);
      st.pointRoutes.delete(pr);
      break;
    }
  }
}

export function readKmlDom(dom: Document, ctx: ReadContext): PlanDocument {
  const root = dom.documentElement;
  if (!root || !['kml', 'Document', 'Folder', 'Placemark'].includes(root.localName ?? '')) {
    return fail(T.notKml(root?.tagName ?? ''));
  }
  if (isWpmlDocument(root)) return readWpml([{ root, kind: 'auto' }], ctx);
  const top = root.localName === 'kml' ? root : undefined;
  const docName = cleanName(childText(top ? (child(top, 'Document') ?? top) : root, 'name'), ctx.baseName);
  const st: WalkState = { doc: emptyDocument(docName), pointRoutes: new Map(), lineRoutes: new Map() };
  // A root that is a Document, Folder or Placemark itself is walked as the child of the XML document.
  walk(top ?? dom, docName, ctx, st);
  mergeLinesIntoPointRoutes(st);
  return st.doc;
}

export function readKml(text: string, ctx: ReadContext): PlanDocument {
  return readKmlDom(parseXml(text, ctx.limits), ctx);
}
