import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { DeviceProtocol, ResultCode } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { devicePassword, djiPassword } from './link/credentials.js';
import { findDeviceBySn } from './devices/store.js';
import { live, mqttConnect } from '../test/live.js';
import { TEST_SCRYPT, TestClient, createTestDatabase, startTestServer, tempDir, type TestServer } from '../test/helpers.js';
import { runTs } from '../test/process.js';
import { loadSimulator } from '../test/simulator.js';

/** The launcher's CLI gives runCli the simulator's demoFleet (apps/launcher/src/cli.ts); so do these tests. */
const { demoFleet } = await loadSimulator();

let server: TestServer;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  server = await startTestServer();
  env = { DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl ?? undefined, LOG_LEVEL: 'silent' };
});
afterAll(async () => server?.close());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, { scrypt: TEST_SCRYPT }, { demoFleet });
  return { code, out, err: err.join('\n') };
}

describe('cli user-add', () => {
  it('creates a user with functions and company, printing its u_id; the user signs in', async () => {
    const res = await cli('user-add', '--account', '13911112222', '--password', 'limited-pass', '--nick', 'Limited', '--funs', 'menu_home,fun_list', '--company', 'gzGh');
    expect(res.code).toBe(0);
    expect(res.out).toHaveLength(1);
    const uId = res.out[0]!;
    expect(uId).toMatch(/^[0-9a-f-]{36}$/);
    const login = await new TestClient(server).login('13911112222', 'limited-pass');
    expect(login.body.code).toBe(ResultCode.OK);
    expect(login.body.data).toMatchObject({ u_id: uId, nick: 'Limited', fun_list: ['menu_home', 'fun_list'], company: 'gzGh' });
  });

  it('defaults to company wk and no functions; accepts --opt=value', async () => {
    const res = await cli('user-add', '--account=Plain@Example.com', '--password=plain-pass', '--nick=Plain');
    expect(res.code).toBe(0);
    const login = await new TestClient(server).login('plain@example.com', 'plain-pass');
    expect(login.body.data).toMatchObject({ fun_list: [], company: 'wk', email: 'Plain@Example.com' });
  });

  it.each([
    [['user-add', '--account', 'nope', '--password', 'secret-1', '--nick', 'N'], '--account must be'],
    [['user-add', '--account', '13911113333', '--password', 'short', '--nick', 'N'], '--password must have 6 to 32 characters'],
    [['user-add', '--account', '13911113333', '--password', 'secret-1'], '--nick is required'],
    [['user-add', '--account', '13911113333', '--password', 'secret-1', '--nick', 'N', '--funs', 'nope'], 'unknown function id(s): nope'],
    [['user-add', '--account', '13911113333', '--password', 'secret-1', '--nick', 'N', '--company', 'acme'], 'unknown company "acme"'],
    [['user-add', '--account', 'admin@NEST.local', '--password', 'secret-1', '--nick', 'N'], 'account admin@NEST.local is already in use'],
    [['user-add', '--bogus', 'x'], 'unknown option --bogus'],
    [['user-add', '--account'], '--account needs a value'],
    [['frobnicate'], 'unknown command "frobnicate"'],
    [[], 'missing command'],
  ])('refuses %j', async (argv, message) => {
    const res = await cli(...argv);
    expect(res.code).toBe(1);
    expect(res.err).toContain(message);
    expect(res.err).toContain('Usage:');
  });
});

describe('cli user-list', () => {
  it('lists users, one tab-separated line each', async () => {
    const res = await cli('user-list');
    expect(res.code).toBe(0);
    const admin = res.out.find((l) => l.split('\t')[1] === 'admin@nest.local');
    expect(admin?.split('\t').slice(2)).toEqual(['管理员', 'wk', '10', 'super_administrator']);
    expect(res.out.some((l) => l.includes('13911112222'))).toBe(true);
  });

  it('runs as a command (the built apps/server/dist/cli.js)', async () => {
    const child = runTs('cli.ts', ['user-list'], env);
    expect(await child.exited).toBe(0);
    expect(child.stdout()).toContain('admin@nest.local');
    const bad = runTs('cli.ts', ['user-add', '--account', 'x', '--password', 'secret-1', '--nick', 'N'], env);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toContain('--account must be a mainland mobile number or an e-mail address');
  });

  it('works on a data dir the server never saw (runs migrations itself)', async () => {
    const dir = await tempDir();
    const db = await createTestDatabase();
    try {
      const out: string[] = [];
      const code = await runCli(['user-list'], { DATA_DIR: dir, DATABASE_URL: db.url ?? undefined }, { out: (l) => out.push(l), err: () => undefined });
      expect(code).toBe(0);
      expect(out).toEqual([]);
    } finally {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('cli device commands', () => {
  it('demo-fleet registers the demo devices once and prints their sns; device-list lists them', async () => {
    const res = await cli('demo-fleet', '--nests', '2', '--drones', '1', '--prefix', 'CLI');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toEqual(['CLI-STABLE-01', 'CLI-MINI-01', 'CLI-ALONE-01']);
    expect((await cli('demo-fleet', '--nests', '2', '--drones', '1', '--prefix', 'CLI')).code).toBe(0);
    const list = await cli('device-list');
    expect(list.code).toBe(0);
    const rows = list.out.filter((l) => l.startsWith('CLI-')).map((l) => l.split('\t'));
    expect(rows.map((r) => [r[0], r[1], r[3], r[4]])).toEqual([
      ['CLI-STABLE-01', 'stable', 'wk', '1'],
      ['CLI-MINI-01', 'stable_mini', 'wk', '1'],
      ['CLI-ALONE-01', 'alone', 'wk', '1'],
    ]);
    expect((await cli('demo-fleet', '--nests', 'x')).err).toContain('--nests must be an integer from 0 to 200');
    expect((await cli('demo-fleet', '--company', 'nope')).err).toContain('unknown company "nope"');
    // The server's own CLI has no simulator: it names the launcher's.
    const alone = await runCli(['demo-fleet'], env, { out: () => undefined, err: (l) => expect(l).toContain('apps/launcher/src/cli.ts demo-fleet') }, { scrypt: TEST_SCRYPT });
    expect(alone).toBe(1);
  });

  it('device-key and device-secret print what the broker and the simulator need', async () => {
    const key = await cli('device-key');
    expect(key.code).toBe(0);
    expect(key.out[0]).toMatch(/^[0-9a-f]{64}$/);
    // The running server uses the same key file.
    expect(key.out[0]).toBe(server.app.nest.deps.live.secrets.deviceKeyHex);
    const secret = await cli('device-secret', 'CLI-STABLE-01');
    expect(secret.code).toBe(0);
    expect(secret.out).toEqual([devicePassword(key.out[0]!, 'CLI-STABLE-01')]);
    expect((await cli('device-secret', 'NO-SUCH')).err).toContain('no device with serial number NO-SUCH');
    expect((await cli('device-secret')).code).toBe(1);
  });

  it('mosquitto-files writes the dynamic-security configuration for the server and every enabled device', async () => {
    const dir = await tempDir('nest-cli-dynsec-');
    try {
      expect((await cli('dji-dock-add', '--sn', 'CLI-DJI-M', '--drone-sn', 'CLI-DJI-M-UAV', '--name', 'Files dock')).code).toBe(0);
      const plugin = '/opt/mosquitto/mosquitto_dynamic_security.so';
      const res = await cli('mosquitto-files', '--dir', dir, '--port', '1998', '--plugin', plugin);
      expect(res.code, res.err).toBe(0);
      const conf = await readFile(path.join(dir, 'mosquitto.conf'), 'utf8');
      expect(conf).toContain(`plugin ${plugin}\nplugin_opt_config_file ${path.join(dir, 'dynamic-security.json')}\n`);
      expect(conf).not.toContain('password_file');
      const config = JSON.parse(await readFile(path.join(dir, 'dynamic-security.json'), 'utf8')) as {
        clients: { username: string; password: string; salt: string; iterations: number; roles: { rolename: string }[] }[];
      };
      const users = config.clients.map((c) => c.username);
      expect(users[0]).toBe('nest-server');
      expect(users).toEqual(expect.arrayContaining(['CLI-STABLE-01', 'CLI-MINI-01', 'CLI-ALONE-01']));
      expect(config.clients.find((c) => c.username === 'CLI-MINI-01')).toMatchObject({ iterations: 101, roles: [{ rolename: 'nest-device-CLI-MINI-01' }] });
      // A DJI dock: its own role with exactly its DJI topics and its drone's osd/state.
      const roles = (config as unknown as { roles: { rolename: string; acls: { acltype: string; topic: string }[] }[] }).roles;
      const dock = roles.find((r) => r.rolename === 'nest-device-CLI-DJI-M')!;
      const send = dock.acls.filter((a) => a.acltype === 'publishClientSend').map((a) => a.topic);
      expect(send).toEqual(expect.arrayContaining(['sys/product/CLI-DJI-M/status', 'thing/product/CLI-DJI-M/events', 'thing/product/CLI-DJI-M-UAV/osd']));
      expect(send.every((t) => t.includes('/CLI-DJI-M/') || t.includes('/CLI-DJI-M-UAV/'))).toBe(true);
      expect(dock.acls.filter((a) => a.acltype === 'subscribePattern').map((a) => a.topic)).toContain('thing/product/CLI-DJI-M/services');
      expect(roles.find((r) => r.rolename === 'nest-server')!.acls.map((a) => a.topic)).toContain('thing/product/#');
      expect((await stat(path.join(dir, 'dynamic-security.json'))).mode & 0o777).toBe(0o600);
      expect((await cli('mosquitto-files', '--dir', dir, '--auth', 'ldap')).err).toContain('--auth must be dynsec or files');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('mosquitto-files --auth files writes the password file and ACL for every enabled device', async () => {
    const dir = await tempDir('nest-cli-mosq-');
    try {
      const res = await cli('mosquitto-files', '--dir', dir, '--port', '1999', '--auth', 'files');
      expect(res.code, res.err).toBe(0);
      const passwd = await readFile(path.join(dir, 'nest.passwd'), 'utf8');
      const users = passwd.trim().split('\n').map((l) => l.split(':')[0]);
      expect(users[0]).toBe('nest-server');
      expect(users).toEqual(expect.arrayContaining(['CLI-STABLE-01', 'CLI-MINI-01', 'CLI-ALONE-01']));
      expect(passwd).toMatch(/^nest-server:\$7\$101\$[A-Za-z0-9+/=]{16}\$[A-Za-z0-9+/=]{88}$/m);
      expect(users).toContain('CLI-DJI-M');
      const acl = await readFile(path.join(dir, 'nest.acl'), 'utf8');
      expect(acl).toContain('user CLI-DJI-M\ntopic write sys/product/CLI-DJI-M/status\n');
      expect(acl).toContain('topic write thing/product/CLI-DJI-M-UAV/osd\n');
      expect(acl).toContain('topic read thing/product/CLI-DJI-M/services\n');
      expect((await stat(path.join(dir, 'nest.passwd'))).mode & 0o777).toBe(0o600);
      expect(await readFile(path.join(dir, 'mosquitto.conf'), 'utf8')).toContain('listener 1999 127.0.0.1');
      // Mosquitto does not create its persistence directory itself.
      expect((await stat(path.join(dir, 'data'))).isDirectory()).toBe(true);
      expect((await cli('mosquitto-files')).err).toContain('mosquitto-files needs --dir');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('cli DJI docks', () => {
  const djiEnv = () => ({ ...env, DEVICE_MQTT_URL: 'tcp://192.168.1.10:1883' });
  async function cliWith(e: Record<string, string | undefined>, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, e, { out: (l) => out.push(l), err: (l) => err.push(l) }, { scrypt: TEST_SCRYPT });
    return { code, out, err: err.join('\n') };
  }

  it('dji-dock-add registers the dock with its drone while the server runs and prints one JSON line it logs in with', async () => {
    const res = await cliWith(djiEnv(), 'dji-dock-add', '--sn', 'CLI-DJI-1', '--drone-sn', 'CLI-DJI-1-UAV', '--name', 'Pier dock');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toHaveLength(1);
    const creds = JSON.parse(res.out[0]!) as { mqtt_url: string; username: string; password: string };
    const row = (await findDeviceBySn(server.db, 'CLI-DJI-1'))!;
    expect(creds).toEqual({ mqtt_url: 'tcp://192.168.1.10:1883', username: 'CLI-DJI-1', password: djiPassword(live(server).secrets.deviceKeyHex, 'CLI-DJI-1', 0) });
    // The first super administrator's company; a Dock 2 / Dock 3 with its drone.
    expect(row).toMatchObject({ protocol: DeviceProtocol.DJI, type: 'stable_mini', company_id: 'wk', uav_sn: 'CLI-DJI-1-UAV', uav_model: 'M3D', airport_name: 'Pier dock' });
    // The running server's broker lets it in at once, with any client id.
    const { client } = await mqttConnect(live(server).brokerUrl, { username: creds.username, password: creds.password, clientId: 'pilot2-xyz' });
    expect(client).not.toBeNull();
    client!.end(true);
  });

  it('dji-dock-credentials issues new ones: the old password is refused, its connection closed on the next registry read', async () => {
    const added = JSON.parse((await cliWith(djiEnv(), 'dji-dock-add', '--sn', 'CLI-DJI-2', '--drone-sn', 'CLI-DJI-2-UAV', '--name', 'Roof', '--model', 'M4D', '--company', 'gzGh')).out[0]!) as {
      username: string;
      password: string;
    };
    expect((await findDeviceBySn(server.db, 'CLI-DJI-2'))).toMatchObject({ company_id: 'gzGh', uav_model: 'M4D' });
    await live(server).directory.reload();
    const { client } = await mqttConnect(live(server).brokerUrl, { username: added.username, password: added.password, clientId: 'dock-2' });
    const closed = new Promise<void>((resolve) => client!.once('close', () => resolve()));
    const res = await cliWith(djiEnv(), 'dji-dock-credentials', '--sn', 'CLI-DJI-2');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toHaveLength(1);
    const fresh = JSON.parse(res.out[0]!) as { username: string; password: string };
    expect(fresh.password).not.toBe(added.password);
    expect((await mqttConnect(live(server).brokerUrl, { username: added.username, password: added.password, clientId: 'dock-2b' })).error?.code).toBe(4);
    // What the server's periodic registry read does: the connection made with the old password is closed.
    await live(server).directory.reload();
    await closed;
    const again = await mqttConnect(live(server).brokerUrl, { username: fresh.username, password: fresh.password, clientId: 'dock-2c' });
    expect(again.client).not.toBeNull();
    again.client!.end(true);
  });

  it.each([
    [['dji-dock-add', '--sn', 'CLI-DJI-1', '--drone-sn', 'X-UAV', '--name', 'Again'], 'serial number CLI-DJI-1 is already registered'],
    [['dji-dock-add', '--sn', 'bad/sn', '--drone-sn', 'X-UAV', '--name', 'N'], '--sn must be the dock serial number'],
    [['dji-dock-add', '--sn', 'CLI-DJI-9', '--name', 'N'], '--drone-sn must be'],
    [['dji-dock-add', '--sn', 'CLI-DJI-9', '--drone-sn', 'CLI-DJI-9', '--name', 'N'], '--drone-sn must be'],
    [['dji-dock-add', '--sn', 'CLI-DJI-9', '--drone-sn', 'X-UAV'], '--name is required'],
    [['dji-dock-add', '--sn', 'CLI-DJI-9', '--drone-sn', 'X-UAV', '--name', 'N', '--company', 'acme'], 'unknown company "acme"'],
    [['dji-dock-credentials', '--sn', 'NO-SUCH'], 'no device with serial number NO-SUCH'],
    [['dji-dock-credentials', '--sn', 'CLI-STABLE-01'], 'CLI-STABLE-01 speaks the nest protocol'],
    [['dji-dock-credentials'], 'dji-dock-credentials needs --sn'],
  ])('refuses %j with exit code 1 and nothing on stdout', async (argv, message) => {
    const res = await cliWith(djiEnv(), ...argv);
    expect(res.code).toBe(1);
    expect(res.out).toEqual([]);
    expect(res.err).toContain(message);
  });

  it('runs as a command, printing only the JSON line on stdout', async () => {
    const child = runTs('cli.ts', ['dji-dock-add', '--sn', 'CLI-DJI-3', '--drone-sn', 'CLI-DJI-3-UAV', '--name', 'Shell dock'], env);
    expect(await child.exited).toBe(0);
    const lines = child.stdout().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(Object.keys(JSON.parse(lines[0]!) as object)).toEqual(['mqtt_url', 'username', 'password']);
  });
});
