import { ResultCode } from '@nest/contracts';
import { CallError } from '../calls/errors.js';
import type { AppDeps } from '../deps.js';
import { inPlanScope, type PlanScope } from '../db/scope.js';
import { STATE_DELETED, STATE_NORMAL } from '../db/sql.js';
import { syncSortieCount } from '../sorties/api.js';
import type { MediaStore } from '../storage/index.js';
import { keyOfUrl } from './files.js';

interface FileRefs {
  url: string;
  thumb_url: string;
}

/** Removes the objects of deleted results; after the transaction, so a rollback never loses a file. */
export async function removeResultFiles(media: MediaStore, rows: readonly FileRefs[]): Promise<void> {
  const keys = rows.flatMap((r) => [keyOfUrl(r.url), keyOfUrl(r.thumb_url)]).filter((k): k is string => k !== null);
  // The rows are already deleted: an object that could not be removed is only wasted space, not an error.
  await Promise.allSettled(keys.map((k) => media.delete(k)));
}

const notFound = () => new CallError(ResultCode.NOT_FOUND_OBJECT);

/**
 * Deletes results by id (state 20) and keeps their sorties' counts in step. Every id must be a live result
 * the caller may see, else NOT_FOUND_OBJECT and nothing changes.
 */
export async function deleteResultIds(deps: AppDeps, scope: PlanScope, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const rows = await deps.db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('results')
      .select(['id', 'company_id', 'sort_id', 'url', 'thumb_url'])
      .where('id', 'in', unique)
      .where('state', '=', STATE_NORMAL)
      .execute();
    if (found.length !== unique.length || found.some((r) => !inPlanScope(scope, r))) throw notFound();
    await trx.updateTable('results').set({ state: STATE_DELETED }).where('id', 'in', unique).execute();
    for (const s of new Set(found.map((r) => r.sort_id).filter((s): s is string => s !== null))) await syncSortieCount(trx, s);
    return found;
  });
  for (const company of new Set(rows.map((r) => r.company_id))) deps.changes.changed(company, 'results');
  await removeResultFiles(deps.media, rows);
}

/** Deletes every result of one sortie the caller may see. */
export async function deleteResultsOfSortie(deps: AppDeps, scope: PlanScope, sortId: string): Promise<void> {
  const rows = await deps.db.transaction().execute(async (trx) => {
    const sortie = await trx.selectFrom('sorties').select(['id', 'company_id']).where('id', '=', sortId).where('state', '=', STATE_NORMAL).executeTakeFirst();
    if (!sortie || !inPlanScope(scope, sortie)) throw notFound();
    const found = await trx.selectFrom('results').select(['url', 'thumb_url']).where('sort_id', '=', sortId).where('state', '=', STATE_NORMAL).execute();
    await trx.updateTable('results').set({ state: STATE_DELETED }).where('sort_id', '=', sortId).where('state', '=', STATE_NORMAL).execute();
    await syncSortieCount(trx, sortId);
    return { found, company: sortie.company_id };
  });
  deps.changes.changed(rows.company, 'results');
  await removeResultFiles(deps.media, rows.found);
}

/** Deletes sorties with their results and tracks; all-or-nothing like deleteResultIds. */
export async function deleteSorties(deps: AppDeps, scope: PlanScope, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const rows = await deps.db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('sorties').select(['id', 'company_id']).where('id', 'in', unique).where('state', '=', STATE_NORMAL).execute();
    if (found.length !== unique.length || found.some((r) => !inPlanScope(scope, r))) throw notFound();
    const files = await trx.selectFrom('results').select(['url', 'thumb_url']).where('sort_id', 'in', unique).where('state', '=', STATE_NORMAL).execute();
    await trx.updateTable('results').set({ state: STATE_DELETED }).where('sort_id', 'in', unique).where('state', '=', STATE_NORMAL).execute();
    await trx.updateTable('sorties').set({ state: STATE_DELETED, count: 0 }).where('id', 'in', unique).execute();
    // The track is only good for replaying the sortie: no reason to keep it.
    await trx.deleteFrom('sortie_track').where('sort_id', 'in', unique).execute();
    return { files, companies: new Set(found.map((r) => r.company_id)) };
  });
  for (const company of rows.companies) {
    deps.changes.changed(company, 'sorties');
    deps.changes.changed(company, 'results');
  }
  await removeResultFiles(deps.media, rows.files);
}
