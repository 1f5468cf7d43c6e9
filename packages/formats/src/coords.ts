import type { ReadContext } from './limits.js';
import { checkLatLng } from './limits.js';
import { T, fail } from './texts.js';

/** `lng,lat[,alt]` tuples to [lng, lat, alt?]; counts them against the coordinate limit. */
export function parseCoordinates(text: string, where: string, ctx: ReadContext): number[][] {
  const norm = text.replace(/\s*,\s*/g, ',').trim();
  if (!norm) return [];
  const tuples = norm.split(/\s+/);
  ctx.addCoordinates(tuples.length);
  const out: number[][] = new Array<number[]>(tuples.length);
  for (let i = 0; i < tuples.length; i++) {
    const tuple = tuples[i]!;
    const parts = tuple.split(',');
    if (parts.length < 2 || parts.length > 3 || parts[0] === '' || parts[1] === '') fail(T.badTuple(where, tuple));
    const lng = Number(parts[0]);
    const lat = Number(parts[1]);
    if (!Number.isFinite(lng) || !Number.isFinite(lat)) fail(T.badNumber(where, tuple));
    checkLatLng(lat, lng, where);
    if (parts.length === 3 && parts[2] !== '') {
      const alt = Number(parts[2]);
      if (!Number.isFinite(alt)) fail(T.altNotFinite(where));
      out[i] = [lng, lat, alt];
    } else out[i] = [lng, lat];
  }
  return out;
}

