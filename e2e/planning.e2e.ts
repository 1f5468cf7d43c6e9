import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { exportPlanFile, importPlanFile, type PlanDocument } from '@nest/formats';
import { choosePopoverItem, launch, newPage, signIn } from './support/browser.js';
import { until } from './support/wait.js';

/** Flight planning: draw a fence, draw a survey inside it, see the estimate, save, find it in the list. */
const { baseUrl } = sharedProduct();
const admin = inject('admin');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The centre of the planning map, once the map has drawn its style and layers (it takes clicks then). */
async function mapCentre(page: Page): Promise<{ x: number; y: number }> {
  await page.locator('[data-testid=plan-map][data-ready="1"]').waitFor();
  const box = (await page.getByTestId('plan-map-canvas').boundingBox())!;
  return { x: box.width / 2, y: box.height / 2 };
}

/** The import's refusal shown above the list, read as it is now (null: none). */
const importError = (page: Page) => page.evaluate(() => document.querySelector('[data-testid=import-error]')?.textContent ?? null);

const pointCount = (page: Page) => page.locator('[data-testid=plan-points] li').count();

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

/**
 * Adds points by clicking the map around its centre, one at a time: after each click the point list must
 * grow by one before the next, so every point is known to be taken, in order, and a click the map did not
 * take fails at that click. Locator clicks: Playwright clicks once nothing (a closing dropdown) covers the
 * spot.
 */
async function clickPoints(page: Page, c: { x: number; y: number }, offsets: [number, number][]): Promise<void> {
  const canvas = page.getByTestId('plan-map-canvas');
  for (const [dx, dy] of offsets) {
    const before = await pointCount(page);
    await canvas.click({ position: { x: c.x + dx, y: c.y + dy } });
    await until(`point ${before + 1} added at (${dx}, ${dy}) from the map centre`, () => pointCount(page), (n) => n === before + 1);
  }
}

describe('flight planning', () => {
  const stamp = Date.now().toString(36);
  it('draws a fence and a survey inside it, shows the estimate, saves both', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/editWork?mode=fence');
    // A new fence opens on its device's nest: the fence is drawn around it, so its survey is within a battery.
    await page.locator('[data-testid=plan-map][data-fitted^="nest-"]').waitFor();
    let c = await mapCentre(page);
    await clickPoints(page, c, [[-200, -150], [200, -150], [200, 150], [-200, 150]]);
    await expect(pointCount(page)).resolves.toBe(4);
    await page.getByTestId('fence-name').fill(`Fence ${stamp}`);
    // The "saved" toast covers neither the header's navigation nor any control of the screen it lands on.
    // Watched from before the save, frame by frame in the page (the editor and the list are one page): the
    // toast's place is taken at its first frame with a size, and the controls under that place once the list
    // screen is drawn (the toast stands at the top of the window whatever the screen). The toast lasts three
    // seconds; reads from the test, one after another, could miss it on a busy machine.
    await page.evaluate(() => {
      let toast: DOMRect | null = null;
      const frame = () => {
        const rect = document.querySelector('.ant-message-notice')?.getBoundingClientRect();
        if (!toast && rect && rect.width * rect.height > 0) toast = rect;
        if (!toast || !document.querySelector('[data-testid=new-survey]')) {
          requestAnimationFrame(frame);
          return;
        }
        const t = toast;
        const hit = (r: DOMRect) => r.width > 0 && r.height > 0 && r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
        const controls = Array.from(document.querySelectorAll<HTMLElement>('[data-testid=app-header], button, input, a, [role=tab], .ant-select'))
          .filter((e) => !e.closest('.ant-message') && hit(e.getBoundingClientRect()));
        (window as unknown as { toastCheck: unknown }).toastCheck = {
          toast: t.width * t.height,
          controls: controls.map((e) => e.dataset.testid ?? e.textContent?.trim() ?? e.tagName),
        };
      };
      requestAnimationFrame(frame);
    });
    await page.getByTestId('save').click();
    await page.getByTestId('routeplan').waitFor();
    const covered = (await (await page.waitForFunction(() => (window as unknown as { toastCheck?: unknown }).toastCheck)).jsonValue()) as {
      toast: number;
      controls: string[];
    };
    expect(covered.toast).toBeGreaterThan(0);
    expect(covered.controls).toEqual([]);

    await page.getByTestId('new-survey').click();
    await page.getByTestId('edit-work').waitFor();
    await page.getByTestId('route-name').fill(`Survey ${stamp}`);
    await page.getByTestId('route-fence').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: `Fence ${stamp}` }).click();
    // The survey's points are taken once the fence is chosen (the editor then draws it and fits the map to it).
    await page.getByTestId('route-fence').getByText(`Fence ${stamp}`, { exact: true }).waitFor();
    c = await mapCentre(page);
    // A click outside the fence (the map is fitted to it, with a margin) adds nothing and says why.
    await page.getByTestId('plan-map-canvas').click({ position: { x: 20, y: c.y } });
    await page.getByTestId('outside-fence').getByText(`outside the fence "Fence ${stamp}"`, { exact: false }).waitFor();
    await expect(pointCount(page)).resolves.toBe(0);
    await clickPoints(page, c, [[-60, -40], [60, -40], [60, 40], [-60, 40]]);
    await expect(page.getByTestId('est-photos').textContent()).resolves.toMatch(/^\d+$/);
    // An out-of-range value is not changed into an accepted one: it is an issue naming the range, and the
    // route cannot be saved until it is corrected.
    const height = page.getByTestId('survey-height');
    const heightBefore = await height.inputValue();
    await height.fill('0');
    await height.blur();
    await page.getByTestId('issues').getByText('Default height must be 10 to', { exact: false }).waitFor();
    expect(await page.getByTestId('save').isDisabled()).toBe(true);
    await height.fill(heightBefore);
    await height.blur();
    await until('the range issue to go', () => page.getByTestId('issues').getByText('Default height must be', { exact: false }).count(), (n) => n === 0);
    await until('the estimate of the corrected survey', () => page.getByTestId('est-time').textContent(), (v) => /^(?!00:00$)\d{2,}:\d{2}$/.test(v ?? ''));
    const editorEstimate = (await page.getByTestId('est-time').textContent()) ?? '';
    expect(editorEstimate).toMatch(/^(?!00:00$)\d{2,}:\d{2}$/);
    await expect(page.getByTestId('save').isEnabled()).resolves.toBe(true);
    await page.getByTestId('save').click();
    // Saving returns to the list, which is loaded from the server as it opens: the survey is stored.
    await page.getByTestId('routeplan').waitFor();
    const listed = page.locator(`[data-testid=plan-item][data-name="Survey ${stamp}"]`);
    await listed.waitFor();
    // One estimate: the list shows the server's stored figure, the editor computed its own; they are the same.
    expect(await listed.locator('.routeplan-item-meta').textContent()).toMatch(new RegExp(`· ${editorEstimate}$`));
    await page.context().close();
  });

  it('exports the survey as KML, re-imports it, and the route comes back unchanged', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/routeplan');
    const survey = page.locator(`[data-testid=plan-item][data-name="Survey ${stamp}"]`).first();
    await survey.click();
    const exported = await exportKml(page);
    const original = routeOf(exported);
    expect(original.waypoints.length).toBeGreaterThan(3);

    const renamed = new TextDecoder().decode(exported).split(`Survey ${stamp}`).join(`Reimport ${stamp}`);
    await importFile(page, `reimport-${stamp}.kml`, new TextEncoder().encode(renamed));
    const reimported = page.locator(`[data-testid=plan-item][data-name="Reimport ${stamp}"]`).first();
    // Whichever comes first: the imported route in the list, or the import's refusal (which fails the test).
    await page.locator(`[data-testid=plan-item][data-name="Reimport ${stamp}"], [data-testid=import-error]`).first().waitFor();
    expect(await importError(page), 'the import refused').toBeNull();
    await reimported.waitFor();
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
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/routeplan');
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
    await until('the import refused', () => importError(page), (t) => /outside the fence/.test(t ?? ''));
    await expect(page.locator(`[data-testid=plan-item][data-name="Outside ${stamp}"]`).count()).resolves.toBe(0);
    await expect(page.getByTestId('plan-item').count()).resolves.toBe(before);
    await page.context().close();
  });
});
