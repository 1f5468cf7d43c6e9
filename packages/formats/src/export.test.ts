/// <reference types="node" />
import { readFileSync, readdirSync } from 'node:fs';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { PlanDocument, PlanRoute } from './index.js';
import { exportPlanFile, importPlanFile, toKml, toQgcPlan } from './index.js';

const route = (extra: Partial<PlanRoute> = {}): PlanRoute => ({
  name: '巡检',
  mission_type: 1,
  height_type: 0,
  waypoints: [
    { lat: 30.1, lng: 120.1, height: 50, hover: 3, uav_yaw: 270, speed: 6 },
    { lat: 30.2, lng: 120.2, height: 60, takephoto: 1, gimbal_ctrl: { pitch: -90, yaw: 10 }, cam_trig_dist: 15 },
    { lat: 30.3, lng: 120.3, height: 70, takephoto: 2, cam_trig_dist: 0 },
  ],
  settings: { auto_speed: 5, finish_action: 20 },
  ...extra,
});
const doc = (d: Partial<PlanDocument> = {}): PlanDocument => ({ fences: [], routes: [route()], surveys: [], ...d });
const fence = { name: 'F', boundary: [{ lat: 30, lng: 120 }, { lat: 30, lng: 121 }, { lat: 31, lng: 121 }], max_height: 120 };

type Item = { command: number; params: (number | null)[]; frame: number; doJumpId: number; type: string };
const items = (d: PlanDocument): Item[] => (toQgcPlan(d).plan.mission as { items: Item[] }).items;

describe('QGC plan export', () => {
  it('header, fences as geoFence polygons in [lat, lon]', () => {
    const { plan } = toQgcPlan(doc({ fences: [fence] }));
    expect(plan).toMatchObject({ fileType: 'Plan', version: 1, groundStation: 'QGroundControl', mission: { version: 2, hoverSpeed: 5, plannedHomePosition: [30.1, 120.1, 0] } });
    expect(plan.geoFence).toEqual({ version: 2, circles: [], polygons: [{ version: 1, inclusion: true, polygon: [[30, 120], [30, 121], [31, 121]] }] });
  });
  it('takeoff first, params [p1..p4, lat, lon, alt], actions after their waypoint, RTL last', () => {
    const list = items(doc());
    expect(list.map((i) => i.command)).toEqual([22, 16, 178, 16, 205, 2000, 206, 16, 2000, 206, 20]);
    expect(list.map((i) => i.doJumpId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(list[0]).toMatchObject({ frame: 3, params: [0, 0, 0, null, 30.1, 120.1, 50] });
    expect(list[1]).toMatchObject({ frame: 3, params: [3, 0, 0, 270, 30.1, 120.1, 50] });
    expect(list[2]!.params).toEqual([1, 6, -1, 0, 0, 0, 0]);
    expect(list[4]!.params).toEqual([-90, 0, 10, 0, 0, 0, 2]);
    expect(list[6]!.params[0]).toBe(15);
  });
  it('above-sea-level routes use frame 0 / AltitudeMode 2', () => {
    const [, wp] = items(doc({ routes: [route({ height_type: 1 })] }));
    expect(wp).toMatchObject({ frame: 0, AltitudeMode: 2 });
  });
  it('finish actions: 30 LAND at the last waypoint, 10 loiter there, 40 back to the first and loiter', () => {
    const tail = (fa: 10 | 20 | 30 | 40) => items(doc({ routes: [route({ settings: { finish_action: fa } })] })).slice(-2);
    expect(tail(30)[1]).toMatchObject({ command: 21, params: [0, 0, 0, null, 30.3, 120.3, 0] });
    expect(tail(10)[1]).toMatchObject({ command: 17, params: [0, 0, 0, null, 30.3, 120.3, 70] });
    expect(tail(40).map((i) => [i.command, i.params[4], i.params[5]])).toEqual([
      [16, 30.1, 120.1],
      [17, 30.1, 120.1],
    ]);
    for (const fa of [10, 20, 30, 40] as const) {
      const out = exportPlanFile(doc({ routes: [route({ settings: { finish_action: fa } })] }), 'plan');
      const back = out.ok && importPlanFile('x.plan', out.bytes);
      expect(back && back.ok && back.doc.routes[0]!.settings?.finish_action).toBe(fa);
      expect(back && back.ok && back.doc.routes[0]!.waypoints).toHaveLength(3);
    }
  });
  it('round trip keeps actions (a panorama becomes a photo, with a warning)', () => {
    const out = exportPlanFile(doc(), 'plan');
    expect(out.ok && out.warnings.map((w) => w.en)).toEqual(['QGC plans have no panorama command; exported as a single photo']);
    const back = out.ok ? importPlanFile('x.plan', out.bytes) : null;
    const w = back?.ok ? back.doc.routes[0]!.waypoints : [];
    expect(w).toEqual([
      { lat: 30.1, lng: 120.1, height: 50, hover: 3, uav_yaw: 270, speed: 6 },
      { lat: 30.2, lng: 120.2, height: 60, takephoto: 1, gimbal_ctrl: { pitch: -90, yaw: 10 }, cam_trig_dist: 15 },
      { lat: 30.3, lng: 120.3, height: 70, takephoto: 1, cam_trig_dist: 0 },
    ]);
  });
  it('survey ComplexItem with camera numbers and footprints (REFERENCE 5 worked check)', () => {
    const survey = {
      name: 'S',
      polygon: fence.boundary,
      params: { angle: 30, course_overlap: 80, lateral_overlap: 70, default_height: 100, sensor_width: 17.3, sensor_height: 13, image_width: 5280, image_height: 3956, focal_length: 12.29, turn_distance: 12 },
    };
    const list = items(doc({ routes: [], surveys: [survey] })) as unknown as Record<string, unknown>[];
    const c = list.find((i) => i.type === 'ComplexItem') as { polygon: number[][]; angle: number; TransectStyleComplexItem: { TurnAroundDistance: number; CameraCalc: Record<string, number> } };
    expect(c.polygon[0]).toEqual([30, 120]);
    expect(c.angle).toBe(30);
    expect(c.TransectStyleComplexItem.TurnAroundDistance).toBe(12);
    expect(c.TransectStyleComplexItem.CameraCalc.ImageDensity).toBeCloseTo(2.67, 2);
    expect(c.TransectStyleComplexItem.CameraCalc.AdjustedFootprintSide).toBeCloseTo(42.2, 1);
    expect(c.TransectStyleComplexItem.CameraCalc.AdjustedFootprintFrontal).toBeCloseTo(21.1, 1);
    const out = exportPlanFile(doc({ routes: [], surveys: [survey] }), 'plan');
    const back = out.ok ? importPlanFile('x.plan', out.bytes) : null;
    expect(back?.ok && back.doc.surveys[0]!.params).toMatchObject({ ...survey.params, height_type: 0, camera_type: 'custom' });
  });
});

describe('DJI WPML KMZ export', () => {
  const out = exportPlanFile(doc({ fences: [fence] }), 'kmz', { now: Date.UTC(2024, 0, 1) });
  const files = out.ok ? unzipSync(out.bytes) : {};
  const template = strFromU8(files['wpmz/template.kml']!);
  const waylines = strFromU8(files['wpmz/waylines.wpml']!);
  it('zip holds wpmz/template.kml and wpmz/waylines.wpml in namespace 1.0.2', () => {
    expect(Object.keys(files).sort()).toEqual(['wpmz/template.kml', 'wpmz/waylines.wpml']);
    for (const x of [template, waylines]) expect(x).toContain('xmlns:wpml="http://www.dji.com/wpmz/1.0.2"');
  });
  it('missionConfig finishAction mapping', () => {
    expect(waylines).toContain('<wpml:finishAction>goHome</wpml:finishAction>');
    const fa = (f: 10 | 30 | 40) => {
      const o = exportPlanFile(doc({ routes: [route({ settings: { finish_action: f } })] }), 'kmz');
      return o.ok ? strFromU8(unzipSync(o.bytes)['wpmz/waylines.wpml']!).match(/<wpml:finishAction>(\w+)</)![1] : '';
    };
    expect([fa(10), fa(30), fa(40)]).toEqual(['noAction', 'autoLand', 'gotoFirstWaypoint']);
  });
  it('placemarks indexed from 0 with executeHeight, waypointSpeed and actions', () => {
    expect([...waylines.matchAll(/<wpml:index>(\d+)</g)].map((m) => m[1])).toEqual(['0', '1', '2']);
    expect([...waylines.matchAll(/<wpml:executeHeight>([\d.]+)</g)].map((m) => m[1])).toEqual(['50', '60', '70']);
    expect(waylines).toContain('<wpml:executeHeightMode>relativeToStartPoint</wpml:executeHeightMode>');
    expect([...waylines.matchAll(/<wpml:waypointSpeed>([\d.]+)</g)].map((m) => m[1])).toEqual(['6', '6', '6']);
    for (const f of ['takePhoto', 'hover', 'gimbalRotate', 'rotateYaw', 'panoShot']) expect(waylines).toContain(`<wpml:actionActuatorFunc>${f}<`);
    expect(waylines).toContain('<wpml:aircraftHeading>-90</wpml:aircraftHeading>');
    expect(waylines).toContain('<wpml:actionTriggerType>multipleDistance</wpml:actionTriggerType><wpml:actionTriggerParam>15</wpml:actionTriggerParam>');
    expect(waylines).toContain('<Point><coordinates>120.1,30.1</coordinates></Point>');
  });
  it('fences are left out with a warning; round trip keeps actions', () => {
    expect(out.ok && out.warnings.map((w) => w.en)).toEqual(['DJI KMZ cannot hold fences; left out']);
    const back = out.ok ? importPlanFile('r.kmz', out.bytes) : null;
    // A distance-photo group ending at the last waypoint stops there anyway: its explicit 0 is implied.
    const { cam_trig_dist: _stop, ...last } = route().waypoints[2]!;
    expect(back?.ok && back.doc.routes[0]!.waypoints).toEqual([...route().waypoints.slice(0, 2), last]);
    expect(back?.ok && back.doc.routes[0]!.settings).toMatchObject({ auto_speed: 5, finish_action: 20 });
  });
  it('the waylines file alone is read when there is no template', () => {
    const back = importPlanFile('w.kmz', zipSync({ 'wpmz/waylines.wpml': files['wpmz/waylines.wpml']! }));
    expect(back.ok && back.doc.routes[0]!.waypoints.map((w) => w.height)).toEqual([50, 60, 70]);
  });
  it('no route: a clear error', () => {
    const r = exportPlanFile(doc({ routes: [], fences: [fence] }), 'kmz');
    expect(!r.ok && r.error.en).toBe('There is no route to export');
  });
});

describe('KML and GeoJSON export', () => {
  it('KML: Folder per item, named placemarks, lng,lat,alt, escaped names', () => {
    const k = toKml({ name: 'A & B', fences: [fence], routes: [route()], surveys: [] });
    expect(k).toContain('<name>A &amp; B</name>');
    expect(k).toContain('<coordinates>120,30 121,30 121,31 120,30</coordinates>');
    expect(k).toContain('<Placemark><name>WP1</name>');
    expect(k).toContain('<coordinates>120.1,30.1,50</coordinates>');
    expect(k).toContain('<altitudeMode>relativeToGround</altitudeMode>');
  });
  it('tiny and huge numbers are written without exponents, exactly', () => {
    const k = toKml({ fences: [], routes: [{ ...route(), waypoints: [{ lat: 1e-7, lng: -2.5e-10, height: 1e-3 }] }], surveys: [] });
    expect(k).toContain('<coordinates>-0.00000000025,0.0000001,0.001</coordinates>');
  });
  it('GeoJSON: closed polygon rings, LineString with heights, one-waypoint route as MultiPoint', () => {
    const out = exportPlanFile(doc({ fences: [fence], routes: [route(), { ...route(), waypoints: [route().waypoints[0]!] }] }), 'geojson');
    const g = out.ok ? JSON.parse(new TextDecoder().decode(out.bytes)) : null;
    expect(g.features[0].geometry.coordinates[0]).toEqual([[120, 30], [121, 30], [121, 31], [120, 30]]);
    expect(g.features[1].geometry).toEqual({ type: 'LineString', coordinates: [[120.1, 30.1, 50], [120.2, 30.2, 60], [120.3, 30.3, 70]] });
    expect(g.features[2].geometry.type).toBe('MultiPoint');
  });
  it('an empty document and an unknown format are refused', () => {
    expect(exportPlanFile({ fences: [], routes: [], surveys: [] }, 'kml')).toEqual({ ok: false, error: { zh: '没有可导出的内容', en: 'There is nothing to export' } });
    expect(!exportPlanFile(doc(), 'gpx' as 'kml').ok).toBe(true);
  });
});

describe('pure functions: library code uses no DOM or Node globals', () => {
  it('no node: imports, Buffer, process, window, document, DOMParser global', () => {
    const dir = new URL('.', import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const src = readFileSync(new URL(f, dir), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(src, f).not.toMatch(/from 'node:|\bBuffer\b|\bprocess\.|\bwindow\b|\bdocument\.|globalThis|new DOMParser\(\)/);
    }
  });
});
