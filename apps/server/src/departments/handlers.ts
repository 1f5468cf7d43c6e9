import { ResultCode, createsCycle, type Lang } from '@nest/contracts';
import { sql, type Kysely } from 'kysely';
import { callerOf } from '../calls/caller.js';
import { CallError, textMessage } from '../calls/errors.js';
import type { Caller, Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { findCompany } from '../users/api.js';
import { STATE_DELETED, STATE_NORMAL, isUniqueViolation } from '../db/sql.js';
import { isSuper } from '../db/scope.js';
import { departmentTree, findDepartment, listDepartments, newDepartmentId, presentDepartment } from './store.js';
import { DEPARTMENT_TEXTS } from './texts.js';

const refuse = (message: (lang: Lang) => string, code: number = ResultCode.BAD_REQUEST) => new CallError(code, message);

/** The company a caller works on: their own, or any existing one a super administrator names. */
async function companyOf(db: Kysely<DB>, caller: Caller, wanted: string | undefined): Promise<string> {
  if (!wanted || wanted === caller.user.company_id) return caller.user.company_id;
  if (!isSuper(caller.funList)) throw new CallError(ResultCode.NO_PERMISSION);
  const company = await findCompany(db, wanted);
  if (!company) throw new CallError(ResultCode.BAD_REQUEST, textMessage('users.edit.company'));
  return company.id;
}

/** A department the caller may see (another company's does not exist for them). */
async function visible(db: Kysely<DB>, caller: Caller, id: string) {
  const row = await findDepartment(db, id);
  if (!row || (!isSuper(caller.funList) && row.company_id !== caller.user.company_id)) throw refuse(DEPARTMENT_TEXTS.notFound, ResultCode.NOT_FOUND_OBJECT);
  return row;
}

/** Refuses when a live sibling (same company and parent) other than `exceptId` has this name (case-insensitive). */
async function checkName(db: Kysely<DB>, companyId: string, parentId: string | null, name: string, exceptId?: string): Promise<void> {
  let q = db
    .selectFrom('departments')
    .select('id')
    .where('company_id', '=', companyId)
    .where('state', '=', STATE_NORMAL)
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  q = parentId ? q.where('parent_id', '=', parentId) : q.where('parent_id', 'is', null);
  if (exceptId) q = q.where('id', '<>', exceptId);
  if (await q.executeTakeFirst()) throw refuse(DEPARTMENT_TEXTS.nameTaken(name));
}

/** Runs a write; a sibling of the same name written meanwhile (unique index, migration 007) is the same refusal. */
async function sameNameGuard(name: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw refuse(DEPARTMENT_TEXTS.nameTaken(name));
    throw err;
  }
}

/** Refuses deleting a department that still has users (state 10) or live sub-departments, naming how many. */
async function checkEmpty(db: Kysely<DB>, id: string, companyId: string): Promise<void> {
  const [users, children] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team', '=', id)
      .where('company_id', '=', companyId)
      .where('state', '=', STATE_NORMAL)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('departments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('parent_id', '=', id)
      .where('state', '=', STATE_NORMAL)
      .executeTakeFirstOrThrow(),
  ]);
  const u = Number(users.n);
  const c = Number(children.n);
  if (u > 0 || c > 0) throw refuse(DEPARTMENT_TEXTS.notEmpty(u, c));
}

/**
 * Departments (teamManage), company-scoped: a super administrator works on any company, anyone else on
 * their own (another company's department does not exist for them).
 * - /team/list: the company's tree, deleted departments included (the console can restore them).
 * - /team/add: under a live department of the same company, or at the top; name unique among live siblings.
 * - /team/edit: moves must keep a tree (the new parent is neither the department nor below it) inside one
 *   company; state 20 deletes with /team/delete's rules; state 10 restores (its parent must be live).
 * - /team/delete: soft (state 20), only when no user (state 10) and no live sub-department is left; deleted
 *   users of the department lose it (they could not be moved any more once it is gone).
 * Every write checks and writes inside one transaction.
 */
export function departmentHandlers(deps: AppDeps): Handlers {
  const { db } = deps;

  async function answer(id: string) {
    const row = (await findDepartment(db, id))!;
    const members = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team', '=', id)
      .where('company_id', '=', row.company_id ?? '')
      .where('state', '=', STATE_NORMAL)
      .executeTakeFirstOrThrow();
    return presentDepartment(row, Number(members.n));
  }

  async function softDelete(trx: Kysely<DB>, id: string, companyId: string, now: number): Promise<void> {
    await checkEmpty(trx, id, companyId);
    await trx.updateTable('departments').set({ state: STATE_DELETED, updated_at: now }).where('id', '=', id).execute();
    await trx.updateTable('users').set({ team: '' }).where('team', '=', id).where('state', '<>', STATE_NORMAL).execute();
  }

  return {
    teamList: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const companyId = await companyOf(db, caller, ctx.fields.in_com_id);
      return { data: await departmentTree(db, companyId) };
    },

    teamAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      let companyId: string;
      let parentId: string | null = null;
      if (f.parent_id) {
        const parent = await findDepartment(db, f.parent_id);
        const inScope = parent && (isSuper(caller.funList) || parent.company_id === caller.user.company_id);
        if (!parent || !inScope || parent.state !== STATE_NORMAL) throw refuse(DEPARTMENT_TEXTS.noParent);
        companyId = parent.company_id ?? '';
        if (f.in_com_id && f.in_com_id !== companyId) throw refuse(DEPARTMENT_TEXTS.noParent);
        parentId = parent.id;
      } else {
        companyId = await companyOf(db, caller, f.in_com_id);
      }
      const id = newDepartmentId();
      const now = nowSeconds();
      await sameNameGuard(f.name, () => db.transaction().execute(async (trx) => {
        await checkName(trx, companyId, parentId, f.name);
        await trx
          .insertInto('departments')
          .values({
            id,
            parent_id: parentId,
            name: f.name,
            description: f.description ?? '',
            notes: f.notes ?? '',
            state: STATE_NORMAL,
            company_id: companyId,
            sort: f.sort,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }));
      return { data: await answer(id) };
    },

    teamEdit: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const f = ctx.fields;
      const current = await visible(db, caller, f.id);
      const companyId = current.company_id ?? '';
      const state = f.state ?? (current.state === STATE_NORMAL ? STATE_NORMAL : STATE_DELETED);
      const parentId = f.parent_id || null;
      const now = nowSeconds();
      await sameNameGuard(f.name, () => db.transaction().execute(async (trx) => {
        if (parentId) {
          const all = await listDepartments(trx, companyId);
          const parent = all.find((d) => d.id === parentId);
          if (parent && createsCycle(all.map((d) => ({ id: d.id, parent_id: d.parent_id ?? '' })), current.id, parentId)) {
            throw refuse(DEPARTMENT_TEXTS.cycle);
          }
          if (!parent || parent.state !== STATE_NORMAL) throw refuse(DEPARTMENT_TEXTS.noParent);
        }
        if (state === STATE_NORMAL) await checkName(trx, companyId, parentId, f.name, current.id);
        else if (current.state === STATE_NORMAL) await softDelete(trx, current.id, companyId, now);
        await trx
          .updateTable('departments')
          .set({ parent_id: parentId, name: f.name, description: f.description ?? '', notes: f.notes ?? '', state, sort: f.sort, updated_at: now })
          .where('id', '=', current.id)
          .execute();
      }));
      return { data: await answer(current.id) };
    },

    teamDelete: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const current = await visible(db, caller, ctx.fields.id);
      if (current.state !== STATE_NORMAL) throw refuse(DEPARTMENT_TEXTS.alreadyDeleted);
      await db.transaction().execute((trx) => softDelete(trx, current.id, current.company_id ?? '', nowSeconds()));
      return { data: await answer(current.id) };
    },
  };
}
