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
/** A JSON document carried in one form field (e.g. fun_json). */
export const jsonOf = <T extends z.ZodTypeAny>(inner: T, maxLength = 65536) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    if (v.length > maxLength) return Symbol('too long');
    try {
      return JSON.parse(v);
    } catch {
      return Symbol('not json');
    }
  }, inner);
