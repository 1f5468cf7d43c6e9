import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAMERA_6K,
  CAMERA_DUAL_LIGHT,
  cameraFromSettings,
  customCameraIssues,
  footprint,
  governingFootprint,
  gsdFromHeight,
  gsdSensor,
  heightFromGsd,
  lineSpacingFor,
  photoSensors,
  triggerDistanceFor,
  type CameraSensor,
} from './camera.js';
import { haversineDistance, type LatLng } from './coords.js';
import { prepareRing, segmentPointOutside } from './polygon.js';
import { surveyFromSettings, surveyGrid, surveyWaypointOptions, surveyWaypoints, sweepTransects, transectPhotoCount } from './survey.js';
import { flatTerrain, type TerrainProvider } from './terrain.js';
import { arbConcavePolygon, arbConvexPolygon, arbStarPolygon, combXY, lShape, metres, shape, square, toMetres, uShape } from './test-fixtures.js';
import { ringArea, validateRoute } from './validation.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

/** REFERENCE section 5 worked check: Mavic 3E wide camera. */
const MAVIC_3E: CameraSensor = {
  name: { zh: 'M3E', en: 'M3E' },
  sensorWidthMm: 17.3,
  sensorHeightMm: 13.0,
  imageWidthPx: 5280,
  imageHeightPx: 3956,
  focalLengthMm: 12.29,
};
const custom = { type: 'custom' as const, visible: MAVIC_3E };

describe('camera formulas', () => {
  it('match the worked numbers of REFERENCE section 5 (Mavic 3E at 100 m)', () => {
    const gsd = gsdFromHeight(MAVIC_3E, 100);
    expect(gsd).toBeCloseTo(2.67, 2);
    const print = footprint(MAVIC_3E, 100);
    expect(print.side).toBeCloseTo(140.8, 1);
    expect(print.front).toBeCloseTo(105.5, 1);
    expect(lineSpacingFor(print.side, 70)).toBeCloseTo(42.2, 1);
    expect(triggerDistanceFor(print.front, 80)).toBeCloseTo(21.1, 1);
    expect(heightFromGsd(MAVIC_3E, gsd)).toBeCloseTo(100, 9);
  });

  it('the survey grid reports the same spacing, trigger distance and GSD', () => {
    const g = surveyGrid(square(1000), { camera: custom, height: 100, frontOverlap: 80, sideOverlap: 70 });
    expect(g.gsd).toBeCloseTo(2.67, 2);
    expect(g.lineSpacing).toBeCloseTo(42.2, 1);
    expect(g.triggerDistance).toBeCloseTo(21.1, 1);
    // Asked by GSD instead of height.
    const byGsd = surveyGrid(square(1000), { camera: custom, gsd: g.gsd, frontOverlap: 80, sideOverlap: 70 });
    expect(byGsd.height).toBeCloseTo(100, 9);
  });

  it('documents the presets: 6k is a 1-inch 20 MP camera; dual-light is 12 MP visible + 640x512 thermal', () => {
    expect(CAMERA_6K.visible).toMatchObject({ sensorWidthMm: 13.2, sensorHeightMm: 8.8, imageWidthPx: 5472, imageHeightPx: 3648, focalLengthMm: 10.6 });
    expect(gsdFromHeight(CAMERA_6K.visible, 100)).toBeCloseTo(2.28, 2);
    const t = CAMERA_DUAL_LIGHT.thermal!;
    expect(t.sensorWidthMm / t.imageWidthPx).toBeCloseTo(0.012, 9); // 12 µm pixels
    expect(t.sensorHeightMm / t.imageHeightPx).toBeCloseTo(0.012, 9);
    expect(gsdFromHeight(t, 100)).toBeCloseTo(9.23, 2);
    expect(gsdFromHeight(CAMERA_DUAL_LIGHT.visible, 100)).toBeCloseTo(2.31, 2);
  });

  it('lets the thermal camera govern spacing whenever infrared photos are taken', () => {
    const h = 100;
    const vis = footprint(CAMERA_DUAL_LIGHT.visible, h);
    const ir = footprint(CAMERA_DUAL_LIGHT.thermal!, h);
    expect(ir.side).toBeLessThan(vis.side);
    expect(governingFootprint(CAMERA_DUAL_LIGHT, 2, h)).toEqual(vis);
    expect(governingFootprint(CAMERA_DUAL_LIGHT, 1, h)).toEqual(ir);
    expect(governingFootprint(CAMERA_DUAL_LIGHT, 3, h)).toEqual(ir);
    expect(photoSensors(CAMERA_DUAL_LIGHT, 3)).toHaveLength(2);
    expect(photoSensors(CAMERA_6K, 1)).toEqual([CAMERA_6K.visible]);
    expect(gsdSensor(CAMERA_DUAL_LIGHT, 1)).toBe(CAMERA_DUAL_LIGHT.thermal);
    expect(gsdSensor(CAMERA_DUAL_LIGHT, 3)).toBe(CAMERA_DUAL_LIGHT.visible);
    const both = surveyGrid(square(500), { camera: CAMERA_DUAL_LIGHT, photoType: 3, height: h, frontOverlap: 80, sideOverlap: 70 });
    expect(both.lineSpacing).toBeCloseTo(ir.side * 0.3, 9);
    expect(both.triggerDistance).toBeCloseTo(ir.front * 0.2, 9);
    expect(both.gsd).toBeCloseTo(gsdFromHeight(CAMERA_DUAL_LIGHT.visible, h), 9);
  });

  it('a custom camera needs all five numbers', () => {
    const settings = { camera_type: 'custom', sensor_width: 13.2, sensor_height: null, image_width: 5472.5, image_height: 3648, focal_length: 0 };
    expect(customCameraIssues(settings).map((i) => i.code)).toEqual(['camera.sensor_height', 'camera.image_width', 'camera.focal_length']);
    expect(customCameraIssues(settings)[0]!.text.en).toBe('A custom camera needs its sensor height (mm), above 0 and at most 100');
    expect(cameraFromSettings(settings)).toBeNull();
    const cam = cameraFromSettings({ ...settings, sensor_height: 8.8, image_width: 5472, focal_length: 8.8 });
    expect(cam?.visible.imageWidthPx).toBe(5472);
    expect(cameraFromSettings({ camera_type: '6k' })).toBe(CAMERA_6K);
    expect(cameraFromSettings({ camera_type: 'dual_light' })).toBe(CAMERA_DUAL_LIGHT);
  });
});

const settings = {
  camera_type: '6k' as const,
  photo_type: 2 as const,
  default_height: 100,
  course_overlap: 80,
  lateral_overlap: 70,
  angle: 0,
  turn_distance: 0,
};

/** Across-track positions (m) of the transects: the distance of each from the first, along the normal. */
function acrossTrack(transects: LatLng[][], angleDeg: number): number[] {
  const a = (angleDeg * Math.PI) / 180;
  return transects.map(([p]) => {
    const q = toMetres(p!);
    return q.x * Math.cos(a) - q.y * Math.sin(a);
  });
}

describe('survey grid', () => {
  it('covers a rectangle with evenly spaced, alternating north-south lines (angle 0)', () => {
    const area = shape([
      [0, 0],
      [1000, 0],
      [1000, 600],
      [0, 600],
    ]);
    const g = surveyGrid(area, { camera: CAMERA_6K, height: 100, frontOverlap: 80, sideOverlap: 70 });
    const count = Math.ceil(1000 / g.lineSpacing);
    expect(g.transects).toHaveLength(count);
    const s = acrossTrack(g.transects, 0).sort((x, y) => x - y);
    for (let i = 1; i < s.length; i++) expect(s[i]! - s[i - 1]!).toBeCloseTo(g.lineSpacing, 2);
    // Centred: the same margin on both sides, each under half a spacing.
    expect(s[0]!).toBeCloseTo(1000 - s[s.length - 1]!, 2);
    expect(s[0]!).toBeLessThanOrEqual(g.lineSpacing / 2 + 1e-9);
    g.transects.forEach(([a, b], i) => {
      const pa = toMetres(a!);
      const pb = toMetres(b!);
      expect(pa.x).toBeCloseTo(pb.x, 6); // north-south
      expect(Math.abs(pb.y - pa.y)).toBeCloseTo(600, 3);
      expect(pb.y > pa.y).toBe(i % 2 === 0); // lawnmower: up, down, up...
    });
    const photos = g.transects.reduce((n, [a, b]) => n + Math.floor(haversineDistance(a!, b!) / g.triggerDistance + 1e-9) + 1, 0);
    expect(g.photoCount).toBe(photos);
    expect(g.photoCount).toBe(count * (Math.floor(600 / g.triggerDistance) + 1));
    expect(g.waypoints).toHaveLength(2 * count);
    expect(g.area).toBeCloseTo(600_000, -3);
    expect(g.length).toBeGreaterThan(count * 600);
  });

  it('turns the lines with the angle (90: east-west)', () => {
    const g = surveyGrid(square(500), { camera: CAMERA_6K, height: 100, frontOverlap: 80, sideOverlap: 70, angle: 90 });
    for (const [a, b] of g.transects) {
      expect(toMetres(a!).y).toBeCloseTo(toMetres(b!).y, 6);
      expect(Math.abs(toMetres(b!).x - toMetres(a!).x)).toBeCloseTo(500, 3);
    }
    const s = acrossTrack(g.transects, 90).sort((x, y) => x - y);
    for (let i = 1; i < s.length; i++) expect(s[i]! - s[i - 1]!).toBeCloseTo(g.lineSpacing, 2);
  });

  it('counts photos per transect: one at the entry and one every trigger distance', () => {
    expect(transectPhotoCount(0, 20)).toBe(1);
    expect(transectPhotoCount(19.9, 20)).toBe(1);
    expect(transectPhotoCount(20, 20)).toBe(2);
    expect(transectPhotoCount(100, 20)).toBe(6);
  });

  it('never spans the gap of a U: lines across both arms split, arms flown one after the other', () => {
    const u = uShape(300, 300, 100, 100);
    const g = surveyGrid(u, { camera: CAMERA_6K, height: 100, frontOverlap: 80, sideOverlap: 70, angle: 90 });
    const ring = prepareRing(u);
    for (const [a, b] of g.transects) expect(segmentPointOutside(a!, b!, ring, 0.01)).toBeNull();
    // Lines above the base (y > 100) are cut into two transects of 100 m each.
    const upper = g.transects.filter(([a]) => toMetres(a!).y > 100);
    expect(upper.length).toBeGreaterThan(0);
    for (const [a, b] of upper) expect(haversineDistance(a!, b!)).toBeCloseTo(100, 1);
    // Hops between transects: one spacing within a cell (arm, base, arm), at most two longer hops, and
    // even those run inside the U rather than across its gap.
    const hops = g.transects.slice(1).map((t, i) => haversineDistance(g.transects[i]![1]!, t[0]!));
    expect(hops.filter((h) => h > g.lineSpacing + 0.01).length).toBeLessThanOrEqual(2);
    g.transects.slice(1).forEach((t, i) => expect(segmentPointOutside(g.transects[i]![1]!, t[0]!, ring, 0.01)).toBeNull());
  });

  it('splits an L and a comb the same way', () => {
    for (const area of [lShape(600, 600, 150), shape(combXY(4, 120, 500))]) {
      for (const angle of [0, 30, 90, 135]) {
        const g = surveyGrid(area, { camera: CAMERA_6K, height: 60, frontOverlap: 80, sideOverlap: 70, angle });
        const ring = prepareRing(area);
        for (const [a, b] of g.transects) expect(segmentPointOutside(a!, b!, ring, 0.01)).toBeNull();
        const total = g.transects.reduce((s, [a, b]) => s + haversineDistance(a!, b!), 0);
        expect(Math.abs(total * g.lineSpacing - g.area) / g.area).toBeLessThan(0.06);
      }
    }
  });

  it('enters at the corner nearest the start point', () => {
    const area = square(600);
    const params = { camera: CAMERA_6K, height: 100, frontOverlap: 80, sideOverlap: 70 };
    for (const [sx, sy] of [
      [-50, -50],
      [650, -50],
      [-50, 650],
      [650, 650],
    ] as const) {
      const g = surveyGrid(area, { ...params, start: metres(sx, sy) });
      const entry = toMetres(g.transects[0]![0]!);
      expect(Math.sign(entry.x - 300)).toBe(Math.sign(sx - 300));
      expect(Math.sign(entry.y - 300)).toBe(Math.sign(sy - 300));
      // Still a lawnmower with one-spacing hops.
      const hops = g.transects.slice(1).map((t, i) => haversineDistance(g.transects[i]![1]!, t[0]!));
      for (const h of hops) expect(h).toBeCloseTo(g.lineSpacing, 1);
    }
  });

  it('adds run-in and run-out points by the turn distance, on the line', () => {
    const g = surveyGrid(square(400), { camera: CAMERA_6K, height: 100, frontOverlap: 80, sideOverlap: 70, turnDistance: 15 });
    expect(g.waypoints).toHaveLength(4 * g.transects.length);
    expect(g.roles.slice(0, 4)).toEqual(['run_in', 'entry', 'exit', 'run_out']);
    g.transects.forEach(([a, b], i) => {
      const [rin, entry, exit, rout] = g.waypoints.slice(4 * i, 4 * i + 4) as [LatLng, LatLng, LatLng, LatLng];
      expect(entry).toEqual(a);
      expect(exit).toEqual(b);
      expect(haversineDistance(rin, entry)).toBeCloseTo(15, 3);
      expect(haversineDistance(exit, rout)).toBeCloseTo(15, 3);
      expect(haversineDistance(rin, rout)).toBeCloseTo(haversineDistance(a!, b!) + 30, 3);
    });
  });

  it('refuses impossible parameters and answers nothing for a degenerate area', () => {
    const p = { camera: CAMERA_6K, height: 100, frontOverlap: 80, sideOverlap: 70 };
    expect(() => surveyGrid(square(100), { ...p, height: 0 })).toThrow(RangeError);
    expect(() => surveyGrid(square(100), { ...p, height: undefined })).toThrow(RangeError);
    expect(() => surveyGrid(square(100), { ...p, sideOverlap: 100 })).toThrow(RangeError);
    expect(() => surveyGrid(square(100), { ...p, turnDistance: -1 })).toThrow(RangeError);
    expect(() => sweepTransects(square(100_000), { lineSpacing: 0.1 })).toThrow(RangeError);
    expect(surveyGrid([metres(0, 0), metres(10, 0)], p).transects).toEqual([]);
    // A sliver narrower than one spacing still gets its one middle line.
    const sliver = shape([
      [0, 0],
      [500, 0],
      [500, 5],
      [0, 5],
    ]);
    const g = surveyGrid(sliver, { ...p, angle: 90 });
    expect(g.transects).toHaveLength(1);
    expect(toMetres(g.transects[0]![0]!).y).toBeCloseTo(2.5, 6);
  });

  it('builds from task settings, or answers the custom camera issues', () => {
    const r = surveyFromSettings(square(300), settings);
    expect(r.grid?.transects.length).toBeGreaterThan(0);
    const bad = surveyFromSettings(square(300), { ...settings, camera_type: 'custom', sensor_width: null });
    expect(bad.grid).toBeNull();
    expect(bad.issues.length).toBeGreaterThan(0);
  });
});

describe('survey properties', () => {
  const params = (angle: number) => ({ camera: CAMERA_6K, height: 40, frontOverlap: 75, sideOverlap: 60, angle, turnDistance: 0 });

  const insideChecks = (area: LatLng[], angle: number) => {
    const g = surveyGrid(area, params(angle));
    const ring = prepareRing(area);
    expect(g.transects.length).toBeGreaterThan(0);
    for (const [a, b] of g.transects) {
      // Ends inside or on the area within 1e-6 degrees (about 0.1 m), and nothing in between outside.
      for (const p of [a!, b!]) expect(ring.contains(p, 0.1)).toBe(true);
      expect(segmentPointOutside(a!, b!, ring, 0.01)).toBeNull();
    }
    return g;
  };

  it('keeps every transect inside random convex areas and sweeps their area', () => {
    fc.assert(
      fc.property(arbConvexPolygon(), fc.double({ min: 0, max: 360, noNaN: true }), (area, angle) => {
        const g = insideChecks(area, angle);
        // Spacing between neighbouring lines is the formula's; length x spacing approximates the area.
        const s = [...new Set(acrossTrack(g.transects, angle).map((v) => Math.round(v * 1e6) / 1e6))].sort((x, y) => x - y);
        for (let i = 1; i < s.length; i++) expect(s[i]! - s[i - 1]!).toBeCloseTo(g.lineSpacing, 3);
        const total = g.transects.reduce((sum, [a, b]) => sum + haversineDistance(a!, b!), 0);
        // Each strip's chord differs from its mean width by at most the chord's change across the strip, and
        // those changes sum to at most twice the diameter over a convex area: |error| <= spacing x diameter.
        // Large areas are held to 10 %; tiny ones (a few lines) to that bound.
        const diameter = Math.max(...area.flatMap((a) => area.map((b) => haversineDistance(a, b))));
        const tolerance = Math.max(0.1, (g.lineSpacing * diameter) / ringArea(area));
        expect(Math.abs(total * g.lineSpacing - ringArea(area)) / ringArea(area)).toBeLessThan(tolerance);
        const photos = g.transects.reduce((n, [a, b]) => n + transectPhotoCount(haversineDistance(a!, b!), g.triggerDistance), 0);
        expect(g.photoCount).toBe(photos);
      }),
      { numRuns: fuzzRuns(60) },
    );
  });

  it('keeps every transect inside random concave areas (L, U, comb, star) and never crosses a gap', () => {
    fc.assert(
      fc.property(fc.oneof(arbConcavePolygon(), arbStarPolygon(undefined, 100, 1200)), fc.double({ min: 0, max: 360, noNaN: true }), (area, angle) => {
        insideChecks(area, angle);
      }),
      { numRuns: fuzzRuns(120) },
    );
  });
});

describe('survey waypoints', () => {
  it('set the trigger distance at each entry, stop it at each exit, hold the height on flat ground', async () => {
    const g = surveyGrid(square(300), { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, turnDistance: 10 });
    const { waypoints, note } = await surveyWaypoints(g, { height: 80, heightType: 0, speed: 8 });
    expect(note?.en).toMatch(/No terrain data/);
    expect(waypoints).toHaveLength(g.waypoints.length);
    expect(waypoints[0]!.speed).toBe(8);
    expect(waypoints[1]!.cam_trig_dist).toBeCloseTo(g.triggerDistance, 2);
    expect(waypoints[2]!.cam_trig_dist).toBe(0);
    expect(waypoints[0]!.cam_trig_dist).toBeUndefined();
    expect(waypoints.every((w) => w.height === 80)).toBe(true);
    // A valid route inside a fence a little larger than the area (run-ins leave the area itself).
    const fenceRing = shape([
      [-30, -30],
      [330, -30],
      [330, 330],
      [-30, 330],
    ]);
    expect(validateRoute({ mission_type: 2, height_type: 0, waypoints }, { boundary: fenceRing, max_height: 120 })).toEqual([]);
  });

  it('follow a sloping terrain, keeping only the points the tolerance needs', async () => {
    // Ground rises 1 m per 10 m eastwards, plus a 30 m hill around x = 150.
    const slope: TerrainProvider = {
      kind: 'tiles',
      elevations: (pts) =>
        Promise.resolve(
          pts.map((p) => {
            const { x } = toMetres(p);
            return 100 + x / 10 + 30 * Math.exp(-(((x - 150) / 40) ** 2));
          }),
        ),
    };
    const g = surveyGrid(square(300), { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, angle: 90 });
    const takeoff = metres(0, 0);
    const { waypoints, note } = await surveyWaypoints(g, { height: 80, heightType: 0, terrain: slope, takeoff, sampleSpacingM: 5, toleranceM: 1 });
    expect(note).toBeUndefined();
    expect(waypoints.length).toBeGreaterThan(g.waypoints.length); // hill points added
    const ground = await slope.elevations(waypoints);
    const base = (await slope.elevations([takeoff]))[0]!;
    for (let i = 0; i < waypoints.length; i++) expect(waypoints[i]!.height).toBeCloseTo(ground[i]! - base + 80, 1);
    // Between kept points, the straight flight stays within the tolerance of 80 m above ground.
    for (let i = 0; i + 1 < waypoints.length; i++) {
      const a = waypoints[i]!;
      const b = waypoints[i + 1]!;
      for (let k = 1; k < 10; k++) {
        const f = k / 10;
        const p = { lat: a.lat + f * (b.lat - a.lat), lng: a.lng + f * (b.lng - a.lng) };
        const want = (await slope.elevations([p]))[0]! - base + 80;
        expect(Math.abs(a.height + f * (b.height - a.height) - want)).toBeLessThan(1 + 0.2);
      }
    }
    // Altitude heights: ground + h.
    const amsl = await surveyWaypoints(g, { height: 80, heightType: 1, terrain: slope, sampleSpacingM: 5 });
    const g2 = await slope.elevations(amsl.waypoints);
    amsl.waypoints.forEach((w, i) => expect(w.height).toBeCloseTo(g2[i]! + 80, 1));
  });

  it('take their options from task settings', () => {
    const base = { default_height: 90, height_type: 0 as const, auto_speed: 9, elevation: false, interval_height: 0 };
    expect(surveyWaypointOptions(base)).toEqual({ height: 90, heightType: 0, speed: 9 });
    const ramp = flatTerrain(12);
    const follow = surveyWaypointOptions({ ...base, elevation: true, interval_height: 3 }, ramp, metres(0, 0));
    expect(follow).toEqual({ height: 90, heightType: 0, speed: 9, terrain: ramp, toleranceM: 3, takeoff: metres(0, 0) });
    expect(surveyWaypointOptions({ ...base, elevation: true }).terrain?.kind).toBe('flat');
  });
});
