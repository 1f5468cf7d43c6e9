import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NoFlyShape } from '@nest/contracts';
import { haversineDistance } from './coords.js';
import { IssueCode, issueLines } from './issues.js';
import { localFrame } from './local.js';
import { prepareRing } from './polygon.js';
import {
  firstNoFlyConflict,
  noFlyApplies,
  noFlyConflictIssues,
  noFlyRing,
  noFlyRingSides,
  NO_FLY_RING_ERROR_M,
  surveyAvoidRings,
  type NoFlyInput,
} from './nofly.js';
import { arbStarPolygon, metres, ORIGIN, square, uShape } from './test-fixtures.js';
import { validateRoute } from './validation.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const at = (x: number, y: number) => metres(x, y);
const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

const polygonZone = (boundary: NoFlyInput['boundary'], over: Partial<NoFlyInput> = {}): NoFlyInput => ({
  id: 'nf1',
  name: '实验小学',
  reason: '上课时段',
  shape: NoFlyShape.POLYGON,
  boundary,
  center: null,
  radius: null,
  sn_id: '',
  valid_from: null,
  valid_to: null,
  ...over,
});
const circleZone = (x: number, y: number, radius: number, over: Partial<NoFlyInput> = {}): NoFlyInput =>
  polygonZone([], { id: 'c1', name: 'Substation', reason: 'high voltage', shape: NoFlyShape.CIRCLE, center: at(x, y), radius, ...over });

describe('which no-fly zones apply', () => {
  const zone = polygonZone(square(100), { sn_id: 'SN1', valid_from: 1000, valid_to: 2000 });

  it('applies to its own device only, or to every device when sn_id is empty', () => {
    expect(noFlyApplies(zone, { sn: 'SN1', at: 1500 })).toBe(true);
    expect(noFlyApplies(zone, { sn: 'SN2', at: 1500 })).toBe(false);
    expect(noFlyApplies(zone, { sn: null, at: 1500 })).toBe(false);
    expect(noFlyApplies({ ...zone, sn_id: '' }, { sn: null, at: 1500 })).toBe(true);
    expect(noFlyApplies({ ...zone, sn_id: '' }, { sn: 'SN2', at: 1500 })).toBe(true);
  });

  it('applies within its validity period, both ends included, open when null', () => {
    expect([999, 1000, 2000, 2001].map((t) => noFlyApplies(zone, { sn: 'SN1', at: t }))).toEqual([false, true, true, false]);
    expect(noFlyApplies({ ...zone, valid_from: null }, { sn: 'SN1', at: 0 })).toBe(true);
    expect(noFlyApplies({ ...zone, valid_to: null }, { sn: 'SN1', at: 1e10 })).toBe(true);
  });
});

describe('a circle as a polygon', () => {
  it('contains the circle and stays within half a metre of it, for small and the largest circles', () => {
    for (const r of [5, 100, 1000, 50_000]) {
      const ring = noFlyRing(circleZone(0, 0, r));
      expect(ring).toHaveLength(noFlyRingSides(r));
      const f = localFrame(at(0, 0));
      const xy = ring.map((p) => f.toXY(p));
      for (let i = 0; i < xy.length; i++) {
        const a = xy[i]!;
        const b = xy[(i + 1) % xy.length]!;
        // Every side touches the circle (distance of its line from the centre = r), every corner within 0.5 m.
        const side = Math.abs(a.x * b.y - a.y * b.x) / Math.hypot(b.x - a.x, b.y - a.y);
        expect(side).toBeCloseTo(r, 6);
        expect(Math.hypot(a.x, a.y) - r).toBeLessThanOrEqual(NO_FLY_RING_ERROR_M + 1e-9);
      }
    }
    expect(noFlyRingSides(100)).toBe(32);
    expect(noFlyRingSides(50_000)).toBe(703);
    expect(noFlyRingSides(5)).toBe(16);
  });

  it('answers a polygon its own ring, and nothing for an unusable shape', () => {
    expect(noFlyRing(polygonZone([...square(100), square(100)[0]!]))).toEqual(square(100));
    expect(noFlyRing(circleZone(0, 0, 0))).toEqual([]);
    expect(noFlyRing({ ...circleZone(0, 0, 10), center: null })).toEqual([]);
    expect(noFlyRing(polygonZone([at(0, 0), { lat: NaN, lng: 0 }, at(10, 10)]))).toEqual([]);
  });
});

describe('no-fly conflicts', () => {
  const school = polygonZone(square(100), { name: '实验小学', reason: '上课时段' });

  it('a waypoint inside names the zone and its reason in both languages', () => {
    const issues = noFlyConflictIssues([at(-50, 50), at(-20, 50), at(50, 50)], [school]);
    expect(codes(issues)).toEqual([IssueCode.WAYPOINT_IN_NO_FLY]);
    expect(issues[0]!.item).toEqual({ kind: 'waypoint', index: 2, id: 'nf1' });
    expect(issues[0]!.text).toEqual({ zh: '第 3 个航点在禁飞区「实验小学」内（原因：上课时段）', en: 'Waypoint 3 is inside the no-fly zone "实验小学" (reason: 上课时段)' });
    expect(issues[0]!.at).toEqual(at(50, 50));
  });

  it('a leg crossing between outside waypoints is refused with a point inside; no reason, no brackets', () => {
    const issues = noFlyConflictIssues([at(-50, 50), at(150, 50)], [{ ...school, name: 'Primary school', reason: '  ' }]);
    expect(codes(issues)).toEqual([IssueCode.LEG_CROSSES_NO_FLY]);
    expect(issues[0]!.text).toEqual({ zh: '第 1 到第 2 个航点之间的航线穿过禁飞区「Primary school」', en: 'The leg from waypoint 1 to 2 crosses the no-fly zone "Primary school"' });
    expect(prepareRing(school.boundary).contains(issues[0]!.at!)).toBe(true);
  });

  it('concave zones: the notch of a U is free, its arms are not; the edge belongs to the zone, a corner is touched only', () => {
    const u = polygonZone(uShape(300, 300, 100, 100));
    expect(noFlyConflictIssues([at(150, 400), at(150, 120)], [u])).toEqual([]);
    expect(codes(noFlyConflictIssues([at(-50, 200), at(150, 200)], [u]))).toEqual([IssueCode.LEG_CROSSES_NO_FLY]);
    expect(codes(noFlyConflictIssues([at(0, 50)], [school]))).toEqual([IssueCode.WAYPOINT_IN_NO_FLY]);
    expect(noFlyConflictIssues([at(-0.2, 50)], [school])).toEqual([]);
    expect(noFlyConflictIssues([at(-100, 100), at(100, -100)], [school])).toEqual([]);
  });

  it('circles are exact: 5 cm of boundary belongs to them, a leg nearer than the radius crosses, a tangent leg does not', () => {
    const c = circleZone(0, 0, 100);
    expect(codes(noFlyConflictIssues([at(0, 100.04)], [c]))).toEqual([IssueCode.WAYPOINT_IN_NO_FLY]);
    expect(noFlyConflictIssues([at(0, 100.2)], [c])).toEqual([]);
    // Between the circle and its polygon's corner: outside the circle, so free.
    const corner = noFlyRing(c)[0]!;
    expect(noFlyConflictIssues([corner], [c])).toEqual([]);
    const crossing = noFlyConflictIssues([at(-200, 99), at(200, 99)], [c]);
    expect(codes(crossing)).toEqual([IssueCode.LEG_CROSSES_NO_FLY]);
    expect(crossing[0]!.text.en).toBe('The leg from waypoint 1 to 2 crosses the no-fly zone "Substation" (reason: high voltage)');
    expect(haversineDistance(crossing[0]!.at!, at(0, 0))).toBeLessThan(100);
    expect(noFlyConflictIssues([at(-200, 100.01), at(200, 100.01)], [c])).toEqual([]);
    expect(noFlyConflictIssues([at(-200, 101), at(200, 101)], [c])).toEqual([]);
  });

  it('validateRoute refuses a route through a no-fly zone only when the zones are given; many legs make one line', () => {
    const fence = { max_height: 120, boundary: square(2000, -1000, -1000) };
    const route = { waypoints: [at(-50, 20), at(150, 20), at(150, 80), at(-50, 80)].map((p) => ({ ...p, height: 50 })) };
    expect(validateRoute(route, fence)).toEqual([]);
    const issues = validateRoute(route, fence, { noFly: [school] });
    expect(codes(issues)).toEqual([IssueCode.LEG_CROSSES_NO_FLY, IssueCode.LEG_CROSSES_NO_FLY]);
    expect(issueLines(issues)).toEqual([
      { code: IssueCode.LEG_CROSSES_NO_FLY, count: 2, text: { zh: '共 2 段航线穿过禁飞区「实验小学」（原因：上课时段）', en: 'Each of 2 legs crosses the no-fly zone "实验小学" (reason: 上课时段)' } },
    ]);
  });

  it('firstNoFlyConflict names the first zone in the list the route enters', () => {
    const far = polygonZone(square(100, 5000, 5000), { id: 'far' });
    expect(firstNoFlyConflict([at(-50, 50), at(150, 50)], [far, circleZone(50, 50, 10), school])?.zone.id).toBe('c1');
    expect(firstNoFlyConflict([at(-50, 50), at(-50, 150)], [far, school])).toBeNull();
  });

  it('survey avoid rings: no-fly rings and restricting map zones, nothing unusable', () => {
    const rings = surveyAvoidRings(
      [school, circleZone(0, 0, 100), circleZone(0, 0, -1)],
      [
        { type: 1, name: { zh: 'a', en: 'a' }, paths: square(10) },
        { type: 3, name: { zh: 'w', en: 'w' }, paths: square(10) },
      ],
    );
    expect(rings.map((r) => r.length)).toEqual([4, noFlyRingSides(100), 4]);
  });
});

describe('no-fly conflicts: properties', () => {
  const frame = localFrame(ORIGIN);
  const arbXY = fc.tuple(fc.double({ min: -1500, max: 1500, noNaN: true }), fc.double({ min: -1500, max: 1500, noNaN: true }));
  const arbRoute = fc.array(arbXY, { minLength: 1, maxLength: 8 }).map((pts) => pts.map(([x, y]) => at(x, y)));
  const arbZone = fc.oneof(
    arbStarPolygon().map((b) => polygonZone(b)),
    fc.tuple(arbXY, fc.double({ min: 5, max: 800, noNaN: true })).map(([[x, y], r]) => circleZone(x, y, r)),
  );

  it('a leg with any point inside a zone by more than a metre conflicts; a route conflicting is reported with a real point', () => {
    fc.assert(
      fc.property(arbZone, arbRoute, (zone, route) => {
        const issues = noFlyConflictIssues(route, [zone]);
        const deepInside = (x: number, y: number) =>
          zone.shape === NoFlyShape.CIRCLE
            ? Math.hypot(...((p) => [p.x, p.y] as const)(localFrame(zone.center!).toXY(frame.toLatLng({ x, y })))) < zone.radius! - 1
            : prepareRing(zone.boundary).strictlyContains(frame.toLatLng({ x, y }), 1);
        for (let i = 0; i + 1 < route.length; i++) {
          const a = frame.toXY(route[i]!);
          const b = frame.toXY(route[i + 1]!);
          for (let k = 0; k <= 32; k++) {
            if (!deepInside(a.x + ((b.x - a.x) * k) / 32, a.y + ((b.y - a.y) * k) / 32)) continue;
            expect(issues.some((x) => (x.item.kind === 'leg' && x.item.index === i) || (x.item.kind === 'waypoint' && (x.item.index === i || x.item.index === i + 1)))).toBe(true);
            break;
          }
        }
        // Every reported point lies in the zone's drawn polygon (which contains a circle).
        const ring = prepareRing(noFlyRing(zone));
        for (const x of issues) expect(ring.contains(x.at!, 0.06)).toBe(true);
      }),
      { numRuns: fuzzRuns(150) },
    );
  });
});
