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

/** A device ACL other than the contracts' one (by the login's user name), e.g. a DJI gateway's topics. */
export interface TestAcl {
  publish(username: string, topic: string): boolean;
  subscribe(username: string, topic: string): boolean;
}

export async function startBroker(opts: { passwords?: Map<string, string>; acl?: TestAcl } = {}): Promise<TestBroker> {
  const broker = await Aedes.createBroker();
  const observers = new Set<string>();
  const usernames = new Map<string, string>();
  const acl = opts.acl;
  broker.authenticate = (client, username, password, done) => {
    if (username === 'observer') {
      observers.add(client.id);
      done(null, true);
      return;
    }
    const want = opts.passwords?.get(username ?? '');
    // With its own ACL a login may use any client id (as DJI devices do).
    const ok = want === undefined || (password?.toString() === want && (acl !== undefined || client.id === username));
    if (!ok) {
      const err = Object.assign(new Error('bad credentials'), { returnCode: 4 });
      done(err as never, false);
      return;
    }
    usernames.set(client.id, username ?? '');
    done(null, true);
  };
  broker.authorizePublish = (client, packet, done) => {
    const allowed = acl ? acl.publish(usernames.get(client?.id ?? '') ?? '', packet.topic) : devicePublishAllowed(client?.id ?? '', packet.topic);
    if (!client || observers.has(client.id) || allowed) done(null);
    else done(new Error(`publish denied: ${packet.topic}`));
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    const allowed = acl ? acl.subscribe(usernames.get(client.id) ?? '', sub.topic) : deviceSubscribeAllowed(client.id, sub.topic);
    if (observers.has(client.id) || allowed) done(null, sub);
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
