import { describe, expect, expectTypeOf, it } from 'vitest';
import { AIRBORNE_FLIGHT_STATES, FlightState, RecordState, enumeration } from './enums.js';

describe('enumeration members', () => {
  const Colour = enumeration('Colour', [
    [1, '红', 'Red', 'RED'],
    [2, '绿', 'Green'],
    [3, '蓝', 'Blue', 'BLUE'],
  ] as const);

  it('gives each named entry a constant member with the literal type of its value', () => {
    expect(Colour.RED).toBe(1);
    expect(Colour.BLUE).toBe(3);
    expectTypeOf(Colour.RED).toEqualTypeOf<1>();
    expectTypeOf(Colour.BLUE).toEqualTypeOf<3>();
    expectTypeOf(RecordState.NORMAL).toEqualTypeOf<10>();
    expectTypeOf(RecordState.DELETED).toEqualTypeOf<20>();
    expect(RecordState.NORMAL).toBe(10);
    expect(FlightState.RETURNING).toBe(8);
  });

  it('has no member for an entry without a name, and rejects unknown names at compile time', () => {
    expect(Object.keys(Colour).filter((k) => k === k.toUpperCase())).toEqual(['RED', 'BLUE']);
    // @ts-expect-error: the entry for 2 has no member name
    expect(Colour.GREEN).toBeUndefined();
    // @ts-expect-error: RecordState has no member ACTIVE
    expect(RecordState.ACTIVE).toBeUndefined();
  });

  it('keeps the values, labels and options of entries with and without names', () => {
    expect(Colour.values()).toEqual([1, 2, 3]);
    expectTypeOf(Colour.values()).toEqualTypeOf<(1 | 2 | 3)[]>();
    expect(Colour.has(2)).toBe(true);
    expect(Colour.has('RED')).toBe(false);
    expect(Colour.label(3, 'en')).toBe('Blue');
    expect(Colour.label(Colour.RED, 'zh')).toBe('红');
    expect(Colour.options('en')).toEqual([
      { value: 1, label: 'Red' },
      { value: 2, label: 'Green' },
      { value: 3, label: 'Blue' },
    ]);
    expect(Colour.entries).toEqual([
      { value: 1, label: { zh: '红', en: 'Red' } },
      { value: 2, label: { zh: '绿', en: 'Green' } },
      { value: 3, label: { zh: '蓝', en: 'Blue' } },
    ]);
  });

  it('refuses a name given twice or a name that would hide a field', () => {
    expect(() =>
      enumeration('Twice', [
        [1, 'a', 'A', 'SAME'],
        [2, 'b', 'B', 'SAME'],
      ] as const),
    ).toThrow(/SAME is named twice/);
    expect(() => enumeration('Hiding', [[1, 'a', 'A', 'label']] as const)).toThrow(/label would hide/);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(RecordState)).toBe(true);
  });

  it('lists the airborne flight states', () => {
    expect(AIRBORNE_FLIGHT_STATES).toEqual([1, 2, 3, 8]);
  });
});
