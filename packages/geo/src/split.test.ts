import { WAYPOINT_LIMITS } from '@nest/contracts';
import { describe, expect, it } from 'vitest';
import { CAMERA_6K } from './camera.js';
import { corridorGrid } from './corridor.js';
import { estimateFlight } from './estimate.js';
import { splitSurvey } from './split.js';
import { surveyGrid } from './survey.js';
import { metres, shape, square } from './test-fixtures.js';
import { ringArea } from './validation.js';

const key = (pts: readonly { lat: number; lng: number }[]) => pts.map((p) => `${p.lat.toFixed(9)},${p.lng.toFixed(9)}`).join(' ');

describe('splitSurvey', () => {
  it("splits the issue's case, 10 km2 at 2 cm GSD, into parts each within the budget (take-off and return included) and the waypoint limit, covering the grid's transects exactly once", () => {
    const side = Math.sqrt(10e6);
    const area = square(side);
    expect(ringArea(area)).toBeCloseTo(10e6, -5);
    const home = metres(-200, -200);
    const grid = surveyGrid(area, { camera: CAMERA_6K, gsd: 2, frontOverlap: 80, sideOverlap: 70, start: home });
    const budgetS = 25 * 60;
    const whole = estimateFlight({ waypoints: grid.waypoints.map((p) => ({ ...p, height: grid.height })), auto_speed: 12 }, { home });
    expect(whole.total).toBeGreaterThan(5 * budgetS); // the whole survey is many batteries long
    const parts = splitSurvey(grid, { budgetS, takeoff: home, speed: 12 });
    expect(parts.length).toBeGreaterThanOrEqual(Math.ceil(whole.total / budgetS));
    for (const p of parts) {
      expect(p.estTime).toBeLessThanOrEqual(budgetS);
      const est = estimateFlight({ waypoints: p.waypoints.map((w) => ({ ...w, height: grid.height })), auto_speed: 12, default_height: grid.height, finish_action: 20 }, { home });
      expect(Math.round(est.total)).toBe(p.estTime);
      expect(p.waypoints.length).toBeLessThanOrEqual(WAYPOINT_LIMITS.maxWaypoints);
      expect(p.roles[0]).toBe('entry');
      expect(p.roles[p.roles.length - 1]).toBe('exit');
    }
    // Whole transects, in the sweep order: the parts' transects one after another are the grid's.
    expect(parts.flatMap((p) => p.transects.map(key))).toEqual(grid.transects.map(key));
    expect(parts.reduce((n, p) => n + p.photoCount, 0)).toBe(grid.photoCount);
    // The first part is the one nearest the take-off point.
    expect(parts[0]!.waypoints[0]).toEqual(grid.waypoints[0]);
  });

  it('keeps a survey that fits one battery whole', () => {
    const grid = surveyGrid(square(300), { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, turnDistance: 10 });
    const parts = splitSurvey(grid, { budgetS: 1500, takeoff: metres(-50, -50), speed: 10 });
    expect(parts).toHaveLength(1);
    expect(parts[0]!.waypoints).toEqual(grid.waypoints);
    expect(parts[0]!.roles).toEqual(grid.roles);
  });

  it('keeps run-ins and run-outs with their transect', () => {
    const grid = surveyGrid(square(1000), { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, turnDistance: 20 });
    const parts = splitSurvey(grid, { budgetS: 600, takeoff: metres(-50, -50), speed: 10 });
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.roles[0]).toBe('run_in');
      expect(p.roles[p.roles.length - 1]).toBe('run_out');
      expect(p.estTime).toBeLessThanOrEqual(600);
    }
    expect(parts.flatMap((p) => p.waypoints).length).toBe(grid.waypoints.length);
  });

  it('cuts a transect that alone exceeds the budget into stretches that fit, losing none of it', () => {
    const line = shape([
      [0, 0],
      [8000, 0],
    ]);
    const grid = corridorGrid(line, { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, width: 10 });
    expect(grid.transects).toHaveLength(1);
    // 800 s of line, the take-off point beside its middle: no stretch can be the whole line.
    const parts = splitSurvey(grid, { budgetS: 1500, takeoff: metres(4000, -100), speed: 10 });
    expect(parts.length).toBeGreaterThan(1);
    let total = 0;
    for (const p of parts) {
      expect(p.estTime).toBeLessThanOrEqual(1500);
      expect(p.transects).toHaveLength(1);
      total += p.length;
    }
    expect(total).toBeCloseTo(8000, -1);
    // Each stretch starts where the previous one ended.
    for (let i = 1; i < parts.length; i++) expect(parts[i]!.waypoints[0]).toEqual(parts[i - 1]!.waypoints[parts[i - 1]!.waypoints.length - 1]);
  });

  it('keeps parts within a waypoint limit', () => {
    const grid = surveyGrid(square(1500), { camera: CAMERA_6K, height: 40, frontOverlap: 80, sideOverlap: 80 });
    const parts = splitSurvey(grid, { budgetS: 1e9, speed: 10, maxWaypoints: 20 });
    expect(parts.length).toBe(Math.ceil(grid.waypoints.length / 20));
    for (const p of parts) expect(p.waypoints.length).toBeLessThanOrEqual(20);
  });

  it('refuses an area out of reach of the take-off point', () => {
    const grid = surveyGrid(square(200, 50_000, 0), { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70 });
    expect(() => splitSurvey(grid, { budgetS: 600, takeoff: metres(0, 0), speed: 10 })).toThrow(RangeError);
  });
});
