import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TimedTaskState, CameraType } from './enums.js';
import {
  enumValue,
  enumValueDefault,
  flag,
  idList,
  jsonOf,
  optionalEnumValue,
  optionalInt,
  optionalJsonOf,
  optionalNum,
  positiveNum,
} from './form.js';

describe('form field builders', () => {
  it('coerces enumeration values from form strings and refuses others', () => {
    expect(enumValue(TimedTaskState).parse('40')).toBe(40);
    expect(enumValue(TimedTaskState).parse(3)).toBe(3);
    expect(enumValue(TimedTaskState).safeParse('2').success).toBe(false);
    expect(enumValue(CameraType).parse('6k')).toBe('6k');
    expect(enumValue(CameraType).safeParse('8k').success).toBe(false);
    expect(enumValueDefault(TimedTaskState, 1).parse('')).toBe(1);
    expect(optionalEnumValue(TimedTaskState).parse('')).toBeUndefined();
  });

  it('treats empty strings as absent for optional numbers and JSON', () => {
    const o = z.object({ a: optionalInt(0, 10), b: optionalNum(-1, 1), c: optionalJsonOf(z.array(z.number())) });
    expect(o.parse({ a: '', b: null, c: ' ' })).toEqual({});
    expect(o.parse({ a: '7', b: '-0.5', c: '[1,2]' })).toEqual({ a: 7, b: -0.5, c: [1, 2] });
    expect(o.safeParse({ a: '11' }).success).toBe(false);
    expect(o.safeParse({ c: '[1,' }).success).toBe(false);
  });

  it('refuses 0 where values must be positive', () => {
    expect(positiveNum().safeParse('0').success).toBe(false);
    expect(positiveNum().parse('0.1')).toBe(0.1);
    expect(positiveNum(30).safeParse('31').success).toBe(false);
  });

  it('reads yes/no flags', () => {
    expect(flag().parse('1')).toBe(true);
    expect(flag().parse('false')).toBe(false);
    expect(flag(true).parse(undefined)).toBe(true);
    expect(flag().safeParse('yes').success).toBe(false);
  });

  it('reads id lists as JSON or comma-separated, distinct and non-empty', () => {
    expect(idList().parse(' a , b ')).toEqual(['a', 'b']);
    expect(idList().parse('[1,"b"]')).toEqual(['1', 'b']);
    expect(idList().parse(7)).toEqual(['7']);
    expect(idList().safeParse('a,,b').success).toBe(false);
    expect(idList().safeParse('a,a').success).toBe(false);
    expect(idList(2).safeParse('a,b,c').success).toBe(false);
    expect(idList().safeParse('[').success).toBe(false);
  });

  it('refuses NUL characters escaped inside JSON documents and id lists (no stored text may hold one)', () => {
    expect(jsonOf(z.array(z.string())).safeParse('["a\\u0000b"]').success).toBe(false);
    expect(jsonOf(z.record(z.string(), z.number())).safeParse('{"k\\u0000":1}').success).toBe(false);
    expect(jsonOf(z.array(z.string())).parse('["a\\\\u0000b"]')).toEqual(['a\\u0000b']);
    expect(idList().safeParse('["a","\\u0000"]').success).toBe(false);
    expect(idList().parse('["a","b"]')).toEqual(['a', 'b']);
  });
});
