import {
  localeOf,
  MAP_DOWNLOAD_MAX_TILES,
  MAP_DOWNLOAD_MAX_ZOOM,
  MAP_DOWNLOAD_MIN_ZOOM,
  MERCATOR_MAX_LAT,
  tileCount,
  type LatLngBox,
  type MapDownload,
} from '@nest/contracts';

/** A box as the form edits it: any value may be missing while typing. */
export type BoxDraft = { [K in keyof LatLngBox]: number | null };

export const EMPTY_BOX: BoxDraft = { min_lat: null, min_lng: null, max_lat: null, max_lng: null };

/** The box when complete and valid (as /map/down checks it), else null. */
export function validBox(b: BoxDraft): LatLngBox | null {
  const { min_lat, min_lng, max_lat, max_lng } = b;
  if (min_lat === null || min_lng === null || max_lat === null || max_lng === null) return null;
  if (![min_lat, min_lng, max_lat, max_lng].every(Number.isFinite)) return null;
  if (Math.abs(min_lat) > MERCATOR_MAX_LAT || Math.abs(max_lat) > MERCATOR_MAX_LAT) return null;
  if (Math.abs(min_lng) > 180 || Math.abs(max_lng) > 180) return null;
  if (!(min_lat < max_lat && min_lng < max_lng)) return null;
  return { min_lat, min_lng, max_lat, max_lng };
}

/** The box of two corners (any order), rounded to 6 decimals (about 0.1 m) and kept inside Web Mercator. */
export function boxOfCorners(a: { lat: number; lng: number }, b: { lat: number; lng: number }): LatLngBox {
  const r = (v: number) => Math.round(v * 1e6) / 1e6;
  const lat = (v: number) => r(Math.max(-MERCATOR_MAX_LAT, Math.min(MERCATOR_MAX_LAT, v)));
  const lng = (v: number) => r(Math.max(-180, Math.min(180, v)));
  return {
    min_lat: lat(Math.min(a.lat, b.lat)),
    max_lat: lat(Math.max(a.lat, b.lat)),
    min_lng: lng(Math.min(a.lng, b.lng)),
    max_lng: lng(Math.max(a.lng, b.lng)),
  };
}

export interface Estimate {
  count: number;
  overLimit: boolean;
}

/** The tile count the server will answer for this box and zoom range (same function), and whether it is refused. */
export function estimate(box: LatLngBox | null, minZoom: number, maxZoom: number): Estimate | null {
  if (!box) return null;
  const lo = Math.max(MAP_DOWNLOAD_MIN_ZOOM, Math.min(minZoom, maxZoom));
  const hi = Math.min(MAP_DOWNLOAD_MAX_ZOOM, Math.max(minZoom, maxZoom));
  const count = tileCount(box, lo, hi);
  return { count, overLimit: count > MAP_DOWNLOAD_MAX_TILES };
}

/** A whole number with thousands separators in the console language. */
export const formatCount = (n: number, lang: 'zh' | 'en'): string => n.toLocaleString(localeOf(lang));

/** Progress in whole percent (a finished job 100, an empty one 0; never 100 before the end). */
export function progressPercent(job: Pick<MapDownload, 'done' | 'total' | 'state'>): number {
  if (job.state === 'done') return 100;
  if (job.total <= 0) return 0;
  return Math.min(99, Math.floor((job.done / job.total) * 100));
}

/** "22.400000, 113.800000 – 22.700000, 114.200000" with 4 decimals (about 10 m), south-west to north-east. */
export function formatBox(b: LatLngBox): string {
  const f = (v: number) => v.toFixed(4);
  return `${f(b.min_lat)}, ${f(b.min_lng)} – ${f(b.max_lat)}, ${f(b.max_lng)}`;
}

/** The box as a closed GeoJSON ring of [lng, lat] (outline on the map). */
export function boxRing(b: LatLngBox, project: (p: { lat: number; lng: number }) => [number, number] = (p) => [p.lng, p.lat]): [number, number][] {
  const pts = [
    { lat: b.min_lat, lng: b.min_lng },
    { lat: b.min_lat, lng: b.max_lng },
    { lat: b.max_lat, lng: b.max_lng },
    { lat: b.max_lat, lng: b.min_lng },
    { lat: b.min_lat, lng: b.min_lng },
  ];
  return pts.map(project);
}

/** A job from push 391 merged into the shown list (replacing the same id, else added on top). */
export function mergeJob(list: readonly MapDownload[], job: MapDownload): MapDownload[] {
  const i = list.findIndex((j) => j.id === job.id);
  if (i < 0) return [job, ...list];
  // An older frame (out of order) never overwrites newer progress.
  if (list[i]!.modified_time > job.modified_time || (list[i]!.modified_time === job.modified_time && list[i]!.done > job.done)) return list as MapDownload[];
  const next = list.slice();
  next[i] = job;
  return next;
}
