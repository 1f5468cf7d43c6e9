import fc from 'fast-check';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { NoFlyShape, calls } from '@nest/contracts';
import type { ExportFormat, PlanDocument, PlanNoFly } from './index.js';
import { checkAgainstTask, exportPlanFile, importPlanFile, noFlyAddFields } from './index.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

/** No-fly zones in KML, GeoJSON (ours and DJI's custom flight areas) and QGC plans. */

const read = (name: string, text: string) => {
  const r = importPlanFile(name, strToU8(text));
  if (!r.ok) throw new Error(r.error.en);
  return r;
};

const kml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>doc</name>${body}</Document></kml>`;
const square = '120,30 120.001,30 120.001,30.001 120,30.001 120,30';

describe('KML', () => {
  it('a polygon is a no-fly zone by kind, by its name or by its folder name; other polygons stay fences', () => {
    const r = read(
      'zones.kml',
      kml(
        `<Placemark><name>School</name><ExtendedData><Data name="kind"><value>nofly</value></Data><Data name="reason"><value>Pupils</value></Data></ExtendedData><Polygon><outerBoundaryIs><LinearRing><coordinates>${square}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>` +
          `<Placemark><name>NFZ substation</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${square}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>` +
          `<Folder><name>禁飞区</name><Placemark><name>广场</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${square}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></Folder>` +
          `<Placemark><name>Work area</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${square}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`,
      ),
    );
    expect(r.doc.noFlyZones!.map((z) => [z.name, z.shape, z.boundary.length, z.reason])).toEqual([
      ['School', NoFlyShape.POLYGON, 4, 'Pupils'],
      ['NFZ substation', NoFlyShape.POLYGON, 4, undefined],
      ['广场', NoFlyShape.POLYGON, 4, undefined],
    ]);
    expect(r.doc.fences.map((f) => f.name)).toEqual(['Work area']);
  });
  it('a point with a radius marked no-fly is a circle; points without it stay waypoints; a bad radius is warned', () => {
    const r = read(
      'zones.kml',
      kml(
        '<Folder><name>No-fly</name><Placemark><name>Crowd</name><ExtendedData><Data name="radius"><value>150</value></Data></ExtendedData><Point><coordinates>120.5,30.5</coordinates></Point></Placemark>' +
          '<Placemark><name>Too big</name><ExtendedData><Data name="radius"><value>60000</value></Data></ExtendedData><Point><coordinates>120.5,30.5</coordinates></Point></Placemark></Folder>' +
          '<Folder><name>Route</name><Placemark><name>WP1</name><Point><coordinates>120.1,30.1,50</coordinates></Point></Placemark><Placemark><name>WP2</name><Point><coordinates>120.2,30.1,50</coordinates></Point></Placemark></Folder>',
      ),
    );
    expect(r.doc.noFlyZones).toEqual([{ name: 'Crowd', shape: NoFlyShape.CIRCLE, boundary: [], center: { lat: 30.5, lng: 120.5 }, radius: 150 }]);
    expect(r.doc.routes.map((x) => x.waypoints.length)).toEqual([2]);
    expect(r.warnings.map((w) => w.en)).toContain('No-fly zone "Too big": radius 60000 m is invalid (above 0 and at most 50,000 m); skipped');
  });
});

describe('GeoJSON', () => {
  it("reads DJI's custom flight areas: nfz circles and polygons are no-fly zones, dfence areas fences", () => {
    const file = {
      type: 'FeatureCollection',
      features: [
        { id: '0b8b4a4f-9b5c-4b39-8a1f-1c3c9c3f0a11', type: 'Feature', geofenceType: 'nfz', geometry: { type: 'Point', coordinates: [113.94, 22.54] }, properties: { subType: 'Circle', radius: 120, enable: true } },
        { id: '7f1d2a55-4c3b-4a8e-9b61-2d4f5e6a7b8c', type: 'Feature', geofenceType: 'nfz', geometry: { type: 'Polygon', coordinates: [[[113.9, 22.5], [113.91, 22.5], [113.91, 22.51], [113.9, 22.5]]] }, properties: { enable: true } },
        { id: '3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a99', type: 'Feature', geofenceType: 'dfence', geometry: { type: 'Polygon', coordinates: [[[113.8, 22.4], [114, 22.4], [114, 22.6], [113.8, 22.4]]] }, properties: { enable: true } },
      ],
    };
    const r = read('areas.json', JSON.stringify(file));
    expect(r.doc.noFlyZones!.map((z) => [z.shape, z.radius, z.boundary.length])).toEqual([
      [NoFlyShape.CIRCLE, 120, 0],
      [NoFlyShape.POLYGON, null, 3],
    ]);
    expect(r.doc.fences).toHaveLength(1);
  });
  it('writes zones with both our kind and DJI fields', () => {
    const doc: PlanDocument = {
      fences: [],
      routes: [],
      surveys: [],
      noFlyZones: [{ name: 'Crowd', reason: 'Fair', shape: NoFlyShape.CIRCLE, boundary: [], center: { lat: 22.5, lng: 113.9 }, radius: 80 }],
    };
    const out = exportPlanFile(doc, 'geojson');
    if (!out.ok) throw new Error(out.error.en);
    const f = (JSON.parse(new TextDecoder().decode(out.bytes)) as { features: Record<string, unknown>[] }).features[0]!;
    expect(f).toMatchObject({ geofenceType: 'nfz', properties: { kind: 'nofly', subType: 'Circle', radius: 80, reason: 'Fair', name: 'Crowd' }, geometry: { type: 'Point', coordinates: [113.9, 22.5] } });
  });
});

describe('QGC plan', () => {
  it('exclusion circles are no-fly circles; inclusion circles stay fences', () => {
    const plan = {
      fileType: 'Plan',
      version: 1,
      mission: { version: 2, items: [] },
      geoFence: {
        version: 2,
        polygons: [],
        circles: [
          { version: 1, inclusion: false, circle: { center: [47.39, 8.54], radius: 75.5 } },
          { version: 1, inclusion: true, circle: { center: [47.39, 8.54], radius: 500 } },
        ],
      },
    };
    const r = read('fence.plan', JSON.stringify(plan));
    expect(r.doc.noFlyZones).toEqual([{ name: 'fence NFZ 1', shape: NoFlyShape.CIRCLE, boundary: [], center: { lat: 47.39, lng: 8.54 }, radius: 75.5 }]);
    expect(r.doc.fences).toHaveLength(1);
  });
});

describe("checkAgainstTask(doc, 'nofly')", () => {
  const polygon = (name: string, boundary: { lat: number; lng: number }[]): PlanNoFly => ({ name, shape: NoFlyShape.POLYGON, boundary, center: null, radius: null });
  it('takes every usable zone; a polygon that crosses itself is skipped with its reason', () => {
    const good = polygon('School', [{ lat: 0, lng: 0 }, { lat: 0, lng: 0.01 }, { lat: 0.01, lng: 0.01 }]);
    const bow = polygon('Bow', [{ lat: 0, lng: 0 }, { lat: 0.01, lng: 0.01 }, { lat: 0, lng: 0.01 }, { lat: 0.01, lng: 0 }]);
    const circle: PlanNoFly = { name: 'Crowd', shape: NoFlyShape.CIRCLE, boundary: [], center: { lat: 1, lng: 1 }, radius: 30 };
    const c = checkAgainstTask({ fences: [], routes: [], surveys: [], noFlyZones: [good, bow, circle] }, 'nofly');
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.item.map((z) => z.name)).toEqual(['School', 'Crowd']);
    expect(c.warnings.map((w) => w.en)).toEqual(['Fence "Bow" crosses itself']);
  });
  it('a file without zones is refused, saying what it holds', () => {
    const c = checkAgainstTask({ fences: [{ name: 'F', boundary: [{ lat: 0, lng: 0 }, { lat: 0, lng: 1 }, { lat: 1, lng: 1 }] }], routes: [], surveys: [] }, 'nofly');
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toEqual({ zh: '文件中没有禁飞区（文件包含 1 个围栏）', en: 'The file contains no no-fly zone (it contains 1 fence)' });
  });
});

describe('noFlyAddFields', () => {
  it('gives a request the noFlyAdd call accepts, for a polygon and a circle', () => {
    const zones: PlanNoFly[] = [
      { name: 'School', reason: 'Pupils', shape: NoFlyShape.POLYGON, boundary: [{ lat: 1, lng: 1 }, { lat: 1, lng: 2 }, { lat: 2, lng: 2 }], center: null, radius: null },
      { name: 'Crowd', shape: NoFlyShape.CIRCLE, boundary: [], center: { lat: 1, lng: 1 }, radius: 50 },
    ];
    for (const z of zones) {
      const parsed = calls.noFlyAdd.fields.safeParse(noFlyAddFields(z));
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });
});

describe('property: no-fly zones survive KML, GeoJSON and QGC plans', () => {
  const noNegZero = (v: number): number => v + 0;
  const lat = fc.double({ min: -89.9, max: 89.9, noNaN: true }).map(noNegZero);
  const lng = fc.double({ min: -179.9, max: 179.9, noNaN: true }).map(noNegZero);
  const name = fc.constantFrom('School', '变电站', 'Crowd <A> & "B"');
  const reason = fc.option(fc.constantFrom('Pupils', '人群聚集'), { nil: undefined });
  // Three points at least 0.001 degrees apart, so none collapse into another.
  const ring = fc
    .tuple(lat, lng, fc.array(fc.tuple(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 1, max: 90 })), { minLength: 2, maxLength: 8 }))
    .map(([a, b, steps]) => {
      const out = [{ lat: a, lng: b }];
      steps.forEach(([dy, dx], i) => out.push({ lat: Math.max(-89.99, Math.min(89.99, a + (dy * (i + 1)) / 1000)), lng: b + (dx * (i % 2 ? -1 : 1)) / 1000 }));
      return out;
    });
  const zone: fc.Arbitrary<PlanNoFly> = fc.oneof(
    fc.record({ name, reason, boundary: ring }).map(({ name: n, reason: r, boundary }) => ({ name: n, ...(r ? { reason: r } : {}), shape: NoFlyShape.POLYGON, boundary, center: null, radius: null })),
    fc.record({ name, reason, lat, lng, radius: fc.double({ min: 1, max: 50_000, noNaN: true }) }).map(({ name: n, reason: r, lat: a, lng: b, radius }) => ({
      name: n,
      ...(r ? { reason: r } : {}),
      shape: NoFlyShape.CIRCLE,
      boundary: [],
      center: { lat: a, lng: b },
      radius,
    })),
  );

  const trip = (zones: PlanNoFly[], format: ExportFormat): PlanNoFly[] => {
    const out = exportPlanFile({ fences: [], routes: [], surveys: [], noFlyZones: zones }, format);
    if (!out.ok) throw new Error(out.error.en);
    const back = importPlanFile(`x${out.ext}`, out.bytes);
    if (!back.ok) throw new Error(back.error.en);
    return back.doc.noFlyZones ?? [];
  };
  const same = (a: PlanNoFly, b: PlanNoFly): void => {
    expect(b.shape).toBe(a.shape);
    expect(b.radius).toBe(a.radius);
    expect(b.boundary.length).toBe(a.boundary.length);
    a.boundary.forEach((p, i) => {
      expect(Math.abs(b.boundary[i]!.lat - p.lat)).toBeLessThanOrEqual(1e-7);
      expect(Math.abs(b.boundary[i]!.lng - p.lng)).toBeLessThanOrEqual(1e-7);
    });
    if (a.center) expect(b.center).toEqual(a.center);
  };

  it.each(['kml', 'geojson'] as const)('%s keeps names, reasons, shapes and positions', (format) => {
    fc.assert(
      fc.property(fc.array(zone, { minLength: 1, maxLength: 5 }), (zones) => {
        const back = trip(zones, format);
        expect(back.length).toBe(zones.length);
        zones.forEach((z, i) => {
          same(z, back[i]!);
          expect(back[i]!.name).toBe(z.name);
          expect(back[i]!.reason).toBe(z.reason);
        });
      }),
      { numRuns: fuzzRuns(40) },
    );
  });
  it('plan keeps shapes and positions (polygons first, then circles, as QGC lists them)', () => {
    fc.assert(
      fc.property(fc.array(zone, { minLength: 1, maxLength: 5 }), (zones) => {
        const back = trip(zones, 'plan');
        const ordered = [...zones.filter((z) => !z.center), ...zones.filter((z) => z.center)];
        expect(back.length).toBe(ordered.length);
        ordered.forEach((z, i) => same(z, back[i]!));
      }),
      { numRuns: fuzzRuns(40) },
    );
  });
});
