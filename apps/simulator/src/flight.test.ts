import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { FlightMethod, FlightResult, LINK_VERSION, parseLinkMessage, stateData, topicOf } from '@nest/contracts';
import type { LinkEnvelope } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { EVENT_FAST_SENDS, EVENT_GIVE_UP_MS, EVENT_RESEND_MAX_MS, EVENT_RESEND_MS, demoFleet, devicePassword, eventResendDelay, startFleet } from './index.js';
import type { Fleet } from './index.js';
import { startBroker } from './test/broker.js';
import type { TestBroker } from './test/broker.js';
import { until } from './test/wait.js';

/** Flight commands and events of a simulated nest over a real broker (docs/device-protocol.md 9). */

const SECRET = 'test-secret';
let broker: TestBroker | null = null;
let fleet: Fleet | null = null;

afterEach(async () => {
  await fleet?.stop();
  fleet = null;
  await broker?.close();
  broker = null;
});

interface Msg {
  topic: string;
  env: LinkEnvelope;
  /** Arrival (ms, Date.now()). */
  at: number;
}

const logs: string[] = [];

/**
 * One nest in calm weather (its landings never divert to the alternate point) over a fresh broker, and an
 * observer recording everything the device sends.
 */
async function setup(timeScale: number) {
  const devices = demoFleet({ lat: 22.54, lng: 114.05 }, { nests: 1, drones: 0 }).map((d) => ({ ...d, password: devicePassword(SECRET, d.sn), calm: true }));
  broker = await startBroker({ passwords: new Map(devices.map((d) => [d.sn, d.password])) });
  logs.length = 0;
  fleet = await startFleet({ brokerUrl: broker.url, devices, rateHz: 10, timeScale, seed: 1, ffmpegPath: null, validate: true, log: (l) => logs.push(l) });
  const obs = await broker.observer();
  const got: Msg[] = [];
  obs.on('message', (topic, payload) => {
    const p = parseLinkMessage(payload);
    if (p.ok) got.push({ topic, env: p.message, at: Date.now() });
  });
  await obs.subscribeAsync('nest/v1/+/+', { qos: 1 });
  return { sn: devices[0]!.sn, obs, got };
}

function command(client: MqttClient, sn: string, method: string, data: unknown, tid = randomUUID(), bid = '') {
  const env = { v: LINK_VERSION, tid, bid, ts: Date.now(), method, data };
  return client.publishAsync(topicOf(sn, 'commands'), JSON.stringify(env), { qos: 1 }).then(() => tid);
}
const replyOf = (got: Msg[], sn: string, tid: string) => got.find((m) => m.topic === topicOf(sn, 'commands_reply') && m.env.tid === tid);

describe('flight commands over the broker', () => {
  it('answers refusals, bad data and takeoff; executes a tid at most once; state carries flow and camera', async () => {
    const { sn, obs, got } = await setup(60);
    const land = await command(obs, sn, FlightMethod.LAND, {});
    expect((await until('land reply', () => replyOf(got, sn, land))).env.data).toMatchObject({ result: FlightResult.REFUSED, output: { one_key_error: 4 } });
    const bad = await command(obs, sn, FlightMethod.TAKEOFF, { flight_id: '' });
    expect((await until('bad reply', () => replyOf(got, sn, bad))).env.data).toMatchObject({ result: FlightResult.BAD_REQUEST });
    const ctl = await command(obs, sn, FlightMethod.PROCESS, { control_cmd: 1 });
    expect((await until('control reply', () => replyOf(got, sn, ctl))).env.data).toMatchObject({ result: FlightResult.REFUSED, output: { refusal: 1 } });
    const cam = await command(obs, sn, FlightMethod.CAMERA_SET, { iso: 12345 });
    expect((await until('camera reply', () => replyOf(got, sn, cam))).env.data).toMatchObject({ result: FlightResult.REFUSED, output: { reason: 17 } });

    // Stick frames are never answered.
    const stick = await command(obs, sn, FlightMethod.STICK, { seq: 1, roll: 1500, pitch: 1600, throttle: 1500, yaw: 1500 });

    const tid = await command(obs, sn, FlightMethod.TAKEOFF, { flight_id: 'flight-1', mission: null, height: 20 }, undefined, 'flight-1');
    expect((await until('takeoff reply', () => replyOf(got, sn, tid))).env.data).toMatchObject({ result: FlightResult.OK });
    // The same tid again: the first answer, not a second takeoff (which would be refused as busy).
    await command(obs, sn, FlightMethod.TAKEOFF, { flight_id: 'flight-1', mission: null, height: 20 }, tid, 'flight-1');
    await until('second reply', () => got.filter((m) => m.topic === topicOf(sn, 'commands_reply') && m.env.tid === tid).length === 2);
    for (const r of got.filter((m) => m.topic === topicOf(sn, 'commands_reply') && m.env.tid === tid)) expect(r.env.data).toMatchObject({ result: FlightResult.OK });

    const flow = await until('flow.progress', () => got.find((m) => m.topic === topicOf(sn, 'events') && m.env.method === FlightMethod.FLOW_PROGRESS));
    expect(flow.env.bid).toBe('flight-1');
    const state = await until('state with flow', () =>
      got.filter((m) => m.topic === topicOf(sn, 'state')).map((m) => m.env.data as Record<string, unknown>).find((d) => d.flow !== null && d.flow !== undefined),
    );
    const s = stateData.parse(state);
    expect(s.flow?.kind).toBe('takeoff');
    expect(s.camera?.iso).toBe(100);
    expect(s.stick_mode).toBe(false);
    // The ~57 s takeoff flow runs in model time: the drone leaves the ground.
    await until('flight.start', () => got.find((m) => m.env.method === FlightMethod.FLIGHT_START));
    // Replies come in the order of the commands: the stick frame, sent before the takeoffs, had none.
    expect(replyOf(got, sn, stick)).toBeUndefined();
  });

  it('flies a whole mission: valid events in order, flight.end after the landing flow', async () => {
    // Model time runs fast: the mission is logic (flows, waypoints, events), not real-time behaviour.
    const { sn, obs, got } = await setup(100);
    const home = demoFleet({ lat: 22.54, lng: 114.05 }, { nests: 1, drones: 0 })[0]!.home;
    const mission = {
      mission_id: 'm-9', name: 'Wire route', mission_type: 1, height_type: 0, auto_speed: 12, max_speed: 15,
      default_height: 40, return_height: 50, finish_action: 20, photo_type: 2, start_index: 0,
      waypoints: [
        { lat: home.lat + 0.001, lng: home.lng, height: 40, takephoto: 1 },
        { lat: home.lat + 0.001, lng: home.lng + 0.001, height: 40, hover: 2 },
      ],
    };
    const tid = await command(obs, sn, FlightMethod.TAKEOFF, { flight_id: 'flight-9', mission, height: 30 }, undefined, 'flight-9');
    expect((await until('reply', () => replyOf(got, sn, tid))).env.data).toMatchObject({ result: 0 });
    await until('flight.end', () => got.find((m) => m.env.method === FlightMethod.FLIGHT_END));
    const events = got.filter((m) => m.topic === topicOf(sn, 'events'));
    // Calm weather: the landing is at the nest, never diverted to the alternate point.
    const methods = [...new Set(events.map((m) => m.env.method))];
    expect(methods, JSON.stringify(events.filter((m) => m.env.method === FlightMethod.FLOW_PROGRESS).map((m) => m.env.data))).toEqual([
      FlightMethod.FLOW_PROGRESS,
      FlightMethod.FLIGHT_START,
      FlightMethod.MISSION_PROGRESS,
      FlightMethod.FLIGHT_END,
    ]);
    expect(events.every((m) => m.env.bid === 'flight-9')).toBe(true);
    const end = events.find((m) => m.env.method === FlightMethod.FLIGHT_END)!.env.data as { place: number; photos: number };
    expect(end).toMatchObject({ place: 3, photos: 1 });
    expect(logs.filter((l) => l.includes('invalid'))).toEqual([]);
  });

  it('re-sends an event with the same tid until its events_reply arrives', async () => {
    // The device's clock is the test's: Date alone is faked (timers, sockets and the broker run for real), so
    // the re-send timing is checked to the millisecond without waiting for it. While the clock stands still
    // the model does not move; each step of the clock is one step of the world.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const { sn, obs, got } = await setup(1);
      const events = () => got.filter((m) => m.topic === topicOf(sn, 'events'));
      const telemetry = () => got.filter((m) => m.topic === topicOf(sn, 'telemetry'));
      const acked = new Set<string>();
      /** Acknowledges every event but `keep` that came so far. */
      const ackAllBut = async (keep: string) => {
        for (const m of events()) {
          if (m.env.tid === keep || acked.has(m.env.tid)) continue;
          acked.add(m.env.tid);
          await obs.publishAsync(topicOf(sn, 'events_reply'), JSON.stringify({ v: 1, tid: m.env.tid, bid: m.env.bid, ts: Date.now(), method: `${m.env.method}_reply`, data: { result: 0 } }), { qos: 1 });
        }
      };
      /** Moves the device's clock to `t` and waits until two periods have run on it (the first sent all it had to send). */
      const clockTo = async (t: number) => {
        vi.setSystemTime(t);
        await until(`two telemetry periods at ${t}`, () => telemetry().filter((m) => m.env.ts >= t).length >= 2);
      };
      const sendsOf = (tid: string) => events().filter((m) => m.env.tid === tid);

      await command(obs, sn, FlightMethod.TAKEOFF, { flight_id: 'flight-2', mission: null, height: 20 });
      const first = await until('first event', () => events()[0]);
      const sentAt = first.env.ts;
      await ackAllBut(first.env.tid);
      // Every second of device time up to the re-send: the unacknowledged event goes out again exactly
      // EVENT_RESEND_MS after it was sent, with the same tid; the acknowledged ones never again.
      for (let s = 1000; s <= EVENT_RESEND_MS; s += 1000) {
        await clockTo(sentAt + s);
        await ackAllBut(first.env.tid);
        expect(sendsOf(first.env.tid), `sends after ${s} ms`).toHaveLength(s < EVENT_RESEND_MS ? 1 : 2);
      }
      // The same message again (envelope, tid, time stamp), sent when the device's clock reached the re-send time.
      const again = sendsOf(first.env.tid)[1]!;
      expect(again.at).toBe(sentAt + EVENT_RESEND_MS);
      expect(again.env).toEqual(first.env);
      const others = events().filter((m) => m.env.tid !== first.env.tid);
      expect(others.length).toBeGreaterThan(0);
      expect(new Set(others.map((m) => m.env.tid)).size).toBe(others.length);

      // Acknowledged now: once the device has it (a command sent after it is answered after it), never again,
      // not even past the next re-send time.
      await obs.publishAsync(topicOf(sn, 'events_reply'), JSON.stringify({ v: 1, tid: first.env.tid, bid: '', ts: Date.now(), method: 'x_reply', data: { result: 0 } }), { qos: 1 });
      const ping = await command(obs, sn, 'test.barrier', {});
      await until('reply to the command sent after the acknowledgement', () => replyOf(got, sn, ping));
      await clockTo(sentAt + EVENT_RESEND_MS + eventResendDelay(2) + 1000);
      expect(sendsOf(first.env.tid)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('event re-send schedule', () => {
  it('re-sends every 5 s at first, then backs off to once a minute, and keeps trying for an hour', () => {
    const delays = Array.from({ length: 10 }, (_, i) => eventResendDelay(i + 1));
    expect(delays).toEqual([5_000, 5_000, 5_000, 5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
    // Sends within the first minute: enough for a server restart; the last one long after a short outage.
    let t = 0;
    let sends = 1;
    while (t + eventResendDelay(sends) <= EVENT_GIVE_UP_MS) t += eventResendDelay(sends++);
    expect(sends).toBeGreaterThan(EVENT_FAST_SENDS + 50);
    expect(eventResendDelay(1000)).toBe(EVENT_RESEND_MAX_MS);
  });
});
