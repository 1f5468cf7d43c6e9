/**
 * Global setup of the projects that need PostgreSQL (server-pg, cluster): one throwaway cluster for the whole
 * run (infra.ts startPostgres), shared by every project that lists this setup, unless DATABASE_URL_TEST names an
 * existing server whose database can CREATE DATABASE. Each test file creates a database of its own on it
 * (helpers.ts createTestDatabase). Provides the admin URL (`inject('pgAdminUrl')`); the last project's teardown
 * stops and removes the cluster. Fault tests that stop or freeze PostgreSQL start a cluster of their own.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres, type PostgresCluster } from './infra.js';

// Vitest imports a global setup module once per run, so these are shared by the projects that list it.
let shared: Promise<PostgresCluster> | null = null;
let users = 0;

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.DATABASE_URL_TEST) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL_TEST);
    return;
  }
  shared ??= startPostgres();
  users += 1;
  project.provide('pgAdminUrl', (await shared).url);
  return async () => {
    users -= 1;
    if (users > 0 || !shared) return;
    const cluster = await shared;
    shared = null;
    await cluster.close();
  };
}
