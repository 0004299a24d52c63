import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pickOption, type RunningServer, shot, signedInPage, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
let server: RunningServer;
let browser: Browser;

withProduct((s, b) => {
  server = s;
  browser = b;
});

const adminPage = (width = 1280) => signedInPage(browser, server.origin('demo'), 'admin@demo.test', PASSWORD, width);

const pick = (page: Page, label: string | RegExp, typed: string, option: string | RegExp) => pickOption(page, label, option, typed);

describe('sites', () => {
  it('creates a site through the form, showing the field errors first', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/sites`);
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New site' }).click();
    await page.waitForURL('**/sites/new');
    await page.getByRole('heading', { name: 'New site' }).waitFor();

    // Nothing filled: the schema's messages appear under the fields without a call.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Select a time zone.').waitFor();
    await page.getByText('Select the head of safety.').waitFor();

    await page.getByLabel('Site name').fill('Harbour 7');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Use letters, spaces and').first().waitFor();
    await shot(page, 'sites-01-form-errors');

    await page.getByLabel('Site name').fill('Harbour Terminal');
    await page.getByLabel('Short name').fill('Harbour');
    await page.getByLabel('Site ID').fill('HT-9');
    await pick(page, 'Time zone', 'Europe/Lon', 'Europe/London');
    await pick(page, 'Head of safety', 'Dana', /Dana Admin/);
    await page.getByLabel('Emergency phone').fill('12345');
    await page.getByLabel('Address').fill('3 Quay Street');
    await page.getByLabel('City').fill('Bristol');
    await page.getByLabel('State').fill('Somerset');
    await pick(page, 'Country', 'United Kingdom', /United Kingdom/);
    await page.getByLabel('Zip code').fill('BS1 4DJ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Invalid phone number.').waitFor();

    await page.getByLabel('Emergency phone').fill('0117 496 0123');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => u.pathname === '/sites');
    await page.getByText('The site was created.').waitFor();
    await page.getByRole('link', { name: 'Harbour Terminal', exact: true }).waitFor();
    await shot(page, 'sites-02-list');
    await context.close();
  });

  it('builds the division tree and deactivates the site after confirming', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/sites`);
    await page.getByRole('link', { name: 'Divisions: Harbour Terminal' }).click();
    await page.getByRole('heading', { name: 'Divisions of Harbour Terminal' }).waitFor();
    await page.getByText('This site has no divisions yet.').waitFor();

    await page.getByRole('button', { name: 'Add division' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Port Operations');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Port Operations was added.').waitFor();

    await page.getByRole('button', { name: 'Add department: Port Operations' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Cargo Handling');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Add unit: Cargo Handling' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Berth 2');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Berth 2', { exact: true }).waitFor();

    // A sibling with the same name is refused under the field.
    await page.getByRole('button', { name: 'Add division' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('port operations');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').getByText('This name is already used here.').waitFor();
    await shot(page, 'sites-03-tree-dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await shot(page, 'sites-04-tree');

    await page.goto(`${server.origin('demo')}/sites`);
    await page.getByRole('button', { name: 'Deactivate: Harbour Terminal' }).click();
    await page.getByRole('dialog').getByText('Deactivate Harbour Terminal?').waitFor();
    await shot(page, 'sites-05-confirm-deactivate');
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('The site was deactivated.').waitFor();
    await page.getByRole('button', { name: 'Activate: Harbour Terminal' }).waitFor();
    await page.locator('label', { hasText: 'Inactive sites' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Harbour Terminal', exact: true }).count()).toBe(1);
    await context.close();
  });

  it('edits manpower for a year and shows the default for unset months', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/manpower`);
    await page.getByRole('heading', { name: 'Manpower' }).waitFor();
    const jan = page.getByRole('textbox', { name: /^Harbour Terminal, Jan/ });
    await jan.fill('250');
    await page.getByText('You have unsaved changes.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Manpower was saved.').waitFor();
    // Eleven months at 100 and January at 250.
    await page
      .getByRole('row', { name: /Harbour Terminal/ })
      .getByText('1,350')
      .waitFor();
    await shot(page, 'sites-06-manpower');
    await context.close();
  });

  it('works on a phone-sized screen', async () => {
    const { context, page } = await adminPage(360);
    await page.goto(`${server.origin('demo')}/sites`);
    await page.getByRole('link', { name: 'Harbour Terminal', exact: true }).waitFor();
    await shot(page, 'sites-07-list-phone');
    await page.goto(`${server.origin('demo')}/sites/new`);
    await page.getByLabel('Site name').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, 'sites-08-form-phone');
    await context.close();
  });
});
