import { rm } from 'node:fs/promises';
import { ResultCode } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { TEST_SCRYPT, TestClient, createTestDatabase, startTestServer, tempDir, type TestServer } from '../test/helpers.js';
import { runTs } from '../test/process.js';

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
  const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, { scrypt: TEST_SCRYPT });
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
    expect(admin?.split('\t').slice(2)).toEqual(['Administrator', 'wk', '10', 'super_administrator']);
    expect(res.out.some((l) => l.includes('13911112222'))).toBe(true);
  });

  it('runs as a command (node --import tsx apps/server/src/cli.ts)', async () => {
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
