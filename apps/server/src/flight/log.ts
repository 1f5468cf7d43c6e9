import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { CommandLogRow, DB } from '../db/schema.js';
import { likePattern } from '../db/sql.js';
import { audit } from '../audit/api.js';
import type { Verdict } from './reply.js';
import type { Actor } from './types.js';

/** cmd_type of a 473 process control in the log (push 401 types are 1-13; the method names it too). */
export const PROCESS_CMD_TYPE = 0;

export interface NewCommand {
  cmd_id: string;
  sn_id: string;
  company_id: string;
  cmd_type: number;
  action_cmd: number;
  method: string;
  params: unknown;
}

/**
 * Inserts the command's row before anything else happens (cmd_id is unique). Answers `{row, fresh}`:
 * fresh false means the cmd_id was known already and `row` is the stored one: the caller must not send.
 */
export async function claimCommand(db: Kysely<DB>, actor: Actor, c: NewCommand): Promise<{ fresh: boolean; row: CommandLogRow }> {
  const row: CommandLogRow = {
    id: randomUUID(),
    cmd_id: c.cmd_id,
    sn_id: c.sn_id,
    company_id: c.company_id,
    u_id: actor.u_id,
    user_name: actor.nick,
    source: actor.source,
    cmd_type: c.cmd_type,
    action_cmd: c.action_cmd,
    method: c.method,
    params: JSON.stringify(c.params ?? {}).slice(0, 4000),
    flight_id: null,
    outcome: 'pending',
    reason: 0,
    detail: '',
    created_at: nowSeconds(),
    finished_at: null,
  };
  const res = await db
    .insertInto('command_log')
    .values(row)
    .onConflict((oc) => oc.column('cmd_id').doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) {
    // The security audit names the command by cmd_id; what it did and how it ended stay in command_log.
    // Demo missions (a simulated operator) are left out so they do not bury people's commands.
    if (actor.source !== 'demo') {
      await audit(db, { kind: 'device_command', companyId: c.company_id, uId: actor.u_id || null, target: c.sn_id, detail: { cmd_id: c.cmd_id, source: actor.source } });
    }
    return { fresh: true, row };
  }
  const stored = await db.selectFrom('command_log').selectAll().where('cmd_id', '=', c.cmd_id).executeTakeFirstOrThrow();
  return { fresh: false, row: stored };
}

/** Writes the outcome (and what was really sent: method, params, flight id). */
export async function finishCommand(
  db: Kysely<DB>,
  cmdId: string,
  v: Verdict,
  detail: string,
  sent?: { method: string; params: unknown; flight_id: string | null },
): Promise<void> {
  await db
    .updateTable('command_log')
    .set({
      outcome: v.outcome,
      reason: v.reason,
      detail,
      finished_at: nowSeconds(),
      ...(sent ? { method: sent.method, params: JSON.stringify(sent.params ?? {}).slice(0, 4000), flight_id: sent.flight_id } : {}),
    })
    .where('cmd_id', '=', cmdId)
    .execute();
}

/** The route a flight was launched with (the latest command naming that flight id), from the log. */
export async function missionOfFlight(db: Kysely<DB>, flightId: string): Promise<string | null> {
  const row = await db
    .selectFrom('command_log')
    .select(['params'])
    .where('flight_id', '=', flightId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row) return null;
  try {
    const p = JSON.parse(row.params) as { mission_id?: unknown };
    return typeof p.mission_id === 'string' ? p.mission_id : null;
  } catch {
    return null;
  }
}

export interface LogQuery {
  companyId: string;
  all: boolean;
  sn_id?: string;
  search?: string;
  start_time?: number;
  end_time?: number;
  page: number;
  size: number;
}

/** /command/log: company-scoped (super: all), filters, newest first. */
export async function listCommands(db: Kysely<DB>, q: LogQuery): Promise<{ list: ReturnType<typeof presentCommand>[]; total: number }> {
  let query = db.selectFrom('command_log');
  if (!q.all) query = query.where('company_id', '=', q.companyId);
  if (q.sn_id) query = query.where('sn_id', '=', q.sn_id);
  if (q.search) {
    const pattern = likePattern(q.search);
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(user_name)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(sn_id)`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (q.start_time !== undefined) query = query.where('created_at', '>=', q.start_time);
  if (q.end_time !== undefined) query = query.where('created_at', '<=', q.end_time);
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.size)
    .offset(q.page * q.size)
    .execute();
  return { list: rows.map(presentCommand), total };
}

export function presentCommand(r: CommandLogRow) {
  let params: unknown;
  try {
    params = JSON.parse(r.params);
  } catch {
    params = {};
  }
  return {
    id: r.id,
    cmd_id: r.cmd_id,
    sn_id: r.sn_id,
    u_id: r.u_id,
    user_name: r.user_name,
    source: r.source,
    cmd_type: Number(r.cmd_type),
    action_cmd: Number(r.action_cmd),
    method: r.method,
    params,
    flight_id: r.flight_id,
    outcome: r.outcome,
    reason: Number(r.reason),
    detail: r.detail,
    created_at: Number(r.created_at),
    finished_at: r.finished_at === null ? null : Number(r.finished_at),
  };
}
