import {
  CALL_LIST,
  DEVICE_PUSH_FUNCTION,
  MENU,
  SUPER_ADMINISTRATOR,
  calls,
  flattenMenu,
  menuFunctionIds,
  type CallName,
  type Text,
} from '@nest/contracts';
import type { Kysely } from 'kysely';
import { nowSeconds } from '../db/index.js';
import type { DB } from '../db/schema.js';
import { STATE_NORMAL } from '../db/sql.js';
import { CALL_FUNCTION_NAMES } from './names.js';

/** Function id that lets a user edit other users (checked inside /user/edit, whose access is 'session'). */
export const USER_EDIT_FUNCTION = 'user_edit';

export interface SeedFunction {
  fun_id: string;
  name: string;
  name_en: string;
  description: string;
}

const both = (t: Text): string => `${t.zh} / ${t.en}`;

/**
 * The functions a fresh installation knows: one per menu entry (names from the menu titles), one per
 * protected call (every registry entry whose access is a function id), plus user_edit, device_10 and
 * super_administrator. Order is the `sort` of the seeded rows.
 */
export function seedFunctions(): SeedFunction[] {
  const out = new Map<string, SeedFunction>();
  const add = (fun_id: string, name: Text, description: Text) => {
    if (!out.has(fun_id)) out.set(fun_id, { fun_id, name: name.zh, name_en: name.en, description: both(description) });
  };
  add(SUPER_ADMINISTRATOR, { zh: '超级管理员', en: 'Super administrator' }, {
    zh: '拥有全部功能',
    en: 'Holds every function',
  });
  const menu = flattenMenu(MENU);
  for (const funId of menuFunctionIds()) {
    const item = menu.find((m) => m.fun_id === funId);
    const title = item?.meta.title ?? { zh: funId, en: funId };
    add(funId, { zh: `菜单：${title.zh}`, en: `Menu: ${title.en}` }, { zh: `显示菜单“${title.zh}”`, en: `Shows the menu entry "${title.en}"` });
  }
  for (const name of Object.keys(calls) as CallName[]) {
    const def = CALL_LIST.find((d) => d.name === name)!;
    if (def.access === 'public' || def.access === 'session') continue;
    const readable = CALL_FUNCTION_NAMES[name] ?? { zh: `接口 ${def.path}`, en: `Call ${def.path}` };
    add(def.access, readable, { zh: `调用接口 ${def.service}${def.path}`, en: `Calls ${def.service}${def.path}` });
  }
  add(USER_EDIT_FUNCTION, { zh: '编辑用户', en: 'Edit users' }, {
    zh: '编辑其他用户的资料、权限与有效期',
    en: 'Edit other users: details, functions and validity',
  });
  add(DEVICE_PUSH_FUNCTION, { zh: '设备推送', en: 'Device push' }, {
    zh: '接收设备实时数据推送',
    en: 'Receives live device data over the push connection',
  });
  return [...out.values()];
}

/** Inserts the seeded functions that are missing; never overwrites what an administrator changed. */
export async function seedFunctionRows(db: Kysely<DB>): Promise<number> {
  const now = nowSeconds();
  const rows = seedFunctions().map((f, i) => ({ ...f, state: STATE_NORMAL, notes: '', sort: (i + 1) * 10, created_at: now, updated_at: now }));
  const result = await db
    .insertInto('functions')
    .values(rows)
    .onConflict((oc) => oc.column('fun_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}
