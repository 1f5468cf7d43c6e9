/**
 * Real infrastructure for integration tests: a throwaway PostgreSQL cluster and a Mosquitto broker that
 * a test can stop, start and restart (fault tests, several server instances).
 *
 * PostgreSQL: initdb into a temporary directory (trust auth, no fsync), postgres on 127.0.0.1 at a free
 * port with its unix socket inside that directory. PostgreSQL refuses to run as root: when the tests run
 * as root, the cluster runs as the OS user `postgres` (via runuser), which owns the temporary directory.
 * Binaries: PG_BIN, else /usr/lib/postgresql/<17|16|15>/bin, else PATH.
 *
 * Mosquitto: configured with exactly the files `cli.ts mosquitto-files` writes (docs/device-protocol.md),
 * so the broker enforces the same authentication and per-device ACL as in production, with persistence on
 * (retained presence and state survive a restart).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { reservedPort } from './process.js';

const run = promisify(execFile);

// ------------------------------------------------------------------------------------------ PostgreSQL

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  for (const v of ['17', '16', '15']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return '';
}

async function osUser(name: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

const asRoot = (): boolean => process.getuid?.() === 0;

export interface PostgresCluster {
  /** Admin URL (user postgres, database postgres) on 127.0.0.1. */
  url: string;
  /** Stops the server (fast shutdown: open connections are cut). */
  stop(): Promise<void>;
  /** Starts it again: same data directory, same port. */
  start(): Promise<void>;
  /**
   * Freezes the postmaster (SIGSTOP): new connections are accepted by the kernel but never answered. With
   * `backends`, the processes serving open connections freeze too: their queries are never answered.
   */
  freeze(opts?: { backends?: boolean }): Promise<void>;
  /** Lets what freeze stopped go on (SIGCONT). */
  thaw(): Promise<void>;
  /** Stops it and removes the data directory. */
  close(): Promise<void>;
}

/** A throwaway PostgreSQL cluster of its own, started. */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = pgBin();
  const tool = (name: string) => (bin ? path.join(bin, name) : name);
  const root = asRoot();
  const exec = async (name: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', tool(name), ...args]) : run(tool(name), args);

  const dir = await mkdtemp(path.join(os.tmpdir(), 'nest-pg-'));
  const data = path.join(dir, 'data');
  if (root) {
    const pgUser = await osUser('postgres').catch(() => {
      throw new Error('Tests run as root and there is no OS user "postgres" to run PostgreSQL; create one or set DATABASE_URL_TEST');
    });
    await chown(dir, pgUser.uid, pgUser.gid);
  }
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  // Probed right before the start, not before initdb: other test files open connections meanwhile.
  const port = await reservedPort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
  ].join(' ');
  const start = async () => {
    await exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  await start();
  const postmaster = async () => Number((await readFile(path.join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  let frozen: number[] = [];
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    freeze: async (opts = {}) => {
      const main = await postmaster();
      frozen = opts.backends ? [main, ...(await childrenOf(main))] : [main];
      for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    },
    thaw: async () => {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // a backend that ended meanwhile
        }
      }
      frozen = [];
    },
    close: async () => {
      await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Child processes of `parent` (Linux /proc: the fourth field of /proc/<pid>/stat is the parent's pid). */
async function childrenOf(parent: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d));
  const children: number[] = [];
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) children.push(Number(pid));
  }
  return children;
}

/** A new empty database on the server `adminUrl` names (CREATE DATABASE with a random name); answers its URL. */
export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `nest_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database createDatabase made (closing whatever is still connected to it). */
export async function dropDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a test database name: ${name}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

// ------------------------------------------------------------------------------------------ Mosquitto

export const MOSQUITTO = '/usr/sbin/mosquitto';
export const hasMosquitto = (): boolean => existsSync(MOSQUITTO);

export interface MosquittoOptions {
  /** The server's DATA_DIR (its link secrets give the passwords). */
  dataDir: string;
  /** The server's database (registered devices); null: SQLite in dataDir. */
  databaseUrl: string | null;
  /** Listen port; default a free one. */
  port?: number;
  /**
   * Who may log in (`mosquitto-files --auth`): `files` (default here: a password file and an ACL, which
   * refresh() re-writes after devices are registered) or `dynsec` (the dynamic-security plugin, whose
   * device clients the server keeps in line with the registry).
   */
  auth?: 'files' | 'dynsec';
}

export interface MosquittoBroker {
  url: string;
  port: number;
  /** Directory of mosquitto.conf, nest.acl and nest.passwd (or dynamic-security.json) and the persistence files. */
  confDir: string;
  /** Everything the broker printed so far (for failure messages). */
  log(): string;
  /** Stops the broker (SIGTERM: it saves its persistence file and closes every client). */
  stop(): Promise<void>;
  /** Starts it again: same port, same configuration, same persistence. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** Re-writes the files (`cli.ts mosquitto-files`, e.g. after registering devices) and reloads them (SIGHUP). */
  refresh(): Promise<void>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

/** A Mosquitto broker with the generated configuration, started and accepting connections. */
export async function startMosquitto(o: MosquittoOptions): Promise<MosquittoBroker> {
  const port = o.port ?? (await reservedPort());
  // Its own directory: mosquitto (its own OS user when started as root) must reach the files.
  const confDir = await mkdtemp(path.join(os.tmpdir(), 'nest-mosq-conf-'));
  const conf = path.join(confDir, 'mosquitto.conf');
  let output = '';
  let proc: ChildProcess | null = null;

  const writeFiles = async () => {
    // Imported here: the pg global setup uses this module too and needs none of the server.
    const { runCli } = await import('../src/cli.js');
    const out: string[] = [];
    const code = await runCli(
      ['mosquitto-files', '--dir', confDir, '--port', String(port), '--host', '127.0.0.1', '--auth', o.auth ?? 'files'],
      { DATA_DIR: o.dataDir, DATABASE_URL: o.databaseUrl ?? undefined, LOG_LEVEL: 'silent' },
      { out: (l) => out.push(l), err: (l) => out.push(l) },
    );
    if (code !== 0) throw new Error(`mosquitto-files failed: ${out.join('\n')}`);
    // Mosquitto started as root drops to its own user, which must read the files and write persistence.
    if (asRoot()) await run('chown', ['-R', 'mosquitto', confDir]);
  };

  const start = async () => {
    if (proc) throw new Error('mosquitto is running already');
    const p = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    proc = p;
    p.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    p.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    p.once('exit', () => {
      if (proc === p) proc = null;
    });
    await waitForPort(port, 10_000, () => (p.exitCode !== null ? `mosquitto exited: ${output}` : null));
  };

  const stop = async () => {
    const p = proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((resolve) => p.once('exit', resolve));
    p.kill('SIGTERM');
    await exited;
    proc = null;
  };

  await writeFiles();
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    confDir,
    log: () => output,
    stop,
    start,
    restart: async () => {
      await stop();
      await start();
    },
    refresh: async () => {
      await writeFiles();
      proc?.kill('SIGHUP');
      // Mosquitto reloads asynchronously; its log line says when it did.
      const before = output.length;
      const deadline = Date.now() + 5000;
      while (!output.slice(before).includes('Reloading config') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    close: async () => {
      await stop();
      await rm(confDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port. */
async function waitForPort(port: number, timeoutMs: number, failed: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = failed();
    if (problem) throw new Error(problem);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
