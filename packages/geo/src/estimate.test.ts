import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMmSs } from '@nest/contracts';
import { STOP_TURN_ANGLE_DEG, estimateFlight, estimateFlightTime, legTime, polygonArea, routeDistance, routeEstimate, turnAngle, type EstimateRoute } from './estimate.js';
import { metres, square } from './test-fixtures.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const line = (xs: number[], height = 50) => xs.map((x) => ({ ...metres(x, 0), height }));

describe('legTime (trapezoidal speed profile)', () => {
  it('adds v / 2a per stop when the leg is long enough to reach the speed', () => {
    expect(legTime(1000, 10, 2, true, true)).toBeCloseTo(100 + 5, 9);
    expect(legTime(1000, 10, 2, true, false)).toBeCloseTo(100 + 2.5, 9);
    expect(legTime(1000, 10, 2, false, false)).toBeCloseTo(100, 9);
    expect(legTime(0, 10, 2, true, true)).toBe(0);
  });

  it('accelerates and brakes over short legs', () => {
    // 2 * v^2 / 2a = 50 m needed to reach 10 m/s and stop again: 20 m never reaches it.
    expect(legTime(20, 10, 2, true, true)).toBeCloseTo(2 * Math.sqrt(20 / 2), 9);
    expect(legTime(20, 10, 2, true, false)).toBeCloseTo(Math.sqrt(40 / 2), 9);
    // Continuous where the speed is just reached.
    expect(legTime(50, 10, 2, true, true)).toBeCloseTo(2 * Math.sqrt(50 / 2), 9);
  });

  it('measures turn angles', () => {
    expect(turnAngle(metres(0, 0), metres(100, 0), metres(200, 0))).toBeCloseTo(0, 6);
    expect(turnAngle(metres(0, 0), metres(100, 0), metres(100, 100))).toBeCloseTo(90, 6);
    expect(turnAngle(metres(0, 0), metres(100, 0), metres(0, 0))).toBeCloseTo(180, 6);
  });
});

describe('estimateFlight', () => {
  it('adds climb, legs with stop-and-turn, hovers and the finish (worked example)', () => {
    const route: EstimateRoute = { waypoints: line([0, 1000]), auto_speed: 10, default_height: 50, finish_action: 30 };
    const e = estimateFlight(route);
    expect(e.climb).toBeCloseTo(50 / 3, 6); // 3 m/s up
    expect(e.legs).toBeCloseTo(105, 3); // 100 s + 2 x 2.5 s
    expect(e.finish).toBeCloseTo(25, 6); // 2 m/s down
    expect(e.total).toBeCloseTo(50 / 3 + 105 + 25, 3);
    expect(e.distance).toBeCloseTo(1000, 0);
    expect(e.stops).toBe(2);
    expect(formatMmSs(estimateFlightTime(route))).toBe('02:26');
  });

  it('stops at turns, hovers and panoramas, flies through straight waypoints', () => {
    const straight = estimateFlight({ waypoints: line([0, 500, 1000]), auto_speed: 10, finish_action: 10 });
    expect(straight.stops).toBe(2);
    expect(straight.legs).toBeCloseTo(105, 3);
    const hover = estimateFlight({ waypoints: [...line([0]), { ...metres(500, 0), height: 50, hover: 12 }, ...line([1000])], auto_speed: 10, finish_action: 10 });
    expect(hover.stops).toBe(3);
    expect(hover.hover).toBe(12);
    expect(hover.legs).toBeCloseTo(110, 3);
    const turn = estimateFlight({ waypoints: [...line([0, 500]), { ...metres(500, 500), height: 50 }], auto_speed: 10, finish_action: 10 });
    expect(turn.stops).toBe(3);
    expect(turn.legs).toBeCloseTo(110, 2);
  });

  it('applies waypoint speeds from that waypoint on, capped by the max speed', () => {
    const wps = [{ ...metres(0, 0), height: 50, speed: 5 }, { ...metres(1000, 0), height: 50, speed: 20 }, { ...metres(1000, 1000), height: 50 }];
    const e = estimateFlight({ waypoints: wps, auto_speed: 10, max_speed: 12, finish_action: 10 });
    expect(e.legs).toBeCloseTo(1000 / 5 + 5 / 2 + 1000 / 12 + 12 / 2, 1);
  });

  it('takes the longer of horizontal and vertical time within a leg', () => {
    const e = estimateFlight({ waypoints: [{ ...metres(0, 0), height: 20 }, { ...metres(10, 0), height: 320 }], auto_speed: 10, finish_action: 10 });
    expect(e.legs).toBeCloseTo(100, 6); // 300 m up at 3 m/s
  });

  it('finishes per action: hover, land, back to the first waypoint, return home', () => {
    const base = { waypoints: line([0, 1000]), auto_speed: 10, default_height: 50, return_height: 80 };
    const home = metres(-1000, 0);
    expect(estimateFlight({ ...base, finish_action: 10 }).finish).toBe(0);
    expect(estimateFlight({ ...base, finish_action: 30 }).finish).toBeCloseTo(25, 6);
    expect(estimateFlight({ ...base, finish_action: 40 }).finish).toBeCloseTo(105, 2);
    const rth = estimateFlight({ ...base, finish_action: 20 }, { home });
    expect(rth.finish).toBeCloseTo(30 / 3 + 205 + 80 / 2, 1);
    expect(rth.distance).toBeCloseTo(1000 + 1000 + 2000, 0);
    expect(estimateFlight({ waypoints: [], auto_speed: 10 }).total).toBe(0);
  });

  it('answers distance and area helpers', () => {
    expect(routeDistance(line([0, 300, 1000]))).toBeCloseTo(1000, 0);
    expect(polygonArea(square(100))).toBeCloseTo(10_000, -1);
  });

  const arbRoute = fc.array(
    fc.record({ x: fc.double({ min: -3000, max: 3000, noNaN: true }), y: fc.double({ min: -3000, max: 3000, noNaN: true }), h: fc.double({ min: 10, max: 300, noNaN: true }), hover: fc.integer({ min: 0, max: 20 }) }),
    { minLength: 2, maxLength: 12 },
  );

  it('never decreases when the route is stretched (longer legs, same turns)', () => {
    fc.assert(
      fc.property(arbRoute, fc.double({ min: 1, max: 5, noNaN: true }), fc.double({ min: 1, max: 15, noNaN: true }), (pts, k, speed) => {
        const route = (f: number): EstimateRoute => ({
          waypoints: pts.map((p) => ({ ...metres(p.x * f, p.y * f), height: p.h, hover: p.hover })),
          auto_speed: speed,
          default_height: 50,
        });
        // A turn right at the stop threshold may flip with the tiny change of angles a stretch brings.
        const w = route(1).waypoints;
        for (let i = 1; i + 1 < w.length; i++) fc.pre(Math.abs(turnAngle(w[i - 1]!, w[i]!, w[i + 1]!) - STOP_TURN_ANGLE_DEG) > 0.5);
        const a = estimateFlight(route(1));
        const b = estimateFlight(route(k));
        expect(b.distance).toBeGreaterThanOrEqual(a.distance - 1e-6);
        expect(b.total).toBeGreaterThanOrEqual(a.total - 1e-6);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('never increases when the speed rises, and falls on long legs', () => {
    fc.assert(
      fc.property(arbRoute, fc.double({ min: 1, max: 14, noNaN: true }), fc.double({ min: 0.1, max: 10, noNaN: true }), (pts, v, dv) => {
        const route = (speed: number): EstimateRoute => ({
          waypoints: pts.map((p) => ({ ...metres(p.x, p.y), height: p.h, hover: p.hover })),
          auto_speed: speed,
          default_height: 50,
        });
        expect(estimateFlightTime(route(v + dv))).toBeLessThanOrEqual(estimateFlightTime(route(v)) + 1e-9);
      }),
      { numRuns: fuzzRuns(200) },
    );
    const long = (speed: number) => estimateFlightTime({ waypoints: line([0, 2000, 0]), auto_speed: speed });
    expect(long(12)).toBeLessThan(long(8));
  });
});

describe('routeEstimate (the one estimate: stored by the server, shown by the list and the editor)', () => {
  const home = metres(-500, 0);
  const route: EstimateRoute = { waypoints: line([0, 1000, 2000]), auto_speed: 10, max_speed: 12, default_height: 50, return_height: 60, finish_action: 20 };

  it('is the model of estimateFlight from the take-off point, rounded once to whole seconds', () => {
    const e = routeEstimate(route, home);
    expect(e.flight).toEqual(estimateFlight(route, { home }));
    expect(e.est_time).toBe(Math.round(e.flight.total));
    expect(Number.isInteger(e.est_time)).toBe(true);
    expect(e.distance).toBe(Math.round(routeDistance(route.waypoints) * 100) / 100);
    // Step by step: climb 50 m at 3 m/s; home to the first waypoint (500 m, stop to stop); two 1 km legs
    // (no turn at the middle one: stops at both ends only); return: climb 10 m, 2 km home, descend 60 m.
    const legs = legTime(500, 10, 2, true, true) + legTime(1000, 10, 2, true, false) + legTime(1000, 10, 2, false, true);
    const finish = 10 / 3 + legTime(2500, 10, 2, true, true) + 60 / 2;
    expect(e.flight.total).toBeCloseTo(50 / 3 + legs + finish, 1);
  });

  it('without a take-off point has no home legs (shorter), the same input gives the same answer', () => {
    expect(routeEstimate(route).est_time).toBeLessThan(routeEstimate(route, home).est_time);
    expect(routeEstimate(route, null)).toEqual(routeEstimate(route));
    expect(routeEstimate({ ...route, waypoints: [...route.waypoints] }, { ...home })).toEqual(routeEstimate(route, home));
    expect(routeEstimate({ ...route, waypoints: [] }, home).est_time).toBe(0);
  });
});
