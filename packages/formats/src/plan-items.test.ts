import fc from 'fast-check';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { PlanDocument } from './index.js';
import { exportPlanFile, importPlanFile } from './index.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

/**
 * QGC items the console cannot hold as they are: each is noted by its number with what was done, and a
 * .plan written back says what the file said. Strip scans (CorridorScan) and the terrain-following
 * tolerance (interval_height = TerrainAdjustTolerance) travel both ways.
 */

type Item = Record<string, unknown>;
const wp = (lat: number, lng: number, alt: number | null, extra: Item = {}): Item => ({
  type: 'SimpleItem',
  command: 16,
  frame: 3,
  AltitudeMode: 1,
  Altitude: alt,
  params: [0, 0, 0, null, lat, lng, alt],
  ...extra,
});
const cmd = (command: number, params: (number | null)[]): Item => ({ type: 'SimpleItem', command, frame: 2, params });
const planOf = (items: Item[]) => strToU8(JSON.stringify({ fileType: 'Plan', version: 1, mission: { version: 2, items, hoverSpeed: 5, vehicleType: 2 } }));

function read(bytes: Uint8Array, name = 'm.plan') {
  const r = importPlanFile(name, bytes);
  if (!r.ok) throw new Error(r.error.en);
  return r;
}
function again(doc: PlanDocument) {
  const out = exportPlanFile(doc, 'plan');
  if (!out.ok) throw new Error(out.error.en);
  return { back: read(out.bytes), plan: JSON.parse(new TextDecoder().decode(out.bytes)) as { mission: { items: Item[] } } };
}

describe('items the console cannot hold', () => {
  const r = read(
    planOf([
      wp(47.1, 8.1, 50),
      cmd(2500, [0, 0, 0, 0, 0, 0, 0]), // VIDEO_START_CAPTURE
      cmd(2000, [0, 2, 0, 0, null, null, null]), // interval capture
      wp(47.2, 8.2, null), // no altitude
      { ...wp(47.3, 8.3, 60), params: [300.5, 0, 0, null, 47.3, 8.3, 60] }, // hold beyond 255 s, not whole
      cmd(93, [4, 0, 0, 0, 0, 0, 0]), // NAV_DELAY
      cmd(115, [30, 0, 0, 1, 0, 0, 0]), // relative yaw
      wp(47.4, 8.4, 0), // at the take-off point's level
    ]),
  );
  const notes = r.warnings.map((w) => w.en).filter((w) => w.startsWith('Item '));

  it('notes each by number, command and what was done', () => {
    expect(notes).toEqual([
      'Item 2 (MAV_CMD 2500 VIDEO_START_CAPTURE): not supported by the console; left out',
      'Item 3 (MAV_CMD 2000 IMAGE_START_CAPTURE): interval capture is not a waypoint action; left out',
      "Item 4 (MAV_CMD 16 NAV_WAYPOINT): no altitude: the route's default height 100 m applies (a .plan export leaves it without altitude)",
      "Item 5 (MAV_CMD 16 NAV_WAYPOINT): hold 304.5 s: the console's route keeps 255 s; a .plan export keeps the file's value",
      'Item 6 (MAV_CMD 93 NAV_DELAY): the 4 s delay was added to the hover at waypoint 3',
      'Item 7 (MAV_CMD 115 CONDITION_YAW): relative yaw is not supported; left out',
      "Item 8 (MAV_CMD 16 NAV_WAYPOINT): altitude 0 m is not above the take-off point: the route's default height 100 m applies (a .plan export keeps the file's value)",
    ]);
    expect(r.warnings.find((w) => w.en.startsWith('Item 2 '))!.zh).toBe('第 2 项（MAV_CMD 2500 VIDEO_START_CAPTURE）：控制台不支持，已省略');
  });
  it('keeps what the file said for a .plan written back', () => {
    const wps = r.doc.routes[0]!.waypoints;
    expect(wps[1]).toMatchObject({ height: 100, file_alt: null });
    expect(wps[2]).toMatchObject({ hover: 255, hold: 304.5 });
    expect(wps[3]).toMatchObject({ height: 100, file_alt: 0 });
    const { back, plan } = again(r.doc);
    expect(back.doc).toEqual(r.doc);
    const nav = plan.mission.items.filter((i) => i.command === 16);
    expect(nav.map((i) => (i.params as unknown[])[6])).toEqual([50, null, 60, 0]);
    expect((nav[2]!.params as unknown[])[0]).toBe(304.5);
  });
});

describe('strip scans and the terrain-following tolerance', () => {
  const transect = (extra: Item = {}): Item => ({
    version: 2,
    TurnAroundDistance: 12,
    FollowTerrain: true,
    TerrainAdjustTolerance: 7,
    TerrainAdjustMaxClimbRate: 0,
    TerrainAdjustMaxDescentRate: 0,
    CameraCalc: { version: 1, CameraName: 'Custom Camera', DistanceToSurface: 80, DistanceToSurfaceRelative: true, SensorWidth: 13.2, SensorHeight: 8.8, ImageWidth: 5472, ImageHeight: 3648, FocalLength: 10.6, FrontalOverlap: 75, SideOverlap: 60 },
    ...extra,
  });
  const bytes = planOf([
    { type: 'ComplexItem', complexItemType: 'CorridorScan', version: 2, CorridorWidth: 40, EntryPoint: 0, polyline: [[47.1, 8.1], [47.11, 8.12], [47.12, 8.12]], TransectStyleComplexItem: transect() },
    { type: 'ComplexItem', complexItemType: 'survey', version: 5, angle: 20, polygon: [[47.1, 8.1], [47.1, 8.11], [47.11, 8.11]], TransectStyleComplexItem: transect() },
  ]);
  const r = read(bytes);

  it('a CorridorScan is a strip scan with its line, width and settings; TerrainAdjustTolerance is interval_height', () => {
    expect(r.doc.corridors).toEqual([
      {
        name: 'm corridor',
        line: [{ lat: 47.1, lng: 8.1 }, { lat: 47.11, lng: 8.12 }, { lat: 47.12, lng: 8.12 }],
        width: 40,
        params: {
          turn_distance: 12,
          course_overlap: 75,
          lateral_overlap: 60,
          default_height: 80,
          height_type: 0,
          elevation: true,
          interval_height: 7,
          camera_name: 'Custom Camera',
          camera_type: 'custom',
          sensor_width: 13.2,
          sensor_height: 8.8,
          image_width: 5472,
          image_height: 3648,
          focal_length: 10.6,
        },
      },
    ]);
    expect(r.doc.surveys[0]!.params).toMatchObject({ interval_height: 7, elevation: true, angle: 20 });
  });
  it('written back as a CorridorScan and a survey with their tolerance; KML and GeoJSON keep them too', () => {
    const { back, plan } = again(r.doc);
    expect(back.doc.corridors).toEqual(r.doc.corridors);
    expect(back.doc.surveys).toEqual(r.doc.surveys);
    const complex = plan.mission.items.filter((i) => i.type === 'ComplexItem');
    expect(complex.map((i) => [i.complexItemType, (i.TransectStyleComplexItem as Item).TerrainAdjustTolerance])).toEqual([
      ['survey', 7],
      ['CorridorScan', 7],
    ]);
    for (const format of ['kml', 'geojson'] as const) {
      const out = exportPlanFile(r.doc, format);
      if (!out.ok) throw new Error(out.error.en);
      const other = read(out.bytes, `m${out.ext}`);
      expect(other.doc.corridors, format).toEqual(r.doc.corridors);
      expect(other.doc.surveys, format).toEqual(r.doc.surveys);
    }
  });
});

describe('property: .plan -> .plan reads back equal, whatever the items', () => {
  const noNegZero = (v: number): number => v + 0;
  const lat = fc.double({ min: -80, max: 80, noNaN: true }).map(noNegZero);
  const lng = fc.double({ min: -179, max: 179, noNaN: true }).map(noNegZero);
  const alt = fc.oneof(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0.5, max: 3000, noNaN: true }));
  const frame = fc.constantFrom(
    { frame: 3, AltitudeMode: 1 },
    { frame: 0, AltitudeMode: 2 },
    { frame: 10, AltitudeMode: 4 },
    { frame: 0, AltitudeMode: 3 },
  );
  const nav: fc.Arbitrary<Item[]> = fc
    .record({
      lat,
      lng,
      alt: fc.option(alt, { nil: null }),
      frame,
      hold: fc.oneof(fc.constant(0), fc.double({ min: 0.1, max: 600, noNaN: true })),
      loiter: fc.boolean(),
      radius: fc.integer({ min: 0, max: 80 }),
      yaw: fc.option(fc.integer({ min: 0, max: 359 }), { nil: null }),
    })
    .map((w) => [
      {
        type: 'SimpleItem',
        command: w.loiter ? 19 : 16,
        ...w.frame,
        Altitude: w.alt,
        params: w.loiter ? [w.hold, 0, w.radius, 0, w.lat, w.lng, w.frame.AltitudeMode === 3 ? null : w.alt] : [w.hold, 0, 0, w.yaw, w.lat, w.lng, w.frame.AltitudeMode === 3 ? null : w.alt],
      },
    ]);
  const action: fc.Arbitrary<Item[]> = fc.oneof(
    fc.double({ min: 0.5, max: 20, noNaN: true }).map((v) => [cmd(178, [1, v, -1, 0, 0, 0, 0])]),
    fc.integer({ min: 0, max: 500 }).map((d) => [cmd(206, [d, 0, 1, 0, 0, 0, 0])]),
    fc.integer({ min: -90, max: 0 }).map((p) => [cmd(205, [p, 0, 0, 0, 0, 0, 2])]),
    fc.constant<Item[]>([cmd(2000, [0, 0, 1, 0, null, null, null])]),
    fc.tuple(lat, lng).map(([a, b]) => [{ type: 'SimpleItem', command: 195, frame: 3, AltitudeMode: 1, Altitude: 0, params: [0, 0, 0, 0, a, b, 0] }]),
    fc.constant<Item[]>([cmd(197, [0, 0, 0, 0, 0, 0, 0])]),
    fc.constant<Item[]>([cmd(2500, [0, 0, 0, 0, 0, 0, 0])]),
  );
  const takeoff: fc.Arbitrary<Item[]> = fc
    .option(fc.record({ lat, lng, alt, frame, amsl: alt }), { nil: null })
    .map((t) =>
      t ? [{ type: 'SimpleItem', command: 22, ...t.frame, Altitude: t.alt, params: [0, 0, 0, null, t.lat, t.lng, t.frame.AltitudeMode === 3 ? t.amsl : t.alt] }] : [],
    );
  const finish: fc.Arbitrary<Item[]> = fc.oneof(
    fc.constant<Item[]>([]),
    fc.constant<Item[]>([cmd(20, [0, 0, 0, 0, 0, 0, 0])]),
    fc.tuple(lat, lng).map(([a, b]) => [{ type: 'SimpleItem', command: 21, frame: 3, params: [0, 0, 0, null, a, b, 0] }]),
  );
  const mission = fc
    .tuple(takeoff, fc.array(fc.tuple(nav, fc.array(action, { maxLength: 2 })), { minLength: 1, maxLength: 8 }), finish)
    .map(([t, body, f]) => [...t, ...body.flatMap(([n, a]) => [...n, ...a.flat()]), ...f]);

  it('every item the console can represent is kept; a second reading equals the first', () => {
    fc.assert(
      fc.property(mission, (items) => {
        const first = read(planOf(items));
        const { back } = again(first.doc);
        expect(back.doc).toEqual(first.doc);
        const navs = items.filter((i) => i.command === 16 || i.command === 19);
        const wps = first.doc.routes[0]!.waypoints;
        expect(wps.length).toBe(navs.length);
        navs.forEach((n, i) => {
          const p = n.params as (number | null)[];
          expect([wps[i]!.lat, wps[i]!.lng]).toEqual([p[4], p[5]]);
          if (n.command === 19) expect(wps[i]!.loiter).toEqual({ radius: p[2] });
        });
      }),
      { numRuns: fuzzRuns(60) },
    );
  });
});
