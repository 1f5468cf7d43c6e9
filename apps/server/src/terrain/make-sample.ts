/**
 * Writes the bundled sample elevation tiles (Mapbox Terrain-RGB PNG, 256 px) under
 * apps/server/terrain-sample/{z}/{x}/{y}.png: the 2 x 2 tiles of zoom SAMPLE_ZOOM around the simulated
 * fleet (about 18 km square), heights from sampleHeight (sample.ts) at each pixel centre.
 *
 *   node --import tsx apps/server/src/terrain/make-sample.ts [--out DIR]
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_TILE_SIZE, encodeTerrainRgb, tileForPoint } from '@nest/geo';
import { PNG } from 'pngjs';
import { SAMPLE_CENTER, SAMPLE_ZOOM, sampleHeight } from './sample.js';
import { SAMPLE_TILES_DIR } from './tiles.js';

/** Latitude / longitude of a whole-world pixel position at zoom z. */
function pixelToLatLng(x: number, y: number, z: number, tileSize = DEFAULT_TILE_SIZE): { lat: number; lng: number } {
  const size = tileSize * 2 ** z;
  const lng = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return { lat, lng };
}

/** The tiles of the sample: the 2 x 2 block whose centre is nearest the fleet centre. */
export function sampleTiles(): { z: number; x: number; y: number }[] {
  const t = tileForPoint(SAMPLE_CENTER.lat, SAMPLE_CENTER.lng, SAMPLE_ZOOM);
  const x0 = t.px < DEFAULT_TILE_SIZE / 2 ? t.x - 1 : t.x;
  const y0 = t.py < DEFAULT_TILE_SIZE / 2 ? t.y - 1 : t.y;
  return [0, 1].flatMap((dy) => [0, 1].map((dx) => ({ z: SAMPLE_ZOOM, x: x0 + dx, y: y0 + dy })));
}

/** One tile as PNG bytes. */
export function renderTile(z: number, x: number, y: number, size = DEFAULT_TILE_SIZE): Buffer {
  const png = new PNG({ width: size, height: size, colorType: 6 });
  for (let j = 0; j < size; j++) {
    for (let i = 0; i < size; i++) {
      const p = pixelToLatLng(x * size + i + 0.5, y * size + j + 0.5, z, size);
      const [r, g, b] = encodeTerrainRgb(sampleHeight(p.lat, p.lng));
      const k = (j * size + i) * 4;
      png.data[k] = r;
      png.data[k + 1] = g;
      png.data[k + 2] = b;
      png.data[k + 3] = 255;
    }
  }
  return PNG.sync.write(png, { colorType: 2 });
}

async function main(argv: string[]): Promise<void> {
  const i = argv.indexOf('--out');
  const out = i >= 0 && argv[i + 1] ? path.resolve(argv[i + 1]!) : SAMPLE_TILES_DIR;
  for (const t of sampleTiles()) {
    const dir = path.join(out, String(t.z), String(t.x));
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${t.y}.png`);
    await writeFile(file, renderTile(t.z, t.x, t.y));
    process.stdout.write(`${file}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exitCode = 1;
  });
}
