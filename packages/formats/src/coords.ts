import type { ReadContext } from './limits.js';
import { checkLatLng } from './limits.js';
import { T, fail } from './texts.js';

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * `Number(text.slice(i, j))` without the slice for plain decimals: when the digits fit in 2^53 and there
 * are at most 22 decimals, one division of two exact doubles is correctly rounded, so the result is the
 * same double `Number` gives (Clinger's fast path). Anything else goes to `Number`.
 */
export function decimalAt(text: string, i: number, j: number): number {
  let p = i;
  let neg = false;
  const c0 = text.charCodeAt(p);
  if (c0 === 45) {
    neg = true;
    p++;
  } else if (c0 === 43) p++;
  let m = 0;
  let frac = 0;
  let dot = false;
  let digits = false;
  for (; p < j; p++) {
    const c = text.charCodeAt(p);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits = true;
      if (dot) frac++;
    } else if (c === 46 && !dot) dot = true;
    else return Number(text.slice(i, j));
  }
  if (!digits || m > Number.MAX_SAFE_INTEGER || frac > 22) return Number(text.slice(i, j));
  const v = frac ? m / POW10[frac]! : m;
  return neg ? -v : v;
}

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11 || c === 0xa0;

/**
 * KML `lng,lat[,alt]` tuples to [lng, lat, alt?], counted against the coordinate limit. Tuples are
 * separated by any whitespace; whitespace around commas is tolerated ("120.1, 30.2, 50", which
 * @tmcw/togeojson drops). Every value must be a finite number and the position in range, else the file
 * is refused naming `where`. A single hand-written pass: this runs over every vertex of every file.
 */
export interface Coords {
  lng: number[];
  lat: number[];
  /** NaN where the tuple has no altitude. */
  alt: number[];
}

export const latLngsOf = (c: Coords): { lat: number; lng: number }[] => c.lat.map((lat, i) => ({ lat, lng: c.lng[i]! }));
export const altAt = (c: Coords, i: number): number | undefined => (Number.isNaN(c.alt[i]!) ? undefined : c.alt[i]);

export function parseCoordinates(text: string, where: string, ctx: ReadContext): Coords {
  const out: Coords = { lng: [], lat: [], alt: [] };
  const n = text.length;
  let i = 0;
  /** End of the tuple starting at `from` (for messages): spaces count only next to a comma. */
  const tupleEnd = (from: number): number => {
    let k = from;
    for (;;) {
      while (k < n && !isSpace(text.charCodeAt(k))) k++;
      let m = k;
      while (m < n && isSpace(text.charCodeAt(m))) m++;
      if (m < n && (text.charCodeAt(m) === 44 || text.charCodeAt(k - 1) === 44)) k = m;
      else return k;
    }
  };
  const bad = (start: number, end: number): never => {
    const tuple = text.slice(start, end).replace(/\s+/g, ' ').trim();
    return fail(T.badTuple(where, tuple));
  };
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    let count = 0;
    let x = NaN;
    let y = NaN;
    let z = NaN;
    for (;;) {
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === 44 || isSpace(c)) break;
        j++;
      }
      let k = j;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      const more = k < n && text.charCodeAt(k) === 44;
      if (j === i) {
        // Only a trailing empty altitude ("lng,lat,") is allowed.
        if (count !== 2 || more) bad(start, k);
      } else {
        const v = decimalAt(text, i, j);
        if (!Number.isFinite(v)) {
          if (count === 2) fail(T.altNotFinite(where));
          fail(T.badNumber(where, text.slice(start, tupleEnd(start)).replace(/\s+/g, '')));
        }
        if (count === 0) x = v;
        else if (count === 1) y = v;
        else z = v;
        count++;
      }
      if (!more) {
        i = j;
        break;
      }
      i = k + 1;
      while (i < n && isSpace(text.charCodeAt(i))) i++;
      if (i >= n) {
        if (count === 2) break;
        bad(start, n);
      }
    }
    if (count < 2 || count > 3) bad(start, i);
    checkLatLng(y, x, where);
    out.lng.push(x);
    out.lat.push(y);
    out.alt.push(z);
  }
  ctx.addCoordinates(out.lat.length);
  return out;
}
