import { rm } from 'node:fs/promises';
import {
  APP_CODE,
  APP_FLAVOR,
  APP_IDS,
  PUBLIC_KEYS_PATH,
  ResultCode,
  callUrl,
  calls,
  pmdValueOf,
  sealPassword,
  signPmd,
  type CallName,
  type DeviceListItem,
  type PublicKeys,
} from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, tempDir, type TestDatabase } from '../test/helpers.js';
import { until } from '../test/live.js';
import { runTs, type Child } from '../test/process.js';
import { NO_FLEET_LINE } from './main.js';

let dataDir: string;
let database: TestDatabase;
/**
 * The safety limit of a wait for a line: a cold start compiles the server (tsx), migrates and seeds a new
 * database and hashes the first password, far slower on a busy 2-core machine running other test files (and
 * here several starts at once) than on a quiet one. How long it takes is not what these tests check.
 */
const STARTUP_MS = 90_000;

/**
 * The ports the running instance listens on, read from what it prints: it is started on port 0 (the system
 * picks a free one at bind time). A port probed free beforehand can be taken by another test file's
 * connection during a cold start of many seconds, which made this file fail when files ran side by side.
 */
let port = 0;
let mqttPort = 0;
const children: Child[] = [];

/**
 * The instance most tests use, and two that need nothing of it (an invalid setting; ADMIN_PASSWORD on a data
 * directory and database of their own): all three start at once, so their cold starts overlap.
 */
let first: Child;
let badSetting: Child;
let fromEnv: { child: Child; dir: string; db: TestDatabase };

beforeAll(async () => {
  dataDir = await tempDir('nest-main-');
  database = await createTestDatabase();
  const envDir = await tempDir('nest-main-env-');
  const envDb = await createTestDatabase();
  first = start({});
  badSetting = start({ PORT: 'eighty', SIMULATOR: 'off' });
  fromEnv = {
    dir: envDir,
    db: envDb,
    // The server alone (main.ts, no launcher), with the default SIMULATOR=on: it says the fleet is not its own.
    child: runTs('main.ts', [], {
      HOST: '127.0.0.1',
      PORT: '0',
      MQTT_URL: 'mqtt://127.0.0.1:1',
      DATA_DIR: envDir,
      DATABASE_URL: envDb.url ?? undefined,
      LOG_LEVEL: 'warn',
      ADMIN_ACCOUNT: '13812345678',
      ADMIN_PASSWORD: 'given-password',
    }),
  };
  children.push(fromEnv.child);
});

/** Waits until `child` listens; answers its HTTP and embedded-broker ports. */
async function listening(child: Child): Promise<{ http: number; mqtt: number }> {
  const line = await child.waitFor(/Drone nest console listening on http:\/\/127\.0\.0\.1:\d+\/nest\//, STARTUP_MS);
  const broker = await child.waitFor(/Embedded MQTT broker listening on mqtt:\/\/127\.0\.0\.1:\d+/, STARTUP_MS);
  return { http: Number(/:(\d+)\/nest\//.exec(line)![1]), mqtt: Number(/:(\d+)$/.exec(broker)![1]) };
}
afterAll(async () => {
  for (const c of children) if (c.proc.exitCode === null) c.proc.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  await database?.drop();
  await fromEnv?.db.drop();
  // A killed product's ffmpeg (a demo recording) is killed with it (@nest/ffmpeg spawnFfmpeg), but a write it had
  // begun may still land while the directory is removed: rm retries.
  await rm(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  if (fromEnv) await rm(fromEnv.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

/** Starts the product as `npm start` does: the launcher (the server and, with SIMULATOR=on, the demo fleet). */
function start(env: Record<string, string>): Child {
  const child = runTs('launcher.ts', [], {
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url ?? undefined,
    LOG_LEVEL: 'warn',
    WEB_DIST: `${dataDir}/no-web`,
    PORT: '0',
    MQTT_PORT: '0',
    RTMP_PORT: '0',
    ...env,
  });
  children.push(child);
  return child;
}

async function post<D>(name: CallName, fields: Record<string, string>, token = '', ts = Date.now()): Promise<{ code: number; data: D }> {
  const base = `http://127.0.0.1:${port}`;
  const def = calls[name];
  const body = new URLSearchParams({
    app_type: '3',
    app_ids: APP_IDS,
    app_code: APP_CODE,
    app_flavor: APP_FLAVOR,
    os_timestamp: String(ts),
    os_language: 'en',
    token,
    pmd: signPmd({ token, pmdValue: pmdValueOf(fields, def.pmd), timestamp: def.timestamp ? ts : undefined }),
    ...fields,
  });
  const res = await fetch(base + callUrl(def), { method: 'POST', body });
  return (await res.json()) as { code: number; data: D };
}

async function signInToken(account: string, password: string): Promise<{ code: number; token: string }> {
  const keys = (await (await fetch(`http://127.0.0.1:${port}${PUBLIC_KEYS_PATH}`)).json()) as PublicKeys;
  // The envelope is bound to the os_timestamp of the request that carries it.
  const ts = Date.now();
  const res = await post<{ token: string } | null>('login', { account, password: await sealPassword(password, keys.password, ts) }, '', ts);
  return { code: res.code, token: res.data?.token ?? '' };
}

async function signIn(account: string, password: string): Promise<number> {
  return (await signInToken(account, password)).code;
}

describe('main.ts and the launcher', { timeout: 180_000 }, () => {
  let password = '';
  /** A session of the first administrator on the first instance. */
  let token = '';

  it('starts on a new data dir, prints the address and the first sign-in once', async () => {
    ({ http: port, mqtt: mqttPort } = await listening(first));
    expect(port).toBeGreaterThan(0);
    expect(mqttPort).toBeGreaterThan(0);
    const line = await first.waitFor(/Sign in at \S+ as \S+ with password \S+/, STARTUP_MS);
    expect(line.startsWith(`Sign in at http://127.0.0.1:${port}/nest/ as admin@nest.local with password `)).toBe(true);
    password = line.split(' ').pop()!;
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(first.stdout()).toContain(`Embedded MQTT broker listening on mqtt://127.0.0.1:${mqttPort}`);
    const signedIn = await signInToken('admin@nest.local', password);
    expect(signedIn.code).toBe(ResultCode.OK);
    token = signedIn.token;
  });

  it('runs the simulated fleet by default: 3 nests, 2 drones and an emulated DJI dock online in /device/list', async () => {
    await first.waitFor('Simulated fleet: 3 nests, 2 drones around 22.5431,114.0579', STARTUP_MS);
    await first.waitFor('Emulated DJI docks (DJI Cloud API): SIM-DOCK2-01', STARTUP_MS);
    let list: DeviceListItem[] = [];
    await until(async () => {
      const res = await post<{ list: DeviceListItem[]; total: number }>('deviceList', { type: '0', page: '0', size: '200' }, token);
      expect(res.code).toBe(ResultCode.OK);
      list = res.data.list;
      return list.length === 6 && list.every((d) => d.state === 1);
    }, 'six simulated devices online in /device/list');
    expect(list.map((d) => d.sn_id).sort()).toEqual(['SIM-ALONE-01', 'SIM-ALONE-02', 'SIM-DOCK2-01', 'SIM-MINI-01', 'SIM-MOBILE-01', 'SIM-STABLE-01']);
    expect(list.every((d) => d.state === 1 && d.company === 'wk' && d.position !== null)).toBe(true);
  });

  it('gives the simulated nests demo routes on the first start and announces the demo missions', async () => {
    await first.waitFor('Demo missions: a patrol route about a minute after start, then every 20 minutes on the next idle nest', STARTUP_MS);
    const res = await post<{ list: { name: string; mission_type: number; sn_id: string }[]; total: number }>('missionList', { page: '0', size: '50' }, token);
    expect(res.code).toBe(ResultCode.OK);
    expect(res.data.total).toBe(8);
    expect(res.data.list.filter((m) => m.mission_type === 1).map((m) => m.sn_id).sort()).toEqual(['SIM-DOCK2-01', 'SIM-MINI-01', 'SIM-MOBILE-01', 'SIM-STABLE-01']);
    // Demo route names in the caller's language (os_language en): "Patrol A01", "Survey B01".
    expect(res.data.list.map((m) => m.name).filter((name) => !/^(Patrol|Survey) [A-Z]\d{2}$/.test(name))).toEqual([]);
  });

  // The two instances that find a port taken start (and fail) side by side.
  it.concurrent('exits 1 with one clear line when the HTTP port is taken', async () => {
    const second = start({ PORT: String(port), SIMULATOR: 'off' });
    expect(await second.exited).toBe(1);
    expect(second.stderr().trim()).toBe(`Port ${port} on 127.0.0.1 is already in use; set PORT to another port`);
  });

  it.concurrent('exits 1 with one clear line when the MQTT port is taken', async () => {
    const third = start({ MQTT_PORT: String(mqttPort), SIMULATOR: 'off' });
    expect(await third.exited).toBe(1);
    expect(third.stderr().trim()).toBe(`Port ${mqttPort} on 127.0.0.1 is already in use; set MQTT_PORT to another port`);
  });

  it('exits 1 on an invalid setting', async () => {
    expect(await badSetting.exited).toBe(1);
    expect(badSetting.stderr().trim()).toBe('Configuration error: PORT must be an integer from 0 to 65535 (got "eighty")');
  });

  it('says where the password came from when ADMIN_PASSWORD is set', async () => {
    const { child } = fromEnv;
    await child.waitFor(/Sign in at \S+ as 13812345678 with the password from ADMIN_PASSWORD/, STARTUP_MS);
    expect(child.stdout()).toContain('Using the MQTT broker at mqtt://127.0.0.1:1');
    expect(child.stdout()).not.toContain('given-password');
    expect(child.stdout()).toContain(NO_FLEET_LINE);
    expect(child.stdout()).not.toContain('Simulated fleet: 3 nests');
    child.proc.kill('SIGTERM');
    await child.exited;
  });

  it('shuts down on SIGTERM and starts again on the same data dir without a new administrator', async () => {
    const keys = await (await fetch(`http://127.0.0.1:${port}${PUBLIC_KEYS_PATH}`)).json();
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const again = start({});
    ({ http: port } = await listening(again));
    expect(again.stdout()).not.toContain('Sign in at');
    expect(await (await fetch(`http://127.0.0.1:${port}${PUBLIC_KEYS_PATH}`)).json()).toEqual(keys);
    expect(await signIn('admin@nest.local', password)).toBe(ResultCode.OK);
    again.proc.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });
});
