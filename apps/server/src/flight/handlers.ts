import { callerOf } from '../calls/caller.js';
import type { Caller, Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import { isSuper } from '../db/scope.js';
import { listCommands } from './log.js';
import type { Actor, FlightRuntime } from './types.js';

/** The actor of a call: the signed-in user (super_administrator: every company). */
export const actorOf = (caller: Caller): Actor => ({
  u_id: caller.user.u_id,
  nick: caller.user.nick,
  company_id: caller.user.company_id,
  all: isSuper(caller.funList),
  source: 'console',
});

/**
 * - /flight/check: the pre-flight checks of a device (and route) now, `{ready, checks}`; a device the
 *   caller cannot see answers ready false with one failing check (reason 16), like a takeoff would.
 * - /command/log: the audit log, company-scoped (super_administrator: all); filters sn_id, search (user
 *   name or sn), start_time / end_time (s); newest first; `{list, total}`.
 */
export function flightHandlers(deps: AppDeps, flight: FlightRuntime): Handlers {
  return {
    flightCheck: async (ctx) => {
      const actor = actorOf(callerOf(ctx.caller));
      return { data: await flight.checks(actor, ctx.fields.sn_id, ctx.fields.mission_id || undefined, ctx.lang) };
    },
    commandLog: async (ctx) => {
      const actor = actorOf(callerOf(ctx.caller));
      const f = ctx.fields;
      return {
        data: await listCommands(deps.db, {
          companyId: actor.company_id,
          all: actor.all,
          sn_id: f.sn_id || undefined,
          search: f.search || undefined,
          start_time: f.start_time ?? undefined,
          end_time: f.end_time ?? undefined,
          page: f.page,
          size: f.size,
        }),
      };
    },
  };
}
