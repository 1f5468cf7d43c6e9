// Database: SQLite only: the embedded broker in a thread of its own, with the device link over loopback.
import { SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/helpers.js';
import { RawDevices, envelope, live, mqttConnect, nestTelemetry, registerDevice, until } from '../../test/live.js';
import { PortInUseError } from './index.js';
import { startBrokerThread } from './thread.js';

let server: TestServer;
const devices = new RawDevices(() => server);

beforeAll(async () => {
  server = await startTestServer({ config: { mqttBrokerThread: true } });
  await live(server).link.ready();
  for (const sn of ['BT-1', 'BT-CUT']) await registerDevice(server, { sn_id: sn });
  await registerDevice(server, { sn_id: 'BT-OFF', enabled: false });
});
afterAll(async () => {
  await devices.endAll();
  await server?.close();
});

const device = (sn: string, withWill = false) => devices.connect(sn, { withWill });

describe('embedded broker in a thread of its own (MQTT_BROKER_THREAD)', () => {
  it('serves the devices, and the link reads their messages over loopback', async () => {
    const l = live(server);
    expect(l.brokerUrl).toBe(`mqtt://127.0.0.1:${l.broker!.port}`);
    const d = await device('BT-1', true);
    await d.publish('presence', envelope('presence', { online: true, rate_hz: 1 }), { qos: 1, retain: true });
    await d.publish('telemetry', envelope('telemetry', nestTelemetry(22.61, 114.11)));
    await until(() => l.link.device('BT-1')?.telemetry?.nest?.lat === 22.61, 'BT-1 telemetry through the thread');
    expect(l.link.isOnline('BT-1')).toBe(true);
    // The last-will, published by the broker's thread when the connection dies, takes it offline.
    d.drop();
    await until(() => !l.link.isOnline('BT-1'), 'BT-1 offline by its last-will');
  });

  it('decides device logins on the main thread: a wrong password, an unknown or disabled device is refused', async () => {
    const url = live(server).brokerUrl;
    const wrong = await mqttConnect(url, { clientId: 'BT-1', username: 'BT-1', password: 'not-its-password', reconnectPeriod: 0 });
    expect(wrong.error?.code).toBe(4);
    const unknown = await mqttConnect(url, { clientId: 'BT-NONE', username: 'BT-NONE', password: live(server).devicePassword('BT-NONE'), reconnectPeriod: 0 });
    expect(unknown.error?.code).toBe(4);
    const disabled = await mqttConnect(url, { clientId: 'BT-OFF', username: 'BT-OFF', password: live(server).devicePassword('BT-OFF'), reconnectPeriod: 0 });
    expect(disabled.error?.code).toBe(4);
    // The server's own user needs the server's password.
    const server_ = await mqttConnect(url, { clientId: 'x', username: SERVER_MQTT_USER, password: 'guess', reconnectPeriod: 0 });
    expect(server_.error?.code).toBe(4);
  });

  it('enforces the device rules in the thread: a device publishing as another is disconnected, nothing passes', async () => {
    const d = await device('BT-CUT');
    const before = live(server).link.device('BT-1')?.telemetry?.nest?.lat;
    const closed = new Promise<void>((resolve) => d.client.once('close', () => resolve()));
    d.client.publish(topicOf('BT-1', 'telemetry'), JSON.stringify(envelope('telemetry', nestTelemetry(1, 1))), { qos: 0 });
    await closed;
    // Its own telemetry, sent on a new connection after the refusal, arrives: the refused one never did.
    const again = await device('BT-CUT');
    await again.publish('telemetry', envelope('telemetry', nestTelemetry(22.7, 114.2)), { qos: 1 });
    await until(() => live(server).link.device('BT-CUT')?.telemetry?.nest?.lat === 22.7, 'BT-CUT telemetry');
    expect(live(server).link.device('BT-1')?.telemetry?.nest?.lat).toBe(before);
  });

  it('cuts a device off at the broker (disconnect), as for a deleted or disabled device', async () => {
    const d = await device('BT-CUT');
    d.client.options.reconnectPeriod = 0;
    const closed = new Promise<void>((resolve) => d.client.once('close', () => resolve()));
    await live(server).broker!.disconnect('BT-CUT');
    await closed;
    expect(d.client.connected).toBe(false);
  });

  it('starts a thread that stopped again on the same port, and clients connect again', async () => {
    const threads: Worker[] = [];
    const faults: string[] = [];
    const broker = await startBrokerThread({ host: '127.0.0.1', port: 0, restartMs: 10, onThread: (w) => threads.push(w), onFault: (err) => faults.push(err.message) });
    const url = `mqtt://127.0.0.1:${broker.port}`;
    const first = await mqttConnect(url, { username: 'x', password: 'y', reconnectPeriod: 0 });
    expect(first.client).not.toBeNull();
    first.client!.end(true);
    await threads[0]!.terminate();
    await until(() => threads.length === 2, 'the thread started again');
    await until(async () => {
      const again = await mqttConnect(url, { username: 'x', password: 'y', reconnectPeriod: 0, connectTimeout: 1000 });
      again.client?.end(true);
      return again.client !== null;
    }, 'a client connected to the new thread on the same port');
    expect(faults[0]).toMatch(/the broker thread stopped/);
    await broker.close();
    expect(threads.length).toBe(2);
  });

  it('reports a port in use with the variable to change, and closes', async () => {
    const port = live(server).broker!.port;
    const err = await startBrokerThread({ host: '127.0.0.1', port }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortInUseError);
    expect((err as Error).message).toBe(`Port ${port} on 127.0.0.1 is already in use; set MQTT_PORT to another port`);
    const other = await startBrokerThread({ host: '127.0.0.1', port: 0 });
    expect(other.port).toBeGreaterThan(0);
    expect(other.slowDrops()).toBe(0);
    await other.close();
    await other.close();
    const refused = await mqttConnect(`mqtt://127.0.0.1:${other.port}`, { username: 'x', password: 'y', reconnectPeriod: 0, connectTimeout: 2000 });
    expect(refused.client).toBeNull();
  });
});
