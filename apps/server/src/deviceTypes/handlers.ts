import { ResultCode } from '@nest/contracts';
import { sql } from 'kysely';
import { CallError } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { isUniqueViolation, likePattern } from '../db/sql.js';
import { TYPE_DELETED, TYPE_ENABLED, newId, presentDeviceType, type DeviceTypeRow } from './store.js';
import { DEVICE_TYPE_TEXTS } from './texts.js';

/**
 * The device-type catalogue (menu deviceType). It is a system catalogue, not company data: every company
 * sees the same entries, so only a super administrator adds or changes them (the registry gives
 * /deviceType/add and /deviceType/edit the function super_administrator; the menu is meant for the platform
 * operator). Rules:
 * - one live (not deleted) entry per (cla_type, value): the partial unique index of migration 006 decides,
 *   also between two instances; a clash is a BAD_REQUEST naming the key;
 * - /deviceType/edit with state 30 deletes (the row stays, hidden from the lists); a deleted entry cannot
 *   be edited any more (NOT_FOUND_OBJECT), a new one with its key can be added instead;
 * - /deviceType/list answers the enabled entries only (choosers), /deviceType/adminList all but deleted
 *   (or exactly the requested state).
 */
export function deviceTypeHandlers(deps: AppDeps): Handlers {
  const { db } = deps;

  async function liveType(id: string): Promise<DeviceTypeRow> {
    const row = await db.selectFrom('device_types').selectAll().where('id', '=', id).where('state', '<>', TYPE_DELETED).executeTakeFirst();
    if (!row) throw new CallError(ResultCode.NOT_FOUND_OBJECT, DEVICE_TYPE_TEXTS.notFound);
    return row;
  }

  /** Runs a write; a clash with the live-key index becomes the readable refusal. */
  async function guarded(value: string, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new CallError(ResultCode.BAD_REQUEST, DEVICE_TYPE_TEXTS.taken(value));
      throw err;
    }
  }

  return {
    deviceTypeAdminList: async (ctx) => {
      const { cla_type, state, search, page, size } = ctx.fields;
      let q = db.selectFrom('device_types');
      q = state !== undefined ? q.where('state', '=', state) : q.where('state', '<>', TYPE_DELETED);
      if (cla_type !== undefined) q = q.where('cla_type', '=', cla_type);
      if (search) {
        const pattern = sql<string>`${likePattern(search)} escape '\\'`;
        q = q.where((eb) =>
          eb.or([eb(sql<string>`lower(cla_name)`, 'like', pattern), eb(sql<string>`lower(value)`, 'like', pattern), eb(sql<string>`lower(notes)`, 'like', pattern)]),
        );
      }
      const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
      const rows = await q.selectAll().orderBy('cla_type').orderBy('value').orderBy('id').limit(size).offset(page * size).execute();
      return { data: { list: rows.map(presentDeviceType), total } };
    },

    deviceTypeAdd: async (ctx) => {
      const f = ctx.fields;
      const now = nowSeconds();
      const row: DeviceTypeRow = {
        id: newId(),
        cla_type: f.cla_type,
        cla_name: f.cla_name,
        value: f.value,
        stream: f.stream,
        state: f.state,
        notes: f.notes ?? '',
        create_time: now,
        modified_time: now,
      };
      await guarded(row.value, () => db.insertInto('device_types').values(row).execute());
      return { data: presentDeviceType(row) };
    },

    deviceTypeEdit: async (ctx) => {
      const f = ctx.fields;
      const current = await liveType(f.id);
      const now = nowSeconds();
      if (f.state === TYPE_DELETED) {
        await db.updateTable('device_types').set({ state: TYPE_DELETED, modified_time: now }).where('id', '=', current.id).execute();
        return { data: presentDeviceType({ ...current, state: TYPE_DELETED, modified_time: now }) };
      }
      const next: DeviceTypeRow = {
        ...current,
        cla_type: f.cla_type,
        cla_name: f.cla_name,
        value: f.value,
        stream: f.stream,
        state: f.state,
        notes: f.notes ?? current.notes,
        modified_time: now,
      };
      const { id: _id, create_time: _c, ...patch } = next;
      await guarded(next.value, () => db.updateTable('device_types').set(patch).where('id', '=', current.id).execute());
      return { data: presentDeviceType(next) };
    },

    deviceTypeList: async (ctx) => {
      let q = db.selectFrom('device_types').selectAll().where('state', '=', TYPE_ENABLED);
      if (ctx.fields.cla_type !== undefined) q = q.where('cla_type', '=', ctx.fields.cla_type);
      const rows = await q.orderBy('cla_type').orderBy('value').orderBy('id').execute();
      return { data: rows.map(presentDeviceType) };
    },
  };
}
