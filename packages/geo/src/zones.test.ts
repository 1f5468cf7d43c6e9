import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZoneKind } from '@nest/contracts';
import { IssueCode, issueLines } from './issues.js';
import { localFrame } from './local.js';
import { prepareRing } from './polygon.js';
import { surveyFromSettings } from './survey.js';
import { arbConcavePolygon, arbStarPolygon, metres, ORIGIN, shape, square, uShape } from './test-fixtures.js';
import { validateRoute } from './validation.js';
import { firstZoneConflict, zoneConflictIssues, zoneLabel, zoneRestrictsRoutes, type ZoneInput } from './zones.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);
const zone = (paths: ZoneInput['paths'], type: number = ZoneKind.RESTRICTED, id = 'z1'): ZoneInput => ({
  id,
  type,
  name: { zh: '深圳河', en: 'Shenzhen River' },
  paths,
});
const at = (x: number, y: number) => metres(x, y);

describe('zone conflicts: fixed cases', () => {
  const box = zone(square(100, 0, 0));

  it('a waypoint inside a restricted zone conflicts, naming the zone and its kind', () => {
    const issues = zoneConflictIssues([at(-50, 50), at(50, 50), at(150, 50)], [box]);
    expect(codes(issues)).toEqual([IssueCode.WAYPOINT_IN_ZONE]);
    expect(issues[0]!.item).toEqual({ kind: 'waypoint', index: 1, id: 'z1' });
    expect(issues[0]!.text).toEqual({ zh: '第 2 个航点在限飞区「深圳河」内', en: 'Waypoint 2 is inside the restricted zone "Shenzhen River"' });
  });

  it('a no-fly zone is named as such', () => {
    expect(zoneLabel({ type: ZoneKind.NO_FLY, name: { zh: '机场', en: 'Airport' } })).toEqual({ zh: '禁飞区「机场」', en: 'No-fly zone "Airport"' });
  });

  it('a leg crossing a zone between two outside waypoints conflicts, pointing inside', () => {
    const issues = zoneConflictIssues([at(-50, 50), at(150, 50)], [box]);
    expect(codes(issues)).toEqual([IssueCode.LEG_CROSSES_ZONE]);
    expect(issues[0]!.item).toEqual({ kind: 'leg', index: 0, id: 'z1' });
    expect(issues[0]!.text.en).toBe('The leg from waypoint 1 to 2 crosses the restricted zone "Shenzhen River"');
    expect(issues[0]!.text.zh).toBe('第 1 到第 2 个航点之间的航线穿过限飞区「深圳河」');
    expect(prepareRing(box.paths).contains(issues[0]!.at!)).toBe(true);
  });

  it('the boundary belongs to the zone; 20 cm outside does not', () => {
    expect(codes(zoneConflictIssues([at(0, 50)], [box]))).toEqual([IssueCode.WAYPOINT_IN_ZONE]);
    expect(zoneConflictIssues([at(-0.2, 50)], [box])).toEqual([]);
    // A leg along the edge lies in the zone; a leg touching only a corner does not.
    expect(codes(zoneConflictIssues([at(0, -50), at(0, 150)], [box]))).toEqual([IssueCode.LEG_CROSSES_ZONE]);
    expect(zoneConflictIssues([at(-100, 100), at(100, -100)], [box])).toEqual([]);
  });

  it('a leg through the notch of a concave zone without entering it does not conflict; across an arm it does', () => {
    // U opening north: arms x 0-100 and 200-300, notch x 100-200 from y 100 up.
    const u = zone(uShape(300, 300, 100, 100));
    expect(zoneConflictIssues([at(150, 400), at(150, 120)], [u])).toEqual([]);
    expect(zoneConflictIssues([at(110, 290), at(190, 110)], [u])).toEqual([]);
    // Down the notch to its bottom edge: that edge belongs to the zone.
    expect(codes(zoneConflictIssues([at(150, 400), at(150, 100)], [u]))).toEqual([IssueCode.WAYPOINT_IN_ZONE]);
    expect(codes(zoneConflictIssues([at(-50, 200), at(150, 200)], [u]))).toEqual([IssueCode.LEG_CROSSES_ZONE]);
    // Both ends outside, in the notch and outside the U, crossing the right arm.
    expect(codes(zoneConflictIssues([at(150, 200), at(350, 200)], [u]))).toEqual([IssueCode.LEG_CROSSES_ZONE]);
  });

  it('a leg with an end inside is reported through that waypoint once', () => {
    const issues = zoneConflictIssues([at(-50, 50), at(50, 50), at(150, 50)], [box]);
    expect(issues).toHaveLength(1);
  });

  it('work zones and unknown kinds never conflict; no-fly zones do', () => {
    const through = [at(-50, 50), at(50, 50), at(150, 50)];
    expect(zoneConflictIssues(through, [zone(box.paths, ZoneKind.WORK)])).toEqual([]);
    expect(zoneConflictIssues(through, [zone(box.paths, 99)])).toEqual([]);
    expect(codes(zoneConflictIssues(through, [zone(box.paths, ZoneKind.NO_FLY)]))).toEqual([IssueCode.WAYPOINT_IN_ZONE]);
    expect([ZoneKind.NO_FLY, ZoneKind.RESTRICTED, ZoneKind.WORK].map(zoneRestrictsRoutes)).toEqual([true, true, false]);
  });

  it('a zone with fewer than 3 points or invalid coordinates is skipped', () => {
    expect(zoneConflictIssues([at(50, 50)], [zone([at(0, 0), at(100, 0)])])).toEqual([]);
    expect(zoneConflictIssues([at(50, 50)], [zone([at(0, 0), { lat: NaN, lng: 0 }, at(100, 100)])])).toEqual([]);
  });

  it('validateRoute lists zone conflicts only when zones are given', () => {
    const fence = { max_height: 120, boundary: square(1000, -500, -500) };
    const route = { waypoints: [at(-50, 50), at(150, 50)].map((p) => ({ ...p, height: 50 })) };
    expect(validateRoute(route, fence)).toEqual([]);
    expect(codes(validateRoute(route, fence, { zones: [box] }))).toEqual([IssueCode.LEG_CROSSES_ZONE]);
  });

  it('a survey over a zone is checked on its generated waypoints, many conflicts in one line each', () => {
    const area = square(600, -300, -300);
    const made = surveyFromSettings(area, { camera_type: '6k', photo_type: 2, default_height: 80, course_overlap: 80, lateral_overlap: 70, angle: 90, turn_distance: 0 });
    const wps = made.grid!.waypoints.map((p) => ({ ...p, height: 80 }));
    // A strip across the middle of the area: every survey line crosses it.
    const strip = zone(shape([[-100, -400], [100, -400], [100, 400], [-100, 400]]), ZoneKind.NO_FLY, 'strip');
    const issues = validateRoute({ mission_type: 2, waypoints: wps }, { max_height: 120, boundary: square(2000, -1000, -1000) }, { zones: [strip] });
    expect(issues.length).toBeGreaterThan(1);
    expect(new Set(codes(issues))).toEqual(new Set([IssueCode.LEG_CROSSES_ZONE]));
    const lines = issueLines(issues);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text.en).toBe(`Each of ${issues.length} legs crosses the no-fly zone "Shenzhen River"`);
    expect(lines[0]!.text.zh).toBe(`共 ${issues.length} 段航线穿过禁飞区「深圳河」`);
  });

  it('firstZoneConflict names the first zone in the list the route enters', () => {
    const far = zone(square(100, 5000, 5000), ZoneKind.NO_FLY, 'far');
    const hit = firstZoneConflict([at(-50, 50), at(150, 50)], [far, box]);
    expect(hit?.zone.id).toBe('z1');
    expect(firstZoneConflict([at(-50, 50), at(-50, 150)], [far, box])).toBeNull();
  });
});

describe('zone conflicts: properties', () => {
  const arbZone = fc.oneof(arbStarPolygon(), arbConcavePolygon());
  const arbPoint = fc.tuple(fc.double({ min: -2000, max: 2000, noNaN: true }), fc.double({ min: -2000, max: 2000, noNaN: true }));
  const arbRoute = fc.array(arbPoint, { minLength: 1, maxLength: 8 }).map((pts) => pts.map(([x, y]) => at(x, y)));
  const frame = localFrame(ORIGIN);

  it('a route with any point of a leg inside a zone (by more than a metre) conflicts', () => {
    fc.assert(
      fc.property(arbZone, arbRoute, (paths, route) => {
        const ring = prepareRing(paths);
        const issues = zoneConflictIssues(route, [zone(paths)]);
        for (let i = 0; i + 1 < route.length; i++) {
          const a = frame.toXY(route[i]!);
          const b = frame.toXY(route[i + 1]!);
          for (let k = 0; k <= 32; k++) {
            const p = frame.toLatLng({ x: a.x + ((b.x - a.x) * k) / 32, y: a.y + ((b.y - a.y) * k) / 32 });
            if (ring.strictlyContains(p, 1)) {
              expect(issues.some((x) => (x.item.kind === 'leg' && x.item.index === i) || (x.item.kind === 'waypoint' && (x.item.index === i || x.item.index === i + 1)))).toBe(true);
              break;
            }
          }
        }
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('every conflict is real: waypoints reported are exactly those in the zone, and a crossing points into it', () => {
    fc.assert(
      fc.property(arbZone, arbRoute, (paths, route) => {
        const ring = prepareRing(paths);
        const issues = zoneConflictIssues(route, [zone(paths)]);
        const inside = route.flatMap((p, i) => (ring.contains(p) ? [i] : []));
        expect(issues.filter((x) => x.code === IssueCode.WAYPOINT_IN_ZONE).map((x) => x.item.index)).toEqual(inside);
        for (const x of issues.filter((y) => y.code === IssueCode.LEG_CROSSES_ZONE)) {
          const i = x.item.index!;
          expect(inside.includes(i) || inside.includes(i + 1)).toBe(false);
          expect(ring.contains(x.at!, 0.06)).toBe(true);
        }
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('flying the route backwards finds the same conflicts; work zones never conflict', () => {
    fc.assert(
      fc.property(arbZone, arbRoute, (paths, route) => {
        const forward = zoneConflictIssues(route, [zone(paths)]);
        const backward = zoneConflictIssues([...route].reverse(), [zone(paths)]);
        const n = route.length;
        const key = (x: (typeof forward)[number], rev: boolean) =>
          `${x.code}:${rev ? (x.item.kind === 'leg' ? n - 2 - x.item.index! : n - 1 - x.item.index!) : x.item.index}`;
        expect(backward.map((x) => key(x, true)).sort()).toEqual(forward.map((x) => key(x, false)).sort());
        expect(zoneConflictIssues(route, [zone(paths, ZoneKind.WORK)])).toEqual([]);
      }),
      { numRuns: fuzzRuns(100) },
    );
  });

  it('a route far outside the zone, or around it, never conflicts', () => {
    fc.assert(
      fc.property(arbStarPolygon(ORIGIN, 50, 1000), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (paths, turn) => {
        // An octagon of radius 1500 m around the origin: outside every star of radius <= 1000 m.
        const around = Array.from({ length: 9 }, (_, i) => at(1500 * Math.cos(turn + (i * Math.PI) / 4), 1500 * Math.sin(turn + (i * Math.PI) / 4)));
        expect(zoneConflictIssues(around, [zone(paths, ZoneKind.NO_FLY)])).toEqual([]);
      }),
      { numRuns: fuzzRuns(100) },
    );
  });
});
