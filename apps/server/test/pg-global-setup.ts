/**
 * Global setup of the server-pg vitest project: a throwaway PostgreSQL cluster for the run (infra.ts
 * startPostgres), unless DATABASE_URL_TEST names an existing server whose database can CREATE DATABASE.
 * Provides the admin URL to the tests (`inject('pgAdminUrl')`); teardown stops and removes the cluster.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './infra.js';

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.DATABASE_URL_TEST) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL_TEST);
    return;
  }
  const cluster = await startPostgres();
  project.provide('pgAdminUrl', cluster.url);
  return () => cluster.close();
}
