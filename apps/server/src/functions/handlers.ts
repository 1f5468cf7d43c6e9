import { RecordState, type FunctionItem } from '@nest/contracts';
import { sql } from 'kysely';
import { badField } from '../calls/errors.js';
import type { Handlers } from '../calls/types.js';
import type { AppDeps } from '../deps.js';
import { likePattern } from '../users/store.js';

/**
 * /fun/list: every function (name, name_en, fun_id, description, state, notes) ordered by sort, with an
 * optional search (name, English name, id, description; case-insensitive) and state filter (10 or 20).
 * Answers `{list, total}`. /fun/add and /fun/edit are a later issue.
 */
export function functionHandlers(deps: AppDeps): Handlers {
  const { db } = deps;
  return {
    funList: async (ctx) => {
      const { search, state } = ctx.fields;
      let q = db.selectFrom('functions').select(['name', 'name_en', 'fun_id', 'description', 'state', 'notes']);
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
