import { afterEach, describe, expect, it } from 'vitest';
import { parseLinkMessage, presenceData, telemetryData, topicOf } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { demoFleet, devicePassword, startFleet } from './index.js';
import type { Fleet } from './index.js';
import { startBroker } from './test/broker.js';
import type { TestBroker } from './test/broker.js';

const SECRET = 'test-secret';
let broker: TestBroker | null = null;
let fleet: Fleet | null = null;

afterEach(async () => {
  await fleet?.stop();
  fleet = null;
  await broker?.close();
  broker = null;
});

function specs(nests: number, drones: number) {
  return demoFleet({ lat: 22.54, lng: 114.05 }, { nests, drones }).map((d) => ({ ...d, password: devicePassword(SECRET, d.sn) }));
}

async function setup(nests: number, drones: number, rateHz = 1) {
  const devices = specs(nests, drones);
  broker = await startBroker({ passwords: new Map(devices.map((d) => [d.sn, d.password])) });
  fleet = await startFleet({ brokerUrl: broker.url, devices, rateHz });
  return { devices, broker, fleet };
}

function collect(client: MqttClient, filter: string) {
  const got: { topic: string; retain: boolean; json: unknown }[] = [];
  client.on('message', (topic, payload, packet) => {
    const p = parseLinkMessage(payload);
    got.push({ topic, retain: packet.retain, json: p.ok ? p.message : { malformed: p.reason } });
  });
  return new Promise<typeof got>((resolve) => client.subscribe(filter, { qos: 1 }, () => resolve(got)));
}

describe('fleet over a real broker', () => {
  it('publishes retained presence online and valid telemetry', async () => {
    const { broker } = await setup(3, 1);
    const obs = await broker.observer();
    const got = await collect(obs, 'nest/v1/+/+');
    await new Promise((r) => setTimeout(r, 2_300));
    const presence = got.filter((m) => m.topic === topicOf('SIM-STABLE-01', 'presence'));
    expect(presence[0]?.retain).toBe(true);
    const env = presence[0]?.json as { method: string; data: unknown };
    expect(env.method).toBe('presence');
    expect(presenceData.parse(env.data)).toMatchObject({ online: true, rate_hz: 1 });
    for (const sn of ['SIM-STABLE-01', 'SIM-MINI-01', 'SIM-MOBILE-01', 'SIM-ALONE-01']) {
      const tel = got.filter((m) => m.topic === topicOf(sn, 'telemetry'));
      expect(tel.length).toBeGreaterThanOrEqual(2);
      for (const t of tel) {
        const e = t.json as { method: string; data: unknown };
        expect(e.method).toBe('telemetry');
        const data = telemetryData.parse(e.data);
        expect(data.drone).toBeDefined();
        expect(data.nest !== undefined).toBe(sn !== 'SIM-ALONE-01');
      }
    }
  });
});
