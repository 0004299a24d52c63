import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type RunningServer, shot, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
let server: RunningServer;
let browser: Browser;

withProduct((s, b) => {
  server = s;
  browser = b;
});

async function signedIn(email: string, options: { width?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${server.origin('demo')}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { context, page };
}

const box = (page: Page, right: string, module: string) => page.getByRole('checkbox', { name: `${right}: ${module}`, exact: true });

describe('roles', () => {
  it('an admin creates a role with the matrix, sees it listed, and deletes it after confirming', async () => {
    const { context, page } = await signedIn('admin@demo.test');
    await page.goto(`${server.origin('demo')}/roles`);
    const table = page.getByRole('table', { name: 'Roles' });
    await table.getByRole('row', { name: /Administrator/ }).waitFor();
    await expect.poll(() => table.getByRole('row', { name: /Administrator/ }).textContent()).toContain('System');
    await shot(page, 'roles-01-list');

    await page.getByRole('button', { name: 'New role' }).click();
    await page.getByLabel(/^Role name/).fill('Shift lead!');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByText('Use letters, digits, spaces and hyphens only.').waitFor();
    await page.getByLabel(/^Role name/).fill('Shift lead');
    await page.getByLabel(/^Power user role/).check();

    // Row select-all, column select-all, and a single right that brings view with it.
    await page.getByRole('checkbox', { name: 'All rights for Observations' }).check();
    await page.getByRole('checkbox', { name: 'Approve in every module' }).check();
    await box(page, 'Add', 'Sites').check();
    expect(await box(page, 'View', 'Sites').isChecked()).toBe(true);
    expect(await box(page, 'Approve', 'Permits').isChecked()).toBe(true);
    expect(await box(page, 'View', 'Permits').isChecked()).toBe(true);
    // Workflow columns have no box on other modules.
    expect(await box(page, 'Approve', 'Sites').count()).toBe(0);
    // Keyboard: Space toggles the focused box; turning view off takes the module's other rights.
    await box(page, 'View', 'Sites').focus();
    await page.keyboard.press('Space');
    expect(await box(page, 'Add', 'Sites').isChecked()).toBe(false);
    await box(page, 'Add', 'Sites').focus();
    await page.keyboard.press('Space');
    await shot(page, 'roles-02-editor');

    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByText('The role was created.').waitFor();
    await page.getByRole('heading', { name: 'Edit role: Shift lead' }).waitFor();
    // What is shown now is what the server stored.
    expect(await box(page, 'Close', 'Observations').isChecked()).toBe(true);
    expect(await box(page, 'Approve', 'Audits').isChecked()).toBe(true);
    expect(await box(page, 'Add', 'Sites').isChecked()).toBe(true);
    expect(await box(page, 'Edit', 'Sites').isChecked()).toBe(false);

    await page.getByRole('button', { name: 'Back' }).click();
    const row = table.getByRole('row', { name: /Shift lead/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Power user');

    await row.getByRole('button', { name: 'Delete Shift lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this role?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row.waitFor();
    await row.getByRole('button', { name: 'Delete Shift lead' }).click();
    await dialog.getByRole('button', { name: 'Delete role' }).click();
    await page.getByText('The role was deleted.').waitFor();
    await expect.poll(() => table.getByRole('row', { name: /Shift lead/ }).count()).toBe(0);
    await context.close();
  });

  it('a change to a role reaches its signed-in user at once; without Role update the screen is read-only', async () => {
    const user = await signedIn('user@demo.test');
    const menu = user.page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Observations' }).first().waitFor();
    expect(await menu.getByRole('link', { name: 'Roles' }).count()).toBe(0);

    const admin = await signedIn('admin@demo.test');
    await admin.page.goto(`${server.origin('demo')}/roles`);
    const table = admin.page.getByRole('table', { name: 'Roles' });
    await table
      .getByRole('row', { name: /Safety observer/ })
      .getByRole('button', { name: 'Edit Safety observer' })
      .click();
    await box(admin.page, 'View', 'Roles').check();
    await admin.page.getByRole('button', { name: 'Save changes' }).click();
    await admin.page.getByText('The role was saved.').waitFor();

    // No reload: the push event makes the user's app reload its rules, and the menu gains Roles.
    await menu.getByRole('link', { name: 'Roles' }).waitFor({ timeout: 15_000 });
    await menu.getByRole('link', { name: 'Roles' }).click();
    const userTable = user.page.getByRole('table', { name: 'Roles' });
    await userTable.getByRole('row', { name: /Safety observer/ }).waitFor();
    expect(await user.page.getByRole('button', { name: 'New role' }).count()).toBe(0);
    await userTable.getByRole('button', { name: 'View Safety observer' }).click();
    await user.page.getByText('You may view this role but not change it.').waitFor();
    expect(await box(user.page, 'View', 'Roles').isDisabled()).toBe(true);
    expect(await user.page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await shot(user.page, 'roles-03-read-only');
    await user.context.close();
    await admin.context.close();
  });

  it('works at 360 px: the matrix scrolls sideways inside its own box', async () => {
    const { context, page } = await signedIn('admin@demo.test', { width: 360 });
    await page.goto(`${server.origin('demo')}/roles`);
    await page
      .getByRole('table', { name: 'Roles' })
      .getByRole('row', { name: /Administrator/ })
      .getByRole('button', { name: 'Edit Administrator' })
      .click();
    const region = page.getByRole('region', { name: 'Rights per module' });
    await region.waitFor();
    const sizes = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(360);
    await shot(page, 'roles-04-phone');
    await context.close();
  });
});
