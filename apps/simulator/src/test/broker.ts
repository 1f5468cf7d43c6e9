import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import type { MqttClient } from 'mqtt';
import { deviceSubscribeAllowed, devicePublishAllowed } from '@nest/contracts';

/** A real in-process MQTT broker (aedes) on 127.0.0.1, with the device ACL of the contracts. */
export interface TestBroker {
  url: string;
  broker: Aedes;
  /** A server-side observer client (not a device: no ACL). */
  observer(): Promise<MqttClient>;
  close(): Promise<void>;
}

export async function startBroker(opts: { passwords?: Map<string, string> } = {}): Promise<TestBroker> {
  const broker = await Aedes.createBroker();
  const observers = new Set<string>();
  broker.authenticate = (client, username, password, done) => {
    if (username === 'observer') {
      observers.add(client.id);
      done(null, true);
      return;
    }
    const want = opts.passwords?.get(username ?? '');
    const ok = want === undefined || (password?.toString() === want && client.id === username);
    if (!ok) {
      const err = Object.assign(new Error('bad credentials'), { returnCode: 4 });
      done(err as never, false);
      return;
    }
    done(null, true);
  };
  broker.authorizePublish = (client, packet, done) => {
    if (!client || observers.has(client.id) || devicePublishAllowed(client.id, packet.topic)) done(null);
    else done(new Error(`publish denied: ${packet.topic}`));
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    if (observers.has(client.id) || deviceSubscribeAllowed(client.id, sub.topic)) done(null, sub);
    else done(new Error(`subscribe denied: ${sub.topic}`), null);
  };
  const server: Server = createServer(broker.handle as never);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `mqtt://127.0.0.1:${port}`;
  const clients: MqttClient[] = [];
  let n = 0;
  return {
    url,
    broker,
    observer: async () => {
      const c = mqtt.connect(url, { clientId: `observer-${++n}`, username: 'observer', reconnectPeriod: 0 });
      clients.push(c);
      await new Promise<void>((resolve, reject) => {
        c.once('connect', () => resolve());
        c.once('error', reject);
      });
      return c;
    },
    close: async () => {
      await Promise.all(clients.map((c) => c.endAsync(true)));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
