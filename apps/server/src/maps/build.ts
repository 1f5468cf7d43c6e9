/**
 * Builds the offline basemap ahead of time: every tile from z0 to --max-zoom (default 10) into
 * DATA_DIR/tiles/basemap.mbtiles. The server does the first levels on first start and cuts deeper
 * tiles on request; run this to have the whole pyramid in the file (e.g. before copying it to an
 * offline site).
 *
 *   node --import tsx apps/server/src/maps/build.ts [--data-dir DIR] [--max-zoom 10]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BASEMAP_MAX_ZOOM } from './source.js';
import { Basemap, basemapFile } from './basemap.js';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, 'max-zoom': { type: 'string', default: String(BASEMAP_MAX_ZOOM) } },
});
const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? './data');
const maxZoom = Number(values['max-zoom']);
if (!Number.isInteger(maxZoom) || maxZoom < 0 || maxZoom > BASEMAP_MAX_ZOOM) {
  console.error(`--max-zoom must be an integer from 0 to ${BASEMAP_MAX_ZOOM}`);
  process.exit(2);
}
const file = basemapFile(dataDir);
const basemap = new Basemap(file);
const started = Date.now();
console.log(`basemap: ${file}, zoom 0 to ${maxZoom} (complete up to ${basemap.completeZoom})`);
await basemap.build(maxZoom, {
  batch: 2048,
  onZoom: (z, n) => console.log(`  z${z}: ${n} tiles with data (${((Date.now() - started) / 1000).toFixed(1)} s)`),
});
await basemap.close();
console.log('basemap: done');
