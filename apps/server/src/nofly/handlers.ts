import { NoFlyShape, type LatLng, type ParsedFields } from '@nest/contracts';
import { noFlyShapeIssues } from '@nest/geo';
import { actorOf, audit } from '../audit/api.js';
import { callerOf } from '../calls/caller.js';
import type { CallContext, Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import { inPlanScope, planScopeOf, type PlanScope } from '../db/scope.js';
import { STATE_DELETED, STATE_NORMAL, newId, searchText } from '../db/sql.js';
import type { AppDeps } from '../deps.js';
import { refusal, visibleDevice } from '../fences/api.js';
import { presentNoFly, visibleNoFly } from './store.js';

type NoFlyFields = ParsedFields<'noFlyAdd'>;

/** The columns of a zone from its fields: a circle keeps no outline, a polygon no centre or radius. */
function columnsOf(f: NoFlyFields) {
  const circle = f.shape === NoFlyShape.CIRCLE;
  const ring = (pts: readonly LatLng[]) => JSON.stringify(pts.map((p) => ({ lat: p.lat, lng: p.lng })));
  return {
    name: f.name,
    reason: f.reason ?? '',
    shape: f.shape,
    boundary: circle ? '[]' : ring(f.boundary ?? []),
    center_lat: circle ? f.center!.lat : null,
    center_lng: circle ? f.center!.lng : null,
    radius: circle ? f.radius! : null,
    sn_id: f.sn_id ?? '',
    valid_from: f.valid_from ?? null,
    valid_to: f.valid_to ?? null,
  };
}

/**
 * Company no-fly zones (contracts NoFlyZone; README.md):
 * - /nofly/list: the caller's company's live zones (super_administrator: all), `search` on the name,
 *   newest first; with `sn_id` the zones that apply to that device: its company's zones for every device
 *   and its own (none for a device the caller does not see).
 * - /nofly/add, /nofly/edit: a device named by `sn_id` must be one the caller sees (the zone belongs to
 *   its company); without one the zone is the caller's company's (an edit keeps the zone's company). The
 *   outline must be usable (geo noFlyShapeIssues): refused with BAD_REQUEST, the first issue as the message,
 *   `data: {issues}`, nothing saved. Saved routes the zone now crosses do not refuse the write: an urgent
 *   zone must be declarable at once; those routes show the conflict and cannot take off.
 * - /nofly/delete: state 20 (the row stays for the record).
 * Each write is an audit entry (nofly_add, nofly_edit, nofly_delete; target the zone id, detail its name).
 * `active` is computed from the server clock.
 */
export function noFlyHandlers(deps: AppDeps, now: () => number = nowSeconds): Handlers {
  const { db } = deps;

  /** The company a zone belongs to: its device's when it names one, else `fallback`. */
  async function companyOf(scope: PlanScope, sn: string | undefined, fallback: string): Promise<string> {
    return sn ? (await visibleDevice(db, scope, sn)).company_id : fallback;
  }

  const auditWrite = (ctx: CallContext, kind: 'nofly_add' | 'nofly_edit' | 'nofly_delete', companyId: string, id: string, name: string) =>
    audit(db, { kind, ...actorOf(ctx), companyId, target: id, detail: { name } });

  return {
    noFlyList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const { sn_id, search, page, size } = ctx.fields;
      let q = db.selectFrom('no_fly_zones').where('state', '=', STATE_NORMAL);
      if (sn_id) {
        // A device the caller does not see has no zones for them (an empty list, as for an unknown device).
        const device = await db.selectFrom('devices').select('company_id').where('sn_id', '=', sn_id).where('state', '=', STATE_NORMAL).executeTakeFirst();
        if (!device || !inPlanScope(scope, device)) return { data: { list: [], total: 0 } };
        q = q.where('company_id', '=', device.company_id).where((eb) => eb.or([eb('sn_id', '=', ''), eb('sn_id', '=', sn_id)]));
      } else if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (search) q = q.where(searchText(['name'], search));
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      const t = now();
      return { data: { list: rows.map((r) => presentNoFly(r, t)), total } };
    },

    noFlyAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = planScopeOf(caller);
      const f = ctx.fields;
      const companyId = await companyOf(scope, f.sn_id, caller.user.company_id);
      const issues = noFlyShapeIssues(f);
      if (issues.length > 0) return refusal(issues);
      const t = now();
      const row = {
        id: newId(),
        company_id: companyId,
        ...columnsOf(f),
        state: STATE_NORMAL,
        user_id: caller.user.u_id,
        user_name: caller.user.nick,
        created_at: t,
        modified_at: t,
      };
      await db.insertInto('no_fly_zones').values(row).execute();
      await auditWrite(ctx, 'nofly_add', companyId, row.id, row.name);
      return { data: presentNoFly(row, t) };
    },

    noFlyEdit: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = planScopeOf(caller);
      const f = ctx.fields;
      const current = await visibleNoFly(db, scope, f.id);
      const companyId = await companyOf(scope, f.sn_id, current.company_id);
      const issues = noFlyShapeIssues(f);
      if (issues.length > 0) return refusal(issues);
      const t = now();
      const patch = { ...columnsOf(f), company_id: companyId, user_id: caller.user.u_id, user_name: caller.user.nick, modified_at: t };
      await db.updateTable('no_fly_zones').set(patch).where('id', '=', current.id).execute();
      await auditWrite(ctx, 'nofly_edit', companyId, current.id, patch.name);
      return { data: presentNoFly({ ...current, ...patch }, t) };
    },

    noFlyDelete: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const current = await visibleNoFly(db, scope, ctx.fields.id);
      await db.updateTable('no_fly_zones').set({ state: STATE_DELETED, modified_at: now() }).where('id', '=', current.id).execute();
      await auditWrite(ctx, 'nofly_delete', current.company_id, current.id, current.name);
      return { data: { id: current.id } };
    },
  };
}
