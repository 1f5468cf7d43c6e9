/**
 * Global setup of the projects that need PostgreSQL (server-pg, cluster): one throwaway cluster for the whole
 * run (infra.ts startPostgres), state.shared by every project that lists this setup, unless DATABASE_URL_TEST names an
 * existing server whose database can CREATE DATABASE. Each test file creates a database of its own on it
 * (helpers.ts createTestDatabase). Provides the admin URL (`inject('pgAdminUrl')`); the last project's teardown
 * stops and removes the cluster. Fault tests that stop or freeze PostgreSQL start a cluster of their own.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresCluster } from './infra.js';

// Kept on the process, not in this module: vitest imports a global setup module once per project.
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for('nest.test.postgres')] ??= { shared: null, users: 0 }) as {
  shared: Promise<PostgresCluster> | null;
  users: number;
};

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.DATABASE_URL_TEST) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL_TEST);
    return;
  }
  state.shared ??= startPostgres();
  state.users += 1;
  project.provide('pgAdminUrl', (await state.shared).url);
  return async () => {
    state.users -= 1;
    if (state.users > 0 || !state.shared) return;
    const cluster = await state.shared;
    state.shared = null;
    await cluster.close();
  };
}
