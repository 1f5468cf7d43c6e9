// Database: SQLite only: a scan of message bytes and the push frame built from it; no database is involved.
import { LINK_VERSION, PushMsgId, ResultCode, linkData, parseLinkMessage } from '@nest/contracts';
import { droneTelemetry, nestTelemetry } from '@nest/contracts/test-fixtures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { telemetryFrame } from '../push/client.js';
import { memberJson } from './member-json.js';

/**
 * Same JSON value, as a browser sees it: same types, numbers equal by Object.is (negative zero is not zero),
 * same keys in the same order.
 */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b);
  if (a === null || b === null || typeof a !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** memberJson of a message's `data`, with the value JSON.parse gives for it (as the link passes it). */
function dataJson(bytes: Buffer): string | null {
  let data: unknown;
  try {
    data = (JSON.parse(new TextDecoder().decode(bytes)) as { data?: unknown }).data;
  } catch {
    data = undefined;
  }
  return memberJson(bytes, 'data', data);
}

/** A small seeded generator for the spelling choices of `write` (drawn from the property's own seed). */
function spelling(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

const WS = ['', '', ' ', '\n', '\t ', '\r\n  '];

/** Spellings of `n` that JSON.parse reads as exactly `n` (negative zero written as a device would). */
function numberText(n: number, pick: (k: number) => number): string {
  if (Object.is(n, -0)) return ['-0', '-0.0', '-0e0', '-0E+3', '-0.000e-2'][pick(5)]!;
  const plain = String(n);
  const exp = n.toExponential();
  const options = [plain, exp, exp.toUpperCase(), exp.replace('e+', 'e'), exp.replace(/^(-?\d)(e)/, '$1.0$2'), plain.includes('.') && !plain.includes('e') ? `${plain}00` : plain];
  return options[pick(options.length)]!;
}

/** `s` as a JSON string, each code unit raw or escaped (a lone surrogate always escaped, so the text is UTF-8). */
function stringText(s: string, pick: (k: number) => number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const digits = c.toString(16).padStart(4, '0');
    const hex = `\\u${pick(2) ? digits : digits.toUpperCase()}`;
    const high = c >= 0xd800 && c <= 0xdbff;
    const pair = high && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
    if (pair && pick(2) === 0) {
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out += hex;
    else if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x2f && pick(2)) out += '\\/';
    else if (c === 0x0a && pick(2)) out += '\\n';
    else if (c < 0x20 || pick(4) === 0) out += hex;
    else out += s[i];
  }
  return `${out}"`;
}

/** A JSON text of `v` as some device might write it: whitespace, number spellings, escapes, repeated keys. */
function write(v: unknown, pick: (k: number) => number): string {
  const ws = () => WS[pick(WS.length)]!;
  if (typeof v === 'number') return numberText(v, pick);
  if (typeof v === 'string') return stringText(v, pick);
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => `${write(x, pick)}${ws()}`).join(`,${ws()}`)}]`;
  const members = Object.entries(v).map(([k, x]) => `${stringText(k, pick)}${ws()}:${ws()}${write(x, pick)}`);
  // A repeated key before the real one: JSON.parse keeps the last, in the first one's place.
  if (members.length > 0 && pick(4) === 0) members.unshift(`${stringText(Object.keys(v)[0]!, pick)}:"earlier"`);
  return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
}

const number = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.constantFrom(0, -0, 1e-7, -1e-7, 0.1, -22.5, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53, 1e21),
);
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('无人机 机场', 'é', '😀', '\u2028', 'a"b\\c', 'data', '"data":'));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, number, text, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(text, fc.constantFrom('data', '__proto__', '1', 'lat')), tie('value'), { maxKeys: 5 }),
}));

/** A link message whose data is `dataText`, its members in the given order (ts, tid... and data). */
function message(dataText: string, order: number[], pick: (k: number) => number): string {
  const members = [`"v":${LINK_VERSION}`, '"tid":"t-1"', '"bid":"\\"data\\":1"', `"ts":${Date.now()}`, '"method":"telemetry"', `"data":${dataText}`];
  const sorted = order.map((i) => members[i]!);
  // Another "data" first sometimes: JSON.parse keeps the last.
  if (pick(3) === 0) sorted.unshift('"data":{"drone":"earlier"}');
  return `{${sorted.join(`,${WS[pick(WS.length)]}`)}}`;
}

const order = fc.shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: 6 });

describe('the device JSON of a member', () => {
  it('reads back as its serialised value whenever it is given, and is given whenever serialising keeps the value', () => {
    fc.assert(
      fc.property(value, order, fc.integer(), (v, o, seed) => {
        const pick = spelling(seed);
        const bytes = Buffer.from(message(write(v, pick), o, pick));
        const data = (JSON.parse(bytes.toString('utf8')) as { data: unknown }).data;
        const serialised = JSON.parse(JSON.stringify(data)) as unknown;
        const json = memberJson(bytes, 'data', data);
        expect(json !== null).toBe(same(data, serialised));
        if (json !== null) expect(same(JSON.parse(json), serialised)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('is the bytes the device wrote, whitespace and escapes kept', () => {
    const data = '{ "drone" : { "sn": "U\\u00e9 无人机", "lat": 2.25E1, "v_speed": -1e-7, "ok": [true, null] } }';
    const bytes = Buffer.from(`{"v":1,"tid":"t","data":${data},"bid":"","ts":1,"method":"telemetry"}`);
    expect(dataJson(bytes)).toBe(data);
  });

  it('is null for numbers JSON.stringify writes differently: negative zero, underflow to it, infinity', () => {
    const of = (n: string) => dataJson(Buffer.from(`{"data":{"x":[1,${n}]}}`));
    for (const n of ['-0', '-0.0', '-0e5', '-0.000E-3', '-1e-400', `-0.${'0'.repeat(400)}1`, '1e400', '-1E+309', '9'.repeat(400)]) expect(of(n), n).toBeNull();
    for (const n of ['0', '0.0', '0e5', '-1e-7', '1E-7', '-0.5', `-0.${'0'.repeat(20)}1`, '5e-324', '1.7976931348623157e308', '9'.repeat(300)]) expect(of(n), n).not.toBeNull();
  });

  it('is null for bytes that are not UTF-8, a top-level name with an escape, or a text JSON.parse did not accept', () => {
    const bad = Buffer.concat([Buffer.from('{"data":{"sn":"'), Buffer.from([0xff, 0xc0, 0xaf]), Buffer.from('"}}')]);
    expect(dataJson(bad)).toBeNull();
    // The last "data" is the escaped one: the scan cannot tell, so it gives up.
    expect(dataJson(Buffer.from('{"data":1,"d\\u0061ta":2}'))).toBeNull();
    expect(dataJson(Buffer.from('{"x\\n":1,"data":2}'))).toBeNull();
    // Escapes inside the value are the value's own.
    expect(dataJson(Buffer.from('{"x":1,"data":{"d\\u0061ta":"\\u00e9"}}'))).toBe('{"d\\u0061ta":"\\u00e9"}');
    for (const t of ['', '[1]', '"data"', '{"data":', '{"data":[1,2', '{"data":"x', '{"data" 1}', '{"data":1 2}', '\ufeff{"data":1}', '{"a":1}']) {
      expect(dataJson(Buffer.from(t)), t).toBeNull();
    }
  });

  it('takes the last of repeated names, and never a name inside a string or a nested object', () => {
    expect(dataJson(Buffer.from('{"data":1, "data" : [2]}'))).toBe('[2]');
    expect(dataJson(Buffer.from('{"a":{"data":1},"b":"\\"data\\":2","data":3}'))).toBe('3');
    // An object written last is ended by counting its objects' closing braces; anything else is read through.
    expect(dataJson(Buffer.from('{"data":{"a":{}},"data":{"b":1}}'))).toBe('{"b":1}');
    expect(dataJson(Buffer.from('{"data":{"a":{"b":{}}} ,"data":{"c":{}}}'))).toBe('{"c":{}}');
    expect(dataJson(Buffer.from('{"data":{"x":{"y":1}},"z":{"w":2}}'))).toBe('{"x":{"y":1}}');
    expect(dataJson(Buffer.from('{"data":{"x":1},"z":2}'))).toBe('{"x":1}');
    expect(dataJson(Buffer.from('{"data":{"s":"}","t":{"u}":[{}]}} \n}'))).toBe('{"s":"}","t":{"u}":[{}]}}');
    expect(dataJson(Buffer.from('{"data":{"s":[{"a":1},{"b":2}]}}\n'))).toBe('{"s":[{"a":1},{"b":2}]}');
  });
});

describe('the 300 frame around the device JSON', () => {
  /** The frame a browser gets in `lang`, parsed. */
  const parsed = (frame: ReturnType<typeof telemetryFrame>, lang: 'zh' | 'en') => JSON.parse(String(frame.payload(lang))) as unknown;

  it('parses as the serialised frame, over varied telemetry written as devices write it', () => {
    const shutter = fc.constantFrom('1/500', '1/8000', '无', '😀/2', 'a"b');
    const telemetry = fc.record({
      sn: fc.oneof(fc.string({ maxLength: 64 }), fc.constantFrom('无人机-1', 'U\u2028')),
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
      v_speed: fc.oneof(fc.double({ min: -50, max: 50, noNaN: true }), fc.constantFrom(-0, 1e-7, -1e-7)),
      pitch: fc.constantFrom(0, -0, -90, 12.5),
      shutter,
      wind: fc.double({ min: 0, max: 100, noNaN: true }),
      nest: fc.boolean(),
    });
    let spliced = 0;
    fc.assert(
      fc.property(telemetry, fc.integer(), fc.integer({ min: 0, max: 2 ** 31 }), fc.integer(), (t, seed, at, state) => {
        const pick = spelling(seed);
        const value = {
          ...(t.nest ? { nest: nestTelemetry({}, { wind_speed: t.wind }) } : {}),
          drone: droneTelemetry({ sn: t.sn, lat: t.lat, lng: t.lng, v_speed: t.v_speed, pitch: t.pitch, camera: { ...droneTelemetry().camera, camera_shutter: t.shutter } }),
        };
        // The device's message as the link reads it: parsed, checked, then its own JSON of the data.
        const payload = Buffer.from(message(write(value, pick), [0, 1, 2, 3, 4, 5], () => 1));
        const parsedMessage = parseLinkMessage(payload);
        if (!parsedMessage.ok) throw new Error(parsedMessage.reason);
        const checked = linkData.telemetry(parsedMessage.message.data);
        expect(checked.success).toBe(true);
        const json = checked.data === parsedMessage.message.data ? memberJson(payload, 'data', parsedMessage.message.data) : null;
        const data = { sn_id: t.sn, state, telemetry: checked.data, at };
        const serialised = telemetryFrame(data, null);
        const frame = telemetryFrame(data, json);
        if (json) spliced++;
        for (const lang of ['zh', 'en'] as const) {
          expect(same(parsed(frame, lang), parsed(serialised, lang))).toBe(true);
          // Its first and its later sockets get the same frame.
          expect(String(frame.payload(lang))).toBe(frame.of(lang));
        }
        const zh = parsed(frame, 'zh') as { code: number; msg_id: number };
        expect([zh.code, zh.msg_id]).toEqual([ResultCode.OK, PushMsgId.DEVICE_TELEMETRY]);
      }),
      { numRuns: 300 },
    );
    // Most of them took the device's own text (the rest had a negative zero, or were reshaped by the check).
    expect(spliced).toBeGreaterThan(150);
  });
});
