import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Database } from './index.js';
import * as m001 from './migrations/001_initial.js';
import * as m002 from './migrations/002_devices.js';
import * as m003 from './migrations/003_planning.js';
import * as m004 from './migrations/004_flight.js';
import * as m005 from './migrations/005_insight.js';
import * as m006 from './migrations/006_admin.js';
import * as m007 from './migrations/007_department_names.js';
import * as m008 from './migrations/008_audit.js';
import * as m009 from './migrations/009_password_nonces.js';
import * as m010 from './migrations/010_map_packages.js';
import * as m011 from './migrations/011_device_protocol.js';
import * as m012 from './migrations/012_health_alarms.js';
import * as m013 from './migrations/013_no_fly_zones.js';
import * as m014 from './migrations/014_strip_groups.js';

/**
 * Versioned migrations, listed statically (no filesystem globbing): add `NNN_name.ts` under migrations/
 * and one line here. Kysely records applied names in `kysely_migration`, so running again is a no-op.
 */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001_initial': m001,
  '002_devices': m002,
  '003_planning': m003,
  '004_flight': m004,
  '005_insight': m005,
  '006_admin': m006,
  '007_department_names': m007,
  '008_audit': m008,
  '009_password_nonces': m009,
  '010_map_packages': m010,
  '011_device_protocol': m011,
  '012_health_alarms': m012,
  '013_no_fly_zones': m013,
  '014_strip_groups': m014,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...MIGRATIONS }) };

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Brings the schema up to date; answers the names applied by this run. */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const cause = result.error instanceof Error ? result.error.message || String(result.error) : String(result.error);
    throw new MigrationError(
      failed ? `Database migration ${failed} failed: ${cause}` : `Cannot bring the database up to date: ${cause}`,
    );
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
