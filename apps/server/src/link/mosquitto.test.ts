// Database: SQLite only: the broker's authentication and ACLs.
/**
 * The device link through a real Mosquitto, configured with exactly the files `cli.ts mosquitto-files`
 * writes (docs/device-protocol.md): the broker enforces authentication and the per-device ACL through its
 * dynamic-security plugin, whose device clients the server keeps in line with the registry.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DeviceProtocol, LINK_MAX_MESSAGE_BYTES, RecordState, MIN_TELEMETRY_HZ, ResultCode, SERVER_MQTT_USER, topicOf, type DeviceAdded, type DjiCredentials } from '@nest/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startTestServer, tempDir, type TestServer } from '../../test/helpers.js';
import { hasMosquitto, startMosquitto, type MosquittoBroker } from '../../test/infra.js';
import { RawDevice, WAIT_LIMIT_MS, envelope, live, mqttConnect, nestTelemetry, registerDevice, startSim, until } from '../../test/live.js';
import { reservedPort } from '../../test/process.js';
import type { SimFleet } from '../../test/simulator.js';
import { CONTROL_NOTICE_TOPIC } from '../devices/status.js';
import { updateDeviceRow } from '../devices/store.js';
import { WATCH_NOTICE_TOPIC } from '../videos/live.js';
import { membersTopic } from './members.js';
import { SERVER_TOPIC_ROOT } from './mosquitto.js';
import { probeTopic } from './nest/service.js';
import { SERVER_ROLE, deviceAcls, deviceRole, djiAcls } from './dynsec.js';
import { djiPassword } from './credentials.js';
import { runCli } from '../cli.js';
import type { LiveDevice } from './adapter.js';

describe.runIf(hasMosquitto())('device link through Mosquitto', () => {
  let server: TestServer;
  let broker: MosquittoBroker;
  let url: string;
  let confDir: string;
  let fleet: SimFleet;
  const raws: RawDevice[] = [];

  beforeAll(async () => {
    const dataDir = await tempDir('nest-mosq-');
    const port = await reservedPort();
    url = `mqtt://127.0.0.1:${port}`;
    server = await startTestServer({ dataDir, config: { mqttUrl: url } });
    for (const sn of ['MQ-1', 'MQ-2', 'MQ-RAW']) await registerDevice(server, { sn_id: sn });
    await registerDevice(server, { sn_id: 'MQ-DISABLED', enabled: false });
    // A DJI dock (gateway sn, its drone) known to the broker from the generated configuration.
    await registerDevice(server, { sn_id: 'MQ-DJI-1', uav_sn: 'MQ-DJI-1-UAV', type: 'stable_mini', protocol: DeviceProtocol.DJI });
    broker = await startMosquitto({ dataDir, databaseUrl: server.databaseUrl, port, auth: 'dynsec' });
    confDir = broker.confDir;
    // A safety limit only, so a broker that never lets the server in is reported with its log.
    let limit: NodeJS.Timeout | undefined;
    await Promise.race([
      live(server).link.ready(),
      new Promise((_, reject) => {
        limit = setTimeout(() => reject(new Error(`server never connected to mosquitto: ${broker.log()}`)), WAIT_LIMIT_MS);
      }),
    ]).finally(() => clearTimeout(limit));
    // The slowest rate a device may announce: only 6 s of silence would take them offline, so a busy machine
    // never does, and at the last-will the will comes first.
    fleet = await startSim(server, [{ sn: 'MQ-1' }, { sn: 'MQ-2' }], { rateHz: MIN_TELEMETRY_HZ, brokerUrl: url });
  });

  afterAll(async () => {
    for (const r of raws) await r.end().catch(() => undefined);
    await fleet?.stop();
    await server?.close();
    await broker?.close();
  });

  const raw = async (sn: string) => {
    const d = await RawDevice.connect(server, sn, { url });
    raws.push(d);
    return d;
  };

  it('uses the generated dynamic-security configuration: the server role, one role per device with its own topics', async () => {
    const conf = await readFile(path.join(confDir, 'mosquitto.conf'), 'utf8');
    expect(conf).toContain('allow_anonymous false');
    expect(conf).toMatch(/^plugin .*mosquitto_dynamic_security\.so$/m);
    // The broker rewrites the file as the server changes clients; the roles stay as generated.
    const config = JSON.parse(await readFile(path.join(confDir, 'dynamic-security.json'), 'utf8')) as {
      roles: { rolename: string; acls: { acltype: string; topic: string }[] }[];
    };
    const role = (name: string) => config.roles.find((r) => r.rolename === name)?.acls.map((a) => `${a.acltype} ${a.topic}`);
    expect(role(SERVER_ROLE)).toContain('subscribePattern nest/v1/#');
    // The plugin writes the file again in its own order once the server has changed anything.
    expect(role(deviceRole('MQ-1'))?.sort()).toEqual(deviceAcls('MQ-1').map((a) => `${a.acltype} ${a.topic}`).sort());
    expect(role(deviceRole('MQ-1'))).toContain('publishClientSend nest/v1/MQ-1/telemetry');
    expect(role(deviceRole('MQ-1'))).toContain('subscribePattern nest/v1/MQ-1/commands');
    expect(role(deviceRole('MQ-DISABLED'))).toBeUndefined();
    // The server gives a DJI account again on connect (the plugin lists no passwords).
    expect(role(deviceRole('MQ-DJI-1'))?.sort()).toEqual(djiAcls('MQ-DJI-1', 'MQ-DJI-1-UAV').map((a) => `${a.acltype} ${a.topic}`).sort());
    expect(role(SERVER_ROLE)).toContain('subscribePattern thing/product/#');
    // The server role covers every server-internal topic.
    for (const topic of [CONTROL_NOTICE_TOPIC, WATCH_NOTICE_TOPIC, membersTopic('nest'), probeTopic('nest-server-x')]) expect(topic.startsWith(`${SERVER_TOPIC_ROOT}/`)).toBe(true);
  });

  it('brings simulated devices online through the broker; telemetry reaches the link', async () => {
    await until(() => live(server).link.isOnline('MQ-1') && live(server).link.isOnline('MQ-2'), 'MQ-1 and MQ-2 online via mosquitto');
    await until(() => live(server).link.device('MQ-1')?.telemetry !== null, 'MQ-1 telemetry');
    expect(live(server).link.device('MQ-1')?.rateHz).toBe(MIN_TELEMETRY_HZ);
  });

  it('authenticates: wrong password, unknown, disabled and anonymous clients are refused', async () => {
    const wrong = await mqttConnect(url, { username: 'MQ-1', password: live(server).devicePassword('MQ-2'), clientId: 'MQ-1-x' });
    expect(wrong.error?.code).toBe(5);
    const unknown = await mqttConnect(url, { username: 'MQ-GHOST', password: live(server).devicePassword('MQ-GHOST'), clientId: 'g' });
    expect(unknown.client).toBeNull();
    const disabled = await mqttConnect(url, { username: 'MQ-DISABLED', password: live(server).devicePassword('MQ-DISABLED'), clientId: 'd' });
    expect(disabled.client).toBeNull();
    const anonymous = await mqttConnect(url, { clientId: 'anon' });
    expect(anonymous.client).toBeNull();
  });

  it("does not let a device publish on another device's topics", async () => {
    const d = await raw('MQ-RAW');
    // What reaches the link for MQ-2 meanwhile (its simulator keeps sending its own telemetry).
    const mq2: string[] = [];
    const onTelemetry = (sn: string, state: LiveDevice) => {
      if (sn === 'MQ-2' && state.telemetry?.nest?.lat === 10.5) mq2.push('forged telemetry');
    };
    const onOnline = (sn: string, online: boolean) => {
      if (sn === 'MQ-2' && !online) mq2.push('offline');
    };
    live(server).link.on('telemetry', onTelemetry);
    live(server).link.on('online', onOnline);
    try {
      await d.publish('telemetry', envelope('telemetry', nestTelemetry(10.5, 10.5)), { qos: 1, sn: 'MQ-2' });
      await d.publish('presence', envelope('presence', { online: false }), { qos: 1, sn: 'MQ-2', retain: true });
      await d.publish('telemetry', envelope('telemetry', nestTelemetry(11.5, 11.5)), { qos: 1 });
      // Mosquitto handles one connection's messages in order: the refused ones would have reached the link first.
      await until(() => live(server).link.device('MQ-RAW')?.telemetry?.nest?.lat === 11.5, 'the own telemetry of MQ-RAW');
    } finally {
      live(server).link.off('telemetry', onTelemetry);
      live(server).link.off('online', onOnline);
    }
    expect(mq2).toEqual([]);
    expect(live(server).link.isOnline('MQ-2')).toBe(true);
  });

  it("does not let a device receive another device's commands", async () => {
    const d = await raw('MQ-RAW');
    // The plugin refuses another device's topics and wildcards outright (SUBACK 128), like the embedded broker.
    expect(await d.subscribe(topicOf('MQ-1', 'commands')).catch(() => [128])).toEqual([128]);
    expect(await d.subscribe('nest/v1/#').catch(() => [128])).toEqual([128]);
    await d.subscribe(topicOf('MQ-RAW', 'commands'));
    // The timeout only guards against a lost reply: far above any reply time, so the command is sent once.
    const outcome = await live(server).link.command('MQ-1', 'video.start', {}, { timeoutMs: WAIT_LIMIT_MS });
    // The simulator answered (no video in this test: "video unavailable").
    expect(outcome).toMatchObject({ status: 'failed', attempts: 1, reply: { result: 2 } });
    // Mosquitto handled the command before the simulator could answer it; a message for MQ-RAW published now
    // reaches MQ-RAW after anything Mosquitto passed on to it for that command.
    const { client: publisher } = await mqttConnect(url, { username: SERVER_MQTT_USER, password: live(server).secrets.serverPassword, clientId: 'nest-server-mq-barrier' });
    try {
      await publisher!.publishAsync(topicOf('MQ-RAW', 'commands'), 'barrier', { qos: 1 });
      await until(() => d.received.some((r) => r.topic === topicOf('MQ-RAW', 'commands')), 'the message for MQ-RAW');
    } finally {
      publisher?.end(true);
    }
    expect(d.received.filter((r) => r.topic.includes('MQ-1'))).toEqual([]);
  });

  it('drops messages over the link limit that the broker let through, and disconnects above its packet limit', async () => {
    const d = await raw('MQ-RAW');
    const before = live(server).link.stats.dropped.too_large ?? 0;
    await d.publish('telemetry', Buffer.alloc(LINK_MAX_MESSAGE_BYTES + 200, 0x20), { qos: 1 });
    await until(() => (live(server).link.stats.dropped.too_large ?? 0) > before, 'the too_large drop');
    const closed = new Promise<void>((resolve) => d.client.once('close', () => resolve()));
    d.client.publish(topicOf('MQ-RAW', 'telemetry'), Buffer.alloc(LINK_MAX_MESSAGE_BYTES + 4096, 0x20));
    await closed;
    expect(live(server).link.isOnline('MQ-1')).toBe(true);
  });

  it('marks a device offline on its last-will through Mosquitto', async () => {
    // The link counts an accepted message before it acts on it; a silence sweep counts nothing. So the count
    // when MQ-2 goes offline is one above the count after its last other message only if a presence (the will
    // Mosquitto published) took it offline.
    const link = live(server).link;
    const accepted = () => link.counters.read('MQ-2')?.accepted ?? 0;
    let lastOther = accepted();
    let whenOffline = -1;
    const onMessage = (sn: string) => {
      if (sn === 'MQ-2') lastOther = accepted();
    };
    const onOnline = (sn: string, online: boolean) => {
      if (sn === 'MQ-2' && !online) whenOffline = accepted();
    };
    link.on('telemetry', onMessage);
    link.on('state', onMessage);
    link.on('event', onMessage);
    link.on('online', onOnline);
    try {
      fleet.inject('MQ-2', 'offline');
      await until(() => !link.isOnline('MQ-2'), 'MQ-2 offline via its last-will');
    } finally {
      link.off('telemetry', onMessage);
      link.off('state', onMessage);
      link.off('event', onMessage);
      link.off('online', onOnline);
    }
    expect(whenOffline).toBe(lastOther + 1);
  });

  it('disabling a device in the console cuts it off at Mosquitto until it is enabled again; deleting it too', async () => {
    const canLogIn = async (sn: string) => {
      const { client } = await mqttConnect(url, { username: sn, password: live(server).devicePassword(sn), clientId: `${sn}-probe` });
      client?.end(true);
      return client !== null;
    };
    // Registered after the broker started: the server creates its client through the plugin.
    const row = await registerDevice(server, { sn_id: 'MQ-KICK' });
    await until(() => canLogIn('MQ-KICK'), 'MQ-KICK admitted by mosquitto');
    const admin = await adminClient(server);
    const d = await raw('MQ-KICK');
    await d.publish('telemetry', envelope('telemetry', nestTelemetry(12.5, 12.5)), { qos: 1 });
    await until(() => live(server).link.isOnline('MQ-KICK'), 'MQ-KICK online');

    const kicked = new Promise<void>((resolve) => d.client.once('close', () => resolve()));
    expect((await admin.call('deviceEnable', { id: row.id, enabled: 0 })).body.code).toBe(ResultCode.OK);
    await kicked;
    expect(await canLogIn('MQ-KICK')).toBe(false);
    expect(live(server).link.isOnline('MQ-KICK')).toBe(false);

    expect((await admin.call('deviceEnable', { id: row.id, enabled: 1 })).body.code).toBe(ResultCode.OK);
    await until(() => canLogIn('MQ-KICK'), 'MQ-KICK let in again once enabled');

    const back = await raw('MQ-KICK');
    const gone = new Promise<void>((resolve) => back.client.once('close', () => resolve()));
    expect((await admin.call('deviceDelete', { id: row.id })).body.code).toBe(ResultCode.OK);
    await gone;
    expect(await canLogIn('MQ-KICK')).toBe(false);
  });

  it('devices deleted elsewhere while connected and subscribed are kicked, then their clients and roles deleted; the plugin keeps answering', async () => {
    const canLogIn = async (sn: string, password = live(server).devicePassword(sn)) => {
      const { client } = await mqttConnect(url, { username: sn, password, clientId: `${sn}-probe` });
      client?.end(true);
      return client !== null;
    };
    const key = live(server).secrets.deviceKeyHex;
    const nest = await registerDevice(server, { sn_id: 'MQ-DEL' });
    const docks = [];
    for (const sn of ['MQ-DEL-DJI-1', 'MQ-DEL-DJI-2']) docks.push(await registerDevice(server, { sn_id: sn, uav_sn: `${sn}-UAV`, type: 'stable_mini', protocol: DeviceProtocol.DJI }));
    await until(() => canLogIn('MQ-DEL'), 'MQ-DEL admitted by mosquitto');
    const closed: Promise<void>[] = [];
    // Each one connected and subscribed to its own command topics, as a device is.
    const d = await raw('MQ-DEL');
    for (const acl of deviceAcls('MQ-DEL').filter((x) => x.acltype === 'subscribePattern')) expect(await d.subscribe(acl.topic)).toEqual([1]);
    closed.push(new Promise((resolve) => d.client.once('close', () => resolve())));
    for (const dock of docks) {
      const password = djiPassword(key, dock.sn_id, 0);
      await until(() => canLogIn(dock.sn_id, password), `${dock.sn_id} admitted by mosquitto`);
      const { client } = await mqttConnect(url, { username: dock.sn_id, password, clientId: dock.sn_id, reconnectPeriod: 0 });
      expect((await client!.subscribeAsync(`thing/product/${dock.sn_id}/services`, { qos: 1 }))[0]!.qos).toBe(1);
      closed.push(new Promise((resolve) => client!.once('close', () => resolve())));
    }
    // Deleted elsewhere (another instance, the database): no console disconnect precedes the removal.
    for (const row of [nest, ...docks]) await updateDeviceRow(server.db, row.id, { state: RecordState.DELETED });
    await live(server).directory.reload();
    await Promise.all(closed);
    const sns = ['MQ-DEL', ...docks.map((r) => r.sn_id)];
    // Whole lines (with their newline): the log may be read while the broker is still writing the last one.
    await until(() => sns.every((sn) => broker.log().includes(`deleteRole | rolename=${deviceRole(sn)}\n`)), 'the deleted devices\' roles deleted');
    const log = broker.log();
    for (const sn of sns) {
      const kick = log.indexOf(`disableClient | username=${sn}\n`);
      const client = log.indexOf(`deleteClient | username=${sn}\n`);
      expect(kick).toBeGreaterThan(-1);
      expect(client).toBeGreaterThan(kick);
      expect(log.indexOf(`deleteRole | rolename=${deviceRole(sn)}\n`)).toBeGreaterThan(client);
    }
    expect(await canLogIn('MQ-DEL')).toBe(false);
    // The plugin still answers: a device registered next gets its client and logs in.
    await registerDevice(server, { sn_id: 'MQ-DEL-NEXT' });
    await until(() => canLogIn('MQ-DEL-NEXT'), 'MQ-DEL-NEXT admitted after the deletion');
  });

  it('follows registry changes made elsewhere (another instance, the database): disabled and enabled at the broker on reload', async () => {
    const canLogIn = async (sn: string) => {
      const { client } = await mqttConnect(url, { username: sn, password: live(server).devicePassword(sn), clientId: `${sn}-probe` });
      client?.end(true);
      return client !== null;
    };
    const row = await registerDevice(server, { sn_id: 'MQ-SYNC' });
    await until(() => canLogIn('MQ-SYNC'), 'MQ-SYNC admitted by mosquitto');
    await updateDeviceRow(server.db, row.id, { enabled: 0 });
    await live(server).directory.reload();
    await until(async () => !(await canLogIn('MQ-SYNC')), 'MQ-SYNC refused once disabled in the database');
    await updateDeviceRow(server.db, row.id, { enabled: 1 });
    await live(server).directory.reload();
    await until(() => canLogIn('MQ-SYNC'), 'MQ-SYNC admitted again');
  });

  describe('a DJI dock account', () => {
    const dockClients: MqttClient[] = [];
    afterAll(() => {
      for (const c of dockClients) c.end(true);
    });
    const dockLogin = async (c: DjiCredentials, clientId: string) => {
      const res = await mqttConnect(url, { username: c.username, password: c.password, clientId });
      if (res.client) dockClients.push(res.client);
      return res;
    };
    /** The server user's view of the DJI topics, to see what the broker passes on. */
    const watcher = async () => {
      const { client, error } = await mqttConnect(url, { username: SERVER_MQTT_USER, password: live(server).secrets.serverPassword, clientId: `nest-server-dji-${dockClients.length}` });
      if (!client) throw error;
      dockClients.push(client);
      const seen: string[] = [];
      client.on('message', (topic, payload) => seen.push(`${topic} ${payload.toString()}`));
      await client.subscribeAsync(['sys/product/#', 'thing/product/#'], { qos: 1 });
      return seen;
    };

    it("logs in with the gateway sn and its password under any client id, may publish its own and its drone's topics, not another dock's", async () => {
      const key = live(server).secrets.deviceKeyHex;
      const creds = { mqtt_url: url, username: 'MQ-DJI-1', password: djiPassword(key, 'MQ-DJI-1', 0) };
      expect((await dockLogin({ ...creds, password: djiPassword(key, 'MQ-DJI-1', 1) }, 'pilot-wrong')).client).toBeNull();
      const { client: dock } = await dockLogin(creds, 'pilot2-any-client-id');
      expect(dock).not.toBeNull();
      const seen = await watcher();
      await dock!.publishAsync('sys/product/MQ-DJI-1/status', 'topo', { qos: 1 });
      await dock!.publishAsync('thing/product/MQ-DJI-1-UAV/osd', 'drone osd', { qos: 1 });
      // Another dock's and its drone's topics, and a topic it only receives: Mosquitto drops them.
      await dock!.publishAsync('thing/product/MQ-DJI-2/osd', 'forged osd', { qos: 1 });
      await dock!.publishAsync('thing/product/MQ-DJI-2/events', 'forged event', { qos: 1 });
      await dock!.publishAsync('thing/product/MQ-DJI-1/services', 'forged command', { qos: 1 });
      await dock!.publishAsync('thing/product/MQ-DJI-1/events', 'last', { qos: 1 });
      // Mosquitto handles one connection's messages in order: the dropped ones would have arrived before this.
      await until(() => seen.includes('thing/product/MQ-DJI-1/events last'), 'the last own event of MQ-DJI-1');
      expect(seen).toEqual(['sys/product/MQ-DJI-1/status topo', 'thing/product/MQ-DJI-1-UAV/osd drone osd', 'thing/product/MQ-DJI-1/events last']);
      // Its own cloud -> device topic only.
      expect((await dock!.subscribeAsync('thing/product/MQ-DJI-1/services', { qos: 1 }))[0]!.qos).toBe(1);
      expect(await dock!.subscribeAsync('thing/product/+/services', { qos: 1 }).then((g) => g[0]!.qos, () => 128)).toBe(128);
    });

    it('registered while the broker runs gets its account; re-issued credentials kick it and refuse the old password', async () => {
      const admin = await adminClient(server);
      const added = await admin.call<DeviceAdded>('deviceAdd', {
        type: 'stable_mini',
        protocol: DeviceProtocol.DJI,
        airport_name: 'Roof dock',
        uav_name: 'M3D',
        sn_id: 'MQ-DJI-2',
        uav_sn: 'MQ-DJI-2-UAV',
        airport_point: JSON.stringify({ lat: 22.54, lng: 114.05 }),
      });
      expect(added.body.code).toBe(ResultCode.OK);
      const first = added.body.data.dji!;
      const canLogIn = async (c: DjiCredentials) => {
        const { client } = await mqttConnect(url, { username: c.username, password: c.password, clientId: `probe-${Math.random()}` });
        client?.end(true);
        return client !== null;
      };
      await until(() => canLogIn(first), 'MQ-DJI-2 admitted by mosquitto');
      const { client: dock } = await dockLogin(first, 'dock-2');
      const kicked = new Promise<void>((resolve) => dock!.once('close', () => resolve()));
      const enables = () => broker.log().split('enableClient | username=MQ-DJI-2\n').length;
      const before = enables();
      const reissued = await admin.call<DjiCredentials>('deviceDjiCredentials', { id: added.body.data.id });
      expect(reissued.body.code).toBe(ResultCode.OK);
      await kicked;
      await until(() => canLogIn(reissued.body.data), 'MQ-DJI-2 admitted with its new password');
      expect(await canLogIn(first)).toBe(false);
      // The re-issue reaches the broker twice (the call's own account push and the directory's sync, each
      // ending in enableClient): both are done before the next test counts its own.
      await until(() => enables() >= before + 2, 'both account updates of the re-issue at the broker');
    });

    it("follows a new drone sn: the dock is logged out and may then publish the new drone's status, not the old one's", async () => {
      const admin = await adminClient(server);
      const row = (await server.db.selectFrom('devices').selectAll().where('sn_id', '=', 'MQ-DJI-2').executeTakeFirstOrThrow());
      // The server changes an account in steps (password and role, then a kick, then enabled again): the
      // broker's log says when the last one is done.
      const enables = () => broker.log().split('enableClient | username=MQ-DJI-2\n').length;
      const issued = enables();
      const creds = (await admin.call<DjiCredentials>('deviceDjiCredentials', { id: row.id })).body.data;
      await until(() => enables() >= issued + 2, 'the new password of MQ-DJI-2 at the broker');
      const { client: dock } = await dockLogin(creds, 'dock-2-drone');
      const kicked = new Promise<void>((resolve) => dock!.once('close', () => resolve()));
      const enablesBefore = enables();
      const edit = await admin.call('deviceEdit', {
        id: row.id,
        type: 'stable_mini',
        airport_name: 'Roof dock',
        uav_name: 'M3D',
        sn_id: 'MQ-DJI-2',
        uav_sn: 'MQ-DJI-2-NEW',
        airport_point: JSON.stringify({ lat: 22.54, lng: 114.05 }),
      });
      expect(edit.body.code).toBe(ResultCode.OK);
      await kicked;
      await until(() => enables() >= enablesBefore + 2, 'the account of MQ-DJI-2 changed at the broker');
      const seen = await watcher();
      let again: MqttClient | null = null;
      await until(async () => {
        again = (await dockLogin(creds, `dock-2-again-${dockClients.length}`)).client;
        return again !== null;
      }, 'MQ-DJI-2 back in');
      const d = again as unknown as MqttClient;
      await d.publishAsync('thing/product/MQ-DJI-2-UAV/osd', 'old drone', { qos: 1 });
      await d.publishAsync('thing/product/MQ-DJI-2-NEW/osd', 'new drone', { qos: 1 });
      await d.publishAsync('thing/product/MQ-DJI-2/events', 'last', { qos: 1 });
      await until(() => seen.includes('thing/product/MQ-DJI-2/events last'), 'the last event of MQ-DJI-2');
      expect(seen).toEqual(['thing/product/MQ-DJI-2-NEW/osd new drone', 'thing/product/MQ-DJI-2/events last']);
    });

    it('the CLI gives the broker the account of a dock it registers, and closes it at once when it issues new credentials', async () => {
      const cli = async (...argv: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const env = { DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl ?? undefined, MQTT_URL: url, LOG_LEVEL: 'silent' };
        const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
        expect(code, err.join('\n')).toBe(0);
        expect(err).toEqual([]);
        expect(out).toHaveLength(1);
        return JSON.parse(out[0]!) as DjiCredentials;
      };
      const login = async (c: DjiCredentials) => (await mqttConnect(url, { username: c.username, password: c.password, clientId: `cli-probe-${dockClients.length}` })).client;
      const first = await cli('dji-dock-add', '--sn', 'MQ-DJI-CLI', '--drone-sn', 'MQ-DJI-CLI-UAV', '--name', 'CLI dock');
      // Without waiting for the server: the CLI gave the broker the account itself.
      const dock = await login(first);
      expect(dock).not.toBeNull();
      dockClients.push(dock!);
      const kicked = new Promise<void>((resolve) => dock!.once('close', () => resolve()));
      const fresh = await cli('dji-dock-credentials', '--sn', 'MQ-DJI-CLI');
      await kicked;
      expect(await login(first)).toBeNull();
      const again = await login(fresh);
      expect(again).not.toBeNull();
      dockClients.push(again!);
    });
  });
});

describe.runIf(hasMosquitto())('a DJI dock account through Mosquitto with the password file and ACL (--auth files)', () => {
  let server: TestServer;
  let broker: MosquittoBroker;
  let url: string;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    const dataDir = await tempDir('nest-mosq-files-');
    const port = await reservedPort();
    url = `mqtt://127.0.0.1:${port}`;
    server = await startTestServer({ dataDir, config: { mqttUrl: url } });
    await registerDevice(server, { sn_id: 'MF-DJI-1', uav_sn: 'MF-DJI-1-UAV', type: 'stable_mini', protocol: DeviceProtocol.DJI });
    await registerDevice(server, { sn_id: 'MF-DJI-2', uav_sn: 'MF-DJI-2-UAV', type: 'stable_mini', protocol: DeviceProtocol.DJI });
    broker = await startMosquitto({ dataDir, databaseUrl: server.databaseUrl, port, auth: 'files' });
  });
  afterAll(async () => {
    for (const c of clients) c.end(true);
    await server?.close();
    await broker?.close();
  });

  const connect = async (username: string, password: string, clientId: string) => {
    const res = await mqttConnect(url, { username, password, clientId });
    if (res.client) clients.push(res.client);
    return res;
  };

  it("logs in with its password and publishes its own and its drone's topics only", async () => {
    const key = live(server).secrets.deviceKeyHex;
    expect((await connect('MF-DJI-1', djiPassword(key, 'MF-DJI-1', 1), 'files-wrong')).client).toBeNull();
    const { client: dock } = await connect('MF-DJI-1', djiPassword(key, 'MF-DJI-1', 0), 'files-dock-1');
    expect(dock).not.toBeNull();
    const { client: watcher } = await connect(SERVER_MQTT_USER, live(server).secrets.serverPassword, 'nest-server-files-watch');
    const seen: string[] = [];
    watcher!.on('message', (topic, payload) => seen.push(`${topic} ${payload.toString()}`));
    await watcher!.subscribeAsync(['sys/product/#', 'thing/product/#'], { qos: 1 });
    await dock!.publishAsync('thing/product/MF-DJI-1/osd', 'own', { qos: 1 });
    await dock!.publishAsync('thing/product/MF-DJI-1-UAV/state', 'drone', { qos: 1 });
    await dock!.publishAsync('thing/product/MF-DJI-2/osd', 'forged', { qos: 1 });
    await dock!.publishAsync('thing/product/MF-DJI-2-UAV/osd', 'forged drone', { qos: 1 });
    await dock!.publishAsync(topicOf('MF-DJI-2', 'telemetry'), 'forged nest', { qos: 1 });
    await dock!.publishAsync('thing/product/MF-DJI-1/events', 'last', { qos: 1 });
    await until(() => seen.includes('thing/product/MF-DJI-1/events last'), 'the last own event of MF-DJI-1');
    expect(seen).toEqual(['thing/product/MF-DJI-1/osd own', 'thing/product/MF-DJI-1-UAV/state drone', 'thing/product/MF-DJI-1/events last']);
  });
});
