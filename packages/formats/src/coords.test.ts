import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalAt, parseCoordinates } from './coords.js';
import { DEFAULT_LIMITS, ReadContext } from './limits.js';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';

const ctx = () => new ReadContext(DEFAULT_LIMITS, 'x', 100, 'fence');

describe('coordinate text', () => {
  it('decimalAt gives exactly the double Number gives', () => {
    const decimal = fc
      .tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^\d{0,20}$/), fc.option(fc.stringMatching(/^\d{0,25}$/)))
      .map(([s, a, b]) => `${s}${a}${b === null ? '' : `.${b}`}`);
    fc.assert(
      fc.property(fc.oneof(decimal, fc.double().map(String), fc.string({ maxLength: 12 })).filter((s) => s !== ''), (s) => {
        expect(Object.is(decimalAt(`x${s}y`, 1, s.length + 1), Number(s))).toBe(true);
      }),
      { numRuns: fuzzRuns(2000) },
    );
  });
  it('tolerates any whitespace between tuples and around commas, and a trailing empty altitude', () => {
    expect(parseCoordinates('\n\t 1,2,3\n4 , 5 ,6\t7,8, \n', 'w', ctx())).toEqual({ lng: [1, 4, 7], lat: [2, 5, 8], alt: [3, 6, NaN] });
  });
  it('refuses four values, a missing latitude, and junk', () => {
    expect(() => parseCoordinates('1,2,3,4', 'w', ctx())).toThrow(/should be longitude,latitude/);
    expect(() => parseCoordinates('1,,3', 'w', ctx())).toThrow(/should be longitude,latitude/);
    expect(() => parseCoordinates('1,2 3', 'w', ctx())).toThrow(/should be longitude,latitude/);
    expect(() => parseCoordinates('1,2x', 'w', ctx())).toThrow(/not a valid number/);
  });
});
