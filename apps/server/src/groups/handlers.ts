import { RecordState, ResultCode } from '@nest/contracts';
import { sql, type Kysely, type Transaction } from 'kysely';
import { callerOf } from '../calls/caller.js';
import { CallError, type Message } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { newId, likePattern } from '../db/sql.js';
import { isSuper } from '../db/scope.js';
import { sharesOf } from './shares.js';
import { GROUP_DELETED, GROUP_NORMAL, presentGroup, presentGroups, type GroupRow } from './store.js';
import { GROUP_TEXTS } from './texts.js';
import { actorOf, audit } from '../audit/api.js';

const refuse = (msg: Message, code: number = ResultCode.BAD_REQUEST) => new CallError(code, msg);
const USER_NORMAL: number = RecordState.NORMAL;

interface GroupScope {
  companyId: string;
  all: boolean;
}

/**
 * The company a group's devices belong to, checked: every sn is a registered device (not deleted) the
 * caller may manage (own company; super_administrator: any), all of one company, and that company is
 * `fixed` when given (the group's company never changes on edit).
 */
async function checkedDevices(db: Kysely<DB>, scope: GroupScope, sns: readonly string[], fixed?: string): Promise<string> {
  const rows = await db.selectFrom('devices').select(['sn_id', 'company_id']).where('sn_id', 'in', sns).where('state', '=', RecordState.NORMAL).execute();
  const bySn = new Map(rows.map((r) => [r.sn_id, r.company_id]));
  for (const sn of sns) {
    const company = bySn.get(sn);
    if (company === undefined || (!scope.all && company !== scope.companyId)) throw refuse(GROUP_TEXTS.noDevice(sn));
  }
  const companies = new Set(bySn.values());
  if (companies.size > 1) throw refuse(GROUP_TEXTS.mixedCompanies);
  const company = [...companies][0]!;
  if (fixed !== undefined && company !== fixed) throw refuse(GROUP_TEXTS.otherCompany);
  return company;
}

/** Members must be existing, enabled users (of any company: that is what makes the group collaborative). */
async function checkedMembers(db: Kysely<DB>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db.selectFrom('users').select('u_id').where('u_id', 'in', ids).where('state', '=', USER_NORMAL).execute();
  const known = new Set(rows.map((r) => r.u_id));
  const missing = ids.find((id) => !known.has(id));
  if (missing !== undefined) throw refuse(GROUP_TEXTS.noUser(missing));
}

/** A group name is unique among the normal groups of its company. */
async function checkName(db: Kysely<DB>, company: string, name: string, exceptId?: string): Promise<void> {
  let q = db.selectFrom('com_groups').select('id').where('company_id', '=', company).where('state', '=', GROUP_NORMAL).where('name', '=', name);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw refuse(GROUP_TEXTS.nameTaken(name));
}

async function replaceLinks(trx: Transaction<DB>, id: string, sns: readonly string[], users: readonly string[] | undefined): Promise<void> {
  await trx.deleteFrom('com_group_devices').where('group_id', '=', id).execute();
  await trx.insertInto('com_group_devices').values(sns.map((sn) => ({ group_id: id, sn_id: sn }))).execute();
  if (users === undefined) return;
  await trx.deleteFrom('com_group_users').where('group_id', '=', id).execute();
  if (users.length) await trx.insertInto('com_group_users').values(users.map((u) => ({ group_id: id, u_id: u }))).execute();
}

/** A group's shared devices and members, sorted (for the audit log's before/after). */
async function linksOf(db: Kysely<DB>, id: string): Promise<{ device_ids: string[]; user_ids: string[] }> {
  const devices = await db.selectFrom('com_group_devices').select('sn_id').where('group_id', '=', id).execute();
  const users = await db.selectFrom('com_group_users').select('u_id').where('group_id', '=', id).execute();
  return { device_ids: devices.map((d) => d.sn_id).sort(), user_ids: users.map((u) => u.u_id).sort() };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Collaboration groups (README.md). A group belongs to one company and shares that company's devices with
 * its members, who may be users of any company: members SEE the devices (device list, map, live data),
 * they do not control them. Group management is company-scoped: another company's group does not exist for
 * the caller (NOT_FOUND_OBJECT); super_administrator manages every company's groups.
 * - /com/getList: search (name or notes), state (default 10; 20 lists deleted groups), paging, newest
 *   first; `{list, total}`; online_count is counted live at the time of the call.
 * - /com/getOne: one group with `devices` (name, type and live status of each).
 * - /com/add: a unique name within the company, at least one device (all of one company), members.
 * - /com/edit: replaces name, notes (a full form: empty clears them), devices and (when sent) members;
 *   state 20 deletes the group, which
 *   ends its sharing at once.
 */
export function groupHandlers(deps: AppDeps): Handlers {
  const { db } = deps;
  const { status } = deps.live;
  const statusOf = (sn: string) => status.status(sn);
  const shares = sharesOf(db);
  /** Members gained or lost sight of devices: their push sockets are re-scoped on every instance. */
  const membersChanged = (userIds: readonly string[]) => {
    if (userIds.length > 0) deps.live.bus.send('access', { userIds: [...userIds] });
  };

  async function visibleGroup(scope: GroupScope, id: string): Promise<GroupRow> {
    const row = await db.selectFrom('com_groups').selectAll().where('id', '=', id).where('state', '=', GROUP_NORMAL).executeTakeFirst();
    if (!row || (!scope.all && row.company_id !== scope.companyId)) throw refuse(GROUP_TEXTS.noGroup, ResultCode.NOT_FOUND_OBJECT);
    return row;
  }

  const scopeOf = (ctx: { caller: Parameters<typeof callerOf>[0] }): GroupScope => {
    const caller = callerOf(ctx.caller);
    return { companyId: caller.user.company_id, all: isSuper(caller.funList) };
  };

  const one = async (id: string) => {
    const row = await db.selectFrom('com_groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return (await presentGroups(db, [row], statusOf, true))[0]!;
  };

  return {
    comGetList: async (ctx) => {
      const scope = scopeOf(ctx);
      const { search, state, page, size } = ctx.fields;
      let q = db.selectFrom('com_groups').where('state', '=', state ?? GROUP_NORMAL);
      if (!scope.all) q = q.where('company_id', '=', scope.companyId);
      if (search) {
        const pattern = sql<string>`${likePattern(search)} escape '\\'`;
        q = q.where((eb) => eb.or([eb(sql<string>`lower(name)`, 'like', pattern), eb(sql<string>`lower(notes)`, 'like', pattern)]));
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('create_time', 'desc').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: await presentGroups(db, rows, statusOf), total } };
    },

    comGetOne: async (ctx) => {
      const row = await visibleGroup(scopeOf(ctx), ctx.fields.id);
      return { data: await presentGroup(db, row, statusOf, true) };
    },

    comAdd: async (ctx) => {
      const caller = callerOf(ctx.caller);
      const scope = scopeOf(ctx);
      const f = ctx.fields;
      const company = await checkedDevices(db, scope, f.device_ids);
      await checkedMembers(db, f.user_ids);
      await checkName(db, company, f.name);
      const now = nowSeconds();
      const id = newId();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('com_groups')
          .values({ id, company_id: company, name: f.name, notes: f.notes ?? '', state: GROUP_NORMAL, u_id: caller.user.u_id, create_time: now, modified_time: now })
          .execute();
        await replaceLinks(trx, id, f.device_ids, f.user_ids);
        // Membership grants sight of the devices: audited as an access change.
        await audit(trx, { kind: 'group_members', ...actorOf(ctx), target: id, detail: { name: f.name, action: 'add', after: await linksOf(trx, id) } });
      });
      shares.forget();
      membersChanged(f.user_ids);
      return { data: await one(id) };
    },

    comEdit: async (ctx) => {
      const scope = scopeOf(ctx);
      const f = ctx.fields;
      const current = await visibleGroup(scope, f.id);
      const now = nowSeconds();
      if (f.state === GROUP_DELETED) {
        const members = await db.transaction().execute(async (trx) => {
          await trx.updateTable('com_groups').set({ state: GROUP_DELETED, modified_time: now }).where('id', '=', current.id).execute();
          const before = await linksOf(trx, current.id);
          await audit(trx, { kind: 'group_members', ...actorOf(ctx), target: current.id, detail: { name: current.name, action: 'delete', before } });
          return before.user_ids;
        });
        shares.forget();
        membersChanged(members);
        return { data: await one(current.id) };
      }
      await checkedDevices(db, scope, f.device_ids, current.company_id);
      if (f.user_ids) await checkedMembers(db, f.user_ids);
      await checkName(db, current.company_id, f.name, current.id);
      const members = await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('com_groups')
          .set({ name: f.name, notes: f.notes ?? '', modified_time: now })
          .where('id', '=', current.id)
          .execute();
        const before = await linksOf(trx, current.id);
        await replaceLinks(trx, current.id, f.device_ids, f.user_ids);
        const after = await linksOf(trx, current.id);
        if (!sameList(before.device_ids, after.device_ids) || !sameList(before.user_ids, after.user_ids)) {
          await audit(trx, { kind: 'group_members', ...actorOf(ctx), target: current.id, detail: { name: f.name, action: 'edit', before, after } });
        }
        return [...new Set([...before.user_ids, ...after.user_ids])];
      });
      shares.forget();
      membersChanged(members);
      return { data: await one(current.id) };
    },
  };
}
