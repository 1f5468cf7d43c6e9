// Database: SQLite only: the device link's protocol and presence.
import { DEFAULT_TELEMETRY_HZ, LINK_MAX_MESSAGE_BYTES, MIN_TELEMETRY_HZ, MISSED_TELEMETRY_PERIODS, SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { RawDevices, WAIT_LIMIT_MS, type RawDevice, envelope, live, mqttConnect, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { devicePassword } from './credentials.js';
import type { DeviceLink, LiveDevice } from './adapter.js';
import { MASS_SILENCE_HOLD_MS, MASS_SILENCE_MIN } from './mass-silence.js';
import { LinkService } from './nest/service.js';
import { loadSimulator } from '../../test/simulator.js';

let server: TestServer;
/** Devices whose telemetry is made to queue ahead of another's. */
const AHEAD = Array.from({ length: 20 }, (_, i) => `LK-AHEAD-${i}`);
const devices = new RawDevices(() => server);

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  for (const sn of ['LK-1', 'LK-2', 'LK-SILENT', 'LK-SWEEP', 'LK-WILL', 'LK-CMD', 'LK-EVT', 'LK-ABORT', 'LK-NEVER', 'LK-BEHIND', 'LK-FENCE', 'LK-FENCE-TCP', ...AHEAD]) await registerDevice(server, { sn_id: sn });
  await registerDevice(server, { sn_id: 'LK-OFF', enabled: false });
});
afterAll(async () => {
  await devices.endAll();
  await server?.close();
});

const device = (sn: string, withWill = false): Promise<RawDevice> => devices.connect(sn, { withWill });

const stats = () => live(server).link.stats;
const dropped = (reason: string) => stats().dropped[reason as keyof ReturnType<typeof stats>['dropped']] ?? 0;

describe('credentials', () => {
  it('derives device passwords exactly like the simulator', async () => {
    const sim = await loadSimulator();
    const key = live(server).secrets.deviceKeyHex;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    for (const sn of ['LK-1', 'SIM-STABLE-01', 'x']) expect(devicePassword(key, sn)).toBe(sim.devicePassword(key, sn));
  });
});

describe('device messages', () => {
  it('takes a device online from presence and telemetry, keeping the latest telemetry', async () => {
    const d = await device('LK-1');
    await d.publish('presence', envelope('presence', { online: true, rate_hz: 5, firmware: 'fw-1' }), { qos: 1, retain: true });
    await d.publish('telemetry', envelope('telemetry', nestTelemetry(22.6, 114.1)));
    await until(() => live(server).link.device('LK-1')?.telemetry !== null && live(server).link.device('LK-1')?.telemetry !== undefined, 'LK-1 telemetry');
    const state = live(server).link.device('LK-1')!;
    expect(state).toMatchObject({ online: true, rateHz: 5, firmware: 'fw-1' });
    expect(state.telemetry?.nest?.lat).toBe(22.6);
  });

  it('drops malformed messages (counted, logged at most every 10 s) and keeps working', async () => {
    const d = await device('LK-2');
    const before = { ...stats().dropped };
    const n = (r: string) => dropped(r) - ((before as Record<string, number>)[r] ?? 0);
    await d.publish('telemetry', 'not json', { qos: 1 });
    await d.publish('telemetry', { ...envelope('telemetry', nestTelemetry()), v: 2 }, { qos: 1 });
    await d.publish('telemetry', { tid: 'x' }, { qos: 1 });
    await d.publish('telemetry', envelope('telemetry', { nest: { lat: 500 } }), { qos: 1 });
    await d.publish('telemetry', envelope('telemetry', {}), { qos: 1 });
    await d.publish('telemetry', envelope('presence', { online: true }), { qos: 1 });
    await d.publish('presence', envelope('presence', { online: 'yes' }), { qos: 1 });
    await d.publish('commands_reply', envelope('video.start_reply', { result: 0 }), { qos: 1 });
    await d.publish('state', envelope('state', { video: { streaming: 'maybe' } }), { qos: 1 });
    await until(() => n('bad_envelope') >= 3 && n('bad_data') >= 4 && n('bad_method') >= 1 && n('unmatched_reply') >= 1, 'every malformed message dropped');
    // Nothing malformed reached the live state.
    expect(live(server).link.device('LK-2')?.telemetry ?? null).toBeNull();
    expect(live(server).link.device('LK-2')?.state ?? null).toBeNull();
    // Still working: a valid message after all that.
    await d.publish('telemetry', envelope('telemetry', nestTelemetry(22.5, 114)), { qos: 1 });
    await until(() => live(server).link.device('LK-2')?.telemetry?.nest?.lat === 22.5, 'valid telemetry after the malformed ones');
    expect(live(server).link.isOnline('LK-2')).toBe(true);
  });

  it('drops messages of unknown devices (published by someone allowed to: the server user)', async () => {
    const { client } = await mqttConnect(live(server).brokerUrl, {
      username: SERVER_MQTT_USER,
      password: live(server).secrets.serverPassword,
      clientId: 'nest-server-test-publisher',
    });
    const before = dropped('unknown_device');
    await client!.publishAsync(topicOf('GHOST-1', 'telemetry'), JSON.stringify(envelope('telemetry', nestTelemetry())), { qos: 1 });
    await client!.publishAsync(topicOf('LK-OFF', 'telemetry'), JSON.stringify(envelope('telemetry', nestTelemetry())), { qos: 1 });
    await until(() => dropped('unknown_device') > before && dropped('disabled_device') > 0, 'unknown and disabled drops');
    expect(live(server).link.device('GHOST-1')).toBeUndefined();
    expect(live(server).link.isOnline('LK-OFF')).toBe(false);
    client!.end(true);
  });

  it('disconnects a device that sends more than the link limit; the server keeps working', async () => {
    const d = await device('LK-2');
    const closed = new Promise<void>((resolve) => d.client.once('close', () => resolve()));
    d.client.publish(topicOf('LK-2', 'telemetry'), Buffer.alloc(LINK_MAX_MESSAGE_BYTES + 100, 0x20));
    await closed;
    const again = await device('LK-2');
    await again.publish('telemetry', envelope('telemetry', nestTelemetry(22.7, 114.2)), { qos: 1 });
    await until(() => live(server).link.device('LK-2')?.telemetry?.nest?.lat === 22.7, 'telemetry after reconnect');
  });
});

describe('telemetry when the server is behind', () => {
  it('reads only the newest telemetry of a device that sent several before they were read, and every event; nothing is superseded while the server keeps up', async () => {
    const link = live(server).link;
    const d = await device('LK-BEHIND');
    await d.subscribe(topicOf('LK-BEHIND', 'events_reply'));
    const superseded = () => stats().superseded ?? 0;
    const lat = () => link.device('LK-BEHIND')?.telemetry?.nest?.lat;
    const before = superseded();

    // Keeping up: each message is read before the next one is sent.
    for (let i = 1; i <= 5; i++) {
      await d.publish('telemetry', envelope('telemetry', nestTelemetry(20 + i / 100, 114)));
      await until(() => lat() === 20 + i / 100, `telemetry ${i} read`);
    }
    expect(superseded()).toBe(before);

    // Behind: 40 telemetry messages with 10 events among them, written at once, so the broker routes them
    // in one go, and reading telemetry made slow (5 ms a message): the link reads a few at once, then the
    // rest wait.
    const events: string[] = [];
    const onEvent = (sn: string, m: { tid: string }) => {
      if (sn === 'LK-BEHIND') events.push(m.tid);
    };
    const slow = (sn: string) => {
      const t = performance.now();
      while (sn === 'LK-BEHIND' && performance.now() - t < 5) {
        // A slow telemetry listener, on purpose.
      }
    };
    link.on('event', onEvent);
    link.on('telemetry', slow);
    try {
      const tids: string[] = [];
      const sent: Promise<void>[] = [];
      for (let i = 1; i <= 40; i++) {
        sent.push(d.publish('telemetry', envelope('telemetry', nestTelemetry(21 + i / 100, 114))));
        if (i % 4 === 0) {
          tids.push(`behind-${i}`);
          sent.push(d.publish('events', envelope('alarm', { code: 'low_battery', level: 30 }, `behind-${i}`), { qos: 1 }));
        }
      }
      await Promise.all(sent);
      await until(() => lat() === 21.4, 'the newest telemetry read');
      expect(superseded()).toBeGreaterThan(before);
      // Every event reported and acknowledged: none waited for or was dropped with the telemetry.
      const replied = () => d.received.filter((r) => r.topic === topicOf('LK-BEHIND', 'events_reply')).map((r) => (JSON.parse(r.payload.toString()) as { tid: string }).tid);
      await until(() => replied().length === tids.length, 'every event acknowledged');
      expect(replied().sort()).toEqual([...tids].sort());
      expect(events.sort()).toEqual([...tids].sort());
      expect(stats().dropped.rate_limited ?? 0).toBe(0);
    } finally {
      link.off('event', onEvent);
      link.off('telemetry', slow);
    }
  });
});

describe('presence', () => {
  it(`goes offline after ${MISSED_TELEMETRY_PERIODS} silent periods, by the link's own sweep, with the connection still open`, async () => {
    const d = await device('LK-SILENT');
    const offline: LiveDevice[] = [];
    const onOnline = (sn: string, online: boolean, state: LiveDevice) => {
      if (sn === 'LK-SILENT' && !online) offline.push({ ...state });
    };
    live(server).link.on('online', onOnline);
    try {
      await d.publish('presence', envelope('presence', { online: true, rate_hz: 10 }), { qos: 1, retain: true });
      for (let i = 0; i < 5; i++) await d.publish('telemetry', envelope('telemetry', nestTelemetry()), { qos: 1 });
      await until(() => offline.length > 0, 'LK-SILENT offline on silence');
    } finally {
      live(server).link.off('online', onOnline);
    }
    // Marked offline by a sweep that found it silent for more than 3 periods of 100 ms since it was last heard.
    expect(offline[0]!.since - offline[0]!.heardAt).toBeGreaterThan(MISSED_TELEMETRY_PERIODS * 100);
    // The connection stays open, the device is just silent.
    expect(d.client.connected).toBe(true);
  });

  it(`on an injected clock: offline once silent for more than ${MISSED_TELEMETRY_PERIODS} periods (not exactly that), judged when a probe is back; never while the broker connection is down`, async () => {
    const l = live(server);
    let clock = Date.now();
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    const clientId = 'nest-server-clocked';
    // An instance of its own on the test server's broker, on a clock the test moves, that knows only LK-SWEEP
    // (the other devices of this file are no suspects of its own).
    const devices = { get: (sn: string) => (sn === 'LK-SWEEP' ? l.directory.get(sn) : undefined), miss: () => undefined };
    const link = new LinkService({ url: l.brokerUrl, username: SERVER_MQTT_USER, password: l.secrets.serverPassword, devices, log: quiet, clientId, now: () => clock });
    let connections = 0;
    link.on('connected', () => connections++);
    link.start();
    try {
      await link.ready();
      const d = await device('LK-SWEEP');
      await d.publish('presence', envelope('presence', { online: true, rate_hz: MIN_TELEMETRY_HZ }), { qos: 1 });
      await d.publish('telemetry', envelope('telemetry', nestTelemetry()), { qos: 1 });
      await until(() => link.device('LK-SWEEP')?.telemetry != null, 'LK-SWEEP telemetry on the clocked instance');
      expect(link.device('LK-SWEEP')!.heardAt).toBe(clock);
      const heardAt = clock;
      const limit = (MISSED_TELEMETRY_PERIODS * 1000) / MIN_TELEMETRY_HZ;
      const next = () => new Promise<void>((resolve) => setImmediate(resolve));

      // Silent for exactly the limit: not even a suspect, no probe goes out.
      clock = heardAt + limit;
      link.sweep();
      await next();
      expect(link.stats.probes.sent).toBe(0);
      expect(link.isOnline('LK-SWEEP')).toBe(true);

      // One ms more: a probe goes out, and the device is offline once it is back, dated then.
      clock = heardAt + limit + 1;
      link.sweep();
      await until(() => !link.isOnline('LK-SWEEP'), 'LK-SWEEP offline on the probe');
      expect(link.stats.probes).toEqual({ sent: 1, answered: 1, heldBack: 0 });
      expect(link.device('LK-SWEEP')!.since).toBe(heardAt + limit + 1);

      // Heard again, then the instance loses its broker connection (another client takes its client id).
      await d.publish('telemetry', envelope('telemetry', nestTelemetry()), { qos: 1 });
      await until(() => link.isOnline('LK-SWEEP'), 'LK-SWEEP online again');
      const intruder = (await mqttConnect(l.brokerUrl, { username: SERVER_MQTT_USER, password: l.secrets.serverPassword, clientId })).client!;
      await until(() => !link.connected, 'the clocked instance disconnected');
      // Ten limits of silence while disconnected: unknown, not offline; no probe can go out.
      clock += 10 * limit;
      link.sweep();
      await next();
      expect(link.isOnline('LK-SWEEP')).toBe(true);
      expect(link.stats.probes.sent).toBe(1);
      // Commands that must not wait are refused unsent, not queued to go out late on reconnect.
      expect(await link.command('LK-SWEEP', 'test.land', {}, { tid: 'tid-unreachable', abortOffline: true })).toEqual({ status: 'offline', tid: 'tid-unreachable', attempts: 0 });
      expect(link.publishCommand('LK-SWEEP', 'test.stick', {})).toBe(false);
      intruder.end(true);
      await until(() => connections === 2, 'the clocked instance subscribed again');
      // Its deadline starts afresh with the new session: not a suspect at the session's start.
      link.sweep();
      await next();
      expect(link.stats.probes.sent).toBe(1);
      // Silent for more than the limit after it: offline.
      clock += limit + 1;
      link.sweep();
      await until(() => !link.isOnline('LK-SWEEP'), 'LK-SWEEP offline after the new session');
      expect(link.stats.probes).toEqual({ sent: 2, answered: 2, heldBack: 0 });
    } finally {
      await link.stop();
    }
  });

  it('holds a mass silence (many devices silent at once, connections open) instead of declaring it; one silent device among talking ones is declared; a lasting one after the hold', async () => {
    const l = live(server);
    let clock = Date.now();
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    const sns = Array.from({ length: MASS_SILENCE_MIN + 2 }, (_, i) => `LK-MASS-${i}`);
    // Devices known to this instance only: their messages are handed to it directly (what its broker
    // connection would deliver); the probes go through the test server's broker.
    const devices = { get: (sn: string) => (sns.includes(sn) ? { sn_id: sn, enabled: 1 } : undefined), miss: () => undefined };
    const link = new LinkService({ url: l.brokerUrl, username: SERVER_MQTT_USER, password: l.secrets.serverPassword, devices, log: quiet, clientId: 'nest-server-mass', now: () => clock });
    const offline: string[] = [];
    link.on('online', (sn, online) => {
      if (!online) offline.push(sn);
    });
    const talk = (sn: string) => link.receive(topicOf(sn, 'telemetry'), Buffer.from(JSON.stringify(envelope('telemetry', nestTelemetry()))));
    const limit = (MISSED_TELEMETRY_PERIODS * 1000) / DEFAULT_TELEMETRY_HZ;
    link.start();
    try {
      await link.ready();
      for (const sn of sns) talk(sn);
      expect(sns.every((sn) => link.isOnline(sn))).toBe(true);

      // Every device silent past its deadline: the path failed, not the devices. Held, judged again later.
      clock += limit + 1;
      link.sweep();
      await until(() => link.stats.probes.heldBack === 1, 'the mass silence held on the probe');
      expect(offline).toEqual([]);

      // The others are heard again: the one still silent is alone, and declared.
      const [quietOne, ...talking] = sns;
      for (const sn of talking) talk(sn);
      link.sweep();
      await until(() => offline.length === 1, 'the silent device declared');
      expect(offline).toEqual([quietOne]);

      // All silent again, longer than the hold: declared once the hold is over.
      clock += limit + 1;
      link.sweep();
      await until(() => link.stats.probes.heldBack === 2, 'the second mass silence held');
      expect(offline).toEqual([quietOne]);
      clock += MASS_SILENCE_HOLD_MS;
      link.sweep();
      await until(() => offline.length === sns.length, 'the lasting silence declared after the hold');
      expect(offline.slice(1).sort()).toEqual([...talking].sort());
    } finally {
      await link.stop();
    }
  });

  it('goes offline on the last-will when the connection dies', async () => {
    const d = await device('LK-WILL', true);
    await d.publish('presence', envelope('presence', { online: true, rate_hz: 0.5 }), { qos: 1, retain: true });
    await until(() => live(server).link.isOnline('LK-WILL'), 'LK-WILL online');
    const accepted = () => live(server).link.counters.read('LK-WILL')?.accepted ?? 0;
    const before = accepted();
    // The link counts an accepted presence before it acts on it; a silence sweep counts nothing.
    let acceptedWhenOffline = -1;
    const onOnline = (sn: string, online: boolean) => {
      if (sn === 'LK-WILL' && !online) acceptedWhenOffline = accepted();
    };
    live(server).link.on('online', onOnline);
    try {
      d.drop();
      await until(() => !live(server).link.isOnline('LK-WILL'), 'LK-WILL offline on its last-will');
    } finally {
      live(server).link.off('online', onOnline);
    }
    // Offline because of a presence message (the will the broker published), not because of silence.
    expect(acceptedWhenOffline).toBe(before + 1);
  });

  it.each([
    { how: 'in process', sn: 'LK-FENCE', own: false },
    { how: 'over a telemetry connection of its own', sn: 'LK-FENCE-TCP', own: true },
  ])('stays offline after its last-will although telemetry it sent before the will is read after it (telemetry behind, $how)', async ({ sn, own }) => {
    const l = live(server);
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    // The test server's link reads telemetry in process; an instance of its own over TCP reads it on a second connection.
    const instance = own ? new LinkService({ url: l.brokerUrl, username: SERVER_MQTT_USER, password: l.secrets.serverPassword, devices: l.directory, log: quiet, clientId: 'nest-server-fence' }) : null;
    instance?.start();
    const link: DeviceLink = instance ?? l.link;
    try {
      await instance?.ready();
      const d = await device(sn, true);
      await d.publish('presence', envelope('presence', { online: true, rate_hz: 0.5 }), { qos: 1, retain: true });
      await until(() => link.isOnline(sn), `${sn} online`);
      const { client: publisher } = await mqttConnect(l.brokerUrl, { username: SERVER_MQTT_USER, password: l.secrets.serverPassword, clientId: 'nest-server-test-ahead' });
      const changes: boolean[] = [];
      const onOnline = (s: string, online: boolean) => s === sn && changes.push(online);
      // Reading telemetry is made slow (50 ms a message), and twenty messages of other devices wait ahead of
      // the device's last one: its will, on the other stream, is read before that telemetry.
      let read = 0;
      const slow = () => {
        read++;
        const t = performance.now();
        while (performance.now() - t < 50) {
          // A slow telemetry listener, on purpose.
        }
      };
      const superseded = () => link.stats.superseded ?? 0;
      const before = superseded();
      link.on('online', onOnline);
      link.on('telemetry', slow);
      try {
        await Promise.all(AHEAD.map((s) => publisher!.publishAsync(topicOf(s, 'telemetry'), JSON.stringify(envelope('telemetry', nestTelemetry())), { qos: 1 })));
        await d.publish('telemetry', envelope('telemetry', nestTelemetry()), { qos: 1 });
        d.drop();
        // Every message read, or superseded: the device's telemetry by its will.
        await until(() => read + superseded() - before >= AHEAD.length + 1, 'the telemetry read after the will');
      } finally {
        link.off('telemetry', slow);
        link.off('online', onOnline);
        publisher!.end(true);
      }
      expect(changes).toEqual([false]);
      expect(link.isOnline(sn)).toBe(false);
    } finally {
      await instance?.stop();
    }
  });
});

describe('commands and events', () => {
  it('re-sends a command with the SAME tid until the reply, and matches the reply', async () => {
    const d = await device('LK-CMD');
    await d.subscribe(topicOf('LK-CMD', 'commands'));
    await d.publish('telemetry', envelope('telemetry', nestTelemetry()));
    const seen: { tid: string; method: string }[] = [];
    d.client.on('message', (topic, payload) => {
      if (topic !== topicOf('LK-CMD', 'commands')) return;
      const m = JSON.parse(payload.toString()) as { tid: string; method: string };
      seen.push(m);
      // Lose the first two, answer from the third on (a reply slower than the re-send timer meets a fourth send).
      if (seen.length >= 3) void d.publish('commands_reply', envelope(`${m.method}_reply`, { result: 0, message: 'ok' }, m.tid), { qos: 1 });
    });
    const outcome = await live(server).link.command('LK-CMD', 'test.ping', { n: 1 }, { timeoutMs: 150, resends: 10 });
    expect(outcome).toMatchObject({ status: 'ok', reply: { result: 0, message: 'ok' } });
    expect(outcome.attempts).toBeGreaterThanOrEqual(3);
    // Every send reaches the device (the last may still be on its way when the reply resolved the command).
    await until(() => seen.length === outcome.attempts, 'every send at the device');
    expect(new Set(seen.map((m) => m.tid))).toEqual(new Set([outcome.tid]));
  });

  it('answers a timeout outcome after the re-sends, and a failed outcome for a non-zero result', async () => {
    const d = await device('LK-CMD');
    await d.subscribe(topicOf('LK-CMD', 'commands'));
    const methods: string[] = [];
    d.client.on('message', (topic, payload) => {
      if (topic !== topicOf('LK-CMD', 'commands')) return;
      const m = JSON.parse(payload.toString()) as { tid: string; method: string };
      methods.push(m.method);
      if (m.method === 'test.fail') void d.publish('commands_reply', envelope(`${m.method}_reply`, { result: 4, message: 'failed' }, m.tid), { qos: 1 });
    });
    const timeout = await live(server).link.command('LK-CMD', 'test.lost', {}, { timeoutMs: 100, resends: 2 });
    expect(timeout).toMatchObject({ status: 'timeout', attempts: 3 });
    // The next command reaches the device after every send of the lost one (one connection, in order);
    // its timeout is far above any reply time, so it is sent once.
    expect(await live(server).link.command('LK-CMD', 'test.fail', {}, { timeoutMs: WAIT_LIMIT_MS })).toMatchObject({ status: 'failed', attempts: 1, reply: { result: 4 } });
    expect(methods).toEqual(['test.lost', 'test.lost', 'test.lost', 'test.fail']);
  });

  it('uses the caller\'s tid; abortOffline sends nothing to an offline device and ends the wait when it drops', async () => {
    // Never heard: offline at send, nothing published (attempts 0).
    expect(await live(server).link.command('LK-NEVER', 'test.ping', {}, { tid: 'tid-never-1', abortOffline: true })).toEqual({
      status: 'offline',
      tid: 'tid-never-1',
      attempts: 0,
    });

    const d = await device('LK-ABORT', true);
    await d.subscribe(topicOf('LK-ABORT', 'commands'));
    await d.publish('telemetry', envelope('telemetry', nestTelemetry()));
    await until(() => live(server).link.isOnline('LK-ABORT'), 'LK-ABORT online');
    const seen: string[] = [];
    d.client.on('message', (topic, payload) => {
      if (topic !== topicOf('LK-ABORT', 'commands')) return;
      seen.push((JSON.parse(payload.toString()) as { tid: string }).tid);
      // No reply: the device dies instead (the broker publishes its last-will).
      d.drop();
    });
    // The command timeout is the wait's safety limit: only the device going offline can end it with `offline`.
    const outcome = await live(server).link.command('LK-ABORT', 'test.land', {}, { tid: 'tid-abort-1', abortOffline: true, resends: 0, timeoutMs: WAIT_LIMIT_MS });
    expect(outcome).toEqual({ status: 'offline', tid: 'tid-abort-1', attempts: 1 });
    expect(seen).toEqual(['tid-abort-1']);
  });

  it('acknowledges events on events_reply with the same tid, reporting a repeated tid once', async () => {
    const d = await device('LK-EVT');
    await d.subscribe(topicOf('LK-EVT', 'events_reply'));
    const events: string[] = [];
    live(server).link.on('event', (sn, m) => {
      if (sn === 'LK-EVT') events.push(m.tid);
    });
    const ev = envelope('alarm', { code: 'low_battery', level: 30 }, 'evt-1');
    await d.publish('events', ev, { qos: 1 });
    await d.publish('events', ev, { qos: 1 });
    await until(() => d.received.filter((r) => r.topic === topicOf('LK-EVT', 'events_reply')).length === 2, 'two replies');
    const reply = JSON.parse(d.received.find((r) => r.topic === topicOf('LK-EVT', 'events_reply'))!.payload.toString());
    expect(reply).toMatchObject({ v: 1, tid: 'evt-1', method: 'alarm', data: { result: 0 } });
    expect(events).toEqual(['evt-1']);
  });

  it('acknowledges an event only once its listeners stored it; a failed store is not acknowledged and the re-send is handled afresh', async () => {
    const d = await device('LK-EVT');
    await d.subscribe(topicOf('LK-EVT', 'events_reply'));
    const replies = () => d.received.filter((r) => r.topic === topicOf('LK-EVT', 'events_reply') && r.payload.toString().includes('evt-store'));
    /**
     * Sends another event and waits for its acknowledgement: the link handled it after evt-store, whose failed
     * store is known at once, so an acknowledgement of evt-store sent regardless would have come first.
     */
    let barriers = 0;
    const barrier = async () => {
      const tid = `evt-after-${++barriers}`;
      await d.publish('events', envelope('alarm', { code: 'low_battery', level: 30 }, tid), { qos: 1 });
      await until(() => d.received.some((r) => r.topic === topicOf('LK-EVT', 'events_reply') && r.payload.toString().includes(tid)), `the acknowledgement of ${tid}`);
    };
    let attempt = 0;
    let release!: () => void;
    const listener = (sn: string, m: { tid: string }, settle: (p: Promise<unknown>) => void) => {
      if (sn !== 'LK-EVT' || m.tid !== 'evt-store') return;
      attempt++;
      // The first store fails (database down); the second waits until the test lets it finish.
      settle(attempt === 1 ? Promise.reject(new Error('database down')) : new Promise<void>((resolve) => (release = resolve)));
    };
    live(server).link.on('event', listener);
    try {
      const ev = envelope('alarm', { code: 'low_battery', level: 30 }, 'evt-store');
      await d.publish('events', ev, { qos: 1 });
      await until(() => attempt === 1, 'first delivery');
      await barrier();
      expect(replies()).toEqual([]);
      await d.publish('events', ev, { qos: 1 });
      await until(() => attempt === 2, 'the re-send handled afresh');
      await barrier();
      expect(replies()).toEqual([]);
      release();
      await until(() => replies().length === 1, 'acknowledged once stored');
    } finally {
      live(server).link.off('event', listener);
    }
  });
});
