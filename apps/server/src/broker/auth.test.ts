import net from 'node:net';
import { LINK_MAX_MESSAGE_BYTES, SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePassword } from '../link/credentials.js';
import { WAIT_LIMIT_MS, mqttConnect, until } from '../../test/live.js';
import { MAX_PACKET_BYTES, startEmbeddedBroker, type EmbeddedBroker } from './index.js';

const KEY = 'ab'.repeat(32);
const SERVER_PASSWORD = 'server-secret-password';
const enabled = new Set(['SN-A', 'SN-B']);
const disabled = new Set(['SN-OFF']);

let broker: EmbeddedBroker;
let url: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  broker = await startEmbeddedBroker({
    host: '127.0.0.1',
    port: 0,
    auth: {
      serverPassword: SERVER_PASSWORD,
      checkDevice: async (sn, password) =>
        enabled.has(sn) && !disabled.has(sn) && password.toString('utf8') === devicePassword(KEY, sn),
    },
  });
  url = `mqtt://127.0.0.1:${broker.port}`;
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await broker?.close();
});

async function login(username: string, password: string, clientId = username) {
  const res = await mqttConnect(url, { username, password, clientId });
  if (res.client) clients.push(res.client);
  return res;
}
const device = async (sn: string, clientId = sn) => {
  const res = await login(sn, devicePassword(KEY, sn), clientId);
  if (!res.client) throw res.error;
  return res.client;
};
/** Granted QoS of one subscription: 128 when refused (mqtt.js rejects those). */
async function grant(c: MqttClient, topic: string): Promise<number> {
  try {
    return (await c.subscribeAsync(topic, { qos: 1 }))[0]!.qos;
  } catch (err) {
    const granted = (err as { packet?: { granted?: number[] } }).packet?.granted;
    if (granted) return granted[0]!;
    throw err;
  }
}
const server = async () => {
  const res = await login(SERVER_MQTT_USER, SERVER_PASSWORD, 'nest-server-test1');
  if (!res.client) throw res.error;
  return res.client;
};

describe('embedded broker authentication', () => {
  it('accepts the server user with its password and a nest-server- client id only', async () => {
    expect((await login(SERVER_MQTT_USER, SERVER_PASSWORD, 'nest-server-abc')).client).not.toBeNull();
    expect((await login(SERVER_MQTT_USER, 'wrong', 'nest-server-abd')).error?.code).toBe(4);
    expect((await login(SERVER_MQTT_USER, SERVER_PASSWORD, 'other-id')).error?.code).toBe(2);
  });

  it('accepts an enabled device with its derived password, refuses wrong, unknown and disabled ones', async () => {
    expect((await login('SN-A', devicePassword(KEY, 'SN-A'))).client).not.toBeNull();
    expect((await login('SN-A', devicePassword(KEY, 'SN-B'))).error?.code).toBe(4);
    expect((await login('SN-A', devicePassword(KEY, 'SN-A').slice(0, 10))).error?.code).toBe(4);
    expect((await login('SN-GHOST', devicePassword(KEY, 'SN-GHOST'))).error?.code).toBe(4);
    expect((await login('SN-OFF', devicePassword(KEY, 'SN-OFF'))).error?.code).toBe(4);
    expect((await login('bad/sn', 'x')).error?.code).toBe(4);
    expect((await login('', '')).error?.code).toBe(4);
  });

  it('refuses device client ids that could take over another session', async () => {
    expect((await login('SN-A', devicePassword(KEY, 'SN-A'), 'SN-B')).error?.code).toBe(2);
    expect((await login('SN-A', devicePassword(KEY, 'SN-A'), 'nest-server-x')).error?.code).toBe(2);
    expect((await login('SN-A', devicePassword(KEY, 'SN-A'), 'SN-A-debug')).client).not.toBeNull();
  });
});

describe('embedded broker ACL', () => {
  it('lets a device publish only on its own device -> server topics', async () => {
    const srv = await server();
    const seen: string[] = [];
    srv.on('message', (topic) => seen.push(topic));
    await srv.subscribeAsync('nest/v1/#', { qos: 1 });
    const a = await device('SN-A');
    await a.publishAsync(topicOf('SN-A', 'telemetry'), '{}', { qos: 1 });
    await until(() => seen.includes(topicOf('SN-A', 'telemetry')), 'the own telemetry of SN-A');
    // Another device's topic: refused, and the offending device is disconnected.
    const closed = new Promise<void>((resolve) => a.once('close', () => resolve()));
    a.publish(topicOf('SN-B', 'telemetry'), '{}', { qos: 0 });
    await closed;
    const b = await device('SN-B');
    // Its own server -> device topic is not for publishing either.
    const closedB = new Promise<void>((resolve) => b.once('close', () => resolve()));
    b.publish(topicOf('SN-B', 'commands'), '{}', { qos: 0 });
    await closedB;
    // The broker decided on both before it closed their connections; a message published now reaches the
    // server's subscription after anything it passed on from them.
    const again = await device('SN-A');
    await again.publishAsync(topicOf('SN-A', 'events'), '{}', { qos: 1 });
    await until(() => seen.includes(topicOf('SN-A', 'events')), 'the later message of SN-A');
    expect(seen).not.toContain(topicOf('SN-B', 'telemetry'));
    expect(seen).not.toContain(topicOf('SN-B', 'commands'));
  });

  it('lets a device subscribe only to its own server -> device topics', async () => {
    const a = await device('SN-A');
    expect(await grant(a, topicOf('SN-A', 'commands'))).toBe(1);
    expect(await grant(a, topicOf('SN-A', 'events_reply'))).toBe(1);
    for (const t of [topicOf('SN-B', 'commands'), 'nest/v1/+/commands', 'nest/v1/#', '#', topicOf('SN-A', 'telemetry'), 'nest-server/v1/control/+']) {
      expect(await grant(a, t), t).toBe(128);
    }
    const got: string[] = [];
    a.on('message', (topic) => got.push(topic));
    const srv = await server();
    await srv.publishAsync(topicOf('SN-B', 'commands'), 'for B', { qos: 1 });
    await srv.publishAsync(topicOf('SN-A', 'commands'), 'for A', { qos: 1 });
    await until(() => got.includes(topicOf('SN-A', 'commands')), 'the own command of SN-A');
    expect(got).toEqual([topicOf('SN-A', 'commands')]);
    expect(a.connected).toBe(true);
  });

  it('refuses a device publish above the link message limit', async () => {
    const a = await device('SN-A');
    const closed = new Promise<void>((resolve) => a.once('close', () => resolve()));
    a.publish(topicOf('SN-A', 'telemetry'), Buffer.alloc(LINK_MAX_MESSAGE_BYTES + 10));
    await closed;
  });

  it('cuts a connection as soon as a packet larger than the limit is announced', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const socket = net.connect(broker.port, '127.0.0.1', () => {
        // PUBLISH header with a remaining length of MAX_PACKET_BYTES * 4, then nothing more.
        let n = MAX_PACKET_BYTES * 4;
        const len: number[] = [];
        do {
          let b = n % 128;
          n = Math.floor(n / 128);
          if (n > 0) b |= 0x80;
          len.push(b);
        } while (n > 0);
        socket.write(Buffer.from([0x30, ...len]));
      });
      socket.once('close', () => resolve(true));
      socket.once('error', () => undefined);
      // A safety limit only: the broker cuts the connection as soon as it reads the header.
      setTimeout(() => resolve(false), WAIT_LIMIT_MS).unref();
    });
    expect(closed).toBe(true);
  });
});

describe('disconnect', () => {
  it("closes every connection of the device (client id = its sn or <sn>-...), and only its own", async () => {
    const a = await device('SN-A');
    const a2 = await device('SN-A', 'SN-A-second');
    const b = await device('SN-B');
    const closed = (c: MqttClient) => new Promise<void>((resolve) => c.once('close', () => resolve()));
    const gone = Promise.all([closed(a), closed(a2)]);
    await broker.disconnect('SN-A');
    await gone;
    // SN-B is still served: its own subscription is answered on the same connection.
    expect(await grant(b, topicOf('SN-B', 'commands'))).toBe(1);
    expect(b.connected).toBe(true);
  });
});
