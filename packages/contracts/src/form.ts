import { z } from 'zod';

/**
 * Field builders for form-encoded payloads: every value arrives as a string, so numbers are coerced and
 * empty strings count as absent where a field is optional. Limits are part of the contract: the server
 * refuses oversize values before any work is done.
 */
export const text = (max = 255) => z.string().trim().max(max);
export const requiredText = (max = 255) => z.string().trim().min(1).max(max);
export const optionalText = (max = 255) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(max).optional());
export const int = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number().int().min(min).max(max),
  );
export const intDefault = (value: number, min?: number, max?: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? value : v), int(min, max));
export const num = (min = -Number.MAX_VALUE, max = Number.MAX_VALUE) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number().finite().min(min).max(max),
  );
/** Whether a parsed JSON value holds a NUL character in any string or key (walked without recursion). */
export function jsonHasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\0')) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

/**
 * A JSON document carried in one form field (e.g. fun_json). A `\u0000` escape is refused like a raw NUL
 * in a form value: no stored text may hold one (PostgreSQL cannot).
 */
export const jsonOf = <T extends z.ZodTypeAny>(inner: T, maxLength = 65536) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    if (v.length > maxLength) return Symbol('too long');
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return Symbol('not json');
    }
    return v.includes('\\u0000') && jsonHasNul(parsed) ? Symbol('nul') : parsed;
  }, inner);

/** Form values that count as "not given" for optional fields. */
const isAbsent = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const absentToUndefined = (v: unknown): unknown => (isAbsent(v) ? undefined : v);

export const optionalInt = (min?: number, max?: number) => z.preprocess(absentToUndefined, int(min, max).optional());
export const optionalNum = (min?: number, max?: number) => z.preprocess(absentToUndefined, num(min, max).optional());
/** A finite number strictly greater than 0 (heights, speeds: "values cannot be 0"). */
export const positiveNum = (max = Number.MAX_VALUE) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number().finite().gt(0).max(max),
  );
export const optionalPositiveNum = (max?: number) => z.preprocess(absentToUndefined, positiveNum(max).optional());
export const optionalJsonOf = <T extends z.ZodTypeAny>(inner: T, maxLength = 65536) =>
  z.preprocess(absentToUndefined, jsonOf(inner, maxLength).optional());

/** The values an enumeration builder (see enums.ts) answers; kept structural to avoid an import cycle. */
interface EnumLike<V extends number | string> {
  readonly name: string;
  values(): V[];
  has(value: unknown): value is V;
}

/** One value of an enumeration; numeric enumerations accept their values as form strings ("10"). */
export const enumValue = <V extends number | string>(e: EnumLike<V>) => {
  const numeric = e.values().some((v) => typeof v === 'number');
  return z.preprocess(
    (v) => (numeric && typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.custom<V>((v) => e.has(v), { message: `invalid ${e.name} value` }),
  );
};
export const optionalEnumValue = <V extends number | string>(e: EnumLike<V>) =>
  z.preprocess(absentToUndefined, enumValue(e).optional());
export const enumValueDefault = <V extends number | string>(e: EnumLike<V>, value: V) =>
  z.preprocess((v) => (isAbsent(v) ? value : v), enumValue(e));

/**
 * A non-empty list of distinct ids in one form field: a JSON array (`["a","b"]`) or comma-separated
 * (`a,b`). Answers the ids as strings.
 */
export const idList = (maxItems = 1000, maxIdLength = 64) =>
  z.preprocess(
    (v) => {
      if (typeof v === 'number') return [String(v)];
      if (typeof v !== 'string') return v;
      const s = v.trim();
      if (s.startsWith('[')) {
        try {
          const parsed: unknown = JSON.parse(s);
          if (s.includes('\\u0000') && jsonHasNul(parsed)) return Symbol('nul');
          return Array.isArray(parsed) ? parsed.map((x) => (typeof x === 'number' ? String(x) : x)) : parsed;
        } catch {
          return Symbol('not json');
        }
      }
      return s === '' ? [] : s.split(',').map((x) => x.trim());
    },
    z
      .array(z.string().min(1).max(maxIdLength))
      .min(1)
      .max(maxItems)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'duplicate ids' }),
  );

/** A yes/no form field: 1/0, true/false (as strings or values); absent gives `value`. */
export const flag = (value = false) =>
  z.preprocess((v) => {
    if (isAbsent(v)) return value;
    if (v === 1 || v === '1' || v === 'true') return true;
    if (v === 0 || v === '0' || v === 'false') return false;
    return v;
  }, z.boolean());
