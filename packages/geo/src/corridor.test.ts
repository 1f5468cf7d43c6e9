import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAMERA_6K, footprint, lineSpacingFor } from './camera.js';
import { corridorAsSurvey, corridorFromSettings, corridorGrid, corridorLines, JOIN_TOLERANCE } from './corridor.js';
import type { LatLng } from './coords.js';
import type { XY } from './local.js';
import { pointSegmentDistance } from './polygon.js';
import { routeEstimate } from './estimate.js';
import { surveyWaypoints } from './survey.js';
import { metres, shape, toMetres } from './test-fixtures.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const xy = (pts: readonly LatLng[]): XY[] => pts.map((p) => toMetres(p));
const near = (p: XY, line: readonly XY[]): number => {
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) best = Math.min(best, pointSegmentDistance(p, line[i]!, line[i + 1]!));
  return best;
};
const flat = (lines: LatLng[][][]): XY[][] => lines.flat().map(xy);

/**
 * The nearest point of the polyline to p: its distance and whether it is one of the line's two ends
 * (the band ends square there: such points are beyond the corridor).
 */
function nearest(p: XY, line: readonly XY[]): { d: number; atEnd: boolean } {
  let best = { d: Infinity, atEnd: false };
  for (let i = 0; i + 1 < line.length; i++) {
    const a = line[i]!;
    const b = line[i + 1]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy);
    const d = pointSegmentDistance(p, a, b);
    if (d < best.d - 1e-9) best = { d, atEnd: (i === 0 && t < 0) || (i === line.length - 2 && t > 1) };
  }
  return best;
}

const spacing = 20;

describe('corridorLines', () => {
  it('covers a straight line with ceil(width / spacing) parallel lines, flown alternately, centred', () => {
    const line = shape([
      [0, 0],
      [600, 0],
    ]);
    const lines = corridorLines(line, { width: 90, lineSpacing: spacing });
    expect(lines).toHaveLength(5);
    const ys = lines.map((runs) => {
      expect(runs).toHaveLength(1);
      const [a, b] = xy(runs[0]!);
      expect(a!.y).toBeCloseTo(b!.y, 6);
      return a!.y;
    });
    expect(ys.map((y) => Math.round(y * 1e6) / 1e6)).toEqual([-40, -20, 0, 20, 40]);
    // Alternate directions: east, west, east...
    const dirs = lines.map((runs) => Math.sign(xy(runs[0]!)[1]!.x - xy(runs[0]!)[0]!.x));
    expect(dirs).toEqual([1, -1, 1, -1, 1]);
  });

  it('starts at the band corner nearest the take-off point', () => {
    const line = shape([
      [0, 0],
      [600, 0],
    ]);
    const lines = corridorLines(line, { width: 90, lineSpacing: spacing, start: metres(650, 70) });
    const first = xy(lines[0]![0]!);
    expect(first[0]!.x).toBeCloseTo(600, 6);
    expect(first[0]!.y).toBeCloseTo(40, 6);
  });

  it('turns an L-bend: outer lines go round the corner, inner lines are trimmed where they cross', () => {
    const line = shape([
      [0, 0],
      [500, 0],
      [500, 500],
    ]);
    const lines = corridorLines(line, { width: 100, lineSpacing: spacing });
    expect(lines).toHaveLength(5);
    const centre = xy(line);
    for (const runs of lines) {
      expect(runs).toHaveLength(1); // one run each: no loop left, no break
      const pts = xy(runs[0]!);
      // Every point of a line is at its offset from the centre line (never nearer), the joins at most
      // the tolerance farther (1 cm: the test's metric frame and the planner's differ in origin).
      const o = near(pts[0]!, centre); // a line starts at its offset from the centre line's end
      for (const p of pts) {
        const d = near(p, centre);
        expect(d).toBeGreaterThanOrEqual(o - 0.01);
        expect(d).toBeLessThanOrEqual(o + JOIN_TOLERANCE * spacing + 0.01);
      }
    }
    // The inner line at 40 m is cut at (460, 40): it ends on the other arm without overshooting.
    const inner = lines.map((r) => xy(r[0]!)).find((pts) => Math.abs(pts[0]!.y - 40) < 0.01 || Math.abs(pts[pts.length - 1]!.y - 40) < 0.01);
    expect(inner).toBeDefined();
    expect(inner!.some((p) => Math.abs(p.x - 460) < 0.01 && Math.abs(p.y - 40) < 0.01)).toBe(true);
    expect(Math.max(...inner!.map((p) => p.x))).toBeLessThanOrEqual(460 + 0.01);
  });

  it('turns a hairpin narrower than the band without loops: no line comes nearer the centre line than its offset', () => {
    const line = shape([
      [0, 0],
      [500, 0],
      [500, 30],
      [0, 30],
    ]);
    const lines = corridorLines(line, { width: 120, lineSpacing: spacing });
    const centre = xy(line);
    const offsets = [-50, -30, -10, 10, 30, 50];
    expect(lines.length).toBeGreaterThan(0);
    for (const pts of flat(lines)) {
      const d = Math.min(...pts.map((p) => near(p, centre)));
      // Each run keeps at one of the offsets: its nearest approach is that offset, and so is every leg's
      // middle's distance at least (a loop left in would come nearer).
      const o = offsets.map(Math.abs).find((v) => Math.abs(d - v) < 0.01);
      expect(o).toBeDefined();
      for (let i = 0; i + 1 < pts.length; i++) {
        const mid = { x: (pts[i]!.x + pts[i + 1]!.x) / 2, y: (pts[i]!.y + pts[i + 1]!.y) / 2 };
        expect(near(mid, centre)).toBeGreaterThanOrEqual(o! - 0.01);
      }
    }
    // Nothing between the arms is left unflown: points on the centre line's gap are near a line.
    for (let x = 10; x < 500; x += 37) expect(Math.min(...flat(lines).map((l) => near({ x, y: 15 }, l)))).toBeLessThanOrEqual(spacing / 2 + 1e-6);
  });

  it('flies one line, the centre line, when the width is less than one spacing', () => {
    const line = shape([
      [0, 0],
      [300, 100],
      [600, 0],
    ]);
    const lines = corridorLines(line, { width: 12, lineSpacing: spacing });
    expect(lines).toHaveLength(1);
    const pts = xy(lines[0]![0]!);
    const centre = xy(line);
    expect(pts).toHaveLength(3);
    pts.forEach((p, i) => {
      expect(p.x).toBeCloseTo(centre[i]!.x, 6);
      expect(p.y).toBeCloseTo(centre[i]!.y, 6);
    });
  });

  it('refuses impossible widths and spacings', () => {
    const line = shape([
      [0, 0],
      [100, 0],
    ]);
    expect(() => corridorLines(line, { width: 0, lineSpacing: 10 })).toThrow(RangeError);
    expect(() => corridorLines(line, { width: 50, lineSpacing: 0 })).toThrow(RangeError);
    expect(() => corridorLines(line, { width: 5000, lineSpacing: 1 })).toThrow(RangeError);
  });

  it('covers the band: every point within width/2 of the centre line is within half a spacing (plus the join tolerance) of a flown line', () => {
    // Centre lines of 2-6 points, legs 150-600 m, turns up to 150 degrees either way; widths 10-200 m.
    const arbLine = fc
      .tuple(
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: 150, max: 600, noNaN: true }), fc.double({ min: -2.6, max: 2.6, noNaN: true })), { minLength: 1, maxLength: 5 }),
      )
      .map(([heading, legs]) => {
        const pts: XY[] = [{ x: 0, y: 0 }];
        let h = heading;
        for (const [l, turn] of legs) {
          const last = pts[pts.length - 1]!;
          pts.push({ x: last.x + l * Math.cos(h), y: last.y + l * Math.sin(h) });
          h += turn;
        }
        return pts;
      });
    fc.assert(
      fc.property(
        arbLine,
        fc.double({ min: 10, max: 200, noNaN: true }),
        fc.array(fc.tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: -0.5, max: 0.5, noNaN: true })), { minLength: 40, maxLength: 40 }),
        (centreXY, width, samples) => {
          const centre = shape(centreXY.map((p) => [p.x, p.y] as const));
          const c = xy(centre);
          const flown = flat(corridorLines(centre, { width, lineSpacing: spacing }));
          for (const [k, t, f] of samples) {
            const i = k % (c.length - 1);
            const a = c[i]!;
            const b = c[i + 1]!;
            const l = Math.hypot(b.x - a.x, b.y - a.y);
            const p = { x: a.x + t * (b.x - a.x) - (f * width * (b.y - a.y)) / l, y: a.y + t * (b.y - a.y) + (f * width * (b.x - a.x)) / l };
            const n = nearest(p, c);
            if (n.atEnd || n.d > width / 2) continue;
            const d = Math.min(...flown.map((line) => near(p, line)));
            if (d > spacing / 2 + JOIN_TOLERANCE * spacing + 1e-6) return false;
          }
          return true;
        },
      ),
      { numRuns: fuzzRuns(80) },
    );
  });
});

describe('corridorGrid', () => {
  const line = shape([
    [0, 0],
    [800, 0],
    [800, 400],
  ]);

  it('derives spacing and trigger distance from the camera, counts photos per run and marks roles', () => {
    const grid = corridorGrid(line, { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, width: 150, turnDistance: 10 });
    const print = footprint(CAMERA_6K.visible, 80);
    expect(grid.lineSpacing).toBeCloseTo(lineSpacingFor(print.side, 70), 9);
    expect(grid.triggerDistance).toBeCloseTo(print.front * 0.2, 9);
    expect(grid.lineCount).toBe(Math.ceil(150 / grid.lineSpacing));
    expect(grid.roles[0]).toBe('run_in');
    expect(grid.roles[1]).toBe('entry');
    expect(grid.roles.filter((r) => r === 'entry')).toHaveLength(grid.transects.length);
    expect(grid.roles.filter((r) => r === 'exit')).toHaveLength(grid.transects.length);
    expect(grid.roles.includes('bend')).toBe(true);
    expect(grid.photoCount).toBeGreaterThan(grid.transects.length * Math.floor(1100 / grid.triggerDistance));
    expect(grid.area).toBeCloseTo(1200 * 150, -2);
  });

  it('makes route waypoints that trigger from each entry through its bends to its exit, and an estimate', async () => {
    const grid = corridorGrid(line, { camera: CAMERA_6K, height: 80, frontOverlap: 80, sideOverlap: 70, width: 60 });
    const { waypoints } = await surveyWaypoints(corridorAsSurvey(grid), { height: 80, heightType: 0, speed: 8 });
    expect(waypoints).toHaveLength(grid.waypoints.length);
    grid.roles.forEach((r, i) => {
      if (r === 'entry') expect(waypoints[i]!.cam_trig_dist).toBeCloseTo(grid.triggerDistance, 1);
      else if (r === 'exit') expect(waypoints[i]!.cam_trig_dist).toBe(0);
      else expect(waypoints[i]!.cam_trig_dist).toBeUndefined();
    });
    const est = routeEstimate({ waypoints, auto_speed: 8, default_height: 80 }, metres(-50, -50));
    expect(est.distance).toBeGreaterThan(grid.lineCount * 1100);
    expect(est.est_time).toBeGreaterThan(est.distance / 8);
  });

  it('from settings: a custom camera without its sensor answers issues; presets give a grid', () => {
    const base = { photo_type: 2 as const, default_height: 80, course_overlap: 80, lateral_overlap: 70, turn_distance: 0 };
    const bad = corridorFromSettings(line, 50, { ...base, camera_type: 'custom' });
    expect(bad.grid).toBeNull();
    expect(bad.issues.length).toBeGreaterThan(0);
    const ok = corridorFromSettings(line, 50, { ...base, camera_type: '6k' }, metres(900, 450));
    expect(ok.grid).not.toBeNull();
    // Starts at the far end, nearest the take-off point.
    const first = toMetres(ok.grid!.waypoints[0]!);
    expect(first.y).toBeGreaterThan(350);
  });
});
