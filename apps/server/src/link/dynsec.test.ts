// Database: SQLite only: the broker access's MQTT client, no database.
/** The broker access (MosquittoDynsec) against a broker that never answers its subscribe. */
import net, { type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { MosquittoDynsec } from './dynsec.js';

describe('MosquittoDynsec stop', () => {
  it('a subscribe still in flight when stop() closes the connection is not taken for a broker without the plugin', async () => {
    let subscribing!: () => void;
    const inFlight = new Promise<void>((resolve) => (subscribing = resolve));
    const broker = await Aedes.createBroker({ authorizeSubscribe: () => subscribing() });
    const tcp = net.createServer((socket) => broker.handle(socket));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const lines: string[] = [];
    const log = { info: (_: object, msg: string) => lines.push(msg), warn: (_: object, msg: string) => lines.push(msg), debug: () => undefined };
    const devices = { get: () => undefined, all: () => [], onChange: () => () => undefined, reload: async () => undefined };
    const access = new MosquittoDynsec({ url: `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`, username: 'server', password: 'secret', devices, passwordOf: () => '', log });
    try {
      access.start();
      await inFlight;
      // Its own client, to wait for the socket to close: a failed subscribe is called back then.
      const client = (access as unknown as { client: MqttClient }).client;
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await access.stop();
      await closed;
      expect(lines).toEqual([]);
    } finally {
      await access.stop();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      tcp.close();
    }
  });
});
