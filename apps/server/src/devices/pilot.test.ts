import { DeviceProtocol, ResultCode, djiMessage, djiTopic, type DeviceAdded, type DjiPilotLogin } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, userClient, type Fields, type TestClient, type TestServer } from '../../test/helpers.js';
import { live, mqttConnect } from '../../test/live.js';

let server: TestServer;
let wk: TestClient;
let viewer: TestClient;
let other: TestClient;
const clients: MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ config: { simulator: false, dji: { ntpServer: 'pool.ntp.org', appId: '123456', appKey: 'key-1', appLicense: 'licence-1' } } });
  await adminClient(server);
  wk = await userClient(server, { funList: ['device_list', 'device_add', 'device_edit', 'device_enable'] });
  viewer = await userClient(server, { funList: ['device_list', 'device_add'] });
  other = await userClient(server, { companyId: 'zrhk', funList: ['device_list', 'device_edit'] });
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await server?.close();
});

/** An RC Plus as gateway: a single-soldier drone speaking DJI Cloud API, sn_id the controller's sn. */
const rcFields = (sn: string, over: Fields = {}): Fields => ({
  type: 'alone',
  protocol: DeviceProtocol.DJI,
  uav_name: `RC ${sn}`,
  sn_id: sn,
  uav_sn: `${sn}-M3E`,
  uav_model: 'M3E',
  ...over,
});

async function must<D>(c: TestClient, name: Parameters<TestClient['call']>[0], fields: Fields): Promise<D> {
  const res = await c.call<D>(name, fields);
  if (res.body.code !== ResultCode.OK) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function login(creds: { mqtt_url: string; username: string; password: string }) {
  const res = await mqttConnect(creds.mqtt_url, { username: creds.username, password: creds.password, clientId: `rc-${creds.username}-${clients.length}` });
  if (res.client) clients.push(res.client);
  return res;
}

describe('/device/dji/pilot', () => {
  it('issues new credentials with the DJI app and workspace, and the old password stops working', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-PLUS-1'));
    const first = await must<DjiPilotLogin>(wk, 'deviceDjiPilot', { rc_sn: 'RC-PLUS-1' });
    expect(first).toEqual({
      mqtt_url: live(server).brokerUrl,
      username: 'RC-PLUS-1',
      password: expect.stringMatching(/^[0-9a-f]{32}$/),
      app_id: '123456',
      app_key: 'key-1',
      app_license: 'licence-1',
      workspace_id: 'wk',
      workspace_name: expect.any(String),
      platform_name: expect.any(String),
      device_name: 'RC RC-PLUS-1',
    });
    expect(first.password).not.toBe(added.dji!.password);
    expect((await login(added.dji!)).error?.code).toBe(4);
    const { client } = await login(first);
    expect(client).not.toBeNull();
    // Opening the page again re-issues: the connection made with the previous password is closed.
    const closed = new Promise<void>((resolve) => client!.once('close', () => resolve()));
    const second = await must<DjiPilotLogin>(wk, 'deviceDjiPilot', { rc_sn: 'RC-PLUS-1' });
    await closed;
    expect(second.password).not.toBe(first.password);
    expect((await login(first)).error?.code).toBe(4);
    const audit = await server.db.selectFrom('audit_log').selectAll().where('kind', '=', 'device_credentials').where('target', '=', 'RC-PLUS-1').execute();
    expect(audit).toHaveLength(2);
  });

  it('names the platform in the caller language', async () => {
    await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-PLUS-L'));
    const zh = await wk.call<DjiPilotLogin>('deviceDjiPilot', { rc_sn: 'RC-PLUS-L' }, { lang: 'zh' });
    const en = await wk.call<DjiPilotLogin>('deviceDjiPilot', { rc_sn: 'RC-PLUS-L' }, { lang: 'en' });
    expect(zh.body.data.platform_name).toBe('无人机管理平台');
    expect(en.body.data.platform_name).toBe('Drone Management Platform');
  });

  it('refuses an unknown sn, a nest-protocol device and another company the same way, in zh and en', async () => {
    await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-NEST-1', { protocol: DeviceProtocol.NEST }));
    await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-PLUS-2'));
    const unknown = await wk.call('deviceDjiPilot', { rc_sn: 'NO-SUCH-RC' }, { lang: 'en' });
    expect(unknown.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect(unknown.body.msg).toContain('not registered in your company');
    const unknownZh = await wk.call('deviceDjiPilot', { rc_sn: 'NO-SUCH-RC' }, { lang: 'zh' });
    expect(unknownZh.body.msg).toContain('本公司没有以“大疆上云 API”协议登记这台设备');
    const nest = await wk.call('deviceDjiPilot', { rc_sn: 'RC-NEST-1' }, { lang: 'en' });
    expect(nest.body).toEqual({ ...unknown.body, data: nest.body.data });
    const foreign = await other.call('deviceDjiPilot', { rc_sn: 'RC-PLUS-2' }, { lang: 'en' });
    expect(foreign.body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
    expect(foreign.body.msg).toBe(unknown.body.msg);
    expect((await viewer.call('deviceDjiPilot', { rc_sn: 'RC-PLUS-2' })).body.code).toBe(ResultCode.NO_PERMISSION);
    const row = await server.db.selectFrom('devices').select(['secret_gen']).where('sn_id', '=', 'RC-PLUS-2').executeTakeFirstOrThrow();
    expect(Number(row.secret_gen)).toBe(0);
  });

  it("issues a dock's credentials when a dock is being set up from the controller", async () => {
    await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-PLUS-S'));
    await must<DeviceAdded>(wk, 'deviceAdd', {
      type: 'stable_mini',
      protocol: DeviceProtocol.DJI,
      airport_name: 'Dock S',
      uav_name: 'M3D S',
      sn_id: 'DOCK-S',
      uav_sn: 'DOCK-S-M3D',
      uav_model: 'M3D',
      airport_point: JSON.stringify({ lat: 22.54, lng: 114.05 }),
    });
    const dock = await must<DjiPilotLogin>(wk, 'deviceDjiPilot', { rc_sn: 'RC-PLUS-S', dock_sn: 'DOCK-S' });
    expect(dock).toMatchObject({ username: 'DOCK-S', device_name: 'Dock S' });
    expect((await login(dock)).client).not.toBeNull();
    expect((await wk.call('deviceDjiPilot', { rc_sn: 'RC-PLUS-S', dock_sn: 'NO-SUCH-DOCK' })).body.code).toBe(ResultCode.NOT_FOUND_OBJECT);
  });

  it('refuses a disabled controller', async () => {
    const added = await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-PLUS-D'));
    await must(wk, 'deviceEnable', { id: added.id, enabled: 0 });
    expect((await wk.call('deviceDjiPilot', { rc_sn: 'RC-PLUS-D' })).body.code).toBe(ResultCode.DEVICE_DISABLED);
  });
});

describe('an RC gateway on the DJI link', () => {
  it('is brought online by its update_topo (domain 2) with its drone as sub-device, answered like a dock', async () => {
    await must<DeviceAdded>(wk, 'deviceAdd', rcFields('RC-PLUS-T'));
    const creds = await must<DjiPilotLogin>(wk, 'deviceDjiPilot', { rc_sn: 'RC-PLUS-T' });
    const { client } = await login(creds);
    await client!.subscribeAsync(djiTopic.statusReply('RC-PLUS-T'), { qos: 1 });
    const reply = new Promise<Record<string, unknown>>((resolve) =>
      client!.on('message', (topic, payload) => {
        if (topic === djiTopic.statusReply('RC-PLUS-T')) resolve(JSON.parse(payload.toString()) as Record<string, unknown>);
      }),
    );
    const topo = {
      domain: 2,
      type: 119,
      sub_type: 0,
      device_secret: 'secret',
      nonce: 'nonce',
      thing_version: '1.1.2',
      sub_devices: [{ sn: 'RC-PLUS-T-M3E', domain: 0, type: 77, sub_type: 0, index: 'A', device_secret: 'secret', nonce: 'nonce', thing_version: '1.1.2' }],
    };
    await client!.publishAsync(djiTopic.status('RC-PLUS-T'), JSON.stringify({ ...djiMessage('update_topo', topo, { tid: 'tid-1', bid: 'bid-1' }) }), { qos: 1 });
    const answer = await reply;
    expect(answer).toMatchObject({ tid: 'tid-1', bid: 'bid-1', method: 'update_topo', data: { result: 0 } });
    // The reply is published after the gateway is accepted, so the link already counts it online.
    expect(live(server).link.isOnline('RC-PLUS-T')).toBe(true);
  });
});
