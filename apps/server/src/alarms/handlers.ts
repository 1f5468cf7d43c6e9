import { AlarmKind, AlarmLevel, ResultCode } from '@nest/contracts';
import type { Handlers } from '../calls/types.js';
import { CallError } from '../calls/errors.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from '../calls/caller.js';
import { planScopeOf, type PlanScope } from '../db/scope.js';
import type { PushHub } from '../push/hub.js';
import { STATE_PENDING, STATE_PROCESSED, pendingCount, presentAlarms } from './store.js';

interface Bounds {
  sn_id?: string;
  start_time?: number;
  end_time?: number;
}

/**
 * /alarm/list, /alarm/process and /alarm/stats, all within the caller's company (super_administrator:
 * every company); an alarm of another company reads as missing (NOT_FOUND_OBJECT).
 */
export function alarmHandlers(deps: AppDeps, hub: Pick<PushHub, 'broadcastAlarm'>): Handlers {
  const { db } = deps;

  /** The alarms of a scope within the common filters (times in s bound raised_at, in ms). */
  const scoped = (scope: PlanScope, f: Bounds) => {
    let q = db.selectFrom('alarms');
    if (!scope.all) q = q.where('company_id', '=', scope.companyId);
    if (f.sn_id) q = q.where('sn_id', '=', f.sn_id);
    if (f.start_time !== undefined) q = q.where('raised_at', '>=', f.start_time * 1000);
    if (f.end_time !== undefined) q = q.where('raised_at', '<', (f.end_time + 1) * 1000);
    return q;
  };
  const pendingOf = (scope: PlanScope) => pendingCount(db, scope.all ? null : scope.companyId);

  return {
    alarmList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const f = ctx.fields;
      let q = scoped(scope, f);
      if (f.level !== undefined) q = q.where('level', '=', f.level);
      if (f.state !== undefined) q = q.where('state', '=', f.state);
      if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q
        .selectAll()
        .orderBy('raised_at', 'desc')
        .orderBy('id')
        .limit(f.size)
        .offset(f.page * f.size)
        .execute();
      return { data: { list: await presentAlarms(db, rows), total, pending: await pendingOf(scope) } };
    },

    alarmProcess: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = planScopeOf(caller);
      const ids = [...new Set(ctx.fields.ids)];
      const note = ctx.fields.note ?? '';
      const now = Date.now();
      // One transaction: every id visible, else nothing changes; only pending ones take this note.
      const changed = await db.transaction().execute(async (trx) => {
        let q = trx.selectFrom('alarms').select(['id', 'state']).where('id', 'in', ids);
        if (!scope.all) q = q.where('company_id', '=', scope.companyId);
        const found = await q.execute();
        if (found.length !== ids.length) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
        const pending = found.filter((r) => Number(r.state) === STATE_PENDING).map((r) => r.id);
        if (pending.length > 0) {
          await trx
            .updateTable('alarms')
            .set({ state: STATE_PROCESSED, processed_at: now, processed_by: caller.user.nick, note })
            .where('id', 'in', pending)
            .where('state', '=', STATE_PENDING)
            .execute();
        }
        return new Set(pending);
      });
      const rows = await db.selectFrom('alarms').selectAll().where('id', 'in', ids).orderBy('raised_at', 'desc').orderBy('id').execute();
      const list = await presentAlarms(db, rows);
      const companies = new Set<string>();
      for (const [i, alarm] of list.entries()) {
        if (!changed.has(alarm.id)) continue;
        const company = rows[i]!.company_id;
        companies.add(company);
        hub.broadcastAlarm(company, { event: 'processed', alarm, pending: await pendingCount(db, company) });
      }
      for (const company of companies) deps.changes.changed(company, 'alarms');
      return { data: { list, pending: await pendingOf(scope) } };
    },

    alarmStats: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const rows = await scoped(scope, ctx.fields)
        .select(['level', 'kind', 'state', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['level', 'kind', 'state'])
        .execute();
      const byLevel = new Map(AlarmLevel.values().map((l) => [l, { level: l, total: 0, pending: 0 }]));
      const byKind = new Map(AlarmKind.values().map((k) => [k as string, { kind: k as string, total: 0, pending: 0 }]));
      let total = 0;
      let pending = 0;
      for (const r of rows) {
        const n = Number(r.n);
        const isPending = Number(r.state) === STATE_PENDING;
        total += n;
        if (isPending) pending += n;
        for (const bucket of [byLevel.get(Number(r.level) as 10 | 20 | 30), byKind.get(r.kind)]) {
          if (!bucket) continue;
          bucket.total += n;
          if (isPending) bucket.pending += n;
        }
      }
      return { data: { total, pending, by_level: [...byLevel.values()], by_kind: [...byKind.values()] } };
    },
  };
}
