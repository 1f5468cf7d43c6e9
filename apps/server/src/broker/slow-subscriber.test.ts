import net from 'node:net';
import { DeviceProtocol, RecordState, SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLoginCheck, devicePassword, type DeviceAccount } from '../link/credentials.js';
import { mqttConnect, until } from '../../test/live.js';
import { BROKER_CONCURRENCY, SLOW_SUBSCRIBER_BYTES, startEmbeddedBroker, type EmbeddedBroker, type SlowClientEvent } from './index.js';

// Database: SQLite only — the broker stores nothing; its subject is delivery to a subscriber that stopped reading.

const KEY = 'cd'.repeat(32);
const SERVER_PASSWORD = 'server-secret-password';
const account: DeviceAccount = { protocol: DeviceProtocol.NEST, secret_gen: 0, uav_sn: '', enabled: 1, state: RecordState.NORMAL };

let broker: EmbeddedBroker;
let url: string;
const slow: SlowClientEvent[] = [];

beforeAll(async () => {
  broker = await startEmbeddedBroker({
    host: '127.0.0.1',
    port: 0,
    auth: { serverPassword: SERVER_PASSWORD, checkDevice: deviceLoginCheck(KEY, async (sn) => (sn === 'SN-FAST' ? account : undefined)) },
    onSlowClient: (who) => slow.push(who),
  });
  url = `mqtt://127.0.0.1:${broker.port}`;
});
afterAll(async () => {
  await broker?.close();
});

/**
 * A subscriber of every device's telemetry that logs in, subscribes and then never reads its socket again
 * (a second server instance whose event loop stands still, a consumer on a congested link). Raw packets, so
 * that nothing reads on its behalf.
 */
async function stuckSubscriber(): Promise<{ socket: net.Socket; resume: () => void; received: () => number[] }> {
  const socket = net.connect(broker.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const acks: string[] = [];
  const received: number[] = [];
  parser.on('packet', (p) => {
    acks.push(p.cmd);
    if (p.cmd === 'publish') received.push(Buffer.from(p.payload).readUInt32BE(0));
  });
  socket.on('data', (chunk) => parser.parse(chunk));
  socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId: 'nest-server-stuck', keepalive: 0, username: SERVER_MQTT_USER, password: Buffer.from(SERVER_PASSWORD) }));
  socket.write(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: topicOf('+', 'telemetry'), qos: 0 }] }));
  await until(() => acks.includes('suback'), 'the stuck subscriber subscribed');
  // Paused: nothing more is read from the socket until resume(); what arrives waits in the kernel's buffers.
  socket.pause();
  return { socket, resume: () => socket.resume(), received: () => received };
}

describe('a subscriber that stops reading', () => {
  it('loses its QoS-0 messages beyond a bound, while every other subscriber gets every message and the broker stays up; once it reads again it is told caught up and gets messages again', async () => {
    const stuck = await stuckSubscriber();
    const routed: number[] = [];
    const end = broker.subscribeInProcess(topicOf('+', 'telemetry'), (_topic, payload) => routed.push(payload.readUInt32BE(0)));
    const res = await mqttConnect(url, { username: 'SN-FAST', password: devicePassword(KEY, 'SN-FAST'), clientId: 'SN-FAST' });
    if (!res.client) throw res.error;
    const device = res.client;
    // More messages than the broker delivers at once, and more bytes than the stuck socket's buffers take.
    const count = BROKER_CONCURRENCY + 5_000;
    const body = Buffer.alloc(1_000, 0x20);
    const topic = topicOf('SN-FAST', 'telemetry');
    const publish = (i: number) => {
      const payload = Buffer.from(body);
      payload.writeUInt32BE(i, 0);
      device.publish(topic, payload, { qos: 0 });
    };
    expect(count * body.length).toBeGreaterThan(2 * SLOW_SUBSCRIBER_BYTES);
    for (let i = 0; i < count; i++) {
      publish(i);
      // The device's own socket drains now and then, as a device's does.
      if (i % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
    }
    await until(() => routed.length === count, `all ${count} messages routed in process (got ${routed.length})`, 60_000);
    expect(routed).toEqual(Array.from({ length: count }, (_, i) => i));
    const dropped = broker.slowDrops();
    expect(dropped).toBeGreaterThan(0);
    // Told once, with who it is; the device, which reads, never.
    expect(slow).toEqual([{ clientId: 'nest-server-stuck', user: 'server', caughtUp: false, dropped: 0 }]);

    // It reads again: it gets what was written to it before the bound, in order, then the messages sent
    // after it caught up; it is told caught up once, with what it lost.
    stuck.resume();
    const kept = count - dropped;
    await until(() => stuck.received().length === kept, `the ${kept} messages kept for the slow subscriber (got ${stuck.received().length})`, 60_000);
    const got = stuck.received();
    expect(got.every((n, i) => i === 0 || n > got[i - 1]!)).toBe(true);
    let next = count;
    // The first messages after it resumed can still meet the bound's lower half: publish until one arrives.
    while (stuck.received().length === kept) {
      publish(next++);
      await until(() => routed.length === next, 'the device still routed');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(slow).toEqual([
      { clientId: 'nest-server-stuck', user: 'server', caughtUp: false, dropped: 0 },
      { clientId: 'nest-server-stuck', user: 'server', caughtUp: true, dropped: broker.slowDrops() },
    ]);
    publish(next++);
    await until(() => stuck.received().at(-1) === next - 1, 'a message after it caught up');

    // Its connection goes: the broker goes on.
    stuck.socket.destroy();
    publish(next++);
    await until(() => routed.length === next, 'a message after the slow subscriber left');
    device.end(true);
    end();
  }, 120_000);
});
