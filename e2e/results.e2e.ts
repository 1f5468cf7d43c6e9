import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Page as ListPage, ResultItem, Sortie } from '@nest/contracts';
import { ApiClient } from './support/api.js';
import { launch, newPage, signIn } from './support/browser.js';

/**
 * After a simulated mission (issue 6): its results appear in the gallery and a photo opens; the replay
 * plays and the aircraft moves; the data screen's figures are the database's; deleting the sortie's
 * results removes the rows and their files, and the data screen follows live.
 *
 * The mission is a timed task fired by the real scheduler (unless an earlier spec already left a finished
 * sortie with photos), so the test does not depend on the order the spec files run in.
 */
const baseUrl = inject('baseUrl');
const dataDir = inject('dataDir');
const admin = inject('admin');
const NESTS = ['SIM-STABLE-01', 'SIM-MOBILE-01', 'SIM-MINI-01'];

let browser: Browser;
let api: ApiClient;
beforeAll(async () => {
  browser = await launch();
  api = await ApiClient.signIn(baseUrl, admin.account, admin.password);
});
afterAll(async () => {
  await browser?.close();
});

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, everyMs));
    last = await read();
  }
  return last;
}

const attr = (page: Page, selector: string, name: string) =>
  page.evaluate(([sel, n]) => document.querySelector(sel!)?.getAttribute(n!) ?? null, [selector, name] as const);

const finishedWithPhotos = (list: Sortie[]) => list.find((s) => s.end_time > 0 && s.count > 0);

/** A finished sortie with results: an existing one, or one flown now by a timed task. */
async function finishedSortie(): Promise<Sortie> {
  const existing = finishedWithPhotos((await api.data<ListPage<Sortie>>('sortiesList', { page: 0, size: 50 })).list);
  if (existing) return existing;
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
    if (!check.ready) continue;
    await api.data('taskAdd', { mission_id: route.id, sn_id: candidate, task_tms: Math.floor(Date.now() / 1000) + 2, interval: 0 });
    sn = candidate;
    break;
  }
  expect(sn, 'a simulated nest passes its pre-flight checks').not.toBe('');
  const done = await until(
    'the timed mission to land with results',
    async () => (await api.data<ListPage<Sortie>>('sortiesList', { sn_id: sn, page: 0, size: 5 })).list,
    (list) => !!finishedWithPhotos(list),
    540_000,
    2_000,
  );
  const sortie = finishedWithPhotos(done)!;
  // Uploads may still be arriving after the landing: wait until the count settles.
  let count = -1;
  await until(
    'the sortie results to settle',
    async () => {
      const now = (await api.data<ListPage<ResultItem>>('resultList', { sort_id: sortie.sort_id, page: 0, size: 1000 })).total;
      const settled = now === count;
      count = now;
      return settled;
    },
    (v) => v,
    60_000,
    3_000,
  );
  return sortie;
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

const kpi = async (page: Page, name: string) => Number(await attr(page, `[data-testid="kpi-${name}"]`, 'data-value'));

describe('results, replay and the data screen after a mission', () => {
  it('shows the results, opens a photo, replays the flight, matches the database and deletes the results with their files', { timeout: 900_000 }, async () => {
    const sortie = await finishedSortie();
    const results = (await api.data<ListPage<ResultItem>>('resultList', { sort_id: sortie.sort_id, page: 0, size: 1000 })).list;
    expect(results.length).toBeGreaterThan(0);

    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);

    // Gallery of the sortie: every result is there; a photo opens at full size.
    await page.goto(`${baseUrl}/nest/resultsShow?sort_id=${sortie.sort_id}`);
    await until('the sortie results in the gallery', () => page.locator('[data-testid=result-card]').count(), (n) => n === results.length, 30_000);
    const photo = results.find((r) => r.type === 10)!;
    expect(photo, 'the sortie took photos').toBeTruthy();
    await page.locator(`[data-testid=result-card][data-id="${photo.id}"]`).click();
    await page.getByTestId('result-preview').waitFor();
    await until(
      'the full photo to load',
      () => page.evaluate(() => (document.querySelector('[data-testid=result-preview-image]') as HTMLImageElement | null)?.naturalWidth ?? 0),
      (w) => w > 0,
    );
    await page.keyboard.press('Escape');

    // Replay: playing moves the aircraft along the track.
    await page.goto(`${baseUrl}/nest/routeReplay?sort_id=${sortie.sort_id}`);
    await page.getByTestId('replay-aircraft').waitFor({ timeout: 30_000 });
    const at = async () => ({
      lat: Number(await attr(page, '[data-testid=replay-aircraft]', 'data-lat')),
      lng: Number(await attr(page, '[data-testid=replay-aircraft]', 'data-lng')),
    });
    const before = await at();
    expect(Number.isFinite(before.lat) && before.lat !== 0).toBe(true);
    const clockBefore = await page.getByTestId('replay-clock').textContent();
    await page.getByTestId('replay-play').click();
    await until(
      'the aircraft to move',
      at,
      (p) => Math.abs(p.lat - before.lat) > 1e-6 || Math.abs(p.lng - before.lng) > 1e-6,
      20_000,
    );
    await until('the clock to run', () => page.getByTestId('replay-clock').textContent(), (c) => c !== clockBefore, 10_000);
    expect(await page.locator('[data-testid=replay-photo]').count()).toBeGreaterThan(0);

    // The data screen shows the database's figures.
    await page.goto(`${baseUrl}/nest/home`);
    await page.getByTestId('kpi-results-total').waitFor({ timeout: 30_000 });
    const figures = databaseFigures();
    await until('the data screen figures', async () => ({ s: await kpi(page, 'sorties-total'), r: await kpi(page, 'results-total') }), (v) => v.s === figures.sortiesTotal && v.r === figures.resultsTotal);
    expect(await kpi(page, 'devices-total')).toBe(figures.devicesTotal);
    // The single-soldier drones patrol on their own: a flight ending between the two reads moves both
    // figures, so they are read together until the screen has caught up.
    await until(
      'the data screen distance',
      async () => Math.abs((await kpi(page, 'distance-total')) - databaseFigures().distanceTotal),
      (gap) => gap < 1,
      30_000,
    );

    // Deleting the sortie's results from the sortie list removes rows and files; the data screen follows.
    const files = results.flatMap((r) => [r.url, r.thumb_url]).filter(Boolean).map((u) => join(dataDir, u.replace(/^\/media\//, 'media/')));
    expect(files.every((f) => existsSync(f))).toBe(true);
    const page2 = await page.context().newPage();
    await page2.goto(`${baseUrl}/nest/achievementAdmin`);
    const row = page2.locator(`[data-testid=sortie-row][data-id="${sortie.sort_id}"]`);
    await row.waitFor({ timeout: 30_000 });
    await row.getByTestId('sortie-delete-results').click();
    await page2.getByTestId('confirm-ok').click();
    await until(
      'the results to be deleted',
      async () => (await api.data<ListPage<ResultItem>>('resultList', { sort_id: sortie.sort_id, page: 0, size: 1 })).total,
      (n) => n === 0,
    );
    await until('the files to be removed', async () => files.filter((f) => existsSync(f)).length, (n) => n === 0);
    const after = databaseFigures();
    expect(after.resultsTotal).toBe(figures.resultsTotal - results.length);
    await until('the data screen to follow', () => kpi(page, 'results-total'), (n) => n === after.resultsTotal, 30_000);
    await page.context().close();
  });
});
