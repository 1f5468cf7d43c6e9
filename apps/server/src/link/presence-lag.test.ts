// Database: SQLite only: presence timing with the event loop blocked; the database is not in the path.
/**
 * Presence when the server falls behind, through the embedded broker and through Mosquitto: devices in
 * another thread keep publishing while the server's event loop is kept 90 % busy for several offline
 * periods (a CPU-bound neighbour, a loaded machine), and while it is blocked outright (a long CPU or GC
 * pause). Devices that kept talking stay online and raise no alarm; a device that really went silent is
 * declared offline (with its alarm) once what was queued has been read.
 *
 * The server reads telemetry apart from the acknowledged traffic (events, replies, state, presence): over a
 * connection of its own with Mosquitto, from the broker's routing in process, through a latest-wins inbox.
 * Either may fall behind alone: telemetry backed up while a device's events keep being acknowledged, and
 * events backed up while telemetry flows. Neither takes a device talking on the other offline.
 *
 * With Mosquitto, the generated configuration (link/mosquitto.ts) keeps what a slow server has not read
 * yet instead of dropping it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MISSED_TELEMETRY_PERIODS } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../../test/helpers.js';
import { hasMosquitto, startMosquitto } from '../../test/infra.js';
import { envelope, live, registerDevice, until } from '../../test/live.js';
import { reservedPort } from '../../test/process.js';
import { droneTelemetry as drone } from '@nest/contracts/test-fixtures';

const RATE_HZ = 5;
/** How long silence takes a device offline at RATE_HZ. */
const LIMIT_MS = (MISSED_TELEMETRY_PERIODS * 1000) / RATE_HZ;
/** The deliberate stall of the server's event loop: five times the offline limit. */
const PAUSE_MS = 5 * LIMIT_MS;
/** How long the event loop is kept 90 % busy: three offline limits (nine telemetry periods). */
const BUSY_MS = 3 * LIMIT_MS;
/** Reading one telemetry message, when telemetry is made to back up: four devices take more than an offline limit. */
const TELEMETRY_COST_MS = LIMIT_MS / 3;
/** Reading one event, when the acknowledged stream is made to back up: past an offline limit. */
const EVENT_COST_MS = 1.5 * LIMIT_MS;

/**
 * Devices in a worker thread: their own event loop keeps publishing at RATE_HZ (telemetry: a drone in the
 * air; one device events, one state) while the main thread, where the server (and the embedded broker)
 * run, is busy or blocked. A message `{ silence: sn }` stops one device, its connection left open: only the
 * silence check can tell it is gone. Posts 'ready' once every device is connected and has announced its
 * presence, then `{ ack: tid }` for every acknowledgement of an event.
 */
const DEVICES = `
const { parentPort, workerData } = require('node:worker_threads');
const mqtt = require(workerData.mqttPath);
const silent = new Set();
const clients = [];
let ready = 0;
for (const d of workerData.devices) {
  const client = mqtt.connect(workerData.url, { clientId: d.sn, username: d.sn, password: d.password, protocolVersion: 4, reconnectPeriod: 0 });
  clients.push(client);
  client.on('connect', () => {
    const presence = { ...workerData.presence, ts: Date.now(), tid: d.sn + '-presence' };
    const announce = () =>
      client.publish('nest/v1/' + d.sn + '/presence', JSON.stringify(presence), { qos: 1 }, () => {
        if (++ready === workerData.devices.length) parentPort.postMessage('ready');
      });
    if (d.channel === 'events') client.subscribe('nest/v1/' + d.sn + '/events_reply', { qos: 1 }, announce);
    else announce();
  });
  // Acknowledgements of this device's events, reported to the test as they come.
  client.on('message', (topic, payload) => parentPort.postMessage({ ack: JSON.parse(payload.toString()).tid }));
  let n = 0;
  setInterval(() => {
    if (!client.connected || silent.has(d.sn)) return;
    // Each device sends on one channel only: telemetry (QoS 0), events or state (QoS 1).
    const m = { ...workerData.messages[d.channel], ts: Date.now(), tid: d.sn + '-' + ++n };
    client.publish('nest/v1/' + d.sn + '/' + d.channel, JSON.stringify(m), { qos: d.channel === 'telemetry' ? 0 : 1 });
  }, 1000 / workerData.rateHz);
}
parentPort.on('message', (m) => {
  if (m.silence) silent.add(m.silence);
  if (m === 'stop') for (const c of clients) c.end(true);
});
`;

/**
 * Keeps this thread's event loop about 90 % busy for `ms`: 90 ms of computation, then 10 ms in which the
 * loop runs (timers, sockets), again and again.
 */
async function busy(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t = Date.now();
    while (Date.now() - t < 90) {
      // Busy on purpose: the loop runs nothing meanwhile.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Rig {
  server: TestServer;
  brokerUrl: string;
  close(): Promise<void>;
}

/** Keeps the thread busy for `ms` (a listener that costs that much). */
function spin(ms: number): void {
  const t = performance.now();
  while (performance.now() - t < ms) {
    // Busy on purpose: a slow handler.
  }
}

/** The same scenario over a server and its broker. `talking`: devices that keep publishing throughout. */
function presenceUnderLoad(name: string, prefix: string, start: (sns: string[]) => Promise<Rig>): void {
  describe(name, () => {
    const talking = [1, 2, 3].map((i) => `${prefix}-${i}`);
    const stopping = `${prefix}-STOP`;
    const all = [...talking, stopping];
    /** A device that sends events only: heard on the server's other stream than telemetry. */
    const eventer = `${prefix}-EVT`;
    /** Another device that sends events only, whose events are made slow to read. */
    const slowEventer = `${prefix}-EVT2`;
    /** The tids of the eventer's events acknowledged so far, in order. */
    const acks: string[] = [];
    let rig: Rig;
    let worker: Worker;

    beforeAll(async () => {
      rig = await start([...all, eventer, slowEventer]);
      const { server } = rig;
      await live(server).link.ready();
      worker = new Worker(DEVICES, {
        eval: true,
        workerData: {
          mqttPath: createRequire(import.meta.url).resolve('mqtt'),
          url: rig.brokerUrl,
          devices: [...all.map((sn) => ({ sn, channel: 'telemetry' })), { sn: eventer, channel: 'events' }, { sn: slowEventer, channel: 'events' }].map((d) => ({
            ...d,
            password: live(server).devicePassword(d.sn),
          })),
          presence: envelope('presence', { online: true, rate_hz: RATE_HZ }),
          messages: {
            telemetry: envelope('telemetry', { drone: drone({ sn: `${prefix}-UAV` }) }),
            // An event no feature acts on: only the link's acknowledgement matters here.
            events: envelope('lag.tick', { code: 'lag.tick' }),
          },
          rateHz: RATE_HZ,
        },
      });
      await new Promise<void>((resolve, reject) => {
        worker.on('message', (m: unknown) => {
          if (m === 'ready') resolve();
          else if (typeof m === 'object' && m !== null && 'ack' in m) acks.push(String(m.ack));
        });
        worker.once('error', reject);
      });
      await until(() => all.every((sn) => live(server).link.device(sn)?.telemetry?.drone?.flight_state === 2), 'every device online and flying');
      await until(() => acks.length > 0 && live(server).link.isOnline(eventer) && live(server).link.isOnline(slowEventer), 'the event devices online, their events acknowledged');
    });
    afterAll(async () => {
      worker?.postMessage('stop');
      await worker?.terminate();
      await rig?.close();
    });

    const offlineAlarms = (sn: string) =>
      rig.server.db.selectFrom('alarms').select(['id', 'cleared_at']).where('sn_id', '=', sn).where('kind', '=', 'offline_in_flight').execute();

    /** Records the devices that go offline while `run` runs. */
    async function offlineDuring(run: () => Promise<void>): Promise<string[]> {
      const link = live(rig.server).link;
      const wentOffline: string[] = [];
      const onOnline = (sn: string, online: boolean) => {
        if (!online) wentOffline.push(sn);
      };
      link.on('online', onOnline);
      try {
        await run();
      } finally {
        link.off('online', onOnline);
      }
      return wentOffline;
    }

    it(`keeps every talking device online while the event loop is 90 % busy for ${BUSY_MS} ms`, async () => {
      const link = live(rig.server).link;
      const wentOffline = await offlineDuring(async () => {
        await busy(BUSY_MS);
        const after = Date.now();
        // A barrier: every device heard after the load, so any judgement of the load's time has been made.
        await until(() => all.every((sn) => (link.device(sn)?.heardAt ?? 0) > after), 'every device heard after the load');
      });
      expect(wentOffline).toEqual([]);
      await rig.server.app.nest.services.alarms.idle();
      for (const sn of all) expect(await offlineAlarms(sn)).toEqual([]);
    });

    /** Every device that keeps talking, on any channel. */
    const talkers = () => [...talking, stopping, eventer, slowEventer];

    it('keeps acknowledging events, and takes nobody offline, while telemetry is backed up (it costs more to read than the loop has)', async () => {
      const link = live(rig.server).link;
      const superseded = () => link.stats.superseded ?? 0;
      const before = superseded();
      const acked = acks.length;
      // Each telemetry message takes TELEMETRY_COST_MS to read: four devices at RATE_HZ would need several
      // times the loop's time. Each device is read about once per 4 x TELEMETRY_COST_MS, past its offline
      // limit: it is a suspect, and only a probe judged once back through the telemetry inbox keeps it online.
      const slow = () => spin(TELEMETRY_COST_MS);
      const wentOffline = await offlineDuring(async () => {
        link.on('telemetry', slow);
        try {
          await until(() => superseded() - before >= 12 && acks.length - acked >= 3, 'telemetry superseded unread while events keep being acknowledged');
        } finally {
          link.off('telemetry', slow);
        }
        const after = Date.now();
        await until(() => talkers().every((sn) => (link.device(sn)?.heardAt ?? 0) > after), 'every device heard after the backlog');
      });
      expect(wentOffline).toEqual([]);
    });

    it('takes nobody offline while the acknowledged stream is backed up (events cost more to read than the loop has) and telemetry flows', async () => {
      const link = live(rig.server).link;
      // Each event of the slow eventer takes EVENT_COST_MS to read, longer than an offline limit: the other
      // eventer's events wait behind them on the same stream, while telemetry keeps being read.
      let slowEvents = 0;
      const slow = (sn: string) => {
        if (sn !== slowEventer) return;
        slowEvents++;
        spin(EVENT_COST_MS);
      };
      const wentOffline = await offlineDuring(async () => {
        link.on('event', slow);
        try {
          await until(() => slowEvents >= 3, 'three slow events read');
        } finally {
          link.off('event', slow);
        }
        const after = Date.now();
        await until(() => talkers().every((sn) => (link.device(sn)?.heardAt ?? 0) > after), 'every device heard after the backlog');
      });
      expect(wentOffline).toEqual([]);
      expect(link.isOnline(eventer)).toBe(true);
    });

    it(`keeps talking devices online through a ${PAUSE_MS} ms stall, and takes offline the one that went silent`, async () => {
      const link = live(rig.server).link;
      const wentOffline = await offlineDuring(async () => {
        // The silence starts with the stall: the worker stops that device within milliseconds, while the loop spins.
        worker.postMessage({ silence: stopping });
        const start = Date.now();
        while (Date.now() - start < PAUSE_MS) {
          // Busy-wait on purpose: nothing on the main thread runs, as in a long GC pause.
        }
        await until(() => !link.isOnline(stopping), `${stopping} offline after the stall`);
        const judgedAt = Date.now();
        // A barrier for the others: each has been heard again after the judgement that took the silent one offline.
        await until(() => talking.every((sn) => (link.device(sn)?.heardAt ?? 0) > judgedAt), 'the talking devices heard after the judgement');
      });
      expect(wentOffline).toEqual([stopping]);
      for (const sn of talking) expect(link.isOnline(sn)).toBe(true);

      // The alarm of the device that really went silent in the air, and none for the others.
      await until(async () => (await offlineAlarms(stopping)).length > 0, `the offline-in-flight alarm of ${stopping}`);
      await rig.server.app.nest.services.alarms.idle();
      for (const sn of talking) expect(await offlineAlarms(sn)).toEqual([]);
    });
  });
}

presenceUnderLoad('presence under load, embedded broker', 'LAG', async (sns) => {
  const server = await startTestServer();
  for (const sn of sns) await registerDevice(server, { sn_id: sn, type: 'alone', airport_name: '', uav_name: sn });
  return { server, brokerUrl: live(server).brokerUrl, close: () => server.close() };
});

describe.runIf(hasMosquitto())('through Mosquitto', () => {
  presenceUnderLoad('presence under load, Mosquitto', 'MLAG', async (sns) => {
    const dataDir = await tempDir('nest-lag-');
    const port = await reservedPort();
    const url = `mqtt://127.0.0.1:${port}`;
    const server = await startTestServer({ dataDir, config: { mqttUrl: url } });
    for (const sn of sns) await registerDevice(server, { sn_id: sn, type: 'alone', airport_name: '', uav_name: sn });
    const broker = await startMosquitto({ dataDir, databaseUrl: server.databaseUrl, port }).catch(async (err: unknown) => {
      await server.close();
      throw err;
    });
    return {
      server,
      brokerUrl: url,
      close: async () => {
        await server.close();
        await broker.close();
      },
    };
  });
});
