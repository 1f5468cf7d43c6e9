import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import {
  RESULT_ZIP_MAX_BYTES,
  RESULT_ZIP_MAX_FILES,
  RESULT_ZIP_PATH,
  RESULT_ZIP_TTL_S,
  ResultCode,
  showText,
  type Lang,
} from '@nest/contracts';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import yazl from 'yazl';
import { settingsSecret } from '../storage/links.js';
import { CallError } from '../calls/errors.js';
import { nowSeconds, type Database } from '../db/index.js';
import type { AppDeps } from '../deps.js';
import { attachmentHeader } from '../static/headers.js';
import type { PlanScope } from '../db/scope.js';
import { STATE_NORMAL } from '../db/sql.js';
import { keyOfUrl } from './files.js';

/**
 * Result archives (/result/zip, then GET RESULT_ZIP_PATH/<token>).
 *
 * The call checks the selection (every id visible to the caller, or a sortie of the caller's company),
 * counts files and bytes against the limits, and answers a link. The link's token is
 * `base64url(JSON payload).base64url(HMAC-SHA256)` with a secret kept in the `settings` table (made once,
 * by whichever instance comes first), so any instance can verify it. A sortie's token names the sortie;
 * an id selection (up to 1000 ids, too long for a URL) is kept in `settings` under a key that starts with
 * its expiry, so expired selections are swept by prefix comparison. The GET re-reads the rows (results
 * deleted meanwhile are left out) and streams a zip that stores JPEG / MP4 as they are (no recompression).
 * The archive is written by yazl: it opens one file at a time as the client reads, and writes ZIP64 records
 * once an archive passes 4 GiB (RESULT_ZIP_MAX_BYTES of media plus headers), neither of which the in-memory
 * fflate writer of @nest/formats (plan files of a few kilobytes, also in the browser) does.
 * The link is a bearer link (like the /media/ files themselves): whoever holds it may download until it
 * expires; it only ever reaches the company that was checked when it was made.
 */

const SECRET_KEY = 'media.zip_secret';
/** `zip.<expiry s, 10 digits>.<nonce>`: ordered by expiry as text. */
const SELECTION_PREFIX = 'zip.';

interface Payload {
  /** Sortie id, or the selection nonce. */
  s?: string;
  n?: string;
  /** Company the link is limited to; '*' for super administrators. */
  c: string;
  /** Expiry (s). */
  e: number;
  /** Language of the console that asked for the link: demo route names in the entry and file names read in it. */
  l?: Lang;
}

/** The archive secret, created in the database by the first instance that needs it. */
export const zipSecret = (db: Database): Promise<Buffer> => settingsSecret(db, SECRET_KEY);

const sign = (secret: Buffer, body: string): Buffer => createHmac('sha256', secret).update(body).digest();

export async function makeToken(db: Database, payload: Payload): Promise<string> {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(await zipSecret(db), body).toString('base64url')}`;
}

/** The payload of a token whose signature holds and that has not expired, else null. */
export async function readToken(db: Database, token: string, now = nowSeconds()): Promise<Payload | null> {
  const m = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const given = Buffer.from(m[2]!, 'base64url');
  const expected = sign(await zipSecret(db), m[1]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const p = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as Payload;
    if (typeof p.e !== 'number' || p.e < now || typeof p.c !== 'string') return null;
    if (typeof p.s !== 'string' && typeof p.n !== 'string') return null;
    return p;
  } catch {
    return null;
  }
}

interface ZipRow {
  id: string;
  sort_id: string | null;
  file_name: string;
  url: string;
  size: number;
  taken_at: number;
}

const tooMany = (n: number): CallError =>
  new CallError(ResultCode.BAD_REQUEST, (lang: Lang) =>
    lang === 'zh'
      ? `所选成果过多（${n} 个），一次最多打包 ${RESULT_ZIP_MAX_FILES} 个`
      : `Too many results (${n}): at most ${RESULT_ZIP_MAX_FILES} per archive`,
  );
const tooLarge = (bytes: number): CallError =>
  new CallError(ResultCode.BAD_REQUEST, (lang: Lang) => {
    const gb = (b: number) => (b / 1024 ** 3).toFixed(2);
    return lang === 'zh'
      ? `所选成果共 ${gb(bytes)} GB，一次最多打包 ${gb(RESULT_ZIP_MAX_BYTES)} GB`
      : `The selected results are ${gb(bytes)} GB: at most ${gb(RESULT_ZIP_MAX_BYTES)} GB per archive`;
  });
const nothing = (): CallError =>
  new CallError(ResultCode.BAD_REQUEST, (lang: Lang) => (lang === 'zh' ? '没有可打包的成果' : 'There are no results to put in an archive'));

const inScope = (company: string) => (row: { company_id: string }) => company === '*' || row.company_id === company;

/** Limits of one archive (tests lower them). */
export interface ZipLimits {
  files: number;
  bytes: number;
}
export const zipLimits: ZipLimits = { files: RESULT_ZIP_MAX_FILES, bytes: RESULT_ZIP_MAX_BYTES };

/** /result/zip: checks the selection and the limits, answers the download link. */
export async function prepareZip(
  deps: AppDeps,
  scope: PlanScope,
  f: { ids?: string[]; sort_id?: string },
  limits: ZipLimits = zipLimits,
  lang?: Lang,
): Promise<{ url: string; count: number; bytes: number; expires_at: number }> {
  const { db } = deps;
  const company = scope.all ? '*' : scope.companyId;
  const visible = inScope(company);
  let rows: { size: number }[];
  if (f.sort_id !== undefined) {
    const sortie = await db
      .selectFrom('sorties')
      .select(['id', 'company_id'])
      .where('id', '=', f.sort_id)
      .where('state', '=', STATE_NORMAL)
      .executeTakeFirst();
    if (!sortie || !visible(sortie)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    rows = await db.selectFrom('results').select('size').where('sort_id', '=', sortie.id).where('state', '=', STATE_NORMAL).execute();
  } else {
    const ids = [...new Set(f.ids ?? [])];
    if (ids.length > limits.files) throw tooMany(ids.length);
    const found: { id: string; company_id: string; size: number }[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      found.push(
        ...(await db
          .selectFrom('results')
          .select(['id', 'company_id', 'size'])
          .where('id', 'in', ids.slice(i, i + 500))
          .where('state', '=', STATE_NORMAL)
          .execute()),
      );
    }
    if (found.length !== ids.length || !found.every(visible)) throw new CallError(ResultCode.NOT_FOUND_OBJECT);
    rows = found;
  }
  const count = rows.length;
  const bytes = rows.reduce((sum, r) => sum + Number(r.size), 0);
  if (count === 0) throw nothing();
  if (count > limits.files) throw tooMany(count);
  if (bytes > limits.bytes) throw tooLarge(bytes);

  const now = nowSeconds();
  const exp = now + RESULT_ZIP_TTL_S;
  let payload: Payload;
  if (f.sort_id !== undefined) {
    payload = { s: f.sort_id, c: company, e: exp, l: lang };
  } else {
    const nonce = randomBytes(16).toString('base64url');
    // Expired selections go first: every key below `zip.<now>` has expired.
    await db.deleteFrom('settings').where('key', 'like', `${SELECTION_PREFIX}%`).where('key', '<', `${SELECTION_PREFIX}${String(now).padStart(10, '0')}`).execute();
    await db
      .insertInto('settings')
      .values({ key: `${SELECTION_PREFIX}${String(exp).padStart(10, '0')}.${nonce}`, value: JSON.stringify([...new Set(f.ids)]) })
      .execute();
    payload = { n: `${String(exp).padStart(10, '0')}.${nonce}`, c: company, e: exp, l: lang };
  }
  return { url: `${RESULT_ZIP_PATH}/${await makeToken(db, payload)}`, count, bytes, expires_at: exp };
}

/** The rows an archive holds now (deleted results and other companies' rows left out). */
async function rowsOf(db: Database, p: Payload): Promise<ZipRow[]> {
  const visible = inScope(p.c);
  const base = () =>
    db
      .selectFrom('results')
      .select(['id', 'sort_id', 'file_name', 'url', 'size', 'taken_at', 'company_id'])
      .where('state', '=', STATE_NORMAL);
  let rows: (ZipRow & { company_id: string })[] = [];
  if (p.s !== undefined) {
    rows = await base().where('sort_id', '=', p.s).orderBy('taken_at').orderBy('id').execute();
  } else {
    const stored = await db.selectFrom('settings').select('value').where('key', '=', `${SELECTION_PREFIX}${p.n}`).executeTakeFirst();
    if (!stored) return [];
    const ids = JSON.parse(stored.value) as string[];
    for (let i = 0; i < ids.length; i += 500) rows.push(...(await base().where('id', 'in', ids.slice(i, i + 500)).execute()));
    rows.sort((a, b) => Number(a.taken_at) - Number(b.taken_at) || a.id.localeCompare(b.id));
  }
  return rows.filter(visible);
}

const safeSegment = (s: string): string =>
  [...s]
    .map((c) => (c.charCodeAt(0) < 0x20 ? '_' : c))
    .join('')
    .replace(/[\\/:*?"<>|]/g, '_')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, 100);

const pad = (n: number): string => String(n).padStart(2, '0');
/** `YYYY-MM-DD` of a moment (ms) in the server's time zone (where its operators are). */
export const localDay = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};
/** `YYYY-MM-DD HHmm` in the server's time zone (no colon: not allowed in Windows file names). */
export const localStamp = (ms: number): string => {
  const d = new Date(ms);
  return `${localDay(ms)} ${pad(d.getHours())}${pad(d.getMinutes())}`;
};

/**
 * Entry names `<folder>/<file_name>`: the folder is the sortie (route name and start) or, for a result
 * without a sortie, the day it was taken (server time zone); a repeated name gets ` (2)`, ` (3)`... before its
 * extension.
 */
export function entryNames(rows: readonly ZipRow[], sorties: ReadonlyMap<string, { mission_name: string; start_time: number }>): string[] {
  const used = new Set<string>();
  return rows.map((r) => {
    const s = r.sort_id ? sorties.get(r.sort_id) : undefined;
    const folder = s
      ? safeSegment(`${s.mission_name || 'sortie'} ${localStamp(Number(s.start_time) * 1000)}`)
      : localDay(Number(r.taken_at));
    const file = safeSegment(r.file_name) || r.id;
    const ext = path.extname(file);
    const stem = file.slice(0, file.length - ext.length);
    let name = `${folder}/${file}`;
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${folder}/${stem} (${i})${ext}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/** GET RESULT_ZIP_PATH/<token>: the archive, or 404 for a bad or expired link. */
export function registerResultZip(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;
  // A wildcard, not a parameter: tokens are longer than the router's parameter limit.
  app.get(`${RESULT_ZIP_PATH}/*`, async (request, reply) => {
    const token = (request.params as { '*': string })['*'];
    const p = await readToken(db, token);
    const notFound = () => reply.code(404).header('cache-control', 'no-store').send({ error: 'not_found' });
    if (!p) return notFound();
    const rows = await rowsOf(db, p);
    if (rows.length === 0) return notFound();
    const sortIds = [...new Set(rows.map((r) => r.sort_id).filter((s): s is string => s !== null))];
    const sorties = new Map<string, { mission_name: string; start_time: number }>();
    for (let i = 0; i < sortIds.length; i += 500) {
      const found = await db.selectFrom('sorties').select(['id', 'mission_name', 'start_time']).where('id', 'in', sortIds.slice(i, i + 500)).execute();
      for (const s of found) sorties.set(s.id, { ...s, mission_name: showText(s.mission_name, p.l === 'en' ? 'en' : 'zh') });
    }
    const names = entryNames(rows, sorties);
    const zip = new yazl.ZipFile();
    // Files are opened one at a time as the archive is written; a client that goes away stops the reading.
    const reading = new Set<Readable>();
    let added = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const key = keyOfUrl(r.url);
      // An object gone from storage (deleted by hand) is left out rather than failing the whole archive.
      const st = key ? await deps.media.stat(key) : null;
      if (!key || !st) continue;
      zip.addReadStreamLazy(names[i]!, { compress: false, mtime: new Date(Number(r.taken_at)), size: st.size }, (cb) => {
        deps.media.read(key).then(
          (stream) => {
            reading.add(stream);
            stream.on('close', () => reading.delete(stream));
            cb(null, stream);
          },
          // yazl reads no stream when given an error; its types ask for one all the same.
          (err: Error) => (cb as (err: Error) => void)(err),
        );
      });
      added++;
    }
    if (added === 0) return notFound();
    // A file that vanished or changed size since it was listed: the archive cannot be completed.
    zip.on('error', (err: Error) => {
      request.log.warn({ err: err.message }, 'result zip: archive aborted');
      (zip.outputStream as Readable).destroy(err);
    });
    reply.raw.on('close', () => {
      for (const s of reading) s.destroy();
    });
    zip.end();
    const label = p.s !== undefined ? (sorties.get(p.s)?.mission_name ?? '') : '';
    const base = `results-${label ? `${label}-` : ''}${localDay(Date.now())}`;
    return reply
      .header('content-type', 'application/zip')
      .header('cache-control', 'no-store')
      .header('content-disposition', attachmentHeader(`${base}.zip`))
      .send(zip.outputStream);
  });
}
