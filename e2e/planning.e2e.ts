import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { exportPlanFile, importPlanFile, type PlanDocument } from '@nest/formats';
import { choosePopoverItem, launch, newPage, signIn } from './support/browser.js';

/** Flight planning: draw a fence, draw a survey inside it, see the estimate, save, find it in the list. */
const baseUrl = inject('baseUrl');
const admin = inject('admin');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function mapCentre(page: Page): Promise<{ x: number; y: number }> {
  await page.waitForSelector('[data-testid=plan-map][data-ready="1"]', { timeout: 30_000 });
  const box = (await page.getByTestId('plan-map-canvas').boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Downloads what the routeplan toolbar exports for the selected item. */
async function exportKml(page: Page): Promise<Uint8Array> {
  const [download] = await Promise.all([page.waitForEvent('download'), choosePopoverItem(page, 'export', 'export-kml')]);
  return new Uint8Array(readFileSync((await download.path())!));
}

async function importFile(page: Page, name: string, bytes: Uint8Array): Promise<void> {
  await page.getByTestId('import-file').setInputFiles({ name, mimeType: 'application/vnd.google-earth.kml+xml', buffer: Buffer.from(bytes) });
}

function routeOf(bytes: Uint8Array) {
  const r = importPlanFile('x.kml', bytes);
  if (!r.ok) throw new Error(r.error.en);
  const route = r.doc.routes[0];
  if (!route) throw new Error('no route in the exported file');
  return route;
}

async function clickPoints(page: Page, c: { x: number; y: number }, offsets: [number, number][]): Promise<void> {
  for (const [dx, dy] of offsets) {
    await page.mouse.click(c.x + dx, c.y + dy);
    await page.waitForTimeout(150);
  }
}

describe('flight planning', () => {
  const stamp = Date.now().toString(36);
  it('draws a fence and a survey inside it, shows the estimate, saves both', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/editWork?mode=fence`);
    let c = await mapCentre(page);
    await clickPoints(page, c, [[-200, -150], [200, -150], [200, 150], [-200, 150]]);
    await expect(page.$$eval('[data-testid=plan-points] li', (l) => l.length)).resolves.toBe(4);
    await page.getByTestId('fence-name').fill(`Fence ${stamp}`);
    await page.getByTestId('save').click();
    await page.getByTestId('routeplan').waitFor();

    await page.getByTestId('new-survey').click();
    await page.getByTestId('edit-work').waitFor();
    await page.getByTestId('route-name').fill(`Survey ${stamp}`);
    await page.getByTestId('route-fence').click();
    await page.getByText(`Fence ${stamp}`, { exact: true }).last().click();
    c = await mapCentre(page);
    await page.waitForTimeout(500);
    await clickPoints(page, c, [[-60, -40], [60, -40], [60, 40], [-60, 40]]);
    await expect(page.getByTestId('est-photos').textContent()).resolves.toMatch(/^\d+$/);
    await expect(page.getByTestId('est-time').textContent()).resolves.toMatch(/^(?!00:00$)\d{2,}:\d{2}$/);
    await expect(page.getByTestId('save').isEnabled()).resolves.toBe(true);
    await page.getByTestId('save').click();
    await page.getByTestId('routeplan').waitFor();
    await page.reload();
    await page.locator(`[data-testid=plan-item][data-name="Survey ${stamp}"]`).waitFor({ timeout: 15_000 });
  });

  it('exports the survey as KML, re-imports it, and the route comes back unchanged', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/routeplan`);
    const survey = page.locator(`[data-testid=plan-item][data-name="Survey ${stamp}"]`).first();
    await survey.click();
    const exported = await exportKml(page);
    const original = routeOf(exported);
    expect(original.waypoints.length).toBeGreaterThan(3);

    const renamed = new TextDecoder().decode(exported).split(`Survey ${stamp}`).join(`Reimport ${stamp}`);
    await importFile(page, `reimport-${stamp}.kml`, new TextEncoder().encode(renamed));
    const reimported = page.locator(`[data-testid=plan-item][data-name="Reimport ${stamp}"]`).first();
    await Promise.race([reimported.waitFor({ timeout: 15_000 }), page.getByTestId('import-error').waitFor({ timeout: 15_000 })]);
    expect(await page.getByTestId('import-error').count(), (await page.getByTestId('import-error').textContent().catch(() => '')) ?? '').toBe(0);
    await reimported.waitFor({ timeout: 15_000 });
    await reimported.click();
    const again = routeOf(await exportKml(page));
    expect(again.waypoints).toHaveLength(original.waypoints.length);
    again.waypoints.forEach((w, i) => {
      const o = original.waypoints[i]!;
      expect(Math.abs(w.lat - o.lat)).toBeLessThan(1e-7);
      expect(Math.abs(w.lng - o.lng)).toBeLessThan(1e-7);
      expect(w.height).toBe(o.height);
    });
    await page.context().close();
  });

  it('refuses to import a route outside its fence and says why', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/routeplan`);
    await page.locator(`[data-testid=plan-item][data-name="Survey ${stamp}"]`).first().click();
    const before = await page.getByTestId('plan-item').count();
    const far: PlanDocument = {
      fences: [],
      surveys: [],
      routes: [{ name: `Outside ${stamp}`, mission_type: 1, height_type: 0, waypoints: [
        { lat: 23.2, lng: 113.2, height: 80 },
        { lat: 23.201, lng: 113.201, height: 80 },
      ] }],
    };
    const file = exportPlanFile(far, 'kml');
    if (!file.ok) throw new Error(file.error.en);
    await importFile(page, 'outside.kml', file.bytes);
    await expect.poll(() => page.getByTestId('import-error').textContent()).toMatch(/outside the fence/);
    await expect(page.locator(`[data-testid=plan-item][data-name="Outside ${stamp}"]`).count()).resolves.toBe(0);
    await expect(page.getByTestId('plan-item').count()).resolves.toBe(before);
    await page.context().close();
  });
});
