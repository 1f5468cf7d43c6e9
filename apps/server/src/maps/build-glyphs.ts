/**
 * Writes the glyph PBFs of the offline basemap into apps/server/dist/glyphs/v{GLYPHS_VERSION} (see
 * glyphs.ts). Run by scripts/build-server.mjs; skipped when that version is complete already.
 *
 *   node --import tsx apps/server/src/maps/build-glyphs.ts [--force]
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_DIR, buildGlyphs } from './glyphs.js';

const marker = path.join(BUILT_DIR, 'complete');
if (existsSync(marker) && !process.argv.includes('--force')) {
  console.log(`glyphs: ${path.relative(process.cwd(), BUILT_DIR)} is complete`);
} else {
  const started = Date.now();
  rmSync(BUILT_DIR, { recursive: true, force: true });
  const { ranges, glyphs, bytes } = buildGlyphs(BUILT_DIR);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  console.log(`glyphs: ${glyphs} glyphs in ${ranges} ranges, ${(bytes / 1024).toFixed(0)} KiB, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
