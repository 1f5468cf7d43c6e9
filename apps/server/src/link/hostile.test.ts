// Database: SQLite only: hostile device messages on the link; that no row changes is the link's refusal, not a dialect's.
import {
  FlightMethod,
  LINK_VERSION,
  LinkMethod,
  MaintenanceMethod,
  SERVER_MQTT_USER,
  alternateLandingEvent,
  commandReplyData,
  flightEndEvent,
  flightStartEvent,
  flowProgressSchema,
  maintProgressEvent,
  missionProgressSchema,
  presenceData,
  stateData,
  telemetryData,
} from '@nest/contracts';
import fc from 'fast-check';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { RawDevice, envelope, live, mqttConnect, nestTelemetry, registerDevice, until, clockPast } from '../../test/live.js';
import type { LiveDevice } from './adapter.js';
import { installWriteLog, type WriteLog } from '../../test/writes.js';

/**
 * Hostile device messages: fuzzed envelopes and data for every channel and event method
 * (fast-check, fixed seed), wrong topics, oversized and flooding devices. Every message is dropped with a
 * counted reason or accepted as valid; nothing throws (no `error` drops), no row is written for invalid
 * data, the live state keeps the last valid telemetry and state, and other devices carry on.
 */

let server: TestServer;
let writes: WriteLog;
let publisher: MqttClient;
const devices: RawDevice[] = [];

const FUZZ = 'LH-FUZZ';
const OTHER = 'LH-OTHER';

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  for (const sn of [FUZZ, OTHER]) await registerDevice(server, { sn_id: sn });
  writes = await installWriteLog(server, new Set(['sessions', 'audit_log', 'device_uptime']));
  const { client } = await mqttConnect(live(server).brokerUrl, { username: SERVER_MQTT_USER, password: live(server).secrets.serverPassword, clientId: 'nest-server-hostile-publisher' });
  publisher = client!;
});
afterAll(async () => {
  publisher?.end(true);
  for (const d of devices) await d.end().catch(() => undefined);
  await server?.close();
});

async function device(sn: string): Promise<RawDevice> {
  const d = await RawDevice.connect(server, sn);
  devices.push(d);
  return d;
}

const stats = () => live(server).link.stats;

/** The tids of events acknowledged on a device's events_reply topic. */
const acknowledged = (d: RawDevice) =>
  new Set(
    d.received
      .filter((r) => r.topic.endsWith('/events_reply'))
      .map((r) => (JSON.parse(r.payload.toString()) as { tid: string }).tid),
  );
/** Messages that reached the link: read, or telemetry superseded by a newer one of its device before it was read. */
const reached = () => stats().received + (stats().superseded ?? 0);
const totalDropped = () => Object.values(stats().dropped).reduce((n, v) => n + (v ?? 0), 0);

/** Valid data of each event method; fuzzing mutates these so the data is wrong in one place. */
const now = Date.now();
const VALID_EVENTS: Record<string, { schema: { safeParse(v: unknown): { success: boolean } }; data: Record<string, unknown> }> = {
  [FlightMethod.FLIGHT_START]: { schema: flightStartEvent, data: { flight_id: 'F-1', uav_sn: 'U', mission_id: null, mission_name: null, started_at: now } },
  [FlightMethod.FLIGHT_END]: { schema: flightEndEvent, data: { flight_id: 'F-1', ended_at: now, distance: 10, place: 3, photos: 1 } },
  [FlightMethod.ALTERNATE]: {
    schema: alternateLandingEvent,
    data: { flight_id: 'F-1', reason: 1, solution: 1, timestamp: now, drone_int: 0, altn_int: 0, place_int: 1, lat: 30, lng: 120 },
  },
  [FlightMethod.FLOW_PROGRESS]: {
    schema: flowProgressSchema,
    data: { flow_id: 'W-1', kind: 'takeoff', state: 'failed', steps: [{ step: 'hatch', state: 'failed', elapsed: 1 }], current: 0, error: 3, tip: null, started_at: now, elapsed: 2 },
  },
  [FlightMethod.MISSION_PROGRESS]: {
    schema: missionProgressSchema,
    data: { flight_id: 'F-1', mission_id: 'M-1', state: 'running', waypoint_index: 1, waypoint_count: 3, percent: 30, distance_flown: 10, flight_time: 5, photos: 0 },
  },
  [MaintenanceMethod.PROGRESS]: { schema: maintProgressEvent, data: { op_id: 'O-1', kind: 'upgrade', state: 'failed', progress: 50, failure: 1 } },
};
const CHANNEL_SCHEMAS: Record<string, { method: string; schema: { safeParse(v: unknown): { success: boolean } }; data: unknown }> = {
  telemetry: { method: LinkMethod.TELEMETRY, schema: telemetryData, data: nestTelemetry() },
  state: { method: LinkMethod.STATE, schema: stateData, data: { video: { streaming: false } } },
  presence: { method: LinkMethod.PRESENCE, schema: presenceData, data: { online: true, rate_hz: 2 } },
  commands_reply: { method: 'x_reply', schema: commandReplyData, data: { result: 0 } },
};

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, -0.5, 1e308, -1e308, 2 ** 53, 'NaN', 'Infinity', '', 'x'.repeat(300), [], {}, [1, 2], { __proto__: null, polluted: 1 }),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
);

/** Replaces some leaves (picked by index in a depth-first walk) or deletes keys. */
function mutate(value: unknown, picks: { at: number; v: unknown; drop: boolean }[]): unknown {
  let leaf = 0;
  const byIndex = new Map(picks.map((p) => [p.at, p]));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const pick = byIndex.get(leaf);
        if (pick?.drop && (x === null || typeof x !== 'object')) {
          leaf++;
          continue;
        }
        out[k] = walk(x);
      }
      return out;
    }
    const pick = byIndex.get(leaf++);
    return pick ? pick.v : v;
  };
  return walk(value);
}
const picks = fc.array(fc.record({ at: fc.nat({ max: 30 }), v: hostile, drop: fc.boolean() }), { minLength: 1, maxLength: 4 });

interface Msg {
  channel: string;
  payload: string | Buffer;
  /** Event method whose schema must refuse the data (events), when `check`. */
  method: string;
  /** Keep only if the channel's (or method's) schema refuses the data. */
  check: boolean;
}

/** A message on a channel of FUZZ whose data the channel's (or event method's) schema refuses. */
const invalidMessage: fc.Arbitrary<Msg> = fc.oneof<fc.Arbitrary<Msg>[]>(
  // Event data one mutation away from valid.
  fc.tuple(fc.constantFrom(...Object.keys(VALID_EVENTS)), picks).map(([method, p]) => ({ channel: 'events', payload: JSON.stringify(envelope(method, mutate(VALID_EVENTS[method]!.data, p))), method, check: true })),
  // Channel data one mutation away from valid.
  fc.tuple(fc.constantFrom(...Object.keys(CHANNEL_SCHEMAS)), picks).map(([channel, p]) => ({ channel, payload: JSON.stringify(envelope(CHANNEL_SCHEMAS[channel]!.method, mutate(CHANNEL_SCHEMAS[channel]!.data, p))), method: '', check: true })),
  // Envelopes of the wrong shape, methods on the wrong channel, garbage.
  fc.tuple(fc.constantFrom('telemetry', 'state', 'events', 'presence', 'commands_reply'), hostile, hostile, hostile, hostile).map(([channel, v, tid, ts, method]) => ({
    channel,
    payload: JSON.stringify({ v, tid, bid: '', ts, method, data: {} }),
    method: '',
    check: false,
  })),
  fc.tuple(fc.constantFrom('telemetry', 'state', 'presence'), fc.constantFrom(...Object.keys(VALID_EVENTS), 'alarm', '__proto__')).map(([channel, method]) => ({ channel, payload: JSON.stringify(envelope(method, {})), method: '', check: false })),
  fc.tuple(fc.constantFrom('telemetry', 'events', 'state'), fc.oneof(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), fc.constantFrom('{', '{"v":1', '\u0000', `${'['.repeat(5000)}${']'.repeat(5000)}`, `{"v":${LINK_VERSION},"tid":"t","bid":"","ts":1,"method":"telemetry","data":{"__proto__":{"nest":{"lat":1}}}}`))).map(
    ([channel, text]) => ({ channel, payload: text, method: '', check: false }),
  ),
  fc.uint8Array({ maxLength: 64 }).map((b) => ({ channel: 'telemetry', payload: Buffer.from(b), method: '', check: false })),
).filter((m) => {
  // Only data the receiving side must refuse: a mutation may leave valid data (e.g. an optional key dropped).
  const c = m;
  if (!c.check) return true;
  const parsed = JSON.parse(String(c.payload)) as { data: unknown };
  const schema = c.channel === 'events' ? VALID_EVENTS[c.method]!.schema : CHANNEL_SCHEMAS[c.channel]!.schema;
  return !schema.safeParse(parsed.data).success;
});

describe('hostile device messages', () => {
  it('the valid examples are valid (the fuzz starts one mutation away from them)', () => {
    for (const { schema, data } of Object.values(VALID_EVENTS)) expect(schema.safeParse(data).success).toBe(true);
    for (const { schema, data } of Object.values(CHANNEL_SCHEMAS)) expect(schema.safeParse(data).success).toBe(true);
  });

  it('fuzzed envelopes and data on every channel: counted, never thrown, nothing stored, live state kept', async () => {
    const fuzz = await device(FUZZ);
    const other = await device(OTHER);
    // A valid picture first: what invalid data must not change.
    await fuzz.publish('presence', envelope('presence', { online: true, rate_hz: 2 }), { qos: 1 });
    await fuzz.publish('state', envelope('state', { video: { streaming: false } }), { qos: 1 });
    await fuzz.publish('telemetry', envelope('telemetry', nestTelemetry(22.6, 114.1)), { qos: 1 });
    await until(() => live(server).link.device(FUZZ)?.telemetry?.nest?.lat === 22.6 && live(server).link.device(FUZZ)?.state !== null, 'the valid picture of LH-FUZZ');
    const picture = structuredClone({ telemetry: live(server).link.device(FUZZ)!.telemetry, state: live(server).link.device(FUZZ)!.state });
    await writes.settle();
    await writes.take();

    const before = {
      received: stats().received,
      reached: reached(),
      accepted: stats().accepted,
      dropped: totalDropped(),
      errors: stats().dropped.error ?? 0,
      limited: stats().dropped.rate_limited ?? 0,
    };
    const messages = fc.sample(invalidMessage, { numRuns: 300, seed: 20261125 });
    // Events the link accepted (their handlers refuse the data): each is acknowledged once its handlers are done.
    await fuzz.subscribe(`nest/v1/${FUZZ}/events_reply`);
    const handed: string[] = [];
    const onEvent = (sn: string, m: { tid: string }) => sn === FUZZ && handed.push(m.tid);
    live(server).link.on('event', onEvent);
    let otherLat = 22;
    let sent = 0;
    try {
      for (let i = 0; i < messages.length; i += 20) {
        // In batches below the per-device rate limit (these must be refused for what they are, not for their
        // number): each batch of 20 goes out once the link received the previous one and 250 ms more passed,
        // so the link never receives more than 20 of them in 250 ms.
        await Promise.all(messages.slice(i, i + 20).map((m) => fuzz.publish(m.channel, m.payload, { qos: 1 })));
        // The other device goes on meanwhile.
        await other.publish('telemetry', envelope('telemetry', nestTelemetry((otherLat += 0.001), 114)), { qos: 1 });
        sent += messages.slice(i, i + 20).length + 1;
        await until(() => reached() - before.reached >= sent, `the link to receive the ${sent} messages sent so far`);
        await clockPast(Date.now(), 250);
      }
      await until(() => handed.every((tid) => acknowledged(fuzz).has(tid)), 'every accepted event acknowledged (its handlers done)');
    } finally {
      live(server).link.off('event', onEvent);
    }

    expect(stats().dropped.error ?? 0).toBe(before.errors);
    expect(stats().dropped.rate_limited ?? 0).toBe(before.limited);
    // Every message either dropped for a counted reason or accepted (events are accepted, then refused by their handlers).
    expect(stats().received - before.received).toBe(stats().accepted - before.accepted + (totalDropped() - before.dropped));
    expect(totalDropped() - before.dropped).toBeGreaterThan(messages.length / 3);
    expect(await writes.take()).toEqual([]);
    expect({ telemetry: live(server).link.device(FUZZ)!.telemetry, state: live(server).link.device(FUZZ)!.state }).toEqual(picture);
    expect(live(server).link.device(OTHER)?.telemetry?.nest?.lat).toBeCloseTo(otherLat, 6);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).nest).toBeUndefined();
  });

  it('NUL in otherwise valid data (it could never be stored, so never acknowledged) is dropped as a bad envelope', async () => {
    const fuzz = await device(FUZZ);
    await fuzz.subscribe(`nest/v1/${FUZZ}/events_reply`);
    const before = { bad: stats().dropped.bad_envelope ?? 0, errors: stats().dropped.error ?? 0 };
    const events: string[] = [];
    const onEvent = (sn: string, m: { tid: string }) => sn === FUZZ && events.push(m.tid);
    live(server).link.on('event', onEvent);
    await writes.take();
    const nul = [
      envelope(FlightMethod.FLIGHT_START, { ...VALID_EVENTS[FlightMethod.FLIGHT_START]!.data, flight_id: 'F\u0000' }, 'nul-1'),
      envelope(FlightMethod.MISSION_PROGRESS, { ...VALID_EVENTS[FlightMethod.MISSION_PROGRESS]!.data, mission_id: '\u0000' }, 'nul-2'),
      envelope(MaintenanceMethod.PROGRESS, { ...VALID_EVENTS[MaintenanceMethod.PROGRESS]!.data, op_id: 'O\u0000' }, 'nul-3'),
    ];
    // JSON.stringify writes each NUL as the escape \u0000, as a device's JSON library would.
    for (const m of nul) await fuzz.publish('events', JSON.stringify(m), { qos: 1 });
    await fuzz.publish('state', JSON.stringify(envelope('state', { video: { streaming: false }, note: 'a\u0000' })), { qos: 1 });
    await fuzz.publish('events', JSON.stringify(envelope('x', { code: 'x\u0000' }, 'nul-4')), { qos: 1 });
    // Each is dropped as it arrives: nothing is left to run once all five are counted.
    await until(() => (stats().dropped.bad_envelope ?? 0) - before.bad >= 5, 'the NUL messages dropped');
    live(server).link.off('event', onEvent);
    expect(events).toEqual([]);
    expect(await writes.take()).toEqual([]);
    expect(stats().dropped.error ?? 0).toBe(before.errors);
    expect(fuzz.received.filter((r) => r.topic.endsWith('events_reply'))).toEqual([]);
  });

  it('wrong topics (published by a client allowed to: the server user) are dropped as bad topics', async () => {
    const before = { bad: stats().dropped.bad_topic ?? 0, unknown: stats().dropped.unknown_device ?? 0, errors: stats().dropped.error ?? 0 };
    const topics = [`nest/v1/${FUZZ}/unknown`, `nest/v1/${FUZZ}/telemetry/extra`, 'nest/v1//telemetry', `nest/v2/${FUZZ}/telemetry`, `nest/v1/${FUZZ}/commands`, `nest/v1/${FUZZ}/events_reply`, 'nest/v1/__proto__/telemetry', `nest/v1/${'S'.repeat(500)}/telemetry`];
    const lats: number[] = [];
    const onTelemetry = (sn: string, d: LiveDevice) => sn === FUZZ && lats.push(d.telemetry?.nest?.lat ?? NaN);
    live(server).link.on('telemetry', onTelemetry);
    try {
      for (const t of topics) await publisher.publishAsync(t, JSON.stringify(envelope('telemetry', nestTelemetry(1, 1))), { qos: 1 });
      // Then a valid telemetry of LH-FUZZ from the same publisher: the broker passes the publisher's messages on
      // in order, so once the link has it, every wrong topic that reached the link was handled before it.
      await publisher.publishAsync(`nest/v1/${FUZZ}/telemetry`, JSON.stringify(envelope('telemetry', nestTelemetry(2.5, 2.5))), { qos: 1 });
      await until(() => lats.includes(2.5), 'the valid telemetry after the wrong topics');
    } finally {
      live(server).link.off('telemetry', onTelemetry);
    }
    expect(stats().dropped.error ?? 0).toBe(before.errors);
    expect(lats).toEqual([2.5]);
    expect(live(server).link.device('__proto__')).toBeUndefined();
    expect(await writes.take()).toEqual([]);
  });

  it('a flooding device is dropped with a counted reason; another device is unaffected', async () => {
    const fuzz = await device(FUZZ);
    const other = await device(OTHER);
    const before = { reached: reached(), errors: stats().dropped.error ?? 0, limited: stats().dropped.rate_limited ?? 0, superseded: stats().superseded ?? 0 };
    const n = 3000;
    for (let i = 0; i < n; i++) void fuzz.publish('telemetry', envelope('telemetry', nestTelemetry(22 + (i % 100) / 1000, 114)), { qos: 0 });
    // The other device keeps sending, as a real one does (its silence would take it offline, flood or not).
    const beat = setInterval(() => void other.publish('telemetry', envelope('telemetry', nestTelemetry(23.456, 114)), { qos: 1 }), 200);
    try {
      await other.publish('telemetry', envelope('telemetry', nestTelemetry(23.456, 114)), { qos: 1 });
      await until(() => live(server).link.device(OTHER)?.telemetry?.nest?.lat === 23.456, 'the other device heard during the flood');
      await until(() => reached() - before.reached >= n * 0.9, 'the flood received');
      expect(stats().dropped.error ?? 0).toBe(before.errors);
      // Beyond what the link reads at once, a flood of telemetry is superseded unread (only the newest
      // counts); what it does read beyond the device's rate is refused.
      expect((stats().dropped.rate_limited ?? 0) - before.limited + (stats().superseded ?? 0) - before.superseded).toBeGreaterThan(n / 2);
      expect(live(server).link.isOnline(OTHER)).toBe(true);
    } finally {
      clearInterval(beat);
    }
    expect((await writes.take()).filter((w) => !w.endsWith('device_uptime'))).toEqual([]);
  });
});
