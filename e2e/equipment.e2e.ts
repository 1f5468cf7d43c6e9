import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import type { Device, Page as ListPage } from '@nest/contracts';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';
import { until } from './support/wait.js';

/**
 * Equipment management: an administrator registers a nest whose coordinate is picked on the map,
 * finds it, edits it, disables and re-enables it, and deletes it. The server's answers are read back
 * through the API so the test checks what was stored, not only what the table shows.
 */
const { baseUrl } = sharedProduct();
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

const row = (page: Page, sn: string) => page.getByTestId(`status-${sn}`).locator('xpath=ancestor::tr');

describe('equipment management', () => {
  it('registers a nest with a map-picked coordinate, edits, disables, re-enables and deletes it', { timeout: 240_000 }, async () => {
    const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
    const sn = `E2E-NEST-${stamp}`;
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/equipment');
    await page.getByTestId('equipment-table').waitFor();

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
    await page.locator('[data-testid=equipment-map][data-ready="1"]').waitFor();
    // A new device's dialog opens ready to pick the airport coordinate.
    const picking = async () => ((await map.getAttribute('class')) ?? '').includes('is-picking');
    if (!(await picking())) await page.getByTestId('pick-airport_point').click();
    await until('picking mode', picking);
    // A locator click: Playwright clicks once the map is steady and nothing covers that point.
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.2, y: box.height * 0.8 } });
    await until('the picked coordinate', () => page.getByTestId('coord-airport_point').textContent(), (v) => /-?\d+\.\d+, -?\d+\.\d+/.test(v ?? ''));
    await page.getByTestId('device-save').click();
    await page.getByTestId('device-form').waitFor({ state: 'detached' });

    const added = await stored(sn);
    expect(added).toMatchObject({ sn_id: sn, type: 'stable', airport_name: `E2E nest ${stamp}`, address: 'Test field', enabled: true, state: 2 });
    expect(added!.airport_point).not.toBeNull();
    const search = page.locator('input[data-testid=equipment-search], [data-testid=equipment-search] input').first();
    await search.fill(sn);
    await search.press('Enter');
    await row(page, sn).waitFor();
    expect(await row(page, sn).textContent()).toContain('Offline');

    // Edit: the SN is fixed, the description changes.
    await page.getByTestId(`device-edit-${sn}`).click();
    await page.getByTestId('device-form').waitFor();
    expect(await page.getByTestId('field-sn').isDisabled()).toBe(true);
    await page.getByTestId('field-description').fill('Edited by the e2e test');
    await page.getByTestId('device-save').click();
    await page.getByTestId('device-form').waitFor({ state: 'detached' });
    await until('the edit stored', async () => (await stored(sn))?.description, (d) => d === 'Edited by the e2e test');

    // Disable (confirmed), then the row's actions are blocked; enable again.
    await page.getByTestId(`enable-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('the device stored disabled', async () => (await stored(sn))?.enabled, (e) => e === false);
    await until('the edit button disabled', () => page.getByTestId(`device-edit-${sn}`).isDisabled());
    await page.getByTestId(`enable-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('the device stored enabled', async () => (await stored(sn))?.enabled, (e) => e === true);

    // Delete (confirmed): gone from the list and from the server's answer.
    await until('the delete button enabled', () => page.getByTestId(`device-delete-${sn}`).isEnabled());
    await page.getByTestId(`device-delete-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('the device gone from the server', () => stored(sn), (d) => d === undefined);
    await page.getByTestId(`status-${sn}`).waitFor({ state: 'detached' });
    await page.context().close();
  });
  it('registers a DJI dock, reads its credentials once, issues new ones and deletes it', { timeout: 240_000 }, async () => {
    const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
    const sn = `E2E-DOCK-${stamp}`;
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/equipment');
    await page.getByTestId('equipment-table').waitFor();

    await page.getByTestId('device-add').click();
    await page.getByTestId('device-form').waitFor();
    await page.getByTestId('field-protocol').click();
    await page.locator('.ant-select-item-option[title="DJI Cloud API"]').click();
    await page.getByText("Docked drone's SN").waitFor();
    await page.getByTestId('field-sn').fill(sn);
    await page.getByTestId('field-airport-name').fill(`E2E dock ${stamp}`);
    await page.getByTestId('field-uav-name').fill(`E2E M3D ${stamp}`);
    await page.getByTestId('field-uav-model').locator('input').or(page.locator('input[data-testid=field-uav-model]')).first().fill('M3D');
    const map = page.getByTestId('equipment-map');
    await page.locator('[data-testid=equipment-map][data-ready="1"]').waitFor();
    const picking = async () => ((await map.getAttribute('class')) ?? '').includes('is-picking');
    if (!(await picking())) await page.getByTestId('pick-airport_point').click();
    await until('picking mode', picking);
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await until('the picked coordinate', () => page.getByTestId('coord-airport_point').textContent(), (v) => /-?\d+\.\d+, -?\d+\.\d+/.test(v ?? ''));
    // The docked drone's SN is required for a DJI dock: nothing is sent without it.
    await page.getByTestId('device-save').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await stored(sn)).toBeUndefined();
    await page.getByTestId('field-uav-sn').fill(`${sn}-M3D`);
    await page.getByTestId('device-save').click();

    // The credentials, shown once after adding.
    await page.getByTestId('dji-credentials').waitFor();
    expect(await page.getByTestId('dji-username').textContent()).toContain(sn);
    expect(await page.getByTestId('dji-mqtt-url').textContent()).toMatch(/(tcp|mqtt|ssl|mqtts):\/\//);
    const first = (await page.getByTestId('dji-password').textContent()) ?? '';
    expect(first.length).toBeGreaterThan(8);
    await page.getByTestId('dji-credentials-close').click();
    await page.getByTestId('dji-credentials').waitFor({ state: 'detached' });
    expect(await stored(sn)).toMatchObject({ sn_id: sn, protocol: 2, uav_sn: `${sn}-M3D`, uav_model: 'M3D' });

    const search = page.locator('input[data-testid=equipment-search], [data-testid=equipment-search] input').first();
    await search.fill(sn);
    await search.press('Enter');
    await row(page, sn).waitFor();
    expect(await page.getByTestId(`protocol-${sn}`).textContent()).toBe('DJI Cloud API');

    // New credentials (confirmed): a different password, shown the same way.
    await page.getByTestId(`device-credentials-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('dji-credentials').waitFor();
    const second = (await page.getByTestId('dji-password').textContent()) ?? '';
    expect(second.length).toBeGreaterThan(8);
    expect(second).not.toBe(first);
    await page.getByTestId('dji-credentials-close').click();

    await until('the delete button enabled', () => page.getByTestId(`device-delete-${sn}`).isEnabled());
    await page.getByTestId(`device-delete-${sn}`).click();
    await page.getByTestId('confirm-ok').click();
    await until('the device gone from the server', () => stored(sn), (d) => d === undefined);
    await page.context().close();
  });
});
