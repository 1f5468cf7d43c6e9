import { createHmac, timingSafeEqual } from 'node:crypto';
import { settingsSecret } from '../storage/links.js';
import { nowSeconds, type Database } from '../db/index.js';

/**
 * Signed, expiring paths for the company files served under /media/ (results, thumbnails, recordings) and
 * the live video under /live/ (media/README.md, "Signed media and live links").
 *
 * - media: `/media/<rel>` is handed out as `/media/s/<exp>.<sig>/<rel>`; the signature covers that one file;
 * - live: `<LIVE_URL_BASE>/<sn>/index.m3u8` is handed out as `/live/<exp>.<sig>/<sn>/index.m3u8`; the
 *   signature covers the device's directory, so the segments the playlist names relatively inherit it.
 *
 * `<sig>` is base64url HMAC-SHA256 of `<kind>\n<granted path>\n<exp>` with a secret kept in the `settings`
 * table (made by whichever instance comes first, like the other link secrets), so every instance sharing the
 * database checks every link; checking is one HMAC, the secret is read once per process.
 *
 * Expiries are rounded up to a whole LINK_STEP_SECONDS: lists read again within the step answer the same
 * URLs, so the browser's cache keeps working and a playing live video is not restarted at every re-read.
 */
const SECRET_KEY = 'media.url_secret';

/** A media link (result, thumbnail, recording) stays valid at least this long: a page left open keeps working. */
export const MEDIA_LINK_SECONDS = 12 * 3600;
/** A live link stays valid at least this long; the console re-reads the device list every 30 s. */
export const LIVE_LINK_SECONDS = 3600;
/** Expiries are whole multiples of this: a link is valid between its minimum and minimum + step. */
export const LINK_STEP_SECONDS = 3600;

export const MEDIA_PREFIX = '/media/';
export const LIVE_PREFIX = '/live/';
/** Signed media paths: `/media/s/<exp>.<sig>/<rel>`. */
export const SIGNED_MEDIA_PREFIX = `${MEDIA_PREFIX}s/`;
/** The LIVE_URL_BASE under which this server serves the live video itself (and so signs it). */
export const OWN_LIVE_BASE = LIVE_PREFIX.slice(0, -1);

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

type Kind = 'media' | 'live';

const mac = (secret: Buffer, kind: Kind, granted: string, exp: number): Buffer =>
  createHmac('sha256', secret).update(`${kind}\n${granted}\n${exp}`).digest();

const expiryOf = (now: number, seconds: number): number => Math.ceil((now + seconds) / LINK_STEP_SECONDS) * LINK_STEP_SECONDS;

/** The secret of media and live links (created in the database by the first instance that needs it). */
export const mediaLinkSecret = (db: Database): Promise<Buffer> => settingsSecret(db, SECRET_KEY);

/** Signs the URLs of one answer; made once per call (one secret read), then synchronous. */
export interface MediaLinks {
  /**
   * A stored `/media/<rel>` URL as the signed path of that file. '' stays '' (no thumbnail); anything not
   * under /media/ is not served here and is answered as it is.
   */
  media(url: string): string;
  /**
   * The live video URL of a device: `/live/<exp>.<sig>/<sn>/index.m3u8` when this server serves it
   * (`base` is /live), else `<base>/<sn>/index.m3u8` for the media server at `base`, which does its own checks.
   */
  live(base: string, sn: string): string;
}

/** Link signer for an answer being made at `now` (s); only for files the caller may see. */
export async function mediaLinks(db: Database, now = nowSeconds()): Promise<MediaLinks> {
  const secret = await mediaLinkSecret(db);
  const token = (kind: Kind, granted: string, seconds: number) => {
    const exp = expiryOf(now, seconds);
    return `${exp}.${mac(secret, kind, granted, exp).toString('base64url')}`;
  };
  return {
    media(url) {
      if (!url.startsWith(MEDIA_PREFIX) || url.startsWith(SIGNED_MEDIA_PREFIX)) return url;
      const rel = url.slice(MEDIA_PREFIX.length);
      return `${SIGNED_MEDIA_PREFIX}${token('media', rel, MEDIA_LINK_SECONDS)}/${rel}`;
    },
    live(base, sn) {
      const dir = encodeURIComponent(sn);
      if (base !== OWN_LIVE_BASE) return `${base}/${dir}/index.m3u8`;
      return `${LIVE_PREFIX}${token('live', sn, LIVE_LINK_SECONDS)}/${dir}/index.m3u8`;
    },
  };
}

/** Whether `token` (`<exp>.<sig>`) is a live signature of `kind` for `granted` at `now` (s). */
export async function linkTokenHolds(db: Database, kind: Kind, granted: string, token: string, now = nowSeconds()): Promise<boolean> {
  const m = TOKEN.exec(token);
  if (!m) return false;
  const exp = Number(m[1]);
  if (exp < now) return false;
  // Compared as text: base64url has several spellings of the last character's unused bits.
  const given = Buffer.from(m[2]!, 'latin1');
  const expected = Buffer.from(mac(await mediaLinkSecret(db), kind, granted, exp).toString('base64url'), 'latin1');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The stored `/media/<rel>` URL behind a signed one (tests and tools that look at the files). */
export function unsignedMediaUrl(url: string): string {
  if (!url.startsWith(SIGNED_MEDIA_PREFIX)) return url;
  const rest = url.slice(SIGNED_MEDIA_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? url : `${MEDIA_PREFIX}${rest.slice(slash + 1)}`;
}
