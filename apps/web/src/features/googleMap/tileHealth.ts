/**
 * Whether a raster basemap's tiles can be reached, judged from MapLibre's tile events: unreachable once
 * `threshold` tiles failed while none loaded, or when nothing loaded within `timeoutMs` (a firewall that
 * drops packets makes tile requests hang rather than fail). One loaded tile makes it reachable.
 */
export type TileHealth = 'loading' | 'ok' | 'unreachable';

export interface TileCounts {
  loaded: number;
  failed: number;
  /** ms since the basemap was set */
  elapsedMs: number;
}

export const TILE_FAIL_THRESHOLD = 2;
export const TILE_TIMEOUT_MS = 12_000;

export function tileHealth(c: TileCounts, threshold = TILE_FAIL_THRESHOLD, timeoutMs = TILE_TIMEOUT_MS): TileHealth {
  if (c.loaded > 0) return 'ok';
  if (c.failed >= threshold || c.elapsedMs >= timeoutMs) return 'unreachable';
  return 'loading';
}
