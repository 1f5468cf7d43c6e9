import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import { ResultCode, type Page as ListPage, type ResultItem, type Sortie } from '@nest/contracts';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';
import { until } from './support/wait.js';

/**
 * After a simulated mission: its results appear in the gallery and a photo opens; the replay
 * plays and the aircraft moves; the data screen's figures are the database's; deleting the sortie's
 * results removes the rows and their files, and the data screen follows live.
 *
 * The mission is a timed task fired by the real scheduler (unless an earlier spec already left a finished
 * sortie with photos), so the test does not depend on the order the spec files run in. The drone may still
 * be uploading photos of the sortie after it landed, and the single-soldier patrols keep adding sorties and
 * distance: every comparison reads both of its sides again until they agree, and the deletion is checked
 * by the results it deleted, not by totals a late upload would move.
 */
const { baseUrl, dataDir } = sharedProduct();
const admin = inject('admin');
const NESTS = ['SIM-STABLE-01', 'SIM-MOBILE-01', 'SIM-MINI-01'];
/** The safety limit of a wait for a whole simulated flight: scheduled, flown, landed, uploaded. */
const FLIGHT_LIMIT_MS = 540_000;

let browser: Browser;
let api: ApiClient;
beforeAll(async () => {
  browser = await launch();
  api = await ApiClient.signIn(baseUrl, admin.account, admin.password);
});
afterAll(async () => {
  await browser?.close();
});

const attr = (page: Page, selector: string, name: string) =>
  page.evaluate(([sel, n]) => document.querySelector(sel!)?.getAttribute(n!) ?? null, [selector, name] as const);

/** Results on one page of the gallery (GalleryPage's GALLERY_PAGE_SIZE): more go to its next pages. */
const GALLERY_PAGE = 48;

/** A landed sortie with results (flight.e2e's, when it ran first on this product: its route takes more than a page of photos). */
const finishedWithPhotos = (list: Sortie[]) => list.find((s) => s.end_time > 0 && s.count > 0);

const sortieResults = async (sortId: string) => (await api.data<ListPage<ResultItem>>('resultList', { sort_id: sortId, page: 0, size: 1000 })).list;

/** A finished sortie with results: an existing one, or one flown now by a timed task on a waypoint route. */
async function finishedSortie(): Promise<Sortie> {
  // Looked up per nest: the patrols' sorties (other devices) keep coming and would crowd a company-wide page.
  for (const sn of NESTS) {
    const existing = finishedWithPhotos((await api.data<ListPage<Sortie>>('sortiesList', { sn_id: sn, page: 0, size: 50 })).list);
    if (existing) return existing;
  }
  const routes = (await api.data<ListPage<{ id: string; sn_id: string; mission_type: number }>>('missionList', { page: 0, size: 200 })).list;
  let sn = '';
  for (const candidate of NESTS) {
    const route = routes.find((r) => r.sn_id === candidate && r.mission_type === 1);
    if (!route) continue;
    const check = await until(
      `pre-flight checks of ${candidate}`,
      () => api.data<{ ready: boolean; checks: { item: string; ok: boolean }[] }>('flightCheck', { sn_id: candidate, mission_id: route.id }),
      (c) => c.checks.length > 0,
    );
    // A timed task flies it, not this user: only the device's own checks matter (not who holds control).
    if (!check.checks.every((c) => c.ok || c.item === 'control')) continue;
    await api.data('taskAdd', { mission_id: route.id, sn_id: candidate, task_tms: Math.floor(Date.now() / 1000) + 2, interval: 0 });
    sn = candidate;
    break;
  }
  expect(sn, 'a simulated nest passes its pre-flight checks').not.toBe('');
  const done = await until(
    'the timed mission to land with results',
    async () => (await api.data<ListPage<Sortie>>('sortiesList', { sn_id: sn, page: 0, size: 5 })).list,
    (list) => !!finishedWithPhotos(list),
    FLIGHT_LIMIT_MS,
  );
  return finishedWithPhotos(done)!;
}

/** The figures the data screen must show, straight from the database file. */
function databaseFigures() {
  const db = new Database(join(dataDir, 'nest.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const one = (q: string) => Number(Object.values(db.prepare(q).get() as Record<string, unknown>)[0] ?? 0);
    return {
      sortiesTotal: one('select count(*) from sorties where state = 10'),
      resultsTotal: one('select count(*) from results where state = 10'),
      distanceTotal: one('select coalesce(sum(distance), 0) from sorties where state = 10'),
      devicesTotal: one('select count(*) from devices where state = 10'),
    };
  } finally {
    db.close();
  }
}

/** Ids of the live results in the database that are not the sortie's. */
function otherResultIds(sortId: string): string[] {
  const db = new Database(join(dataDir, 'nest.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('select id from results where state = 10 and (sort_id is null or sort_id != ?)').all(sortId) as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

const kpi = async (page: Page, name: string) => Number(await attr(page, `[data-testid="kpi-${name}"]`, 'data-value'));

/** The data screen's figures and the database's, read one right after the other. */
async function screenAndDatabase(page: Page) {
  const screen = {
    sortiesTotal: await kpi(page, 'sorties-total'),
    resultsTotal: await kpi(page, 'results-total'),
    distanceTotal: await kpi(page, 'distance-total'),
    devicesTotal: await kpi(page, 'devices-total'),
  };
  return { screen, database: databaseFigures() };
}

/** The ids of the gallery's cards once its list has loaded (none when it says it is empty), else null. */
const galleryCards = (page: Page) =>
  page.evaluate(() => {
    const gallery = document.querySelector('[data-testid=results-gallery]');
    if (gallery?.querySelector('[data-testid=results-empty]')) return [];
    if (!gallery || !gallery.querySelector('[data-testid=result-grid]') || gallery.querySelector('.ant-spin-spinning')) return null;
    return Array.from(gallery.querySelectorAll<HTMLElement>('[data-testid=result-card]')).map((c) => c.dataset.id ?? '');
  });

describe('results, replay and the data screen after a mission', () => {
  it('shows the results, opens a photo, replays the flight, matches the database and deletes the results with their files', { timeout: 900_000 }, async () => {
    const sortie = await finishedSortie();

    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);

    // Gallery of the sortie: its first page holds the sortie's results and nothing else, a full page when
    // there are more, and its total counts them all; a photo opens at full size. The gallery shows the
    // results as they were when it loaded; when the server has more by then (an upload that finished after
    // the landing), the gallery is opened again.
    const shown = await until(
      'the gallery to show the results the server has for the sortie',
      async () => {
        await page.goto(`${baseUrl}/nest/resultsShow?sort_id=${sortie.sort_id}`);
        const cards = await until('the gallery to load', () => galleryCards(page));
        const total = Number(await attr(page, '[data-testid=results-total]', 'data-value'));
        const stored = (await sortieResults(sortie.sort_id)).map((r) => r.id);
        return { cards, total, stored };
      },
      (v) =>
        v.cards.length === Math.min(v.stored.length, GALLERY_PAGE) &&
        v.cards.length > 0 &&
        v.cards.every((id) => v.stored.includes(id)) &&
        v.total === v.stored.length,
      FLIGHT_LIMIT_MS,
    );
    const results = await sortieResults(sortie.sort_id);
    const photo = results.find((r) => r.type === 10 && shown.cards.includes(r.id))!;
    expect(photo, 'the sortie took photos').toBeTruthy();
    await page.locator(`[data-testid=result-card][data-id="${photo.id}"]`).click();
    await page.getByTestId('result-preview').waitFor();
    await until(
      'the full photo to load',
      () => page.evaluate(() => (document.querySelector('[data-testid=result-preview-image]') as HTMLImageElement | null)?.naturalWidth ?? 0),
      (w) => w > 0,
    );
    await page.keyboard.press('Escape');
    // The photo is served through the signed path the list gave, never through its stored path.
    expect((await fetch(baseUrl + photo.url)).status).toBe(200);
    const plain = await fetch(baseUrl + photo.url.replace(/^\/media\/s\/[^/]+\//, '/media/'));
    expect(plain.status).toBe(401);
    expect(((await plain.json()) as { code: number }).code).toBe(ResultCode.NO_PERMISSION);

    // Replay: playing moves the aircraft along the track.
    await page.goto(`${baseUrl}/nest/routeReplay?sort_id=${sortie.sort_id}`);
    await page.getByTestId('replay-aircraft').waitFor();
    const at = async () => ({
      lat: Number(await attr(page, '[data-testid=replay-aircraft]', 'data-lat')),
      lng: Number(await attr(page, '[data-testid=replay-aircraft]', 'data-lng')),
    });
    const before = await at();
    expect(Number.isFinite(before.lat) && before.lat !== 0).toBe(true);
    const clockBefore = await page.getByTestId('replay-clock').textContent();
    // One duration: the header's is the timeline's end, and the sortie's recorded takeoff-to-landing time.
    const header = (await page.getByTestId('replay-duration').textContent()) ?? '';
    expect(clockBefore?.split(' / ')[1]).toBe(header);
    expect(Number(await attr(page, '[data-testid=replay-clock]', 'data-total'))).toBe((sortie.end_time - sortie.start_time) * 1000);
    await page.getByTestId('replay-play').click();
    await until('the aircraft to move', at, (p) => Math.abs(p.lat - before.lat) > 1e-6 || Math.abs(p.lng - before.lng) > 1e-6);
    await until('the clock to run', () => page.getByTestId('replay-clock').textContent(), (c) => c !== clockBefore);
    await until('the sortie photos on the replay', () => page.locator('[data-testid=replay-photo]').count(), (n) => n > 0);

    // The data screen shows the database's figures. The single-soldier drones patrol on their own: a
    // patrol starting or ending between two reads moves the sorties and the distance, so the screen and
    // the database are read together until they agree.
    await page.goto(`${baseUrl}/nest/home`);
    await page.getByTestId('kpi-results-total').waitFor();
    await until('the data screen figures to be the database\'s', () => screenAndDatabase(page), ({ screen, database }) =>
      screen.sortiesTotal === database.sortiesTotal &&
      screen.resultsTotal === database.resultsTotal &&
      screen.devicesTotal === database.devicesTotal &&
      Math.abs(screen.distanceTotal - database.distanceTotal) < 1,
    );

    // Deleting the sortie's results from the sortie list removes rows and files, and nothing else; the data
    // screen follows.
    // The listed URLs are signed paths, /media/s/<exp>.<sig>/<rel>: the file is DATA_DIR/media/<rel>.
    const files = results.flatMap((r) => [r.url, r.thumb_url]).filter(Boolean).map((u) => join(dataDir, u.replace(/^\/media\/s\/[^/]+\//, 'media/')));
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => existsSync(f))).toBe(true);
    const page2 = await page.context().newPage();
    // The sortie list filtered to the sortie's nest: the patrols' sorties (other devices) keep coming and
    // would otherwise push it off the first page.
    await page2.goto(`${baseUrl}/nest/achievementAdmin?sn_id=${encodeURIComponent(sortie.sn_id)}&size=100`);
    const row = page2.locator(`[data-testid=sortie-row][data-id="${sortie.sort_id}"]`);
    await row.getByTestId('sortie-delete-results').click();
    const others = otherResultIds(sortie.sort_id);
    await page2.getByTestId('confirm-ok').click();
    const deleted = new Set(results.map((r) => r.id));
    await until('the results to be deleted', async () => (await sortieResults(sortie.sort_id)).filter((r) => deleted.has(r.id)).length, (n) => n === 0);
    await until('the files to be removed', async () => files.filter((f) => existsSync(f)), (left) => left.length === 0);
    const othersAfter = new Set(otherResultIds(sortie.sort_id));
    expect(others.filter((id) => !othersAfter.has(id)), 'results of other sorties deleted').toEqual([]);
    await until('the data screen to follow', async () => ({ screen: await kpi(page, 'results-total'), database: databaseFigures().resultsTotal }), (v) => v.screen === v.database);
    await page.context().close();
  });
});
