import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import type { Fence, Mission, NoFlyZone, Page as ListPage, Preflight } from '@nest/contracts';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';
import { until } from './support/wait.js';

/**
 * Company no-fly zones, end to end: a zone drawn on the map across a saved demo route turns that route
 * red in the route list with the zone's name and reason, and the nest refuses to take off with it (the
 * pre-flight zone check names the zone). The zone is deleted afterwards, so the other tests fly the demo
 * routes as before.
 */
const { baseUrl } = sharedProduct();
const admin = inject('admin');
/** Simulated nests with demo plans; the first with a demo waypoint route is used (the flight test starts from the other end). */
const NESTS = ['SIM-MINI-01', 'SIM-MOBILE-01', 'SIM-STABLE-01'];

let browser: Browser;
let api: ApiClient;
/** Zones this file made, deleted when it ends. */
const made: string[] = [];

beforeAll(async () => {
  browser = await launch();
  api = await ApiClient.signIn(baseUrl, admin.account, admin.password);
});
afterAll(async () => {
  for (const id of made) await api.data('noFlyDelete', { id });
  await browser?.close();
});

/** A demo waypoint route of a simulated nest, with the nest. */
async function demoRoute(): Promise<{ sn: string; route: Mission }> {
  const fences = await api.data<ListPage<Fence>>('fenceList', { page: 0, size: 1000 });
  for (const sn of NESTS) {
    const fence = fences.list.find((f) => f.sn_id === sn);
    if (!fence) continue;
    const routes = await api.data<ListPage<Mission>>('missionList', { fence_id: fence.id, mission_type: 1, page: 0, size: 50 });
    const route = routes.list.find((m) => m.waypoints.length >= 3);
    if (route) return { sn, route };
  }
  throw new Error(`no simulated nest of ${NESTS.join(', ')} has a demo waypoint route`);
}

const pointCount = (page: Page) => page.locator('[data-testid=plan-points] li').count();

/** The route's row in the route list, found by searching its name. */
async function routeRow(page: Page, route: Mission) {
  const search = page.getByTestId('plan-search').locator('input');
  await search.fill(route.name);
  await search.press('Enter');
  const row = page.locator(`[data-testid=plan-item][data-id="${route.id}"]`);
  await row.waitFor();
  return row;
}

describe('company no-fly zones', () => {
  it('a zone drawn across a saved route turns it red with the reason, and the nest refuses to take off with it', { timeout: 300_000 }, async () => {
    const { sn, route } = await demoRoute();
    const stamp = Date.now().toString(36);
    const name = `Sports day ${stamp}`;
    const reason = 'Crowd on the school field';
    const page = await newPage(browser, { lang: 'en' });
    // The route keeps out of every zone at first.
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/routeplan');
    let row = await routeRow(page, route);
    expect(await row.getAttribute('data-blocked')).toBe('0');

    // "No-fly zone here" opens the zone editor on the route.
    await row.click();
    await page.getByTestId('nofly-here').click();
    await page.locator('[data-testid=edit-work][data-mode=nofly]').waitFor();
    await page.locator(`[data-testid=plan-map][data-ready="1"][data-fitted="${route.id}"]`).waitFor();
    await page.getByTestId('nofly-name').fill(name);
    await page.getByTestId('nofly-reason').fill(reason);

    // A band across the whole map, through the middle of the route: the route, a loop round its nest,
    // crosses it on both sides. Each click must add its corner before the next.
    const box = (await page.getByTestId('plan-map-canvas').boundingBox())!;
    const mid = box.height / 2;
    const canvas = page.getByTestId('plan-map-canvas');
    for (const [x, y] of [[20, mid - 25], [box.width - 20, mid - 25], [box.width - 20, mid + 25], [20, mid + 25]] as const) {
      const before = await pointCount(page);
      await canvas.click({ position: { x, y } });
      await until(`corner ${before + 1} added at (${Math.round(x)}, ${Math.round(y)})`, () => pointCount(page), (n) => n === before + 1);
    }
    // The live check lists the route the zone would block (a warning: the zone can still be saved).
    await page.locator(`[data-testid=nofly-blocked-route][data-name="${route.name}"]`).waitFor();
    await until('save enabled', () => page.getByTestId('save').isEnabled(), (v) => v);
    await page.getByTestId('save').click();

    // Back on the zone tab: the zone is listed, in force.
    const zoneRow = page.locator(`[data-testid=nofly-item][data-name="${name}"]`);
    await zoneRow.waitFor();
    expect(await zoneRow.getAttribute('data-status')).toBe('active');
    const zones = await api.data<ListPage<NoFlyZone>>('noFlyList', { search: name, page: 0, size: 10 });
    made.push(...zones.list.filter((z) => z.name === name).map((z) => z.id));
    expect(made).toHaveLength(1);

    // The route is red in the route list, with the zone's name and reason.
    await page.getByRole('tab', { name: 'Routes' }).click();
    row = await routeRow(page, route);
    await until('the route turned red', () => row.getAttribute('data-blocked'), (v) => v === '1');
    const tag = (await row.getByTestId('route-blocked').textContent()) ?? '';
    expect(tag).toContain(`the no-fly zone "${name}"`);
    expect(tag).toContain(`(reason: ${reason})`);
    await row.click();
    await page.getByTestId('route-conflict').getByText(name, { exact: false }).waitFor();

    // The server's pre-flight checks refuse the route, naming the zone.
    const checks = await api.data<Preflight>('flightCheck', { sn_id: sn, mission_id: route.id });
    const zoneCheck = checks.checks.find((c) => c.item === 'zone');
    expect(zoneCheck?.ok).toBe(false);
    expect(String(zoneCheck?.value)).toContain(name);
    expect(checks.ready).toBe(false);

    // Takeoff from the console: control taken, the route chosen, the zone check fails and names the zone,
    // the takeoff cannot be confirmed.
    await page.goto(`${baseUrl}/nest/home?sn=${sn}`);
    await page.getByTestId('device-panel').waitFor();
    await until('live telemetry', () => page.getByTestId('readout-battery').locator('dd').textContent(), (v) => !!v && v !== '--');
    await page.getByTestId('control-take').click();
    await page.getByTestId('control-release').waitFor();
    await until('commands enabled', () => page.getByTestId('flight-controls').getAttribute('data-blocked'), (v) => v === '0');
    await page.getByTestId('act-takeoff').click();
    await page.getByTestId('launch-dialog').waitFor();
    await page.getByTestId('launch-mode-route').click();
    await page.getByTestId('launch-route').click();
    await page.locator(`.ant-select-dropdown [data-testid="route-option-${route.id}"]`).click();
    const check = page.locator('[data-testid=preflight-list] [data-testid=check-zone]');
    await until('the zone check of the route', () => check.count(), (n) => n === 1);
    await until('the zone check failed', () => check.getAttribute('data-ok'), (v) => v === '0');
    expect(await check.textContent()).toContain(name);
    expect(await page.getByTestId('launch-confirm').isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('launch-dialog').waitFor({ state: 'detached' });
    await page.getByTestId('control-release').click();
    await page.getByTestId('control-take').waitFor();
    await page.context().close();
  });
});
