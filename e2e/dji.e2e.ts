import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import { startDjiDock, type DjiDock } from '@nest/simulator';
import { launch, newPage, signIn } from './support/browser.js';
import { ApiClient } from './support/api.js';
import { cli } from './support/product.js';
import { until } from './support/wait.js';

/**
 * A DJI dock end to end: registered with the product's CLI while the product runs, played by the
 * independent Dock 2 emulator with the credentials the CLI printed, it comes online in the console, its
 * video plays through the RTMP ingest, it flies a route launched from the device panel exactly as a nest does
 * (the dock gets a kmz it checks, reports progress the console shows, and every event that asks for a reply
 * is acknowledged), its HMS messages become alarms in the alarm center in the UI's language until the dock
 * stops reporting them, and the photos it uploads to the product's S3 ingest are the sortie's results in the
 * gallery.
 */
const { baseUrl, productEnv } = sharedProduct();
const admin = inject('admin');

const DOCK_SN = 'E2E-DOCK2-01';
const DRONE_SN = 'E2E-DOCK2-01-M3D';
const HOME = { lat: 22.5401, lng: 113.9302, height: 40 };
/** An HMS code of DJI's catalogue (dock: wind too strong to fly) and its English text. */
const HMS_CODE = '0x160900BF';
const HMS_TEXT_EN = 'Wind speed too high';
const FLIGHT_LIMIT_MS = 120_000;

const M_LAT = 111_320;
const offset = (east: number, north: number) => ({
  lat: Number((HOME.lat + north / M_LAT).toFixed(7)),
  lng: Number((HOME.lng + east / (M_LAT * Math.cos((HOME.lat * Math.PI) / 180))).toFixed(7)),
});

let browser: Browser;
let dock: DjiDock | undefined;
let api: ApiClient | undefined;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await dock?.stop();
  await browser?.close();
  // The dock leaves the shared product as it found it: the other files expect every listed device online.
  if (api) {
    const client = api;
    const listed = async () => (await client.data<{ list: { id: string; sn_id: string }[] }>('deviceList', { type: 0, search: DOCK_SN, page: 0, size: 50 })).list.find((d) => d.sn_id === DOCK_SN);
    const found = await listed();
    if (found) await client.data('deviceDelete', { id: found.id });
    expect(await listed()).toBeUndefined();
  }
});

const attr = (page: Page, testId: string, name: string) =>
  page.evaluate(([id, n]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute(n!) ?? null, [testId, name] as const);

describe('a DJI dock in the console', () => {
  it('registers with the CLI, comes online, plays its video, flies a console route with acknowledged progress, raises and clears an HMS alarm, and its photos open in the gallery', { timeout: 300_000 }, async () => {
    // 1. Registration while the product runs: the CLI prints the dock's MQTT login once, as one JSON line.
    const printed = cli(productEnv, ['dji-dock-add', '--sn', DOCK_SN, '--drone-sn', DRONE_SN, '--name', 'E2E Dock']).trim().split('\n').at(-1)!;
    const login = JSON.parse(printed) as { mqtt_url: string; username: string; password: string };
    expect(login.mqtt_url).toMatch(/^mqtt:\/\//);

    // A route of the dock: a fence around it and three photo waypoints a few hundred metres out.
    const client = await ApiClient.signIn(baseUrl, admin.account, admin.password);
    api = client;
    const ring = Array.from({ length: 8 }, (_, i) => {
      const a = ((i * 45 + 22.5) * Math.PI) / 180;
      return offset(1_200 * Math.cos(a), 1_200 * Math.sin(a));
    });
    const fence = await client.data<{ id: string }>('fenceAdd', { name: 'E2E DJI fence', max_height: '150', boundary: JSON.stringify(ring), sn_id: DOCK_SN });
    const waypoints = [
      { ...offset(150, 0), height: 60, takephoto: 1 },
      { ...offset(150, 150), height: 60, takephoto: 1 },
      { ...offset(0, 150), height: 60, takephoto: 1 },
    ];
    const route = await client.data<{ id: string }>('missionAdd', {
      name: 'E2E DJI route',
      fence_id: fence.id,
      mission_type: '1',
      auto_speed: '10',
      max_speed: '12',
      default_height: '60',
      return_height: '80',
      finish_action: '20',
      waypoints: JSON.stringify(waypoints),
    });

    // The emulator in this process, logging in with what the CLI printed; events that ask for a reply are counted.
    const emu = await startDjiDock({ ...login, mqttUrl: login.mqtt_url, dockSn: DOCK_SN, droneSn: DRONE_SN, position: HOME, seed: 1919, calm: true, timeScale: 20, liveVideo: {} });
    dock = emu;
    const prepared: { flight_id: string; waypoints: number; photos: number }[] = [];
    const progressSent: string[] = [];
    const progressAcked: string[] = [];
    const ended: { flight_id: string; result: number }[] = [];
    emu.on('prepared', (p) => prepared.push(p));
    emu.on('progress', (p) => progressSent.push(JSON.stringify(p)));
    emu.on('progressAcknowledged', (p) => progressAcked.push(JSON.stringify(p)));
    emu.on('missionEnded', (e) => ended.push(e));
    const liveStarts: { url: string }[] = [];
    emu.on('liveStart', (l) => liveStarts.push({ url: l.url }));
    const replies: { method: string; result: number }[] = [];
    emu.on('reply', (r) => replies.push({ method: r.method, result: r.result }));
    const uploaded: { flight_id: string; result: number }[] = [];
    emu.on('mediaUploaded', (u) => uploaded.push({ flight_id: u.flight_id, result: u.result }));

    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password, `/nest/home?sn=${DOCK_SN}`);
    await page.getByTestId('device-panel').waitFor();
    await until('the dock online in the device list', () => attr(page, `device-item-${DOCK_SN}`, 'data-state'), (v) => !!v && v !== 'offline');
    await until('the dock battery', () => page.getByTestId('readout-battery').locator('dd').textContent(), (v) => !!v && v !== '--');
    await until('the dock position', () => page.getByTestId('readout-altitude').locator('dd').textContent(), (v) => !!v && v !== '--');

    // 2. Take control and launch the route as for a nest.
    await page.getByTestId('control-take').click();
    await page.getByTestId('control-release').waitFor();
    await until('commands enabled', () => attr(page, 'flight-controls', 'data-blocked'), (v) => v === '0');
    await page.getByTestId('act-takeoff').click();
    await page.getByTestId('launch-dialog').waitFor();
    await page.getByTestId('launch-mode-route').click();
    await page.locator('[data-testid=launch-route]').click();
    await page.locator(`.ant-select-dropdown [data-testid=route-option-${route.id}]`).click();
    await until('the checks of the route passed', () => attr(page, 'checks-summary', 'data-ready'), (v) => v === '1');
    await page.getByTestId('launch-confirm').click();
    await page.getByTestId('launch-dialog').waitFor({ state: 'detached' });

    // The dock downloaded the kmz, checked its fingerprint (MD5) and structure, and accepted it.
    await until('the kmz accepted by the dock', () => prepared.length, (n) => n === 1);
    expect(prepared[0]).toMatchObject({ waypoints: 3, photos: 3 });
    expect(replies.filter((r) => r.method === 'flighttask_prepare')).toEqual([{ method: 'flighttask_prepare', result: 0 }]);
    // Progress in the panel, then the flight's end and the sortie.
    await page.getByTestId('mission-progress').waitFor({ timeout: FLIGHT_LIMIT_MS });
    await until('mission progress', () => attr(page, 'mission-progress', 'data-percent'), (v) => Number(v) > 0, FLIGHT_LIMIT_MS);
    // Its video plays while it flies: the panel's player asked for it, the console sent live_start_push with
    // the RTMP ingest's keyed URL, the emulator publishes its test picture there and the ingest's HLS plays.
    const video = page.getByTestId('live-video-video');
    const videoState = () => video.evaluate((v: HTMLVideoElement) => ({ ready: v.readyState, time: v.currentTime }));
    const playing = await until('the dock video to play', videoState, (v) => v.ready >= 2 && v.time > 0);
    await until('the video time to advance', videoState, (v) => v.time > playing.time + 0.5);
    expect(await page.getByTestId('live-video').getAttribute('data-status')).toBe('playing');
    expect(liveStarts[0]?.url).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\/live\//);
    await until('the mission to end on the dock', () => ended.length, (n) => n === 1, FLIGHT_LIMIT_MS);
    expect(ended[0]!.result).toBe(0);
    expect(replies.filter((r) => r.method === 'flighttask_execute')).toEqual([{ method: 'flighttask_execute', result: 0 }]);
    await page.getByTestId('latest-sortie').waitFor({ timeout: FLIGHT_LIMIT_MS });
    // Every flighttask_progress (need_reply) was acknowledged by the console.
    await until('every progress event acknowledged', () => ({ sent: progressSent.length, acked: new Set(progressAcked).size }), (v) => v.sent > 1 && v.acked === new Set(progressSent).size);

    // 3. HMS: the dock reports a message, the alarm center shows it in English; cleared when no longer reported.
    emu.raiseHms(HMS_CODE, { level: 2, module: 3 });
    await page.getByTestId('header-news').click();
    await page.getByTestId('header-news-all').click();
    await page.getByTestId('alarm-center').waitFor();
    const row = page.locator('[data-testid=alarm-row]', { hasText: HMS_TEXT_EN });
    await until('the HMS alarm in the alarm center', () => row.count(), (n) => n > 0);
    await row.first().locator('.alarm-active').waitFor();
    emu.clearHms(HMS_CODE);
    await row.first().locator('.alarm-cleared').waitFor({ timeout: FLIGHT_LIMIT_MS });

    await page.keyboard.press('Escape');
    await page.getByTestId('control-release').click();
    await page.getByTestId('control-take').waitFor();

    // 4. The photos: the dock uploads them to the product's S3 ingest and reports each (file_upload_callback,
    // accepted); they are the sortie's results in the gallery, and one opens at full size.
    await until('the three photos uploaded and accepted', () => uploaded, (u) => u.length === 3, FLIGHT_LIMIT_MS);
    expect(uploaded.every((u) => u.result === 0 && u.flight_id === ended[0]!.flight_id)).toBe(true);
    const sortie = await until(
      'the dock sortie with its three results',
      async () => (await client.data<{ list: { sort_id: string; count: number; end_time: number }[] }>('sortiesList', { sn_id: DOCK_SN, page: 0, size: 5 })).list[0],
      (s) => !!s && s.end_time > 0 && s.count === 3,
    );
    await page.goto(`${baseUrl}/nest/resultsShow?sort_id=${sortie!.sort_id}`);
    const cards = page.locator('[data-testid=results-gallery] [data-testid=result-card]');
    await until('the three photos in the gallery', () => cards.count(), (n) => n === 3);
    await cards.first().click();
    await until(
      'the photo open at full size',
      () => page.evaluate(() => (document.querySelector('[data-testid=result-preview-image]') as HTMLImageElement | null)?.naturalWidth ?? 0),
      (w) => w > 0,
    );
    await page.context().close();
  });
});
