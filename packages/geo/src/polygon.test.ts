import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localFrame, meanPoint } from './local.js';
import { distanceToRing, normalizeRing, prepareRing, ringLabelPoint, ringsInteriorMeet, segmentHits, segmentPointOutside } from './polygon.js';
import { arbConcavePolygon, arbStarPolygon, metres, ORIGIN, shape, square, toMetres, uShape } from './test-fixtures.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

describe('local frame', () => {
  it('round-trips exactly and measures metres', () => {
    const f = localFrame(ORIGIN);
    const p = { lat: 30.51234, lng: 114.29876 };
    const back = f.toLatLng(f.toXY(p));
    expect(back.lat).toBeCloseTo(p.lat, 12);
    expect(back.lng).toBeCloseTo(p.lng, 12);
    expect(f.toXY(metres(123, -45))).toEqual({ x: expect.closeTo(123, 9), y: expect.closeTo(-45, 9) });
    expect(meanPoint([])).toEqual({ lat: 0, lng: 0 });
    expect(meanPoint([metres(0, 0), metres(100, 100)]).lat).toBeCloseTo(metres(50, 50).lat, 12);
  });
});

describe('rings', () => {
  it('drops the closing point and repeated points', () => {
    const [a, b, c] = square(10);
    expect(normalizeRing([a!, a!, b!, c!, c!, a!])).toEqual([a, b, c]);
  });

  it('measures distance to the boundary in metres', () => {
    expect(distanceToRing(metres(50, 3), square(100))).toBeCloseTo(3, 3);
    expect(distanceToRing(metres(-4, 50), square(100))).toBeCloseTo(4, 3);
  });

  it('tells inside, boundary (tolerance) and strictly inside', () => {
    const r = prepareRing(square(100));
    expect(r.contains(metres(50, 50))).toBe(true);
    expect(r.contains(metres(100, 50))).toBe(true);
    expect(r.contains(metres(100.03, 50))).toBe(true);
    expect(r.contains(metres(100.1, 50))).toBe(false);
    expect(r.strictlyContains(metres(50, 50))).toBe(true);
    expect(r.strictlyContains(metres(99.99, 50))).toBe(false);
    expect(prepareRing([metres(0, 0), metres(1, 1)]).contains(metres(0, 0))).toBe(false);
  });

  it('finds where segments meet, including touching and collinear overlap', () => {
    const xy = (x: number, y: number) => ({ x, y });
    expect(segmentHits(xy(0, 0), xy(10, 0), xy(5, -5), xy(5, 5))).toEqual([0.5]);
    expect(segmentHits(xy(0, 0), xy(10, 0), xy(10, 0), xy(10, 5))).toEqual([1]);
    expect(segmentHits(xy(0, 0), xy(10, 0), xy(2, 0), xy(4, 0))).toEqual([0.2, 0.4]);
    expect(segmentHits(xy(0, 0), xy(10, 0), xy(0, 1), xy(10, 1))).toEqual([]);
    expect(segmentHits(xy(0, 0), xy(10, 0), xy(11, -1), xy(11, 1))).toEqual([]);
  });

  it('finds the part of a segment outside a concave ring', () => {
    const u = prepareRing(uShape(300, 300, 100, 100));
    const out = segmentPointOutside(metres(50, 250), metres(250, 250), u);
    expect(out).not.toBeNull();
    expect(toMetres(out!).x).toBeCloseTo(150, 3);
    expect(segmentPointOutside(metres(50, 50), metres(250, 50), u)).toBeNull();
    // Along the notch's edges (boundary) is inside.
    expect(segmentPointOutside(metres(100, 300), metres(100, 100), u)).toBeNull();
  });

  it('tells when interiors meet, not when rings only touch', () => {
    const a = prepareRing(square(100));
    expect(ringsInteriorMeet(a, prepareRing(square(100, 50, 50)))).not.toBeNull();
    expect(ringsInteriorMeet(a, prepareRing(square(20, 40, 40)))).not.toBeNull();
    expect(ringsInteriorMeet(a, prepareRing(square(100, 100, 0)))).toBeNull();
    expect(ringsInteriorMeet(a, prepareRing(square(100, 100, 100)))).toBeNull();
    const cross = shape([
      [40, -50],
      [60, -50],
      [60, 150],
      [40, 150],
    ]);
    expect(ringsInteriorMeet(a, prepareRing(cross))).not.toBeNull(); // no vertex inside the other
  });
});

describe('label point', () => {
  it('is the vertex mean of a convex ring, and inside a strip whose mean falls outside it', () => {
    const sq = square(100);
    const p = ringLabelPoint(sq)!;
    expect(toMetres(p).x).toBeCloseTo(50, 6);
    expect(toMetres(p).y).toBeCloseTo(50, 6);
    // A thin V: its vertex mean lies in the notch, outside the ring.
    const v = shape([[0, 0], [500, 400], [1000, 0], [1000, 40], [500, 440], [0, 40]]);
    expect(prepareRing(v).contains(meanPoint(v))).toBe(false);
    expect(prepareRing(v).strictlyContains(ringLabelPoint(v)!)).toBe(true);
    expect(ringLabelPoint([metres(0, 0), metres(1, 1)])).toBeNull();
  });

  it('lies inside every star-shaped and concave ring', () => {
    fc.assert(
      fc.property(fc.oneof(arbStarPolygon(), arbConcavePolygon()), (ring) => {
        expect(prepareRing(ring).contains(ringLabelPoint(ring)!)).toBe(true);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });
});
