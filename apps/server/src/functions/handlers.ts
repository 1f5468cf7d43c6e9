import { RecordState, ResultCode, SUPER_ADMINISTRATOR, type FunctionItem } from '@nest/contracts';
import { sql } from 'kysely';
import { CallError, badField } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import { nowSeconds } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { STATE_DELETED, isUniqueViolation, likePattern } from '../db/sql.js';
import { FUNCTION_TEXTS } from './texts.js';
import { actorOf, audit } from '../audit/api.js';

const COLUMNS = ['name', 'name_en', 'fun_id', 'description', 'state', 'notes'] as const;

/**
 * Functions (permissions):
 * - /fun/list: every function (name, name_en, fun_id, description, state, notes) ordered by sort, with an
 *   optional search (name, English name, id, description; case-insensitive) and state filter (10 or 20).
 *   Answers `{list, total}`.
 * - /fun/add: a new function at the end of the list; fun_id unique case-insensitively (contracts checks its
 *   shape). Holding it means nothing until a call or menu entry names it (dictData documents that).
 * - /fun/edit: name, English name, description, notes and state of the function named by fun_id. State 20
 *   deletes it: from the next call on it grants nothing (functions/store grantedFunctions, read with the
 *   session), and users keep it in their fun_list so a restore (state 10) gives it back. The
 *   super_administrator function cannot be deleted (everyone would be locked out of administration).
 */
export function functionHandlers(deps: AppDeps): Handlers {
  const { db } = deps;
  const present = async (funId: string): Promise<FunctionItem> =>
    db.selectFrom('functions').select(COLUMNS).where('fun_id', '=', funId).executeTakeFirstOrThrow();
  return {
    funAdd: async (ctx) => {
      const f = ctx.fields;
      const clash = await db
        .selectFrom('functions')
        .select('fun_id')
        .where(sql<string>`lower(fun_id)`, '=', f.fun_id.toLowerCase())
        .executeTakeFirst();
      if (clash) throw new CallError(ResultCode.BAD_REQUEST, FUNCTION_TEXTS.taken(clash.fun_id));
      const now = nowSeconds();
      const last = await db.selectFrom('functions').select((eb) => eb.fn.max('sort').as('sort')).executeTakeFirst();
      try {
        await db
          .insertInto('functions')
          .values({
            fun_id: f.fun_id,
            name: f.name,
            name_en: f.name_en,
            description: f.description,
            notes: f.notes ?? '',
            state: f.state,
            sort: Number(last?.sort ?? 0) + 10,
            created_at: now,
            updated_at: now,
          })
          .execute();
      } catch (err) {
        if (isUniqueViolation(err)) throw new CallError(ResultCode.BAD_REQUEST, FUNCTION_TEXTS.taken(f.fun_id));
        throw err;
      }
      await audit(db, { kind: 'fun_add', ...actorOf(ctx), target: f.fun_id, detail: { name: f.name, state: f.state } });
      return { data: await present(f.fun_id) };
    },

    funEdit: async (ctx) => {
      const f = ctx.fields;
      const current = await db.selectFrom('functions').select(['fun_id', 'state']).where('fun_id', '=', f.fun_id).executeTakeFirst();
      if (!current) throw new CallError(ResultCode.NOT_FOUND_OBJECT, FUNCTION_TEXTS.notFound(f.fun_id));
      if (f.fun_id === SUPER_ADMINISTRATOR && f.state === STATE_DELETED) throw new CallError(ResultCode.BAD_REQUEST, FUNCTION_TEXTS.keepSuper);
      await db
        .updateTable('functions')
        .set({ name: f.name, name_en: f.name_en, description: f.description, notes: f.notes ?? '', state: f.state, updated_at: nowSeconds() })
        .where('fun_id', '=', f.fun_id)
        .execute();
      // A change of state changes what every holder may do: deleting (20) is its own kind.
      const kind = f.state === STATE_DELETED && current.state !== STATE_DELETED ? 'fun_delete' : 'fun_edit';
      const detail = current.state !== f.state ? { name: f.name, state: { before: current.state, after: f.state } } : { name: f.name };
      await audit(db, { kind, ...actorOf(ctx), target: f.fun_id, detail });
      // Every holder's push sockets are re-read: a deleted function (device_10 included) grants nothing now.
      if (current.state !== f.state) deps.live.bus.send('access', { userIds: null });
      return { data: await present(f.fun_id) };
    },

    funList: async (ctx) => {
      const { search, state } = ctx.fields;
      let q = db.selectFrom('functions').select(COLUMNS);
      if (state !== undefined) {
        const value = /^\d+$/.test(state) ? Number(state) : NaN;
        if (!RecordState.has(value)) throw badField('state');
        q = q.where('state', '=', value);
      }
      if (search) {
        const pattern = likePattern(search);
        q = q.where((eb) =>
          eb.or(
            (['name', 'name_en', 'fun_id', 'description'] as const).map((c) =>
              eb(sql<string>`lower(${sql.ref(c)})`, 'like', sql<string>`${pattern} escape '\\'`),
            ),
          ),
        );
      }
      const list: FunctionItem[] = await q.orderBy('sort').orderBy('fun_id').execute();
      return { data: { list, total: list.length } };
    },
  };
}
