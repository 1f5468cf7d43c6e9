import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole tree. Server tests run twice: on SQLite and on a real PostgreSQL that the
 * pg global setup starts on loopback (or the one DATABASE_URL_TEST names).
 */
export default defineConfig({
  test: {
    // Three test files at a time. Vitest's default on a 2-core machine is one, but most server files wait
    // on sockets, timers and databases rather than compute: three cut the non-e2e run from about 25 to
    // about 16 minutes there. Files that must run alone say so (fileParallelism: false).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/simulator/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // The first render of a test file loads antd's modules into jsdom: slow on a busy 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { NEST_TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          env: { NEST_TEST_DB: 'postgres' },
          globalSetup: ['apps/server/test/pg-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // Several server instances and fault tests against a real PostgreSQL and Mosquitto that the
          // tests start, stop and restart themselves (apps/server/test/infra.ts); one file at a time.
          name: 'cluster',
          include: ['apps/server/cluster/**/*.test.ts'],
          environment: 'node',
          env: { NEST_TEST_DB: 'postgres' },
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          setupFiles: ['e2e/support/failures.ts'],
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
