import { randomBytes } from 'node:crypto';
import { showText, type AuditEntry, type AuditKind, type AuditOutcome, type Lang } from '@nest/contracts';
import { sql, type Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';
import type { CallContext } from '../calls/types.js';
import { likePattern } from '../db/sql.js';

/** One security event as a module reports it; see migration 008_audit for the columns. */
export interface AuditEvent {
  kind: AuditKind;
  /** Defaults to 'ok'. */
  outcome?: AuditOutcome;
  /** The company the event belongs to (the actor's, or the target's when the actor is unknown). */
  companyId: string;
  /** The actor; null when nobody is signed in (a failed sign-in) or a timed task acts. */
  uId: string | null;
  /** The account as typed (failed sign-ins) or the actor's account. */
  account?: string;
  /** What the event is about: a user id, a function id, a device sn, a group id... */
  target?: string;
  detail?: Record<string, unknown>;
  ip?: string;
}

let seq = 0;
/**
 * Row ids that sort in the order the rows were written (milliseconds, then a per-process counter, then
 * randomness against other instances): events of the same second keep their order in the list.
 */
function nextId(): string {
  seq = (seq + 1) % 36 ** 4;
  return `${Date.now().toString(36).padStart(9, '0')}${seq.toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
}

/** Keys never stored in `detail`, whatever a caller passes: the log must not become a password store. */
const SECRET_KEY = /pass|psw|token|secret|hash|envelope/i;

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_KEY.test(k)).map(([k, v]) => [k, scrub(v)]));
  }
  return value;
}

/**
 * Writes one audit row. It runs in the caller's flow (not fire-and-forget): an event that cannot be
 * recorded fails its call rather than happening unrecorded.
 */
export async function audit(db: Kysely<DB>, e: AuditEvent): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: nextId(),
      at: nowSeconds(),
      company_id: e.companyId,
      u_id: e.uId,
      account: (e.account ?? '').slice(0, 128),
      kind: e.kind,
      target: (e.target ?? '').slice(0, 128),
      detail: JSON.stringify(scrub(e.detail ?? {})).slice(0, 8000),
      ip: (e.ip ?? '').slice(0, 64),
      outcome: e.outcome ?? 'ok',
    })
    .execute();
}

/** The actor part of an event from a signed-in call: company, user, account, address. */
export function actorOf(ctx: Pick<CallContext, 'caller' | 'address'>): Pick<AuditEvent, 'companyId' | 'uId' | 'account' | 'ip'> {
  const user = ctx.caller?.user;
  return { companyId: user?.company_id ?? '', uId: user?.u_id ?? null, account: user?.phone ?? '', ip: ctx.address };
}

export interface AuditQuery {
  /** Null: every company (super administrator). */
  companyId: string | null;
  kind?: string;
  account?: string;
  start_time?: number;
  end_time?: number;
  page: number;
  size: number;
  /** Language of the target names composed here (a demo name in it); default Chinese. */
  lang?: Lang;
}

/** Kinds whose target is a user id. */
const USER_TARGET: ReadonlySet<string> = new Set<AuditKind>(['user_add', 'user_edit', 'user_delete', 'user_recover', 'password_change']);

/**
 * The target as people read it, so that the log never shows a bare id: a user's nick and account (read
 * now, or the account the row recorded), a function's or group's name from the detail, a device's name
 * with its sn.
 */
export function targetName(
  kind: string,
  target: string,
  detail: Record<string, unknown>,
  targetUser: { nick: string | null; phone: string | null } | null,
  lang: Lang = 'zh',
): string {
  if (!target) return '';
  // Names are composed into the text: a demo name (contracts demo-texts) in the reader's language.
  const named = typeof detail.name === 'string' && detail.name ? showText(detail.name, lang) : '';
  if (USER_TARGET.has(kind)) {
    const account = targetUser?.phone || (typeof detail.account === 'string' ? detail.account : '');
    const nick = targetUser?.nick ? showText(targetUser.nick, lang) : '';
    if (nick && account) return `${nick} (${account})`;
    return nick || account;
  }
  if (kind.startsWith('device_')) return named ? `${named} (${target})` : target;
  return named;
}

/** /audit/list: newest first; `account` matches the account column or the actor's nick (LIKE, literal wildcards). */
export async function listAudit(db: Kysely<DB>, q: AuditQuery): Promise<{ list: AuditEntry[]; total: number }> {
  let query = db.selectFrom('audit_log').leftJoin('users', 'users.u_id', 'audit_log.u_id');
  if (q.companyId !== null) query = query.where('audit_log.company_id', '=', q.companyId);
  if (q.kind) query = query.where('audit_log.kind', '=', q.kind);
  if (q.account) {
    const pattern = likePattern(q.account);
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(audit_log.account)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`lower(users.nick)`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (q.start_time !== undefined) query = query.where('audit_log.at', '>=', q.start_time);
  if (q.end_time !== undefined) query = query.where('audit_log.at', '<=', q.end_time);
  const total = Number((await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await query
    .leftJoin('users as target_user', 'target_user.u_id', 'audit_log.target')
    .selectAll('audit_log')
    .select(['users.nick', 'target_user.nick as target_nick', 'target_user.phone as target_phone'])
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(q.size)
    .offset(q.page * q.size)
    .execute();
  return {
    list: rows.map((r) => {
      let detail: Record<string, unknown> = {};
      try {
        detail = JSON.parse(r.detail) as Record<string, unknown>;
      } catch {
        // a row written by hand: shown without detail
      }
      return {
        id: r.id,
        at: Number(r.at),
        company_id: r.company_id,
        u_id: r.u_id,
        user_name: r.nick ?? '',
        account: r.account,
        kind: r.kind as AuditKind,
        target: r.target,
        target_name: targetName(r.kind, r.target, detail, r.target_nick === null && r.target_phone === null ? null : { nick: r.target_nick, phone: r.target_phone }, q.lang),
        detail,
        ip: r.ip,
        outcome: r.outcome as AuditOutcome,
      };
    }),
    total,
  };
}
