import { DeviceProtocol, ResultCode, type Device, type DeviceAdded, type DeviceListItem, type DjiCredentials } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { live, mqttConnect } from '../../test/live.js';
import { djiPassword } from '../link/credentials.js';

let server: TestServer;
let wk: TestClient;
let viewer: TestClient;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false } });
  await adminClient(server);
  wk = await userClient(server, { funList: ['device_list', 'device_add', 'device_edit'] });
  viewer = await userClient(server, { funList: ['device_list', 'device_add'] });
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await server?.close();
});

const point = (lat: number, lng: number) => JSON.stringify({ lat, lng });
const dockFields = (sn: string, over: Fields = {}): Fields => ({
  type: 'stable_mini',
  protocol: DeviceProtocol.DJI,
  airport_name: `Dock ${sn}`,
  uav_name: 'M3D',
  sn_id: sn,
  uav_sn: `${sn}-UAV`,
  uav_model: 'M3D',
  airport_point: point(22.54, 114.05),
  ...over,
});

async function must<D>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function login(creds: DjiCredentials, clientId = `pilot-${Math.random().toString(36).slice(2)}`) {
  const res = await mqttConnect(creds.mqtt_url, { username: creds.username, password: creds.password, clientId });
  if (res.client) clients.push(res.client);
  return res;
}

describe('registering a DJI dock', () => {
  it('answers its broker credentials once, with which it logs in and may use its DJI topics', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', dockFields('DJI-DOCK-1'));
    expect(added.protocol).toBe(DeviceProtocol.DJI);
    expect(added.dji).toEqual({ mqtt_url: live(server).brokerUrl, username: 'DJI-DOCK-1', password: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const { client } = await login(added.dji!);
    expect(client).not.toBeNull();
    const granted = await client!.subscribeAsync('thing/product/DJI-DOCK-1/services', { qos: 1 });
    expect(granted[0]!.qos).toBe(1);
    // The list carries the protocol; the credentials are nowhere but in the add answer.
    const list = await must<{ list: DeviceListItem[] }>(wk, 'deviceList', { search: 'DJI-DOCK-1' });
    expect(list.list[0]!.protocol).toBe(DeviceProtocol.DJI);
    expect(JSON.stringify(list)).not.toContain(added.dji!.password);
  });

  it('registers a nest-protocol device by default, which has no DJI credentials', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', dockFields('NEST-PLAIN-1', { protocol: '' }));
    expect(added.protocol).toBe(DeviceProtocol.NEST);
    expect(added.dji).toBeUndefined();
    const zh = await wk.call('deviceDjiCredentials', { id: added.id }, { lang: 'zh' });
    expect(zh.body.code).toBe(ResultCode.BAD_REQUEST);
    expect(zh.body.msg).toContain('机场协议');
    const en = await wk.call('deviceDjiCredentials', { id: added.id }, { lang: 'en' });
    expect(en.body.msg).toContain('nest protocol');
  });

  it('keeps the protocol on an edit that does not send it, changes it when sent', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', dockFields('DJI-DOCK-E'));
    const { protocol: _omit, ...withoutProtocol } = dockFields('DJI-DOCK-E', { id: added.id, address: 'Pier 5' });
    const kept = await must<Device>(wk, 'deviceEdit', withoutProtocol);
    expect(kept.protocol).toBe(DeviceProtocol.DJI);
    const changed = await must<Device>(wk, 'deviceEdit', { ...withoutProtocol, protocol: DeviceProtocol.NEST });
    expect(changed.protocol).toBe(DeviceProtocol.NEST);
  });
});

describe('re-issuing DJI credentials', () => {
  it('gives a new password, closes the connection made with the old one and refuses the old one', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', dockFields('DJI-DOCK-2'));
    const old = added.dji!;
    const { client } = await login(old);
    const closed = new Promise<void>((resolve) => client!.once('close', () => resolve()));
    const fresh = await must<DjiCredentials>(wk, 'deviceDjiCredentials', { id: added.id });
    await closed;
    expect(fresh.username).toBe('DJI-DOCK-2');
    expect(fresh.password).not.toBe(old.password);
    expect((await login(old)).error?.code).toBe(4);
    expect((await login(fresh)).client).not.toBeNull();
    const row = await server.db.selectFrom('devices').select(['secret_gen']).where('sn_id', '=', 'DJI-DOCK-2').executeTakeFirstOrThrow();
    expect(fresh.password).toBe(djiPassword(live(server).secrets.deviceKeyHex, 'DJI-DOCK-2', Number(row.secret_gen)));
    const audit = await server.db.selectFrom('audit_log').selectAll().where('kind', '=', 'device_credentials').where('target', '=', 'DJI-DOCK-2').execute();
    expect(audit).toHaveLength(1);
  });

  it('needs the device-edit function and the device in the caller company', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', dockFields('DJI-DOCK-3'));
    expect((await viewer.call('deviceDjiCredentials', { id: added.id })).body.code).toBe(ResultCode.NO_PERMISSION);
    expect((await wk.call('deviceDjiCredentials', { id: 'no-such-device' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    // Still the first password: nothing was issued.
    expect((await login(added.dji!)).client).not.toBeNull();
  });
});
