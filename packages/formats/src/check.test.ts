import { describe, expect, it } from 'vitest';
import type { PlanDocument } from './index.js';
import { checkAgainstTask } from './index.js';

const square = [
  { lat: 30, lng: 120 },
  { lat: 30, lng: 120.01 },
  { lat: 30.01, lng: 120.01 },
  { lat: 30.01, lng: 120 },
];
const doc = (d: Partial<PlanDocument>): PlanDocument => ({ fences: [], routes: [], surveys: [], ...d });
const route = (n: number, extra: Partial<PlanDocument['routes'][number]> = {}) => ({
  name: 'R',
  mission_type: 1 as const,
  height_type: 0 as const,
  waypoints: Array.from({ length: n }, (_, i) => ({ lat: 30 + i * 0.001, lng: 120, height: 50 })),
  ...extra,
});

describe('checkAgainstTask: the file must match the task type', () => {
  it('fence task without a fence names what the file holds', () => {
    const r = checkAgainstTask(doc({ routes: [route(3), route(2)], surveys: [{ name: 'S', polygon: square }] }), 'fence');
    expect(r).toEqual({
      ok: false,
      error: { zh: '文件中没有围栏（文件包含 2 条航线、1 个测区）', en: 'The file contains no fence (it contains 2 routes, 1 survey area)' },
    });
  });
  it('a single open line is explained as not a complete fence', () => {
    const r = checkAgainstTask(doc({ routes: [route(3)] }), 'fence');
    expect(!r.ok && r.error.en).toBe('"R" is an open line, not a complete fence');
  });
  it('a closed line (first point = last point) serves as the fence, with a warning', () => {
    const ring = [...square, square[0]!].map((p) => ({ ...p, height: 50 }));
    const r = checkAgainstTask(doc({ routes: [{ ...route(0), waypoints: ring }] }), 'fence');
    expect(r.ok && r.item.boundary).toEqual(square);
    expect(r.ok && r.warnings[0]!.en).toBe('The closed line "R" was imported as the fence');
  });
  it('waypoint task without a route', () => {
    const r = checkAgainstTask(doc({ fences: [{ name: 'F', boundary: square }] }), 'waypoint');
    expect(!r.ok && r.error.zh).toBe('文件中没有航点航线（文件包含 1 个围栏）');
  });
  it('survey task without any polygon; a plain polygon serves with a warning', () => {
    expect(!checkAgainstTask(doc({ routes: [route(3)] }), 'survey').ok).toBe(true);
    const r = checkAgainstTask(doc({ fences: [{ name: 'F', boundary: square }] }), 'survey');
    expect(r.ok && r.item).toEqual({ name: 'F', polygon: square });
    expect(r.ok && r.warnings[0]!.zh).toBe('已将多边形“F”作为测区导入');
  });
  it('only the first of several is used, with a warning', () => {
    const r = checkAgainstTask(doc({ fences: [{ name: 'A', boundary: square }, { name: 'B', boundary: square }] }), 'fence');
    expect(r.ok && r.item.name).toBe('A');
    expect(r.ok && r.warnings[0]!.en).toBe('The file holds 2 fences; only "A" was imported');
  });
  it('an empty file', () => {
    const r = checkAgainstTask(doc({}), 'fence');
    expect(!r.ok && r.error.en).toBe('The file contains no fence (it is empty)');
  });
});

describe('checkAgainstTask: a complete fence', () => {
  const fence = (boundary: { lat: number; lng: number }[]) => checkAgainstTask(doc({ fences: [{ name: '围栏A', boundary }] }), 'fence');
  it('accepts a proper ring and gives it back open', () => {
    const r = fence([...square, square[0]!]);
    expect(r.ok && r.item.boundary).toEqual(square);
  });
  it('fewer than 3 distinct points', () => {
    const r = fence([square[0]!, square[1]!, square[0]!, square[1]!]);
    expect(!r.ok && r.error).toEqual({
      zh: '围栏“围栏A”不完整：只有 2 个不同的点，至少需要 3 个',
      en: 'Fence "围栏A" is incomplete: it has 2 distinct point(s); at least 3 are needed',
    });
  });
  it('collinear points (zero area)', () => {
    const r = fence([{ lat: 30, lng: 120 }, { lat: 30.001, lng: 120.001 }, { lat: 30.002, lng: 120.002 }]);
    expect(!r.ok && r.error.en).toBe('Fence "围栏A" is incomplete: its points are collinear (zero area)');
  });
  it('a bow tie crosses itself', () => {
    const r = fence([square[0]!, square[2]!, square[1]!, square[3]!]);
    expect(!r.ok && r.error.en).toBe('Fence "围栏A" crosses itself');
  });
  it('a ring across the antimeridian is not degenerate', () => {
    const r = fence([{ lat: 10, lng: 179.99 }, { lat: 10, lng: -179.99 }, { lat: 10.01, lng: -179.99 }, { lat: 10.01, lng: 179.99 }]);
    expect(r.ok).toBe(true);
  });
});

describe('checkAgainstTask: a usable waypoint route', () => {
  it('needs 2 waypoints', () => {
    const r = checkAgainstTask(doc({ routes: [route(1)] }), 'waypoint');
    expect(!r.ok && r.error.en).toBe('Route "R" has 1 waypoint(s); at least 2 are needed');
  });
  it('prefers the first route with 2 or more waypoints', () => {
    const r = checkAgainstTask(doc({ routes: [route(1, { name: 'one' }), route(3, { name: 'three' })] }), 'waypoint');
    expect(r.ok && r.item.name).toBe('three');
  });
  it('at most 2000 waypoints', () => {
    const r = checkAgainstTask(doc({ routes: [route(2001)] }), 'waypoint');
    expect(!r.ok && r.error.en).toBe('Route "R" has 2001 waypoints; the limit is 2000');
  });
  it('heights must be within the contracts limits', () => {
    const bad = route(2);
    bad.waypoints[1]!.height = 20_000;
    const r = checkAgainstTask(doc({ routes: [bad] }), 'waypoint');
    expect(!r.ok && r.error.en).toBe('Route "R", waypoint 2: height 20000 m is invalid (above 0 and at most 10000 m)');
  });
  it('area survey routes do not count as waypoint routes', () => {
    const r = checkAgainstTask(doc({ routes: [route(3, { mission_type: 2 })] }), 'waypoint');
    expect(r.ok).toBe(false);
  });
});
