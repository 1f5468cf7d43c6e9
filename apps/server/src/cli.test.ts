import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ResultCode } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { devicePassword } from './link/credentials.js';
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
