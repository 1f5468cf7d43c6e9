import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { seedCompanies } from '../db/seed.js';
import type { DB } from '../db/schema.js';
import { bootstrapAdmin, type AdminBootstrap } from '../users/index.js';
import { seedModules } from './module.js';
import { MODULES } from './modules.js';

export { ADMIN_BOOTSTRAP_KEY, bootstrapAdmin, type AdminBootstrap } from '../users/index.js';

/** Reference data every start makes sure of: companies, then each feature's (functions, the device-type catalogue). Idempotent, never overwrites. */
export async function seedReferenceData(db: Kysely<DB>): Promise<void> {
  await seedCompanies(db);
  await seedModules(db, MODULES);
}

/** Everything a start needs: reference data, then the first administrator. */
export async function seed(db: Kysely<DB>, config: Pick<Config, 'adminAccount' | 'adminPassword' | 'scrypt'>): Promise<AdminBootstrap> {
  await seedReferenceData(db);
  return bootstrapAdmin(db, config);
}
