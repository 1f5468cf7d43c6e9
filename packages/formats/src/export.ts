import type { Text, Waypoint } from '@nest/contracts';
import { strToU8 } from 'fflate';
import { toGeoJson } from './geojson.js';
import { closeRing } from './geometry.js';
import type { PlanDocument, PlanRoute } from './model.js';
import { isEmptyDocument } from './model.js';
import type { QgcOptions } from './qgc.js';
import { toQgcPlan } from './qgc.js';
import { NO_FLY_KIND } from './nofly.js';
import { T, what } from './texts.js';
import type { WpmlOptions } from './wpml.js';
import { writeWpml, writeWpmlMapping } from './wpml.js';
import { writeZip } from './zip.js';
import { num, xmlEscape } from './xml.js';

export { toGeoJson } from './geojson.js';
export { toQgcPlan } from './qgc.js';

export type ExportFormat = 'kml' | 'geojson' | 'plan' | 'kmz';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['kml', 'geojson', 'plan', 'kmz'];

export const EXPORT_FILE_TYPES: Record<ExportFormat, { ext: string; mime: string }> = {
  kml: { ext: '.kml', mime: 'application/vnd.google-earth.kml+xml' },
  geojson: { ext: '.json', mime: 'application/geo+json' },
  plan: { ext: '.plan', mime: 'application/json' },
  kmz: { ext: '.kmz', mime: 'application/vnd.google-earth.kmz' },
};

export type ExportResult =
  | { ok: true; bytes: Uint8Array; ext: string; mime: string; warnings: Text[] }
  | { ok: false; error: Text };

export type ExportOptions = QgcOptions &
  WpmlOptions & {
    /** DJI KMZ of a survey area: a mapping2d template (default) or its generated route as waypoints. */
    surveyAs?: 'mapping' | 'route';
  };

// ------------------------------------------------------------------------------------------------
// KML

const data = (pairs: [string, unknown][]): string => {
  const kept = pairs.filter(([, v]) => v !== undefined && v !== null);
  if (!kept.length) return '';
  return `<ExtendedData>${kept
    .map(([k, v]) => `<Data name="${xmlEscape(k)}"><value>${xmlEscape(typeof v === 'number' ? num(v) : String(v))}</value></Data>`)
    .join('')}</ExtendedData>`;
};

const ringText = (ring: { lat: number; lng: number }[]): string =>
  closeRing(ring)
    .map((p) => `${num(p.lng)},${num(p.lat)}`)
    .join(' ');

const waypointData = (w: Waypoint): string =>
  data([
    ['uav_yaw', w.uav_yaw],
    ['hover', w.hover],
    ['takephoto', w.takephoto],
    ['gimbal_pitch', w.gimbal_ctrl?.pitch],
    ['gimbal_yaw', w.gimbal_ctrl?.yaw],
    ['speed', w.speed],
    ['cam_trig_dist', w.cam_trig_dist],
  ]);

function routeFolder(r: PlanRoute): string {
  const mode = r.height_type === 1 ? 'absolute' : 'relativeToGround';
  const s = r.settings ?? {};
  const line =
    r.waypoints.length >= 2
      ? `<Placemark><name>${xmlEscape(r.name)}</name><styleUrl>#route</styleUrl><LineString><tessellate>1</tessellate><altitudeMode>${mode}</altitudeMode><coordinates>${r.waypoints
          .map((w) => `${num(w.lng)},${num(w.lat)},${num(w.height)}`)
          .join(' ')}</coordinates></LineString></Placemark>`
      : '';
  const points = r.waypoints.map(
    (w, i) =>
      `<Placemark><name>WP${i + 1}</name><styleUrl>#waypoint</styleUrl>${waypointData(w)}<Point><altitudeMode>${mode}</altitudeMode><coordinates>${num(w.lng)},${num(w.lat)},${num(w.height)}</coordinates></Point></Placemark>`,
  );
  return [
    `<Folder><name>${xmlEscape(r.name)}</name>`,
    data([
      ['kind', 'route'],
      ['mission_type', r.mission_type],
      ['height_type', r.height_type],
      ['auto_speed', s.auto_speed],
      ['max_speed', s.max_speed],
      ['default_height', s.default_height],
      ['return_height', s.return_height],
      ['finish_action', s.finish_action],
      ['elevation', s.elevation],
    ]),
    line,
    ...points,
    '</Folder>',
  ]
    .filter(Boolean)
    .join('\n    ');
}

/**
 * KML 2.2: a Document with one Folder per fence, route, survey area, no-fly zone and strip scan. Fences,
 * areas and polygon no-fly zones are Polygon placemarks (ExtendedData kind fence|survey|nofly); a no-fly
 * circle is a Point with ExtendedData radius; a strip scan a LineString (kind corridor, width, settings); a route is a Folder (ExtendedData: settings) holding its
 * path as a LineString and one named Point placemark per waypoint (ExtendedData: actions). Coordinates
 * are lng,lat[,alt] in JavaScript's shortest exact decimal form, so values read back are identical.
 */
export function toKml(doc: PlanDocument): string {
  const polygon = (name: string, ring: { lat: number; lng: number }[], style: string, ext: string): string =>
    `<Folder><name>${xmlEscape(name)}</name><Placemark><name>${xmlEscape(name)}</name><styleUrl>#${style}</styleUrl>${ext}<Polygon><outerBoundaryIs><LinearRing><coordinates>${ringText(ring)}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Folder>`;
  const body = [
    ...doc.fences.map((f) => polygon(f.name, f.boundary, 'fence', data([['kind', 'fence'], ['max_height', f.max_height]]))),
    ...doc.routes.map(routeFolder),
    ...doc.surveys.map((s) =>
      polygon(s.name, s.polygon, 'survey', data([['kind', 'survey'], ...Object.entries(s.params ?? {})])),
    ),
    ...(doc.noFlyZones ?? []).map((z) => {
      const ext = data([['kind', NO_FLY_KIND], ['reason', z.reason], ['radius', z.radius ?? undefined]]);
      return z.center
        ? `<Folder><name>${xmlEscape(z.name)}</name><Placemark><name>${xmlEscape(z.name)}</name><styleUrl>#nofly</styleUrl>${ext}<Point><coordinates>${num(z.center.lng)},${num(z.center.lat)}</coordinates></Point></Placemark></Folder>`
        : polygon(z.name, z.boundary, 'nofly', ext);
    }),
    ...(doc.corridors ?? []).map(
      (c) =>
        `<Folder><name>${xmlEscape(c.name)}</name><Placemark><name>${xmlEscape(c.name)}</name><styleUrl>#survey</styleUrl>${data([['kind', 'corridor'], ['width', c.width], ...Object.entries(c.params ?? {})])}<LineString><tessellate>1</tessellate><coordinates>${c.line.map((p) => `${num(p.lng)},${num(p.lat)}`).join(' ')}</coordinates></LineString></Placemark></Folder>`,
    ),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2">',
    '<Document>',
    ...(doc.name ? [`  <name>${xmlEscape(doc.name)}</name>`] : []),
    '  <Style id="fence"><LineStyle><color>ff0000ff</color><width>2</width></LineStyle><PolyStyle><color>330000ff</color></PolyStyle></Style>',
    '  <Style id="survey"><LineStyle><color>ffff9900</color><width>2</width></LineStyle><PolyStyle><color>33ff9900</color></PolyStyle></Style>',
    '  <Style id="nofly"><LineStyle><color>ff0000cc</color><width>2</width></LineStyle><PolyStyle><color>660000cc</color></PolyStyle></Style>',
    '  <Style id="route"><LineStyle><color>ff00ffff</color><width>3</width></LineStyle></Style>',
    '  <Style id="waypoint"><IconStyle><scale>0.6</scale></IconStyle></Style>',
    ...body.map((b) => `  ${b}`),
    '</Document>',
    '</kml>',
    '',
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------
// DJI WPML KMZ

/**
 * A DJI WPML package: `wpmz/template.kml` and `wpmz/waylines.wpml` zipped. A package flies one mission:
 * - a document with a survey area is written as the survey, by `surveyAs`: `mapping` (default) a mapping2d
 *   template (overlaps, direction, height) or `route` the survey's generated route as a waypoint template;
 *   both carry the survey marker (wpml.ts), so either reads back as the same survey. The waylines file
 *   flies the survey's route: the document's first survey route (mission type 2) when it has one (the
 *   console's stored survey, or surveyRoute's), else a mapping package has no waylines (DJI Pilot computes
 *   them) and a route package cannot be written;
 * - else its route (`routeIndex`).
 * Fences, further routes and areas and strip scans are left out with a warning; DJI WPML has no no-fly
 * element, which a warning says too.
 */
export function toWpmlKmz(doc: PlanDocument, opts: ExportOptions = {}): ExportResult {
  const warnings: Text[] = [];
  const fmt = 'DJI KMZ';
  const survey = doc.surveys[0];
  const surveyRoute = survey ? doc.routes.find((r) => r.mission_type === 2 && r.waypoints.length > 0) : undefined;
  const route = survey ? surveyRoute : doc.routes[opts.routeIndex ?? 0];
  if (!survey && (!route || route.waypoints.length === 0)) return { ok: false, error: T.exportNoRoute() };
  if (survey && opts.surveyAs === 'route' && !route) return { ok: false, error: T.exportSurveyNoRoute(survey.name) };
  const otherRoutes = doc.routes.length - (route ? 1 : 0);
  if (otherRoutes > 0) warnings.push(T.exportDropped(what.extraRoutes(otherRoutes), fmt));
  if (doc.fences.length) warnings.push(T.exportDropped(what.fences, fmt));
  if (doc.surveys.length > 1) warnings.push(T.exportDropped(what.extraSurveys(doc.surveys.length - 1), fmt));
  if (doc.corridors?.length) warnings.push(T.exportDropped(what.corridors, fmt));
  if (doc.noFlyZones?.length) warnings.push(T.exportNoFlyWpml(doc.noFlyZones.length));
  if ((route?.height_type ?? survey?.params?.height_type) === 1) warnings.push(T.exportEllipsoid());
  const files: Record<string, Uint8Array> = {};
  if (survey && opts.surveyAs !== 'route') {
    const { template, waylines } = writeWpmlMapping(survey, route, opts);
    files['wpmz/template.kml'] = strToU8(template);
    if (waylines) files['wpmz/waylines.wpml'] = strToU8(waylines);
  } else {
    const { template, waylines } = writeWpml(route!, opts, survey);
    files['wpmz/template.kml'] = strToU8(template);
    files['wpmz/waylines.wpml'] = strToU8(waylines);
  }
  const bytes = writeZip(files, new Date(opts.now ?? Date.now()));
  return { ok: true, bytes, ...EXPORT_FILE_TYPES.kmz, warnings };
}

// ------------------------------------------------------------------------------------------------

/** Exports a document in one format, as the bytes of the file to save. Never throws. */
export function exportPlanFile(doc: PlanDocument, format: ExportFormat, opts: ExportOptions = {}): ExportResult {
  try {
    if (!EXPORT_FORMATS.includes(format)) return { ok: false, error: T.unknownFormat(String(format)) };
    if (isEmptyDocument(doc)) return { ok: false, error: T.exportNothing() };
    const type = EXPORT_FILE_TYPES[format];
    switch (format) {
      case 'kml':
        return { ok: true, bytes: strToU8(toKml(doc)), ...type, warnings: [] };
      case 'geojson':
        return { ok: true, bytes: strToU8(JSON.stringify(toGeoJson(doc), null, 1)), ...type, warnings: [] };
      case 'plan': {
        const { plan, warnings } = toQgcPlan(doc, opts);
        return { ok: true, bytes: strToU8(JSON.stringify(plan, null, 2)), ...type, warnings };
      }
      case 'kmz':
        return toWpmlKmz(doc, opts);
    }
  } catch (e) {
    return { ok: false, error: T.unreadable(e instanceof Error ? e.message : String(e)) };
  }
}
