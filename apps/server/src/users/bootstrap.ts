import { SUPER_ADMINISTRATOR, demoText } from '@nest/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { generatePassword, hashPassword } from '../auth/api.js';
import { ADMIN_COMPANY } from '../db/seed.js';
import type { DB } from '../db/schema.js';
import { AccountTakenError, createUser, findUserByAccount } from './store.js';

/** Settings key recording that the first administrator was set up (so it is never created twice). */
export const ADMIN_BOOTSTRAP_KEY = 'bootstrap.admin';

export interface AdminBootstrap {
  /** True on the start that created the account. */
  created: boolean;
  account: string;
  /** The generated password, only when created and not given by ADMIN_PASSWORD. */
  password: string | null;
  fromEnv: boolean;
}

/**
 * The first super administrator (ADMIN_ACCOUNT / ADMIN_PASSWORD, else admin@nest.local with a generated
 * password), in company wk with fun_list [super_administrator]. Runs once per database: afterwards a
 * settings row remembers it, so deleting or renaming that user later does not bring it back.
 */
export async function bootstrapAdmin(db: Kysely<DB>, config: Pick<Config, 'adminAccount' | 'adminPassword' | 'scrypt'>): Promise<AdminBootstrap> {
  const account = config.adminAccount;
  const fromEnv = config.adminPassword !== null;
  const done = await db.selectFrom('settings').select('value').where('key', '=', ADMIN_BOOTSTRAP_KEY).executeTakeFirst();
  if (done) return { created: false, account: done.value, password: null, fromEnv };

  const remember = (d: Kysely<DB>) =>
    d.insertInto('settings').values({ key: ADMIN_BOOTSTRAP_KEY, value: account }).onConflict((oc) => oc.doNothing()).execute();
  if (await findUserByAccount(db, account)) {
    await remember(db);
    return { created: false, account, password: null, fromEnv };
  }
  const password = config.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password, config.scrypt);
  try {
    await db.transaction().execute(async (trx) => {
      await createUser(trx, {
        // A demo text: shown in the reader's language until the administrator changes it.
        nick: demoText('user.administrator'),
        account,
        email: account.includes('@') ? account : '',
        passwordHash,
        companyId: ADMIN_COMPANY,
        funList: [SUPER_ADMINISTRATOR],
      });
      await remember(trx);
    });
  } catch (err) {
    if (err instanceof AccountTakenError) return { created: false, account, password: null, fromEnv };
    throw err;
  }
  return { created: true, account, password: fromEnv ? null : password, fromEnv };
}
