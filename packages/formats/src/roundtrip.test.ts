import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Waypoint } from '@nest/contracts';
import type { ExportFormat, PlanDocument, PlanRoute } from './index.js';
import { exportPlanFile, importPlanFile } from './index.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

/**
 * Export then import keeps every coordinate to 1e-7 degrees and every height exactly, for every format.
 * Formats that hold one route (QGC plan, DJI KMZ) are given one; formats without fences or survey areas
 * (KMZ) are given none.
 */

const noNegZero = (v: number): number => v + 0;
const lat = fc.double({ min: -89.999, max: 89.999, noNaN: true }).map(noNegZero);
const lng = fc.double({ min: -180, max: 180, noNaN: true }).map(noNegZero);
const height = fc.oneof(
  fc.integer({ min: 1, max: 10_000 }),
  fc.double({ min: 0.01, max: 10_000, noNaN: true }),
);
const name = fc.constantFrom('A', '航线 1', 'North dam', '围栏-东', 'Survey <1> & "2"');
const ring = fc.array(fc.record({ lat, lng }), { minLength: 3, maxLength: 12 });

const waypoint = fc.record({ lat, lng, height });
const route = (max: number): fc.Arbitrary<PlanRoute> =>
  fc.record({
    name,
    mission_type: fc.constantFrom(1 as const, 3 as const),
    height_type: fc.constantFrom(0 as const, 1 as const),
    waypoints: fc.array(waypoint, { minLength: 1, maxLength: max }),
  });

const docOf = (opts: { routes: [number, number]; fences: number; surveys: number }): fc.Arbitrary<PlanDocument> =>
  fc.record({
    fences: fc.array(fc.record({ name, boundary: ring }), { maxLength: opts.fences }),
    routes: fc.array(route(25), { minLength: opts.routes[0], maxLength: opts.routes[1] }),
    surveys: fc.array(fc.record({ name, polygon: ring }), { maxLength: opts.surveys }),
  });

/** Distinct consecutive points, as the importer keeps rings. */
const dedupe = (r: { lat: number; lng: number }[]) => {
  const same = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
    Math.abs(a.lat - b.lat) <= 0.5e-7 && Math.abs(a.lng - b.lng) <= 0.5e-7;
  const out: { lat: number; lng: number }[] = [];
  for (const p of r) if (!out.length || !same(out.at(-1)!, p)) out.push(p);
  while (out.length > 1 && same(out[0]!, out.at(-1)!)) out.pop();
  return out;
};

const close = (a: { lat: number; lng: number }[], b: { lat: number; lng: number }[]): void => {
  expect(b.length).toBe(a.length);
  a.forEach((p, i) => {
    expect(Math.abs(b[i]!.lat - p.lat)).toBeLessThanOrEqual(1e-7);
    expect(Math.abs(b[i]!.lng - p.lng)).toBeLessThanOrEqual(1e-7);
  });
};

function roundTrip(doc: PlanDocument, format: ExportFormat): PlanDocument {
  const out = exportPlanFile(doc, format, { now: 0 });
  if (!out.ok) throw new Error(out.error.en);
  const back = importPlanFile(`x${out.ext}`, out.bytes);
  if (!back.ok) throw new Error(back.error.en);
  return back.doc;
}

function expectSameGeometry(doc: PlanDocument, back: PlanDocument, routesKept: number): void {
  const usable = (r: { lat: number; lng: number }[]) => dedupe(r).length >= 3;
  const fences = doc.fences.filter((f) => usable(f.boundary));
  const surveys = doc.surveys.filter((s) => usable(s.polygon));
  expect(back.fences.length).toBe(fences.length);
  fences.forEach((f, i) => close(dedupe(f.boundary), back.fences[i]!.boundary));
  expect(back.surveys.length).toBe(surveys.length);
  surveys.forEach((s, i) => close(dedupe(s.polygon), back.surveys[i]!.polygon));
  expect(back.routes.length).toBe(routesKept);
  for (let i = 0; i < routesKept; i++) {
    const a = doc.routes[i]!;
    const b = back.routes[i]!;
    close(a.waypoints, b.waypoints);
    expect(b.waypoints.map((w) => w.height)).toEqual(a.waypoints.map((w) => w.height));
    expect(b.height_type).toBe(a.height_type);
  }
}

const nonEmpty = (d: PlanDocument) =>
  d.routes.length > 0 || d.fences.some((f) => dedupe(f.boundary).length >= 3) || d.surveys.some((s) => dedupe(s.polygon).length >= 3);

describe('round trips keep coordinates to 1e-7 degrees and heights exactly', () => {
  it('KML', () => {
    fc.assert(
      fc.property(docOf({ routes: [0, 3], fences: 3, surveys: 2 }).filter(nonEmpty), (doc) => {
        const back = roundTrip(doc, 'kml');
        expectSameGeometry(doc, back, doc.routes.length);
        back.routes.forEach((r, i) => {
          expect(r.name).toBe(doc.routes[i]!.name);
          expect(r.mission_type).toBe(doc.routes[i]!.mission_type);
        });
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('GeoJSON', () => {
    fc.assert(
      fc.property(docOf({ routes: [0, 3], fences: 3, surveys: 2 }).filter(nonEmpty), (doc) => {
        const back = roundTrip(doc, 'geojson');
        expectSameGeometry(doc, back, doc.routes.length);
        back.fences.forEach((f, i) => expect(f.name).toBe(doc.fences.filter((x) => dedupe(x.boundary).length >= 3)[i]!.name));
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('QGC plan (one route, fences as geoFence polygons, surveys as ComplexItems)', () => {
    fc.assert(
      fc.property(docOf({ routes: [1, 1], fences: 3, surveys: 2 }), (doc) => {
        const back = roundTrip(doc, 'plan');
        expectSameGeometry(doc, back, 1);
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('DJI WPML KMZ (one route)', () => {
    fc.assert(
      fc.property(docOf({ routes: [1, 1], fences: 0, surveys: 0 }), (doc) => {
        const back = roundTrip(doc, 'kmz');
        expectSameGeometry(doc, back, 1);
      }),
      { numRuns: fuzzRuns(100) },
    );
  });
});

// ------------------------------------------------------------------------------------------------

const actions = fc.record(
  {
    uav_yaw: fc.double({ min: 0, max: 359.9, noNaN: true }).map(noNegZero),
    hover: fc.integer({ min: 1, max: 255 }),
    takephoto: fc.constantFrom(1 as const, 2 as const),
    gimbal_ctrl: fc.record({
      pitch: fc.double({ min: -180, max: 180, noNaN: true }).map(noNegZero),
      yaw: fc.double({ min: -180, max: 180, noNaN: true }).map(noNegZero),
    }),
    speed: fc.double({ min: 0.5, max: 30, noNaN: true }),
    cam_trig_dist: fc.double({ min: 0, max: 10_000, noNaN: true }).map(noNegZero),
  },
  { requiredKeys: [] },
);
const fullWaypoint: fc.Arbitrary<Waypoint> = fc
  .tuple(waypoint, actions)
  .map(([w, a]) => ({ ...w, ...a }) as Waypoint);
const settings = fc.record(
  {
    auto_speed: fc.double({ min: 0.5, max: 30, noNaN: true }),
    max_speed: fc.double({ min: 0.5, max: 30, noNaN: true }),
    default_height: fc.integer({ min: 1, max: 500 }),
    return_height: fc.integer({ min: 1, max: 500 }),
    finish_action: fc.constantFrom(10 as const, 20 as const, 30 as const, 40 as const),
    elevation: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('KML and GeoJSON keep waypoint actions and route settings', () => {
  for (const format of ['kml', 'geojson'] as const) {
    it(format, () => {
      fc.assert(
        fc.property(
          fc.record({ name, mission_type: fc.constant(1 as const), height_type: fc.constantFrom(0 as const, 1 as const), waypoints: fc.array(fullWaypoint, { minLength: 1, maxLength: 15 }), settings }),
          (r) => {
            const back = roundTrip({ fences: [], routes: [r], surveys: [] }, format);
            const got = back.routes[0]!;
            expect(got.waypoints).toEqual(r.waypoints);
            expect(got.settings ?? {}).toEqual(r.settings);
          },
        ),
        { numRuns: fuzzRuns(150) },
      );
    });
  }
});
