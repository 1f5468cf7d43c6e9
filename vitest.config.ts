import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * One runner for the whole tree. Server tests run twice: on SQLite and on a real PostgreSQL that the pg global
 * setup starts on loopback once per run (or the one DATABASE_URL_TEST names). How to write a test that holds on
 * a busy machine, and how long each part takes: docs/testing.md.
 */

/**
 * One fast-check seed per run, fixed here before any worker starts (scripts/test-support/fast-check.ts applies
 * it in every worker): FC_SEED=<n> repeats a run's cases, FC_SEED=random draws a new seed, and without it every
 * run draws the same cases.
 */
const DEFAULT_FC_SEED = 20261126;
const fcSeed =
  process.env.FC_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : process.env.FC_SEED ? Number(process.env.FC_SEED) : DEFAULT_FC_SEED;
if (!Number.isSafeInteger(fcSeed)) throw new Error(`FC_SEED must be an integer or "random", got ${process.env.FC_SEED}`);
process.env.FC_SEED = String(fcSeed);
if (!process.env.VITEST_POOL_ID) console.log(`fast-check seed ${fcSeed} (FC_SEED=${fcSeed} draws the same cases again)`);
const setupFiles = ['scripts/test-support/fast-check.ts'];

/**
 * Time limits are safety nets against a hang, not expectations: tests wait for events (docs/testing.md). A
 * server test's waits give up after 60 s (apps/server/test/live.ts WAIT_LIMIT_MS), under the test's limit, so
 * the failure says what was awaited.
 */
const SERVER_TIMEOUTS = { testTimeout: 120_000, hookTimeout: 180_000 };

/**
 * Test files share their worker's module cache (isolate: false): importing the server (fastify, aedes, mqtt,
 * kysely, the AWS SDK, the contracts) took about four seconds per file, more than most files' tests, and antd
 * as long in the test DOM. A file must therefore leave nothing behind: close what it starts in afterAll,
 * restore real timers, and never change module state (process.env, globals) that another file reads.
 */
const SHARED_MODULES = { isolate: false };

/**
 * Test files under `dir` (matching `pattern`) that replace modules (vi.mock, vi.doMock): they run isolated, in a
 * project of their own, because a replaced module would stay replaced for the next file of a shared worker.
 * Found by reading the files, so a new test that mocks is isolated without anyone listing it.
 */
function filesThatMock(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !pattern.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (/\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8'))) found.push(file.split(path.sep).join('/'));
  }
  return found.sort();
}
const webMocking = filesThatMock('apps/web/src', /\.test\.tsx?$/);
// Server and unit tests run real parts (databases, brokers, the simulator, the packages): they never replace a
// module, so all of them can share their workers' modules.
const noMocking = ['apps/server', 'packages', 'apps/simulator', 'scripts', 'bench']
  .flatMap((dir) => filesThatMock(dir, /\.test\.ts$/))
  .filter((f) => !f.includes('/node_modules/'));
if (noMocking.length > 0) throw new Error(`server and unit tests must not replace modules (vi.mock): ${noMocking.join(', ')}`);
const serverTests = ['apps/server/src/**/*.test.ts'];

/**
 * Server test files whose subject does not depend on the database (the device link and brokers, push
 * frames and fan-out, presence timing, keys and passwords, tile and glyph files, object storage) say so with
 * a comment line `Database: SQLite only` and its reason: they run on SQLite alone. Every call's SQL still
 * runs on both databases through the call matrices, company-scope and hostile-form tests and each feature's
 * own tests. Found by reading the files, like the mocking ones.
 */
function sqliteOnly(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.test.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (/^\s*(\*|\/\/)\s*Database: SQLite only\b/m.test(readFileSync(file, 'utf8'))) found.push(file.split(path.sep).join('/'));
  }
  return found.sort();
}
const sqliteOnlyServerTests = sqliteOnly('apps/server/src');

/**
 * Test files that run after another one of their project, because they reuse what it leaves: results.e2e
 * reads the results of a landed sortie and takes flight.e2e's (flown from the console, photos uploaded)
 * instead of flying one of its own, about half a minute of simulated flight, when it runs on the same
 * product after it. Each still passes alone or beside the other: it then makes what it needs itself.
 */
const RUNS_AFTER: Record<string, string> = { 'e2e/results.e2e.ts': 'e2e/flight.e2e.ts' };

/** Vitest's order (failed first, then the slowest), with each file of RUNS_AFTER moved right after the file it reuses. */
class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const key = (f: TestSpecification) => `${f.project.name}:${path.relative(f.project.config.root, f.moduleId).split(path.sep).join('/')}`;
    for (const [later, earlier] of Object.entries(RUNS_AFTER)) {
      for (const project of new Set(sorted.map((f) => f.project.name))) {
        const from = sorted.findIndex((f) => key(f) === `${project}:${later}`);
        const to = sorted.findIndex((f) => key(f) === `${project}:${earlier}`);
        if (from < 0 || to < 0 || from > to) continue;
        const [moved] = sorted.splice(from, 1);
        sorted.splice(to, 0, moved!);
      }
    }
    return sorted;
  }
}

export default defineConfig({
  test: {
    // Three test files at a time. Vitest's default on a 2-core machine is one, but most server files wait
    // on sockets, timers and databases rather than compute. Files that must run alone say so
    // (fileParallelism: false).
    maxWorkers: 3,
    sequence: { sequencer: Sequencer },
    reporters: ['default', './scripts/test-support/timing-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/simulator/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          ...SHARED_MODULES,
          setupFiles,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude: webMocking,
          environment: 'happy-dom',
          ...SHARED_MODULES,
          setupFiles: [...setupFiles, 'apps/web/src/test/i18n.ts', 'apps/web/src/test/fresh-page.ts'],
          // The first render of a test file loads antd's modules into the test DOM (happy-dom): slow on a busy
          // 2-core machine.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web-mocks',
          include: webMocking,
          environment: 'happy-dom',
          setupFiles: [...setupFiles, 'apps/web/src/test/i18n.ts'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: serverTests,
          environment: 'node',
          env: { NEST_TEST_DB: 'sqlite' },
          ...SHARED_MODULES,
          globalSetup: ['apps/server/test/build-setup.ts', 'apps/server/test/template-setup.ts'],
          setupFiles,
          ...SERVER_TIMEOUTS,
        },
      },
      {
        test: {
          name: 'server-pg',
          include: serverTests,
          exclude: sqliteOnlyServerTests,
          environment: 'node',
          env: { NEST_TEST_DB: 'postgres' },
          ...SHARED_MODULES,
          globalSetup: ['apps/server/test/build-setup.ts', 'apps/server/test/pg-global-setup.ts', 'apps/server/test/template-setup.ts'],
          setupFiles,
          ...SERVER_TIMEOUTS,
        },
      },
      {
        test: {
          // Several server instances and fault tests against a real PostgreSQL and Mosquitto (apps/server/test/
          // infra.ts): the shared cluster where a test only needs a database, a cluster of its own where it stops
          // or freezes PostgreSQL. One file at a time.
          name: 'cluster',
          include: ['apps/server/cluster/**/*.test.ts'],
          environment: 'node',
          env: { NEST_TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/pg-global-setup.ts', 'apps/server/test/template-setup.ts'],
          setupFiles,
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          setupFiles: [...setupFiles, 'e2e/support/failures.ts'],
          // One file at a time, on the product of its worker (e2e/global-setup.ts starts one per worker, at
          // most two). Two at a time, each on a product of its own, took 371 s against about 400 s on the
          // 2-core machine: Chromium keeps the cores busy, every file ran about twice as slowly, and the
          // slowest waits came near their limits. A run with more workers is a vitest invocation of its own
          // (npm test, test:e2e), so that its workers are numbered from 1.
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
