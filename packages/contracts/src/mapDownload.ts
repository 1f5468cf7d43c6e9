import { z } from 'zod';

/**
 * Offline map downloads (menu outLineMap, /map/down, /map/downList, /map/downCancel, push 391): a job
 * pre-cuts every tile of a WGS84 box and zoom range into the server's offline tile store, so the area is
 * ready before a site goes offline. The tile math is here so the browser's estimate and the server's
 * count are the same number.
 */

/** The offline tile store holds these zooms (the server's BASEMAP_MIN_ZOOM / BASEMAP_MAX_ZOOM). */
export const MAP_DOWNLOAD_MIN_ZOOM = 0;
export const MAP_DOWNLOAD_MAX_ZOOM = 10;
/** A job may cover at most this many tiles (mainland China at z0-z10 is about 32k; a city a few dozen). */
export const MAP_DOWNLOAD_MAX_TILES = 50_000;
/** Jobs of one company waiting or running at once; more are refused until one ends. */
export const MAP_DOWNLOAD_MAX_ACTIVE = 3;
/** Web Mercator's latitude limit: tiles do not reach beyond it. */
export const MERCATOR_MAX_LAT = 85.0511287798066;

export const MapDownloadState = {
  WAITING: 'waiting',
  RUNNING: 'running',
  DONE: 'done',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
} as const;
export type MapDownloadState = (typeof MapDownloadState)[keyof typeof MapDownloadState];
export const MAP_DOWNLOAD_STATES = Object.values(MapDownloadState);
/** States in which a job still has work to do (it can be cancelled). */
export const isActiveDownload = (state: string): boolean => state === MapDownloadState.WAITING || state === MapDownloadState.RUNNING;

export interface LatLngBox {
  min_lat: number;
  min_lng: number;
  max_lat: number;
  max_lng: number;
}

/** The inclusive tile column and row range of a box at zoom z (XYZ rows, row 0 at the north). */
export interface TileRange {
  z: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Tile column of a longitude at zoom z. */
export function lngToTileX(lng: number, z: number): number {
  const n = 2 ** z;
  return clamp(Math.floor(((lng + 180) / 360) * n), 0, n - 1);
}

/** Tile row (XYZ) of a latitude at zoom z (clamped to the Mercator limit). */
export function latToTileY(lat: number, z: number): number {
  const n = 2 ** z;
  const r = (clamp(lat, -MERCATOR_MAX_LAT, MERCATOR_MAX_LAT) * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  return clamp(Math.floor(y), 0, n - 1);
}

export function tileRange(box: LatLngBox, z: number): TileRange {
  return { z, x0: lngToTileX(box.min_lng, z), x1: lngToTileX(box.max_lng, z), y0: latToTileY(box.max_lat, z), y1: latToTileY(box.min_lat, z) };
}

export const rangeSize = (r: TileRange): number => (r.x1 - r.x0 + 1) * (r.y1 - r.y0 + 1);

/** The ranges of every zoom from minZoom to maxZoom. */
export function tileRanges(box: LatLngBox, minZoom: number, maxZoom: number): TileRange[] {
  const out: TileRange[] = [];
  for (let z = minZoom; z <= maxZoom; z++) out.push(tileRange(box, z));
  return out;
}

/** How many tiles a job for this box and zoom range covers. */
export function tileCount(box: LatLngBox, minZoom: number, maxZoom: number): number {
  return tileRanges(box, minZoom, maxZoom).reduce((n, r) => n + rangeSize(r), 0);
}

/**
 * The tile at position `index` of the job's fixed order (zoom up, then column, then row): a job resumes
 * after a restart at its `done` count with this.
 */
export function tileAt(ranges: readonly TileRange[], index: number): [z: number, x: number, y: number] | null {
  let i = index;
  for (const r of ranges) {
    const size = rangeSize(r);
    if (i < size) {
      const h = r.y1 - r.y0 + 1;
      return [r.z, r.x0 + Math.floor(i / h), r.y0 + (i % h)];
    }
    i -= size;
  }
  return null;
}

/** A download job as /map/downList answers it and push 391 carries it. Times in seconds. */
export const mapDownloadSchema = z.object({
  id: z.string(),
  name: z.string(),
  min_lat: z.number(),
  min_lng: z.number(),
  max_lat: z.number(),
  max_lng: z.number(),
  min_zoom: z.number().int(),
  max_zoom: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  state: z.enum(MAP_DOWNLOAD_STATES as [MapDownloadState, ...MapDownloadState[]]),
  /** Why it failed (server text), empty otherwise. */
  error: z.string(),
  u_id: z.string(),
  company_id: z.string(),
  create_time: z.number().int(),
  modified_time: z.number().int(),
});
export type MapDownload = z.infer<typeof mapDownloadSchema>;

/** data of push 391 MAP_DOWNLOAD: the job as it is now. */
export const mapDownloadPush = mapDownloadSchema;
