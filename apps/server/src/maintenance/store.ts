import { randomUUID } from 'node:crypto';
import {
  LOG_DOWNLOAD_PATH,
  opOutcomeSchema,
  type DeviceOp,
  type DeviceOpStateValue,
  type MaintenanceKindValue,
  type OpOutcome,
} from '@nest/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { DB, DeviceOpsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/sql.js';

export type OpRow = Selectable<DeviceOpsTable>;

export interface NewOp {
  sn_id: string;
  company_id: string;
  kind: MaintenanceKindValue;
  params: Record<string, unknown>;
  u_id: string;
  user_name: string;
}

/** Thrown when the device already runs an operation of that kind (the unique partial index). */
export class OpRunningError extends Error {}

/** Inserts a running operation; the unique index (sn_id, kind) where running refuses a second one. */
export async function insertOp(db: Kysely<DB>, input: NewOp, now = Date.now()): Promise<OpRow> {
  const row: OpRow = {
    id: randomUUID(),
    sn_id: input.sn_id,
    company_id: input.company_id,
    kind: input.kind,
    state: 'running',
    progress: 0,
    params: JSON.stringify(input.params),
    outcome: JSON.stringify({ stage: 'sent' }),
    reason: 0,
    file_key: null,
    file_name: null,
    file_size: null,
    u_id: input.u_id,
    user_name: input.user_name,
    created_at: now,
    updated_at: now,
    finished_at: null,
  };
  try {
    await db.insertInto('device_ops').values(row).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new OpRunningError(`${input.kind} already running on ${input.sn_id}`);
    throw err;
  }
  return row;
}

export const findOp = (db: Kysely<DB>, id: string): Promise<OpRow | undefined> =>
  db.selectFrom('device_ops').selectAll().where('id', '=', id).executeTakeFirst();

export interface OpPatch {
  state?: DeviceOpStateValue;
  progress?: number;
  outcome?: OpOutcome;
  reason?: number;
  file?: { key: string; name: string; size: number };
}

/**
 * Applies a change to a RUNNING operation only (a late event for a finished one changes nothing), merging
 * the outcome. Answers the new row, or undefined when the row was not running any more.
 */
export async function updateRunningOp(db: Kysely<DB>, id: string, patch: OpPatch, now = Date.now()): Promise<OpRow | undefined> {
  const current = await findOp(db, id);
  if (!current || current.state !== 'running') return undefined;
  const outcome = { ...outcomeOf(current), ...(patch.outcome ?? {}) };
  const finished = patch.state !== undefined && patch.state !== 'running';
  const set = {
    state: patch.state ?? current.state,
    // Progress never goes back while running; a success ends at 100.
    progress: patch.state === 'ok' ? 100 : Math.max(Number(current.progress), patch.progress ?? 0),
    outcome: JSON.stringify(outcome),
    reason: patch.reason ?? Number(current.reason),
    updated_at: now,
    finished_at: finished ? now : null,
    ...(patch.file ? { file_key: patch.file.key, file_name: patch.file.name, file_size: patch.file.size } : {}),
  };
  const r = await db.updateTable('device_ops').set(set).where('id', '=', id).where('state', '=', 'running').executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return undefined;
  return { ...current, ...set };
}

/** Running operations (all, or of one device). */
export function runningOps(db: Kysely<DB>, sn?: string): Promise<OpRow[]> {
  let q = db.selectFrom('device_ops').selectAll().where('state', '=', 'running');
  if (sn) q = q.where('sn_id', '=', sn);
  return q.execute();
}

export function outcomeOf(row: Pick<OpRow, 'outcome'>): OpOutcome {
  try {
    const r = opOutcomeSchema.safeParse(JSON.parse(row.outcome));
    return r.success ? r.data : {};
  } catch {
    return {};
  }
}

function paramsOf(row: Pick<OpRow, 'params'>): Record<string, unknown> {
  try {
    const p = JSON.parse(row.params) as unknown;
    return p && typeof p === 'object' && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const seconds = (ms: number | null): number | null => (ms === null ? null : Math.floor(Number(ms) / 1000));

/** Purpose of the signed links (storage/links.ts) that download uploaded logs. */
export const LOG_LINK_PURPOSE = 'device-log';

/** The row as the console sees it (contracts deviceOpSchema). */
export function presentOp(row: OpRow): DeviceOp {
  return {
    id: row.id,
    sn_id: row.sn_id,
    kind: row.kind as DeviceOp['kind'],
    state: row.state as DeviceOp['state'],
    progress: Number(row.progress),
    params: paramsOf(row),
    outcome: outcomeOf(row),
    reason: Number(row.reason),
    user_name: row.user_name,
    create_time: seconds(Number(row.created_at))!,
    modified_time: seconds(Number(row.updated_at))!,
    finish_time: seconds(row.finished_at === null ? null : Number(row.finished_at)),
    file:
      row.file_key && row.file_name
        ? { name: row.file_name, size: Number(row.file_size ?? 0), url: `${LOG_DOWNLOAD_PATH}/${row.id}` }
        : null,
  };
}

export async function listOps(
  db: Kysely<DB>,
  q: { sn_id: string; kind?: string; page: number; size: number },
): Promise<{ rows: OpRow[]; total: number }> {
  let base = db.selectFrom('device_ops').where('sn_id', '=', q.sn_id);
  if (q.kind) base = base.where('kind', '=', q.kind);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(q.size).offset(q.page * q.size).execute();
  return { rows, total };
}
