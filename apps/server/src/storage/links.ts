import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/index.js';
import { nowSeconds } from '../db/index.js';

/**
 * Signed download links for files a browser opens without headers (a `<video src>`, an `<a download>`):
 * `?e=<expiry s>&s=<base64url HMAC-SHA256(purpose:id:expiry)>`. The secret lives in the `settings` table,
 * made once by whichever instance comes first, so every instance checks every link. A link is a bearer
 * link for one file until it expires; it is only handed out by calls whose function the caller holds.
 */
const SECRET_KEY = 'links.secret';
/** Links live as long as a session may (contracts TOKEN_COOKIE_HOURS): a page left open keeps working. */
export const LINK_TTL_SECONDS = 12 * 3600;

const secrets = new WeakMap<Database, Map<string, Promise<Buffer>>>();

/**
 * A 32-byte secret kept under `key` in the `settings` table: made by whichever instance asks first (insert,
 * ignoring a conflict, then read back), so every instance signs and checks with the same one.
 */
export function settingsSecret(db: Database, key: string): Promise<Buffer> {
  let byKey = secrets.get(db);
  if (!byKey) secrets.set(db, (byKey = new Map()));
  let p = byKey.get(key);
  if (!p) {
    p = (async () => {
      await db
        .insertInto('settings')
        .values({ key, value: randomBytes(32).toString('base64url') })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return Buffer.from(row.value, 'base64url');
    })();
    p.catch(() => byKey.delete(key));
    byKey.set(key, p);
  }
  return p;
}

const linkSecret = (db: Database): Promise<Buffer> => settingsSecret(db, SECRET_KEY);

const mac = (secret: Buffer, purpose: string, id: string, expiry: number): Buffer =>
  createHmac('sha256', secret).update(`${purpose}:${id}:${expiry}`).digest();

/** `<base>?e=..&s=..` for one file, valid LINK_TTL_SECONDS from now. */
export async function signedLink(db: Database, base: string, purpose: string, id: string, now = nowSeconds()): Promise<string> {
  const expiry = now + LINK_TTL_SECONDS;
  const sig = mac(await linkSecret(db), purpose, id, expiry).toString('base64url');
  return `${base}?e=${expiry}&s=${sig}`;
}

/** Whether a link's query (`e`, `s`) is a live signature for this purpose and id. */
export async function linkHolds(db: Database, purpose: string, id: string, query: unknown, now = nowSeconds()): Promise<boolean> {
  const q = (query ?? {}) as Record<string, unknown>;
  const e = typeof q.e === 'string' && /^\d{1,12}$/.test(q.e) ? Number(q.e) : NaN;
  const s = typeof q.s === 'string' && /^[A-Za-z0-9_-]{43}$/.test(q.s) ? Buffer.from(q.s, 'base64url') : null;
  if (!Number.isFinite(e) || e < now || !s) return false;
  const expected = mac(await linkSecret(db), purpose, id, e);
  return s.length === expected.length && timingSafeEqual(s, expected);
}
