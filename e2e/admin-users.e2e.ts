import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sharedProduct } from './support/shared.js';
import type { Browser, Page } from 'playwright-core';
import { launch, newPage, signIn } from './support/browser.js';

const { baseUrl } = sharedProduct();
const admin = inject('admin');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const rowOf = (page: Page, testId: string) => page.getByTestId(testId).locator('xpath=ancestor::tr');

describe('users, departments and functions', () => {
  it('an administrator makes a department and a limited user; the user sees only what the functions allow, and loses a function at once', async () => {
    const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
    const dept = `Patrol ${stamp}`;
    const account = `13700${stamp}`;
    const password = 'Limited#e2e-1';

    const adminPage = await newPage(browser, { lang: 'en' });
    // A department, through the department screen.
    await signIn(adminPage, baseUrl, admin.account, admin.password, '/nest/teamManage');
    await adminPage.getByTestId('team-add').click();
    await adminPage.getByTestId('team-name').fill(dept);
    await adminPage.getByTestId('team-submit').click();
    await adminPage.getByTestId(`team-row-${dept}`).waitFor();

    // A user in it with the data screen and the (read-only) department screen.
    await adminPage.goto(`${baseUrl}/nest/userManage`);
    await adminPage.getByTestId('user-add').click();
    await adminPage.getByTestId('user-nick').fill(`Patroller ${stamp}`);
    await adminPage.getByTestId('user-account').fill(account);
    await adminPage.getByTestId('user-password').fill(password);
    await adminPage.getByTestId('user-team').click();
    await adminPage.locator('.ant-select-tree-title', { hasText: dept }).first().click();
    await adminPage.getByText('Functions (0)').click();
    for (const fun of ['menu_home', 'menu_system', 'menu_teamManage', 'team_list']) await adminPage.getByTestId(`fun-node-${fun}`).click();
    await adminPage.getByText('Functions (4)').waitFor();
    await expect(adminPage.getByText('Functions (4)').count()).resolves.toBe(1);
    await adminPage.getByTestId('user-submit').click();
    await adminPage.getByTestId(`user-row-${account}`).waitFor();
    await expect(rowOf(adminPage, `user-row-${account}`).getByText(dept).count()).resolves.toBe(1);

    // The user signs in: the data screen and System > Departments, nothing else; no editing buttons.
    const userPage = await newPage(browser, { lang: 'en' });
    await signIn(userPage, baseUrl, account, password);
    await expect(userPage.getByTestId('nav-home').count()).resolves.toBe(1);
    await expect(userPage.getByTestId('nav-system').count()).resolves.toBe(1);
    for (const name of ['routeplan', 'totalResultList', 'equipment', 'teachingVideos']) {
      await expect(userPage.getByTestId(`nav-${name}`).count()).resolves.toBe(0);
    }
    await userPage.goto(`${baseUrl}/nest/teamManage`);
    await rowOf(userPage, `team-row-${dept}`).waitFor();
    await expect(rowOf(userPage, `team-row-${dept}`).locator('td').nth(2).textContent()).resolves.toBe('1');
    await expect(userPage.getByTestId('team-add').count()).resolves.toBe(0);
    await expect(userPage.getByTestId('team-delete').count()).resolves.toBe(0);
    await userPage.goto(`${baseUrl}/nest/userManage`);
    await userPage.getByTestId('app-header').waitFor();
    await userPage.getByTestId('not-found-page').waitFor();
    await expect(userPage.getByTestId('user-manage').count()).resolves.toBe(0);

    // The administrator takes team_list away: the user's next request is refused, without signing in again.
    await rowOf(adminPage, `user-row-${account}`).getByTestId('user-edit').click();
    await adminPage.getByText('Functions (4)').click();
    await adminPage.getByTestId('fun-node-team_list').click();
    await adminPage.getByTestId('user-submit').click();
    await adminPage.getByTestId('user-dialog').waitFor({ state: 'detached' });
    await userPage.goto(`${baseUrl}/nest/teamManage`);
    await userPage.getByTestId('team-manage').waitFor();
    await userPage.getByText('No permission to access').first().waitFor();
    await expect(userPage.getByTestId(`team-row-${dept}`).count()).resolves.toBe(0);

    await userPage.context().close();
    await adminPage.context().close();
  });
});
