import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser } from 'playwright-core';
import { onlineBasemapOrigins } from '@nest/contracts';
import { launch, newPage, signIn } from './support/browser.js';

/**
 * The data screen's map when an online basemap cannot be loaded (its tile servers are refused here, as on a
 * site without internet): the map says so and offers the offline basemap; a city search marks the city.
 */
const { baseUrl } = sharedProduct();
const admin = inject('admin');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(['en', 'zh'] as const)('data screen map (%s)', (lang) => {
  it('says when an online basemap cannot be loaded and switches to the offline one; a found city is marked', { timeout: 120_000 }, async () => {
    const page = await newPage(browser, { lang });
    // Every online tile server is out of reach, whatever this machine's network.
    const origins = onlineBasemapOrigins();
    await page.route((url) => origins.includes(url.origin), (route) => route.abort('internetdisconnected'));
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/home');
    const map = page.getByTestId('fleet-map');
    await map.waitFor();
    await page.getByTestId('basemap-osm').click();
    await expect.poll(() => map.getAttribute('data-basemap')).toBe('osm');

    const notice = page.getByTestId('basemap-notice');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(lang === 'zh' ? '无法加载OSM地图' : 'The OSM map cannot be loaded');
    await page.getByTestId('basemap-use-offline').click();
    await expect.poll(() => map.getAttribute('data-basemap')).toBe('offline');
    await notice.waitFor({ state: 'detached' });

    await page.locator('.fleet-map-search input').fill(lang === 'zh' ? '北京' : 'Beijing');
    await page.locator('.fleet-map-search input').press('Enter');
    const pin = page.getByTestId('city-marker');
    await pin.waitFor();
    expect(await pin.innerText()).toBe(lang === 'zh' ? '北京' : 'Beijing');
    await page.context().close();
  });
});
