import type { Database } from '../src/db/index.js';
import { findUserById } from '../src/users/store.js';
import type { Fields } from './helpers.js';

/** Every field of /user/edit for a user as stored, with `over` applied (the edit form sends them all). */
export async function userEditFields(db: Database, uId: string, over: Fields = {}): Promise<Fields> {
  const row = await findUserById(db, uId);
  if (!row) throw new Error(`no user ${uId}`);
  return {
    u_id: row.u_id,
    state: row.state,
    start_time: row.start_time,
    end_time: row.end_time,
    nick: row.nick,
    phone: row.phone,
    email: row.email,
    password: '',
    team: row.team,
    notes: row.notes,
    in_com_id: row.company_id,
    fun_json: row.fun_list,
    ...over,
  };
}
