import { Company, RecordState } from '@nest/contracts';
import type { Kysely } from 'kysely';
import { nowSeconds } from './index.js';
import type { DB } from './schema.js';

/** Company of the first administrator. */
export const ADMIN_COMPANY = 'wk';

/**
 * The companies every start makes sure of (idempotent, never overwrites). The features' own reference data
 * (functions, device types) comes with their modules (boot/seed.ts runs both).
 */
export async function seedCompanies(db: Kysely<DB>): Promise<void> {
  const now = nowSeconds();
  await db
    .insertInto('companies')
    .values(Company.entries.map((c) => ({ id: c.value, code: c.value, name: c.label.zh, state: RecordState.NORMAL, created_at: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}
