import { ResultCode, STATIC_RESOURCES, STATIC_TOKEN_HEADER, calls, holds, showTexts } from '@nest/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findLiveSession } from '../auth/api.js';
import { envelope } from '../calls/errors.js';
import { headerLang } from '../calls/routes.js';
import type { AppDeps } from '../deps.js';
import { planScopeOf, type PlanScope } from '../db/scope.js';
import { ranking } from './ranking.js';
import { checkingTypes, equipmentRecord, realtimeMessages } from './screen.js';

/** The function a session needs for the data-screen resources. */
export const SCREEN_FUNCTION = 'menu_home';

/**
 * The data-screen resources (contracts STATIC_RESOURCES), computed from the database and the live link
 * on every request: header `token` must be a live session (checked like the calls: findLiveSession) whose
 * user holds `menu_home`; answers are the caller's company's figures (super_administrator: all), plain
 * JSON, `Cache-Control: no-store`. Without a live session: 401 with the LOGIN_EXPIRED envelope; without
 * the function: 401 with NO_PERMISSION.
 */
export function registerScreenResources(app: FastifyInstance, deps: AppDeps): void {
  const resource = (url: string, answer: (scope: PlanScope, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => {
    app.get(url, async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const raw = request.headers[STATIC_TOKEN_HEADER];
      const token = typeof raw === 'string' ? raw : '';
      const caller = token ? await findLiveSession(deps.db, token, deps.sessions) : null;
      const refuse = (code: number) => reply.code(401).send(envelope(code, headerLang(request)));
      if (!caller) return refuse(ResultCode.LOGIN_EXPIRED);
      if (!holds(caller.funList, SCREEN_FUNCTION)) return refuse(ResultCode.NO_PERMISSION);
      // Demo names (contracts demo-texts) in the page's language, sent as Accept-Language.
      const data = await answer(planScopeOf(caller), request, reply);
      return reply.sent ? data : showTexts(data, headerLang(request));
    });
  };

  resource(STATIC_RESOURCES.inspectionLeaderboard, async (scope, request, reply) => {
    const q = request.query as Record<string, unknown>;
    // The same fields (and defaults) as /ins/ranking, over all time.
    const parsed = calls.insRanking.fields.safeParse({ type: q.type ?? '', size: q.size ?? '' });
    // A plain resource, not a call: a bad query is an HTTP 400 (with the envelope for its text).
    if (!parsed.success) return reply.code(400).send(envelope(ResultCode.BAD_REQUEST, headerLang(request)));
    return ranking(deps.db, scope, { type: parsed.data.type, size: parsed.data.size });
  });
  resource(STATIC_RESOURCES.checkingType, async () => checkingTypes());
  resource(STATIC_RESOURCES.realtimeMessage, async (scope) => realtimeMessages(deps, scope));
  resource(STATIC_RESOURCES.equipmentRecord, async (scope) => equipmentRecord(deps, scope));
}
