import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dayFromNow, downloaded, expectNoOverflow, fold, markDocument, pdfText, sameDocument, sheetRows, tinyPng } from './files.js';
import { pickOption, type RunningServer, shot, signedInPage, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
const MANAGER = 'priya.nair@demo.test';
const SUPERVISOR = 'tomasz.kowalski@demo.test';
const SITE = 'Riverside Manufacturing Plant';
let server: RunningServer;
let browser: Browser;

withProduct((s, b) => {
  server = s;
  browser = b;
});

// What the guest reports; later steps look for it in the list, the report, the PDF and the workbook.
const DESCRIPTION = 'Loose cable across the loading bay ramp near door 3, trip hazard for pallet truck drivers.';
const COMMENT = 'Taped it down for now.';
const ACTION = 'Route the cable through a ramp cover and re-check door 3 weekly.';
let serial = '';
let observationId = '';

/** The "All (n)" tab's count. */
async function allCount(page: Page): Promise<number> {
  const text = (await page.getByRole('tab', { name: /^All/ }).textContent()) ?? '';
  const m = /\((\d+)\)/.exec(text);
  if (!m) throw new Error(`no count in "${text}"`);
  return Number(m[1]);
}

describe('observations', () => {
  it("a guest reports with a photo from a phone and the manager's open list shows it without reloading", async () => {
    const manager = await signedInPage(browser, server.origin('demo'), MANAGER, PASSWORD);
    const list = manager.page;
    // Issue 15: /observations is the list over the whole width; no form opens by itself.
    await list.goto(`${server.origin('demo')}/observations`);
    await list.getByRole('table', { name: 'Observations' }).waitFor();
    expect(await list.getByRole('dialog').count()).toBe(0);
    await list.getByRole('tab', { name: /^All \(\d+\)/ }).waitFor();
    const before = await allCount(list);
    // A mark on the window: it is gone if the page reloads.
    await markDocument(list);
    await shot(list, 'observations-01-list');

    const guestContext = await browser.newContext({ viewport: { width: 360, height: 800 }, locale: 'en-GB' });
    const guest = await guestContext.newPage();
    await guest.goto(`${server.origin('demo')}/observation`);
    await guest.getByRole('heading', { name: /^Report an observation to / }).waitFor();
    await shot(guest, 'observations-02-guest-empty-phone');

    // Nothing filled: the form says what is missing before anything is sent.
    await guest.getByRole('button', { name: 'Submit' }).click();
    await guest.getByText('Select the type.').waitFor();
    await shot(guest, 'observations-03-guest-errors-phone');

    await pickOption(guest, /^Type/, 'Unsafe condition');
    await guest.getByLabel(/^Description/).fill(DESCRIPTION);
    await pickOption(guest, /^Site/, SITE, 'Riverside');
    await pickOption(guest, /^Risk potential/, /^High/);
    await guest.getByLabel(/^Comment/).fill(COMMENT);
    await guest.locator('input[type=file]:not([capture])').setInputFiles({ name: 'cable.png', mimeType: 'image/png', buffer: tinyPng() });
    // Uploaded: the size is shown instead of the progress.
    await guest
      .getByRole('listitem')
      .filter({ hasText: 'cable.png' })
      .getByText(/^\d+ B$/)
      .waitFor();
    await guest.getByRole('textbox', { name: 'Your name' }).fill('Sam Driver');
    // The errors of the first try went as their fields were filled in.
    expect(await guest.getByText('Select the type.').count()).toBe(0);
    expect(await guest.getByText('This field is required.').count()).toBe(0);
    await expectNoOverflow(guest);
    await shot(guest, 'observations-04-guest-filled-phone');
    await guest.getByRole('button', { name: 'Submit' }).click();
    const thanks = guest.getByRole('status').filter({ hasText: 'Thank you.' });
    await thanks.waitFor();
    serial = /OBS-\d+/.exec((await thanks.textContent()) ?? '')?.[0] ?? '';
    expect(serial).toMatch(/^OBS-\d{6}$/);
    await shot(guest, 'observations-05-guest-thanks-phone');
    await guestContext.close();

    // The manager's list, untouched since before the report, shows it.
    const row = list.getByRole('row').filter({ has: list.getByRole('link', { name: serial, exact: true }) });
    await row.waitFor({ timeout: 15_000 });
    await row.getByText('Unsafe condition').waitFor();
    await expect.poll(() => allCount(list)).toBe(before + 1);
    expect(await sameDocument(list)).toBe(true);
    await shot(list, 'observations-06-list-arrived');
    await manager.context.close();
  });

  it('the manager opens it, adds an action for the site supervisor, and reads the printable report and its PDF', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), MANAGER, PASSWORD);
    await page.goto(`${server.origin('demo')}/observations`);
    await page.getByRole('link', { name: serial, exact: true }).click();
    await page.waitForURL(/\/observations\/summary\/[0-9a-f-]{36}$/);
    observationId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: serial, level: 2 }).waitFor();
    await page.getByText(DESCRIPTION).first().waitFor();
    await page.getByText('Sam Driver (Guest)').waitFor();
    // The photo is shown (fetched with the session: a bare <img src> would be refused).
    const photo = page.getByRole('img', { name: 'cable.png' });
    await expect.poll(() => photo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(2);
    await shot(page, 'observations-07-summary');

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(`**/observations/edit/${observationId}`);
    await page.getByRole('heading', { name: `Edit observation ${serial}` }).waitFor();
    await page.getByRole('radio', { name: 'Yes' }).check();
    const row = page.getByRole('group', { name: 'Action 1' });
    // An empty action row is refused under its fields, before anything is sent.
    await page.getByRole('button', { name: 'Save' }).click();
    await row
      .getByText(/required|Enter|Select/)
      .first()
      .waitFor();
    await row.getByLabel(/^Description/).fill(ACTION);
    await pickOption(page, /^Control type/, 'Engineering controls', undefined, row);
    await pickOption(page, /^Responsible person/, /Tomasz Kowalski/, 'Tomasz', row);
    await row.getByLabel(/^Due date/).fill(dayFromNow(14));
    expect(await row.locator('[aria-invalid="true"]').count()).toBe(0);
    await shot(page, 'observations-08-edit-action');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Observation saved.').waitFor();
    await page.waitForURL(`**/observations/summary/${observationId}`);
    const actionRow = page.getByRole('listitem').filter({ hasText: ACTION });
    await actionRow.getByText('Tomasz Kowalski').waitFor();
    await actionRow.getByText(dayFromNow(14)).waitFor();
    await shot(page, 'observations-09-summary-with-action');

    await page.getByRole('link', { name: 'Report', exact: true }).click();
    await page.waitForURL(`**/observations/${observationId}/report`);
    await page.getByRole('heading', { name: `Observation report ${serial}` }).waitFor();
    await page.getByText(DESCRIPTION).waitFor();
    await page.getByText(COMMENT).waitFor();
    await page.getByText(SITE).first().waitFor();
    await page.getByRole('row').filter({ hasText: ACTION }).getByText('Tomasz Kowalski').waitFor();
    await shot(page, 'observations-10-report');

    const { download, bytes } = await downloaded(page, () => page.getByRole('button', { name: 'Download PDF' }).click());
    expect(download.suggestedFilename()).toBe(`${serial}.pdf`);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(bytes);
    expect(text).toContain(serial);
    expect(text).toContain(fold(DESCRIPTION));
    expect(text).toContain('Tomasz Kowalski');
    await context.close();
  });

  it('exports exactly the filtered row to Excel', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), MANAGER, PASSWORD);
    await page.goto(`${server.origin('demo')}/observations`);
    await page.getByRole('table', { name: 'Observations' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search observations' }).fill('loading bay ramp');
    await expect.poll(() => page.getByRole('table', { name: 'Observations' }).getByRole('row').count()).toBe(2);
    await page.getByRole('link', { name: serial, exact: true }).waitFor();
    await shot(page, 'observations-11-list-filtered');
    const { bytes } = await downloaded(page, () => page.getByRole('button', { name: 'Export to Excel' }).click());
    const rows = await sheetRows(bytes);
    expect(rows).toHaveLength(2);
    const [header, only] = rows as [string[], string[]];
    const col = (name: string) => only[header.indexOf(name)];
    expect(col('ID')).toBe(serial);
    expect(col('Description')).toBe(DESCRIPTION);
    expect(col('Site')).toBe(SITE);
    expect(col('Risk potential')).toBe('High');
    await context.close();
  });

  it('imports nothing from a workbook with one wrong row and says which', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), MANAGER, PASSWORD);
    await page.goto(`${server.origin('demo')}/observations`);
    await page.getByRole('tab', { name: /^All \(\d+\)/ }).waitFor();
    const before = await allCount(page);

    await page.getByRole('button', { name: 'Import from Excel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import observations' });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Observations');
    ws.addRow(['Type', 'Site', 'Date and time (YYYY-MM-DD HH:mm)', 'Risk potential', 'Description', 'Comment']);
    ws.addRow(['Unsafe act', SITE, `${dayFromNow(-3)} 09:30`, 'Low', 'Imported: ladder used without a spotter.', 'From the weekly walk.']);
    ws.addRow([
      'Unsafe condition',
      'Atlantis Plant',
      `${dayFromNow(-2)} 10:00`,
      'Medium',
      'Imported: guard missing on conveyor.',
      'From the weekly walk.',
    ]);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'observations.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await dialog.getByText('Nothing was imported. Correct these rows and try again.').waitFor();
    await dialog.getByRole('row', { name: /^3 Site Choose an active site of your organisation\.$/ }).waitFor();
    expect(await dialog.getByRole('row', { name: /^2 / }).count()).toBe(0);
    await shot(page, 'observations-12-import-errors');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.reload();
    await page.getByRole('tab', { name: /^All \(\d+\)/ }).waitFor();
    expect(await allCount(page)).toBe(before);
    await page.getByRole('searchbox', { name: 'Search observations' }).fill('ladder used without a spotter');
    await page.getByText('Nothing matches your search.').waitFor();
    await context.close();
  });

  it('a staff member reports from the form: a future time is refused under the field, a past one is taken', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), SUPERVISOR, PASSWORD);
    await page.goto(`${server.origin('demo')}/observations/new`);
    // Issue 15: the form opens in a drawer over the list, whose filters carry the same labels (Type, Site, …).
    const form = page.getByRole('dialog', { name: 'Observations' });
    await form.getByRole('heading', { name: 'Report an observation' }).waitFor();
    await pickOption(page, /^Type/, 'Unsafe act', undefined, form);
    await form.getByLabel(/^Description/).fill('Forklift driven with raised forks through the pedestrian crossing.');
    await pickOption(page, /^Site/, SITE, 'Riverside', form);
    await form.getByLabel(/^Date and time/).fill(`${dayFromNow(2)}T10:00`);
    await pickOption(page, /^Risk potential/, /^Medium/, undefined, form);
    await form.getByRole('radio', { name: 'No' }).check();
    await form.getByLabel(/^Comment/).fill('Driver briefed on the spot.');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText('The date and time cannot be in the future at this site.').waitFor();
    await expect.poll(() => form.getByLabel(/^Date and time/).getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'observations-13-form-future-time');

    await form.getByLabel(/^Date and time/).fill(`${dayFromNow(-1)}T10:00`);
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(/^Observation OBS-\d{6} reported\.$/).waitFor();
    await page.waitForURL(/\/observations\/summary\/[0-9a-f-]{36}$/);
    await page.getByText('Forklift driven with raised forks through the pedestrian crossing.').first().waitFor();
    await page.getByText('Tomasz Kowalski', { exact: true }).first().waitFor();
    await shot(page, 'observations-14-summary-staff');
    await context.close();
  });

  it('every screen fits a phone, and the guest page a desktop', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), MANAGER, PASSWORD, 360);
    const o = server.origin('demo');
    await page.goto(`${o}/observations/new`);
    await page.getByRole('heading', { name: 'Report an observation' }).waitFor();
    await page.getByRole('table', { name: 'Observations' }).waitFor();
    await expectNoOverflow(page);
    await shot(page, 'observations-15-new-phone');

    await page.goto(`${o}/observations/summary/${observationId}`);
    await page.getByRole('heading', { name: serial, level: 2 }).waitFor();
    await page.getByText(DESCRIPTION).first().waitFor();
    await expectNoOverflow(page);
    await shot(page, 'observations-16-summary-phone');

    await page.goto(`${o}/observations/edit/${observationId}`);
    await page.getByRole('heading', { name: `Edit observation ${serial}` }).waitFor();
    await expectNoOverflow(page);
    await shot(page, 'observations-17-edit-phone');

    await page.goto(`${o}/observations/${observationId}/report`);
    await page.getByRole('heading', { name: `Observation report ${serial}` }).waitFor();
    await expectNoOverflow(page);
    await shot(page, 'observations-18-report-phone');

    // Issue 15: on a phone the list comes first, with a floating Report button and one Filters button;
    // import and export are desk work and are not offered there (the import dialog is tested above).
    await page.goto(`${o}/observations`);
    await page.getByRole('table', { name: 'Observations' }).waitFor();
    await page.getByRole('link', { name: 'Report', exact: true }).waitFor();
    const filters = page.getByRole('button', { name: 'Filters' });
    expect(await filters.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('button', { name: 'Import from Excel' }).count()).toBe(0);
    await filters.click();
    await page.getByLabel('From', { exact: true }).waitFor();
    await expectNoOverflow(page);
    await shot(page, 'observations-19-list-phone');
    await context.close();

    const guestContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const guest = await guestContext.newPage();
    await guest.goto(`${o}/observation`);
    await guest.getByRole('heading', { name: /^Report an observation to / }).waitFor();
    await shot(guest, 'observations-20-guest-desktop');
    await guestContext.close();
  });
});
