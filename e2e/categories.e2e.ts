import type { Browser } from 'playwright-core';
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

const pick = pickOption;

describe('categories', () => {
  it('creates a category after showing the field errors, filters the list and adds sub-categories', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/categories`);
    await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New category' }).click();
    await page.waitForURL('**/categories/new');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByText('This field is required.').count()).toBeGreaterThanOrEqual(3);
    await shot(page, 'categories-01-form-errors');

    await pick(page, 'Module', 'Observations');
    await pick(page, 'Type', 'Unsafe act');
    await page.getByLabel('Name').fill('Ladder misuse');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.pathname === '/categories');
    await page.getByText('Category Ladder misuse created.').waitFor();

    // A second one of another module, then the duplicate name refused by the server.
    await page.getByRole('link', { name: 'New category' }).click();
    await pick(page, 'Module', 'Incidents');
    await pick(page, 'Type', 'Injury');
    await page.getByLabel('Name').fill('Hand injury');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.pathname === '/categories');
    await page.getByRole('link', { name: 'New category' }).click();
    await pick(page, 'Module', 'Observations');
    await pick(page, 'Type', 'Unsafe act');
    await page.getByLabel('Name').fill('LADDER MISUSE');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('This name is already used here.').waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();

    await page.waitForURL((u) => u.pathname === '/categories');
    await page.getByRole('link', { name: 'Hand injury', exact: true }).waitFor();
    await pick(page, 'Module', 'Observations');
    await expect.poll(() => page.getByRole('link', { name: 'Hand injury', exact: true }).count()).toBe(0);
    await page.getByRole('link', { name: 'Ladder misuse', exact: true }).waitFor();
    await shot(page, 'categories-02-list-filtered');

    await page.getByRole('link', { name: 'Ladder misuse', exact: true }).click();
    await page.getByRole('heading', { name: 'Sub-categories of Ladder misuse' }).waitFor();
    await page.getByText('This category has no sub-categories yet.').waitFor();
    await page.getByLabel('New sub-category name').fill('No harness');
    await page.getByRole('button', { name: 'New sub-category', exact: true }).click();
    await page.getByRole('cell', { name: 'No harness', exact: true }).waitFor();
    await page.getByLabel('New sub-category name').fill('no HARNESS');
    await page.getByRole('button', { name: 'New sub-category', exact: true }).click();
    await page.getByText('This name is already used here.').waitFor();
    // Deactivation asks first.
    await page.getByRole('button', { name: 'Deactivate: No harness' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Activate: No harness' }).waitFor();
    await shot(page, 'categories-03-sub-categories');
    await context.close();
  });

  it('fits a 360 px wide phone', async () => {
    const { context, page } = await adminPage(360);
    await page.goto(`${server.origin('demo')}/categories`);
    await page.getByRole('link', { name: 'Working at height', exact: true }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'categories-04-phone');
    await context.close();
  });
});

describe('why analysis', () => {
  it('builds a tree, refuses a cycle, deactivates a branch together and opens an entry', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/whyanalysis`);
    // Issue 15: the title is the menu entry's.
    await page.getByRole('heading', { name: 'Root-cause settings', level: 1 }).waitFor();

    const addType = async (name: string) => {
      await page.getByRole('button', { name: 'Add type' }).click();
      await page.getByLabel('New type name').fill(name);
      await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await page.getByRole('treeitem').filter({ hasText: name }).first().waitFor();
    };
    const addBelow = async (parent: string, name: string) => {
      await page.getByRole('button', { name: `Add below: ${parent}`, exact: true }).click();
      await page.getByRole('dialog').getByLabel('Name').fill(name);
      await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    };
    await addType('Management systems');
    await addType('Contractors');
    await addBelow('Management systems', 'Audit programme');
    await page.getByRole('button', { name: 'Show entries below Management systems' }).click();
    await addBelow('Audit programme', 'Audits overdue');
    await page.getByRole('button', { name: 'Show entries below Audit programme' }).click();
    await page.getByRole('treeitem').filter({ hasText: 'Audits overdue' }).waitFor();

    // The move dialog does not offer the entry's own descendants.
    await page.getByRole('button', { name: 'Edit: Management systems', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Move to').click();
    await expect.poll(() => page.getByRole('option', { name: /Audits overdue/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await shot(page, 'whyanalysis-01-tree');

    // Type filter.
    await pick(page, 'Type', 'Contractors');
    await expect.poll(() => page.getByRole('treeitem').count()).toBe(1);
    await pick(page, 'Type', 'Management systems');
    await expect.poll(() => page.getByRole('treeitem').count()).toBe(3);

    // Deactivating People takes what is below it, after a confirmation that says so.
    await page.getByRole('button', { name: 'Deactivate: Management systems', exact: true }).click();
    await page.getByRole('dialog').getByText('It and the 2 entries below it').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate with everything below it' }).click();
    await page.getByRole('button', { name: 'Activate: Management systems', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Activate: Audit programme', exact: true }).waitFor();

    await page.getByRole('link', { name: 'Open: Audit programme', exact: true }).click();
    await page.waitForURL('**/whyanalysis/*/list');
    await page.getByRole('heading', { name: 'Audit programme', level: 1 }).waitFor();
    // The way back is named as the menu names the screen.
    await page.getByRole('main').getByRole('link', { name: 'Root-cause settings', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Audits overdue', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Management systems', exact: true }).waitFor();
    await shot(page, 'whyanalysis-02-listing');
    await context.close();
  });
});

describe('workflows', () => {
  it('creates a sequential workflow with ordered reviewers and deletes it after confirming', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/workflows`);
    await page.getByRole('heading', { name: 'Workflows', level: 1 }).waitFor();
    await page.getByText('Permit approval').waitFor();
    await page.getByRole('button', { name: 'New workflow' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Choose at least one reviewer.').waitFor();
    await dialog.getByText('Enter the workflow title.').waitFor();

    await dialog.getByLabel('Title').fill('Hot work permit review');
    await pick(page, 'Module', 'Permits', undefined, dialog);
    await pick(page, 'Add reviewer', /Dana Admin/, undefined, dialog);
    await pick(page, 'Add reviewer', /Uri Observer/, undefined, dialog);
    await dialog.getByText('2 of 5 reviewers').waitFor();
    await dialog.getByRole('button', { name: /Move Uri Observer.* up/ }).click();
    // Five at most: the picker closes at the limit.
    for (const name of [/Priya Nair/, /Tomasz Kowalski/, /Aisha Bello/]) await pick(page, 'Add reviewer', name, undefined, dialog);
    await dialog.getByText('5 of 5 reviewers').waitFor();
    expect(await dialog.getByLabel('Add reviewer').isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: /Remove Aisha Bello/ }).click();
    await dialog.getByRole('button', { name: /Remove Tomasz Kowalski/ }).click();
    await dialog.getByRole('button', { name: /Remove Priya Nair/ }).click();
    await dialog.getByLabel('Form ids').fill('0190a0a0-0000-7000-8000-0000000000f1');
    await shot(page, 'workflows-01-form');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Workflow Hot work permit review created.').waitFor();
    await page.getByText('Uri Observer → Dana Admin').waitFor();
    await shot(page, 'workflows-02-list');

    await page.getByRole('button', { name: 'Delete: Hot work permit review' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Workflow Hot work permit review deleted.').waitFor();
    await expect.poll(() => page.getByText('Uri Observer → Dana Admin').count()).toBe(0);
    await context.close();
  });
});
