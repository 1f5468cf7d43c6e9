import { createHmac, timingSafeEqual } from 'node:crypto';
import { settingsSecret } from '../../storage/links.js';
import type { Database } from '../../db/index.js';

/**
 * Signed tile paths of offline map packages. MapLibre fetches tiles without the console's token, so the
 * style (read through an authenticated, company-scoped call) names tile URLs carrying `<exp>.<sig>`:
 * base64url HMAC-SHA256 of `map-package\n<package id>\n<exp>` with a secret kept in the `settings` table
 * (every instance on the database checks every link). A link opens one package's tiles until it expires;
 * it is handed out only to users who may see the package.
 *
 * Expiries are rounded up to a whole PACKAGE_LINK_STEP_SECONDS so styles read again within the step name the
 * same URLs (the browser's tile cache keeps working).
 */
const SECRET_KEY = 'maps.package_url_secret';
/** A style's tile URLs stay valid at least this long (a session's longest life): a map left open keeps drawing. */
export const PACKAGE_LINK_SECONDS = 12 * 3600;
export const PACKAGE_LINK_STEP_SECONDS = 3600;

/** `<exp>.<sig>`, as it appears in a tile path. */
export const PACKAGE_TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const mac = (secret: Buffer, id: string, exp: number): Buffer => createHmac('sha256', secret).update(`map-package\n${id}\n${exp}`).digest();

/** The signed token for a package's tiles, valid from `now` (s) for at least PACKAGE_LINK_SECONDS. */
export async function packageToken(db: Database, id: string, now: number): Promise<string> {
  const exp = Math.ceil((now + PACKAGE_LINK_SECONDS) / PACKAGE_LINK_STEP_SECONDS) * PACKAGE_LINK_STEP_SECONDS;
  return `${exp}.${mac(await settingsSecret(db, SECRET_KEY), id, exp).toString('base64url')}`;
}

/** Whether `token` is a live signature for the package `id` at `now` (s). */
export async function packageTokenHolds(db: Database, id: string, token: string, now: number): Promise<boolean> {
  const m = PACKAGE_TOKEN.exec(token);
  if (!m) return false;
  const exp = Number(m[1]);
  if (exp < now) return false;
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = mac(await settingsSecret(db, SECRET_KEY), id, exp);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
