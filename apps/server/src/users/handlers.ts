import { DEVICE_CONTROL_FUNCTION, PERMANENT_END_TIME, ResultCode, RecordState, SUPER_ADMINISTRATOR, holds, isEmail, type Lang, type ParsedFields } from '@nest/contracts';
import type { Kysely } from 'kysely';
import { CallError, badField, textMessage } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import type { DB, UserRow, UserUpdate } from '../db/schema.js';
import { callerOf } from '../calls/caller.js';
import {
  accountKey,
  checkNewPassword,
  clearAccount,
  hashDigest,
  hasLiveSession,
  isThrottled,
  openRequestEnvelope,
  recordFailure,
  revokeUserSessions,
  userStatus,
  verifyDigest,
} from '../auth/api.js';
import { liveDepartment } from '../departments/api.js';
import { functionStates, grantedFunctions, USER_EDIT_FUNCTION } from '../functions/api.js';
import { nowSeconds } from '../db/index.js';
import {
  AccountTakenError,
  STATE_DELETED,
  STATE_NORMAL,
  accountTaken,
  createUser,
  findCompany,
  findUserById,
  isSuper,
  listUsers,
  otherActiveSupers,
  parseFunList,
  presentListItem,
  presentListItems,
  presentUser,
  updateUser,
} from './store.js';
import { USER_TEXTS } from './texts.js';
import { actorOf, audit } from '../audit/api.js';

const refuse = (message: (lang: Lang) => string, code: number = ResultCode.BAD_REQUEST) => new CallError(code, message);

/**
 * The functions a caller may give a user. Each must exist; a function newly granted (not already in
 * `current`) must be in state 10, must not be super_administrator unless the caller is one, and must be
 * held by the caller unless the caller is a super administrator. Functions the user already had may stay
 * (also deleted ones: they grant nothing while deleted, and come back with a restore).
 */
async function checkGrants(db: Kysely<DB>, caller: Caller, wanted: readonly string[], current: ReadonlySet<string>): Promise<string[]> {
  const list = [...new Set(wanted)];
  const states = await functionStates(db, list);
  const callerSuper = isSuper(caller.funList);
  for (const fun of list) {
    const state = states.get(fun);
    if (state === undefined) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.function', { fun }));
    if (current.has(fun)) continue;
    if (state !== STATE_NORMAL) throw refuse(USER_TEXTS.inactiveFunction(fun));
    if (!callerSuper && (fun === SUPER_ADMINISTRATOR || !caller.funList.includes(fun))) throw new CallError(ResultCode.NO_PERMISSION);
  }
  return list;
}

/** A department id for a user of `companyId`: '' or a live department of that company. */
async function checkTeam(db: Kysely<DB>, companyId: string, team: string): Promise<string> {
  if (team && !(await liveDepartment(db, companyId, team))) throw refuse(USER_TEXTS.noDepartment);
  return team;
}

/**
 * What an edit changes in a user's access (functions, state, validity, company, password), for the audit
 * log: before/after of each changed part, or null when the edit touches none of them.
 */
function accessChange(target: UserRow, patch: UserUpdate, passwordReset: boolean): Record<string, unknown> | null {
  const change: Record<string, unknown> = {};
  if (patch.fun_list !== undefined && patch.fun_list !== target.fun_list) {
    change.fun_list = { before: parseFunList(target.fun_list), after: parseFunList(String(patch.fun_list)) };
  }
  for (const k of ['state', 'start_time', 'end_time', 'company_id'] as const) {
    const after = patch[k];
    if (after !== undefined && String(after) !== String(target[k])) change[k] = { before: target[k], after };
  }
  if (passwordReset) change.reset = 'password'; // that it was reset; never the password itself
  return Object.keys(change).length > 0 ? { account: target.phone, ...change } : null;
}

/**
 * A user the caller may manage: any for a super administrator, else one of the same company who is not a
 * super administrator. Another company's user does not exist for the caller (NOT_FOUND_OBJECT, as for an
 * unknown id), so a user id cannot be probed across companies.
 */
function checkManageable(caller: Caller, target: UserRow): void {
  if (isSuper(caller.funList)) return;
  if (target.company_id !== caller.user.company_id) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
  if (isSuper(parseFunList(target.fun_list))) throw new CallError(ResultCode.NO_PERMISSION);
}

/**
 * Users: own-account calls (/user/info, /user/edit, /user/psw) and user management (/user/list, /user/add,
 * /user/edit of others, /user/delete, /user/recover). Company scope: a super administrator manages every
 * company; anyone else the users of their own company who are not super administrators.
 *
 * /user/edit rules (access 'session' in the registry, so the rest is checked here):
 * - anyone may edit themselves: nick, phone (the account), email, notes;
 * - the privileged fields (state, start_time, end_time, in_com_id, team, fun_json, password) count only
 *   for a caller holding user_edit (super_administrator holds everything);
 * - nobody changes their own fun_list, state or validity;
 * - editing another user needs user_edit and the scope above; only a super administrator grants
 *   super_administrator; a non-super editor may only grant functions they hold themselves (existing ones of
 *   the target may stay); newly granted functions must be in state 10;
 * - moving a user to another company needs super_administrator; the department (team) must be a live
 *   department of the user's company whenever it or the company changes;
 * - the last active super administrator cannot be disabled or lose super_administrator;
 * - a new password (non-empty envelope; needs user_edit) is re-hashed and revokes every session of that
 *   user (the caller's own too when editing themselves); an empty one keeps the old password;
 * - fun_list changes count from the user's next call: the router reads fun_list with the session each call.
 */
export function userHandlers(deps: AppDeps): Handlers {
  const { db, keys, config } = deps;
  /** After a committed change to a user: their push sockets are re-read (ended or re-scoped) on every instance. */
  const accessChanged = (uId: string) => deps.live.bus.send('access', { userIds: [uId] });
  /** A user who can no longer fly (deleted, disabled, validity or control function gone, signed out everywhere) holds nothing. */
  const releaseIfGrounded = async (uId: string) => {
    const user = await findUserById(db, uId);
    const grounded =
      !user ||
      userStatus(user) !== 'ok' ||
      !holds(await grantedFunctions(db, parseFunList(user.fun_list)), DEVICE_CONTROL_FUNCTION) ||
      !(await hasLiveSession(db, uId, deps.sessions));
    if (grounded) await deps.live.status.releaseUser(uId);
  };

  async function answer(uId: string, token: string, lang: Parameters<typeof presentUser>[3]) {
    const row = await findUserById(db, uId);
    if (!row) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    return presentUser(row, await findCompany(db, row.company_id), token, lang);
  }

  /**
   * The digest of a new password envelope after its checks (bound to the request's os_timestamp, declared
   * length, not a common password), or null for an empty one.
   */
  async function newDigest(envelope: string | undefined, osTimestamp: string | undefined): Promise<string | null> {
    if (!envelope) return null;
    const secret = await openRequestEnvelope(db, keys.password, envelope, osTimestamp);
    checkNewPassword(secret);
    return secret.d;
  }

  async function privilegedPatch(
    caller: Caller,
    target: UserRow,
    f: ParsedFields<'userEdit'>,
    patch: UserUpdate,
    osTimestamp: string | undefined,
  ): Promise<string | null> {
    const callerSuper = isSuper(caller.funList);
    let companyId = target.company_id;
    if (f.in_com_id && f.in_com_id !== target.company_id) {
      const company = await findCompany(db, f.in_com_id);
      if (!company) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.company'));
      if (company.id !== target.company_id) {
        if (!callerSuper) throw new CallError(ResultCode.NO_PERMISSION);
        patch.company_id = companyId = company.id;
      }
    }
    const team = f.team ?? '';
    patch.team = team !== target.team || companyId !== target.company_id ? await checkTeam(db, companyId, team) : team;
    const digest = await newDigest(f.password, osTimestamp);
    // The slow hash comes last, once every cheap check passed.
    const newHash = () => (digest === null ? null : hashDigest(digest, config.scrypt));
    if (target.u_id === caller.user.u_id) return newHash();

    if (!RecordState.has(f.state)) throw badField('state');
    patch.state = f.state;
    if (f.end_time <= f.start_time) throw refuse(USER_TEXTS.validity);
    patch.start_time = f.start_time;
    patch.end_time = f.end_time;

    const current = parseFunList(target.fun_list);
    const wanted = await checkGrants(db, caller, f.fun_json, new Set(current));
    const losesSuper = isSuper(current) && target.state === STATE_NORMAL && (!isSuper(wanted) || f.state !== STATE_NORMAL);
    if (losesSuper && (await otherActiveSupers(db, target.u_id)) === 0) throw refuse(USER_TEXTS.lastSuper);
    patch.fun_list = JSON.stringify(wanted);
    return newHash();
  }

  /** The target of /user/delete and /user/recover, checked against the caller's scope. */
  async function manageable(caller: Caller, uId: string): Promise<UserRow> {
    const target = await findUserById(db, uId);
    if (!target) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    checkManageable(caller, target);
    return target;
  }

  return {
    userList: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const { search, state, in_com_id, team, page, size } = ctx.fields;
      let stateValue: number | undefined;
      if (state !== undefined) {
        stateValue = /^\d+$/.test(state) ? Number(state) : NaN;
        if (!RecordState.has(stateValue)) throw badField('state');
      }
      let companyId = caller.user.company_id;
      if (isSuper(caller.funList)) companyId = in_com_id ?? '';
      else if (in_com_id && in_com_id !== companyId) throw new CallError(ResultCode.NO_PERMISSION);
      const { list, total } = await listUsers(db, { search, state: stateValue, companyId: companyId || undefined, team, page, size });
      return { data: { list: await presentListItems(db, list, ctx.lang), total } };
    },

    userAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const email = f.email ?? '';
      if (email && !isEmail(email)) throw badField('email');
      const company = await findCompany(db, f.in_com_id || caller.user.company_id);
      if (!company) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.company'));
      if (company.id !== caller.user.company_id && !isSuper(caller.funList)) throw new CallError(ResultCode.NO_PERMISSION);
      const endTime = f.end_time >= PERMANENT_END_TIME ? PERMANENT_END_TIME : f.end_time;
      if (endTime <= f.start_time) throw refuse(USER_TEXTS.validity);
      const team = await checkTeam(db, company.id, f.team ?? '');
      const funList = await checkGrants(db, caller, f.fun_json, new Set());
      if (await accountTaken(db, f.phone)) throw new CallError(ResultCode.ACCOUNT_TAKEN);
      const digest = await newDigest(f.password, ctx.raw.get('os_timestamp'));
      if (digest === null) throw badField('password', 'calls.field.required');
      const passwordHash = await hashDigest(digest, config.scrypt);
      try {
        const row = await createUser(db, {
          nick: f.nick,
          account: f.phone,
          email,
          passwordHash,
          companyId: company.id,
          funList,
          startTime: f.start_time,
          endTime,
          team,
          notes: f.notes ?? '',
        });
        await audit(db, {
          kind: 'user_add',
          ...actorOf(ctx),
          target: row.u_id,
          detail: { account: f.phone, company_id: company.id, fun_list: funList, start_time: f.start_time, end_time: endTime },
        });
        return { data: await presentListItem(db, row, ctx.lang) };
      } catch (err) {
        if (err instanceof AccountTakenError) throw new CallError(ResultCode.ACCOUNT_TAKEN);
        throw err;
      }
    },

    userDelete: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const target = await manageable(caller, ctx.fields.u_id);
      if (target.u_id === caller.user.u_id) throw refuse(USER_TEXTS.notSelf);
      if (target.state === STATE_DELETED) throw refuse(USER_TEXTS.alreadyDeleted);
      if (isSuper(parseFunList(target.fun_list)) && (await otherActiveSupers(db, target.u_id)) === 0) throw refuse(USER_TEXTS.lastSuper);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, target.u_id, { state: STATE_DELETED });
        await revokeUserSessions(trx, target.u_id);
        await audit(trx, { kind: 'user_delete', ...actorOf(ctx), target: target.u_id, detail: { account: target.phone } });
      });
      accessChanged(target.u_id);
      await releaseIfGrounded(target.u_id);
      return { data: await presentListItem(db, { ...target, state: STATE_DELETED }, ctx.lang) };
    },

    userRecover: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const target = await manageable(caller, ctx.fields.u_id);
      if (target.state !== STATE_DELETED) throw refuse(USER_TEXTS.notDeleted);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, target.u_id, { state: STATE_NORMAL });
        await audit(trx, { kind: 'user_recover', ...actorOf(ctx), target: target.u_id, detail: { account: target.phone } });
      });
      accessChanged(target.u_id);
      await releaseIfGrounded(target.u_id);
      return { data: await presentListItem(db, { ...target, state: STATE_NORMAL }, ctx.lang) };
    },

    userInfo: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const user = presentUser(caller.user, await findCompany(db, caller.user.company_id), caller.token, ctx.lang);
      // The functions that grant access now (deleted ones left out), so the menu shows what the calls allow.
      return { data: { ...user, fun_list: caller.funList } };
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
        checkManageable(caller, target);
      }

      const email = f.email ?? '';
      if (email && !isEmail(email)) throw badField('email');
      const patch: UserUpdate = { nick: f.nick, phone: f.phone, email, notes: f.notes ?? '' };
      if (accountKey(f.phone) !== accountKey(target.phone) && (await accountTaken(db, f.phone, target.u_id))) {
        throw new CallError(ResultCode.ACCOUNT_TAKEN);
      }
      const newHash = canEdit ? await privilegedPatch(caller, target, f, patch, ctx.raw.get('os_timestamp')) : null;
      if (newHash) {
        patch.password_hash = newHash;
        patch.password_changed_at = nowSeconds();
      }
      try {
        await db.transaction().execute(async (trx) => {
          await updateUser(trx, target.u_id, patch);
          if (newHash) await revokeUserSessions(trx, target.u_id);
          const change = accessChange(target, patch, Boolean(newHash));
          if (change) await audit(trx, { kind: 'user_edit', ...actorOf(ctx), target: target.u_id, detail: change });
        });
      } catch (err) {
        if (err instanceof AccountTakenError) throw new CallError(ResultCode.ACCOUNT_TAKEN);
        throw err;
      }
      // State, validity, functions, company or password may have changed: the user's sockets are re-read.
      accessChanged(target.u_id);
      await releaseIfGrounded(target.u_id);
      return { data: await answer(target.u_id, self ? caller.token : '', ctx.lang) };
    },

    userPsw: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const account = caller.user.phone;
      if (accountKey(f.account) !== accountKey(account)) throw new CallError(ResultCode.NO_PERMISSION);
      if (await isThrottled(db, account, ctx.address)) throw new CallError(ResultCode.LOGIN_THROTTLED);
      const old = await openRequestEnvelope(db, keys.password, f.password, ctx.raw.get('os_timestamp'));
      const next = await openRequestEnvelope(db, keys.password, f.new_psw, ctx.raw.get('os_timestamp'));
      if (!(await verifyDigest(old.d, caller.user.password_hash))) {
        const locked = await recordFailure(db, account, ctx.address);
        await audit(db, { kind: 'password_change', outcome: 'refused', ...actorOf(ctx), target: caller.user.u_id, detail: { reason: 'wrong_old_password' } });
        if (locked.length > 0) await audit(db, { kind: 'login_locked', outcome: 'refused', ...actorOf(ctx), detail: { reason: 'limit_reached', locked } });
        throw new CallError(ResultCode.WRONG_OLD_PASSWORD);
      }
      checkNewPassword(next);
      const hash = await hashDigest(next.d, config.scrypt);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, caller.user.u_id, { password_hash: hash, password_changed_at: nowSeconds() });
        await revokeUserSessions(trx, caller.user.u_id);
        await audit(trx, { kind: 'password_change', ...actorOf(ctx), target: caller.user.u_id });
      });
      accessChanged(caller.user.u_id);
      await releaseIfGrounded(caller.user.u_id);
      await clearAccount(db, account);
      return { data: null };
    },
  };
}
