import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, newPage, signIn } from './support/browser.js';

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
    await expect(page.getByTestId('est-time').textContent()).resolves.toMatch(/^\d{2,}:\d{2}$/);
    await expect(page.getByTestId('save').isEnabled()).resolves.toBe(true);
    await page.getByTestId('save').click();
    await page.getByTestId('routeplan').waitFor();
    await page.reload();
    await page.locator(`[data-testid=plan-item][data-name="Survey ${stamp}"]`).waitFor({ timeout: 15_000 });
  });
});
