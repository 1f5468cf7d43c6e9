/**
 * Global setup of the server-pg vitest project: a throwaway PostgreSQL cluster for the run.
 *
 * Unless DATABASE_URL_TEST names an existing server (whose database can CREATE DATABASE), this runs
 * initdb into a temporary directory (trust auth, no fsync), starts postgres on 127.0.0.1 at a free port
 * with its unix socket inside that directory, provides the admin URL to the tests (`inject('pgAdminUrl')`)
 * and stops and removes the cluster in teardown. PostgreSQL refuses to run as root: when the tests run as
 * root, the cluster runs as the OS user `postgres` (via runuser), which owns the temporary directory.
 * Binaries: PG_BIN, else /usr/lib/postgresql/<17|16|15>/bin, else PATH.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

const run = promisify(execFile);

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  for (const v of ['17', '16', '15']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return '';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function osUser(name: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.DATABASE_URL_TEST) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL_TEST);
    return;
  }
  const bin = pgBin();
  const tool = (name: string) => (bin ? path.join(bin, name) : name);
  const asRoot = process.getuid?.() === 0;
  const exec = async (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', tool(name), ...args]) : run(tool(name), args);

  const dir = await mkdtemp(path.join(os.tmpdir(), 'nest-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const pgUser = await osUser('postgres').catch(() => {
      throw new Error('Tests run as root and there is no OS user "postgres" to run PostgreSQL; create one or set DATABASE_URL_TEST');
    });
    await chown(dir, pgUser.uid, pgUser.gid);
  }
  const port = await freePort();
  await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=400',
  ].join(' ');
  await exec('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'postgres.log'), '-w', '-t', '60', 'start']);
  project.provide('pgAdminUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);

  return async () => {
    await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
}
