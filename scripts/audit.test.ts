import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * scripts/audit.mjs against a local stand-in for the registry's bulk advisory endpoint: what it sends is
 * the real production dependency tree, what it answers is chosen per test.
 */
type Answer = { status: number; body: unknown };
let answer: Answer = { status: 200, body: {} };
let asked: Record<string, string[]> = {};
let server: Server;
let registry = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/-/npm/v1/security/advisories/bulk') {
        res.writeHead(404).end();
        return;
      }
      asked = JSON.parse(data) as Record<string, string[]>;
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.status === 200 ? JSON.stringify(answer.body) : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function run(env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['scripts/audit.mjs'], { env: { ...process.env, AUDIT_REGISTRY: registry, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code as number) : 0, stdout, stderr }),
    );
  });
}

const advisory = (severity: string, range: string) => ({
  id: 1,
  url: 'https://example.invalid/advisory/1',
  title: `${severity} issue in fastify`,
  severity,
  vulnerable_versions: range,
});

// Each case runs the script (a node process reading the installed tree) once or twice: slow on a busy machine.
describe('dependency audit script', { timeout: 30_000 }, () => {
  it('sends the production dependencies (not dev-only ones) and passes with no advisory', async () => {
    answer = { status: 200, body: {} };
    const r = await run();
    expect(r.code).toBe(0);
    expect(Object.keys(asked)).toContain('fastify');
    expect(Object.keys(asked)).not.toContain('vitest');
    expect(Object.keys(asked)).not.toContain('@nest/server');
    expect(r.stdout).toMatch(/0 high or critical/);
  });

  it('fails on a high or critical advisory that covers an installed version, and prints it', async () => {
    for (const severity of ['high', 'critical']) {
      answer = { status: 200, body: { fastify: [advisory(severity, '>=0.0.1')] } };
      const r = await run();
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${severity} issue in fastify`);
      expect(r.stderr).toMatch(new RegExp(`fastify@${asked.fastify![0]!.replace(/\./g, '\\.')}`));
    }
  });

  it('prints a moderate advisory without failing, and ignores one whose range misses the installed version', async () => {
    answer = { status: 200, body: { fastify: [advisory('moderate', '>=0.0.1'), advisory('critical', '<0.0.1')] } };
    const r = await run();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('moderate issue in fastify');
    expect(r.stderr).not.toContain('critical issue');
  });

  it('says plainly on stderr when the advisory service cannot be asked; fails then only when required', async () => {
    answer = { status: 405, body: null };
    const lenient = await run();
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toMatch(/could not be asked \(HTTP 405/);
    expect(lenient.stderr).toMatch(/NOT checked/);
    const strict = await run({ AUDIT_REQUIRED: '1' });
    expect(strict.code).toBe(2);
  });
});
