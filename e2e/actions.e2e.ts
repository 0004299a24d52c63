import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { downloaded, sheetRows, tinyPng } from './files.js';
import { pickOption, type RunningServer, shot, signedInPage, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
const MANAGER = 'priya.nair@demo.test';
const SUPERVISOR = 'tomasz.kowalski@demo.test';
const DESCRIPTION = 'Fit a guard rail to the mezzanine stairs in bay 4';

let server: RunningServer;
let browser: Browser;
withProduct((s, b) => {
  server = s;
  browser = b;
});

const origin = () => server.origin('demo');
/** 'YYYY-MM-DD' a week ahead: after today in every site's time zone. */
const nextWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const panel = (page: Page) => page.getByRole('dialog').first();

async function workbookText(page: Page): Promise<string> {
  const { download, bytes } = await downloaded(page, () => page.getByRole('button', { name: 'Export to Excel' }).click());
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  return (await sheetRows(bytes)).flat().filter(Boolean).join(' | ');
}

describe('actions', () => {
  let serial = '';
  let actionId = '';

  it('a manager raises an action; the supervisor sees it arrive, starts it and completes it with a photo; the manager closes it', async () => {
    const { context: supervisorContext, page: sup } = await signedInPage(browser, origin(), SUPERVISOR, PASSWORD);
    await sup.goto(`${origin()}/actions/all`);
    await sup.getByRole('heading', { name: 'All actions', level: 1 }).waitFor();

    const { context: managerContext, page: mgr } = await signedInPage(browser, origin(), MANAGER, PASSWORD);
    await mgr.goto(`${origin()}/actions`);
    // /actions forwards to the add form, in the right panel, with the first field focused.
    await mgr.waitForURL('**/actions/new');
    const form = panel(mgr);
    await form.getByText('New action').first().waitFor();
    await expect.poll(() => mgr.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');

    // Nothing filled: the schema's messages show and nothing is sent.
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Choose a control type.').waitFor();
    await form.getByText('Choose the responsible person.').waitFor();

    await form.getByRole('textbox', { name: /^Description/ }).fill(DESCRIPTION);
    await pickOption(mgr, 'Site', 'Lakeside Distribution Centre', 'Lakeside', form);
    await pickOption(mgr, 'Control type', 'Engineering controls', undefined, form);
    await pickOption(mgr, 'Responsible person', /Tomasz Kowalski/, 'Tomasz', form);
    await form.getByLabel('Due date').fill(nextWeek());
    await shot(mgr, 'actions-01-new');
    await form.getByRole('button', { name: 'Save' }).click();
    const raised = mgr.getByText(/^Action #\d+ was raised\.$/);
    await raised.waitFor();
    serial = /#\d+/.exec((await raised.textContent()) ?? '')![0];
    await mgr.waitForURL(/\/actions\/summary\/[0-9a-f-]{36}$/);
    actionId = /summary\/([0-9a-f-]{36})/.exec(mgr.url())![1]!;
    await panel(mgr).getByText(DESCRIPTION).waitFor();

    // The supervisor's list shows it without a reload (push on the 'actions' channel).
    await sup.getByRole('link', { name: `Open action ${serial}` }).waitFor({ timeout: 15_000 });
    await sup.getByRole('link', { name: `Open action ${serial}` }).click();
    await sup.waitForURL(`**/actions/all/summary/${actionId}`);
    const work = panel(sup);
    await work.getByText(DESCRIPTION).waitFor();
    // The responsible person may start and complete, not close.
    await expect.poll(() => work.getByRole('button', { name: 'Close action' }).count()).toBe(0);
    await work.getByRole('button', { name: 'Start' }).click();
    await sup.getByText('The action was started.').waitFor();
    await work.getByText('In progress', { exact: true }).first().waitFor();

    await work.getByRole('button', { name: 'Mark completed' }).click();
    const done = sup.getByRole('dialog', { name: `Complete action ${serial}` });
    await done.getByRole('button', { name: 'Mark completed' }).click();
    await done.getByText('Describe what was done in the remarks before completing the action.').waitFor();
    await done.getByLabel('Remarks').fill('Rail fitted, bolted and load-tested.');
    await done.locator('input[type="file"]').setInputFiles({ name: 'rail.png', mimeType: 'image/png', buffer: tinyPng() });
    await done.getByRole('img', { name: 'Preview of rail.png' }).waitFor();
    await done.getByText('JPEG, PNG, GIF or WebP, up to 10 MB.').waitFor();
    await shot(sup, 'actions-02-complete-with-photo');
    await done.getByRole('button', { name: 'Mark completed' }).click();
    await sup.getByText('The action was marked completed.').waitFor();
    await work.getByText('Completed', { exact: true }).first().waitFor();
    await work.getByRole('tab', { name: 'Attachments (1)' }).click();
    await sup.waitForURL(`**/actions/all/summary/${actionId}/attachments`);
    await work.getByRole('img', { name: 'rail.png' }).waitFor();
    await shot(sup, 'actions-03-attachments');

    // The manager's open panel follows live: completed, and closing asks first.
    const review = panel(mgr);
    await review.getByText('Completed', { exact: true }).first().waitFor({ timeout: 15_000 });
    await review.getByText('Rail fitted, bolted and load-tested.').waitFor();
    await review.getByRole('button', { name: 'Close action' }).click();
    const ask = mgr.getByRole('dialog', { name: 'Close this action?' });
    await ask.getByText('A closed action can no longer be changed.').waitFor();
    await shot(mgr, 'actions-04-confirm-close');
    await ask.getByRole('button', { name: 'Close action' }).click();
    await mgr.getByText('The action was closed.').waitFor();
    await review.getByText('This action is closed and can no longer be changed.').waitFor();
    await review.getByRole('tab', { name: 'History' }).click();
    await review.getByText('Completed → Closed').waitFor();
    await review.getByText('File added').waitFor();
    await shot(mgr, 'actions-05-history');

    // Escape closes the panel and returns to the list it covered.
    await mgr.keyboard.press('Escape');
    await mgr.waitForURL((u) => u.pathname === '/actions/all' && u.searchParams.get('source_type') === 'other');
    await supervisorContext.close();
    await managerContext.close();
  });

  it('filters by status tab and assignee, and exports exactly the filtered rows', async () => {
    const { context, page } = await signedInPage(browser, origin(), MANAGER, PASSWORD);
    await page.goto(`${origin()}/actions/all/closed`);
    await page.getByRole('tab', { name: /^Closed \(\d+\)$/, selected: true }).waitFor();
    await page.getByRole('link', { name: `Open action ${serial}` }).waitFor();
    expect(await workbookText(page)).toContain(DESCRIPTION);

    // "Assigned to me": Priya holds none of them, so the row and the export both go.
    await page.getByText('Assigned to me').click();
    await page.getByText('No action is assigned to you here.').waitFor();
    expect(await workbookText(page)).not.toContain(DESCRIPTION);
    await shot(page, 'actions-06-list-filtered');
    await context.close();
  });

  it('edits an action in the panel: the focus starts on the first field, the change shows in the history', async () => {
    const { context, page } = await signedInPage(browser, origin(), MANAGER, PASSWORD);
    await page.goto(`${origin()}/actions/all/open`);
    const row = page.getByRole('row').filter({ hasText: 'Install a fixed guard on the paint shop mixer drive belt' });
    await row.getByRole('link').first().click();
    const view = panel(page);
    await view.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(/\/actions\/all\/edit\/[0-9a-f-]{36}\/details\?status=open$/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await view.getByLabel('Due date').fill(due);
    await view.getByRole('textbox', { name: /^Description/ }).fill('');
    await view.getByRole('button', { name: 'Save' }).click();
    await view.getByText('This field is required.').waitFor();
    await view.getByRole('textbox', { name: /^Description/ }).fill('Install a fixed guard on the paint shop mixer drive belt and lock it');
    await view.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The action was saved.').waitFor();
    await page.waitForURL(/\/actions\/all\/summary\/[0-9a-f-]{36}\/details\?status=open$/);
    await view.getByRole('tab', { name: 'History' }).click();
    await view.getByText(/^Due date: .+ → .+$/).waitFor();
    await shot(page, 'actions-07-edited-history');
    await context.close();
  });

  it('offers the action categories to someone who may raise actions but not manage categories', async () => {
    const { context, page } = await signedInPage(browser, origin(), SUPERVISOR, PASSWORD);
    await page.goto(`${origin()}/actions/new`);
    const form = panel(page);
    await form.getByLabel('Category').first().click();
    await page.getByRole('option', { name: 'Training' }).waitFor();
    await context.close();
  });

  it('works on a phone: cards, and the panel over the whole screen', async () => {
    const { context, page } = await signedInPage(browser, origin(), SUPERVISOR, PASSWORD, 360);
    await page.goto(`${origin()}/actions/all`);
    const card = page.getByRole('listitem').filter({ hasText: DESCRIPTION });
    await card.waitFor();
    await shot(page, 'actions-08-phone-list');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    await card.getByRole('link', { name: `Open action ${serial}` }).click();
    const sheet = panel(page);
    await sheet.getByText(DESCRIPTION).waitFor();
    const box = await page.locator('.mantine-Drawer-content').boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(359);
    await shot(page, 'actions-09-phone-panel');
    await sheet.getByRole('button', { name: 'Close the panel' }).click();
    await page.waitForURL((u) => u.pathname === '/actions/all');
    await context.close();
  });
});
