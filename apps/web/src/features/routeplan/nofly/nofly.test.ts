import { afterEach, describe, expect, it } from 'vitest';
import { NO_FLY_RADIUS_MAX_M, NoFlyShape, type LatLng, type NoFlyZone } from '@nest/contracts';
import { IssueCode, haversineDistance, noFlyConflictIssues, noFlyRing, surveyAvoidRings } from '@nest/geo';
import { DEFAULT_ROUTE, type RouteDraft } from '../editor/store';
import { gridWaypoints, surveyPreview } from '../editor/planning';
import { exportPlanFile, importPlanFile } from '@nest/formats';
import { documentOf } from '../RoutePlanPage';
import { applyLang, t } from '../../../shared/i18n';
import { routeConflict, routesBlockedBy, validityText, zonesFor } from './conflicts';
import { draftProblems, emptyDraft, fieldsOf, radiusHandle, radiusTo, shapeIssues, type NoFlyDraft } from './draft';

const M_LAT = 111_320;
const HOME: LatLng = { lat: 22.5431, lng: 114.0579 };
const at = (east: number, north: number): LatLng => ({
  lat: HOME.lat + north / M_LAT,
  lng: HOME.lng + east / (M_LAT * Math.cos((HOME.lat * Math.PI) / 180)),
});
const square = (c: LatLng, half: number): LatLng[] => {
  const e = (c.lng - HOME.lng) * M_LAT * Math.cos((HOME.lat * Math.PI) / 180);
  const n = (c.lat - HOME.lat) * M_LAT;
  return [at(e - half, n - half), at(e + half, n - half), at(e + half, n + half), at(e - half, n + half)];
};

const NOW = 1_800_000_000;
const zone = (extra: Partial<NoFlyZone> = {}): NoFlyZone => ({
  id: 'z1',
  name: '实验小学',
  reason: '上课时段',
  shape: NoFlyShape.POLYGON,
  boundary: square(at(0, 500), 40),
  center: null,
  radius: null,
  sn_id: '',
  valid_from: null,
  valid_to: null,
  active: true,
  user_name: 'admin',
  create_time: NOW - 100,
  modified_time: NOW - 100,
  ...extra,
});
/** A leg due north from the nest, through the zone around (0, 500), and one 300 m east of it, clear. */
const crossing = [at(0, 0), at(0, 1000)];
const clear = [at(300, 0), at(300, 1000)];

afterEach(() => applyLang('zh'));

describe('a saved route turns red when it crosses a no-fly zone restricting it now', () => {
  it('names the zone and its reason, in both languages', () => {
    const issue = routeConflict(crossing, { sn_id: 'NEST-1' }, [zone()], NOW);
    expect(issue?.text.zh).toBe('第 1 到第 2 个航点之间的航线穿过禁飞区「实验小学」（原因：上课时段）');
    expect(issue?.text.en).toBe('The leg from waypoint 1 to 2 crosses the no-fly zone "实验小学" (reason: 上课时段)');
    expect(routeConflict(clear, { sn_id: 'NEST-1' }, [zone()], NOW)).toBeNull();
  });

  it('ignores a zone of another device, and one outside its validity period (both ends inclusive)', () => {
    expect(routeConflict(crossing, { sn_id: 'NEST-1' }, [zone({ sn_id: 'NEST-2' })], NOW)).toBeNull();
    expect(routeConflict(crossing, { sn_id: 'NEST-2' }, [zone({ sn_id: 'NEST-2' })], NOW)).not.toBeNull();
    expect(routeConflict(crossing, { sn_id: 'NEST-1' }, [zone({ valid_to: NOW - 1 })], NOW)).toBeNull();
    expect(routeConflict(crossing, { sn_id: 'NEST-1' }, [zone({ valid_from: NOW + 1 })], NOW)).toBeNull();
    expect(routeConflict(crossing, { sn_id: 'NEST-1' }, [zone({ valid_from: NOW, valid_to: NOW })], NOW)).not.toBeNull();
    // A route whose fence is unknown is restricted by the company-wide zones only.
    expect(zonesFor([zone(), zone({ id: 'z2', sn_id: 'NEST-1' })], null, NOW).map((z) => z.id)).toEqual(['z1']);
  });

  it('checks a circle exactly: a leg passing just outside the radius is clear, one just inside is not', () => {
    const circle = zone({ shape: NoFlyShape.CIRCLE, boundary: [], center: at(0, 500), radius: 100 });
    expect(routeConflict([at(101, 0), at(101, 1000)], null, [circle], NOW)).toBeNull();
    expect(routeConflict([at(99, 0), at(99, 1000)], null, [circle], NOW)?.item.id).toBe('z1');
  });
});

describe('the saved routes a zone being drawn would block', () => {
  const routes = [
    { id: 'r1', name: 'Patrol A01', fence_id: 'F1', waypoints: crossing },
    { id: 'r2', name: 'Survey A01', fence_id: 'F1', waypoints: clear },
    { id: 'r3', name: 'Patrol B01', fence_id: 'F2', waypoints: crossing },
  ];
  const fences = new Map([['F1', { sn_id: 'NEST-1' }], ['F2', { sn_id: 'NEST-2' }]]);

  it('lists the crossing routes of the devices it applies to', () => {
    expect(routesBlockedBy(zone(), routes, fences, NOW).map((b) => b.name)).toEqual(['Patrol A01', 'Patrol B01']);
    expect(routesBlockedBy(zone({ sn_id: 'NEST-2' }), routes, fences, NOW).map((b) => b.name)).toEqual(['Patrol B01']);
  });

  it('checks a zone valid later as of its start, and an expired one blocks nothing', () => {
    expect(routesBlockedBy(zone({ valid_from: NOW + 3600 }), routes, fences, NOW)).toHaveLength(2);
    expect(routesBlockedBy(zone({ valid_to: NOW - 1 }), routes, fences, NOW)).toEqual([]);
  });
});

describe('validity period text', () => {
  const from = new Date(2026, 10, 26, 8, 30).getTime() / 1000;
  const to = new Date(2026, 11, 1, 18, 0).getTime() / 1000;
  it('says both ends, one, or none, with the dates in the language format', () => {
    expect(validityText({ valid_from: null, valid_to: null }, 'zh', t)).toBe('长期有效');
    expect(validityText({ valid_from: from, valid_to: to }, 'zh', t)).toBe('2026-11-26 08:30 至 2026-12-01 18:00');
    expect(validityText({ valid_from: from, valid_to: null }, 'zh', t)).toBe('2026-11-26 08:30 起');
    applyLang('en');
    expect(validityText({ valid_from: null, valid_to: null }, 'en', t)).toBe('No time limit');
    expect(validityText({ valid_from: from, valid_to: to }, 'en', t)).toBe('26 Nov 2026, 08:30 – 1 Dec 2026, 18:00');
    expect(validityText({ valid_from: null, valid_to: to }, 'en', t)).toBe('Until 1 Dec 2026, 18:00');
  });
});

describe('the zone editor draft', () => {
  const circle = (extra: Partial<NoFlyDraft> = {}): NoFlyDraft => ({ ...emptyDraft(), name: 'Crowd', shape: NoFlyShape.CIRCLE, center: at(0, 500), radius: 150, ...extra });

  it('lists what is missing or out of range before the server is asked', () => {
    expect(draftProblems(emptyDraft()).map((p) => p.key)).toEqual(['nameMissing', 'polygon']);
    expect(draftProblems(circle({ center: null })).map((p) => p.key)).toEqual(['center']);
    expect(draftProblems(circle({ radius: 0 }))).toEqual([{ key: 'radius', max: NO_FLY_RADIUS_MAX_M }]);
    expect(draftProblems(circle({ radius: NO_FLY_RADIUS_MAX_M + 1 })).map((p) => p.key)).toEqual(['radius']);
    expect(draftProblems(circle({ radius: NO_FLY_RADIUS_MAX_M }))).toEqual([]);
    expect(draftProblems(circle({ valid_from: NOW, valid_to: NOW - 60 })).map((p) => p.key)).toEqual(['period']);
  });

  it('finds a polygon crossing itself', () => {
    const bow = { ...emptyDraft(), name: 'Bow', boundary: [at(0, 0), at(100, 100), at(100, 0), at(0, 100)] };
    expect(shapeIssues(bow).map((i) => [i.code, i.text.zh, i.text.en])).toEqual([
      [IssueCode.FENCE_SELF_INTERSECTING, '禁飞区「Bow」的边界自相交', 'No-fly zone "Bow" crosses itself'],
    ]);
    expect(shapeIssues({ ...bow, boundary: square(at(0, 0), 50) })).toEqual([]);
  });

  it('sends only the geometry of the chosen shape, and no empty period end', () => {
    const withCorners = circle({ boundary: square(at(0, 0), 50), valid_to: NOW });
    expect(fieldsOf(withCorners)).toEqual({ name: 'Crowd', reason: '', shape: NoFlyShape.CIRCLE, center: at(0, 500), radius: 150, sn_id: '', valid_to: NOW });
    expect(fieldsOf({ ...withCorners, shape: NoFlyShape.POLYGON, valid_to: null })).toEqual({ name: 'Crowd', reason: '', shape: NoFlyShape.POLYGON, boundary: square(at(0, 0), 50), sn_id: '' });
  });

  it('puts the radius handle one radius from the centre, and reads the radius back from it', () => {
    const c = at(0, 500);
    const h = radiusHandle(c, 250);
    expect(Math.abs(haversineDistance(c, h) - 250)).toBeLessThan(0.5);
    expect(radiusTo(c, h)).toBeCloseTo(250, 0);
    // The drawn ring holds the circle: every corner at least one radius out.
    for (const p of noFlyRing({ shape: NoFlyShape.CIRCLE, boundary: [], center: c, radius: 250 })) expect(haversineDistance(c, p)).toBeGreaterThanOrEqual(249.9);
  });
});

describe('the survey preview around a no-fly zone', () => {
  it('keeps the transects out of a zone inside the area, as the server makes the grid', () => {
    const route: RouteDraft = { ...DEFAULT_ROUTE, fence_id: 'F1', mission_type: 2, camera_type: '6k', default_height: 60, area: square(at(0, 500), 200) };
    const school = zone({ boundary: square(at(0, 500), 60) });
    const straight = surveyPreview(route, HOME).grid!;
    expect(noFlyConflictIssues(gridWaypoints(straight, route), [school]).length).toBeGreaterThan(0);
    const around = surveyPreview(route, HOME, surveyAvoidRings([school])).grid!;
    expect(around.waypoints.length).toBeGreaterThan(4);
    expect(noFlyConflictIssues(gridWaypoints(around, route), [school])).toEqual([]);
  });
});

describe('exported files carry the no-fly zones', () => {
  it('a fence exported as a QGC plan holds its zones as exclusion areas that import back as the same zones', () => {
    const fence = { id: 'F1', name: 'Fence A01', max_height: 150, boundary: square(at(0, 0), 1200), sn_id: 'NEST-1', user_name: 'admin', create_time: 1, modified_time: 1 };
    const zones = [zone(), zone({ id: 'z2', name: 'Crowd', shape: NoFlyShape.CIRCLE, boundary: [], center: at(300, 300), radius: 80 })];
    const file = exportPlanFile(documentOf(null, fence, zones), 'plan');
    if (!file.ok) throw new Error(file.error.en);
    const back = importPlanFile('fence.plan', file.bytes);
    if (!back.ok) throw new Error(back.error.en);
    const read = back.doc.noFlyZones ?? [];
    expect(read.map((z) => z.shape).sort()).toEqual([NoFlyShape.POLYGON, NoFlyShape.CIRCLE]);
    const circle = read.find((z) => z.shape === NoFlyShape.CIRCLE)!;
    expect(circle.radius).toBe(80);
    expect(Math.abs(circle.center!.lat - at(300, 300).lat)).toBeLessThan(1e-7);
    const polygon = read.find((z) => z.shape === NoFlyShape.POLYGON)!;
    polygon.boundary.forEach((p, i) => expect(Math.abs(p.lng - zones[0]!.boundary[i]!.lng)).toBeLessThan(1e-7));
  });
});
