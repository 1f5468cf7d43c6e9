import net from 'node:net';
import { DeviceProtocol, LINK_MAX_MESSAGE_BYTES, RecordState, SERVER_MQTT_USER, topicOf } from '@nest/contracts';
import { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceLoginCheck, devicePassword, djiPassword, type DeviceAccount } from '../link/credentials.js';
import { WAIT_LIMIT_MS, mqttConnect, until } from '../../test/live.js';
import { MAX_PACKET_BYTES, startEmbeddedBroker, type EmbeddedBroker } from './index.js';

const KEY = 'ab'.repeat(32);
const SERVER_PASSWORD = 'server-secret-password';
const nest = (enabled = 1): DeviceAccount => ({ protocol: DeviceProtocol.NEST, secret_gen: 0, uav_sn: '', enabled, state: RecordState.NORMAL });
const dji = (uav_sn: string, secret_gen = 0, enabled = 1): DeviceAccount => ({ protocol: DeviceProtocol.DJI, secret_gen, uav_sn, enabled, state: RecordState.NORMAL });
/** The registry the login check reads; tests change it as the console would. */
const registry = new Map<string, DeviceAccount>([
  ['SN-A', nest()],
  ['SN-B', nest()],
  ['SN-OFF', nest(0)],
  ['DOCK-1', dji('DRONE-1')],
  ['DOCK-2', dji('DRONE-2')],
]);

let broker: EmbeddedBroker;
let url: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  broker = await startEmbeddedBroker({
    host: '127.0.0.1',
    port: 0,
    auth: {
      serverPassword: SERVER_PASSWORD,
      checkDevice: deviceLoginCheck(KEY, async (sn) => registry.get(sn)),
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

describe('DJI gateways', () => {
  const closed = (c: MqttClient) => new Promise<void>((resolve) => c.once('close', () => resolve()));
  const dock = async (sn: string, clientId = `any-id-${sn}`) => {
    const res = await login(sn, djiPassword(KEY, sn, registry.get(sn)!.secret_gen), clientId);
    if (!res.client) throw res.error;
    return res.client;
  };

  it('logs in with the gateway sn and its current password, with any client id but a reserved or taken one', async () => {
    expect((await login('DOCK-1', djiPassword(KEY, 'DOCK-1', 0), 'pilot2-random-id')).client).not.toBeNull();
    expect((await login('DOCK-1', djiPassword(KEY, 'DOCK-1', 0), 'DOCK-1')).client).not.toBeNull();
    // The nest-protocol password of the same sn, another dock's password, a wrong one: refused.
    expect((await login('DOCK-1', devicePassword(KEY, 'DOCK-1'))).error?.code).toBe(4);
    expect((await login('DOCK-1', djiPassword(KEY, 'DOCK-2', 0))).error?.code).toBe(4);
    expect((await login('DOCK-1', 'wrong-password')).error?.code).toBe(4);
    expect((await login('DOCK-1', djiPassword(KEY, 'DOCK-1', 0), 'nest-server-x')).error?.code).toBe(2);
    // A client id held by another user's connection cannot be taken over.
    await device('SN-B');
    expect((await login('DOCK-1', djiPassword(KEY, 'DOCK-1', 0), 'SN-B')).error?.code).toBe(2);
  });

  it('refuses a disabled dock and a password of an older generation', async () => {
    registry.set('DOCK-OFF', dji('DRONE-X', 0, 0));
    expect((await login('DOCK-OFF', djiPassword(KEY, 'DOCK-OFF', 0))).error?.code).toBe(4);
    registry.set('DOCK-RE', dji('DRONE-R', 0));
    expect((await login('DOCK-RE', djiPassword(KEY, 'DOCK-RE', 0))).client).not.toBeNull();
    registry.set('DOCK-RE', dji('DRONE-R', 1));
    expect((await login('DOCK-RE', djiPassword(KEY, 'DOCK-RE', 0))).error?.code).toBe(4);
    expect((await login('DOCK-RE', djiPassword(KEY, 'DOCK-RE', 1))).client).not.toBeNull();
  });

  it("publishes on its own DJI topics and its drone's osd/state only", async () => {
    const srv = await server();
    const seen: string[] = [];
    let lastSeen = false;
    srv.on('message', (topic, payload) => {
      seen.push(topic);
      if (payload.toString() === 'last') lastSeen = true;
    });
    await srv.subscribeAsync(['sys/product/#', 'thing/product/#'], { qos: 1 });
    const own = [
      'sys/product/DOCK-1/status',
      'thing/product/DOCK-1/osd',
      'thing/product/DOCK-1/state',
      'thing/product/DOCK-1/events',
      'thing/product/DOCK-1/requests',
      'thing/product/DOCK-1/services_reply',
      'thing/product/DOCK-1/property/set_reply',
      'thing/product/DOCK-1/drc/up',
      'thing/product/DRONE-1/osd',
      'thing/product/DRONE-1/state',
    ];
    const d = await dock('DOCK-1');
    for (const t of own) await d.publishAsync(t, '{}', { qos: 1 });
    await until(() => own.every((t) => seen.includes(t)), 'every own topic of DOCK-1');
    // Each refused publish closes the connection; the next allowed one from a new connection proves the
    // refused one was not passed on (the broker handles one connection's packets in order).
    const refused = [
      'thing/product/DOCK-2/osd',
      'sys/product/DOCK-2/status',
      'thing/product/DRONE-2/osd',
      'thing/product/DRONE-1/events',
      'thing/product/DOCK-1/services',
      'sys/product/DOCK-1/status_reply',
      'thing/product/DOCK-1/unknown',
      topicOf('DOCK-1', 'telemetry'),
    ];
    for (const t of refused) {
      const c = await dock('DOCK-1');
      const gone = closed(c);
      c.publish(t, '{}', { qos: 0 });
      await gone;
    }
    const last = await dock('DOCK-1');
    await last.publishAsync('thing/product/DOCK-1/events', 'last', { qos: 1 });
    await until(() => lastSeen, 'the later event of DOCK-1');
    for (const t of refused) expect(seen).not.toContain(t);
  });

  it('subscribes to its own cloud -> device topics only and receives them', async () => {
    const d = await dock('DOCK-1');
    for (const t of ['sys/product/DOCK-1/status_reply', 'thing/product/DOCK-1/services', 'thing/product/DOCK-1/events_reply', 'thing/product/DOCK-1/requests_reply', 'thing/product/DOCK-1/state_reply', 'thing/product/DOCK-1/property/set', 'thing/product/DOCK-1/drc/down']) {
      expect(await grant(d, t), t).toBe(1);
    }
    for (const t of ['thing/product/DOCK-2/services', 'thing/product/+/services', 'thing/product/#', '#', 'thing/product/DOCK-1/osd', 'thing/product/DRONE-1/osd', topicOf('DOCK-1', 'commands')]) {
      expect(await grant(d, t), t).toBe(128);
    }
    const got: string[] = [];
    d.on('message', (topic) => got.push(topic));
    const srv = await server();
    await srv.publishAsync('thing/product/DOCK-2/services', 'for 2', { qos: 1 });
    await srv.publishAsync('thing/product/DOCK-1/services', 'for 1', { qos: 1 });
    await until(() => got.includes('thing/product/DOCK-1/services'), 'the own command of DOCK-1');
    expect(got).toEqual(['thing/product/DOCK-1/services']);
  });

  it('is disconnected by its sn whatever its client id', async () => {
    const d = await dock('DOCK-2', 'some-pilot-client');
    const other = await dock('DOCK-1', 'other-pilot-client');
    const gone = closed(d);
    await broker.disconnect('DOCK-2');
    await gone;
    expect(await grant(other, 'thing/product/DOCK-1/services')).toBe(1);
    expect(other.connected).toBe(true);
  });
});

describe('the server in this process', () => {
  it('logs in over an in-memory connection under the same rules, and receives routed messages without one', async () => {
    // An MQTT session over connectInProcess: the server user gets in, a device user with a wrong password does not.
    const inMemory = (username: string, password: string, clientId: string) =>
      new Promise<MqttClient | Error>((resolve) => {
        const c = new MqttClient(() => broker.connectInProcess(), { username, password, clientId, protocolVersion: 4, reconnectPeriod: 0 });
        c.once('connect', () => resolve(c));
        c.once('error', (err) => {
          c.end(true);
          resolve(err);
        });
      });
    const srv = await inMemory(SERVER_MQTT_USER, SERVER_PASSWORD, 'nest-server-in-memory');
    if (srv instanceof Error) throw srv;
    clients.push(srv);
    expect(await inMemory('SN-A', 'wrong', 'SN-A')).toBeInstanceOf(Error);
    const seen: string[] = [];
    srv.on('message', (topic, payload) => seen.push(`${topic} ${payload.toString()}`));
    await srv.subscribeAsync(topicOf('+', 'events'), { qos: 1 });

    // Routed in process: every device's telemetry, handed over as the broker routes it.
    const routed: string[] = [];
    const end = broker.subscribeInProcess(topicOf('+', 'telemetry'), (topic, payload) => routed.push(`${topic} ${payload.toString()}`));
    const d = await device('SN-B');
    await d.publishAsync(topicOf('SN-B', 'telemetry'), 't1', { qos: 1 });
    await d.publishAsync(topicOf('SN-B', 'events'), 'e1', { qos: 1 });
    await until(() => seen.length === 1, 'the event over the in-memory session');
    expect(routed).toEqual([`${topicOf('SN-B', 'telemetry')} t1`]);
    expect(seen).toEqual([`${topicOf('SN-B', 'events')} e1`]);
    end();
    await d.publishAsync(topicOf('SN-B', 'telemetry'), 't2', { qos: 1 });
    await d.publishAsync(topicOf('SN-B', 'events'), 'e2', { qos: 1 });
    await until(() => seen.length === 2, 'the second event');
    expect(routed).toHaveLength(1);
  });
});
