import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NoFlyShape } from '@nest/contracts';
import type { ExportFormat, ExportOptions, ImportOptions, PlanDocument } from './index.js';
import { checkAgainstTask, exportPlanFile, importPlanFile, surveyRoute } from './index.js';

/**
 * Real files written by other tools (fixtures/real/README.md names each one's source): each is read,
 * written in its own format and read again, and the second reading must equal the first (positions to
 * 1e-7 degrees, altitudes and their frames, actions, zones, survey settings).
 */

const real = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/real/${name}`, import.meta.url)));

function read(name: string, bytes: Uint8Array, opts: ImportOptions = {}) {
  const r = importPlanFile(name, bytes, opts);
  if (!r.ok) throw new Error(r.error.en);
  return r;
}

function write(doc: PlanDocument, format: ExportFormat, opts: ExportOptions = {}) {
  const out = exportPlanFile(doc, format, { now: 0, ...opts });
  if (!out.ok) throw new Error(out.error.en);
  return out;
}

/** Import, export in `format`, import again under the same base name: both readings. */
function roundTrip(file: string, format: ExportFormat, opts: ImportOptions = {}, exportOpts: ExportOptions = {}) {
  const first = read(file, real(file), opts);
  const out = write(first.doc, format, exportOpts);
  const second = read(file.replace(/\.[^.]+$/, out.ext), out.bytes, opts);
  return { first, second, out };
}

const en = (r: { warnings: { en: string }[] }): string[] => r.warnings.map((w) => w.en);

describe('QGroundControl test/plans/PX4SITL-PX4-MultiRotor.plan', () => {
  const { first, second, out } = roundTrip('PX4SITL-PX4-MultiRotor.plan', 'plan');
  const items = (JSON.parse(new TextDecoder().decode(out.bytes)) as { mission: { items: Record<string, unknown>[] } }).mission.items;

  it('reads back equal after .plan -> .plan', () => {
    expect(second.doc).toEqual(first.doc);
  });

  it('keeps the take-off item at its own position and altitude', () => {
    expect(first.doc.routes[0]!.takeoff).toEqual({ at: { lat: 47.3996949, lng: 8.5455 }, alt: 30 });
    expect(items[0]).toMatchObject({ command: 22, frame: 3, params: [0, 0, 0, null, 47.3996949, 8.5455, 30] });
  });

  it('keeps the region of interest as a 195 item and aims the following waypoints at it', () => {
    const wps = first.doc.routes[0]!.waypoints;
    expect(wps[1]!.roi).toEqual({ lat: 47.3700507, lng: 8.585312, alt: 0 });
    // The loiter waypoint, due west of the region, heads east at it (bearing about 90), the gimbal looking down.
    const east = wps[3]!;
    expect(east.aimed).toBe(true);
    expect(east.uav_yaw).toBeCloseTo(90, 1);
    expect(east.gimbal_ctrl!.pitch).toBeLessThan(0);
    const roi = items.filter((i) => i.command === 195);
    expect(roi).toHaveLength(1);
    expect((roi[0]!.params as number[]).slice(4)).toEqual([47.3700507, 8.585312, 0]);
    // Computed headings are not written: the 195 item says it.
    expect(items.filter((i) => i.command === 205)).toHaveLength(0);
  });

  it('keeps the timed loiter, the altitude frames and the above-terrain items without a computed altitude', () => {
    const loiter = items.find((i) => i.command === 19)!;
    expect(loiter).toMatchObject({ frame: 3, params: [30, 0, 50, 0, 47.3700507, 8.5455, 100] });
    const amsl = items.find((i) => i.Altitude === 638.056)!;
    expect(amsl).toMatchObject({ command: 16, frame: 0, AltitudeMode: 2 });
    const terrain = items.filter((i) => i.AltitudeMode === 3);
    expect(terrain.map((i) => [i.Altitude, (i.params as unknown[])[6], i.frame])).toEqual([
      [80, null, 0],
      [40, null, 0],
    ]);
    expect(items.at(-1)).toMatchObject({ command: 21, params: [0, 0, 0, null, 47.3996949, 8.5455, 0] });
  });

  it('notes each item the console cannot hold as it is by its number, in both languages', () => {
    const notes = en(first).filter((w) => w.startsWith('Item '));
    expect(notes.map((w) => w.slice(0, w.indexOf(')') + 1))).toEqual([
      'Item 1 (MAV_CMD 22 NAV_TAKEOFF)',
      'Item 4 (MAV_CMD 16 NAV_WAYPOINT)',
      'Item 5 (MAV_CMD 195 DO_SET_ROI_LOCATION)',
      'Item 6 (MAV_CMD 16 NAV_WAYPOINT)',
      'Item 7 (MAV_CMD 19 NAV_LOITER_TIME)',
      'Item 8 (MAV_CMD 16 NAV_WAYPOINT)',
      'Item 11 (MAV_CMD 21 NAV_LAND)',
    ]);
    expect(first.warnings.map((w) => w.zh)).toContain(
      '第 6 项（MAV_CMD 16 NAV_WAYPOINT）：离地 80 米（QGC 按地形计算海拔）：按离地高度和地形跟随导入，导出 .plan 时保留',
    );
  });

  it('hands the console plain contracts waypoints', () => {
    const c = checkAgainstTask(first.doc, 'waypoint');
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    for (const w of c.item.waypoints) expect(Object.keys(w).every((k) => ['lat', 'lng', 'height', 'uav_yaw', 'hover', 'takephoto', 'gimbal_ctrl', 'speed', 'cam_trig_dist'].includes(k))).toBe(true);
    expect(c.item.takeoff).toBeUndefined();
  });
});

describe('QGroundControl custom/res/geofences/ce_geofence_rd_2.plan (inclusion and exclusion polygons)', () => {
  const file = 'ce_geofence_rd_2.plan';
  it('the exclusion polygon is a no-fly zone, the inclusion polygon the fence; nothing is ignored', () => {
    const r = read(file, real(file));
    expect(r.doc.fences).toHaveLength(1);
    expect(r.doc.noFlyZones).toEqual([
      {
        name: 'ce_geofence_rd_2 NFZ 1',
        shape: NoFlyShape.POLYGON,
        boundary: [
          { lat: 38.7507608625056, lng: -77.49735908548331 },
          { lat: 38.750850553167055, lng: -77.4972259712925 },
          { lat: 38.75064163995635, lng: -77.4969987226922 },
          { lat: 38.750551952470936, lng: -77.49713235890398 },
        ],
        center: null,
        radius: null,
      },
    ]);
    expect(en(r).some((w) => /exclusion|ignored/.test(w))).toBe(false);
  });
  it.each(['plan', 'kml', 'geojson'] as const)('reads back equal after .plan -> %s', (format) => {
    const { first, second } = roundTrip(file, format);
    expect(second.doc.noFlyZones).toEqual(first.doc.noFlyZones);
    expect(second.doc.fences).toEqual(first.doc.fences);
  });
  it('the .plan written back holds the zone as an exclusion polygon', () => {
    const { out } = roundTrip(file, 'plan');
    const plan = JSON.parse(new TextDecoder().decode(out.bytes)) as { geoFence: { polygons: { inclusion: boolean; polygon: number[][] }[] } };
    expect(plan.geoFence.polygons.map((p) => p.inclusion)).toEqual([true, false]);
    expect(plan.geoFence.polygons[1]!.polygon[1]).toEqual([38.750850553167055, -77.4972259712925]);
  });
  it('a DJI package says plainly that it has no place for no-fly zones', () => {
    const r = read(file, real(file), { polygonAs: 'survey' });
    const doc = { ...r.doc, fences: [], surveys: [{ name: 'area', polygon: r.doc.fences[0]!.boundary }] };
    const out = write(doc, 'kmz');
    expect(out.warnings.map((w) => w.en)).toContain(
      'DJI route files have no no-fly element: 1 no-fly zone(s) were left out; export them as GeoJSON to load them as a custom flight area',
    );
  });
});

describe('Google KML sample "Building 41" (togeojson test/data/style_url.kml)', () => {
  const file = 'togeojson-style_url.kml';
  it('reads back equal after KML -> KML', () => {
    const { first, second } = roundTrip(file, 'kml');
    expect(first.doc.fences[0]!.boundary).toHaveLength(18);
    expect(second.doc).toEqual(first.doc);
  });
  it.each(['mapping', 'route'] as const)('as a survey area, a DJI package (%s) reads back as the same survey', async (surveyAs) => {
    const first = read(file, real(file), { polygonAs: 'survey' });
    const survey = { ...first.doc.surveys[0]!, params: { angle: 35, course_overlap: 75, lateral_overlap: 65, default_height: 60, camera_type: '6k' as const } };
    const made = await surveyRoute(survey);
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(made.route.waypoints.length).toBeGreaterThan(2);
    const out = write({ ...first.doc, surveys: [survey], routes: [made.route] }, 'kmz', { surveyAs });
    const back = read('building.kmz', out.bytes);
    expect(back.doc.routes).toEqual([]);
    expect(back.doc.surveys).toHaveLength(1);
    const s = back.doc.surveys[0]!;
    expect(s.polygon).toHaveLength(survey.polygon.length);
    s.polygon.forEach((p, i) => {
      expect(Math.abs(p.lat - survey.polygon[i]!.lat)).toBeLessThanOrEqual(1e-7);
      expect(Math.abs(p.lng - survey.polygon[i]!.lng)).toBeLessThanOrEqual(1e-7);
    });
    expect(s.params).toMatchObject(survey.params);
  });
  it('a DJI package of a survey written as a route without a generated route is refused with the reason', () => {
    const first = read(file, real(file), { polygonAs: 'survey' });
    const out = exportPlanFile(first.doc, 'kmz', { surveyAs: 'route' });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.en).toBe('Survey area "Building 41" has no generated route yet, so it cannot be exported as a waypoint route');
  });
});

describe('GeoJSON "hollow box" (togeojson test/data/polygon.geojson)', () => {
  it('reads back equal after GeoJSON -> GeoJSON (the hole is warned about, not kept)', () => {
    const { first, second } = roundTrip('togeojson-polygon.geojson', 'geojson');
    expect(en(first)).toEqual(['"hollow box": inner rings (holes) were ignored']);
    expect(second.doc).toEqual(first.doc);
  });
});
