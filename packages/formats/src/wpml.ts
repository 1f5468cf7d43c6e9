import type { Waypoint } from '@nest/contracts';
import type { RawActions } from './build.js';
import { RouteBuilder, finishActionFrom, ringFrom } from './build.js';
import { heading180 } from './geometry.js';
import { altAt, latLngsOf, parseCoordinates } from './coords.js';
import type { ReadContext } from './limits.js';
import { finiteOrUndefined } from './limits.js';
import { closeRing } from './geometry.js';
import type { FinishActionValue, HeightTypeValue, PlanDocument, PlanRoute, PlanSurvey, RouteSettings } from './model.js';
import { emptyDocument } from './model.js';
import { surveyParamsOf } from './params.js';
import { T } from './texts.js';
import type { Element } from './xml.js';
import { child, childText, children, find, num, xmlEscape } from './xml.js';

/**
 * DJI WPML route packages (REFERENCE section 2): `wpmz/template.kml` (the editable plan) and
 * `wpmz/waylines.wpml` (what the aircraft flies), both KML documents with `wpml:` elements.
 *
 * Reading: the template is preferred (its heights are in the plan's own height mode, EGM96 for
 * altitude), the waylines file serves when there is no template or it holds no route. Waypoint templates
 * become routes; mapping2d/mapping3d templates become survey areas. Placemarks are ordered by
 * `wpml:index`. Actions at a waypoint (reachPoint groups) map to the contracts' waypoint actions;
 * a multipleDistance group with takePhoto becomes `cam_trig_dist` from its start (0 at its end).
 *
 * Writing: one route as a waypoint template plus its wayline, namespace 1.0.2.
 */

export const WPML_NS = 'http://www.dji.com/wpmz/1.0.2';

export function isWpmlDocument(root: Element): boolean {
  const doc = child(root, 'Document') ?? root;
  return !!child(doc, 'missionConfig') || children(doc, 'Folder').some((f) => !!child(f, 'templateType') || !!child(f, 'waylineId'));
}

const numText = (el: Element | undefined, name: string): number | undefined => (el ? finiteOrUndefined(childText(el, name)) : undefined);

const FINISH_TO_WPML: Record<FinishActionValue, string> = { 10: 'noAction', 20: 'goHome', 30: 'autoLand', 40: 'gotoFirstWaypoint' };

/** Height mode names to our height type; terrain-relative modes warn. */
function heightTypeOfMode(mode: string | undefined, routeName: string, ctx: ReadContext): { ht: HeightTypeValue; elevation?: boolean } {
  switch (mode) {
    case 'EGM96':
      return { ht: 1 };
    case 'WGS84':
      ctx.warn(T.wpmlEllipsoidHeights());
      return { ht: 1 };
    case 'aboveGroundLevel':
    case 'realTimeFollowSurface':
      ctx.warn(T.terrainHeights(routeName));
      return { ht: 0, elevation: true };
    default:
      return { ht: 0 };
  }
}

interface RawPoint {
  index: number;
  lat: number;
  lng: number;
  height: number | undefined;
  actions: RawActions;
}

function applyActionGroups(pm: Element, byIndex: Map<number, RawPoint>, lastIndex: number, ctx: ReadContext): void {
  const ignored = new Map<string, number>();
  for (const group of children(pm, 'actionGroup')) {
    const start = numText(group, 'actionGroupStartIndex') ?? 0;
    const end = numText(group, 'actionGroupEndIndex') ?? start;
    const trigger = child(group, 'actionTrigger');
    const triggerType = trigger ? childText(trigger, 'actionTriggerType') : 'reachPoint';
    const triggerParam = numText(trigger, 'actionTriggerParam');
    const target = byIndex.get(start);
    for (const action of children(group, 'action')) {
      const func = childText(action, 'actionActuatorFunc') ?? '';
      const param = child(action, 'actionActuatorFuncParam');
      if (!target) continue;
      const a = target.actions;
      if (triggerType === 'multipleDistance' && func === 'takePhoto' && triggerParam !== undefined) {
        a.cam_trig_dist = triggerParam;
        const stop = byIndex.get(end);
        if (end > start && end < lastIndex && stop && stop.actions.cam_trig_dist === undefined) stop.actions.cam_trig_dist = 0;
        continue;
      }
      if (triggerType !== 'reachPoint') {
        ignored.set(`${func} (${triggerType})`, (ignored.get(`${func} (${triggerType})`) ?? 0) + 1);
        continue;
      }
      switch (func) {
        case 'takePhoto':
          a.takephoto = 1;
          break;
        case 'panoShot':
          a.takephoto = 2;
          break;
        case 'hover':
          a.hover = (a.hover ?? 0) + (numText(param, 'hoverTime') ?? 0);
          break;
        case 'rotateYaw':
          a.uav_yaw = numText(param, 'aircraftHeading');
          break;
        case 'gimbalRotate':
          if (param && childText(param, 'gimbalPitchRotateEnable') !== '0') a.gimbal_pitch = numText(param, 'gimbalPitchRotateAngle');
          if (param && childText(param, 'gimbalYawRotateEnable') === '1') a.gimbal_yaw = numText(param, 'gimbalYawRotateAngle');
          break;
        default:
          ignored.set(func, (ignored.get(func) ?? 0) + 1);
      }
    }
  }
  for (const [func, n] of ignored) ctx.warn(T.wpmlActionIgnored(func, n));
}

function readFolderRoute(folder: Element, name: string, isTemplate: boolean, settings: RouteSettings, ctx: ReadContext): PlanRoute | undefined {
  const csp = child(folder, 'waylineCoordinateSysParam');
  const mode = isTemplate ? (csp && childText(csp, 'heightMode')) : childText(folder, 'executeHeightMode');
  const { ht, elevation } = heightTypeOfMode(mode, name, ctx);
  const globalHeight = numText(folder, 'globalHeight');
  const points: RawPoint[] = [];
  const placemarks = children(folder, 'Placemark');
  for (let k = 0; k < placemarks.length; k++) {
    const pm = placemarks[k]!;
    const point = child(pm, 'Point');
    if (!point) continue;
    const c = parseCoordinates(childText(point, 'coordinates') ?? '', `${name} #${k + 1}`, ctx);
    if (!c.lat.length) continue;
    let height: number | undefined;
    if (isTemplate) {
      height = childText(pm, 'useGlobalHeight') === '1' ? globalHeight : (numText(pm, 'height') ?? numText(pm, 'ellipsoidHeight'));
    } else height = numText(pm, 'executeHeight');
    const actions: RawActions = {};
    if (childText(pm, 'useGlobalSpeed') !== '1') actions.speed = numText(pm, 'waypointSpeed');
    const hp = child(pm, 'waypointHeadingParam');
    const hmode = hp && childText(hp, 'waypointHeadingMode');
    if (childText(pm, 'useGlobalHeadingParam') !== '1' && (hmode === 'smoothTransition' || hmode === 'fixed')) {
      actions.uav_yaw = numText(hp, 'waypointHeadingAngle');
    }
    const pitch = numText(pm, 'gimbalPitchAngle');
    if (pitch) actions.gimbal_pitch = pitch;
    points.push({ index: numText(pm, 'index') ?? k, lat: c.lat[0]!, lng: c.lng[0]!, height: height ?? altAt(c, 0), actions });
  }
  if (!points.length) return undefined;
  points.sort((a, b) => a.index - b.index);
  const byIndex = new Map(points.map((p) => [p.index, p]));
  const lastIndex = points[points.length - 1]!.index;
  for (const pm of placemarks) applyActionGroups(pm, byIndex, lastIndex, ctx);

  const b = new RouteBuilder(ctx, name, 1, ht);
  b.settings({ ...settings, auto_speed: numText(folder, 'autoFlightSpeed'), ...(elevation ? { elevation } : {}) });
  // A speed equal to the one already in effect is not a change ("from this waypoint on").
  let speed = numText(folder, 'autoFlightSpeed');
  for (const p of points) {
    if (p.actions.speed !== undefined && p.actions.speed === speed) p.actions.speed = undefined;
    else if (p.actions.speed !== undefined) speed = p.actions.speed;
    b.add(p.lat, p.lng, p.height, p.actions, `${name} #${p.index}`);
  }
  return b.done();
}

/**
 * The survey marker our writer puts in a template's Document ExtendedData: kind=survey, the area as
 * `polygon` ("lng,lat lng,lat ..."), the survey's settings under the model's names. A DJI planner ignores
 * it; our reader takes the survey from it, so a survey written as its generated route (or as a mapping2d
 * template) reads back as the same survey.
 */
function surveyMarker(doc: Element, name: string, ctx: ReadContext): PlanSurvey | undefined {
  const ed = child(doc, 'ExtendedData');
  if (!ed) return undefined;
  const pairs = new Map<string, string>();
  for (const d of children(ed, 'Data')) {
    const key = d.getAttribute('name');
    if (key) pairs.set(key, (childText(d, 'value') ?? '').trim());
  }
  if (pairs.get('kind') !== 'survey' || !pairs.get('polygon')) return undefined;
  const sname = pairs.get('name') || name;
  const polygon = ringFrom(latLngsOf(parseCoordinates(pairs.get('polygon')!, sname, ctx)), sname);
  if (polygon.length < 3) return undefined;
  const params = surveyParamsOf(pairs);
  return { name: sname, polygon, ...(params ? { params } : {}) };
}

function readWpmlFile(root: Element, name: string, ctx: ReadContext): PlanDocument {
  const doc = child(root, 'Document') ?? root;
  const out = emptyDocument(name);
  const marked = surveyMarker(doc, name, ctx);
  if (marked) {
    out.surveys.push(marked);
    return out;
  }
  const mc = child(doc, 'missionConfig');
  const settings: RouteSettings = {
    finish_action: finishActionFrom(mc && childText(mc, 'finishAction')),
    max_speed: numText(mc, 'globalTransitionalSpeed'),
    return_height: numText(mc, 'globalRTHHeight'),
  };
  const folders = children(doc, 'Folder');
  folders.forEach((folder, i) => {
    const fname = folders.length > 1 ? `${name} (${i + 1})` : name;
    const templateType = childText(folder, 'templateType');
    const isTemplate = templateType !== undefined;
    if (templateType?.startsWith('mapping') && templateType !== 'mappingStrip') {
      const poly = find(folder, 'Polygon');
      const ringEl = poly && find(poly, 'LinearRing');
      if (!ringEl) return;
      const coords = parseCoordinates(childText(ringEl, 'coordinates') ?? '', fname, ctx);
      const polygon = ringFrom(latLngsOf(coords), fname);
      if (polygon.length < 3) return ctx.warn(T.tooFewVertices(fname));
      const pm = poly.parentNode as Element;
      const csp = child(folder, 'waylineCoordinateSysParam');
      const { ht, elevation } = heightTypeOfMode(csp && childText(csp, 'heightMode'), fname, ctx);
      const overlap = child(pm, 'overlap');
      const params = {
        angle: numText(pm, 'direction'),
        course_overlap: numText(overlap, 'orthoCameraOverlapH'),
        lateral_overlap: numText(overlap, 'orthoCameraOverlapW'),
        default_height: numText(pm, 'height') ?? numText(pm, 'ellipsoidHeight') ?? numText(csp, 'globalShootHeight'),
        height_type: ht,
        auto_speed: numText(folder, 'autoFlightSpeed'),
        finish_action: settings.finish_action,
        ...(elevation ? { elevation } : {}),
      };
      const clean = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
      out.surveys.push({ name: fname, polygon, params: clean });
      return;
    }
    if (templateType && templateType !== 'waypoint') return ctx.warn(T.planComplexIgnored(templateType));
    const route = readFolderRoute(folder, fname, isTemplate, settings, ctx);
    if (route) out.routes.push(route);
  });
  return out;
}

/**
 * Reads WPML documents: a KMZ's template and waylines (either may be missing), or one .kml that carries
 * WPML elements. The template wins when it holds anything; else the waylines.
 */
export function readWpml(files: { root: Element; kind: 'template' | 'waylines' | 'auto' }[], ctx: ReadContext): PlanDocument {
  const name = ctx.baseName;
  const template = files.find((f) => f.kind !== 'waylines');
  const waylines = files.find((f) => f.kind === 'waylines');
  if (template) {
    const doc = readWpmlFile(template.root, name, ctx);
    if (doc.routes.length || doc.surveys.length || !waylines) return doc;
  }
  return waylines ? readWpmlFile(waylines.root, name, ctx) : emptyDocument(name);
}

// ------------------------------------------------------------------------------------------------
// Writing

export interface WpmlOptions {
  /** Creation time written into the template (ms since epoch). */
  now?: number;
  /** wpml:droneInfo (default M30: 67/0). */
  drone?: { droneEnumValue: number; droneSubEnumValue: number };
  /** wpml:payloadInfo of the main camera (left out when not given); a dock checks it against its drone. */
  payload?: { payloadEnumValue: number; payloadPositionIndex: number };
}

const el = (name: string, value: string | number): string =>
  `<wpml:${name}>${typeof value === 'number' ? num(value) : xmlEscape(value)}</wpml:${name}>`;

function missionConfig(route: PlanRoute, opts: WpmlOptions): string {
  const s = route.settings ?? {};
  const drone = opts.drone ?? { droneEnumValue: 67, droneSubEnumValue: 0 };
  return [
    '<wpml:missionConfig>',
    el('flyToWaylineMode', 'safely'),
    el('finishAction', FINISH_TO_WPML[s.finish_action ?? 20]),
    el('exitOnRCLost', 'executeLostAction'),
    el('executeRCLostAction', 'goBack'),
    el('takeOffSecurityHeight', 20),
    el('globalTransitionalSpeed', s.max_speed ?? s.auto_speed ?? 10),
    ...(s.return_height !== undefined ? [el('globalRTHHeight', s.return_height)] : []),
    `<wpml:droneInfo>${el('droneEnumValue', drone.droneEnumValue)}${el('droneSubEnumValue', drone.droneSubEnumValue)}</wpml:droneInfo>`,
    ...(opts.payload
      ? [`<wpml:payloadInfo>${el('payloadEnumValue', opts.payload.payloadEnumValue)}${el('payloadPositionIndex', opts.payload.payloadPositionIndex)}</wpml:payloadInfo>`]
      : []),
    '</wpml:missionConfig>',
  ].join('\n    ');
}

function actionGroupsFor(route: PlanRoute, i: number, nextId: () => number): string[] {
  const w: Waypoint = route.waypoints[i]!;
  const last = route.waypoints.length - 1;
  const groups: string[] = [];
  const actions: string[] = [];
  const action = (func: string, params: string): void => {
    actions.push(
      `<wpml:action>${el('actionId', actions.length)}${el('actionActuatorFunc', func)}<wpml:actionActuatorFuncParam>${params}</wpml:actionActuatorFuncParam></wpml:action>`,
    );
  };
  if (w.uav_yaw !== undefined) action('rotateYaw', el('aircraftHeading', heading180(w.uav_yaw)) + el('aircraftPathMode', 'clockwise'));
  if (w.gimbal_ctrl) {
    action(
      'gimbalRotate',
      [
        el('gimbalHeadingYawBase', 'north'),
        el('gimbalRotateMode', 'absoluteAngle'),
        el('gimbalPitchRotateEnable', 1),
        el('gimbalPitchRotateAngle', w.gimbal_ctrl.pitch),
        el('gimbalRollRotateEnable', 0),
        el('gimbalRollRotateAngle', 0),
        el('gimbalYawRotateEnable', 1),
        el('gimbalYawRotateAngle', w.gimbal_ctrl.yaw),
        el('gimbalRotateTimeEnable', 0),
        el('gimbalRotateTime', 0),
        el('payloadPositionIndex', 0),
      ].join(''),
    );
  }
  if (w.hover) action('hover', el('hoverTime', w.hover));
  if (w.takephoto === 1) action('takePhoto', el('payloadPositionIndex', 0) + el('useGlobalPayloadLensIndex', 1));
  if (w.takephoto === 2) action('panoShot', el('payloadPositionIndex', 0) + el('panoShotSubMode', 'panoShot_360'));
  const group = (start: number, end: number, trigger: string, body: string): string =>
    [
      '<wpml:actionGroup>',
      el('actionGroupId', nextId()),
      el('actionGroupStartIndex', start),
      el('actionGroupEndIndex', end),
      el('actionGroupMode', 'sequence'),
      `<wpml:actionTrigger>${trigger}</wpml:actionTrigger>`,
      body,
      '</wpml:actionGroup>',
    ].join('');
  if (actions.length) groups.push(group(i, i, el('actionTriggerType', 'reachPoint'), actions.join('')));
  if (w.cam_trig_dist) {
    let end = last;
    for (let j = i + 1; j <= last; j++) {
      if (route.waypoints[j]!.cam_trig_dist !== undefined) {
        end = j;
        break;
      }
    }
    groups.push(
      group(
        i,
        end,
        el('actionTriggerType', 'multipleDistance') + el('actionTriggerParam', w.cam_trig_dist),
        `<wpml:action>${el('actionId', 0)}${el('actionActuatorFunc', 'takePhoto')}<wpml:actionActuatorFuncParam>${el('payloadPositionIndex', 0)}${el('useGlobalPayloadLensIndex', 1)}</wpml:actionActuatorFuncParam></wpml:action>`,
      ),
    );
  }
  return groups;
}

const R = 6371008.8;
function routeLength(route: PlanRoute): number {
  let d = 0;
  const rad = Math.PI / 180;
  for (let i = 1; i < route.waypoints.length; i++) {
    const a = route.waypoints[i - 1]!;
    const b = route.waypoints[i]!;
    const s = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
    d += 2 * R * Math.asin(Math.min(1, Math.sqrt(s)));
  }
  return d;
}

/** The survey marker (see surveyMarker) as a Document ExtendedData. */
function surveyMarkerXml(s: PlanSurvey): string {
  const pairs: [string, unknown][] = [
    ['kind', 'survey'],
    ['name', s.name],
    ['polygon', s.polygon.map((p) => `${num(p.lng)},${num(p.lat)}`).join(' ')],
    ...Object.entries(s.params ?? {}),
  ];
  return `<ExtendedData>${pairs
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `<Data name="${xmlEscape(k)}"><value>${xmlEscape(typeof v === 'number' ? num(v) : String(v))}</value></Data>`)
    .join('')}</ExtendedData>`;
}

/**
 * A mapping2d template Folder (REFERENCE section 2): the area as a closed LinearRing ("lng,lat,0"),
 * shooting by distance, `direction` = the survey's angle, `margin` 0, front/side overlaps
 * (orthoCameraOverlapH/W), flight height (`height`, `ellipsoidHeight`, `globalShootHeight`) in the
 * survey's height mode, terrain following as surfaceFollowModeEnable.
 */
function mappingFolder(s: PlanSurvey): string {
  const p = s.params ?? {};
  const h = p.default_height ?? 100;
  return [
    '<Folder>',
    el('templateType', 'mapping2d'),
    el('templateId', 0),
    `<wpml:waylineCoordinateSysParam>${el('coordinateMode', 'WGS84')}${el('heightMode', p.height_type === 1 ? 'EGM96' : 'relativeToStartPoint')}${el('globalShootHeight', h)}${el('surfaceFollowModeEnable', p.elevation ? 1 : 0)}</wpml:waylineCoordinateSysParam>`,
    el('autoFlightSpeed', p.auto_speed ?? 10),
    '<Placemark>',
    el('caliFlightEnable', 0),
    el('elevationOptimizeEnable', 0),
    el('smartObliqueEnable', 0),
    el('shootType', 'distance'),
    el('direction', p.angle ?? 0),
    el('margin', 0),
    `<wpml:overlap>${el('orthoCameraOverlapH', p.course_overlap ?? 80)}${el('orthoCameraOverlapW', p.lateral_overlap ?? 70)}</wpml:overlap>`,
    `<Polygon><outerBoundaryIs><LinearRing><coordinates>${closeRing(s.polygon)
      .map((q) => `${num(q.lng)},${num(q.lat)},0`)
      .join(' ')}</coordinates></LinearRing></outerBoundaryIs></Polygon>`,
    el('ellipsoidHeight', h),
    el('height', h),
    '</Placemark>',
    '</Folder>',
  ].join('\n  ');
}

/**
 * The template of a survey as a DJI mapping2d mission, with the survey marker; `route` (the survey's
 * generated route, if any) is what the waylines file flies.
 */
export function writeWpmlMapping(survey: PlanSurvey, route: PlanRoute | undefined, opts: WpmlOptions = {}): { template: string; waylines?: string } {
  const now = opts.now ?? Date.now();
  const settings = route ?? { name: survey.name, mission_type: 2, height_type: survey.params?.height_type ?? 0, waypoints: [], settings: { finish_action: survey.params?.finish_action, auto_speed: survey.params?.auto_speed } };
  const template = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:wpml="${WPML_NS}">\n<Document>`,
    `  ${el('author', 'nest-console')}`,
    `  ${el('createTime', now)}`,
    `  ${el('updateTime', now)}`,
    `  ${surveyMarkerXml(survey)}`,
    `  ${missionConfig(settings as PlanRoute, opts)}`,
    mappingFolder(survey),
    '</Document>\n</kml>\n',
  ].join('\n  ');
  return route && route.waypoints.length ? { template, waylines: writeWpml(route, opts).waylines } : { template };
}

/**
 * The two documents of a WPML package for one route; with `survey`, the template also carries the survey
 * marker, so the package reads back as the survey it was generated from.
 */
export function writeWpml(route: PlanRoute, opts: WpmlOptions = {}, survey?: PlanSurvey): { template: string; waylines: string } {
  const s = route.settings ?? {};
  const auto = s.auto_speed ?? 5;
  const now = opts.now ?? Date.now();
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:wpml="${WPML_NS}">\n<Document>`;
  const tail = '</Folder>\n</Document>\n</kml>\n';
  const mc = missionConfig(route, opts);
  const coord = (w: Waypoint) => `<Point><coordinates>${num(w.lng)},${num(w.lat)}</coordinates></Point>`;
  // Effective speed at each waypoint: a waypoint's speed holds from it on.
  const speeds: (number | undefined)[] = [];
  let cur: number | undefined;
  for (const w of route.waypoints) speeds.push((cur = w.speed ?? cur));

  let gid = 0;
  const tplGroups = route.waypoints.map((_, i) => actionGroupsFor(route, i, () => gid++));
  const templatePms = route.waypoints.map((w, i) =>
    [
      '<Placemark>',
      coord(w),
      el('index', i),
      el('ellipsoidHeight', w.height),
      el('height', w.height),
      el('useGlobalHeight', 0),
      el('useGlobalSpeed', speeds[i] === undefined ? 1 : 0),
      ...(speeds[i] !== undefined ? [el('waypointSpeed', speeds[i]!)] : []),
      el('useGlobalHeadingParam', 1),
      el('useGlobalTurnParam', 1),
      el('useStraightLine', 1),
      ...tplGroups[i]!,
      '</Placemark>',
    ].join('\n      '),
  );
  const template = [
    head,
    `  ${el('author', 'nest-console')}`,
    `  ${el('createTime', now)}`,
    `  ${el('updateTime', now)}`,
    ...(survey ? [`  ${surveyMarkerXml(survey)}`] : []),
    `  ${mc}`,
    '<Folder>',
    el('templateType', 'waypoint'),
    el('templateId', 0),
    `<wpml:waylineCoordinateSysParam>${el('coordinateMode', 'WGS84')}${el('heightMode', route.height_type === 1 ? 'EGM96' : 'relativeToStartPoint')}</wpml:waylineCoordinateSysParam>`,
    el('autoFlightSpeed', auto),
    el('globalHeight', s.default_height ?? route.waypoints[0]?.height ?? 100),
    el('caliFlightEnable', 0),
    el('gimbalPitchMode', 'manual'),
    `<wpml:globalWaypointHeadingParam>${el('waypointHeadingMode', 'followWayline')}${el('waypointHeadingAngle', 0)}${el('waypointPoiPoint', '0.000000,0.000000,0.000000')}${el('waypointHeadingPoiIndex', 0)}</wpml:globalWaypointHeadingParam>`,
    el('globalWaypointTurnMode', 'toPointAndStopWithDiscontinuityCurvature'),
    el('globalUseStraightLine', 1),
    ...templatePms,
    tail,
  ].join('\n  ');

  gid = 0;
  const wlGroups = route.waypoints.map((_, i) => actionGroupsFor(route, i, () => gid++));
  const length = routeLength(route);
  const waylinePms = route.waypoints.map((w, i) =>
    [
      '<Placemark>',
      coord(w),
      el('index', i),
      el('executeHeight', w.height),
      el('waypointSpeed', speeds[i] ?? auto),
      `<wpml:waypointHeadingParam>${el('waypointHeadingMode', 'followWayline')}</wpml:waypointHeadingParam>`,
      `<wpml:waypointTurnParam>${el('waypointTurnMode', 'toPointAndStopWithDiscontinuityCurvature')}${el('waypointTurnDampingDist', 0)}</wpml:waypointTurnParam>`,
      el('useStraightLine', 1),
      ...wlGroups[i]!,
      '</Placemark>',
    ].join('\n      '),
  );
  const waylines = [
    head,
    `  ${mc}`,
    '<Folder>',
    el('templateId', 0),
    el('executeHeightMode', route.height_type === 1 ? 'WGS84' : 'relativeToStartPoint'),
    el('waylineId', 0),
    el('distance', Math.round(length * 10) / 10),
    el('duration', Math.round((length / auto) * 10) / 10),
    el('autoFlightSpeed', auto),
    ...waylinePms,
    tail,
  ].join('\n  ');
  return { template, waylines };
}
