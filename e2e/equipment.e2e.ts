import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Device, Page as ListPage } from '@nest/contracts';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';

/**
 * Equipment management (issue 7): an administrator registers a nest whose coordinate is picked on the map,
 * finds it, edits it, disables and re-enables it, and deletes it. The server's answers are read back
 * through the API so the test checks what was stored, not only what the table shows.
 */
const baseUrl = inject('baseUrl');
const admin = inject('admin');

let browser: Browser;
let api: ApiClient;
beforeAll(async () => {
  browser = await launch();
  api = await ApiClient.signIn(baseUrl, admin.account, admin.password);
});
afterAll(async () => {
  await browser?.close();
});

async function stored(sn: string): Promise<Device | undefined> {
  const page = await api.data<ListPage<Device>>('deviceList', { type: 0, search: sn, page: 0, size: 50 });
  return page.list.find((d) => d.sn_id === sn);
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const row = (page: Page, sn: string) => page.getByTestId(`status-${sn}`).locator('xpath=ancestor::tr');

describe('equipment management', () => {
  it('registers a nest with a map-picked coordinate, edits, disables, re-enables and deletes it', { timeout: 240_000 }, async () => {
    const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
    const sn = `E2E-NEST-${stamp}`;
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/equipment`);
    await page.getByTestId('equipment-table').waitFor({ timeout: 30_000 });

    // Saving an empty form is refused on the spot and sends nothing.
    await page.getByTestId('device-add').click();
    await page.getByTestId('device-form').waitFor();
    await page.getByTestId('device-save').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await stored(sn)).toBeUndefined();

    await page.getByTestId('field-sn').fill(sn);
    await page.getByTestId('field-airport-name').fill(`E2E nest ${stamp}`);
    await page.getByTestId('field-uav-name').fill(`E2E drone ${stamp}`);
    await page.getByTestId('field-address').fill('Test field');
    // The airport coordinate: click the map once it is drawn (off centre: the company's other devices are
    // drawn for orientation and their pins take clicks).
    const map = page.getByTestId('equipment-map');
    await until('the map', async () => (await map.getAttribute('data-ready')) === '1', 60_000);
    // A new device's dialog opens ready to pick the airport coordinate.
    const picking = async () => ((await map.getAttribute('class')) ?? '').includes('is-picking');
    if (!(await picking())) await page.getByTestId('pick-airport_point').click();
    await until('picking mode', picking);
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.8);
    await until('the picked coordinate', async () => /-?\d+\.\d+, -?\d+\.\d+/.test((await page.getByTestId('coord-airport_point').textContent()) ?? ''));
    await page.getByTestId('device-save').click();
    await page.getByTestId('device-form').waitFor({ state: 'detached', timeout: 30_000 });

    const added = await stored(sn);
    expect(added).toMatchObject({ sn_id: sn, type: 'stable', airport_name: `E2E nest ${stamp}`, address: 'Test field', enabled: true, state: 2 });
    expect(added!.airport_point).not.toBeNull();
    const search = page.locator('input[data-testid=equipment-search], [data-testid=equipment-search] input').first();
    await search.fill(sn);
    await search.press('Enter');
    await row(page, sn).waitFor({ timeout: 30_000 });
    expect(await row(page, sn).textContent()).toContain('Offline');

    // Edit: the SN is fixed, the description changes.
    await page.getByTestId(`device-edit-${sn}`).click();
    await page.getByTestId('device-form').waitFor();
    expect(await page.getByTestId('field-sn').isDisabled()).toBe(true);
    await page.getByTestId('field-description').fill('Edited by the e2e test');
    await page.getByTestId('device-save').click();
    await page.getByTestId('device-form').waitFor({ state: 'detached', timeout: 30_000 });
    await until('the edit stored', async () => (await stored(sn))?.description === 'Edited by the e2e test');

    // Disable (confirmed), then the row's actions are blocked; enable again.
    await page.getByTestId(`enable-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('disabled', async () => (await stored(sn))?.enabled === false);
    await until('edit blocked', () => page.getByTestId(`device-edit-${sn}`).isDisabled());
    await page.getByTestId(`enable-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('enabled', async () => (await stored(sn))?.enabled === true);

    // Delete (confirmed): gone from the list and from the server's answer.
    await until('delete allowed', async () => !(await page.getByTestId(`device-delete-${sn}`).isDisabled()));
    await page.getByTestId(`device-delete-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('deleted', async () => (await stored(sn)) === undefined);
    await page.getByTestId(`status-${sn}`).waitFor({ state: 'detached', timeout: 30_000 });
    await page.context().close();
  });
});
