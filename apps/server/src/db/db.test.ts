import { Company, ResultCode } from '@nest/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ACCOUNT, TEST_DB, TestClient, startTestServer, testConfig, type TestServer } from '../../test/helpers.js';
import { seedFunctions } from '../functions/seed.js';
import { parseFunList } from '../users/store.js';
import { MIGRATIONS, migrateToLatest } from './migrate.js';
import { ADMIN_BOOTSTRAP_KEY, bootstrapAdmin, seed } from '../boot/seed.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const count = async (table: 'companies' | 'functions' | 'users' | 'settings') =>
  Number((await server.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('migrations', () => {
  it('are all applied, and running them again is a no-op', async () => {
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(server.db);
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());
    expect(await migrateToLatest(server.db)).toEqual([]);
    expect(await migrateToLatest(server.db)).toEqual([]);
  });

  it('create the sessions table with the documented columns (times in seconds)', async () => {
    await server.db
      .insertInto('users')
      .values({
        u_id: 'u-cols',
        nick: 'n',
        phone: '13700000000',
        company_id: 'wk',
        start_time: 0,
        end_time: 4_765_104_000,
        password_hash: 'x',
        password_changed_at: 0,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    await sql`INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at, revoked_at)
              VALUES ('s-cols', 'u-cols', 'h-cols', 1, 2, 3, NULL)`.execute(server.db);
    const row = await server.db.selectFrom('sessions').selectAll().where('id', '=', 's-cols').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: 'u-cols', token_hash: 'h-cols', created_at: 1, last_seen_at: 2, expires_at: 3, revoked_at: null });
    // token_hash is unique
    await expect(
      sql`INSERT INTO sessions (id, user_id, token_hash, created_at, last_seen_at, expires_at) VALUES ('s2', 'u-cols', 'h-cols', 1, 2, 3)`.execute(server.db),
    ).rejects.toThrow();
  });

  it('make accounts unique case-insensitively', async () => {
    const values = { nick: 'n', company_id: 'wk', start_time: 0, end_time: 1, password_hash: 'x', password_changed_at: 0, created_at: 0, updated_at: 0 };
    await server.db.insertInto('users').values({ ...values, u_id: 'u-a', phone: 'Case@Example.com' }).execute();
    await expect(server.db.insertInto('users').values({ ...values, u_id: 'u-b', phone: 'case@example.COM' }).execute()).rejects.toThrow();
  });

  it(`run on ${TEST_DB}`, () => {
    expect(server.app.nest.deps.dbKind).toBe(TEST_DB);
  });
});

describe('seed', () => {
  it('creates the companies, the functions and the first administrator', async () => {
    const companies = await server.db.selectFrom('companies').select('code').orderBy('code').execute();
    expect(companies.map((c) => c.code)).toEqual(Company.values().slice().sort());
    expect(await count('functions')).toBe(seedFunctions().length);
    const admin = await server.db.selectFrom('users').selectAll().where('phone', '=', ADMIN_ACCOUNT).executeTakeFirstOrThrow();
    expect(admin.company_id).toBe('wk');
    expect(parseFunList(admin.fun_list)).toEqual(['super_administrator']);
  });

  it('is idempotent and never overwrites changes', async () => {
    await server.db.updateTable('functions').set({ name_en: 'Renamed' }).where('fun_id', '=', 'menu_home').execute();
    const before = await Promise.all([count('companies'), count('functions'), count('users'), count('settings')]);
    const again = await seed(server.db, server.config);
    expect(again.created).toBe(false);
    await seed(server.db, server.config);
    expect(await Promise.all([count('companies'), count('functions'), count('users'), count('settings')])).toEqual(before);
    const home = await server.db.selectFrom('functions').select('name_en').where('fun_id', '=', 'menu_home').executeTakeFirstOrThrow();
    expect(home.name_en).toBe('Renamed');
  });

  it('does not bring the first administrator back once it was set up', async () => {
    await server.db.updateTable('users').set({ phone: 'renamed-admin@nest.local' }).where('phone', '=', ADMIN_ACCOUNT).execute();
    const res = await bootstrapAdmin(server.db, server.config);
    expect(res).toMatchObject({ created: false, account: ADMIN_ACCOUNT });
    expect(await server.db.selectFrom('users').select('u_id').where('phone', '=', ADMIN_ACCOUNT).executeTakeFirst()).toBeUndefined();
    const setting = await server.db.selectFrom('settings').select('value').where('key', '=', ADMIN_BOOTSTRAP_KEY).executeTakeFirstOrThrow();
    expect(setting.value).toBe(ADMIN_ACCOUNT);
    await server.db.updateTable('users').set({ phone: ADMIN_ACCOUNT }).where('phone', '=', 'renamed-admin@nest.local').execute();
  });

  it('generates a strong password when ADMIN_PASSWORD is unset, and that password signs in', async () => {
    await server.db.deleteFrom('settings').where('key', '=', ADMIN_BOOTSTRAP_KEY).execute();
    const config = { ...testConfig(server.dataDir, server.databaseUrl), adminAccount: 'root@nest.local', adminPassword: null };
    const res = await bootstrapAdmin(server.db, { ...config, scrypt: server.config.scrypt });
    expect(res.created).toBe(true);
    expect(res.fromEnv).toBe(false);
    expect(res.password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const login = await new TestClient(server).login('root@nest.local', res.password!);
    expect(login.body.code).toBe(ResultCode.OK);
    expect(login.body.data.fun_list).toEqual(['super_administrator']);
    expect((await bootstrapAdmin(server.db, config)).created).toBe(false);
  });
});
