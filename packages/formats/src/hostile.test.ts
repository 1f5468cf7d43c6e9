/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { latLngSchema, waypointSchema, WAYPOINT_LIMITS } from '@nest/contracts';
import fc from 'fast-check';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportResult, PlanDocument } from './index.js';
import { buildWkimg, checkAgainstTask, exportPlanFile, importPlanFile, parseWkimg } from './index.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

/**
 * Hostile input for every importer, as properties: whatever the bytes, importPlanFile answers
 * either a document whose every number is finite and in range (and which checkAgainstTask either refuses
 * or hands over in the contracts' shapes), or a typed refusal in both languages. A refusal that is only the
 * catch-all "could not be read" means some reader threw something it did not mean to (a TypeError, a
 * stack overflow): that is a failure here. fast-check prints the seed and path of any counterexample;
 * rerun with `{ seed, path }` in the assert options to reproduce it.
 */

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const fromUtf8 = (b: Uint8Array): string => new TextDecoder().decode(b);
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const RUNS = { numRuns: fuzzRuns(150) };
const UNEXPECTED = 'The file could not be read';

afterEach(() => {
  // No reader may write through a file's `__proto__` / `constructor` keys into shared prototypes.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
});

const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/** Every number of a document finite; positions in range; heights above 0. */
function expectSaneDocument(doc: PlanDocument): void {
  const pos = (p: { lat: number; lng: number }) => expect(latLngSchema.safeParse(p).success, JSON.stringify(p)).toBe(true);
  const numbers = (o: unknown, where: string): void => {
    if (o === null || o === undefined) return;
    if (typeof o === 'number') expect(finite(o), `${where} = ${o}`).toBe(true);
    else if (Array.isArray(o)) o.forEach((x, i) => numbers(x, `${where}[${i}]`));
    else if (typeof o === 'object') for (const [k, v] of Object.entries(o)) numbers(v, `${where}.${k}`);
  };
  numbers(doc, 'doc');
  for (const f of doc.fences) {
    expect(typeof f.name).toBe('string');
    expect(f.name.length).toBeLessThanOrEqual(64);
    expect(f.boundary.length).toBeGreaterThanOrEqual(3);
    f.boundary.forEach(pos);
    if (f.max_height !== undefined) expect(f.max_height).toBeGreaterThan(0);
  }
  for (const r of doc.routes) {
    expect(r.name.length).toBeLessThanOrEqual(64);
    expect([1, 2, 3]).toContain(r.mission_type);
    expect([0, 1]).toContain(r.height_type);
    for (const w of r.waypoints) {
      pos(w);
      expect(w.height).toBeGreaterThan(0);
    }
  }
  for (const s of doc.surveys) {
    expect(s.name.length).toBeLessThanOrEqual(64);
    s.polygon.forEach(pos);
  }
}

/** The import property: a sane document (which every task check treats cleanly) or a typed refusal. */
function expectWellBehaved(r: ImportResult): void {
  if (!r.ok) {
    expect(r.error.zh.length).toBeGreaterThan(0);
    expect(r.error.en.length).toBeGreaterThan(0);
    expect(r.error.en.startsWith(UNEXPECTED), r.error.en).toBe(false);
    return;
  }
  expectSaneDocument(r.doc);
  for (const w of r.warnings) expect(w.zh.length * w.en.length).toBeGreaterThan(0);
  for (const kind of ['fence', 'waypoint', 'survey'] as const) {
    const c = checkAgainstTask(r.doc, kind);
    if (!c.ok) {
      expect(c.error.zh.length * c.error.en.length).toBeGreaterThan(0);
      continue;
    }
    if (c.kind === 'waypoint') {
      const route = c.item as PlanDocument['routes'][number];
      expect(route.waypoints.length).toBeGreaterThanOrEqual(2);
      for (const w of route.waypoints) {
        expect(waypointSchema.safeParse(w).success, JSON.stringify(w)).toBe(true);
        expect(w.height).toBeLessThanOrEqual(WAYPOINT_LIMITS.heightMax);
      }
    } else {
      const ring = c.kind === 'fence' ? (c.item as PlanDocument['fences'][number]).boundary : (c.item as PlanDocument['surveys'][number]).polygon;
      expect(ring.length).toBeGreaterThanOrEqual(3);
      for (const p of ring) expect(latLngSchema.safeParse(p).success).toBe(true);
    }
  }
}

// ------------------------------------------------------------------------------------------ generators

/** Number-ish text files put where numbers belong. */
const hostileNumberText = fc.oneof(
  fc.constantFrom('NaN', 'nan', 'Infinity', '-Infinity', 'inf', '1e309', '-1e309', '1e-400', '1e308', '-1e308', '0x1F', '0b1', '1_000',
    '', ' ', '+', '-', '.', '1e', '--1', '1..2', '١٢٣', '1,5', '９０', '90.0000000000000000001', '180.000001', '-90.0000001', '0', '-0',
    '9007199254740993', '1'.repeat(400), `0.${'0'.repeat(400)}1`),
  fc.double().map(String),
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.string({ maxLength: 8 }),
);

/** JSON values put where numbers, strings and arrays belong. */
const hostileJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(1e308, -1e308, 5e-324, 0, -0, 90.0000001, 181, -181, Number.MAX_SAFE_INTEGER + 2, 'NaN', 'Infinity', '1e309', '', null, true, false, [], {}),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 6 }),
  fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -200, max: 200 }), { maxLength: 4 }),
  fc.constant({ __proto__: null, polluted: 1 }),
);

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

/** JSON text of `value` with `__proto__` / `constructor` members added to every object (JSON.stringify drops them). */
function withHostileKeys(value: unknown, key: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => withHostileKeys(v, key)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${withHostileKeys(v, key)}`);
    members.push(`${JSON.stringify(key)}:{"polluted":1,"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Replaces the leaves picked by `picks` (indices into a depth-first leaf walk) with hostile values. */
function mutateLeaves(value: unknown, picks: { at: number; v: unknown }[]): unknown {
  let leaf = 0;
  const byIndex = new Map(picks.map((p) => [p.at, p.v]));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    const i = leaf++;
    return byIndex.has(i) ? byIndex.get(i) : v;
  };
  return walk(value);
}

/** Replaces some numbers of a text file (picked by index) with hostile number text. */
function mutateNumbers(text: string, picks: { at: number; v: string }[]): string {
  const byIndex = new Map(picks.map((p) => [p.at, p.v]));
  let k = 0;
  return text.replace(/-?\d+(?:\.\d+)?/g, (m) => {
    const i = k++;
    return byIndex.has(i) ? byIndex.get(i)! : m;
  });
}

const picks = <T>(v: fc.Arbitrary<T>) => fc.array(fc.record({ at: fc.nat({ max: 400 }), v }), { minLength: 1, maxLength: 12 });

const sampleDoc: PlanDocument = {
  fences: [{ name: 'f', boundary: [{ lat: 30, lng: 120 }, { lat: 30.01, lng: 120 }, { lat: 30.01, lng: 120.01 }], max_height: 120 }],
  routes: [
    {
      name: 'r',
      mission_type: 1,
      height_type: 0,
      waypoints: [
        { lat: 30, lng: 120, height: 50, uav_yaw: 90, hover: 3, takephoto: 1, gimbal_ctrl: { pitch: -45, yaw: 0 }, speed: 5 },
        { lat: 30.001, lng: 120, height: 60, cam_trig_dist: 20 },
      ],
      settings: { auto_speed: 8, max_speed: 12, default_height: 80, return_height: 100, finish_action: 20 },
    },
  ],
  surveys: [{ name: 's', polygon: [{ lat: 30, lng: 120 }, { lat: 30.01, lng: 120 }, { lat: 30.01, lng: 120.01 }], params: { angle: 30, course_overlap: 80, lateral_overlap: 70, default_height: 100 } }],
};
const exported = (format: 'kml' | 'geojson' | 'plan' | 'kmz'): Uint8Array => {
  const out = exportPlanFile(sampleDoc, format);
  if (!out.ok) throw new Error(`export ${format} failed`);
  return out.bytes;
};

// ------------------------------------------------------------------------------------------ KML

describe('KML: hostile structure and values', () => {
  it('numbers replaced by NaN, Infinity, 1e309, huge, garbage in real files (ours, Google Earth, DJI Pilot)', () => {
    const seeds = [fromUtf8(exported('kml')), fromUtf8(fixture('google-earth.kml')), fromUtf8(fixture('dji-pilot.kml'))];
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), picks(hostileNumberText), (k, p) => {
        expectWellBehaved(importPlanFile('m.kml', utf8(mutateNumbers(seeds[k]!, p))));
      }),
      RUNS,
    );
  });

  it('generated placemarks: any geometry, any coordinate text, any ExtendedData keys (including __proto__)', () => {
    const coordinateText = fc
      .array(fc.array(hostileNumberText, { minLength: 1, maxLength: 4 }).map((t) => t.join(',')), { minLength: 0, maxLength: 6 })
      .chain((tuples) => fc.constantFrom(' ', '\n', '\t', ' , ').map((sep) => tuples.join(sep)));
    const geometry = fc.oneof(
      coordinateText.map((c) => `<Point><coordinates>${c}</coordinates></Point>`),
      coordinateText.map((c) => `<LineString><altitudeMode>absolute</altitudeMode><coordinates>${c}</coordinates></LineString>`),
      coordinateText.map((c) => `<Polygon><outerBoundaryIs><LinearRing><coordinates>${c}</coordinates></LinearRing></outerBoundaryIs><innerBoundaryIs/></Polygon>`),
      coordinateText.map((c) => `<LinearRing><coordinates>${c}</coordinates></LinearRing>`),
      fc.array(fc.array(hostileNumberText, { maxLength: 4 }), { maxLength: 4 }).map((cs) => `<gx:Track>${cs.map((c) => `<gx:coord>${c.join(' ')}</gx:coord>`).join('')}</gx:Track>`),
      coordinateText.map((c) => `<MultiGeometry><Point><coordinates>${c}</coordinates></Point><LineString><coordinates>${c}</coordinates></LineString></MultiGeometry>`),
    );
    const dataKey = fc.constantFrom(...HOSTILE_KEYS, 'kind', 'height_type', 'mission_type', 'max_height', 'speed', 'hover', 'uav_yaw', 'gimbalPitch', 'takephoto', 'default_height', 'finish_action', 'elevation', 'angle', 'useWaylineSpeed', 'heading');
    const data = fc.array(fc.tuple(dataKey, fc.oneof(hostileNumberText, fc.constantFrom('survey', 'fence', 'true', '1'))), { maxLength: 5 }).map((pairs) =>
      pairs.length ? `<ExtendedData>${pairs.map(([k, v]) => `<Data name="${k}"><value>${v.replace(/[<&]/g, '')}</value></Data>`).join('')}<mis:actions param="${pairs[0]![1].replace(/[<&"]/g, '')}">Hovering</mis:actions></ExtendedData>` : '',
    );
    const placemark = fc.tuple(fc.string({ maxLength: 80 }), data, fc.array(geometry, { minLength: 1, maxLength: 3 })).map(
      ([name, ext, geoms]) => `<Placemark><name><![CDATA[${name.replace(/]]>/g, '')}]]></name>${ext}${geoms.join('')}</Placemark>`,
    );
    fc.assert(
      fc.property(fc.array(placemark, { minLength: 1, maxLength: 5 }), fc.boolean(), (pms, folder) => {
        const body = folder ? `<Folder><name>x</name>${pms.join('')}</Folder>` : pms.join('');
        expectWellBehaved(importPlanFile('g.kml', utf8(`<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${body}</Document></kml>`)));
      }),
      RUNS,
    );
  });

  it('DOCTYPE and ENTITY in every spelling and encoding are refused before parsing', () => {
    const point = '<Placemark><Point><coordinates>120,30</coordinates></Point></Placemark>';
    const variants = [
      `<!DOCTYPE kml [<!ENTITY a "x">]><kml>${point}</kml>`,
      `<!doctype kml><kml>${point}</kml>`,
      `<?xml version="1.0"?>\n<!DOCTYPE\tkml SYSTEM "file:///etc/passwd"><kml>${point}</kml>`,
      `<kml><!ENTITY x SYSTEM "http://169.254.169.254/latest/meta-data/">${point}</kml>`,
      `<!DOCTYPE kml PUBLIC "-//x//EN" "http://evil.example/x.dtd"><kml>${point}</kml>`,
      `<! DOCTYPE kml><kml>${point}</kml>`,
    ];
    for (const v of variants) {
      for (const bytes of [utf8(v), utf16le(v), utf16be(v)]) {
        const r = importPlanFile('x.kml', bytes);
        expect(r.ok, v).toBe(false);
        if (!r.ok) expect(r.error.en, v).toMatch(/DOCTYPE or ENTITY|malformed/);
      }
    }
  });

  it('XInclude, external stylesheets and parameter-like references are inert: nothing outside the file is read', () => {
    const x = `<kml xmlns:xi="http://www.w3.org/2001/XInclude"><?xml-stylesheet href="file:///etc/passwd"?><Document><Placemark><name><xi:include href="file:///etc/passwd" parse="text"/>&amp;%pe;</name><Point><coordinates>120,30</coordinates></Point></Placemark><xi:include href="http://127.0.0.1:1/x.kml"/></Document></kml>`;
    const r = importPlanFile('x.kml', utf8(x));
    expectWellBehaved(r);
    expect(JSON.stringify(r)).not.toMatch(/root:|daemon:/);
  });

  it('nesting hidden from the pre-scan (quotes in attribute values) is still bounded: a clear refusal, no stack overflow', () => {
    const n = 20_000;
    const pm = '<Placemark><Point><coordinates>120,30</coordinates></Point></Placemark>';
    const hidden = [
      `<kml>${'<Folder x="/>">'.repeat(n)}${pm}${'</Folder>'.repeat(n)}</kml>`,
      `<kml><Folder b=x">${'<Folder>'.repeat(n)}<Folder b=x">${pm}</Folder>${'</Folder>'.repeat(n)}</Folder></kml>`,
      `<kml>${"<Document a='>'>".repeat(n)}${pm}${'</Document>'.repeat(n)}</kml>`,
    ];
    for (const x of hidden) {
      const r = importPlanFile('deep.kml', utf8(x));
      expect(r.ok ? 'accepted' : r.error.en).toBe('The XML is nested too deeply (more than 100 levels)');
    }
  });

  it('huge single values and long names stay bounded', () => {
    const r = importPlanFile('h.kml', utf8(`<kml><Placemark><name>${'名'.repeat(100_000)}</name><Point><coordinates>${'1'.repeat(5000)},30</coordinates></Point></Placemark></kml>`));
    expectWellBehaved(r);
    const ok = importPlanFile('n.kml', utf8(`<kml><Placemark><name>${'名'.repeat(100_000)}</name><Point><coordinates>120,30,${'9'.repeat(400)}</coordinates></Point></Placemark></kml>`));
    expectWellBehaved(ok);
  });
});

function utf16le(s: string): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < s.length; i++) new DataView(out.buffer).setUint16(2 + i * 2, s.charCodeAt(i), true);
  return out;
}
function utf16be(s: string): Uint8Array {
  const out = new Uint8Array(2 + s.length * 2);
  out[0] = 0xfe;
  out[1] = 0xff;
  for (let i = 0; i < s.length; i++) new DataView(out.buffer).setUint16(2 + i * 2, s.charCodeAt(i), false);
  return out;
}

// ------------------------------------------------------------------------------------------ JSON

describe('GeoJSON and QGC plan: wrong types, hostile numbers, __proto__ keys', () => {
  const jsonSeeds = (): unknown[] => [
    JSON.parse(fromUtf8(exported('geojson'))),
    JSON.parse(fromUtf8(exported('plan'))),
    JSON.parse(fromUtf8(fixture('qgc-mission.plan'))),
    JSON.parse(fromUtf8(fixture('inspection.json'))),
  ];

  it('any leaf of a real file replaced by a wrong type or a hostile number', () => {
    const seeds = jsonSeeds();
    fc.assert(
      fc.property(fc.nat({ max: seeds.length - 1 }), picks(hostileJsonValue), fc.constantFrom('a.json', 'a.plan', 'a.geojson'), (k, p, name) => {
        expectWellBehaved(importPlanFile(name, utf8(JSON.stringify(mutateLeaves(seeds[k], p)))));
      }),
      RUNS,
    );
  });

  it('__proto__, constructor and prototype members in every object of a real file', () => {
    const seeds = jsonSeeds();
    for (const seed of seeds) {
      for (const key of HOSTILE_KEYS) {
        const r = importPlanFile('p.json', utf8(withHostileKeys(seed, key)));
        expectWellBehaved(r);
      }
    }
  });

  it('generated GeoJSON of any shape: types, coordinates and properties of the wrong kind', () => {
    const position = fc.oneof(fc.array(hostileJsonValue, { maxLength: 4 }), hostileJsonValue);
    const coords: fc.Arbitrary<unknown> = fc.oneof(
      position,
      fc.array(position, { maxLength: 5 }),
      fc.array(fc.array(position, { maxLength: 5 }), { maxLength: 3 }),
      fc.array(fc.array(fc.array(position, { maxLength: 5 }), { maxLength: 2 }), { maxLength: 2 }),
    );
    const type = fc.constantFrom('Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection', 'Feature', 'FeatureCollection', 'Nope', 7, null);
    const props = fc.dictionary(
      fc.constantFrom(...HOSTILE_KEYS, 'kind', 'height', 'route', 'name', 'settings', 'waypoints', 'max_height', 'angle'),
      hostileJsonValue,
      { maxKeys: 4 },
    );
    const geometry = fc.record({ type, coordinates: coords }, { requiredKeys: [] });
    const feature = fc.record({ type: fc.constant('Feature'), properties: props, geometry: fc.oneof(geometry, hostileJsonValue) }, { requiredKeys: ['type'] });
    const top = fc.oneof(
      geometry,
      feature,
      fc.record({ type: fc.constant('FeatureCollection'), features: fc.oneof(fc.array(feature, { maxLength: 4 }), hostileJsonValue) }),
      fc.record({ type: fc.constant('GeometryCollection'), geometries: fc.oneof(fc.array(geometry, { maxLength: 4 }), hostileJsonValue) }),
      fc.record({ type: fc.constant('Feature'), crs: fc.oneof(hostileJsonValue, fc.constant({ properties: { name: 'EPSG:3857' } })), geometry }),
    );
    fc.assert(
      fc.property(top, fc.constantFrom(...HOSTILE_KEYS), (value, key) => {
        expectWellBehaved(importPlanFile('g.json', utf8(JSON.stringify(value))));
        expectWellBehaved(importPlanFile('g.geojson', utf8(withHostileKeys(value, key))));
      }),
      RUNS,
    );
  });

  it('generated QGC plans: items, params, geofence polygons and circles of the wrong kind', () => {
    const params = fc.oneof(fc.array(hostileJsonValue, { maxLength: 8 }), hostileJsonValue);
    const simple = fc.record(
      {
        type: fc.constantFrom('SimpleItem', 'ComplexItem', 3, null),
        command: fc.oneof(fc.constantFrom(16, 19, 20, 21, 22, 93, 112, 115, 178, 205, 206, 2000, 1000, 17), hostileJsonValue),
        frame: fc.oneof(fc.constantFrom(0, 3, 10), hostileJsonValue),
        params,
        Altitude: hostileJsonValue,
        AltitudeMode: hostileJsonValue,
        complexItemType: fc.constantFrom('survey', 'CorridorScan', 'StructureScan', 'x'),
        polygon: fc.oneof(fc.array(fc.array(hostileJsonValue, { maxLength: 3 }), { maxLength: 5 }), hostileJsonValue),
        polyline: fc.oneof(fc.array(fc.array(hostileJsonValue, { maxLength: 3 }), { maxLength: 5 }), hostileJsonValue),
        TransectStyleComplexItem: fc.oneof(fc.record({ CameraCalc: fc.dictionary(fc.constantFrom('DistanceToSurface', 'SensorWidth', 'FocalLength', 'CameraName', 'ImageWidth'), hostileJsonValue) }), hostileJsonValue),
      },
      { requiredKeys: ['type'] },
    );
    const plan = fc.record({
      fileType: fc.constant('Plan'),
      version: hostileJsonValue,
      mission: fc.oneof(fc.record({ items: fc.oneof(fc.array(simple, { maxLength: 6 }), hostileJsonValue), plannedHomePosition: hostileJsonValue, cruiseSpeed: hostileJsonValue }), hostileJsonValue),
      geoFence: fc.oneof(
        fc.record({
          polygons: fc.oneof(fc.array(fc.record({ inclusion: fc.oneof(fc.boolean(), hostileJsonValue), polygon: fc.oneof(fc.array(fc.array(hostileJsonValue, { maxLength: 3 }), { maxLength: 5 }), hostileJsonValue) }), { maxLength: 3 }), hostileJsonValue),
          circles: fc.oneof(fc.array(fc.record({ inclusion: hostileJsonValue, circle: fc.oneof(fc.record({ center: fc.array(hostileJsonValue, { maxLength: 3 }), radius: hostileJsonValue }), hostileJsonValue) }), { maxLength: 3 }), hostileJsonValue),
        }),
        hostileJsonValue,
      ),
      rallyPoints: hostileJsonValue,
    });
    fc.assert(
      fc.property(plan, fc.constantFrom(...HOSTILE_KEYS), (value, key) => {
        expectWellBehaved(importPlanFile('q.plan', utf8(JSON.stringify(value))));
        expectWellBehaved(importPlanFile('q.json', utf8(withHostileKeys(value, key))));
      }),
      RUNS,
    );
  });

  it('deep nesting, long arrays and long strings are refused or read, never a crash', () => {
    expectWellBehaved(importPlanFile('d.json', utf8(`{"type":"Feature","properties":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`)));
    expectWellBehaved(importPlanFile('s.json', utf8(`{"type":"Point","coordinates":[120,30],"x":"${'\\"['.repeat(100_000)}"}`)));
    expectWellBehaved(importPlanFile('u.json', utf8(`{"type":"Point","coordinates":[120,30],"x":"\\`)));
    const many = JSON.stringify({ type: 'MultiPoint', coordinates: Array.from({ length: 200_001 }, () => [120, 30]) });
    expect(importPlanFile('m.json', utf8(many))).toMatchObject({ ok: false, error: { en: 'The file has too many coordinates (more than 200000)' } });
  });
});

// ------------------------------------------------------------------------------------------ KMZ

describe('KMZ: hostile archives', () => {
  const wpml = (): Record<string, Uint8Array> => unzipSync(exported('kmz'));

  it('WPML numbers replaced by hostile text inside a real KMZ', () => {
    const files = wpml();
    const names = Object.keys(files);
    fc.assert(
      fc.property(fc.constantFrom(...names), picks(hostileNumberText), (name, p) => {
        const mutated = { ...files, [name]: utf8(mutateNumbers(fromUtf8(files[name]!), p)) };
        expectWellBehaved(importPlanFile('w.kmz', zipSync(mutated)));
      }),
      RUNS,
    );
  });

  it('random entry names (traversal, absolute, NUL, backslash), counts and contents', () => {
    const entryName = fc.oneof(
      fc.constantFrom('doc.kml', 'wpmz/template.kml', 'wpmz/waylines.wpml', '../doc.kml', '/doc.kml', 'C:\\doc.kml', 'a/../../doc.kml', 'doc.kml\0.png', '..\\..\\doc.kml', 'files/x.kml', 'nested.kmz', 'DOC.KML'),
      fc.string({ minLength: 1, maxLength: 20 }),
    );
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.constant(utf8('<kml><Placemark><Point><coordinates>120,30</coordinates></Point></Placemark></kml>')),
      fc.constant(exported('kmz')),
      fc.constant(utf8('<!DOCTYPE x [<!ENTITY a "b">]><kml/>')),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(entryName, content), { minLength: 1, maxLength: 6 }), fc.constantFrom(0, 9), (entries, level) => {
        const files: Record<string, Uint8Array> = {};
        for (const [n, c] of entries) files[n] = c;
        let zip: Uint8Array;
        try {
          zip = zipSync(files, { level: level as 0 | 9 });
        } catch {
          return; // a name fflate itself cannot write
        }
        expectWellBehaved(importPlanFile('r.kmz', zip));
      }),
      RUNS,
    );
  });

  it('nested zips are not unpacked: a KMZ inside a KMZ is no route file', () => {
    const inner = exported('kmz');
    const r = importPlanFile('n.kmz', zipSync({ 'inner.kmz': inner, 'doc.kmz': inner }));
    expect(r).toMatchObject({ ok: false, error: { en: 'The KMZ holds no KML or WPML route file' } });
    // A zip named doc.kml is not read as XML.
    expectWellBehaved(importPlanFile('n.kmz', zipSync({ 'doc.kml': inner })));
  });

  it('bombs: high ratio, many entries, lying sizes in either header, truncated at every length', () => {
    const zeros = zipSync({ 'wpmz/template.kml': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    expect(importPlanFile('b.kmz', zeros, { limits: { maxKmzUnpackedBytes: 1024 * 1024 } })).toMatchObject({ ok: false, error: { en: expect.stringMatching(/unpacks too large/) } });
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 5000; i++) many[`d/${i}.kml`] = new Uint8Array(0);
    expect(importPlanFile('m.kmz', zipSync(many))).toMatchObject({ ok: false, error: { en: 'The KMZ holds too many files (5000; the limit is 100)' } });
    const valid = exported('kmz');
    fc.assert(
      fc.property(fc.nat({ max: valid.length }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }), (cut, edits) => {
        const b = valid.slice(0, Math.max(4, cut));
        for (const [at, v] of edits) b[at % b.length] = v;
        expectWellBehaved(importPlanFile('t.kmz', b));
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('a zip under another extension is sniffed, and a KMZ of DOCTYPE is refused', () => {
    const r = importPlanFile('x.kml', zipSync({ 'doc.kml': strToU8('<!DOCTYPE lol [<!ENTITY a "aaaa">]><kml>&a;</kml>') }));
    expect(r).toMatchObject({ ok: false, error: { en: 'The file contains a DOCTYPE or ENTITY declaration and is refused for safety' } });
  });
});

// ------------------------------------------------------------------------------------------ any bytes

describe('any bytes, any name', () => {
  it('never an untyped failure, whatever the bytes and the extension', () => {
    fc.assert(
      fc.property(fc.constantFrom('a.kml', 'a.kmz', 'a.json', 'a.plan', 'a.geojson', 'a.KML', 'a', '.kml', 'a.kml.exe', 'a.txt'), fc.uint8Array({ maxLength: 600 }), (name, bytes) => {
        expectWellBehaved(importPlanFile(name, bytes));
      }),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('text that starts like each format', () => {
    const starts = ['<?xml version="1.0" encoding="', '<kml>', '{"type":"', '{"fileType":"Plan","mission":', 'PK\u0003\u0004', '\uFEFF<', '[', '<?xml version="1.0" encoding="GBK"?><kml><Placemark><name>'];
    fc.assert(
      fc.property(fc.constantFrom(...starts), fc.string({ maxLength: 200 }), fc.constantFrom('a.kml', 'a.json', 'a.plan'), (start, rest, name) => {
        expectWellBehaved(importPlanFile(name, utf8(start + rest)));
      }),
      { numRuns: fuzzRuns(300) },
    );
  });
});

// ------------------------------------------------------------------------------------------ .wkimg

describe('.wkimg firmware header', () => {
  const header = { type: 17, version_code: 3, version_name: '1.2.3', model: 'NEST-A' };
  const valid = buildWkimg(header, new Uint8Array([1, 2, 3, 4]), sha256);

  const expectParse = (bytes: Uint8Array, total?: number): void => {
    const r = parseWkimg(bytes, total);
    if (!r.ok) {
      expect(['magic', 'header', 'size']).toContain(r.problem);
      return;
    }
    expect(Number.isSafeInteger(r.header.payload_size)).toBe(true);
    expect(r.payloadOffset + r.header.payload_size).toBe(total ?? bytes.length);
    expect(r.header.payload_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.header.version_name.length).toBeGreaterThan(0);
  };

  it('any bytes, any mutation, any declared total: a parse or a named problem', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.option(fc.integer({ min: -1, max: 2 ** 40 })), (bytes, total) => {
        expectParse(bytes, total ?? undefined);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat({ max: valid.length }), (edits, cut) => {
        const b = valid.slice(0, Math.max(cut, 1));
        for (const [at, v] of edits) b[at % b.length] = v;
        expectParse(b);
      }),
      RUNS,
    );
  });

  it('header JSON of the wrong types, with __proto__ keys, huge numbers and lengths', () => {
    const field = fc.oneof(hostileJsonValue, fc.string({ maxLength: 70 }), fc.integer());
    fc.assert(
      fc.property(
        fc.record({ type: field, version_code: field, version_name: field, model: field, payload_size: field, payload_sha256: fc.oneof(field, fc.constant(sha256(new Uint8Array(1)))) }, { requiredKeys: [] }),
        fc.constantFrom(...HOSTILE_KEYS),
        fc.integer({ min: 0, max: 8 }),
        (h, key, size) => {
          for (const json of [JSON.stringify(h), withHostileKeys(h, key)]) {
            const body = utf8(json);
            const b = new Uint8Array(12 + body.length + size);
            b.set(utf8('WKIMG01\n'));
            new DataView(b.buffer).setUint32(8, body.length, false);
            b.set(body, 12);
            expectParse(b);
          }
        },
      ),
      RUNS,
    );
    const lying = valid.slice();
    new DataView(lying.buffer).setUint32(8, 0xffffffff, false);
    expect(parseWkimg(lying)).toEqual({ ok: false, problem: 'header' });
  });
});
