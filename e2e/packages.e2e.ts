import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser } from 'playwright-core';
import { pngTile, tilesOver, writeMbtiles } from '../apps/server/src/maps/packages/fixtures.js';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';
import { until } from './support/wait.js';

/**
 * An offline map package end to end: a raster MBTiles uploaded on the offline-map screen, chosen as the
 * basemap there, then the data screen's map asks for its tiles (200, through the signed URLs of its style)
 * and draws them (the package's colour appears on the map).
 */
const { baseUrl } = sharedProduct();
const admin = inject('admin');

/** A colour no basemap, marker or panel of the console uses. */
const MAGENTA: [number, number, number] = [255, 0, 255];
/** Around the simulated fleet (Shenzhen), where the data screen opens. */
const BOX = { west: 113.7, south: 22.3, east: 114.4, north: 22.8 };

let browser: Browser;
let work: string;
let file: string;
beforeAll(async () => {
  browser = await launch();
  work = await mkdtemp(path.join(tmpdir(), 'nest-e2e-package-'));
  file = path.join(work, 'survey.mbtiles');
  const tile = pngTile(MAGENTA);
  writeMbtiles(file, { name: 'survey', format: 'png', minzoom: '5', maxzoom: '12', bounds: `${BOX.west},${BOX.south},${BOX.east},${BOX.north}` }, tilesOver(BOX, 5, 12, () => tile));
});
afterAll(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

/** Pixels of the package's colour in a PNG screenshot. */
function magentaPixels(png: Buffer): number {
  const img = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) if (img.data[i]! > 240 && img.data[i + 1]! < 20 && img.data[i + 2]! > 240) n++;
  return n;
}

describe('offline map packages', () => {
  it('an uploaded raster package becomes the basemap: its tiles are requested (200) and drawn on the data screen', { timeout: 120_000 }, async () => {
    const page = await newPage(browser, { lang: 'en' });
    const name = `e2e survey ${Date.now()}`;
    let id = '';
    try {
      await signIn(page, baseUrl, admin.account, admin.password, '/nest/outLineMap');
      await page.getByTestId('package-upload').click();
      await page.locator('[data-testid="package-form"] input[type=file]').setInputFiles({ name: 'survey.mbtiles', mimeType: 'application/octet-stream', buffer: await readFile(file) });
      await page.getByTestId('package-chosen').waitFor();
      await page.getByTestId('package-name').fill(name);
      await page.getByTestId('package-send').click();

      const row = page.getByTestId('package-list').locator('tr', { hasText: name });
      const use = row.locator('[data-testid^="package-use-"]');
      await use.waitFor();
      id = (await use.getAttribute('data-testid'))!.replace('package-use-', '');
      expect(await row.innerText()).toContain('5 - 12');
      await use.click();
      await page.getByTestId(`package-in-use-${id}`).waitFor();

      const tile = page.waitForResponse((r) => r.url().includes(`/api/zone/tiles/packages/${id}/`) && r.status() === 200);
      await page.goto(`${baseUrl}/nest/home`);
      const map = page.getByTestId('fleet-map');
      await until('the data screen map on the package', () => map.getAttribute('data-basemap'), (v) => v === `package:${id}`);
      const response = await tile;
      expect(response.headers()['content-type']).toBe('image/png');
      // A piece of the map's middle, clear of its tools and legends, is enough to see the package drawn.
      const box = (await map.boundingBox())!;
      const clip = { x: box.x + box.width / 2 - 150, y: box.y + box.height / 2 - 100, width: 300, height: 200 };
      await until('the package drawn on the map', async () => magentaPixels(await page.screenshot({ clip })), (n) => n > 20_000);
    } finally {
      if (id) await (await ApiClient.signIn(baseUrl, admin.account, admin.password)).data('mapPackageDelete', { id });
      await page.context().close();
    }
  });
});
