/**
 * Administration CLI, using the same DATA_DIR / DATABASE_URL as the server (runs migrations and the
 * reference seed first):
 *
 *   node --import tsx apps/server/src/cli.ts user-add --account <phone|email> --password <pw> --nick <n>
 *        [--funs a,b,c] [--company wk] [--email <e-mail>]
 *       creates a user (validity permanent, state normal) and prints its u_id.
 *   node --import tsx apps/server/src/cli.ts user-list
 *       prints one tab-separated line per user: u_id, account, nick, company, state, fun_list.
 *   node --import tsx apps/server/src/cli.ts device-list
 *       prints one tab-separated line per registered device: sn, type, name, company, enabled (1/0), drone sn.
 *   node --import tsx apps/server/src/cli.ts device-secret <sn>
 *       prints the broker password of a registered device (user name = sn).
 *   node --import tsx apps/server/src/cli.ts device-key
 *       prints the device key (hex): the simulator's --password-secret, from which every device password
 *       is derived (DATA_DIR/keys/device.key, generated on first use).
 *   node --import tsx apps/launcher/src/cli.ts demo-fleet [--nests 3] [--drones 2] [--center lat,lng]
 *        [--company wk] [--prefix SIM]
 *       registers the simulator's demo devices (missing ones only) and prints their sns, so the simulator
 *       can run as its own process: nest-simulator --password-secret $(cli.ts device-key) ...
 *       The simulator describes the devices: this command runs through the launcher's CLI (the same
 *       commands, with the simulator's demoFleet given to runCli); the server's own CLI says so.
 *   npm run -s cli -- dji-dock-add --sn <dock sn> --drone-sn <drone sn> --name <name> [--company <id>]
 *        [--model M3D]
 *       registers a DJI dock (DJI Cloud API, Dock 2 / Dock 3; docs/dji.md) with its drone in the company
 *       (default: the first super administrator's) and prints one JSON line {"mqtt_url", "username",
 *       "password"}: what to type into the dock's cloud set-up in DJI Pilot 2. Shown once.
 *   npm run -s cli -- dji-dock-credentials --sn <sn>
 *       issues new credentials for a registered DJI device (the previous password stops working) and
 *       prints them the same way.
 *   Both work while the server runs: it checks every device login against the database.
 *   node --import tsx apps/server/src/cli.ts mosquitto-files --dir <dir> [--port 1883] [--host 127.0.0.1]
 *        [--auth dynsec|files] [--plugin <path of mosquitto_dynamic_security.so>]
 *       writes mosquitto.conf for an external Mosquitto broker (docs/device-protocol.md) and who may use
 *       it (server user + every enabled device): by default dynamic-security.json, the first configuration
 *       of the dynamic-security plugin, which the server then keeps in line with the registry; with
 *       --auth files nest.passwd and nest.acl instead, to be written again (and Mosquitto sent SIGHUP)
 *       after device changes.
 *
 * Exit code 0 on success, 1 on a usage or validation error (message on stderr).
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceProtocol, PASSWORD_MAX, PASSWORD_MIN, SERVER_MQTT_USER, SUPER_ADMINISTRATOR, isAccount, isDeviceSn, isEmail, isSn } from '@nest/contracts';
import { sql } from 'kysely';
import { hashPassword } from './auth/passwords.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { seedReferenceData } from './boot/seed.js';
import { ensureDemoDevices, type DemoDeviceSpec } from './demo/devices.js';
import { djiCredentials, isDji, raiseSecretGen } from './devices/dji.js';
import { createDevice, deviceName, findDeviceBySn, loadDevices, updateDeviceRow } from './devices/store.js';
import { nowSeconds } from './db/index.js';
import { STATE_DELETED, STATE_NORMAL } from './db/sql.js';
import { currentPassword, devicePassword, loadOrCreateLinkSecrets } from './link/credentials.js';
import { aclsOf, dynsecConfig, pushDeviceAccount } from './link/dynsec.js';
import type { DeviceRow } from './db/schema.js';
import { DYNSEC_PLUGIN_PLACES, mosquittoAcl, mosquittoConf, mosquittoPasswordFile, type MosquittoAuth } from './link/mosquitto.js';
import { AccountTakenError, createUser, findCompany, listUsers, parseFunList } from './users/store.js';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** What the CLI gets from outside the server: the simulator's demoFleet, given by the launcher's CLI. */
export interface CliTools {
  demoFleet?: (center: { lat: number; lng: number }, counts: { nests: number; drones: number }, prefix?: string) => DemoDeviceSpec[];
}

const USAGE = [
  'Usage:',
  '  cli.ts user-add --account <phone|email> --password <password> --nick <nick> [--funs a,b,c] [--company wk] [--email <e-mail>]',
  '  cli.ts user-list',
  '  cli.ts device-list',
  '  cli.ts device-secret <sn>',
  '  cli.ts device-key',
  '  cli.ts demo-fleet [--nests 3] [--drones 2] [--center lat,lng] [--company wk] [--prefix SIM]',
  '  cli.ts dji-dock-add --sn <dock sn> --drone-sn <drone sn> --name <name> [--company <id>] [--model M3D]',
  '  cli.ts dji-dock-credentials --sn <sn>',
  '  cli.ts mosquitto-files --dir <dir> [--port 1883] [--host 127.0.0.1] [--auth dynsec|files] [--plugin <path>]',
].join('\n');

class UsageError extends Error {}

function parseOptions(args: readonly string[], allowed: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (out.has(name)) throw new UsageError(`--${name} given twice`);
    out.set(name, value);
  }
  return out;
}

async function userAdd(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  const o = parseOptions(args, ['account', 'password', 'nick', 'funs', 'company', 'email']);
  const account = o.get('account')?.trim() ?? '';
  const password = o.get('password') ?? '';
  const nick = o.get('nick')?.trim() ?? '';
  const email = o.get('email')?.trim() ?? (isEmail(account) ? account : '');
  const funs = (o.get('funs') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!isAccount(account)) throw new UsageError('--account must be a mainland mobile number or an e-mail address');
  const n = [...password].length;
  if (n < PASSWORD_MIN || n > PASSWORD_MAX) throw new UsageError(`--password must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  if (!nick || nick.length > 64) throw new UsageError('--nick is required (at most 64 characters)');
  if (email && !isEmail(email)) throw new UsageError('--email must be an e-mail address');

  const { db } = openDatabase(config);
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    const company = await findCompany(db, o.get('company') ?? 'wk');
    if (!company) throw new UsageError(`unknown company "${o.get('company')}"`);
    if (funs.length > 0) {
      const known = new Set((await db.selectFrom('functions').select('fun_id').where('fun_id', 'in', funs).execute()).map((r) => r.fun_id));
      const unknown = funs.filter((f) => !known.has(f));
      if (unknown.length > 0) throw new UsageError(`unknown function id(s): ${unknown.join(', ')}`);
    }
    const user = await createUser(db, {
      nick,
      account,
      email,
      passwordHash: await hashPassword(password, config.scrypt),
      companyId: company.id,
      funList: funs,
    });
    io.out(user.u_id);
    return 0;
  } catch (err) {
    if (err instanceof AccountTakenError) throw new UsageError(`account ${account} is already in use`);
    throw err;
  } finally {
    await db.destroy();
  }
}

async function userList(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  parseOptions(args, []);
  const { db } = openDatabase(config);
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    const { list } = await listUsers(db, { size: 100_000 });
    for (const u of list) {
      io.out([u.u_id, u.phone, u.nick, u.company_id, u.state, parseFunList(u.fun_list).join(',')].join('\t'));
    }
    return 0;
  } finally {
    await db.destroy();
  }
}

/** Opens the database, brings it up to date, runs `work`, closes it. */
async function withDb<T>(config: Config, work: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const { db } = openDatabase(config);
  try {
    await migrateToLatest(db);
    await seedReferenceData(db);
    return await work(db);
  } finally {
    await db.destroy();
  }
}

async function deviceList(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  parseOptions(args, []);
  return withDb(config, async (db) => {
    for (const d of await loadDevices(db)) {
      io.out([d.sn_id, d.type, deviceName(d), d.company_id, Number(d.enabled), d.uav_sn].join('\t'));
    }
    return 0;
  });
}

async function deviceSecret(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  const [sn, ...rest] = args;
  if (!sn || sn.startsWith('--') || rest.length > 0) throw new UsageError('device-secret needs exactly one serial number');
  return withDb(config, async (db) => {
    if (!(await findDeviceBySn(db, sn))) throw new UsageError(`no device with serial number ${sn}`);
    const secrets = await loadOrCreateLinkSecrets(config.dataDir);
    io.out(devicePassword(secrets.deviceKeyHex, sn));
    return 0;
  });
}

async function deviceKey(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  parseOptions(args, []);
  io.out((await loadOrCreateLinkSecrets(config.dataDir)).deviceKeyHex);
  return 0;
}

function count(o: Map<string, string>, name: string, def: number): number {
  const raw = o.get(name);
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) > 200) throw new UsageError(`--${name} must be an integer from 0 to 200`);
  return Number(raw);
}

async function demoFleetCommand(config: Config, args: readonly string[], io: CliIo, tools: CliTools): Promise<number> {
  if (!tools.demoFleet) throw new UsageError('demo-fleet needs the simulator: run it as node --import tsx apps/launcher/src/cli.ts demo-fleet ...');
  const o = parseOptions(args, ['nests', 'drones', 'center', 'company', 'prefix']);
  const nests = count(o, 'nests', config.simNests);
  const drones = count(o, 'drones', config.simDrones);
  let center = config.simCenter;
  const rawCenter = o.get('center');
  if (rawCenter !== undefined) {
    const m = /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(rawCenter.replace(/\s/g, ''));
    if (!m || Math.abs(Number(m[1])) > 85 || Math.abs(Number(m[2])) > 180) throw new UsageError('--center must be lat,lng');
    center = { lat: Number(m[1]), lng: Number(m[2]) };
  }
  const prefix = o.get('prefix') ?? 'SIM';
  if (!/^[A-Za-z0-9_]{1,16}$/.test(prefix)) throw new UsageError('--prefix must be 1-16 letters, digits or _');
  const specs = tools.demoFleet(center, { nests, drones }, prefix);
  return withDb(config, async (db) => {
    const company = await findCompany(db, o.get('company') ?? 'wk');
    if (!company) throw new UsageError(`unknown company "${o.get('company')}"`);
    await ensureDemoDevices(db, specs, company.id);
    for (const s of specs) io.out(s.sn);
    return 0;
  });
}

/**
 * The broker address DJI devices are given: DEVICE_MQTT_URL, else the external broker (MQTT_URL), else the
 * embedded broker on MQTT_PORT (what a running server with the same settings listens on).
 */
const djiUrlOf = (config: Config): string => config.deviceMqttUrl ?? config.mqttUrl ?? `mqtt://127.0.0.1:${config.mqttPort}`;

/** The company of the first (oldest) active super administrator. */
async function firstSuperCompany(db: ReturnType<typeof openDatabase>['db']): Promise<string | undefined> {
  const pattern = `%"${SUPER_ADMINISTRATOR.replace(/_/g, '\\_')}"%`;
  const row = await db
    .selectFrom('users')
    .select('company_id')
    .where('state', '=', STATE_NORMAL)
    .where('fun_list', 'like', sql<string>`${pattern} escape '\\'`)
    .orderBy('created_at')
    .orderBy('u_id')
    .executeTakeFirst();
  return row?.company_id;
}

/**
 * With an external broker (MQTT_URL), a running server's Mosquitto gets the device's account right away
 * through the dynamic-security plugin (else at the server's next registry read, within 30 s). Notes go to
 * stderr: stdout holds the credentials line only.
 */
async function pushAccount(config: Config, row: DeviceRow, serverPassword: string, deviceKeyHex: string, kick: boolean, io: CliIo): Promise<void> {
  if (!config.mqttUrl) return;
  const ok = await pushDeviceAccount({
    url: config.mqttUrl,
    username: config.mqttUsername,
    password: config.mqttPassword ?? serverPassword,
    row,
    devicePassword: currentPassword(deviceKeyHex, row.sn_id, row),
    kick,
  });
  if (!ok) io.err(`Note: the broker at ${config.mqttUrl} did not take the account now; the running server gives it within 30 s`);
}

async function djiDockAdd(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  const o = parseOptions(args, ['sn', 'drone-sn', 'name', 'company', 'model']);
  const sn = o.get('sn') ?? '';
  const droneSn = o.get('drone-sn') ?? '';
  const name = o.get('name')?.trim() ?? '';
  const model = o.get('model')?.trim() ?? 'M3D';
  if (!isDeviceSn(sn)) throw new UsageError('--sn must be the dock serial number: letters, digits, - and _ (at most 64 characters)');
  if (!isSn(droneSn) || droneSn === sn) throw new UsageError("--drone-sn must be the drone's serial number: letters, digits, - and _, not the dock's");
  if (!name || name.length > 64) throw new UsageError('--name is required (at most 64 characters)');
  if (!model || model.length > 64) throw new UsageError('--model must have 1 to 64 characters');
  return withDb(config, async (db) => {
    const companyId = o.has('company') ? (await findCompany(db, o.get('company')!))?.id : await firstSuperCompany(db);
    if (!companyId) throw new UsageError(o.has('company') ? `unknown company "${o.get('company')}"` : 'no super administrator: give --company');
    const secrets = await loadOrCreateLinkSecrets(config.dataDir);
    const fields = {
      type: 'stable_mini' as const,
      protocol: DeviceProtocol.DJI,
      airport_name: name,
      uav_name: model,
      uav_sn: droneSn,
      uav_model: model,
      company_id: companyId,
    };
    const existing = await findDeviceBySn(db, sn);
    let row;
    if (existing && Number(existing.state) === STATE_DELETED) {
      // The sn of a deleted device registers that record again; whatever it was given before stops working.
      await updateDeviceRow(db, existing.id, { ...fields, enabled: 1, state: STATE_NORMAL, created_at: nowSeconds() });
      row = await raiseSecretGen(db, existing.id);
    } else {
      if (existing) throw new UsageError(`serial number ${sn} is already registered (dji-dock-credentials --sn ${sn} issues new credentials)`);
      row = await createDevice(db, { ...fields, sn_id: sn });
    }
    await pushAccount(config, row, secrets.serverPassword, secrets.deviceKeyHex, true, io);
    io.out(JSON.stringify(djiCredentials(secrets.deviceKeyHex, row, djiUrlOf(config))));
    return 0;
  });
}

async function djiDockCredentials(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  const o = parseOptions(args, ['sn']);
  const sn = o.get('sn') ?? '';
  if (!sn) throw new UsageError('dji-dock-credentials needs --sn');
  return withDb(config, async (db) => {
    const row = await findDeviceBySn(db, sn);
    if (!row || Number(row.state) !== STATE_NORMAL) throw new UsageError(`no device with serial number ${sn}`);
    if (!isDji(row)) throw new UsageError(`${sn} speaks the nest protocol: it has no DJI Cloud API credentials`);
    const secrets = await loadOrCreateLinkSecrets(config.dataDir);
    const updated = await raiseSecretGen(db, row.id);
    await pushAccount(config, updated, secrets.serverPassword, secrets.deviceKeyHex, true, io);
    io.out(JSON.stringify(djiCredentials(secrets.deviceKeyHex, updated, djiUrlOf(config))));
    return 0;
  });
}

async function mosquittoFiles(config: Config, args: readonly string[], io: CliIo): Promise<number> {
  const o = parseOptions(args, ['dir', 'port', 'host', 'auth', 'plugin']);
  const dir = o.get('dir');
  if (!dir) throw new UsageError('mosquitto-files needs --dir');
  const port = Number(o.get('port') ?? '1883');
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError('--port must be 1-65535');
  const host = o.get('host') ?? '127.0.0.1';
  const mode = o.get('auth') ?? 'dynsec';
  if (mode !== 'dynsec' && mode !== 'files') throw new UsageError('--auth must be dynsec or files');
  const plugin = mode === 'dynsec' ? (o.get('plugin') ?? DYNSEC_PLUGIN_PLACES.find((p) => existsSync(p))) : undefined;
  if (mode === 'dynsec' && !plugin) {
    throw new UsageError(`mosquitto_dynamic_security.so not found in ${DYNSEC_PLUGIN_PLACES.join(', ')}: give --plugin <path>, or --auth files`);
  }
  return withDb(config, async (db) => {
    const secrets = await loadOrCreateLinkSecrets(config.dataDir);
    const devices = (await loadDevices(db)).filter((d) => Number(d.enabled) === 1);
    const target = path.resolve(dir);
    await mkdir(target, { recursive: true });
    const server = { user: config.mqttUsername, password: config.mqttPassword ?? secrets.serverPassword };
    const users = devices.map((d) => ({ user: d.sn_id, password: currentPassword(secrets.deviceKeyHex, d.sn_id, d), acls: aclsOf(d) }));
    let auth: MosquittoAuth;
    let written: string;
    if (plugin) {
      // The broker owns this file from its first start on (the server changes it through the plugin).
      const configFile = path.join(target, 'dynamic-security.json');
      await writeFile(configFile, dynsecConfig(server, users), { mode: 0o600 });
      await chmod(configFile, 0o600);
      auth = { kind: 'dynsec', plugin, configFile };
      written = configFile;
    } else {
      const passwordFile = path.join(target, 'nest.passwd');
      const aclFile = path.join(target, 'nest.acl');
      await writeFile(passwordFile, mosquittoPasswordFile([{ user: server.user, password: server.password }, ...users]), { mode: 0o600 });
      await chmod(passwordFile, 0o600);
      await writeFile(aclFile, mosquittoAcl(config.mqttUsername, devices.filter(isDji)));
      auth = { kind: 'files', passwordFile, aclFile };
      written = `${aclFile} and ${passwordFile}`;
    }
    // Mosquitto does not create its persistence directory: without it, retained presence and state are
    // silently lost on every broker restart.
    const persistenceDir = path.join(target, 'data');
    await mkdir(persistenceDir, { recursive: true });
    await writeFile(path.join(target, 'mosquitto.conf'), mosquittoConf({ port, host, auth, persistenceDir }));
    io.out(`Wrote ${path.join(target, 'mosquitto.conf')}, ${written} (${devices.length} devices)`);
    if (config.mqttUsername !== SERVER_MQTT_USER || config.mqttPassword) io.out('Server user from MQTT_USERNAME / MQTT_PASSWORD');
    return 0;
  });
}

export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
  overrides: Partial<Config> = {},
  tools: CliTools = {},
): Promise<number> {
  const [command, ...args] = argv;
  try {
    const config = { ...loadConfig(env), ...overrides };
    if (command === 'user-add') return await userAdd(config, args, io);
    if (command === 'user-list') return await userList(config, args, io);
    if (command === 'device-list') return await deviceList(config, args, io);
    if (command === 'device-secret') return await deviceSecret(config, args, io);
    if (command === 'device-key') return await deviceKey(config, args, io);
    if (command === 'demo-fleet') return await demoFleetCommand(config, args, io, tools);
    if (command === 'dji-dock-add') return await djiDockAdd(config, args, io);
    if (command === 'dji-dock-credentials') return await djiDockCredentials(config, args, io);
    if (command === 'mosquitto-files') return await mosquittoFiles(config, args, io);
    throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n${USAGE}`);
      return 1;
    }
    if (err instanceof ConfigError) {
      io.err(`Configuration error: ${err.message}`);
      return 1;
    }
    io.err(`Failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

const entry = process.argv[1] ? path.resolve(process.argv[1]) : '';
if (entry === fileURLToPath(import.meta.url)) {
  process.exitCode = await runCli(process.argv.slice(2));
}
