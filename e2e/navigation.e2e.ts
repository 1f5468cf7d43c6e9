import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import { choosePopoverItem, launch, newPage, signIn } from './support/browser.js';

const { baseUrl } = sharedProduct();
const admin = inject('admin');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const TITLES = {
  zh: { dataAnalyse: '数据分析', videoList: '外置相机录像', failed: '页面加载失败', chunk: '控制台可能已经更新', reload: '重新加载' },
  en: {
    dataAnalyse: 'Data analysis',
    videoList: 'Outside camera recordings',
    failed: 'This page could not be loaded',
    chunk: 'The console may have been updated',
    reload: 'Reload',
  },
} as const;

const chooseAchievement = (page: Page, entry: 'dataAnalyse' | 'videoList') => choosePopoverItem(page, 'nav-totalResultList', `nav-${entry}`);

/** The Achievements popover's entry texts (hovering again when a busy page missed the pointer). */
async function achievementTexts(page: Page): Promise<string[]> {
  for (let wait = 2_000; ; wait *= 2) {
    await page.mouse.move(1, 1);
    await page.getByTestId('nav-totalResultList').hover();
    try {
      await page.getByTestId('nav-videoList').waitFor({ state: 'visible', timeout: wait });
      break;
    } catch (err) {
      if (wait > 30_000) throw err;
    }
  }
  return page.locator('.nav-popover-list [role=menuitem]').allTextContents();
}

/**
 * Sends the browser's request for a screen's chunk to a file name no build has: the product itself answers
 * (a page left open across an upgrade asks for exactly such a file).
 */
async function breakChunk(page: Page, chunk: string): Promise<() => Promise<void>> {
  const pattern = new RegExp(`/nest/assets/${chunk}-[^/]+\\.js$`);
  await page.route(pattern, (route) => route.continue({ url: route.request().url().replace(`${chunk}-`, `${chunk}-gone-`) }));
  return () => page.unroute(pattern);
}

describe('menu navigation', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`takes the super administrator to data analysis and the recordings from the menu (${lang})`, async () => {
      const page = await newPage(browser, { lang });
      await signIn(page, baseUrl, admin.account, admin.password);
      const texts = await achievementTexts(page);
      expect(texts).toEqual(expect.arrayContaining([TITLES[lang].dataAnalyse, TITLES[lang].videoList]));

      await chooseAchievement(page, 'dataAnalyse');
      await page.getByTestId('analysis-screen').waitFor();
      expect(new URL(page.url()).pathname).toBe('/nest/dataAnalyse');
      // A full-screen page: no header.
      await expect(page.getByTestId('app-header').count()).resolves.toBe(0);

      await page.goBack();
      await page.getByTestId('app-header').waitFor();
      await chooseAchievement(page, 'videoList');
      await page.getByTestId('video-list').waitFor();
      expect(new URL(page.url()).pathname).toBe('/nest/videoList');
      await page.waitForFunction((title) => document.title.endsWith(title), TITLES[lang].videoList);
      // The entry's parent is highlighted while its screen is open.
      await expect(page.getByTestId('nav-totalResultList').getAttribute('class')).resolves.toContain('is-active');
      await page.context().close();
    });
  }
});

describe('a screen whose code is missing (a page open across an upgrade)', () => {
  it('the product answers a missing chunk with a real 404, not the app page', async () => {
    const res = await fetch(`${baseUrl}/nest/assets/VideoListPage-gone-0000.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).not.toContain('<div id="root">');
  });

  it('shows a message with a reload button inside the shell, and the reload brings the screen (en)', async () => {
    const page = await newPage(browser, { lang: 'en' });
    // Signed in on a light screen: the data screen's map has no part in a missing chunk.
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/taskManage');
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404 && r.url().includes('/nest/assets/')) missing.push(r.url());
    });
    const restore = await breakChunk(page, 'VideoListPage');
    await chooseAchievement(page, 'videoList');
    const box = page.getByTestId('load-failed');
    await box.waitFor();
    await expect(box.textContent()).resolves.toContain(TITLES.en.failed);
    await expect(box.textContent()).resolves.toContain(TITLES.en.chunk);
    expect(missing.some((u) => u.includes('VideoListPage-gone-'))).toBe(true);
    // The header stays usable around the message.
    await expect(page.getByTestId('app-header').isVisible()).resolves.toBe(true);
    const reload = page.getByTestId('load-failed-reload');
    await expect(reload.textContent()).resolves.toBe(TITLES.en.reload);

    await restore();
    await reload.click();
    await page.getByTestId('video-list').waitFor();
    await expect(box.count()).resolves.toBe(0);
    await page.context().close();
  });

  it('shows the message on a full-screen page too, and another screen still opens (zh)', async () => {
    const page = await newPage(browser, { lang: 'zh' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/taskManage');
    await breakChunk(page, 'DataAnalysePage');
    await page.goto(`${baseUrl}/nest/dataAnalyse`);
    const box = page.getByTestId('load-failed');
    await box.waitFor();
    await expect(box.textContent()).resolves.toContain(TITLES.zh.failed);
    await expect(box.textContent()).resolves.toContain(TITLES.zh.chunk);
    await expect(page.getByTestId('load-failed-reload').textContent()).resolves.toBe(TITLES.zh.reload);
    await page.goto(`${baseUrl}/nest/videoList`);
    await page.getByTestId('video-list').waitFor();
    await page.context().close();
  });
});
