import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WAYPOINT_DISTANCE_LIMIT_LONG_M, WAYPOINT_LIMITS, type Waypoint } from '@nest/contracts';
import { hasIssue, issueLines } from './issues.js';
import { arbStarPolygon, metres, ORIGIN, shape, square, uShape } from './test-fixtures.js';
import {
  fenceOverlapIssues,
  fenceShapeIssues,
  legDistanceIssues,
  legsInFenceIssues,
  ringArea,
  validateFence,
  validateRoute,
  waypointDistanceLimit,
  waypointHeightAboveFenceIssues,
  waypointsInFenceIssues,
  waypointValueIssues,
  type RouteInput,
} from './validation.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);
const fence = (boundary = square(1000), extra: Partial<{ id: string; name: string; max_height: number; sn_id: string }> = {}) => ({
  max_height: 120,
  boundary,
  ...extra,
});
const wp = (x: number, y: number, height = 50, extra: Partial<Waypoint> = {}) => ({ ...metres(x, y), height, ...extra });

describe('fence shape', () => {
  it('accepts a square, with or without a closing point', () => {
    expect(validateFence(fence())).toEqual([]);
    const closed = [...square(1000), square(1000)[0]!];
    expect(validateFence(fence(closed))).toEqual([]);
  });

  it('needs three distinct points', () => {
    const two = [metres(0, 0), metres(10, 0), metres(10, 0)];
    const issues = validateFence(fence(two, { name: 'North' }));
    expect(codes(issues)).toEqual(['fence.points_too_few']);
    expect(issues[0]!.text).toEqual({ zh: '围栏「North」至少需要 3 个边界点（当前 2 个）', en: 'Fence "North" needs at least 3 boundary points (has 2)' });
  });

  it('refuses non-finite or out-of-range coordinates, naming the point', () => {
    const bad = [metres(0, 0), { lat: NaN, lng: 114 }, metres(0, 100), { lat: 91, lng: 0 }];
    const issues = fenceShapeIssues({ boundary: bad });
    expect(codes(issues)).toEqual(['fence.point_invalid', 'fence.point_invalid']);
    expect(issues.map((i) => i.item.index)).toEqual([1, 3]);
    expect(issues[0]!.text.en).toBe('The fence: boundary point 2 has an invalid coordinate');
  });

  it('refuses a bow-tie and points at the crossing', () => {
    const bowTie = shape([
      [0, 0],
      [100, 100],
      [100, 0],
      [0, 100],
    ]);
    const issues = validateFence(fence(bowTie));
    expect(codes(issues)).toEqual(['fence.self_intersecting']);
    const c = metres(50, 50);
    expect(issues[0]!.at!.lat).toBeCloseTo(c.lat, 7);
    expect(issues[0]!.at!.lng).toBeCloseTo(c.lng, 7);
    expect(issues[0]!.text.zh).toBe('围栏的边界自相交');
  });

  it('refuses a ring that touches itself at a vertex', () => {
    const figureEight = shape([
      [0, 0],
      [200, 0],
      [100, 100],
      [200, 200],
      [0, 200],
      [100, 100],
    ]);
    expect(codes(validateFence(fence(figureEight)))).toEqual(['fence.self_intersecting']);
  });

  it('refuses collinear points (no area)', () => {
    const line = shape([
      [0, 0],
      [100, 0],
      [200, 0],
    ]);
    expect(codes(validateFence(fence(line)))).toEqual(['fence.area_zero']);
  });

  it('needs a max height above 0 and within the limit', () => {
    expect(codes(validateFence(fence(square(100), { max_height: 0 })))).toEqual(['fence.max_height']);
    expect(codes(validateFence(fence(square(100), { max_height: WAYPOINT_LIMITS.heightMax + 1 })))).toEqual(['fence.max_height']);
    expect(codes(validateFence(fence(square(100), { max_height: NaN })))).toEqual(['fence.max_height']);
    expect(validateFence(fence(square(100), { max_height: WAYPOINT_LIMITS.heightMax }))).toEqual([]);
  });

  it('measures area with turf (a 1 km square is 1 km²)', () => {
    expect(ringArea(square(1000))).toBeGreaterThan(0.999e6);
    expect(ringArea(square(1000))).toBeLessThan(1.001e6);
  });
});

describe('fences of one device', () => {
  const a = fence(square(100), { id: 'a', name: 'A', sn_id: 'N1' });

  it('refuses crossing, containing and identical fences, naming the other', () => {
    const crossing = fence(square(100, 50, 50), { id: 'b', name: 'B', sn_id: 'N1' });
    const inner = fence(square(20, 40, 40), { id: 'c', name: 'C', sn_id: 'N1' });
    const same = fence(square(100), { id: 'd', name: 'D', sn_id: 'N1' });
    const issues = fenceOverlapIssues(a, [crossing, inner, same]);
    expect(codes(issues)).toEqual(['fence.overlap', 'fence.overlap', 'fence.overlap']);
    expect(issues.map((i) => i.item.id)).toEqual(['b', 'c', 'd']);
    expect(issues[0]!.text).toEqual({ zh: '围栏「A」与围栏「B」重叠', en: 'Fence "A" overlaps fence "B"' });
    // The pointer lies in the common area (50..100, 50..100).
    const at = issues[0]!.at!;
    expect(waypointsInFenceIssues([at], { boundary: square(50, 50, 50) })).toEqual([]);
  });

  it('allows fences that touch along an edge or at a corner (decision: touching is not overlapping)', () => {
    const edge = fence(square(100, 100, 0), { id: 'e', sn_id: 'N1' });
    const corner = fence(square(100, 100, 100), { id: 'f', sn_id: 'N1' });
    const partEdge = fence(square(50, 100, 25), { id: 'g', sn_id: 'N1' });
    expect(fenceOverlapIssues(a, [edge, corner, partEdge])).toEqual([]);
  });

  it('skips the edited fence itself and fences of other devices', () => {
    const stored = fence(square(100, 10, 10), { id: 'a', sn_id: 'N1' });
    const otherDevice = fence(square(100, 10, 10), { id: 'x', sn_id: 'N2' });
    expect(validateFence(a, [stored, otherDevice])).toEqual([]);
  });

  it('does not compare a broken fence', () => {
    const bowTie = shape([
      [0, 0],
      [100, 100],
      [100, 0],
      [0, 100],
    ]);
    expect(codes(validateFence(fence(bowTie, { id: 'z' }), [a]))).toEqual(['fence.self_intersecting']);
  });
});

describe('route rules', () => {
  const f = fence(square(1000));
  const ok: RouteInput = {
    mission_type: 1,
    height_type: 0,
    auto_speed: 8,
    max_speed: 12,
    default_height: 60,
    return_height: 80,
    waypoints: [wp(100, 100), wp(500, 100, 60, { hover: 5, takephoto: 1, uav_yaw: 90, gimbal_ctrl: { pitch: -90, yaw: 0 } }), wp(500, 500)],
  };

  it('accepts a plain route', () => {
    expect(validateRoute(ok, f)).toEqual([]);
  });

  it('names a waypoint outside the fence, 1-based, in both languages', () => {
    const route = { ...ok, waypoints: [wp(100, 100), wp(200, 100), wp(1500, 100), wp(200, 200)] };
    const issues = validateRoute(route, f);
    expect(codes(issues)).toEqual(['waypoint.outside_fence']);
    expect(issues[0]!.item).toEqual({ kind: 'waypoint', index: 2 });
    expect(issues[0]!.text).toEqual({ zh: '第 3 个航点不在围栏内', en: 'Waypoint 3 is outside the fence' });
    expect(issues[0]!.at).toEqual(metres(1500, 100));
  });

  it('counts waypoints on the boundary as inside (decision), within 5 cm', () => {
    const onBoundary = [metres(0, 0), metres(1000, 500), metres(500, 1000), metres(0, 250)];
    expect(waypointsInFenceIssues(onBoundary, f)).toEqual([]);
    expect(waypointsInFenceIssues([metres(-0.04, 300)], f)).toEqual([]);
    expect(codes(waypointsInFenceIssues([metres(-0.2, 300)], f))).toEqual(['waypoint.outside_fence']);
    // A route running along the boundary stays inside.
    expect(legsInFenceIssues([metres(0, 0), metres(1000, 0), metres(1000, 1000)], f)).toEqual([]);
  });

  it('refuses a leg that leaves a concave fence between inside waypoints', () => {
    const u = fence(uShape(300, 300, 100, 100));
    const across = [wp(50, 250), wp(250, 250)];
    const issues = validateRoute({ waypoints: across }, u);
    expect(codes(issues)).toEqual(['leg.outside_fence']);
    expect(issues[0]!.item).toEqual({ kind: 'leg', index: 0 });
    expect(issues[0]!.text.en).toBe('The leg from waypoint 1 to 2 leaves the fence');
    expect(validateRoute({ waypoints: across }, u, { checkLegs: false })).toEqual([]);
    expect(validateRoute({ waypoints: [wp(50, 250), wp(50, 50), wp(250, 50), wp(250, 250)] }, u)).toEqual([]);
  });

  it('limits the distance between adjacent waypoints: 2 km by default, 5 km where allowed', () => {
    const big = fence(square(10_000));
    const route = { waypoints: [wp(100, 100), wp(2200, 100), wp(2200, 2000)] };
    const issues = validateRoute(route, big);
    expect(codes(issues)).toEqual(['leg.too_long']);
    expect(issues[0]!.item).toEqual({ kind: 'leg', index: 0 });
    expect(issues[0]!.text.en).toBe('Waypoints 1 and 2 are 2.10 km apart (limit 2.00 km)');
    expect(issues[0]!.text.zh).toBe('第 1 与第 2 个航点相距 2.10 km，超过 2.00 km 的限制');
    expect(validateRoute(route, big, { distanceLimitM: waypointDistanceLimit(true) })).toEqual([]);
    expect(waypointDistanceLimit(true)).toBe(WAYPOINT_DISTANCE_LIMIT_LONG_M);
    expect(codes(legDistanceIssues([wp(0, 0), wp(5001, 0)], 5000))).toEqual(['leg.too_long']);
  });

  it('refuses adjacent waypoints at the same place, but not one above the other', () => {
    expect(codes(legDistanceIssues([wp(10, 10), wp(10, 10)]))).toEqual(['leg.zero_length']);
    expect(legDistanceIssues([wp(10, 10, 50), wp(10, 10, 80)])).toEqual([]);
  });

  it('checks waypoint values: heights and speeds not 0, within limits, and the action ranges', () => {
    const bad = [
      wp(1, 1, 0),
      wp(2, 2, WAYPOINT_LIMITS.heightMax + 1),
      wp(3, 3, 50, { speed: 0 }),
      wp(4, 4, 50, { speed: 31 }),
      wp(5, 5, 50, { uav_yaw: 361 }),
      wp(6, 6, 50, { uav_yaw: -1 }),
      wp(7, 7, 50, { gimbal_ctrl: { pitch: -181, yaw: 180 } }),
      wp(8, 8, 50, { gimbal_ctrl: { pitch: 0, yaw: 200 } }),
      wp(9, 9, 50, { hover: 256 }),
      wp(10, 10, 50, { hover: 1.5 }),
      wp(11, 11, 50, { takephoto: 3 as 1 }),
      wp(12, 12, 50, { cam_trig_dist: -1 }),
      wp(13, 13, 50, { speed: 15 }),
    ];
    const issues = waypointValueIssues(bad, 12);
    expect(issues.map((i) => [i.item.index, i.code])).toEqual([
      [0, 'waypoint.height'],
      [1, 'waypoint.height'],
      [2, 'waypoint.speed'],
      [3, 'waypoint.speed'],
      [4, 'waypoint.yaw'],
      [5, 'waypoint.yaw'],
      [6, 'waypoint.gimbal_pitch'],
      [7, 'waypoint.gimbal_yaw'],
      [8, 'waypoint.hover'],
      [9, 'waypoint.hover'],
      [10, 'waypoint.photo'],
      [11, 'waypoint.trigger_distance'],
      [12, 'waypoint.speed_above_max'],
    ]);
    expect(issues[4]!.text).toEqual({ zh: '第 5 个航点的机头朝向须在 0 到 360 度之间', en: 'Waypoint 5: heading must be 0 to 360 degrees' });
    expect(issues[10]!.text.en).toBe('Waypoint 11: choose either a photo or a panorama photo');
    // Edges of the ranges are allowed; 0 stops the camera trigger.
    const edges = [wp(1, 1, 50, { uav_yaw: 0, hover: 255, gimbal_ctrl: { pitch: -180, yaw: 180 }, takephoto: 2, cam_trig_dist: 0 }), wp(2, 2, 50, { uav_yaw: 360, hover: 0 })];
    expect(waypointValueIssues(edges)).toEqual([]);
  });

  it('keeps relative heights under the fence max height', () => {
    const issues = validateRoute({ ...ok, waypoints: [wp(100, 100, 120), wp(200, 100, 121)] }, f);
    expect(codes(issues)).toEqual(['waypoint.above_fence']);
    expect(issues[0]!.text).toEqual({ zh: '第 2 个航点的高度 121 米超过围栏最大高度 120 米', en: "Waypoint 2 is at 121 m, above the fence's maximum height of 120 m" });
  });

  it('lists a height above the fence broken at many waypoints once, with the count (a survey at one height)', () => {
    const many = [wp(100, 100, 150), wp(300, 100, 150), wp(300, 300, 150), wp(100, 300, 150), wp(100, 500, 150)];
    const issues = validateRoute({ ...ok, waypoints: many }, f);
    // Each waypoint keeps its issue (the map marks each one) ...
    expect(issues.filter((i) => i.code === 'waypoint.above_fence').map((i) => i.item.index)).toEqual([0, 1, 2, 3, 4]);
    // ... and the list says it once.
    expect(issueLines(issues)).toEqual([
      {
        code: 'waypoint.above_fence',
        count: 5,
        text: { zh: '共 5 个航点的高度 150 米超过围栏最大高度 120 米', en: "Each of 5 waypoints is at 150 m, above the fence's maximum height of 120 m" },
      },
    ]);
    // Different heights are different lines; a lone issue keeps its own text; the same text twice is one line.
    const mixed = validateRoute({ ...ok, waypoints: [wp(100, 100, 150), wp(300, 100, 150), wp(300, 300, 130)] }, f);
    expect(issueLines(mixed).map((l) => [l.count, l.text.en])).toEqual([
      [2, "Each of 2 waypoints is at 150 m, above the fence's maximum height of 120 m"],
      [1, "Waypoint 3 is at 130 m, above the fence's maximum height of 120 m"],
    ]);
    const twice = [...mixed.slice(2), ...mixed.slice(2)];
    expect(issueLines(twice)).toHaveLength(1);
    expect(issueLines(twice)[0]!.count).toBe(1);
  });

  it('compares altitude heights with max height + ground elevation when it is given', () => {
    const route = { ...ok, height_type: 1, default_height: 500, return_height: 500, waypoints: [wp(100, 100, 500), wp(200, 100, 560)] };
    expect(validateRoute(route, f)).toEqual([]); // ground unknown: not compared
    expect(validateRoute(route, f, { groundElevation: 450 })).toEqual([]);
    const issues = validateRoute(route, f, { groundElevation: 430 });
    expect(codes(issues)).toEqual(['waypoint.above_fence']);
    expect(issues[0]!.text.en).toBe("Waypoint 2 is at 560 m, above the fence's maximum height of 550 m (ground 430 m + fence maximum 120 m)");
    expect(codes(waypointHeightAboveFenceIssues(route.waypoints, 120, 1, [400, 430]))).toEqual(['waypoint.above_fence']);
    expect(waypointHeightAboveFenceIssues(route.waypoints, 120, 1, [400, null])).toEqual([]);
  });

  it('needs two waypoints on a waypoint route, and at most the limit on any route', () => {
    expect(codes(validateRoute({ ...ok, waypoints: [wp(1, 1)] }, f))).toEqual(['route.waypoints_too_few']);
    expect(validateRoute({ ...ok, mission_type: 2, waypoints: [] }, f)).toEqual([]);
    const many = Array.from({ length: WAYPOINT_LIMITS.maxWaypoints + 1 }, (_, i) => wp(10 + (i % 50) * 10, 10 + Math.floor(i / 50) * 10));
    expect(codes(validateRoute({ ...ok, waypoints: many }, f))).toEqual(['route.waypoints_too_many']);
  });

  it('checks route settings: cruise speed not above max speed, no zero values', () => {
    const issues = validateRoute({ ...ok, auto_speed: 15, max_speed: 12, default_height: 0, return_height: -5 }, f);
    expect(codes(issues)).toEqual(['route.default_height', 'route.return_height', 'route.speed_order']);
    expect(issues[2]!.text.en).toBe('Cruise speed 15 m/s must not exceed the maximum speed 12 m/s');
    expect(codes(validateRoute({ ...ok, auto_speed: 0 }, f))).toEqual(['route.auto_speed']);
  });

  it('needs a usable fence', () => {
    expect(codes(validateRoute(ok, null))).toEqual(['route.no_fence']);
    expect(codes(validateRoute(ok, fence([metres(0, 0), metres(1, 1)])))).toEqual(['route.fence_invalid']);
  });

  it('hasIssue finds codes and prefixes', () => {
    const issues = validateRoute({ ...ok, waypoints: [wp(1, 1, 0)] }, f);
    expect(hasIssue(issues, 'route')).toBe(true);
    expect(hasIssue(issues, 'waypoint.height')).toBe(true);
    expect(hasIssue(issues, 'fence')).toBe(false);
  });
});

describe('properties', () => {
  it('a star-shaped polygon is a valid fence holding its vertices and centre, not a far point', () => {
    fc.assert(
      fc.property(arbStarPolygon(), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), (poly, dir) => {
        expect(validateFence({ max_height: 100, boundary: poly })).toEqual([]);
        const f = { boundary: poly };
        expect(waypointsInFenceIssues([...poly, ORIGIN], f)).toEqual([]);
        const far = metres(5000 * Math.cos(dir), 5000 * Math.sin(dir));
        expect(codes(waypointsInFenceIssues([far], f))).toEqual(['waypoint.outside_fence']);
        // Legs from the centre to every vertex stay inside (the centre sees the whole star).
        expect(legsInFenceIssues(poly.flatMap((p) => [ORIGIN, p]), f)).toEqual([]);
      }),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('refuses every bow-tie', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 10, max: 2000, noNaN: true }),
        fc.double({ min: 10, max: 2000, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        (w, h, skew) => {
          const bowTie = shape([
            [0, 0],
            [w, h],
            [w, skew * h],
            [0, h],
          ]);
          expect(codes(validateFence({ max_height: 100, boundary: bowTie }))).toEqual(['fence.self_intersecting']);
        },
      ),
      { numRuns: fuzzRuns(150) },
    );
  });

  it('a fence shifted by less than its size overlaps its original; one shifted by its size only touches', () => {
    fc.assert(
      fc.property(fc.double({ min: 20, max: 1000, noNaN: true }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (size, f) => {
        const a = { id: 'a', max_height: 100, boundary: square(size) };
        const b = { id: 'b', max_height: 100, boundary: square(size, size * f, size * f) };
        const c = { id: 'c', max_height: 100, boundary: square(size, size, 0) };
        expect(codes(fenceOverlapIssues(a, [b, c]))).toEqual(['fence.overlap']);
      }),
      { numRuns: fuzzRuns(100) },
    );
  });
});
