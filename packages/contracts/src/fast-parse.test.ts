import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fuzzRuns } from '../../../scripts/test-support/fuzz.js';
import { commandReplyData, eventData, linkEnvelope, linkMessage, parseTopic, presenceData, stateData, telemetryData, topicOf } from './device-link.js';
import { compilePredicate, fastSafeParse } from './fast-parse.js';
import { djiDockOsd, djiDroneOsd, djiEnvelope } from './dji.js';
import { DEFAULT_CAMERA_SETTINGS } from './flight.js';
import { telemetryMessage } from './test-fixtures.js';

const telemetry = telemetryMessage();

/** A nest's whole state: a flow, a mission and its camera (enums, literal unions and z.custom checks). */
const fullState = {
  firmware: '2.1.0',
  rate_hz: 1,
  faults: [],
  video: { streaming: true, url: 'live/SN-1' },
  flow: {
    flow_id: 'f-1',
    kind: 'takeoff',
    state: 'running',
    steps: [{ step: 'hatch', state: 'done', elapsed: 4.5 }, { step: 'platform', state: 'running', elapsed: 1 }],
    current: 1,
    error: null,
    tip: { code: 3, part: 'hatch' },
    started_at: 1_763_769_600,
    elapsed: 5.5,
  },
  mission: { flight_id: 'fl-1', mission_id: null, state: 'running', waypoint_index: 2, waypoint_count: 9, percent: 22.2, distance_flown: 310, flight_time: 95, photos: 4 },
  camera: DEFAULT_CAMERA_SETTINGS,
  stick_mode: false,
};

/** DJI Cloud API messages as a dock sends them (envelope, drone and dock OSD). */
const djiDrone = {
  mode_code: 4,
  latitude: 22.57,
  longitude: 113.94,
  height: 120.5,
  elevation: 80,
  attitude_head: -90.5,
  horizontal_speed: 8.2,
  battery: { capacity_percent: 76, remain_flight_time: 1300, batteries: [{ index: 0, capacity_percent: 76, voltage: 23.1, temperature: 31.5 }] },
  position_state: { is_fixed: 2, quality: 5, gps_number: 18, rtk_number: 22 },
  gear: 1,
  firmware_version: '10.01.0310',
};
const djiDock = {
  mode_code: 0,
  cover_state: 0,
  drone_in_dock: 1,
  drone_charge_state: { state: 0, capacity_percent: 100 },
  latitude: 22.57,
  longitude: 113.94,
  network_state: { type: 2, quality: 5, rate: 1024 },
  sub_device: { device_sn: '1581F5BMD2310011', device_model_key: '0-67-0', device_online_status: 1, device_paired: 1 },
  job_number: 3,
};
const djiMessage = { tid: 'tid-1', bid: 'bid-1', timestamp: 1_763_769_600_000, method: 'osd', gateway: 'DOCK-1', need_reply: 0, data: djiDrone };

/** Values zod may refuse or reshape: wrong types, edges of ranges, NaN-free numbers, nested junk. */
const anyValue = fc.oneof(
  fc.constantFrom(null, true, false, '', 'x', 0, -0, 1, -1, 0.5, 4, 8, 90, 90.0001, -90, 180, 360, 361, 1e300, -1e300, 2 ** 53, 2 ** 31, [], {}),
  // Just past the schemas' length limits (16, 32, 64, 256, 512 characters; 32 and 64 items).
  fc.constantFrom(...[17, 33, 65, 257, 513].map((n) => 'x'.repeat(n)), Array.from({ length: 33 }, () => 'a'), Array.from({ length: 65 }, () => 'a')),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.string({ maxLength: 70 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** The object with one value somewhere inside replaced, removed, or a key added. */
function mutate(base: unknown, path: string[], action: 'set' | 'delete' | 'add', value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) return copy;
    at = next as Record<string, unknown>;
  }
  const last = path.at(-1)!;
  if (action === 'set') at[last] = value;
  else if (action === 'delete') delete at[last];
  else at[`${last}_extra`] = value;
  return copy;
}

function paths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix];
  return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))].filter((p) => p.length > 0);
}

/** The fast parse answers exactly what zod answers (success, output, issues). */
function sameAsZod(schema: z.ZodType, value: unknown): void {
  const fast = fastSafeParse(schema)(value);
  const slow = schema.safeParse(value);
  expect(fast.success).toBe(slow.success);
  if (slow.success) expect(fast.data).toStrictEqual(slow.data);
  else expect(fast.error?.issues).toStrictEqual(slow.error.issues);
}

describe('fastSafeParse', () => {
  it('answers a valid message in its output shape as it is (no copy), the same as zod', () => {
    const parse = fastSafeParse(telemetryData);
    const r = parse(telemetry);
    expect(r.success).toBe(true);
    expect(r.data).toBe(telemetry);
    expect(r.data).toStrictEqual(telemetryData.parse(telemetry));
    const env = linkMessage('telemetry', telemetry, { tid: 't', ts: 1 });
    expect(fastSafeParse(linkEnvelope)(env).data).toBe(env);
  });

  it('leaves what zod would reshape or refuse to zod: unknown keys stripped, refinements, wrong values', () => {
    const withExtra = { ...telemetry, extra: 1 };
    const r = fastSafeParse(telemetryData)(withExtra);
    expect(r.success).toBe(true);
    expect(r.data).not.toBe(withExtra);
    expect(r.data).toStrictEqual(telemetry);
    // The refinement (nest or drone) is checked: an empty telemetry is refused with zod's message.
    expect(fastSafeParse(telemetryData)({}).error?.issues[0]?.message).toBe('empty telemetry');
    sameAsZod(telemetryData, { drone: { ...telemetry.drone, flight_state: 5 } });
    sameAsZod(commandReplyData, { result: 1.5 });
  });

  it('agrees with zod on every mutation of valid link messages', () => {
    const cases: [z.ZodType, unknown][] = [
      [telemetryData, telemetry],
      [telemetryData, { drone: telemetry.drone }],
      [linkEnvelope, linkMessage('telemetry', {}, { tid: 'tid-1', bid: 'b', ts: 1_763_769_600_000 })],
      [presenceData, { online: true, rate_hz: 1, firmware: '1.2.3' }],
      [stateData, { firmware: '1.0', faults: ['rtk_loss'], video: { streaming: true, url: null }, stick_mode: false, changed: { faults: [] }, extra: { a: 1 } }],
      [stateData, fullState],
      [djiEnvelope, djiMessage],
      [djiDroneOsd, djiDrone],
      [djiDockOsd, djiDock],
      [eventData, { code: 'flight.start', sortie: 3 }],
      [commandReplyData, { result: 0, message: 'ok', output: { url: 'x' } }],
    ];
    for (const [schema, base] of cases) {
      const all = paths(base);
      fc.assert(
        fc.property(fc.constantFrom(...all), fc.constantFrom('set' as const, 'delete' as const, 'add' as const), anyValue, (path, action, value) => {
          sameAsZod(schema, mutate(base, path, action, value));
        }),
        { numRuns: fuzzRuns(300) },
      );
    }
  });

  it('agrees with zod on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        for (const schema of [telemetryData, linkEnvelope, presenceData, stateData, eventData, commandReplyData, djiEnvelope, djiDroneOsd, djiDockOsd]) sameAsZod(schema, value);
      }),
      { numRuns: fuzzRuns(200) },
    );
  });

  it('compiles every link schema, so that valid device messages never take the walk of zod', () => {
    for (const schema of [telemetryData, linkEnvelope, presenceData, stateData, eventData, commandReplyData, djiEnvelope, djiDroneOsd, djiDockOsd]) {
      const accepts = compilePredicate(schema);
      expect(accepts).toBeTypeOf('function');
    }
    expect(compilePredicate(telemetryData)!(telemetry)).toBe(true);
    expect(compilePredicate(telemetryData)!({ ...telemetry, extra: 1 })).toBe(false);
    expect(stateData.safeParse(fullState).success).toBe(true);
    expect(compilePredicate(stateData)!(fullState)).toBe(true);
    expect(compilePredicate(stateData)!({ ...fullState, camera: { ...DEFAULT_CAMERA_SETTINGS, iso: 123 } })).toBe(false);
  });

  it('keeps zod where compiling code is forbidden (a page under a content security policy)', () => {
    const original = globalThis.Function;
    globalThis.Function = function forbidden() {
      throw new EvalError('Refused to evaluate a string as JavaScript');
    } as unknown as FunctionConstructor;
    let parse: ReturnType<typeof fastSafeParse>;
    let compiled: unknown;
    try {
      compiled = compilePredicate(telemetryData);
      parse = fastSafeParse(telemetryData);
      parse(telemetry);
    } finally {
      globalThis.Function = original;
    }
    expect(compiled).toBeNull();
    const r = parse(telemetry);
    expect(r.success).toBe(true);
    // zod's answer: a copy in the output shape, not the value itself.
    expect(r.data).not.toBe(telemetry);
    expect(r.data).toStrictEqual(telemetry);
    expect(parse({}).error?.issues[0]?.message).toBe('empty telemetry');
  });

  it('answers unions and defaults as zod does (a union: the first option that accepts the value, even reshaped)', () => {
    // The plain object accepts {a, b} by stripping b: zod answers {a}, although the loose object keeps it.
    const stripFirst = z.union([z.object({ a: z.number() }), z.looseObject({ a: z.number() })]);
    sameAsZod(stripFirst, { a: 1, b: 2 });
    sameAsZod(stripFirst, { a: 1 });
    // A transform after exact options (DJI's need_reply flag): 0 and 1 as they are, true turned into 1.
    const flag = z.union([z.literal(0), z.literal(1), z.boolean().transform((b) => (b ? 1 : 0))]);
    for (const value of [0, 1, true, false, 2, '1', null]) sameAsZod(flag, value);
    expect(fastSafeParse(flag)(1).data).toBe(1);
    expect(fastSafeParse(flag)(true).data).toBe(1);
    // A default: given, the value as it is; absent, zod fills it in.
    const withDefault = z.object({ bid: z.string().default(''), tid: z.string() });
    for (const value of [{ tid: 't' }, { tid: 't', bid: 'b' }, { tid: 't', bid: undefined }, { tid: 't', bid: 3 }]) sameAsZod(withDefault, value);
    const given = { tid: 't', bid: 'b' };
    expect(fastSafeParse(withDefault)(given).data).toBe(given);
    // Optional over a default still fills the default in for undefined, in an object or anywhere else.
    const optionalDefault = z.string().default('d').optional();
    sameAsZod(z.array(optionalDefault), [undefined, 'b']);
    sameAsZod(z.object({ a: optionalDefault }), {});
    sameAsZod(z.object({ a: optionalDefault }), { a: 'b' });
  });

  it('leaves schemas with parts it does not know to zod (transforms)', () => {
    const schema = z.object({ a: z.string().transform((s) => s.length) });
    const r = fastSafeParse(schema)({ a: 'abc' });
    expect(r.data).toStrictEqual({ a: 3 });
  });
});

describe('parseTopic', () => {
  it('reads nest/v1/<sn>/<channel> and nothing else', () => {
    expect(parseTopic(topicOf('SN-1', 'telemetry'))).toStrictEqual({ sn: 'SN-1', channel: 'telemetry' });
    expect(parseTopic('nest/v1/SN-1/commands')).toStrictEqual({ sn: 'SN-1', channel: 'commands' });
    for (const bad of ['nest/v1/SN-1/telemetry/x', 'nest/v1/SN-1', 'nest/v1//telemetry', 'nest/v2/SN-1/telemetry', 'nest/v1/S N/telemetry', 'nest/v1/SN-1/other', 'x/nest/v1/SN-1/state', 'nest/v1/a/b/telemetry']) {
      expect(parseTopic(bad)).toBeNull();
    }
  });
});
