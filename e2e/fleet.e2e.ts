import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import { launch, newPage, signIn } from './support/browser.js';
import { until } from './support/wait.js';

/**
 * Live fleet screens against the product with its default simulated fleet (nests SIM-STABLE-01...,
 * single-soldier drones SIM-ALONE-01... flying patrols around Shenzhen).
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

interface MapRow {
  sn: string;
  state: string;
  lat: string;
  lng: string;
}
const mapRows = (page: Page): Promise<MapRow[]> =>
  page.$$eval('[data-testid=map-devices] li', (lis) =>
    lis.map((li) => {
      const el = li as HTMLElement;
      return { sn: el.dataset.sn ?? '', state: el.dataset.state ?? '', lat: el.dataset.lat ?? '', lng: el.dataset.lng ?? '' };
    }),
  );

/**
 * The map's device list, the left list's states of the same devices and its online count, read in one
 * evaluation: one rendered state of the page, so a telemetry frame arriving between two reads cannot make
 * them disagree.
 */
const fleetSnapshot = (page: Page) =>
  page.evaluate(() => {
    const rows = Array.from(document.querySelectorAll<HTMLElement>('[data-testid=map-devices] li')).map((el) => ({
      sn: el.dataset.sn ?? '',
      state: el.dataset.state ?? '',
      lat: el.dataset.lat ?? '',
      lng: el.dataset.lng ?? '',
    }));
    const listed = Object.fromEntries(rows.map((r) => [r.sn, document.querySelector<HTMLElement>(`[data-testid="device-item-${r.sn}"]`)?.dataset.state ?? null]));
    const online = document.querySelector('[data-testid=count-online]')?.textContent ?? null;
    return { rows, listed, online };
  });

describe('data screen fleet map', () => {
  it('shows every simulated device on the map, online, with a marker coloured by state', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/home`);
    await page.getByTestId('fleet-map').waitFor();
    // The demo fleet: at least 3 nests and 2 drones, all online once their first telemetry arrived.
    const { rows, listed, online } = await until('every demo device online on the map', () => fleetSnapshot(page), (f) => f.rows.length >= 5 && f.rows.every((x) => x.state === '1'));
    const sns = rows.map((r) => r.sn);
    expect(sns.some((sn) => sn.startsWith('SIM-STABLE-'))).toBe(true);
    expect(sns.filter((sn) => sn.startsWith('SIM-ALONE-')).length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(Number.isFinite(Number(r.lat)) && Number.isFinite(Number(r.lng))).toBe(true);
    // The list on the left agrees, with its counts (the same rendered state as the map's list).
    expect(listed).toEqual(Object.fromEntries(sns.map((sn) => [sn, '1'])));
    expect(online).toBe(String(rows.length));
    // Drawn markers: each device alone (state attribute, green) or inside a cluster bubble.
    const drawn = await until(
      'markers drawn for every device',
      () =>
        page.evaluate(() => {
          const singles = Array.from(document.querySelectorAll<HTMLElement>('.fleet-marker')).map((m) => ({
            sn: m.dataset.sn,
            state: m.dataset.state,
            color: m.style.getPropertyValue('--marker-color'),
          }));
          const clustered = Array.from(document.querySelectorAll<HTMLElement>('.fleet-cluster')).reduce((n, c) => n + Number(c.dataset.count), 0);
          return { singles, clustered };
        }),
      (d) => d.singles.length + d.clustered >= rows.length,
    );
    for (const m of drawn.singles) {
      expect(m.state).toBe('1');
      expect(m.color).toBe('#2fd08b');
    }
    await page.context().close();
  });

  it('opening a flying drone shows telemetry that changes and a playing video', { timeout: 240_000 }, async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/home`);
    const rows = await until('the demo drones listed', () => mapRows(page), (r) => r.some((x) => x.sn.startsWith('SIM-ALONE-')));
    const sn = rows.find((r) => r.sn.startsWith('SIM-ALONE-'))!.sn;
    await page.getByTestId(`device-item-${sn}`).click();
    const panel = page.getByTestId('device-panel');
    await panel.waitFor();
    await expect(panel.getAttribute('data-sn')).resolves.toBe(sn);

    const readout = (id: string) => page.getByTestId(`readout-${id}`).locator('dd').textContent();
    const first = await until('telemetry in the panel', () => readout('flightTime'), (v) => !!v && /^\d{2}:\d{2}:\d{2}$/.test(v));
    const firstUpdated = await page.getByTestId('telemetry-updated').textContent();
    expect(await readout('homeDistance')).toMatch(/^\d+ m$|^\d+\.\d{2} km$/);
    expect(await readout('hSpeed')).toMatch(/^\d+\.\d m\/s$/);
    expect(await readout('battery')).toMatch(/^\d+%/);
    await until('the readouts to change', async () => [await readout('flightTime'), await page.getByTestId('telemetry-updated').textContent()], ([t, u]) => t !== first && u !== firstUpdated);
    // The patrol moves the drone on the map too.
    const at = (await mapRows(page)).find((r) => r.sn === sn)!;
    await until('the drone to move', async () => (await mapRows(page)).find((r) => r.sn === sn), (r) => !!r && (r.lat !== at.lat || r.lng !== at.lng));

    // Live video: the device starts it on verification; the player retries until it plays.
    const video = page.getByTestId('live-video-video');
    const state = () => video.evaluate((v: HTMLVideoElement) => ({ ready: v.readyState, time: v.currentTime }));
    const playing = await until('the live video to play', state, (s) => s.ready >= 2 && s.time > 0);
    await until('the video time to advance', state, (s) => s.time > playing.time + 0.5);
    await expect(page.getByTestId('live-video').getAttribute('data-status')).resolves.toBe('playing');
    await page.context().close();
  });
});

describe('recordings list', () => {
  it('opens with its filters and pager', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/videoList');
    await page.getByTestId('video-list').waitFor();
    await page.getByTestId('video-filter-camera').waitFor();
    await expect(page.title()).resolves.toMatch(/外置相机录像/);
    await page.context().close();
  });
});
