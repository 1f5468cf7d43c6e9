import { IssueCode, validateFence, type Issue } from '@nest/geo';
import { ResultCode, textsOf } from '@nest/contracts';
import { actorOf, audit } from '../audit/api.js';
import { callerOf } from '../calls/caller.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import { searchText } from '../db/sql.js';
import type { DeviceRow } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { storedRouteIssues } from '../missions/api.js';
import { fenceInUseText, fenceUses } from './uses.js';
import {
  STATE_DELETED,
  STATE_NORMAL,
  deviceFences,
  fenceInputOf,
  newId,
  planScopeOf,
  presentFence,
  refusal,
  visibleDevice,
  visibleFence,
} from './store.js';

/**
 * Work fences:
 * - /fence/list: the caller's company's fences (super_administrator: all), optional `sn_id` and `search`
 *   (name, case-insensitive), newest first, `page` from 0 and `size`: `{list: Fence[], total}` where Fence
 *   is contracts fenceSchema plus `modified_time` and `company_id`.
 * - /fence/add: the device must be one the caller sees; the fence is checked with geo validateFence
 *   against the device's other fences. Answers the Fence.
 * - /fence/edit: same checks (the fence's own stored copy skipped), then every route bound to the fence is
 *   re-validated against the new shape; a route left outside refuses the edit with issues naming it
 *   (code `fence.strands_route`, item {kind: 'route', id}).
 * - /fence/one: one Fence.
 * - /fence/delete: refused (BAD_REQUEST) while a live route or a planned timed task uses the fence (uses.ts),
 *   the message naming the first few with the count, `data: {routes, tasks}` ([{id, name}]); otherwise the
 *   fence is kept as state 20 and the deletion is an audit entry (fence_delete, detail its name).
 * Refusals: code BAD_REQUEST, msg = the first issue in the caller's language, data {issues}.
 */
export function fenceHandlers(deps: AppDeps): Handlers {
  const { db } = deps;

  return {
    fenceList: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      const { sn_id, search, page, size } = ctx.fields;
      let q = db.selectFrom('fences').where('state', '=', STATE_NORMAL);
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (sn_id) q = q.where('sn_id', '=', sn_id);
      if (search) q = q.where(searchText(['name'], search));
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: rows.map(presentFence), total } };
    },

    fenceOne: async (ctx) => {
      const scope = planScopeOf(callerOf(ctx.caller));
      return { data: presentFence(await visibleFence(db, scope, ctx.fields.id)) };
    },

    fenceAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = planScopeOf(caller);
      const f = ctx.fields;
      const device = await visibleDevice(db, scope, f.sn_id);
      const others = (await deviceFences(db, f.sn_id)).map(fenceInputOf);
      const issues = validateFence({ name: f.name, max_height: f.max_height, boundary: f.boundary, sn_id: f.sn_id }, others);
      if (issues.length > 0) return refusal(issues);
      const now = nowSeconds();
      const row = {
        id: newId(),
        name: f.name,
        max_height: f.max_height,
        boundary: JSON.stringify(f.boundary.map((p) => ({ lat: p.lat, lng: p.lng }))),
        sn_id: f.sn_id,
        company_id: device.company_id,
        state: STATE_NORMAL,
        created_by: caller.user.u_id,
        updated_by: caller.user.u_id,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('fences').values(row).execute();
      return { data: presentFence(row) };
    },

    fenceEdit: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = planScopeOf(caller);
      const f = ctx.fields;
      const current = await visibleFence(db, scope, f.id);
      const device = await visibleDevice(db, scope, f.sn_id);
      const candidate = { id: f.id, name: f.name, max_height: f.max_height, boundary: f.boundary, sn_id: f.sn_id };
      const others = (await deviceFences(db, f.sn_id)).map(fenceInputOf);
      const issues: Issue[] = validateFence(candidate, others);
      if (issues.length > 0) return refusal(issues);

      const routes = await db.selectFrom('missions').selectAll().where('fence_id', '=', f.id).where('state', '=', STATE_NORMAL).execute();
      const stranded: Issue[] = [];
      for (const route of routes) {
        for (const issue of storedRouteIssues(route, candidate, device as DeviceRow)) {
          stranded.push({
            code: IssueCode.FENCE_STRANDS_ROUTE,
            item: { kind: 'route', id: route.id },
            text: { zh: `航线「${textsOf(route.name).zh}」：${issue.text.zh}`, en: `Route "${textsOf(route.name).en}": ${issue.text.en}` },
            ...(issue.at ? { at: issue.at } : {}),
          });
        }
      }
      if (stranded.length > 0) return refusal(stranded);

      const patch = {
        name: f.name,
        max_height: f.max_height,
        boundary: JSON.stringify(f.boundary.map((p) => ({ lat: p.lat, lng: p.lng }))),
        sn_id: f.sn_id,
        company_id: device.company_id,
        updated_by: caller.user.u_id,
        updated_at: nowSeconds(),
      };
      await db.updateTable('fences').set(patch).where('id', '=', current.id).execute();
      return { data: presentFence({ ...current, ...patch }) };
    },

    fenceDelete: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const fence = await visibleFence(db, planScopeOf(caller), ctx.fields.id);
      const uses = await fenceUses(db, fence.id);
      const text = fenceInUseText(fence.name, uses);
      if (text) return { code: ResultCode.BAD_REQUEST, data: uses, message: (lang) => text[lang] };
      await db.updateTable('fences').set({ state: STATE_DELETED, updated_by: caller.user.u_id, updated_at: nowSeconds() }).where('id', '=', fence.id).execute();
      await audit(db, { kind: 'fence_delete', ...actorOf(ctx), companyId: fence.company_id, target: fence.id, detail: { name: fence.name } });
      return { data: { id: fence.id } };
    },
  };
}
