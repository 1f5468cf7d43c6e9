import net from 'node:net';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortInUseError, startEmbeddedBroker, type EmbeddedBroker } from './index.js';

let broker: EmbeddedBroker;
beforeAll(async () => {
  broker = await startEmbeddedBroker({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => broker?.close());

function connect(opts: mqtt.IClientOptions): Promise<{ ok: boolean; error?: Error & { code?: number } }> {
  return new Promise((resolve) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${broker.port}`, { ...opts, reconnectPeriod: 0, connectTimeout: 3000 });
    client.once('connect', () => {
      client.end(true);
      resolve({ ok: true });
    });
    client.once('error', (error) => {
      client.end(true);
      resolve({ ok: false, error });
    });
  });
}

describe('embedded MQTT broker', () => {
  it('listens on loopback at the port it reports', () => {
    expect(broker.host).toBe('127.0.0.1');
    expect(broker.port).toBeGreaterThan(0);
  });

  it('refuses anonymous clients (CONNACK 4)', async () => {
    const res = await connect({});
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe(4);
    const noPassword = await connect({ username: 'device' });
    expect(noPassword.ok).toBe(false);
  });

  it('without an authenticator (lifecycle only) it accepts credentials but grants nothing', async () => {
    expect((await connect({ username: 'device', password: 'secret' })).ok).toBe(true);
  });

  it('reports a port already in use with the variable to change', async () => {
    const err = await startEmbeddedBroker({ host: '127.0.0.1', port: broker.port }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortInUseError);
    expect((err as Error).message).toBe(`Port ${broker.port} on 127.0.0.1 is already in use; set MQTT_PORT to another port`);
  });

  it('stops listening on close', async () => {
    const other = await startEmbeddedBroker({ host: '127.0.0.1', port: 0 });
    const port = other.port;
    await other.close();
    await other.close();
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
