import type { Handlers } from '../calls/types.js';
import { callerOf } from '../calls/caller.js';
import type { AppDeps } from '../deps.js';
import { planScopeOf } from '../db/scope.js';
import { analyse } from './analysis.js';
import { ranking } from './ranking.js';

/** /ins/ranking and /data/analyse, in the caller's company (super_administrator: every company). */
export function statsHandlers(deps: AppDeps): Handlers {
  return {
    insRanking: async (ctx) => ({ data: await ranking(deps.db, planScopeOf(callerOf(ctx.caller)), ctx.fields) }),
    dataAnalyse: async (ctx) => ({ data: await analyse(deps.db, planScopeOf(callerOf(ctx.caller)), ctx.fields) }),
  };
}
