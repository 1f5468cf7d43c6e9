import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineDistance } from './coords.js';
import { bearing, localFrame, offsetMetres } from './local.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const HOME = { lat: 39.9087, lng: 116.3975 };

describe('offsetMetres', () => {
  it('moves north and east by the asked metres', () => {
    expect(haversineDistance(HOME, offsetMetres(HOME, 100, 0))).toBeCloseTo(100, 3);
    expect(haversineDistance(HOME, offsetMetres(HOME, 0, 100))).toBeCloseTo(100, 3);
    expect(offsetMetres(HOME, 100, 0).lat).toBeGreaterThan(HOME.lat);
    expect(offsetMetres(HOME, 0, -100).lng).toBeLessThan(HOME.lng);
  });

  it('is the inverse of the local frame around the start point', () => {
    fc.assert(
      fc.property(fc.double({ min: -3000, max: 3000, noNaN: true }), fc.double({ min: -3000, max: 3000, noNaN: true }), (north, east) => {
        const xy = localFrame(HOME).toXY(offsetMetres(HOME, north, east));
        expect(xy.y).toBeCloseTo(north, 6);
        expect(xy.x).toBeCloseTo(east, 6);
      }),
      { numRuns: fuzzRuns(100) },
    );
  });
});

describe('bearing', () => {
  it('answers compass degrees in [0, 360)', () => {
    expect(bearing(HOME, offsetMetres(HOME, 100, 0))).toBeCloseTo(0, 9);
    expect(bearing(HOME, offsetMetres(HOME, 0, 100))).toBeCloseTo(90, 9);
    expect(bearing(HOME, offsetMetres(HOME, -100, 0))).toBeCloseTo(180, 9);
    expect(bearing(HOME, offsetMetres(HOME, 0, -100))).toBeCloseTo(270, 9);
    expect(bearing(HOME, offsetMetres(HOME, 50, 50))).toBeCloseTo(45, 9);
    expect(bearing(HOME, HOME)).toBe(0);
  });
});
