import { md5 } from 'js-md5';
import { APP_CODE, APP_FLAVOR, APP_IDS, APP_TYPE } from './constants.js';
import type { Lang } from './i18n.js';

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

/** What a call's signature depends on: the fields it signs and whether it signs the timestamp (a CallDef). */
export interface SignedCall {
  readonly pmd: readonly string[];
  readonly timestamp: boolean;
}

/**
 * The form body of a signed call as the console sends it (SPEC section 7): the common fields (client
 * identity, `os_timestamp`, `os_language`, `token`), the pmd signature of `fields` under `token` (with
 * `timestamp` when the call signs it), then the call's own fields as text. One builder for the browser,
 * the server's tests, e2e and the benches, so that all of them sign exactly as the server checks.
 */
export function signedCallBody(
  def: SignedCall,
  fields: Readonly<Record<string, string>>,
  token: string,
  timestamp: number = Date.now(),
  lang: Lang = 'en',
): Record<string, string> {
  return {
    app_type: String(APP_TYPE),
    app_ids: APP_IDS,
    app_code: APP_CODE,
    app_flavor: APP_FLAVOR,
    os_timestamp: String(timestamp),
    os_language: lang,
    token,
    pmd: signPmd({ token, pmdValue: pmdValueOf(fields, def.pmd), timestamp: def.timestamp ? timestamp : undefined }),
    ...fields,
  };
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
