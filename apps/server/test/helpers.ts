/**
 * Test helpers: a fresh database per test file (SQLite file in a temp DATA_DIR, or a new PostgreSQL
 * database on the server-pg cluster, chosen by NEST_TEST_DB), an app built with buildApp, and a client
 * that builds and signs calls exactly like the browser (contracts signedCallBody / sealPassword, each
 * password envelope bound to the os_timestamp of the call that carries it).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  APP_CODE,
  APP_IDS,
  PUBLIC_KEYS_PATH,
  SUPER_ADMINISTRATOR,
  callUrl,
  calls,
  licencePlain,
  md5Hex,
  sealPassword,
  sealWithPublicKey,
  signedCallBody,
  type CallName,
  type Envelope,
  type Lang,
  type PublicKeys,
  type User,
} from '@nest/contracts';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { hashPassword } from '../src/auth/passwords.js';
import type { Handlers } from '../src/calls/types.js';
import { loadConfig, type Config, type ScryptCost } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { seed } from '../src/boot/seed.js';
import { createUser, type NewUser } from '../src/users/store.js';
import { prepareDataDir } from './data-dir.js';
import { createDatabase, dropDatabase } from './infra.js';

export const TEST_DB: 'sqlite' | 'postgres' = process.env.NEST_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
/** Cheap scrypt for tests (the default cost is tested on its own). */
export const TEST_SCRYPT: ScryptCost = { logN: 12, r: 8, p: 1 };
export const ADMIN_ACCOUNT = 'admin@nest.local';
export const ADMIN_PASSWORD = 'admin-secret-1';

export async function tempDir(prefix = 'nest-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

export interface TestDatabase {
  /** PostgreSQL URL, or null for SQLite (the file lives in DATA_DIR). */
  url: string | null;
  drop(): Promise<void>;
}

/** A new empty database: on PostgreSQL `CREATE DATABASE` with a random name; on SQLite nothing to do. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DB === 'sqlite') return { url: null, drop: async () => undefined };
  const adminUrl = inject('pgAdminUrl');
  const url = await createDatabase(adminUrl);
  return { url, drop: () => dropDatabase(adminUrl, url) };
}

/** Configuration for tests: loopback, silent logs, cheap scrypt, known first administrator. */
export function testConfig(dataDir: string, databaseUrl: string | null, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? undefined,
      LOG_LEVEL: 'silent',
      ADMIN_ACCOUNT,
      ADMIN_PASSWORD,
      WEB_DIST: path.join(dataDir, 'no-web-dist'),
      PORT: '0',
      MQTT_PORT: '0',
      RTMP_PORT: '0',
      // Every successful answer is checked against its call's answer schema: a mismatch fails the test.
      CHECK_ANSWERS: 'on',
      // The broker in the test's own thread, reached in memory (a server starts without a worker thread).
      // Its thread of its own, the product's default, is what broker/thread.test.ts and the e2e suite run.
      MQTT_BROKER_THREAD: 'off',
    }),
    scrypt: TEST_SCRYPT,
    ...overrides,
  };
}

export interface TestServer {
  app: FastifyInstance;
  config: Config;
  dataDir: string;
  databaseUrl: string | null;
  /** A second connection to the same database, for arranging and inspecting rows. */
  db: Database;
  keys: PublicKeys;
  /** Builds another app on the same data dir and database (e.g. to check persistence). */
  rebuild(overrides?: Partial<Config>): Promise<FastifyInstance>;
  /** Closes the apps and connections but keeps the data directory and database (a restart starts another on them). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  config?: Partial<Config>;
  handlers?: Handlers;
  /** Use this (existing) data directory instead of a new temporary one. */
  dataDir?: string;
  /**
   * Use this (existing) PostgreSQL database instead of a new one, e.g. one infra.ts createDatabase made
   * (several instances, a restart); close() leaves it in place.
   */
  databaseUrl?: string;
  /** Start on an empty DATA_DIR: the server generates its keys and cuts its basemap itself (no template). */
  fresh?: boolean;
}

/**
 * Fills `dataDir` with what a server makes on its first start (keys and the basemap to its prebuild zoom),
 * leaving whatever is there already: a copy of the run's template DATA_DIR under vitest (template-setup.ts),
 * else (a bench) made here (data-dir.ts), so that no server measured in a bench cuts the basemap in the
 * background while it is measured.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  let template: string | undefined;
  try {
    template = inject('dataTemplate');
  } catch {
    template = undefined;
  }
  if (template) await cp(template, dataDir, { recursive: true, force: false, errorOnExist: false });
  else await prepareDataDir(dataDir);
}

/** A migrated, seeded database and an app on it; close() removes everything. */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDir());
  if (!options.fresh) await seedDataDir(dataDir);
  const database: TestDatabase = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await createTestDatabase();
  const config = testConfig(dataDir, database.url, options.config);
  const handle = openDatabase(config);
  await migrateToLatest(handle.db);
  await seed(handle.db, config);
  const app = await buildApp(config, { database: handle, handlers: options.handlers });
  const db = openDatabase(config).db;
  const keys = (await app.inject({ method: 'GET', url: PUBLIC_KEYS_PATH })).json<PublicKeys>();
  const extra: FastifyInstance[] = [];
  return {
    app,
    config,
    dataDir,
    databaseUrl: database.url,
    db,
    keys,
    rebuild: async (overrides = {}) => {
      const other = await buildApp({ ...config, ...overrides });
      extra.push(other);
      return other;
    },
    stop: async () => {
      await Promise.allSettled([app.close(), ...extra.map((a) => a.close()), db.destroy()]);
    },
    close: async () => {
      await Promise.allSettled([app.close(), ...extra.map((a) => a.close()), db.destroy()]);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type Fields = Record<string, string | number>;

export interface CallOptions {
  /** Override the token sent (default: the client's). */
  token?: string;
  /** os_timestamp in ms (default now). */
  timestamp?: number;
  /** Replace the computed pmd. */
  pmd?: string;
  lang?: Lang;
  /** Common fields to leave out. */
  omit?: string[];
  /** Raw body instead of the built one (still form-encoded unless contentType says otherwise). */
  rawBody?: string;
  contentType?: string;
  app?: FastifyInstance;
}

export interface CallResponse<D = unknown> {
  status: number;
  body: Envelope<D>;
}

/**
 * The os_timestamp each password envelope sealed by TestClient.seal was bound to: a call carrying one of
 * them is sent with that timestamp (unless the test gives another), as the browser sends a request with the
 * timestamp it sealed the envelope for.
 */
const sealedAt = new Map<string, number>();

/** The timestamp of the first sealed envelope among the fields, if any. */
const envelopeStamp = (fields: Fields): number | undefined => {
  for (const v of Object.values(fields)) {
    const stamp = typeof v === 'string' ? sealedAt.get(v) : undefined;
    if (stamp !== undefined) return stamp;
  }
  return undefined;
};

/** Builds the payload the browser sends: common fields, the call's fields, and the pmd signature. */
export function browserPayload(name: CallName, fields: Fields, token: string, opts: CallOptions = {}): URLSearchParams {
  const def = calls[name];
  const timestamp = opts.timestamp ?? envelopeStamp(fields) ?? Date.now();
  const text: Record<string, string> = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const body = signedCallBody(def, text, token, timestamp, opts.lang ?? 'en');
  if (opts.pmd !== undefined) body.pmd = opts.pmd;
  for (const k of opts.omit ?? []) delete body[k];
  // The call's own fields as given, also one named like a common field (hostile forms).
  return new URLSearchParams({ ...body, ...text });
}

export class TestClient {
  token = '';
  user: User | null = null;

  constructor(readonly server: TestServer) {}

  /** The timestamp the envelopes sealed for this client's next call are bound to (its first seal's time). */
  private nextStamp: number | null = null;

  /**
   * Seals a password like the browser, bound to the timestamp of the next call this client makes: every
   * envelope sealed before that call shares one timestamp (/user/psw carries two), and the call is sent
   * with it. `timestamp` and `nonce` pin them, for tests of replays and mismatches.
   */
  async seal(password: string, opts: { timestamp?: number; nonce?: string } = {}): Promise<string> {
    const timestamp = opts.timestamp ?? (this.nextStamp ??= Date.now());
    const sealed = await sealPassword(password, this.server.keys.password, timestamp, opts.nonce);
    sealedAt.set(sealed, timestamp);
    return sealed;
  }

  async call<D = unknown>(name: CallName, fields: Fields = {}, opts: CallOptions = {}): Promise<CallResponse<D>> {
    const app = opts.app ?? this.server.app;
    const token = opts.token ?? this.token;
    this.nextStamp = null;
    const payload = opts.rawBody ?? browserPayload(name, fields, token, opts).toString();
    const res = await app.inject({
      method: 'POST',
      url: callUrl(calls[name], this.server.config.bases),
      headers: { 'content-type': opts.contentType ?? 'application/x-www-form-urlencoded' },
      payload,
    });
    return { status: res.statusCode, body: res.json<Envelope<D>>() };
  }

  /** Signs in like the login screen; keeps the token on success. */
  async login(account: string, password: string, opts: CallOptions = {}): Promise<CallResponse<User>> {
    const res = await this.call<User>('login', { account, password: await this.seal(password) }, { ...opts, token: '' });
    if (res.body.code === 2000) {
      this.token = res.body.data.token;
      this.user = res.body.data;
    }
    return res;
  }

  /** The licence of push message 100, as the browser builds it. */
  licence(token = this.token): Promise<string> {
    return sealWithPublicKey(md5Hex(licencePlain(token, APP_IDS, APP_CODE)), this.server.keys.licence);
  }
}

/** Signs in as the seeded first administrator. */
export async function adminClient(server: TestServer): Promise<TestClient> {
  const client = new TestClient(server);
  const res = await client.login(ADMIN_ACCOUNT, ADMIN_PASSWORD);
  if (res.body.code !== 2000) throw new Error(`admin sign-in failed: ${JSON.stringify(res.body)}`);
  return client;
}

let counter = 0;
/** A unique mainland mobile number for test users. */
export const uniquePhone = (): string => `139${String(Date.now() % 1e5).padStart(5, '0')}${String(counter++ % 1000).padStart(3, '0')}`;

export interface TestUser {
  u_id: string;
  account: string;
  password: string;
}

/** Adds a user straight into the database (like the CLI does). */
export async function addUser(
  server: TestServer,
  input: Partial<Omit<NewUser, 'passwordHash'>> & { password?: string } = {},
): Promise<TestUser> {
  const account = input.account ?? uniquePhone();
  const password = input.password ?? 'user-secret-1';
  const row = await createUser(server.db, {
    nick: input.nick ?? 'Tester',
    account,
    email: input.email,
    passwordHash: await hashPassword(password, TEST_SCRYPT),
    companyId: input.companyId ?? 'wk',
    funList: input.funList ?? [],
    startTime: input.startTime,
    endTime: input.endTime,
    team: input.team,
    notes: input.notes,
    state: input.state,
  });
  return { u_id: row.u_id, account, password };
}

/** Adds a user and signs in as them. */
export async function userClient(
  server: TestServer,
  input: Parameters<typeof addUser>[1] = {},
): Promise<TestClient & { account: TestUser }> {
  const account = await addUser(server, input);
  const client = new TestClient(server);
  const res = await client.login(account.account, account.password);
  if (res.body.code !== 2000) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return Object.assign(client, { account });
}

export { SUPER_ADMINISTRATOR };
