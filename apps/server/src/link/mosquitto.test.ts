/**
 * The device link through a real Mosquitto, configured with exactly the files `cli.ts mosquitto-files`
 * writes (docs/device-protocol.md): the broker enforces authentication and the per-device ACL.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LINK_MAX_MESSAGE_BYTES, topicOf } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, tempDir, type TestServer } from '../../test/helpers.js';
import { hasMosquitto, startMosquitto, type MosquittoBroker } from '../../test/infra.js';
import { RawDevice, envelope, live, mqttConnect, nestTelemetry, registerDevice, sleep, startSim, until } from '../../test/live.js';
import { freePort } from '../../test/process.js';
import type { SimFleet } from './simulator.js';
import { mosquittoAcl } from './mosquitto.js';

describe.runIf(hasMosquitto())('device link through Mosquitto', () => {
  let server: TestServer;
  let broker: MosquittoBroker;
  let url: string;
  let confDir: string;
  let fleet: SimFleet;
  const raws: RawDevice[] = [];

  beforeAll(async () => {
    const dataDir = await tempDir('nest-mosq-');
    const port = await freePort();
    url = `mqtt://127.0.0.1:${port}`;
    server = await startTestServer({ dataDir, config: { mqttUrl: url } });
    for (const sn of ['MQ-1', 'MQ-2', 'MQ-RAW']) await registerDevice(server, { sn_id: sn });
    await registerDevice(server, { sn_id: 'MQ-DISABLED', enabled: false });
    broker = await startMosquitto({ dataDir, databaseUrl: server.databaseUrl, port });
    confDir = broker.confDir;
    await Promise.race([
      live(server).link.ready(),
      sleep(10_000).then(() => {
        throw new Error(`server never connected to mosquitto: ${broker.log()}`);
      }),
    ]);
    fleet = await startSim(server, [{ sn: 'MQ-1' }, { sn: 'MQ-2' }], { rateHz: 10, brokerUrl: url });
  });

  afterAll(async () => {
    for (const r of raws) await r.end().catch(() => undefined);
    await fleet?.stop();
    await server?.close();
    await broker?.close();
  });

  const raw = async (sn: string) => {
    const d = await RawDevice.connect(server, sn, { url });
    raws.push(d);
    return d;
  };

  it('uses the generated ACL: the server user first, then one pattern per device channel', async () => {
    const acl = await readFile(path.join(confDir, 'nest.acl'), 'utf8');
    expect(acl).toBe(mosquittoAcl());
    expect(acl).toContain('pattern write nest/v1/%u/telemetry');
    expect(acl).toContain('pattern read nest/v1/%u/commands');
    const conf = await readFile(path.join(confDir, 'mosquitto.conf'), 'utf8');
    expect(conf).toContain('allow_anonymous false');
  });

  it('brings simulated devices online through the broker; telemetry reaches the link', async () => {
    await until(() => live(server).link.isOnline('MQ-1') && live(server).link.isOnline('MQ-2'), 5000, 'online via mosquitto');
    await until(() => live(server).link.device('MQ-1')?.telemetry !== null, 2000, 'telemetry');
    expect(live(server).link.device('MQ-1')?.rateHz).toBe(10);
  });

  it('authenticates: wrong password, unknown, disabled and anonymous clients are refused', async () => {
    const wrong = await mqttConnect(url, { username: 'MQ-1', password: live(server).devicePassword('MQ-2'), clientId: 'MQ-1-x' });
    expect(wrong.error?.code).toBe(5);
    const unknown = await mqttConnect(url, { username: 'MQ-GHOST', password: live(server).devicePassword('MQ-GHOST'), clientId: 'g' });
    expect(unknown.client).toBeNull();
    const disabled = await mqttConnect(url, { username: 'MQ-DISABLED', password: live(server).devicePassword('MQ-DISABLED'), clientId: 'd' });
    expect(disabled.client).toBeNull();
    const anonymous = await mqttConnect(url, { clientId: 'anon' });
    expect(anonymous.client).toBeNull();
  });

  it("does not let a device publish on another device's topics", async () => {
    const d = await raw('MQ-RAW');
    await d.publish('telemetry', envelope('telemetry', nestTelemetry(10.5, 10.5)), { qos: 1, sn: 'MQ-2' });
    await d.publish('presence', envelope('presence', { online: false }), { qos: 1, sn: 'MQ-2', retain: true });
    await d.publish('telemetry', envelope('telemetry', nestTelemetry(11.5, 11.5)), { qos: 1 });
    await until(() => live(server).link.device('MQ-RAW')?.telemetry?.nest?.lat === 11.5, 3000, 'own telemetry');
    await sleep(300);
    expect(live(server).link.device('MQ-2')?.telemetry?.nest?.lat).not.toBe(10.5);
    expect(live(server).link.isOnline('MQ-2')).toBe(true);
  });

  it("does not let a device receive another device's commands", async () => {
    const d = await raw('MQ-RAW');
    await d.subscribe(topicOf('MQ-1', 'commands')).catch(() => [128]);
    await d.subscribe('nest/v1/#').catch(() => [128]);
    const outcome = await live(server).link.command('MQ-1', 'video.start', {}, { timeoutMs: 2000 });
    // The simulator answered (no video in this test: "video unavailable").
    expect(outcome).toMatchObject({ status: 'failed', attempts: 1, reply: { result: 2 } });
    await sleep(200);
    expect(d.received.filter((r) => r.topic.includes('MQ-1'))).toEqual([]);
  });

  it('drops messages over the link limit that the broker let through, and disconnects above its packet limit', async () => {
    const d = await raw('MQ-RAW');
    const before = live(server).link.stats.dropped.too_large ?? 0;
    await d.publish('telemetry', Buffer.alloc(LINK_MAX_MESSAGE_BYTES + 200, 0x20), { qos: 1 });
    await until(() => (live(server).link.stats.dropped.too_large ?? 0) > before, 3000, 'too_large drop');
    const closed = new Promise<void>((resolve) => d.client.once('close', () => resolve()));
    d.client.publish(topicOf('MQ-RAW', 'telemetry'), Buffer.alloc(LINK_MAX_MESSAGE_BYTES + 4096, 0x20));
    await closed;
    expect(live(server).link.isOnline('MQ-1')).toBe(true);
  });

  it('marks a device offline on its last-will through Mosquitto', async () => {
    const t0 = Date.now();
    fleet.inject('MQ-2', 'offline');
    await until(() => !live(server).link.isOnline('MQ-2'), 1500, 'offline via last-will');
    expect(Date.now() - t0).toBeLessThan(1500);
  });
});
