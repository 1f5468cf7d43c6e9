import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import { callerOf } from '../calls/caller.js';
import { isSuper } from '../db/scope.js';
import { listAudit } from './store.js';

/** /audit/list: the caller's company; a super administrator sees every company's events. */
export function auditHandlers(deps: AppDeps): Handlers {
  const { db } = deps;
  return {
    auditList: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const companyId = isSuper(caller.funList) ? null : caller.user.company_id;
      return { data: await listAudit(db, { companyId, ...f, lang: ctx.lang }) };
    },
  };
}
