/**
 * A DJI dock registered behind this server's back (the CLI while the product runs, another instance) logs in
 * at once (the broker reads the database), before the link's device directory has reloaded. Its first
 * update_topo must still be answered: real docks send it on connecting and again only when the topology
 * changes, so a topology dropped here would leave the dock without its drone.
 */
import { randomUUID } from 'node:crypto';
import { DeviceProtocol } from '@nest/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDevice } from '../../devices/store.js';
import { DJI_HOME, djiLogin, droneOf, startDjiTestServer } from './testing.js';
import type { TestServer } from '../../../test/helpers.js';
import { live, until } from '../../../test/live.js';

let server: TestServer;
beforeAll(async () => {
  server = await startDjiTestServer();
});
afterAll(async () => {
  await server?.close();
});

it("answers the first update_topo of a dock registered after the directory's last load", async () => {
  const gw = 'DJI-ELSEWHERE-1';
  // Straight into the database, as the CLI does: the server's directory does not know it yet.
  await createDevice(server.db, {
    sn_id: gw,
    type: 'stable_mini',
    company_id: 'wk',
    airport_name: 'Dock registered elsewhere',
    uav_name: 'M3D',
    uav_sn: droneOf(gw),
    uav_model: 'M3D',
    protocol: DeviceProtocol.DJI,
    airport_point: DJI_HOME,
  });
  expect(live(server).directory.get(gw)).toBeUndefined();

  const login = djiLogin(server, gw);
  const client = await mqtt.connectAsync(login.mqttUrl, { clientId: `${gw}-dock`, username: login.username, password: login.password, reconnectPeriod: 0 });
  try {
    const replies: string[] = [];
    client.on('message', (_topic, payload) => replies.push((JSON.parse(payload.toString('utf8')) as { tid: string }).tid));
    await client.subscribeAsync(`sys/product/${gw}/status_reply`, { qos: 1 });
    const tid = randomUUID();
    const topo = { domain: '3', type: 2, sub_type: 0, thing_version: '1.2.0', sub_devices: [{ sn: droneOf(gw), domain: '0', type: '91', sub_type: '0', index: 'A', thing_version: '1.2.0' }] };
    // Sent once, never again.
    await client.publishAsync(`sys/product/${gw}/status`, JSON.stringify({ tid, bid: randomUUID(), timestamp: Date.now(), method: 'update_topo', data: topo }), { qos: 1 });
    await until(() => replies.includes(tid), 'the status_reply to the only update_topo');
    await until(() => live(server).link.isOnline(gw), 'the dock online');
  } finally {
    await client.endAsync(true);
  }
});
