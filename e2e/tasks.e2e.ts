import { join } from 'node:path';
import Database from 'better-sqlite3';
import { formatDateTime } from '@nest/contracts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Locator, Page } from 'playwright-core';
import { launch, newPage, signIn } from './support/browser.js';
import { WAIT_LIMIT_MS, until } from './support/wait.js';

/**
 * Timed tasks end to end: an administrator plans a once task on a simulated nest in the timed-task
 * screen; the server's scheduler fires it when it is due and the row turns "Sent successfully" (task_state
 * 10) without a reload (push 380); the task is then deleted with a confirmation.
 *
 * The test does not wait for the planned minute: once the row reads "Waiting", the stored due time is moved
 * to now in the product's database, as if the minute had come, and the scheduler's next poll (every 5 s)
 * fires it. That the scheduler fires at the planned minute, and not before, is proven with its injectable
 * clock in the server's tests (apps/server/src/tasks/scheduler.test.ts).
 */
const { baseUrl, dataDir } = sharedProduct();
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
/** A time as the en page's picker shows and reads it: the tables' form without seconds ('27 Nov 2026, 09:15'). */
const pickerText = (d: Date): string => formatDateTime(d.getTime(), 'en', false);

/**
 * Opens an antd select and answers its own list, found through the combobox's aria-controls rather than
 * by which list is visible (another select's list may not be gone yet).
 */
async function openSelect(page: Page, testId: string): Promise<Locator> {
  const select = page.getByTestId(testId);
  await until(`${testId} enabled`, () => select.getAttribute('class'), (c) => !(c ?? '').includes('ant-select-disabled'));
  await select.click();
  const combobox = select.getByRole('combobox');
  const listId = await until(`the list of ${testId} open`, async () => ((await combobox.getAttribute('aria-expanded')) === 'true' ? combobox.getAttribute('aria-controls') : null));
  return page.locator('.ant-select-dropdown', { has: page.locator(`[id="${listId}"]`) });
}

/** What the task dialog shows after a save: closed (saved), the time refused as past, or neither yet. */
const saveOutcome = (page: Page) =>
  page.evaluate(() => {
    const form = document.querySelector('[data-testid=task-form]');
    if (!form) return 'saved';
    const errors = Array.from(form.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent ?? '');
    return errors.some((e) => e.includes('has passed')) ? 'past' : null;
  });

describe('timed task screen', () => {
  it('plans a once task on a simulated nest; the scheduler fires it and its state becomes 10 live', async () => {
    const page = await newPage(browser, { lang: 'en' });
    await signIn(page, baseUrl, admin.account, admin.password, '/nest/taskManage');
    await page.getByTestId('task-table').waitFor();
    await expect(page.getByTestId('task-policy').textContent()).resolves.toContain('not flown');

    // The tasks listed before this one is added (once the list has loaded).
    const taskIds = () => page.$$eval('[data-testid=task-table] [data-testid^=task-state-]', (els) => els.map((e) => (e as HTMLElement).dataset.testid!.slice('task-state-'.length)));
    await until('the task list loaded', () => page.evaluate(() => !document.querySelector('[data-testid=task-table] .ant-spin-spinning')));
    const before = new Set(await taskIds());

    await page.getByTestId('task-add').click();
    await page.getByTestId('task-form').waitFor();
    await (await openSelect(page, 'task-device')).locator('.ant-select-item-option').filter({ hasText: SN }).click();
    // The route select is enabled once the device is chosen; its options are that device's routes, loaded then.
    const route = (await openSelect(page, 'task-route')).locator('.ant-select-item-option').first();
    const routeName = (await route.textContent()) ?? '';
    await route.click();
    // The first whole minute at least 30 s ahead: the picker has minutes, the form refuses a time already
    // past when it is saved, and the row must still be waiting when it is read below. If the form says
    // the time has passed (a slow machine), the next minute is taken.
    let due: Date;
    for (let attempt = 1; ; attempt++) {
      due = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
      await page.getByTestId('task-time').click();
      await page.locator('.ant-picker-input input').fill(pickerText(due));
      await page.keyboard.press('Enter');
      await page.getByTestId('task-save').click();
      const outcome = await until('the task saved or its time refused', () => saveOutcome(page));
      if (outcome === 'saved') break;
      expect(attempt, 'the form keeps refusing the time').toBeLessThan(3);
    }

    // The table reloads after the save: the new task is the row that was not there before.
    const added = await until('the new task in the table', async () => (await taskIds()).filter((id) => !before.has(id)), (ids) => ids.length > 0);
    expect(added).toHaveLength(1);
    const row = page.locator('[data-testid=task-table] tr', { has: page.getByTestId(`task-state-${added[0]}`) });
    await expect(row.locator('[data-testid^=task-state-]').textContent()).resolves.toBe('Waiting');
    const text = await row.textContent();
    for (const shown of [routeName, SN, 'Once']) expect(text).toContain(shown);

    // The planned minute comes: its stored time moves to now (seconds), which the scheduler fires on its next poll.
    const db = new Database(join(dataDir, 'nest.sqlite'));
    try {
      const moved = db.prepare('UPDATE timed_tasks SET task_tms = ? WHERE id = ? AND task_tms = ?').run(Math.floor(Date.now() / 1000), added[0], Math.floor(due.getTime() / 1000));
      expect(moved.changes, 'the saved task holds the planned minute').toBe(1);
    } finally {
      db.close();
    }

    // No reload from here on: the table follows push 380 when the run is recorded.
    await row.locator('[data-testid^=task-state-]', { hasText: 'Sent successfully' }).waitFor({ timeout: WAIT_LIMIT_MS });
    await expect(row.locator('[data-testid^=task-outcome-]').textContent()).resolves.toBe('Sent');

    await row.locator('[data-testid^=task-delete-]').click();
    await page.getByTestId('confirm-ok').click();
    await row.waitFor({ state: 'detached' });
  }, 240_000);
});
