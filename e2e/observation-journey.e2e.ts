import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dayFromNow, downloaded, fold, markDocument, pdfText, sameDocument, sheetRows, tinyPng } from './files.js';
import { pickOption, type RunningServer, shot, signedInPage, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
const MANAGER = 'priya.nair@demo.test';
const SUPERVISOR = 'tomasz.kowalski@demo.test';
const SITE = 'Lakeside Distribution Centre';
const DESCRIPTION = 'Emergency shower at dock 2 gives no water when the handle is pulled.';
const ACTION = 'Repair the dock 2 emergency shower valve and add it to the weekly test round.';
const DONE = 'Valve replaced, flow tested for 15 minutes, added to the weekly round.';
const CLOSING = 'Shower works; weekly test round updated.';

let server: RunningServer;
let browser: Browser;
withProduct((s, b) => {
  server = s;
  browser = b;
});

const origin = () => server.origin('demo');
/** A mark on the window: it is gone if the page reloads. */

describe('the observation journey of issue 4', () => {
  it("guest report → live on the manager's list → action for the supervisor → completed with a photo elsewhere → closed → in the export and the PDF", async () => {
    // Both staff members are signed in, in their own browsers, before anything happens.
    const manager = await signedInPage(browser, origin(), MANAGER, PASSWORD);
    const mgr = manager.page;
    await mgr.goto(`${origin()}/observations`);
    await mgr.getByRole('table', { name: 'Observations' }).waitFor();
    await markDocument(mgr);

    const supervisor = await signedInPage(browser, origin(), SUPERVISOR, PASSWORD);
    const sup = supervisor.page;
    await sup.goto(`${origin()}/actions/all`);
    await sup.getByRole('heading', { name: 'All actions', level: 1 }).waitFor();
    await markDocument(sup);

    // 1. A guest reports from a phone, signed out.
    const guestContext = await browser.newContext({ viewport: { width: 360, height: 800 }, locale: 'en-GB' });
    const guest = await guestContext.newPage();
    await guest.goto(`${origin()}/observation`);
    await guest.getByRole('heading', { name: /^Report an observation to / }).waitFor();
    await pickOption(guest, /^Type/, 'Unsafe condition');
    await guest.getByLabel(/^Description/).fill(DESCRIPTION);
    await pickOption(guest, /^Site/, SITE, 'Lakeside');
    await pickOption(guest, /^Risk potential/, /^High/);
    await guest.getByLabel(/^Comment/).fill('Tried it twice during the fire drill.');
    // By keyboard, as a phone's screen reader would.
    await guest.getByRole('switch', { name: /^Report anonymously/ }).focus();
    await guest.keyboard.press('Space');
    await expect.poll(() => guest.getByRole('switch', { name: /^Report anonymously/ }).isChecked()).toBe(true);
    await guest.locator('input[type=file]:not([capture])').setInputFiles({ name: 'shower.png', mimeType: 'image/png', buffer: tinyPng() });
    await guest
      .getByRole('listitem')
      .filter({ hasText: 'shower.png' })
      .getByText(/^\d+ B$/)
      .waitFor();
    await guest.getByRole('button', { name: 'Submit' }).click();
    const thanks = guest.getByRole('status').filter({ hasText: 'Thank you.' });
    await thanks.waitFor();
    const serial = /OBS-\d{6}/.exec((await thanks.textContent()) ?? '')?.[0] ?? '';
    expect(serial).not.toBe('');
    await shot(guest, 'journey-01-guest-sent-phone');
    await guestContext.close();

    // 2. The manager's list shows it without a reload; the manager opens it and raises an action for the supervisor.
    const link = mgr.getByRole('link', { name: serial, exact: true });
    await link.waitFor({ timeout: 15_000 });
    expect(await sameDocument(mgr)).toBe(true);
    await shot(mgr, 'journey-02-manager-list-arrived');
    await link.click();
    await mgr.waitForURL(/\/observations\/summary\/[0-9a-f-]{36}$/);
    const observationId = mgr.url().split('/').pop()!;
    await mgr.getByText(DESCRIPTION).first().waitFor();
    await mgr.getByText('Anonymous', { exact: true }).waitFor();
    await mgr.getByRole('link', { name: 'Edit', exact: true }).click();
    await mgr.getByRole('heading', { name: `Edit observation ${serial}` }).waitFor();
    await mgr.getByRole('radio', { name: 'Yes' }).check();
    const row = mgr.getByRole('group', { name: 'Action 1' });
    await row.getByLabel(/^Description/).fill(ACTION);
    await pickOption(mgr, /^Control type/, 'Engineering controls', undefined, row);
    await pickOption(mgr, /^Responsible person/, /Tomasz Kowalski/, 'Tomasz', row);
    await row.getByLabel(/^Due date/).fill(dayFromNow(10));
    await mgr.getByRole('button', { name: 'Save' }).click();
    await mgr.getByText('Observation saved.').waitFor();
    await mgr.waitForURL(`**/observations/summary/${observationId}`);
    await mgr.getByRole('listitem').filter({ hasText: ACTION }).getByText('Tomasz Kowalski').waitFor();
    await shot(mgr, 'journey-03-manager-action-raised');

    // 3. The supervisor, in another browser, sees the action arrive, starts it and completes it with a photo.
    const open = sup
      .locator('tr, li')
      .filter({ hasText: ACTION })
      .getByRole('link', { name: /^Open action #\d+$/ });
    await open.waitFor({ timeout: 15_000 });
    expect(await sameDocument(sup)).toBe(true);
    await shot(sup, 'journey-04-supervisor-list-arrived');
    await open.click();
    await sup.waitForURL(/\/actions\/all\/summary\/[0-9a-f-]{36}$/);
    const work = sup.getByRole('dialog').first();
    await work.getByText(ACTION).waitFor();
    await work.getByText(serial).first().waitFor();
    await work.getByRole('button', { name: 'Start' }).click();
    await sup.getByText('The action was started.').waitFor();
    await work.getByRole('button', { name: 'Mark completed' }).click();
    const complete = sup.getByRole('dialog', { name: /^Complete action #\d+$/ });
    await complete.getByLabel('Remarks').fill(DONE);
    await complete.locator('input[type="file"]').setInputFiles({ name: 'valve.png', mimeType: 'image/png', buffer: tinyPng() });
    await complete.getByRole('img', { name: 'Preview of valve.png' }).waitFor();
    await shot(sup, 'journey-05-supervisor-completes');
    await complete.getByRole('button', { name: 'Mark completed' }).click();
    await sup.getByText('The action was marked completed.').waitFor();
    await work.getByText('Completed', { exact: true }).first().waitFor();

    // 4. The manager's open record follows live; the manager closes the observation after confirming.
    const actionRow = mgr.getByRole('listitem').filter({ hasText: ACTION });
    await actionRow.getByText('Completed', { exact: true }).waitFor({ timeout: 15_000 });
    await mgr.getByText('In progress → Completed').waitFor();
    await mgr.getByRole('button', { name: 'Close observation' }).click();
    const closeDialog = mgr.getByRole('dialog', { name: 'Close observation' });
    await closeDialog.getByText('Close this observation? It can no longer be changed afterwards.').waitFor();
    await closeDialog.getByRole('button', { name: 'Close observation' }).click();
    await closeDialog.getByText('This field is required.').waitFor();
    await closeDialog.getByLabel(/^Closing remarks/).fill(CLOSING);
    await shot(mgr, 'journey-06-manager-closes');
    await closeDialog.getByRole('button', { name: 'Close observation' }).click();
    await mgr.getByText('Observation closed.').waitFor();
    await closeDialog.waitFor({ state: 'hidden' });
    await mgr.getByText(CLOSING, { exact: false }).first().waitFor();
    expect(await sameDocument(mgr)).toBe(true);
    await shot(mgr, 'journey-07-closed');

    // 5. The PDF report and the Excel export of the filtered list hold what was entered. Issue 15: the record
    // is a drawer over the list, so the PDF is taken from the record, and the list is used once it is closed.
    const pdf = await downloaded(mgr, () => mgr.getByRole('button', { name: 'Download PDF' }).click());
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf.bytes);
    for (const expected of [serial, DESCRIPTION, ACTION, 'Tomasz Kowalski', 'Closed', CLOSING]) expect(text).toContain(fold(expected));
    const record = mgr.getByRole('dialog', { name: 'Observations' });
    await record.getByRole('button', { name: 'Close', exact: true }).click();
    await record.waitFor({ state: 'hidden' });
    await mgr.waitForURL((u) => u.pathname === '/observations');
    expect(await sameDocument(mgr)).toBe(true);
    await mgr.getByRole('searchbox', { name: 'Search observations' }).fill('emergency shower at dock 2');
    await expect.poll(() => mgr.getByRole('table', { name: 'Observations' }).getByRole('row').count()).toBe(2);
    const sheet = await downloaded(mgr, () => mgr.getByRole('button', { name: 'Export to Excel' }).click());
    const rows = await sheetRows(sheet.bytes);
    expect(rows).toHaveLength(2);
    const [header, only] = rows as [string[], string[]];
    const col = (name: string) => only[header.indexOf(name)];
    expect(col('ID')).toBe(serial);
    expect(col('Description')).toBe(DESCRIPTION);
    expect(col('Status')).toBe('Closed');
    expect(col('Site')).toBe(SITE);
    expect(col('Reported by')).toBe('Anonymous');
    expect(col('Actions')).toBe('1 of 1 actions done');

    // The action's own export names it with its source.
    await sup.goto(`${origin()}/actions/all`);
    await sup.getByRole('heading', { name: 'All actions', level: 1 }).waitFor();
    const actions = await downloaded(sup, () => sup.getByRole('button', { name: 'Export to Excel' }).click());
    const actionRows = await sheetRows(actions.bytes);
    const [aHeader, ...aRows] = actionRows as [string[], ...string[][]];
    const ours = aRows.find((r) => r[aHeader.indexOf('Description')] === ACTION);
    expect(ours?.[aHeader.indexOf('Source')]).toBe(`Observation ${serial}`);
    expect(ours?.[aHeader.indexOf('Status')]).toBe('Completed');
    expect(ours?.[aHeader.indexOf('Remarks')]).toBe(DONE);

    await supervisor.context.close();
    await manager.context.close();
  });
});
