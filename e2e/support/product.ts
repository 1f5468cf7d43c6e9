import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Starts the real product (server + embedded broker + built web app) on loopback for e2e tests. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

export interface Product {
  baseUrl: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
  /** What the product printed (its warnings and errors), the last 200 KB. */
  log(): string;
}

export const ADMIN = { account: 'admin@e2e.test', password: 'Admin#e2e-2026' };

/** `extraEnv`: product settings of the whole e2e run (e.g. simulator speed), over the defaults below. */
export async function startProduct(extraEnv: Record<string, string> = {}): Promise<Product> {
  if (!existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` before the e2e tests');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'nest-e2e-'));
  const port = await freePort();
  const mqttPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MQTT_PORT: String(mqttPort),
    ADMIN_ACCOUNT: ADMIN.account,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.MQTT_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    // The product logs warnings and errors only (LOG_LEVEL warn); the tail is printed when the run ends.
    output = (output + d.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseUrl}/nest/`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the product did not come up within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    dataDir,
    env,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
    log: () => output,
  };
}

/** Runs the server's admin CLI against the product's data dir; answers its stdout. */
export function cli(env: NodeJS.ProcessEnv, args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
}
