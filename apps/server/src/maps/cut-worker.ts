import { parentPort } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { BasemapCutter } from './source.js';

/**
 * The basemap's tile cutting off the main thread (see cutter-thread.ts): the index is built when the thread
 * starts (1-2 s, about 23 MB) and answers batches of tiles, each the gzip'd PBF or null for an empty tile.
 */
const cutter = new BasemapCutter();

parentPort?.on('message', (m: { id: number; tiles: [number, number, number][] }) => {
  try {
    const tiles = m.tiles.map(([z, x, y]) => {
      const pbf = cutter.tile(z, x, y);
      if (!pbf) return null;
      // An exact copy, moved to the main thread (a Buffer may be a view of a larger one).
      const gz = gzipSync(pbf, { level: 6 });
      const copy = new Uint8Array(gz.byteLength);
      copy.set(gz);
      return copy;
    });
    parentPort?.postMessage({ id: m.id, tiles }, tiles.flatMap((t) => (t ? [t.buffer] : [])));
  } catch (err) {
    parentPort?.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) });
  }
});
