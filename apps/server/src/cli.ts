/**
 * Administration CLI, using the same DATA_DIR / DATABASE_URL as the server (runs migrations and the
 * reference seed first):
 *
 *   node --import tsx apps/server/src/cli.ts user-add --account <phone|email> --password <pw> --nick <n>
 *        [--funs a,b,c] [--company wk] [--email <e-mail>]
 *       creates a user (validity permanent, state normal) and prints its u_id.
 *   node --import tsx apps/server/src/cli.ts user-list
 *       prints one tab-separated line per user: u_id, account, nick, company, state, fun_list.
 *
 * Exit code 0 on success, 1 on a usage or validation error (message on stderr).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MAX, PASSWORD_MIN, isAccount, isEmail } from '@nest/contracts';
import { hashPassword } from './auth/passwords.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/index.js';
import { migrateToLatest } from './db/migrate.js';
import { seedReferenceData } from './db/seed.js';
import { AccountTakenError, createUser, findCompany, listUsers, parseFunList } from './users/store.js';

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const USAGE = [
  'Usage:',
  '  cli.ts user-add --account <phone|email> --password <password> --nick <nick> [--funs a,b,c] [--company wk] [--email <e-mail>]',
  '  cli.ts user-list',
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

export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
  overrides: Partial<Config> = {},
): Promise<number> {
  const [command, ...args] = argv;
  try {
    const config = { ...loadConfig(env), ...overrides };
    if (command === 'user-add') return await userAdd(config, args, io);
    if (command === 'user-list') return await userList(config, args, io);
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
