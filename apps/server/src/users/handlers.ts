import { ResultCode, RecordState, holds, isEmail, type ParsedFields } from '@nest/contracts';
import { CallError, badField, textMessage } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { UserRow, UserUpdate } from '../db/schema.js';
import { callerOf } from '../auth/handlers.js';
import { hashDigest, openPasswordEnvelope, passwordLengthOk, verifyDigest } from '../auth/passwords.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { accountKey, clearAccount, isThrottled, recordFailure } from '../auth/throttle.js';
import { USER_EDIT_FUNCTION } from '../functions/seed.js';
import { nowSeconds } from '../db/index.js';
import {
  AccountTakenError,
  accountTaken,
  findCompany,
  findUserById,
  isSuper,
  parseFunList,
  presentUser,
  updateUser,
} from './store.js';

/**
 * Own-account calls: /user/info, /user/edit, /user/psw.
 *
 * /user/edit rules (access 'session' in the registry, so the rest is checked here):
 * - anyone may edit themselves: nick, phone (the account), email, notes;
 * - the privileged fields (state, start_time, end_time, in_com_id, team, fun_json, password) count only
 *   for a caller holding user_edit (super_administrator holds everything);
 * - nobody changes their own fun_list, state or validity;
 * - editing another user needs user_edit, the same company unless super_administrator, and only a
 *   super_administrator may edit a super_administrator or grant that function; a non-super editor may only
 *   grant functions they hold themselves (existing ones of the target may stay);
 * - moving a user to another company needs super_administrator;
 * - a new password (non-empty envelope; needs user_edit) is re-hashed and revokes every session of that
 *   user (the caller's own too when editing themselves).
 */
export function userHandlers(deps: AppDeps): Handlers {
  const { db, keys, config } = deps;

  async function answer(uId: string, token: string, lang: Parameters<typeof presentUser>[3]) {
    const row = await findUserById(db, uId);
    if (!row) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    return presentUser(row, await findCompany(db, row.company_id), token, lang);
  }

  async function privilegedPatch(
    caller: Caller,
    target: UserRow,
    f: ParsedFields<'userEdit'>,
    patch: UserUpdate,
  ): Promise<string | null> {
    const callerSuper = isSuper(caller.funList);
    patch.team = f.team ?? '';
    if (f.in_com_id && f.in_com_id !== target.company_id) {
      const company = await findCompany(db, f.in_com_id);
      if (!company) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.company'));
      if (company.id !== target.company_id) {
        if (!callerSuper) throw new CallError(ResultCode.NO_PERMISSION);
        patch.company_id = company.id;
      }
    }
    let digest: string | null = null;
    if (f.password) {
      const secret = openPasswordEnvelope(keys.password, f.password);
      if (!secret) throw new CallError(ResultCode.DECRYPT_FAILED);
      if (!passwordLengthOk(secret.n)) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.password.length'));
      digest = secret.d;
    }
    // The slow hash comes last, once every cheap check passed.
    const newHash = () => (digest === null ? null : hashDigest(digest, config.scrypt));
    if (target.u_id === caller.user.u_id) return newHash();

    if (!RecordState.has(f.state)) throw badField('state');
    patch.state = f.state;
    if (f.end_time < f.start_time) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.validity'));
    patch.start_time = f.start_time;
    patch.end_time = f.end_time;

    const wanted = [...new Set(f.fun_json)];
    const current = new Set(parseFunList(target.fun_list));
    const known = new Set(
      wanted.length === 0
        ? []
        : (await db.selectFrom('functions').select('fun_id').where('fun_id', 'in', wanted).execute()).map((r) => r.fun_id),
    );
    for (const fun of wanted) {
      if (!known.has(fun)) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.function', { fun }));
      if (!callerSuper && !current.has(fun) && !caller.funList.includes(fun)) throw new CallError(ResultCode.NO_PERMISSION);
    }
    patch.fun_list = JSON.stringify(wanted);
    return newHash();
  }

  return {
    userInfo: async (ctx) => {
      const caller = callerOf(ctx.caller);
      return { data: presentUser(caller.user, await findCompany(db, caller.user.company_id), caller.token, ctx.lang) };
    },

    userEdit: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const target = await findUserById(db, f.u_id);
      if (!target) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
      const self = target.u_id === caller.user.u_id;
      const canEdit = holds(caller.funList, USER_EDIT_FUNCTION);
      if (!self) {
        if (!canEdit) throw new CallError(ResultCode.NO_PERMISSION);
        const outOfScope = target.company_id !== caller.user.company_id || isSuper(parseFunList(target.fun_list));
        if (!isSuper(caller.funList) && outOfScope) throw new CallError(ResultCode.NO_PERMISSION);
      }

      const email = f.email ?? '';
      if (email && !isEmail(email)) throw badField('email');
      const patch: UserUpdate = { nick: f.nick, phone: f.phone, email, notes: f.notes ?? '' };
      if (accountKey(f.phone) !== accountKey(target.phone) && (await accountTaken(db, f.phone, target.u_id))) {
        throw new CallError(ResultCode.ACCOUNT_TAKEN);
      }
      const newHash = canEdit ? await privilegedPatch(caller, target, f, patch) : null;
      if (newHash) {
        patch.password_hash = newHash;
        patch.password_changed_at = nowSeconds();
      }
      try {
        await db.transaction().execute(async (trx) => {
          await updateUser(trx, target.u_id, patch);
          if (newHash) await revokeUserSessions(trx, target.u_id);
        });
      } catch (err) {
        if (err instanceof AccountTakenError) throw new CallError(ResultCode.ACCOUNT_TAKEN);
        throw err;
      }
      return { data: await answer(target.u_id, self ? caller.token : '', ctx.lang) };
    },

    userPsw: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const account = caller.user.phone;
      if (accountKey(f.account) !== accountKey(account)) throw new CallError(ResultCode.NO_PERMISSION);
      if (await isThrottled(db, account, ctx.address)) throw new CallError(ResultCode.LOGIN_THROTTLED);
      const old = openPasswordEnvelope(keys.password, f.password);
      const next = openPasswordEnvelope(keys.password, f.new_psw);
      if (!old || !next) throw new CallError(ResultCode.DECRYPT_FAILED);
      if (!(await verifyDigest(old.d, caller.user.password_hash))) {
        await recordFailure(db, account, ctx.address);
        throw new CallError(ResultCode.WRONG_OLD_PASSWORD);
      }
      if (!passwordLengthOk(next.n)) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.password.length'));
      const hash = await hashDigest(next.d, config.scrypt);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, caller.user.u_id, { password_hash: hash, password_changed_at: nowSeconds() });
        await revokeUserSessions(trx, caller.user.u_id);
      });
      await clearAccount(db, account);
      return { data: null };
    },
  };
}
