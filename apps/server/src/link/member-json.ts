import { isUtf8 } from 'node:buffer';

/**
 * The device's own JSON text of one top-level member of a message, so that it can be passed on as it is
 * instead of serialising the parsed value again (push 300 carries a device's telemetry to browsers: the
 * serialisation was the largest cost per message).
 *
 * `payload` is a message JSON.parse accepted (decoded as UTF-8, invalid bytes replaced) and `value` what
 * JSON.parse gave for its member `name`. The answer is the text of the value of the last member named
 * `name` of the top-level object (JSON.parse keeps the last of repeated names), and only when parsing it
 * gives exactly what parsing JSON.stringify(value) gives (same values, same key order). Parsing it gives
 * `value` itself (the same text through the same parser), so that holds except in three cases, in which
 * the answer is null and the caller serialises the value:
 * 1. bytes that are not valid UTF-8: the parsed strings hold U+FFFD where the bytes hold something else;
 * 2. a number JSON.stringify writes differently: negative zero (`-0`, `-0.0e5`, or a negative number too
 *    small for a double) becomes `0`, a number too large for a double (Infinity) becomes `null`: found by
 *    a walk over `value`, cheaper than reading every number token of the text;
 * 3. a top-level name written with an escape (`"d\u0061ta"` is `data`): the scan compares bytes, so any
 *    top-level name with a backslash gives up rather than risk taking the wrong member.
 * Whitespace, escapes inside strings, number spellings (`1E-7`, `0.10`), repeated names inside the value
 * and unicode written raw or escaped all read back the same, and are kept as the device wrote them.
 *
 * Steps: skip the opening brace; for each member, compare its name's bytes with `"name"`, then find the
 * end of its value; keep the last match; check its bytes are UTF-8. The end of a value is found by
 * counting brackets outside strings (a string ends at an unescaped quote), except in the usual case, which
 * needs no byte-by-byte reading of the value: the member asked for is an object written last, and the walk
 * over `value` found K objects in it and no `}` in any of its names and strings. Its text then holds
 * exactly K `}` bytes, the last of them closing it; so when the K-th `}` after its start (found by the
 * native byte search) is followed by nothing but the message's closing brace, that is its end. It cannot
 * be anything else: were this member an earlier one of the same name, or followed by another member, that
 * `}` would be followed by more of the message (the earlier value's own `}` comes first, or a `,`). A text
 * that is not what JSON.parse accepted ends the scan with null, never a throw.
 */
export function memberJson(payload: Buffer, name: string, value: unknown): string | null {
  const shape = { objects: 0 };
  if (!keptByStringify(value, shape)) return null;
  let key = KEYS.get(name);
  if (!key) KEYS.set(name, (key = Buffer.from(JSON.stringify(name))));
  const b = payload;
  let i = skipWs(b, 0);
  if (b[i] !== LBRACE) return null;
  i = skipWs(b, i + 1);
  let found: Buffer | null = null;
  while (b[i] === QUOTE) {
    const keyEnd = stringEnd(b, i + 1);
    if (keyEnd < 0) return null;
    const match = keyEnd - i === key.length && b.compare(key, 0, key.length, i, keyEnd) === 0;
    if (!match && hasByte(b, BACKSLASH, i, keyEnd)) return null;
    i = skipWs(b, keyEnd);
    if (b[i] !== COLON) return null;
    const start = skipWs(b, i + 1);
    if (match && shape.objects > 0 && b[start] === LBRACE) {
      const end = lastValueEnd(b, start, shape.objects);
      if (end > 0) return utf8(b.subarray(start, end));
    }
    const end = valueEnd(b, start);
    if (end < 0) return null;
    if (match) found = b.subarray(start, end);
    i = skipWs(b, end);
    if (b[i] === COMMA) i = skipWs(b, i + 1);
    else if (b[i] === RBRACE) return found ? utf8(found) : null;
    else return null;
  }
  return null;
}

const utf8 = (bytes: Buffer): string | null => (isUtf8(bytes) ? bytes.toString('utf8') : null);

/**
 * The end of an object value of `objects` objects starting at `start`, when it is the message's last
 * member and no name or string in it holds `}` (above): just after its `objects`-th `}`, if only
 * whitespace and the message's closing brace follow; else -1.
 */
function lastValueEnd(b: Buffer, start: number, objects: number): number {
  let at = start;
  for (let k = 0; k < objects; k++) {
    const close = b.indexOf(RBRACE, at);
    if (close < 0) return -1;
    at = close + 1;
  }
  const last = skipWs(b, at);
  return b[last] === RBRACE && skipWs(b, last + 1) === b.length ? at : -1;
}

/**
 * Whether JSON.parse(JSON.stringify(v)) is `v` again, for a value JSON.parse made (plain objects, arrays,
 * strings, booleans, null, numbers): every number is finite and none is negative zero. Counts the objects
 * in `shape.objects`, or sets it to -1 once a name or string holds `}` (the fast end above then does not
 * apply).
 */
function keptByStringify(v: unknown, shape: { objects: number }): boolean {
  if (typeof v === 'number') return v === 0 ? !Object.is(v, -0) : Number.isFinite(v);
  if (typeof v === 'string') {
    if (shape.objects >= 0 && v.includes('}')) shape.objects = -1;
    return true;
  }
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) {
    for (const x of v) if (!keptByStringify(x, shape)) return false;
    return true;
  }
  if (shape.objects >= 0) shape.objects++;
  for (const k in v) {
    if (shape.objects >= 0 && k.includes('}')) shape.objects = -1;
    if (!keptByStringify((v as Record<string, unknown>)[k], shape)) return false;
  }
  return true;
}

/** Each name asked for as the bytes of its JSON string. */
const KEYS = new Map<string, Buffer>();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The bytes the value scan stops at: 1 a quote, 2 an opening bracket, 3 a closing bracket, 4 a delimiter. */
const KIND = new Uint8Array(256);
KIND[QUOTE] = 1;
KIND[LBRACE] = 2;
KIND[0x5b] = 2;
KIND[RBRACE] = 3;
KIND[0x5d] = 3;
for (const c of [COMMA, COLON, 0x20, 0x0a, 0x0d, 0x09]) KIND[c] = 4;

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

/** Index just after the closing quote of the string whose contents start at `i`; -1 when it does not end. */
function stringEnd(b: Buffer, i: number): number {
  const n = b.length;
  while (i < n) {
    const c = b[i++]!;
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  return -1;
}

/**
 * Index just after the value starting at `i` (not whitespace); -1 when the text does not end it. Strings
 * are skipped whole; a number or a literal (true, false, null) ends at the next delimiter or bracket.
 */
function valueEnd(b: Buffer, i: number): number {
  const n = b.length;
  let depth = 0;
  while (i < n) {
    const kind = KIND[b[i++]!]!;
    if (kind === 1) {
      i = stringEnd(b, i);
      if (i < 0) return -1;
      if (depth === 0) return i;
    } else if (kind === 2) {
      depth++;
    } else if (kind === 3) {
      if (--depth <= 0) return depth === 0 ? i : -1;
    } else if (kind === 0 && depth === 0) {
      // A number or literal at the top: up to the next delimiter or bracket.
      while (i < n && KIND[b[i]!] === 0) i++;
      return i;
    }
  }
  return -1;
}
