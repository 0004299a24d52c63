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

/** 'YYYY-MM-DD' of the browser's today shifted by days (what the date inputs hold). */
function day(shift: number): string {
  const d = new Date();
  d.setDate(d.getDate() + shift);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('safety interactions', () => {
  let serial = '';

  it('a safety manager records an interaction from a phone: people, topics, a safe and an at-risk behaviour, an agreed action', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), 'priya.nair@demo.test', PASSWORD, 360);
    await page.goto(`${server.origin('demo')}/safety-interactions/new`);
    await page.getByRole('heading', { name: 'New safety interaction', level: 1 }).waitFor();

    // Nothing chosen: the schema's messages show without a call.
    await page.getByRole('button', { name: 'Save as completed' }).click();
    await page.getByText('Choose the site.').waitFor();
    await page.getByText('Name the people or describe the crew you spoke with.').waitFor();

    await pickOption(page, 'Site', 'Riverside Manufacturing Plant', 'Riverside');
    await pickOption(page, 'Area', /Line A/, 'Line A');
    await page.getByLabel('Exact location').fill('Mezzanine stairs');
    await pickOption(page, 'Add a member', /Aisha Bello/, 'Aisha');
    await page.getByLabel('Add a name (contractor or visitor)').fill('Sam Okafor (Apex Scaffolding)');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Sam Okafor (Apex Scaffolding)').waitFor();

    await page.getByText('PPE', { exact: true }).click();
    await page.getByText('Line of fire', { exact: true }).click();
    await page.getByRole('button', { name: 'Add a safe behaviour' }).click();
    await pickOption(page, 'Safe behaviours observed 1: Topic', 'PPE');
    await page.getByLabel('Safe behaviours observed 1: What was seen').fill('Gloves and glasses worn on the cutting bench');
    await page.getByRole('button', { name: 'Add an at-risk behaviour' }).click();
    await pickOption(page, 'At-risk behaviours observed 1: Topic', 'Line of fire');
    await page.getByLabel('At-risk behaviours observed 1: What was seen').fill('Standing under a suspended load');
    await page.getByLabel('Positive recognition given').check();

    await page.getByRole('button', { name: 'Add an agreed action' }).click();
    const row = page.getByRole('group', { name: 'Agreed action 1' });
    await row.getByLabel('Description').fill('Barrier off the lifting zone during crane moves');
    await pickOption(page, 'Control type', 'Engineering controls', undefined, row);
    await pickOption(page, 'Responsible person', /Tomasz Kowalski/, 'Tomasz', row);
    await row.getByLabel('Due date').fill(day(7));
    await shot(page, 'si-01-form-phone');

    await page.getByRole('button', { name: 'Save as completed' }).click();
    const done = page.getByText(/The interaction SI-\d{6} was recorded\./);
    await done.waitFor();
    serial = /SI-\d{6}/.exec((await done.textContent()) ?? '')![0];
    await page.waitForURL((u) => u.pathname === '/safety-interactions');
    await page.getByRole('link', { name: serial, exact: true }).waitFor();
    await shot(page, 'si-02-list-phone');

    // The report holds what was entered.
    await page.getByRole('link', { name: `Report: ${serial}` }).click();
    await page.getByRole('heading', { name: `Safety interaction ${serial}`, level: 1 }).waitFor();
    await page.getByText('Standing under a suspended load').waitFor();
    await page.getByText('Gloves and glasses worn on the cutting bench').waitFor();
    await page.getByText('Barrier off the lifting zone during crane moves').waitFor();
    await page.getByText('Aisha Bello, Sam Okafor (Apex Scaffolding)').waitFor();
    await page.getByRole('button', { name: 'Print' }).waitFor();
    await shot(page, 'si-03-report-phone');
    await context.close();
  });

  it('the interaction shows on the dashboard, the summary and the safety-interaction action list', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), 'priya.nair@demo.test', PASSWORD, 1280);
    await page.goto(`${server.origin('demo')}/si-dashboard`);
    await page.getByRole('heading', { name: 'Safety interactions dashboard', level: 1 }).waitFor();
    const top = page.locator('section', { has: page.getByRole('heading', { name: 'Top at-risk topics' }) });
    await top.getByText('Line of fire').waitFor();
    const open = page.locator('section', { has: page.getByRole('heading', { name: 'Open agreed actions' }) });
    const count = Number(await open.locator('p').first().textContent());
    expect(count).toBeGreaterThanOrEqual(1);
    await shot(page, 'si-04-dashboard');

    await page.getByRole('tab', { name: 'Summary' }).click();
    await page.waitForURL('**/safety-interactions/summary');
    const byTopic = page.getByRole('table', { name: 'By topic' });
    const lineOfFire = byTopic.getByRole('row', { name: /Line of fire/ });
    await lineOfFire.waitFor();
    const cells = await lineOfFire.getByRole('cell').allTextContents();
    // Topic, discussed, safe, at risk: at least this interaction's one at-risk behaviour.
    expect(Number(cells[1])).toBeGreaterThanOrEqual(1);
    expect(Number(cells[3])).toBeGreaterThanOrEqual(1);
    await shot(page, 'si-05-summary');

    await page.goto(`${server.origin('demo')}/actions/safety_interaction`);
    await page.getByText('Barrier off the lifting zone during crane moves').first().waitFor();
    await context.close();
  });

  it('plans an interaction, then records it from the plan and sees the plan done', async () => {
    const { context, page } = await signedInPage(browser, server.origin('demo'), 'priya.nair@demo.test', PASSWORD, 360);
    await page.goto(`${server.origin('demo')}/safety-interactions/scheduling`);
    await page.getByRole('heading', { name: 'Scheduling', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Plan an interaction' }).click();
    const dialog = page.getByRole('dialog');
    await pickOption(page, 'Observer', /Priya Nair/, 'Priya', dialog);
    await pickOption(page, 'Site', 'Riverside Manufacturing Plant', 'Riverside', dialog);
    await dialog.getByLabel('Planned date').fill(day(0));
    await dialog.getByLabel('Note').fill('Walk the goods-in dock with the night shift');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The interaction was planned.').waitFor();
    const planned = page
      .getByRole('row', { name: /Priya Nair/ })
      .filter({ hasText: 'Planned' })
      .first();
    await planned.waitFor();
    await shot(page, 'si-06-scheduling-phone');

    await planned.getByRole('link', { name: /^Record/ }).click();
    await page.getByRole('heading', { name: 'New safety interaction', level: 1 }).waitFor();
    await page.getByLabel('Crew or team').fill('Goods-in night shift');
    await page.getByText('Housekeeping', { exact: true }).click();
    await page.getByRole('button', { name: 'Save as completed' }).click();
    await page.getByText(/The interaction SI-\d{6} was recorded\./).waitFor();

    await page.goto(`${server.origin('demo')}/safety-interactions/scheduling`);
    await page
      .getByRole('row', { name: /Priya Nair/ })
      .filter({ hasText: /Recorded as SI-\d{6}/ })
      .first()
      .waitFor();
    await context.close();
  });
});
