import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { WAIT_LIMIT_MS } from './wait.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export async function launch(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('Chromium not found: install Debian chromium or set CHROMIUM_PATH');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Contexts not closed yet: a test that fails leaves its own open (it closes them as its last step). */
export const openContexts = new Set<BrowserContext>();

/**
 * A fresh browser context (own storage and cookies) and page. It asks for reduced motion, as a user's system
 * setting can: the console then opens dialogs and menus without antd's zoom, so a click never lands on a
 * dialog still growing in (a loaded CI machine missed a confirmation and a theme choice that way).
 * Playwright's waits (locator actions, waitFor, navigations) get the same safety limit as `until`: they end
 * as soon as their state is there, and a busy machine only makes them slower.
 */
export async function newPage(browser: Browser, opts: { lang?: 'zh' | 'en' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(WAIT_LIMIT_MS);
  context.setDefaultNavigationTimeout(WAIT_LIMIT_MS);
  context.on('close', () => openContexts.delete(context));
  openContexts.add(context);
  if (opts.lang) {
    await context.addInitScript((lang) => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', lang);
    }, opts.lang);
  }
  return context.newPage();
}

/**
 * Signs in on the sign-in screen and waits for the console's header. With `path` (such as `/nest/equipment`)
 * the browser asks for that screen first, as a user following a link: the guard sends it to sign-in and the
 * console then opens the screen in place, without drawing the data screen first and loading the whole app
 * again for the next address. Without it the console opens the data screen.
 */
export async function signIn(page: Page, baseUrl: string, account: string, password: string, path = '/nest/'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('app-header').waitFor();
}

/**
 * Opens a hover popover (or dropdown) and clicks one of its entries. A busy page (the data screen's map
 * starting) can miss the pointer entering the trigger; then the pointer leaves and enters again. Each try
 * waits twice as long as the one before for the entry to show, so a page that is only slow is not
 * interrupted over and over while it opens the popover.
 */
export async function choosePopoverItem(page: Page, trigger: string, item: string, limitMs = WAIT_LIMIT_MS): Promise<void> {
  const entry = page.getByTestId(item);
  const deadline = Date.now() + limitMs;
  for (let wait = 2_000; ; wait *= 2) {
    await page.mouse.move(1, 1);
    await page.getByTestId(trigger).hover();
    try {
      await entry.waitFor({ state: 'visible', timeout: Math.max(1, Math.min(wait, deadline - Date.now())) });
      break;
    } catch (err) {
      if (Date.now() >= deadline) throw err;
    }
  }
  // Playwright clicks only once the entry is visible, steady and the topmost element at its centre.
  await entry.click();
}
