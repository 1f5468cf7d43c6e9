import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, angleDiff, gcj02ToWgs84, haversineDistance, normDeg, pathLength, wgs84ToGcj02 } from './coords.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const TIANANMEN_WGS84 = { lat: 39.9087, lng: 116.3975 };

describe('WGS84 <-> GCJ-02', () => {
  it('shifts a Beijing point by a few hundred metres, east and north', () => {
    const g = wgs84ToGcj02(TIANANMEN_WGS84);
    const offset = haversineDistance(TIANANMEN_WGS84, g);
    expect(offset).toBeGreaterThan(300);
    expect(offset).toBeLessThan(800);
    expect(g.lng).toBeGreaterThan(TIANANMEN_WGS84.lng);
    expect(g.lat).toBeGreaterThan(TIANANMEN_WGS84.lat);
    // Tiananmen in GCJ-02 is about (39.9101, 116.4037) (AMap)
    expect(g.lat).toBeCloseTo(39.9101, 3);
    expect(g.lng).toBeCloseTo(116.4037, 3);
  });

  it('matches gcoord’s documented example (GCJ-02 [123, 45] -> WGS84)', () => {
    const w = gcj02ToWgs84({ lat: 45, lng: 123 });
    expect(w.lng).toBeCloseTo(122.99395597, 6);
    expect(w.lat).toBeCloseTo(44.99804071, 6);
  });

  it('round-trips within a millimetre', () => {
    for (const p of [TIANANMEN_WGS84, { lat: 22.5431, lng: 114.0579 }, { lat: 30.6586, lng: 104.0647 }]) {
      const back = gcj02ToWgs84(wgs84ToGcj02(p));
      expect(haversineDistance(p, back)).toBeLessThan(0.001);
      const forth = wgs84ToGcj02(gcj02ToWgs84(p));
      expect(haversineDistance(p, forth)).toBeLessThan(0.001);
    }
  });

  it('leaves points outside China unchanged', () => {
    const london = { lat: 51.5007, lng: -0.1246 };
    expect(wgs84ToGcj02(london)).toEqual(london);
    expect(gcj02ToWgs84(london)).toEqual(london);
  });
});

describe('haversineDistance', () => {
  it('measures one degree of latitude and of longitude on the equator', () => {
    const oneDegree = (Math.PI / 180) * EARTH_RADIUS_M; // 111195.08 m
    expect(haversineDistance({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeCloseTo(oneDegree, 3);
    expect(haversineDistance({ lat: 0, lng: 0 }, { lat: 0, lng: 1 })).toBeCloseTo(oneDegree, 3);
    expect(oneDegree).toBeCloseTo(111_195.08, 1);
  });

  it('is zero for one point, symmetric, and halves the circumference for antipodes', () => {
    expect(haversineDistance(TIANANMEN_WGS84, TIANANMEN_WGS84)).toBe(0);
    const shanghai = { lat: 31.2304, lng: 121.4737 };
    const d = haversineDistance(TIANANMEN_WGS84, shanghai);
    expect(d).toBeCloseTo(haversineDistance(shanghai, TIANANMEN_WGS84), 6);
    expect(d).toBeGreaterThan(1_060_000);
    expect(d).toBeLessThan(1_075_000);
    expect(haversineDistance({ lat: 0, lng: 0 }, { lat: 0, lng: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 3);
  });

  it('sums path lengths', () => {
    expect(pathLength([])).toBe(0);
    expect(pathLength([TIANANMEN_WGS84])).toBe(0);
    const a = { lat: 0, lng: 0 };
    const b = { lat: 0, lng: 1 };
    const c = { lat: 1, lng: 1 };
    expect(pathLength([a, b, c])).toBeCloseTo(haversineDistance(a, b) + haversineDistance(b, c), 6);
  });
});

describe('GCJ-02 round trip (property)', () => {
  it('stays below a millimetre everywhere inside mainland China', () => {
    fc.assert(
      fc.property(fc.double({ min: 18.5, max: 53, noNaN: true }), fc.double({ min: 74, max: 134, noNaN: true }), (lat, lng) => {
        const p = { lat, lng };
        expect(haversineDistance(p, gcj02ToWgs84(wgs84ToGcj02(p)))).toBeLessThan(0.001);
        expect(haversineDistance(p, wgs84ToGcj02(gcj02ToWgs84(p)))).toBeLessThan(0.001);
      }),
      { numRuns: fuzzRuns(1000) },
    );
  });
});

describe('heading arithmetic', () => {
  it('normDeg brings any angle into [0, 360)', () => {
    expect(normDeg(0)).toBe(0);
    expect(normDeg(360)).toBe(0);
    expect(normDeg(-90)).toBe(270);
    expect(normDeg(725)).toBe(5);
  });

  it('angleDiff answers the signed smallest turn, in (-180, 180]', () => {
    expect(angleDiff(350, 10)).toBe(20);
    expect(angleDiff(10, 350)).toBe(-20);
    expect(angleDiff(0, 180)).toBe(180);
    expect(angleDiff(180, 0)).toBe(180);
    expect(angleDiff(90, 90)).toBe(0);
  });
});
