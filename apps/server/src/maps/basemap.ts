import path from 'node:path';
import { CutterThread, type TileCoord } from './cutter-thread.js';
import { BASEMAP_MAX_ZOOM, BASEMAP_MIN_ZOOM, LAYERS } from './source.js';
import { MbTiles } from './mbtiles.js';

/** Bump when the source data or the cutting changes: a file of another version is emptied and rebuilt. */
export const BASEMAP_VERSION = '3';
/** Tiles up to this zoom are cut in the background on first start (about 1.5k tiles, about a second after the index is built). */
export const DEFAULT_PREBUILD_ZOOM = 5;
/**
 * The tile index (BasemapCutter: the world's land, borders and 25k places, sliced by geojson-vt) takes about
 * 23 MB and 1-2 s to build, in a thread of its own (cutter-thread.ts). Once the stored pyramid answers most
 * requests it is only needed for a tile nobody asked for before, so the thread ends this long after its last
 * answer: a server serving devices does not carry it.
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
  private readonly cutter: CutterThread;
  private stopped = false;

  constructor(readonly file: string, idleMs = CUTTER_IDLE_MS) {
    this.cutter = new CutterThread(idleMs);
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

  /** Whether the tile index is in memory now (its thread runs: started by a cut, ended when idle). */
  get indexed(): boolean {
    return this.cutter.running;
  }

  /**
   * Cuts the given tiles that are not stored yet (in the cutting thread) and stores them, in one
   * transaction; answers how many were cut, and how many of them hold data. A tile stored meanwhile
   * (another request) is kept as stored.
   */
  private async cutAndStore(tiles: readonly TileCoord[]): Promise<{ cut: number; withData: number }> {
    const counts = { cut: 0, withData: 0 };
    const missing = tiles.filter(([z, x, y]) => this.store.get(z, x, y) === undefined);
    if (missing.length === 0) return counts;
    const data = await this.cutter.cut(missing);
    if (!this.store.db.open) return counts;
    this.store.transaction(() => {
      missing.forEach(([z, x, y], i) => {
        if (this.store.get(z, x, y) !== undefined) return;
        this.store.put(z, x, y, data[i] ?? null);
        counts.cut++;
        if (data[i]) counts.withData++;
      });
    });
    return counts;
  }

  /** The gzip'd PBF of a tile, or null for an empty one. Coordinates must be valid (see isTileInRange). */
  async tile(z: number, x: number, y: number, options: TileOptions = {}): Promise<Buffer | null> {
    const stored = this.store.get(z, x, y);
    if (stored === 'empty') return null;
    if (stored) return stored;
    if (z <= this.completeZoom || options.cutMissing === false) return null;
    const [data] = await this.cutter.cut([[z, x, y]]);
    if (this.store.db.open && this.store.get(z, x, y) === undefined) this.store.put(z, x, y, data ?? null);
    return data ?? null;
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
      let pending: TileCoord[] = [];
      for (let x = 0; x < n; x++) {
        for (let y = 0; y < n; y++) {
          pending.push([z, x, y]);
          if (pending.length >= batch) {
            written += (await this.cutAndStore(pending)).withData;
            pending = [];
            if (this.stopped) return;
          }
        }
      }
      written += (await this.cutAndStore(pending)).withData;
      if (this.stopped) return;
      this.store.setMeta({ nest_complete_zoom: String(z) });
      opts.onZoom?.(z, written);
    }
    // The thread stays for its idle time: after a first start's build the console usually asks for deeper
    // tiles at once, and building the index again would make it wait.
  }

  /**
   * Cuts and stores the given tiles that are not in the file yet, in one transaction (a download job's
   * batch). Answers how many were cut now (the others were stored already).
   */
  async precut(tiles: readonly TileCoord[]): Promise<number> {
    return (await this.cutAndStore(tiles.filter(([z, x, y]) => isTileInRange(z, x, y) && z > this.completeZoom))).cut;
  }

  /** Ends a running build after its current batch. */
  stop(): void {
    this.stopped = true;
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.cutter.close();
    if (this.store.db.open) this.store.close();
  }
}

/** Whether z/x/y name a tile of the pyramid (0 <= z <= max, 0 <= x, y < 2^z). */
export function isTileInRange(z: number, x: number, y: number): boolean {
  if (!Number.isInteger(z) || z < BASEMAP_MIN_ZOOM || z > BASEMAP_MAX_ZOOM) return false;
  const n = 2 ** z;
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n;
}
