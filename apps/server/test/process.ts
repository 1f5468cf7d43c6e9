/** Helpers to run the server entry points as child processes (main.ts, cli.ts), like an operator does. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A TCP port for a program that cannot take port 0 and report what it got (PostgreSQL, Mosquitto).
 *
 * Ports come from 20000-31999, below Linux's ephemeral range (32768-60999, /proc/sys/net/ipv4/ip_local_port_range):
 * the OS never hands them to a socket bound to port 0 or to an outgoing connection, so no other test's client
 * or server can take one between this probe and the program's start. The range is split between vitest
 * workers (VITEST_POOL_ID) so files running side by side never draw the same port, and each worker walks its
 * slice from a random start, probing that nothing listens there (a program left over from an earlier run).
 * Our own servers (the product, the embedded broker) listen on port 0 and say which port they got instead.
 */
const RESERVED_FIRST = 20_000;
const RESERVED_SLICE = 1_000;
const RESERVED_SLICES = 12;
let reservedNext = -1;

export async function reservedPort(): Promise<number> {
  const slice = Number(process.env.VITEST_POOL_ID ?? 0) % RESERVED_SLICES;
  const base = RESERVED_FIRST + slice * RESERVED_SLICE;
  if (reservedNext < 0) reservedNext = Math.floor(Math.random() * RESERVED_SLICE);
  for (let tries = 0; tries < RESERVED_SLICE; tries++) {
    const port = base + (reservedNext++ % RESERVED_SLICE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${base}-${base + RESERVED_SLICE - 1}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export interface Child {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves once stdout contains the text (rejects when the process exits first or after timeoutMs). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
}

/** Where scripts/build-server.mjs puts the built entry points (the server projects build them before the run). */
export const SERVER_DIST = path.join(REPO_ROOT, 'apps/server/dist');

/**
 * Starts a built entry point (the server's `main.ts` and `cli.ts`, the launcher's `launcher.ts`) as a program, from its build in apps/server/dist (made by
 * the run's global setup, build-setup.ts): plain JavaScript, nothing compiled in the child.
 */
export function runTs(file: string, args: string[], env: Record<string, string | undefined>): Child {
  const built = path.join(SERVER_DIST, file.replace(/\.ts$/, '.js'));
  const proc = spawn(process.execPath, ['--enable-source-maps', built, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  proc.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  });
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(text, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = typeof text === 'string' ? (out.includes(text) ? text : null) : (out.match(text)?.[0] ?? null);
          if (match !== null) {
            cleanup();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${String(text)}; stdout: ${out}; stderr: ${err}`));
        }, timeoutMs);
        const onExit = () => {
          cleanup();
          reject(new Error(`process exited before ${String(text)}; stdout: ${out}; stderr: ${err}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          proc.off('exit', onExit);
        };
        listeners.add(check);
        proc.once('exit', onExit);
        check();
      });
    },
  };
}
