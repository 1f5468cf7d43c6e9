import { ResultCode } from '@nest/contracts';
import { callerOf } from '../calls/caller.js';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import { findCompany, findUserByAccount, presentUser } from '../users/api.js';
import { grantedFunctions } from '../functions/api.js';
import { openRequestEnvelope } from './envelopes.js';
import { dummyHash, verifyDigest } from './passwords.js';
import { createSession, hasLiveSession, revokeSession, userStatus, type UserStatus } from './sessions.js';
import { clearAccount, isThrottled, recordFailure } from './throttle.js';
import { actorOf, audit } from '../audit/api.js';

const STATUS_CODE: Record<Exclude<UserStatus, 'ok'>, number> = {
  notYetValid: ResultCode.ACCOUNT_NOT_YET_VALID,
  expired: ResultCode.ACCOUNT_EXPIRED,
  disabled: ResultCode.ACCOUNT_DISABLED,
};


/**
 * Sign-in and sign-out.
 *
 * Sign-in: throttle (account key and client address) -> decrypt the password envelope -> look the account
 * up (case-insensitively) -> verify the digest against its hash, or against a dummy hash when the account
 * does not exist, so both failures cost the same time and answer the same LOGIN_FAILED -> only then the
 * validity window and state (so they reveal nothing without the password) -> new session.
 */
export function authHandlers(deps: AppDeps): Handlers {
  const { db, keys, config } = deps;
  return {
    login: async (ctx) => {
      const { account, password } = ctx.fields;
      // Failed sign-ins are audited under the account's company when it exists ('' otherwise: only a
      // super administrator sees those), with the actor unknown: nobody proved who they are.
      const refused = async (kind: 'login_failed' | 'login_locked', detail: Record<string, unknown>, companyId = '') =>
        audit(db, { kind, outcome: 'refused', companyId, uId: null, account, ip: ctx.address, detail });
      if (await isThrottled(db, account, ctx.address)) {
        await refused('login_locked', { reason: 'throttled' }, (await findUserByAccount(db, account))?.company_id);
        throw new CallError(ResultCode.LOGIN_THROTTLED);
      }
      const secret = await openRequestEnvelope(db, keys.password, password, ctx.raw.get('os_timestamp'));
      const user = await findUserByAccount(db, account);
      const ok = await verifyDigest(secret.d, user?.password_hash ?? (await dummyHash(config.scrypt)));
      if (!user || !ok) {
        const locked = await recordFailure(db, account, ctx.address);
        await refused('login_failed', { reason: user ? 'wrong_password' : 'unknown_account' }, user?.company_id);
        if (locked.length > 0) await refused('login_locked', { reason: 'limit_reached', locked }, user?.company_id);
        throw new CallError(ResultCode.LOGIN_FAILED);
      }
      const status = userStatus(user);
      if (status !== 'ok') {
        await refused('login_failed', { reason: status }, user.company_id);
        throw new CallError(STATUS_CODE[status]);
      }
      await clearAccount(db, account);
      const { token } = await createSession(db, user.u_id, deps.sessions, ctx.address);
      await audit(db, { kind: 'login', companyId: user.company_id, uId: user.u_id, account, ip: ctx.address });
      const company = await findCompany(db, user.company_id);
      const data = presentUser(user, company, token, ctx.lang);
      // Deleted functions grant nothing, so the menu built from this answer does not offer them either.
      return { data: { ...data, fun_list: await grantedFunctions(db, data.fun_list) } };
    },

    logout: async (ctx) => {
      const caller = callerOf(ctx.caller);
      await revokeSession(db, caller.sessionId);
      // That session's push sockets end at once, on every instance; signed out everywhere, the user's
      // control connections end too.
      deps.live.bus.send('access', { userIds: [caller.user.u_id] });
      if (!(await hasLiveSession(db, caller.user.u_id, deps.sessions))) await deps.live.status.releaseUser(caller.user.u_id);
      await audit(db, { kind: 'logout', ...actorOf(ctx) });
      return { data: null };
    },
  };
}
