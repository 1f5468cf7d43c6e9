import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, newPage, signIn } from './support/browser.js';

/**
 * Timed tasks end to end (issue 7): an administrator plans a once task on a simulated nest in the timed-task
 * screen; the server's scheduler fires it at its minute and the row turns "Sent successfully" (task_state
 * 10) without a reload (push 380); the task is then deleted with a confirmation.
 */
const baseUrl = inject('baseUrl');
const admin = inject('admin');
const SN = 'SIM-MINI-01';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Local "YYYY-MM-DD HH:mm" (the picker's format; browser and test share the machine's time zone). */
const pickerText = (d: Date): string => {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

describe('timed task screen', () => {
  it('plans a once task on a simulated nest; the scheduler fires it and its state becomes 10 live', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password);
    await page.goto(`${baseUrl}/nest/taskManage`);
    await page.getByTestId('task-table').waitFor();
    await expect(page.getByTestId('task-policy').textContent()).resolves.toContain('not flown');

    await page.getByTestId('task-add').click();
    await page.getByTestId('task-form').waitFor();
    await page.getByTestId('task-device').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: SN }).click();
    // The device list closes (animated) while the device's routes load.
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached', timeout: 5_000 }).catch(() => undefined);
    await page.waitForTimeout(800);
    await page.getByTestId('task-route').click();
    const route = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
    await route.waitFor();
    const routeName = (await route.textContent()) ?? '';
    await route.click();
    // The first whole minute at least 70 s ahead (the form refuses past times; the picker has minutes).
    const due = new Date(Math.ceil((Date.now() + 70_000) / 60_000) * 60_000);
    await page.getByTestId('task-time').click();
    await page.locator('.ant-picker-input input').fill(pickerText(due));
    await page.keyboard.press('Enter');
    await page.getByTestId('task-save').click();
    await page.getByTestId('task-form').waitFor({ state: 'detached' });

    const row = page.locator('[data-testid=task-table] tr', { hasText: routeName }).filter({ hasText: SN });
    await expect(row.locator('[data-testid^=task-state-]').textContent()).resolves.toBe('Waiting');
    await expect(row.textContent()).resolves.toContain('Once');

    // No reload from here on: the table follows push 380 when the run is recorded.
    await row.locator('[data-testid^=task-state-]', { hasText: 'Sent successfully' }).waitFor({ timeout: due.getTime() - Date.now() + 60_000 });
    await expect(row.locator('[data-testid^=task-outcome-]').textContent()).resolves.toBe('Sent');

    await row.locator('[data-testid^=task-delete-]').click();
    await page.getByTestId('confirm-ok').click();
    await row.waitFor({ state: 'detached' });
  }, 240_000);
});
