// Database: SQLite only: presence timing with the event loop blocked; the database is not in the path.
/**
 * Presence when the server falls behind: its event loop blocked (a busy-wait standing in for a CPU or GC
 * pause) while devices in another thread keep publishing. Devices that kept talking stay online and raise
 * no alarm; a device that really went silent during the pause is declared offline (with its alarm) once
 * what was queued has been read.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MISSED_TELEMETRY_PERIODS } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { envelope, live, registerDevice, until } from '../../test/live.js';
import { drone } from '../alarms/test-fixtures.js';

const RATE_HZ = 5;
/** How long silence takes a device offline at RATE_HZ. */
const LIMIT_MS = (MISSED_TELEMETRY_PERIODS * 1000) / RATE_HZ;
/** The deliberate stall of the server's event loop: five times the offline limit. */
const PAUSE_MS = 5 * LIMIT_MS;
const TALKING = ['LAG-1', 'LAG-2', 'LAG-3'];
const STOPPING = 'LAG-STOP';
const ALL = [...TALKING, STOPPING];

/**
 * Devices in a worker thread: their own event loop keeps publishing telemetry (a drone in the air) at
 * RATE_HZ while the main thread, where the server and its embedded broker run, is blocked. A message
 * `{ silence: sn }` stops one device's telemetry, its connection left open: only the silence check can
 * tell it is gone. Posts 'ready' once every device is connected and has announced its presence.
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
    client.publish('nest/v1/' + d.sn + '/presence', JSON.stringify(presence), { qos: 1 }, () => {
      if (++ready === workerData.devices.length) parentPort.postMessage('ready');
    });
  });
  let n = 0;
  setInterval(() => {
    if (!client.connected || silent.has(d.sn)) return;
    const m = { ...workerData.telemetry, ts: Date.now(), tid: d.sn + '-' + ++n };
    client.publish('nest/v1/' + d.sn + '/telemetry', JSON.stringify(m), { qos: 0 });
  }, 1000 / workerData.rateHz);
}
parentPort.on('message', (m) => {
  if (m.silence) silent.add(m.silence);
  if (m === 'stop') for (const c of clients) c.end(true);
});
`;

let server: TestServer;
let worker: Worker;

beforeAll(async () => {
  server = await startTestServer();
  await live(server).link.ready();
  for (const sn of ALL) await registerDevice(server, { sn_id: sn, type: 'alone', airport_name: '', uav_name: sn });
  worker = new Worker(DEVICES, {
    eval: true,
    workerData: {
      mqttPath: createRequire(import.meta.url).resolve('mqtt'),
      url: live(server).brokerUrl,
      devices: ALL.map((sn) => ({ sn, password: live(server).devicePassword(sn) })),
      presence: envelope('presence', { online: true, rate_hz: RATE_HZ }),
      telemetry: envelope('telemetry', { drone: drone({ sn: 'LAG-UAV' }) }),
      rateHz: RATE_HZ,
    },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  await until(() => ALL.every((sn) => live(server).link.device(sn)?.telemetry?.drone?.flight_state === 2), 'every device online and flying');
});
afterAll(async () => {
  worker?.postMessage('stop');
  await worker?.terminate();
  await server?.close();
});

const offlineAlarms = (sn: string) =>
  server.db.selectFrom('alarms').select(['id', 'cleared_at']).where('sn_id', '=', sn).where('kind', '=', 'offline_in_flight').execute();

describe('presence while the server is stalled', () => {
  it(`keeps talking devices online through a ${PAUSE_MS} ms stall, and takes offline the one that went silent`, async () => {
    const link = live(server).link;
    const wentOffline: string[] = [];
    const onOnline = (sn: string, online: boolean) => {
      if (!online) wentOffline.push(sn);
    };
    link.on('online', onOnline);
    try {
      // The silence starts with the stall: the worker stops that device within milliseconds, while the loop spins.
      worker.postMessage({ silence: STOPPING });
      const start = Date.now();
      while (Date.now() - start < PAUSE_MS) {
        // Busy-wait on purpose: nothing on the main thread runs, as in a long GC pause.
      }
      await until(() => !link.isOnline(STOPPING), `${STOPPING} offline after the stall`);
      const judgedAt = Date.now();
      // A barrier for the others: each has been heard again after the judgement that took STOPPING offline.
      await until(() => TALKING.every((sn) => (link.device(sn)?.heardAt ?? 0) > judgedAt), 'the talking devices heard after the judgement');
    } finally {
      link.off('online', onOnline);
    }
    expect(wentOffline).toEqual([STOPPING]);
    for (const sn of TALKING) expect(link.isOnline(sn)).toBe(true);

    // The alarm of the device that really went silent in the air, and none for the others.
    await until(async () => (await offlineAlarms(STOPPING)).length > 0, `the offline-in-flight alarm of ${STOPPING}`);
    await server.app.nest.services.alarms.idle();
    for (const sn of TALKING) expect(await offlineAlarms(sn)).toEqual([]);
  });
});
