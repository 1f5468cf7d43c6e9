import { md5 } from 'js-md5';

/**
 * The pmd signature (SPEC section 7), one implementation for browser and server.
 *
 * - plain:           md5(token + pmdValue)
 * - timestamp flag:  md5(timestamp + token + pmdValue)
 * The pmd value is the concatenation, in order, of the values of the fields the call names
 * (`CallDef.pmd`); with no fields named it is the empty string.
 */
export interface SignInput {
  token: string;
  pmdValue: string;
  /** os_timestamp of the request; present only when the call has the timestamp flag. */
  timestamp?: string | number;
}

export function signPmd({ token, pmdValue, timestamp }: SignInput): string {
  const prefix = timestamp === undefined ? '' : String(timestamp);
  return md5(prefix + token + pmdValue);
}

/** Concatenates the values of the named fields; absent values count as empty strings. */
export function pmdValueOf(fields: Readonly<Record<string, unknown>>, names: readonly string[]): string {
  return names.map((n) => (fields[n] === undefined || fields[n] === null ? '' : String(fields[n]))).join('');
}

export function md5Hex(text: string): string {
  return md5(text);
}

/** Timing-safe comparison of two hex strings of the same alphabet, usable without node:crypto. */
export function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
