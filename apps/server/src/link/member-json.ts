import { isUtf8 } from 'node:buffer';

/**
 * The device's own JSON text of one top-level member of a message, so that it can be passed on as it is
 * instead of serialising the parsed value again (push 300 carries a device's telemetry to browsers: the
 * serialisation was the largest cost per message).
 *
 * `payload` is a message JSON.parse accepted (decoded as UTF-8, invalid bytes replaced). The answer is the
 * bytes of the value of the last member named `name` of its top-level object (JSON.parse keeps the last of
 * repeated names), and only when parsing those bytes gives exactly what parsing JSON.stringify of the parsed
 * value gives (same values, same key order). That holds for every JSON value except three cases, in which
 * the answer is null and the caller serialises the value:
 * 1. bytes that are not valid UTF-8: the parsed strings hold U+FFFD where the bytes hold something else (and
 *    a browser refuses a text frame that is not UTF-8);
 * 2. a number JSON.stringify writes differently: negative zero (`-0`, `-0.0e5`, or a negative number too
 *    small for a double) becomes `0`; a number too large for a double (Infinity) becomes `null`;
 * 3. a top-level name written with an escape (`"d\u0061ta"` is `data`): the scan compares bytes, so any
 *    top-level name with a backslash gives up rather than risk taking the wrong member.
 * Whitespace, escapes inside strings, number spellings (`1E-7`, `0.10`), repeated names inside the value
 * and unicode written raw or escaped all read back the same, and are kept as the device wrote them.
 *
 * Steps: skip the opening brace; for each member, compare its name's bytes with `"name"`, then find the
 * end of its value by counting brackets outside strings (a string ends at an unescaped quote), checking
 * every number token of the member asked for (case 2); keep the last match; check its bytes are UTF-8.
 * A text that is not what JSON.parse accepted ends the scan with null, never a throw.
 */
export function memberJson(payload: Buffer, name: string): Buffer | null {
  let key = KEYS.get(name);
  if (!key) KEYS.set(name, (key = Buffer.from(JSON.stringify(name))));
  const b = payload;
  let i = skipWs(b, 0);
  if (b[i] !== LBRACE) return null;
  i = skipWs(b, i + 1);
  let found: Buffer | null = null;
  while (b[i] === QUOTE) {
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return null;
    const match = keyEnd - i === key.length && b.compare(key, 0, key.length, i, keyEnd) === 0;
    if (!match && hasByte(b, BACKSLASH, i, keyEnd)) return null;
    i = skipWs(b, keyEnd);
    if (b[i] !== COLON) return null;
    const start = skipWs(b, i + 1);
    const end = valueEnd(b, start, match);
    if (end < 0) return null;
    if (match) found = b.subarray(start, end);
    i = skipWs(b, end);
    if (b[i] === COMMA) i = skipWs(b, i + 1);
    else if (b[i] === RBRACE) return found && isUtf8(found) ? found : null;
    else return null;
  }
  return null;
}

/** Each name asked for as the bytes of its JSON string. */
const KEYS = new Map<string, Buffer>();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
/** Longest number token whose value is checked from its bytes alone (below, numberKept). */
const SHORT_NUMBER = 20;

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= ZERO && c <= NINE;

function skipWs(b: Buffer, i: number): number {
  for (;;) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

function hasByte(b: Buffer, byte: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] === byte) return true;
  return false;
}

/** Index just after the string whose opening quote is at `i`; -1 when it does not end. */
function stringEnd(b: Buffer, i: number): number {
  for (i++; i < b.length; i++) {
    const c = b[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/**
 * Index just after the value starting at `i`; -1 when the text does not end it, or when `check` and one of
 * its numbers would not read back the same after JSON.stringify.
 */
function valueEnd(b: Buffer, i: number, check: boolean): number {
  let depth = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c === QUOTE) {
      i = stringEnd(b, i);
      if (i < 0) return -1;
    } else if (c === LBRACE || c === LBRACKET) {
      depth++;
      i++;
      continue;
    } else if (c === RBRACE || c === RBRACKET) {
      if (--depth < 0) return -1;
      i++;
    } else if (c === MINUS || isDigit(c)) {
      let end = i + 1;
      for (let n = b[end]; isDigit(n) || n === DOT || n === LOWER_E || n === UPPER_E || n === PLUS || n === MINUS; n = b[++end]);
      if (check && !numberKept(b, i, end)) return -1;
      i = end;
    } else if (c >= 0x61 && c <= 0x7a) {
      // true, false, null
      while (i < b.length && b[i]! >= 0x61 && b[i]! <= 0x7a) i++;
    } else {
      // whitespace, ':' and ',' inside a container
      i++;
      continue;
    }
    if (depth === 0) return i;
  }
  return -1;
}

/**
 * Whether the number token b[start, end) reads back the same after JSON.stringify: not negative zero, not
 * infinite. A short token without an exponent is finite, and is negative zero exactly when it has a minus
 * and no digit other than 0; any other token (an exponent, or long enough to overflow or to round to zero)
 * is read as JSON.parse reads it.
 */
function numberKept(b: Buffer, start: number, end: number): boolean {
  let exponent = false;
  let nonZero = false;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === LOWER_E || c === UPPER_E) {
      exponent = true;
      break;
    }
    if (c > ZERO && c <= NINE) nonZero = true;
  }
  if (exponent || end - start > SHORT_NUMBER) {
    const v = Number(b.toString('latin1', start, end));
    return Number.isFinite(v) && !Object.is(v, -0);
  }
  return nonZero || b[start] !== MINUS;
}
